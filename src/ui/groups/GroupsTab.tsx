/**
 * Consumer groups as containers and consumers as chips. Drag a chip to another group (the
 * consumer leaves its group and joins the other: both rebalance), to "stopped" (it leaves and
 * stops), or back. The keyboard does the same: Space picks a chip up, arrows jump between
 * groups, Space drops; every chip also has a "move to" menu.
 */
import { DndContext, type DragEndEvent, useDraggable, useDroppable } from '@dnd-kit/core';
import { useDragSensors } from '../dragSensors';
import { memo, useState } from 'react';
import type {
  GroupProtocol,
  CommitMode,
  ConsumerCrashView,
  BoardConsumerView,
  BoardGroupView,
  BoardView,
} from '../../engine/apps/types';
import { ASSIGNORS, COMMIT_MODES } from '../../worker/client';
import { act } from '../cluster/boardClient';
import { useFocused } from '../events/useFocused';
import { Term } from '../glossary/Term';
import { GroupLeaderTag } from './GroupLeaderTag';
import { setBoard, useBoard } from '../store';
import { checkGroupId } from '../forms/validate';
import type { Session } from '../session';
import { ClientChip, ClientGroupNote } from './ClientChip';
import { CrashDelivery } from './CrashDelivery';
import { DescribeTable } from './DescribeTable';
import { GenerationsTimeline } from './GenerationsTimeline';
import { jumpBetweenDropZones } from './keyboardCoordinates';
import { LagChart } from './LagChart';
import { OffsetsWriteStall } from './OffsetsWriteStall';
import { PositionsView } from './PositionsView';
import { truncationText } from './truncationText';
import { RebalanceStory } from './RebalanceStory';
import { RebalancePhaseStrip } from './RebalancePhaseStrip';
import { useDrawnPartitions, useDrawnPhase } from './phaseBoard';
import { GroupStateBadges, GroupStateMachine } from './GroupStateShown';
import { useShownGenerations } from './useShownGenerations';
import { ZookeeperGroupBody } from './ZookeeperGroup';
import { Options } from '../forms/Options';
import { SelectField } from '../forms/SelectField';
import { type ChipProps, type GroupCardProps, sameChip, sameGroupCard } from './cardProps';

const STOPPED = '__stopped';
/** Above this many groups the board is drawn for scale (off-screen cards skip layout and paint). */
const AT_SCALE_GROUPS = 8;
const NONE: BoardConsumerView[] = [];
/** Up to this many groups, each chip's move menu is a plain select. */
const MENU_AS_SELECT = 6;
const COMMIT_MODE_LABEL: Record<CommitMode, string> = {
  auto: 'auto commit (enable.auto.commit)',
  'after-processing': 'after processing (duplicates, case 1)',
  'before-processing': 'before processing (losses, case 2)',
};

const GROUP_PROTOCOLS: readonly GroupProtocol[] = ['coordinator', 'zookeeper'];
const GROUP_PROTOCOL_LABEL: Record<GroupProtocol, string> = {
  coordinator: 'group coordinator',
  zookeeper: 'ZooKeeper consumer (legacy, Kafka 0.8)',
};

