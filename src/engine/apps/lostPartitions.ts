import type { LostWithStore } from '../index';
import type { LostPartitionView } from './types';

/**
 * Per partition, what its leader's replica lost with the Store (the offsets a consumer can no
 * longer read); a partition whose leader lost nothing but a follower did is listed by the
 * follower that lost the most.
 */
export function lostPartitions(
  lost: readonly LostWithStore[],
  leaderOf: (topic: string, partition: number) => number | undefined,
): LostPartitionView[] {
  const byPartition = new Map<string, LostPartitionView & { leader: boolean }>();
  for (const l of lost) {
    const key = `${l.topic}-${l.partition}`;
    const leader = leaderOf(l.topic, l.partition) === l.broker;
    const seen = byPartition.get(key);
    if (seen && (seen.leader || (!leader && seen.logStartOffset >= l.logStartOffset))) continue;
    byPartition.set(key, {
      topic: l.topic,
      partition: l.partition,
      fromOffset: l.fromOffset,
      logStartOffset: l.logStartOffset,
      leader,
    });
  }
  return [...byPartition.values()].map(({ leader: _, ...view }) => view);
}
