/**
 * Brokers grouped by rack (d3.group computes the grouping; React draws it). Each broker card
 * carries its state, the controller mark with the epoch, per-broker actions, and its replicas:
 * leader / in-sync follower / out-of-sync follower / offline, each with LEO and HW bars scaled
 * (d3.scaleLinear) to the partition's largest LEO, so a lagging follower's bar is visibly short.
 *
 * A replica can be dragged to another broker to reassign the partition; the keyboard way is
 * its "move to" menu. Both send the same reassignment, which the controller runs as Kafka does.
 */
import { DndContext, type DragEndEvent, useDraggable, useDroppable } from '@dnd-kit/core';
import { useDragSensors } from '../dragSensors';
import { group as d3group, scaleLinear } from 'd3';
import { memo, useCallback, useState } from 'react';
import type { BoardBrokerView, BoardPartitionView, BoardReplicaView, BoardView } from '../../engine/apps/types';
import type { Session } from '../session';
import { act } from './boardClient';
import { useFocused } from '../events/useFocused';
import { useDrawnPartition, useIsrChangedAt } from './replicationHold';
import { teachingMoments } from './teachingMoments';
import { Term } from '../glossary/Term';
import type { TermName } from '../glossary/terms';
import { Options } from '../forms/Options';
import { type BrokerDrawn, brokerDrawn, brokerWords, controllerDrawn, NO_CONTROLLER_WORDS } from './brokerDrawn';
import { useKept } from '../useKept';

interface HostedReplica {
  partition: BoardPartitionView;
  replica: BoardReplicaView;
  internal: boolean;
}

/** Above this many user-topic replicas, broker cards show counts and open their chips on demand. */
const COMPACT_ABOVE = 300;

export function replicaClass(r: BoardReplicaView): string {
  if (r.role === 'offline') return 'offline';
  if (r.role === 'leader') return 'leader';
  return r.inIsr ? 'insync' : 'outofsync';
}

/** A replica's role as shown, which is also its glossary term. */
function roleLabel(r: BoardReplicaView): TermName {
  if (r.role === 'offline') return 'offline replica';
  if (r.role === 'leader') return 'leader';
  return r.inIsr ? 'in-sync follower' : 'out-of-sync follower';
}

export function BrokerBoard({ session, view }: { session: Session; view: BoardView }) {
  const sensors = useDragSensors();
  const hosted = new Map<number, HostedReplica[]>();
  for (const t of view.topics) {
    for (const p of t.partitions) {
      for (const r of p.replicaStates) {
        const list = hosted.get(r.broker) ?? [];
        list.push({ partition: p, replica: r, internal: t.internal });
        hosted.set(r.broker, list);
      }
    }
  }
  const racks = [...d3group(view.brokers, (b) => b.rack ?? 'no rack')].sort(([a], [b]) => a.localeCompare(b));
  // Large clusters: each broker shows its replica counts, and its chips only when opened.
  const userReplicas = view.topics.reduce(
    (n, t) => n + (t.internal ? 0 : t.partitions.length * (t.partitions[0]?.replicas.length ?? 0)),
    0,
  );
  const compact = userReplicas > COMPACT_ABOVE;
  const [opened, setOpened] = useState<ReadonlySet<number>>(new Set());
  const toggle = useCallback((broker: number) => {
    setOpened((s) => {
      const next = new Set(s);
      if (!next.delete(broker)) next.add(broker);
      return next;
    });
  }, []);

  function onDragEnd(e: DragEndEvent) {
    const from = e.active.data.current as { topic: string; partition: number; broker: number } | undefined;
    const to = e.over?.data.current as { broker: number } | undefined;
    if (!from || !to || to.broker === from.broker) return;
    void move(session, view, from.topic, from.partition, from.broker, to.broker);
  }

  const controller = controllerDrawn(view);
  // Each card's frame as a model whose unchanged parts keep their identity from frame to frame:
  // a closed card is drawn again exactly when something it draws changed.
  const models = useKept(view.brokers.map((b) => brokerCardModel(b, view, hosted.get(b.id) ?? [])));
  const modelOf = new Map(models.map((m) => [m.broker.id, m]));
  return (
    <DndContext sensors={sensors} onDragEnd={onDragEnd}>
      {controller.broker === null && (
        <p className="no-controller" data-testid="no-controller-board">
          {NO_CONTROLLER_WORDS}
        </p>
      )}
      <div className={`racks${compact ? ' at-scale' : ''}`}>
        {racks.map(([rack, brokers]) => (
          <section key={rack} className="rack" aria-label={`Rack ${rack}`}>
            <h3 className="rack-name">{rack}</h3>
            <div className="rack-brokers">
              {brokers.map((b) => {
                const model = modelOf.get(b.id) as BrokerCardModel;
                return compact && !opened.has(b.id) ? (
                  <ClosedBrokerCard key={b.id} session={session} model={model} onToggle={toggle} />
                ) : (
                  <BrokerCard
                    key={b.id}
                    session={session}
                    view={view}
                    model={model}
                    replicas={hosted.get(b.id) ?? []}
                    compact={compact}
                    onToggle={toggle}
                  />
                );
              })}
            </div>
          </section>
        ))}
      </div>
    </DndContext>
  );
}