export function GroupsTab({ session, view }: { session: Session; view: BoardView }) {
  const sensors = useDragSensors(jumpBetweenDropZones);
  const [selected, setSelected] = useState<string | null>(null);
  const [newGroup, setNewGroup] = useState('');
  const focus = view.groups.find((g) => g.groupId === selected) ?? view.groups[0] ?? null;
  const stopped = view.consumers.filter((c) => c.group === null);
  const groupIds = view.groups.map((x) => x.groupId).join(',');
  const byGroup = new Map<string, BoardConsumerView[]>();
  for (const c of view.consumers) {
    if (c.group === null) continue;
    const list = byGroup.get(c.group);
    if (list) list.push(c);
    else byGroup.set(c.group, [c]);
  }
  const lastCrash = new Map<string, ConsumerCrashView>();
  for (const c of view.crashes) lastCrash.set(c.group, c);
  // Many groups: cards off screen skip layout and paint (content-visibility), see board.css.
  const atScale = view.groups.length > AT_SCALE_GROUPS;

  function onDragEnd(e: DragEndEvent) {
    const name = e.active.data.current?.name as string | undefined;
    const to = e.over?.data.current?.group as string | undefined;
    if (!name || to === undefined) return;
    const from = view.consumers.find((c) => c.name === name)?.group ?? null;
    const target = to === STOPPED ? null : to;
    if (from === target) return;
    void act(session, { op: 'moveConsumer', name, group: target });
  }

  return (
    <div className={`groups-tab${atScale ? ' at-scale' : ''}`}>
      <DndContext
        sensors={sensors}
        onDragEnd={onDragEnd}
        accessibility={{
          screenReaderInstructions: {
            draggable:
              'To move a consumer, press Space or Enter to pick it up, the arrow keys to go from group to group, and Space or Enter again to drop it. Escape cancels.',
          },
        }}
      >
        <div className={`groups-board${atScale ? ' at-scale' : ''}`}>
          {view.groups.map((g) => (
            <GroupCard
              key={g.groupId}
              session={session}
              groupIds={groupIds}
              group={g}
              consumers={byGroup.get(g.groupId) ?? NONE}
              crash={lastCrash.get(g.groupId)}
              selected={focus?.groupId === g.groupId}
              onSelect={setSelected}
            />
          ))}
          <StoppedTray session={session} groupIds={groupIds} consumers={stopped} />
        </div>
      </DndContext>
      <form
        className="row add-group"
        onSubmit={(e) => {
          e.preventDefault();
          const checked = checkGroupId(newGroup);
          if (!checked.ok) {
            setBoard({ error: checked.message });
            return;
          }
          void act(session, { op: 'addGroup', group: checked.value, assignor: 'range' }).then(
            (ok) => ok && setNewGroup(''),
          );
        }}
      >
        <label>
          New group id{' '}
          <input data-testid="new-group-id" value={newGroup} onChange={(e) => setNewGroup(e.target.value)} />
        </label>
        <button type="submit" className="btn" data-testid="add-group">
          Add group
        </button>
      </form>
      {focus && (
        <div className="groups-detail">
          <ShownTimeline group={focus} />
          <RebalanceStory groupId={focus.groupId} />
          <LagChart group={focus} />
        </div>
      )}
      <PositionsView view={view} />
      <DescribeTable view={view} focus={focus?.groupId ?? null} />
    </div>
  );
}

/** The generations timeline, its newest column added when the rebalance shown reaches assign. */
function ShownTimeline({ group }: { group: BoardGroupView }) {
  return <GenerationsTimeline group={useShownGenerations(group)} />;
}

