/**
 * Why a partition does not move, said where it happens (on its row and on its leader's chip),
 * with the numbers, from the partition as drawn. Pure.
 *
 * - Under min.insync.replicas (the ISR smaller than the topic's min.insync.replicas, capped by the
 *   replication factor as Kafka's Partition.effectiveMinIsr does), the leader refuses every acks=all
 *   produce with NOT_ENOUGH_REPLICAS (Partition.appendRecordsToLeader); and since Kafka 3.7
 *   (KAFKA-15583) it does not advance the high watermark either (Partition.maybeIncrementLeaderHW
 *   returns early while isUnderMinIsr): the HW stays frozen until a follower rejoins the ISR.
 * - Otherwise a HW below the leader's LEO waits for the smallest LEO in the ISR: an in-sync
 *   follower that has not fetched that far (a dead one stays in the ISR until the controller, or
 *   replica.lag.time.max.ms, takes it out).
 */
import type { BoardPartitionView, BoardReplicaView } from '../../engine/apps/types';

/** A follower a few milliseconds behind is replication at work; one not caught up for this long stalls the HW. */
export const STALL_MS = 1000;

export interface TeachingMoment {
  kind: 'not-enough-replicas' | 'hw-frozen' | 'hw-waits';
  text: string;
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(1);
}

function list(brokers: readonly number[]): string {
  return `[${brokers.join(', ')}]`;
}

function orList(brokers: readonly number[]): string {
  const words = brokers.map((b) => `broker ${b}`);
  return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}`;
}

/**
 * The moments to tell about partition `p` as drawn: `minIsr` is the topic's
 * min.insync.replicas, `isrSinceMs` when its ISR last changed (engine ms, null if unknown),
 * `nowMs` the engine's clock.
 */
export function teachingMoments(
  p: BoardPartitionView,
  minIsr: number,
  isrSinceMs: number | null,
  nowMs: number,
): TeachingMoment[] {
  const leader = p.replicaStates.find((r) => r.role === 'leader');
  if (!leader) return [];
  const out: TeachingMoment[] = [];
  const effectiveMinIsr = Math.min(minIsr, p.replicas.length);
  const frozen = leader.highWatermark < leader.logEndOffset;
  if (p.isr.length < effectiveMinIsr) {
    out.push({
      kind: 'not-enough-replicas',
      text: `NOT_ENOUGH_REPLICAS: acks=all needs ${effectiveMinIsr} in-sync replicas (min.insync.replicas=${minIsr}); ISR is ${list(p.isr)}`,
    });
    if (frozen) {
      const outside = p.replicas.filter((b) => !p.isr.includes(b)).sort((a, b) => a - b);
      const since = isrSinceMs === null ? '' : ` for ${seconds(Math.max(0, nowMs - isrSinceMs))} s`;
      out.push({
        kind: 'hw-frozen',
        text: `HW frozen at ${leader.highWatermark}${since}: under min.insync.replicas the leader does not advance it (KAFKA-15583, Kafka 3.7+); it waits for ${orList(outside)} to rejoin the ISR`,
      });
    }
    return out;
  }
  if (!frozen) return out;
  const waiting = p.replicaStates.filter(
    (x: BoardReplicaView) =>
      x.broker !== leader.broker &&
      x.inIsr &&
      x.logEndOffset < leader.logEndOffset &&
      (x.role === 'offline' || x.lagMs === null || x.lagMs >= STALL_MS),
  );
  if (waiting.length === 0) return out;
  const why = waiting
    .map(
      (x) =>
        `broker ${x.broker}${x.role === 'offline' ? ' (down)' : ''} at LEO ${x.logEndOffset}${
          x.lagMs !== null ? `, caught up ${seconds(x.lagMs)} s ago` : ''
        }`,
    )
    .join('; ');
  out.push({ kind: 'hw-waits', text: `HW ${leader.highWatermark} waits for the ISR: ${why}` });
  return out;
}
