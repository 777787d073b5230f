import { Fragment, memo, useEffect } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { BoardPartitionView, BoardReplicaView, BoardTopicView, BoardView } from '../../engine/apps/types';
import { byIdentity } from '../byIdentity';
import { brokerDrawn, brokerWords } from '../cluster/brokerDrawn';
import { setRowTopic, useDrawnPartitionByName, useIsrChangedAt } from '../cluster/replicationHold';
import { teachingMoments } from '../cluster/teachingMoments';
import { Term } from '../glossary/Term';
import { sameProps } from '../sameProps';
import { useBoard, useUi } from '../store';
import { useKept } from '../useKept';
import { RowTokens } from './RowTokens';

/** More than this many brokers or partitions is a cluster drawn at scale: the board below shows it, not a glance. */
const MAX_BROKERS = 12;
const MAX_PARTITIONS = 12;
/** Each replica cell draws the row's last this many offsets as slots. */
export const GLANCE_SLOTS = 8;

type Role = 'leader' | 'in-sync' | 'out-of-sync' | 'offline';

function roleOf(r: BoardReplicaView): Role {
  if (r.role === 'offline') return 'offline';
  if (r.role === 'leader') return 'leader';
  return r.inIsr ? 'in-sync' : 'out-of-sync';
}

const ROLE_WORDS: Record<Role, string> = {
  leader: 'leader',
  'in-sync': 'in sync',
  'out-of-sync': 'out of ISR',
  offline: 'offline',
};

const NO_CELLS: string[] = [];
/** Each broker as `id|drawn state|words` (brokerDrawn.ts: the strip and the board name it alike), once per view. */
const brokerHeadsOf = byIdentity((view: BoardView | null) =>
  (view?.brokers ?? []).map((b) => {
    const d = brokerDrawn(b, view?.nowMs ?? 0, view?.config.sessionTimeoutMs ?? 0);
    return `${b.id}|${d.state}|${brokerWords(d)}`;
  }),
);

function shownTopic(topics: BoardTopicView[] | undefined, selected: string | null): string | null {
  let first: string | null = null;
  for (const t of topics ?? []) {
    if (t.internal) continue;
    if (t.name === selected) return t.name;
    first ??= t.name;
  }
  return first;
}

/** The topic's replicas as `partition|broker|role|leo|hw`, computed again only for another view or topic. */
const cellKeys = (() => {
  let lastTopics: BoardTopicView[] | undefined;
  let lastTopic: string | null = null;
  let last: string[] = NO_CELLS;
  return (topics: BoardTopicView[] | undefined, topic: string | null): string[] => {
    if (topics === lastTopics && topic === lastTopic) return last;
    lastTopics = topics;
    lastTopic = topic;
    const partitions = topics?.find((t) => t.name === topic)?.partitions ?? [];
    last =
      partitions.length > MAX_PARTITIONS
        ? NO_CELLS
        : partitions.flatMap((p) =>
            p.replicaStates.map((r) => `${p.partition}|${r.broker}|${roleOf(r)}|${r.logEndOffset}|${r.highWatermark}`),
          );
    return last;
  };
})();

interface Cell {
  broker: number;
  role: Role;
  leo: number;
  hw: number;
}

/**
 * The shown topic's partitions across the brokers, one row each: which broker leads, which
 * followers are in sync, and each replica's LEO and HW as they move. Kafka's usual picture of a
 * topic, small enough for the first screen; the board further down has every control.
 *
 * Replication plays along each row in lock-step (cluster/partitionTimeline.ts): a produced record's
 * Produce token flies from the row's name to the leader's cell, Fetch responses carry it on to the
 * followers' cells, and a follower's next Fetch carries the high watermark back; each cell's LEO
 * and HW change when the token that carried them lands. Each cell draws the row's last offsets
 * as slots (committed below the HW, not yet committed up to the LEO, empty beyond), so a record
 * is seen arriving on the leader, copied to the followers, then committed everywhere.
 */
