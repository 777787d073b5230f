import { useShallow } from 'zustand/react/shallow';
import type { PlaneReplicaView } from '../../engine/apps/types';
import { Term } from '../glossary/Term';
import { usePlane, useUi } from '../store';

/** More than this many brokers or partitions is a cluster drawn at scale: the board below shows it, not a glance. */
const MAX_BROKERS = 12;
const MAX_PARTITIONS = 12;

type Role = 'leader' | 'in-sync' | 'out-of-sync' | 'offline';

function roleOf(r: PlaneReplicaView): Role {
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

/**
 * The shown topic's partitions across the brokers, one row each: which broker leads, which
 * followers are in sync, and each replica's LEO and HW as they move. Kafka's usual picture of a
 * topic, small enough for the first screen; the board further down has every control.
 */
export function PartitionGlance() {
  const selected = useUi((s) => s.selectedTopic);
  const brokerIds = usePlane(useShallow((s) => (s.view?.brokers ?? []).map((b) => b.id)));
  const topic = usePlane((s) => {
    const user = (s.view?.topics ?? []).filter((t) => !t.internal);
    return (user.find((t) => t.name === selected) ?? user[0])?.name ?? null;
  });
  // One string per replica, so a frame that changes nothing redraws nothing.
  const cells = usePlane(
    useShallow((s) =>
      (s.view?.topics.find((t) => t.name === topic)?.partitions ?? []).flatMap((p) =>
        p.replicaStates.map((r) => `${p.partition}|${r.broker}|${roleOf(r)}|${r.logEndOffset}|${r.highWatermark}`),
      ),
    ),
  );
  if (!topic || brokerIds.length === 0 || brokerIds.length > MAX_BROKERS) return null;
  const byPartition = new Map<number, Map<number, { role: Role; leo: number; hw: number }>>();
  for (const key of cells) {
    const [p, broker, role, leo, hw] = key.split('|');
    const row = byPartition.get(Number(p)) ?? new Map();
    row.set(Number(broker), { role: role as Role, leo: Number(leo), hw: Number(hw) });
    byPartition.set(Number(p), row);
  }
  const partitions = [...byPartition.keys()].sort((a, b) => a - b);
  if (partitions.length > MAX_PARTITIONS) return null;
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
        </span>
      </p>
      <table className="glance-table" aria-labelledby="glance-caption">
        <thead>
          <tr>
            <th scope="col">partition</th>
            {brokerIds.map((id) => (
              <th scope="col" key={id}>
                broker {id}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {partitions.map((p) => {
            const row = byPartition.get(p);
            return (
              <tr key={p} data-testid={`glance-row-${topic}-${p}`}>
                <th scope="row">
                  {topic}-{p}
                </th>
                {brokerIds.map((id) => {
                  const r = row?.get(id);
                  if (!r) return <td key={id} className="glance-none" />;
                  return (
                    <td
                      key={id}
                      className={`glance-replica ${r.role}`}
                      data-testid={`glance-replica-${topic}-${p}-${id}`}
                      data-role={r.role}
                      data-leo={r.leo}
                      data-hw={r.hw}
                    >
                      <span className="glance-role">{ROLE_WORDS[r.role]}</span> LEO {r.leo} · HW {r.hw}
                    </td>
                  );
                })}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
