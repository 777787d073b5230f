import { describe, expect, it } from 'vitest';
import type { BoardPartitionView } from '../../engine/apps/types';
import { ordersPartition } from './partitionView.testing';
import { teachingMoments } from './teachingMoments';

/** orders-0 led by broker 1; `isr` and each broker's [LEO, HW, role, lagMs]. */
function partition(
  isr: number[],
  replicas: Record<number, [number, number, 'leader' | 'follower' | 'offline', number | null]>,
): BoardPartitionView {
  const states = [1, 2, 3].map((b) => {
    const [leo, hw, role, lagMs] = replicas[b] ?? [0, 0, 'follower', null];
    return {
      broker: b,
      role,
      inIsr: isr.includes(b),
      logEndOffset: leo,
      highWatermark: hw,
      lagMs,
      deletionState: null,
    };
  });
  return ordersPartition(states, { leaderEpoch: 2, isr, committed: 3 });
}

describe('teachingMoments: why a partition does not move, with the numbers', () => {
  // Kafka 3.9 Partition.appendRecordsToLeader: inSyncSize < effectiveMinIsr with acks=-1 throws
  // NotEnoughReplicasException; Partition.maybeIncrementLeaderHW returns early while isUnderMinIsr
  // (KAFKA-15583, 3.7+).
  it('ISR [1] under min.insync.replicas=2: NOT_ENOUGH_REPLICAS, and the HW frozen, waiting for 2 or 3', () => {
    const p = partition([1], { 1: [5, 3, 'leader', null], 2: [3, 3, 'offline', null], 3: [3, 3, 'offline', null] });
    const m = teachingMoments(p, 2, 12_000, 16_200);
    expect(m.map((x) => x.kind)).toEqual(['not-enough-replicas', 'hw-frozen']);
    expect(m[0]?.text).toBe(
      'NOT_ENOUGH_REPLICAS: acks=all needs 2 in-sync replicas (min.insync.replicas=2); ISR is [1]',
    );
    expect(m[1]?.text).toBe(
      'HW frozen at 3 for 4.2 s: under min.insync.replicas the leader does not advance it (KAFKA-15583, Kafka 3.7+); it waits for broker 2 or broker 3 to rejoin the ISR',
    );
  });

  it('min.insync.replicas above the replication factor is capped by it (Partition.effectiveMinIsr)', () => {
    const p = partition([1, 2, 3], { 1: [5, 5, 'leader', null], 2: [5, 5, 'follower', 0], 3: [5, 5, 'follower', 0] });
    expect(teachingMoments(p, 4, null, 0)).toEqual([]);
  });

  it('a HW waiting for a dead follower still in the ISR names it, its LEO and since when it was caught up', () => {
    const p = partition([1, 2, 3], { 1: [7, 4, 'leader', null], 2: [4, 4, 'offline', 2500], 3: [7, 4, 'follower', 0] });
    expect(teachingMoments(p, 2, null, 0)).toEqual([
      { kind: 'hw-waits', text: 'HW 4 waits for the ISR: broker 2 (down) at LEO 4, caught up 2.5 s ago' },
    ]);
  });

  it('a follower a few milliseconds behind is replication at work: nothing to tell', () => {
    const p = partition([1, 2, 3], { 1: [7, 6, 'leader', null], 2: [6, 6, 'follower', 3], 3: [7, 6, 'follower', 0] });
    expect(teachingMoments(p, 2, null, 0)).toEqual([]);
  });
});