async function move(session: Session, view: BoardView, topic: string, partition: number, from: number, to: number) {
  const p = view.topics.find((t) => t.name === topic)?.partitions[partition];
  if (!p || p.replicas.includes(to)) return;
  await act(session, {
    op: 'reassignPartitions',
    topic,
    partition,
    replicas: p.replicas.map((r) => (r === from ? to : r)),
  });
}

/**
 * What a broker card's frame draws (its header, actions, replica counts and internal-topic note),
 * derived from the view in one place. The closed card of a large cluster draws only this, and is
 * memoized on its identity (kept by `useKept`), so nothing lists the fields it draws twice.
 */
export interface BrokerCardModel {
  broker: BoardBrokerView;
  drawn: BrokerDrawn;
  /** On the broker that holds /controller: the epoch, and whether its process is gone. */
  badge: { epoch: number; processGone: boolean } | null;
  /** Its user-topic replicas by role (replicaClass). */
  counts: { leader: number; insync: number; outofsync: number; offline: number };
  replicaCount: number;
  /** Its `__consumer_offsets` replicas. */
  internal: { leaders: number; total: number };
}

function brokerCardModel(b: BoardBrokerView, view: BoardView, replicas: HostedReplica[]): BrokerCardModel {
  const counts = { leader: 0, insync: 0, outofsync: 0, offline: 0 };
  const internal = { leaders: 0, total: 0 };
  for (const h of replicas) {
    if (h.internal) {
      internal.total++;
      if (h.replica.role === 'leader') internal.leaders++;
    } else counts[replicaClass(h.replica) as keyof typeof counts]++;
  }
  const controller = controllerDrawn(view);
  return {
    broker: b,
    drawn: brokerDrawn(b, view.nowMs, view.config.sessionTimeoutMs),
    badge: controller.broker === b.id ? { epoch: view.controllerEpoch, processGone: controller.processGone } : null,
    counts,
    replicaCount: replicas.length - internal.total,
    internal,
  };
}

/** A large cluster's closed card: its frame only, drawn from the model alone. */
const ClosedBrokerCard = memo(function ClosedBrokerCard({
  session,
  model,
  onToggle,
}: {
  session: Session;
  model: BrokerCardModel;
  onToggle: (broker: number) => void;
}) {
  return <BrokerFrame session={session} model={model} compact open={false} onToggle={onToggle} />;
});

interface CardProps {
  session: Session;
  view: BoardView;
  model: BrokerCardModel;
  replicas: HostedReplica[];
  compact: boolean;
  onToggle: (broker: number) => void;
}