const GroupCard = memo(function GroupCard({
  session,
  groupIds,
  group: g,
  consumers,
  crash,
  selected,
  onSelect,
}: GroupCardProps) {
  const { setNodeRef, isOver } = useDroppable({ id: `group-drop-${g.groupId}`, data: { group: g.groupId } });
  const leaderName = g.leader;
  const focused = useFocused('group', g.groupId);
  // data-state and data-generation are the engine's; data-phase and data-shown-* what the card
  // draws now (the rebalance phase played, its state and generation), which the chips follow.
  const drawn = useDrawnPhase(g.groupId, g.state, g.generation);
  const zookeeper = g.protocol === 'zookeeper';
  return (
    <section
      ref={setNodeRef}
      className={`group-card${isOver ? ' drop-over' : ''}${selected ? ' selected' : ''}${focused ? ' event-focus' : ''}`}
      data-focused={focused || undefined}
      data-testid={`group-${g.groupId}`}
      data-generation={g.generation}
      data-state={g.state}
      data-phase={zookeeper || g.awaitingCoordinator ? undefined : drawn.phase}
      data-shown-state={zookeeper ? g.state : drawn.state}
      data-shown-generation={zookeeper ? undefined : drawn.generation}
      aria-label={`Consumer group ${g.groupId}`}
    >
      <header className="group-head">
        <button
          type="button"
          className="linkish"
          onClick={() => onSelect(g.groupId)}
          aria-pressed={selected}
          data-testid={`group-select-${g.groupId}`}
        >
          <strong>{g.groupId}</strong>
        </button>
        {zookeeper ? (
          <span className="badge" data-testid={`group-state-${g.groupId}`}>
            ZooKeeper consumer
          </span>
        ) : (
          <GroupStateBadges groupId={g.groupId} state={g.state} generation={g.generation} />
        )}
      </header>
      {zookeeper ? (
        <ZookeeperGroupBody groupId={g.groupId} consumers={consumers} />
      ) : (
        <>
          <CoordinatorLine group={g} />
          <OffsetsWriteStall groupId={g.groupId} />
          {/* No broker holds the group: it has no state to mark, no rebalance to play. */}
          {!g.awaitingCoordinator && (
            <>
              <GroupStateMachine groupId={g.groupId} state={g.state} />
              <RebalancePhaseStrip groupId={g.groupId} />
            </>
          )}
        </>
      )}
      {g.clients ? (
        <ClientGroupNote groupId={g.groupId} clients={g.clients} />
      ) : (
        <div className="row group-settings">
          <SelectField
            label="assignor"
            testid={`group-assignor-${g.groupId}`}
            value={g.assignor}
            values={ASSIGNORS}
            title={
              g.protocol === 'zookeeper' ? 'The legacy consumer always range-assigns over the sorted ids' : undefined
            }
            disabled={g.protocol === 'zookeeper'}
            onChange={(assignor) => void act(session, { op: 'setAssignor', group: g.groupId, assignor })}
          />
          <SelectField
            label="protocol"
            testid={`group-protocol-${g.groupId}`}
            value={g.protocol}
            values={GROUP_PROTOCOLS}
            labelOf={(p) => GROUP_PROTOCOL_LABEL[p]}
            onChange={(protocol) => void act(session, { op: 'setProtocol', group: g.groupId, protocol })}
          />
          <SelectField
            label="commit"
            title="When the group's applications commit their offsets; changing it restarts them"
            testid={`group-commit-mode-${g.groupId}`}
            value={g.commitMode}
            values={COMMIT_MODES}
            labelOf={(m) => COMMIT_MODE_LABEL[m]}
            disabled={g.protocol === 'zookeeper'}
            onChange={(mode) => void act(session, { op: 'setCommitMode', group: g.groupId, mode })}
          />
        </div>
      )}
      {!g.clients && (
        <p
          className="muted small group-delivery"
          data-testid={`group-delivery-${g.groupId}`}
          data-processed={g.delivery.processed}
          data-duplicates={g.delivery.duplicates}
          data-lost={g.delivery.skipped}
        >
          Processed {g.delivery.processed} records: {g.delivery.duplicates} more than once, {g.delivery.skipped} offsets
          never processed.
        </p>
      )}
      {/* The legacy ZooKeeper consumer has neither number: its offsets are znodes, it has no client metrics. */}
      {!g.clients && !zookeeper && <GroupLagLine groupId={g.groupId} />}
      <ul className="consumer-chips">
        {consumers.map((c) =>
          c.client ? (
            <ClientChip key={c.name} consumer={c} leader={c.name === leaderName} />
          ) : (
            <ConsumerChip
              key={c.name}
              session={session}
              groupIds={groupIds}
              consumer={c}
              leader={c.name === leaderName}
            />
          ),
        )}
        {consumers.length === 0 && (
          <li className="muted small">{g.clients ? 'No members.' : 'Drop a consumer here.'}</li>
        )}
      </ul>
      {crash && <CrashDelivery crash={crash} groupId={g.groupId} />}
      {!g.clients && (
        <div className="row">
          <button
            type="button"
            className="btn btn-xs"
            data-testid={`group-add-consumer-${g.groupId}`}
            onClick={() => void act(session, { op: 'addConsumer', group: g.groupId })}
          >
            Add consumer
          </button>
          <button
            type="button"
            className="btn btn-xs"
            data-testid={`group-remove-${g.groupId}`}
            onClick={() => void act(session, { op: 'removeGroup', group: g.groupId })}
          >
            Remove group
          </button>
        </div>
      )}
    </section>
  );
}, sameGroupCard);

/**
 * The group's two lags now, named: the consumers' records-lag-max (HW − fetch position) and the
 * committed lag (HW − committed offset). Its own subscription, so a moving lag redraws one line.
 */
