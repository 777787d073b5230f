import { describe, expect, it } from 'vitest';
import type { AssignmentStrategy } from './assignors/types';
import { facadeBed, type FacadeBed } from '../../consumerApps/facadeTesting';
import type { KafkaConsumer } from './KafkaConsumer';

/**
 * The sticky assignors in a real group, end to end: each member's previous assignment has to
 * reach the leader through the JoinGroup subscription, or there is nothing to stick to.
 * Kafka 3.9: the eager StickyAssignor carries it in its userData (StickyAssignor.subscriptionUserData,
 * the StickyAssignorUserData schema: previous_assignment, generation), since the eager
 * ConsumerCoordinator.onJoinPrepare has revoked everything before the subscription is built;
 * CooperativeStickyAssignor reads the subscription's ownedPartitions and generationId (v2+).
 * The expected outcome is StickyAssignorTest / CooperativeStickyAssignorTest's
 * testAddRemoveConsumerOneTopic, with a group of three: when one member leaves, the survivors
 * keep everything and split the leaver's partitions.
 */

function stable(bed: FacadeBed, cs: KafkaConsumer[], groupId: string): void {
  const ok = bed.runUntil(
    () => {
      for (const c of cs) c.poll();
      return bed.group(groupId)?.state === 'Stable' && cs.every((c) => c.coordinator?.state === 'STABLE');
    },
    60_000,
    50,
  );
  expect(ok).toBe(true);
}

const partitions = (c: KafkaConsumer) =>
  c
    .assignment()
    .map((tp) => tp.partition)
    .sort((a, b) => a - b);

function threeThenTwo(strategy: AssignmentStrategy) {
  const bed = facadeBed({ topicPartitions: 6 });
  const cs = ['c1', 'c2', 'c3'].map((id) =>
    bed.e.groups.createConsumer(id, { 'group.id': 'g', 'partition.assignment.strategy': [strategy] }),
  );
  for (const c of cs) c.subscribe(['orders']);
  stable(bed, cs, 'g');
  const before = cs.map(partitions);
  const generation = bed.group('g')?.generationId as number;
  const [c1, c2, c3] = cs as [KafkaConsumer, KafkaConsumer, KafkaConsumer];
  c3.close();
  bed.runUntil(
    () => {
      c1.poll();
      c2.poll();
      return (bed.group('g')?.generationId ?? 0) > generation;
    },
    30_000,
    10,
  );
  stable(bed, [c1, c2], 'g');
  return { bed, before, after: [partitions(c1), partitions(c2)], generation };
}

describe('sticky assignors keep a member’s partitions across a rebalance', () => {
  for (const strategy of ['sticky', 'cooperative-sticky'] as const) {
    it(`${strategy}: the two survivors keep all they had and split the leaver’s two`, () => {
      const { before, after } = threeThenTwo(strategy);
      expect(before.map((ps) => ps.length)).toEqual([2, 2, 2]);
      expect(after.map((ps) => ps.length)).toEqual([3, 3]);
      for (const i of [0, 1]) for (const p of before[i] as number[]) expect(after[i]).toContain(p);
      expect([...(after[0] as number[]), ...(after[1] as number[])].sort()).toEqual([0, 1, 2, 3, 4, 5]);
    });
  }
});