/** A card with its replica chips (every card of a small cluster, an opened one of a large one). */
function BrokerCard({ session, view, model, replicas, compact, onToggle }: CardProps) {
  const user = replicas.filter((r) => !r.internal);
  return (
    <BrokerFrame session={session} model={model} compact={compact} open onToggle={onToggle}>
      <ul className="replicas" aria-label={`Replicas on broker ${model.broker.id}`}>
        {user.map((h) => (
          <ReplicaChip key={`${h.partition.topic}-${h.partition.partition}`} session={session} view={view} hosted={h} />
        ))}
      </ul>
    </BrokerFrame>
  );
}

function BrokerFrame({
  session,
  model,
  compact,
  open,
  onToggle,
  children,
}: {
  session: Session;
  model: BrokerCardModel;
  compact: boolean;
  open: boolean;
  onToggle: (broker: number) => void;
  children?: React.ReactNode;
}) {
  const { broker: b, drawn, badge, internal } = model;
  const { setNodeRef, isOver } = useDroppable({ id: `broker-drop-${b.id}`, data: { broker: b.id } });
  const down = b.state === 'down';
  const focused = useFocused('broker', b.id);
  return (
    <article
      ref={setNodeRef}
      className={`broker broker-${drawn.state}${badge ? ' broker-controller' : ''}${isOver ? ' drop-over' : ''}${focused ? ' event-focus' : ''}`}
      data-focused={focused || undefined}
      data-testid={`broker-${b.id}`}
      data-controller={String(b.controller)}
      data-alive={String(b.alive)}
      data-state={b.state}
      data-drawn-state={drawn.state}
      aria-label={`Broker ${b.id}`}
    >
      <header className="broker-head">
        <strong>Broker {b.id}</strong>
        {badge && (
          <span className="badge badge-controller" data-testid={`controller-badge-${b.id}`}>
            <Term name="controller">controller</Term> · <Term name="controller epoch">epoch</Term> {badge.epoch}
            {badge.processGone ? ' · /controller held until its session expires' : ''}
          </span>
        )}
        <span className={`badge badge-${drawn.state}`} data-testid={`broker-state-${b.id}`}>
          {brokerWords(drawn)}
        </span>
      </header>
      <div className="broker-actions">
        {LIFECYCLE.map((a) => (
          <BrokerAction
            key={a.op}
            session={session}
            broker={b.id}
            op={a.op}
            disabled={a.whenDown !== down}
            title={a.title}
          />
        ))}
        {b.isolated ? (
          <BrokerAction session={session} broker={b.id} op="healBroker" />
        ) : (
          <BrokerAction
            session={session}
            broker={b.id}
            op="isolateBroker"
            title="Cut the broker off the network (and from ZooKeeper)"
          />
        )}
      </div>
      {compact && <ReplicaCounts model={model} open={open} onToggle={() => onToggle(b.id)} />}
      {children}
      {internal.total > 0 && (
        <p className="internal-note" title="Replicas of Kafka's internal offsets topic">
          __consumer_offsets: {internal.leaders} leader{internal.leaders === 1 ? '' : 's'},{' '}
          {internal.total - internal.leaders} follower{internal.total - internal.leaders === 1 ? '' : 's'}
        </p>
      )}
    </article>
  );
}

/** A broker's replicas counted by role, as a stacked bar (d3 scale) and numbers. */
function ReplicaCounts({ model, open, onToggle }: { model: BrokerCardModel; open: boolean; onToggle: () => void }) {
  const { counts, replicaCount } = model;
  const broker = model.broker.id;
  const x = scaleLinear()
    .domain([0, Math.max(1, replicaCount)])
    .range([0, 100]);
  let at = 0;
  return (
    <div className="replica-counts" data-testid={`replica-counts-${broker}`}>
      <span className="stack" aria-hidden="true">
        {(Object.keys(counts) as (keyof typeof counts)[]).map((k) => {
          const left = at;
          at += counts[k];
          return <span key={k} className={`stack-${k}`} style={{ left: `${x(left)}%`, width: `${x(counts[k])}%` }} />;
        })}
      </span>
      <span className="small">
        {counts.leader} leaders · {counts.insync} in sync · {counts.outofsync} out of sync · {counts.offline} offline
      </span>
      <button type="button" className="btn btn-xs" aria-expanded={open} onClick={onToggle}>
        {open ? 'Hide replicas' : `Show ${replicaCount} replicas`}
      </button>
    </div>
  );
}