function GroupLagLine({ groupId }: { groupId: string }) {
  const key = useBoard((s) => {
    const lag = s.view?.groups.find((g) => g.groupId === groupId)?.lagNow;
    return `${lag?.fetch ?? ''}|${lag?.committed ?? ''}`;
  });
  const [fetch, committed] = key.split('|');
  return (
    <p
      className="small group-lags"
      data-testid={`group-lag-${groupId}`}
      data-fetch-lag={fetch}
      data-committed-lag={committed}
    >
      <span title="The consumers' client metric: the largest gap between the high watermark their last fetch reported and their fetch position">
        records-lag-max (HW − fetch position) <strong>{fetch || '-'}</strong>
      </span>{' '}
      ·{' '}
      <span title="kafka-consumer-groups --describe's LAG: the largest gap between the high watermark and the offset the group committed">
        committed lag (HW − committed offset) <strong>{committed || '-'}</strong>
      </span>
    </p>
  );
}

/**
 * Which broker coordinates the group: the leader of its __consumer_offsets partition. While no
 * broker holds it (the leader died and the controller has not moved the partition, or the new
 * leader is loading it), what a member is told, and why.
 */
function CoordinatorLine({ group: g }: { group: BoardGroupView }) {
  const wait = g.awaitingCoordinator;
  if (wait) {
    const p = `__consumer_offsets-${wait.offsetsPartition}`;
    return (
      <p
        className="small group-coordinator group-coordinator-moving"
        data-testid={`group-coordinator-${g.groupId}`}
        data-awaiting={g.state}
        role="status"
      >
        <strong>
          <Term name="coordinator">Coordinator</Term> moving:
        </strong>{' '}
        {wait.leader === null
          ? `${p} has no leader, so no broker holds ${g.groupId}; members are told ${g.state}.`
          : wait.leaderUp
            ? `broker ${wait.leader} now leads ${p} and is loading ${g.groupId} from it; members are told ${g.state}.`
            : `broker ${wait.leader}, leader of ${p}, is gone and ${g.groupId} went with its memory; until the controller moves ${p} (once broker ${wait.leader}'s ZooKeeper session expires) members are told ${g.state}. Last generation ${g.generation}.`}
      </p>
    );
  }
  return (
    <p className="muted small group-coordinator" data-testid={`group-coordinator-${g.groupId}`}>
      {g.coordinator === null ? (
        <>
          No <Term name="coordinator">coordinator</Term> yet
        </>
      ) : (
        <>
          <Term name="coordinator">Coordinator</Term>: broker {g.coordinator}, leader of __consumer_offsets-
          {g.offsetsPartition}
        </>
      )}
    </p>
  );
}

function StoppedTray({
  session,
  groupIds,
  consumers,
}: {
  session: Session;
  groupIds: string;
  consumers: BoardConsumerView[];
}) {
  const { setNodeRef, isOver } = useDroppable({ id: `group-drop-${STOPPED}`, data: { group: STOPPED } });
  return (
    <section
      ref={setNodeRef}
      className={`group-card stopped-tray${isOver ? ' drop-over' : ''}`}
      data-testid="group-stopped"
      aria-label="Stopped consumers (in no group)"
    >
      <header className="group-head">
        <strong>Stopped</strong>
        <span className="muted small">in no group</span>
      </header>
      <ul className="consumer-chips">
        {consumers.map((c) => (
          <ConsumerChip key={c.name} session={session} groupIds={groupIds} consumer={c} leader={false} />
        ))}
        {consumers.length === 0 && <li className="muted small">Drag a consumer here to stop it.</li>}
      </ul>
    </section>
  );
}