export function PartitionGlance() {
  const selected = useUi((s) => s.selectedTopic);
  const heads = useBoard(useShallow((s) => brokerHeadsOf(s.view ?? null)));
  const brokerIds = heads.map((h) => Number(h.split('|')[0]));
  const topic = useBoard((s) => shownTopic(s.view?.topics, selected));
  // One string per replica, so a frame that changes nothing redraws nothing; derived once per
  // board view (the store updates every frame), and not at all for a cluster drawn at scale.
  const cells = useBoard(
    useShallow((s) => (brokerIds.length > MAX_BROKERS ? NO_CELLS : cellKeys(s.view?.topics, topic))),
  );
  const glanced = topic !== null && brokerIds.length > 0 && brokerIds.length <= MAX_BROKERS;
  const built = new Map<number, Cell[]>();
  for (const key of cells) {
    const [p, broker, role, leo, hw] = key.split('|');
    const row = built.get(Number(p)) ?? [];
    row.push({ broker: Number(broker), role: role as Role, leo: Number(leo), hw: Number(hw) });
    built.set(Number(p), row);
  }
  // A row whose cells are as last render's keeps last render's array: its memoized row skips the render.
  const byPartition = new Map(useKept([...built]));
  const partitions = [...byPartition.keys()].sort((a, b) => a - b);
  const shown = glanced && cells !== NO_CELLS && partitions.length <= MAX_PARTITIONS;
  // The rows draw this topic's tokens: its changes are held until they land.
  useEffect(() => {
    setRowTopic(shown ? topic : null);
    return () => setRowTopic(null);
  }, [shown, topic]);
  if (!shown || !topic) return null;
  return (
    <div className="glance" data-testid="glance">
      {/* Above the table, not its caption: a caption is only as wide as the table and wrapped the key. */}
      <p className="glance-caption" id="glance-caption">
        <strong>{topic}</strong>: each partition's replicas on the brokers, with <Term name="LEO" /> and{' '}
        <Term name="HW" />:{' '}
        <span className="glance-key leader">
          <Term name="leader" />
        </span>{' '}
        <span className="glance-key in-sync">
          <Term name="in-sync follower" />
        </span>{' '}
        <span className="glance-key out-of-sync">
          <Term name="out-of-sync follower" />
        </span>{' '}
        <span className="glance-slots-key" aria-hidden="true">
          <span className="glance-slot committed" /> committed <span className="glance-slot uncommitted" /> not yet
        </span>
      </p>
      <table className="glance-table" aria-labelledby="glance-caption">
        <thead>
          <tr>
            <th scope="col">partition</th>
            {heads.map((h) => {
              const [id, state, words] = h.split('|');
              return (
                <th scope="col" key={id} data-testid={`glance-broker-${id}`} data-drawn-state={state}>
                  broker {id}
                  {state !== 'alive' && <span className={`glance-broker-state ${state}`}>{words}</span>}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {partitions.map((p) => (
            <Fragment key={p}>
              <GlanceRow topic={topic} partition={p} brokerIds={brokerIds} cells={byPartition.get(p) ?? []} />
              <GlanceTeaching topic={topic} partition={p} columns={brokerIds.length + 1} />
            </Fragment>
          ))}
        </tbody>
      </table>
      <RowTokens topic={topic} />
    </div>
  );
}

function cellsOf(p: BoardPartitionView): Cell[] {
  return p.replicaStates.map((r) => ({ broker: r.broker, role: roleOf(r), leo: r.logEndOffset, hw: r.highWatermark }));
}

/**
 * One partition's row as drawn: the partition's state of one instant (cluster/partitionTimeline.ts),
 * stepped forward as the tokens that moved it land; the view's own while nothing is queued.
 */
const GlanceRow = memo(function GlanceRow({
  topic,
  partition: p,
  brokerIds,
  cells,
}: {
  topic: string;
  partition: number;
  brokerIds: number[];
  cells: Cell[];
}) {
  const drawn = useDrawnPartitionByName(topic, p);
  const shown = drawn ? cellsOf(drawn) : cells;
  const end = Math.max(0, ...shown.map((c) => c.leo));
  return (
    <tr data-testid={`glance-row-${topic}-${p}`}>
      <th scope="row" data-testid={`glance-name-${topic}-${p}`}>
        {topic}-{p}
      </th>
      {brokerIds.map((id) => {
        const c = cells.find((x) => x.broker === id);
        // A replica the engine has that the drawn state has not yet (a reassignment): its own numbers.
        const s = shown.find((x) => x.broker === id) ?? c;
        if (!c || !s) return <td key={id} className="glance-none" />;
        return (
          <td
            key={id}
            className={`glance-replica ${s.role}`}
            data-testid={`glance-replica-${topic}-${p}-${id}`}
            data-role={c.role}
            data-drawn-role={s.role}
            data-leo={c.leo}
            data-hw={c.hw}
            data-shown-leo={s.leo}
            data-shown-hw={s.hw}
          >
            <span className="glance-role">{ROLE_WORDS[s.role]}</span> LEO {s.leo} · HW {s.hw}
            {s.role !== 'offline' && <Slots end={end} leo={s.leo} hw={s.hw} />}
          </td>
        );
      })}
    </tr>
  );
}, sameProps());

/**
 * Under a partition's row, why it does not move, said where it happens: NOT_ENOUGH_REPLICAS with
 * the numbers, a HW frozen under min.insync.replicas (KAFKA-15583) or waiting for an in-sync
 * follower, and since when (cluster/teachingMoments.ts), from the partition as drawn.
 */
function GlanceTeaching({ topic, partition, columns }: { topic: string; partition: number; columns: number }) {
  const drawn = useDrawnPartitionByName(topic, partition);
  const since = useIsrChangedAt(topic, partition);
  // One string per view (the words change, not the objects), so a view that changes nothing here redraws nothing.
  const said = useBoard((s) => {
    const t = s.view?.topics.find((x) => x.name === topic);
    const p = drawn ?? t?.partitions[partition];
    if (!t || !p || !s.view) return '';
    return teachingMoments(p, t.minInsyncReplicas, since, s.view.nowMs)
      .map((m) => `${m.kind}|${m.text}`)
      .join('\n');
  });
  if (said === '') return null;
  return (
    <tr className="glance-teaching" data-testid={`glance-teach-${topic}-${partition}`}>
      <td colSpan={columns}>
        {said.split('\n').map((line) => {
          const [kind, text] = line.split('|');
          return (
            <span key={kind} className={`glance-teach teach-${kind}`} data-kind={kind}>
              {text}
            </span>
          );
        })}
      </td>
    </tr>
  );
}

/** The row's last GLANCE_SLOTS offsets on one replica: committed (below HW), not yet committed (to LEO), or not there. */
function Slots({ end, leo, hw }: { end: number; leo: number; hw: number }) {
  const from = Math.max(0, end - GLANCE_SLOTS);
  const slots = [];
  for (let o = from; o < from + GLANCE_SLOTS; o++) {
    const k = o < hw ? 'committed' : o < leo ? 'uncommitted' : 'empty';
    slots.push(<span key={o - from} className={`glance-slot ${k}`} />);
  }
  return (
    <span className="glance-slots" aria-hidden="true">
      {slots}
    </span>
  );
}