/**
 * Why the leader's partition does not move, on its chip (teachingMoments.ts): NOT_ENOUGH_REPLICAS
 * under min.insync.replicas with the numbers, the HW frozen there (KAFKA-15583), or the in-sync
 * follower the HW waits for and since when.
 */
function Teaching({ view, partition: p }: { view: BoardView; partition: BoardPartitionView }) {
  const since = useIsrChangedAt(p.topic, p.partition);
  const minIsr = view.topics.find((t) => t.name === p.topic)?.minInsyncReplicas ?? 1;
  const moments = teachingMoments(p, minIsr, since, view.nowMs);
  if (moments.length === 0) return null;
  return (
    <>
      {moments.map((m) => (
        <span
          key={m.kind}
          className={`hw-stall teach-${m.kind} small`}
          data-testid={
            m.kind === 'not-enough-replicas'
              ? `teach-ner-${p.topic}-${p.partition}`
              : `hw-stall-${p.topic}-${p.partition}`
          }
          data-kind={m.kind}
        >
          {m.text}
        </span>
      ))}
    </>
  );
}

/** What each state of a replica being deleted waits for (TopicDeletionManager). */
const DELETION_TITLES: Record<NonNullable<BoardReplicaView['deletionState']>, string> = {
  ReplicaDeletionStarted: 'StopReplica (delete) sent: the controller waits for its answer',
  ReplicaDeletionSuccessful: 'deleted: the broker answered StopReplica without error',
  ReplicaDeletionIneligible: 'could not be deleted (its broker is down or answered an error)',
  OfflineReplica: 'waiting to be deleted again: the topic is halted until its broker returns',
};