const ConsumerChip = memo(function ConsumerChip({ session, groupIds, consumer: c, leader }: ChipProps) {
  const { attributes, listeners, setNodeRef, transform, isDragging } = useDraggable({
    id: `consumer-drag-${c.name}`,
    data: { name: c.name },
  });
  const style = transform ? { transform: `translate(${transform.x}px, ${transform.y}px)`, zIndex: 10 } : undefined;
  // What it owns at the rebalance phase its group's card draws (the engine's once the phases have played).
  const shown = useDrawnPartitions(c.group, c.name, c.partitions);
  return (
    <li
      ref={setNodeRef}
      style={style}
      className={`consumer-chip lifecycle-${c.lifecycle}${isDragging ? ' dragging' : ''}`}
      data-testid={`consumer-${c.name}`}
      data-partitions={c.partitions.join(',')}
      data-shown-partitions={shown.join(',')}
      data-state={c.lifecycle}
      data-generation={c.generation}
      data-member-id={c.memberId}
      data-in-hand={c.inHand}
    >
      <button
        type="button"
        className="chip-handle"
        data-testid={`consumer-handle-${c.name}`}
        aria-label={`Consumer ${c.name}${c.group ? ` in ${c.group}` : ', stopped'}: drag to move`}
        {...listeners}
        {...attributes}
      >
        {c.name}
      </button>
      {leader && <GroupLeaderTag />}
      {c.lifecycle === 'crashed' && <span className="tag tag-crashed">crashed</span>}
      {c.inHand > 0 && (
        <span className="tag tag-processing" title="Records its application is processing now">
          processing {c.inHand}
        </span>
      )}
      <span className="chip-partitions">{shown.length > 0 ? shown.join(', ') : c.group ? '(none)' : ''}</span>
      {c.truncation && (
        <span
          className="chip-truncation"
          data-testid={`consumer-truncation-${c.name}`}
          data-outcome={c.truncation.outcome}
          role="status"
        >
          {truncationText(c.truncation)}
        </span>
      )}
      <span className="chip-actions">
        <MoveMenu session={session} groupIds={groupIds === '' ? [] : groupIds.split(',')} consumer={c} />
        {c.lifecycle === 'running' && (
          <button
            type="button"
            className="btn btn-xs"
            data-testid={`consumer-crash-${c.name}`}
            title="The process dies: no LeaveGroup, heartbeats stop; the coordinator notices after session.timeout.ms"
            onClick={() => void act(session, { op: 'crashConsumer', name: c.name })}
          >
            Crash
          </button>
        )}
        <button
          type="button"
          className="btn btn-xs"
          aria-label={`Remove ${c.name}`}
          onClick={() => void act(session, { op: 'removeConsumer', name: c.name })}
        >
          ×
        </button>
      </span>
    </li>
  );
}, sameChip);

/**
 * The keyboard (and click) way to move a consumer: a menu of the other groups and "stop". With
 * many groups it is a button that lists them only when opened, so 500 chips stay light.
 */
function MoveMenu({
  session,
  groupIds,
  consumer: c,
}: {
  session: Session;
  groupIds: string[];
  consumer: BoardConsumerView;
}) {
  const [open, setOpen] = useState(false);
  const targets = groupIds.filter((g) => g !== c.group);
  const move = (v: string) => void act(session, { op: 'moveConsumer', name: c.name, group: v === STOPPED ? null : v });
  if (groupIds.length <= MENU_AS_SELECT) {
    return (
      <select
        aria-label={`Move ${c.name} to`}
        data-testid={`consumer-move-${c.name}`}
        value=""
        onChange={(e) => {
          if (e.target.value) move(e.target.value);
        }}
      >
        <option value="">move…</option>
        <Options values={targets} label={(g) => `to ${g}`} />
        {c.group !== null && <option value={STOPPED}>stop (no group)</option>}
      </select>
    );
  }
  return (
    <span className="move-menu">
      <button
        type="button"
        className="btn btn-xs"
        aria-expanded={open}
        aria-label={`Move ${c.name} to…`}
        data-testid={`consumer-move-${c.name}`}
        onClick={() => setOpen(!open)}
      >
        move…
      </button>
      {open && (
        <span className="move-list">
          {[...targets, ...(c.group !== null ? [STOPPED] : [])].map((g) => (
            <button
              key={g}
              type="button"
              className="btn btn-xs"
              onClick={() => {
                setOpen(false);
                move(g);
              }}
            >
              {g === STOPPED ? 'stop (no group)' : `to ${g}`}
            </button>
          ))}
        </span>
      )}
    </span>
  );
}