function ReplicaChip({ session, view, hosted }: { session: Session; view: BoardView; hosted: HostedReplica }) {
  const { partition: engine, replica: r } = hosted;
  const id = `replica-${engine.topic}-${engine.partition}-${r.broker}`;
  const { attributes, listeners, setNodeRef, transform, isDragging } = useDraggable({
    id,
    data: { topic: engine.topic, partition: engine.partition, broker: r.broker },
  });
  // The partition as drawn now: one engine state, stepped forward as the tokens that moved it
  // land (partitionTimeline.ts) — a new leader lights up when the controller's LeaderAndIsr token
  // reaches its card, a LEO or HW moves when the Produce or Fetch token that carried it lands.
  const p = useDrawnPartition(engine);
  const shown = p.replicaStates.find((x) => x.broker === r.broker) ?? r;
  const maxLeo = Math.max(1, ...p.replicaStates.map((x) => x.logEndOffset));
  const x = scaleLinear().domain([0, maxLeo]).range([0, 100]).clamp(true);
  const lost = view.lost.filter((l) => l.topic === p.topic && l.partition === p.partition);
  const style = transform ? { transform: `translate(${transform.x}px, ${transform.y}px)`, zIndex: 5 } : undefined;
  const targets = view.brokers.filter((b) => !engine.replicas.includes(b.id));
  return (
    <li
      ref={setNodeRef}
      style={style}
      className={`replica replica-${replicaClass(shown)}${isDragging ? ' dragging' : ''}`}
      data-testid={id}
      data-role={r.role}
      data-shown-role={shown.role}
      data-drawn-role={shown.role}
      data-isr={String(r.inIsr)}
      data-drawn-isr={String(shown.inIsr)}
      data-leo={r.logEndOffset}
      data-hw={r.highWatermark}
      data-shown-leo={shown.logEndOffset}
      data-shown-hw={shown.highWatermark}
      data-deletion={r.deletionState ?? undefined}
    >
      <button
        type="button"
        className="replica-handle"
        {...listeners}
        {...attributes}
        aria-label={`Drag ${p.topic}-${p.partition} on broker ${r.broker} to another broker`}
      >
        {p.topic}-{p.partition}
      </button>
      <span className="replica-role">
        <Term name={roleLabel(shown)} />
      </span>
      {r.deletionState && (
        <span className="replica-deletion" data-testid={`${id}-deletion`} title={DELETION_TITLES[r.deletionState]}>
          {r.deletionState}
        </span>
      )}
      {shown.role === 'leader' && (
        <span className="replica-epoch">
          <Term name="leader epoch">epoch</Term> {p.leaderEpoch}
        </span>
      )}
      <span className="bars" aria-hidden="true">
        {/* Scaled, not resized: a transform transition runs on the compositor, a width one relays out every frame. */}
        <span className="bar-leo" style={{ transform: `scaleX(${(x(shown.logEndOffset) / 100).toFixed(4)})` }} />
        <span className="bar-hw" style={{ transform: `scaleX(${(x(shown.highWatermark) / 100).toFixed(4)})` }} />
      </span>
      <span className="replica-offsets">
        {shown.role === 'offline' ? (
          <>
            offline · <Term name="LEO" /> {shown.logEndOffset} on disk
          </>
        ) : (
          <>
            <Term name="LEO" /> {shown.logEndOffset} · <Term name="HW" /> {shown.highWatermark}
          </>
        )}
        {shown.lagMs !== null && !shown.inIsr && shown.role === 'follower'
          ? ` · behind ${Math.round(shown.lagMs / 100) / 10}s`
          : ''}
        {shown.lagMs !== null && shown.inIsr && shown.lagMs > 1000
          ? ` · lag timer ${Math.round(shown.lagMs / 100) / 10}s / ${view.config.replicaLagMaxMs / 1000}s`
          : ''}
      </span>
      {shown.role === 'leader' && <Teaching view={view} partition={p} />}
      {lost.length > 0 && shown.role === 'leader' && (
        <span className="lost-offsets" data-testid={`lost-${p.topic}-${p.partition}`}>
          lost {lost.map((l) => `${l.from}–${l.to - 1}`).join(', ')}
        </span>
      )}
      <select
        className="replica-move"
        aria-label={`Move the replica of ${p.topic}-${p.partition} from broker ${r.broker} to`}
        data-testid={`replica-move-${p.topic}-${p.partition}-${r.broker}`}
        value=""
        onChange={(e) => {
          const to = Number(e.target.value);
          if (Number.isInteger(to)) void move(session, view, p.topic, p.partition, r.broker, to);
        }}
      >
        <option value="">move…</option>
        <Options values={targets.map((b) => b.id)} label={(id) => `to broker ${id}`} />
      </select>
    </li>
  );
}

type BrokerOp = 'killBroker' | 'stopBroker' | 'restartBroker' | 'healBroker' | 'isolateBroker';

/** The process's lifecycle buttons, each offered while the broker is up (kill, stop) or down (restart). */
const LIFECYCLE: { op: BrokerOp; whenDown: boolean; title?: string }[] = [
  {
    op: 'killBroker',
    whenDown: false,
    title: 'kill -9: the process dies; its ZooKeeper session lingers until it times out',
  },
  { op: 'stopBroker', whenDown: false, title: 'Clean shutdown: controlled shutdown moves leadership away first' },
  { op: 'restartBroker', whenDown: true },
];

/** One of a broker's fault buttons: the command it sends names it (killBroker: Kill, broker-kill-<id>). */
function BrokerAction(props: { session: Session; broker: number; op: BrokerOp; disabled?: boolean; title?: string }) {
  const verb = props.op.slice(0, -'Broker'.length);
  const label = verb.charAt(0).toUpperCase() + verb.slice(1);
  return (
    <button
      type="button"
      className="btn btn-xs"
      data-testid={`broker-${verb}-${props.broker}`}
      disabled={props.disabled}
      onClick={() => void act(props.session, { op: props.op, broker: props.broker })}
      title={props.title}
    >
      {label}
    </button>
  );
}
