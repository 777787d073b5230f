import { describe, expect, it } from 'vitest';
import { balanceProblems, isFullyBalanced, validityProblems } from './assignmentChecks';
import { assignPartitions, explainAssignment } from './assignPartitions';
import type { GroupAssignment, MemberSubscription, TopicPartition } from './types';
import { member, tp, topic, topic1, topic2, generationId } from './testing';

// Expected assignments from apache/kafka clients/src/test/java/org/apache/kafka/clients/consumer/
// CooperativeStickyAssignorTest.java and the AbstractStickyAssignorTest.java cases it inherits,
// whose verifyValidityAndBalance it overrides to run the follow-up rebalances a revocation triggers.

const key = (p: TopicPartition) => `${p.topic}-${p.partition}`;
const coop = (members: MemberSubscription[], ppt: Record<string, number>) =>
  assignPartitions('cooperative-sticky', members, ppt);

/**
 * CooperativeStickyAssignorTest.verifyValidityAndBalance: while some member is losing a partition,
 * check no partition is both revoked and handed out in the same rebalance, then rebalance again
 * with the new assignment as everyone's owned partitions; at most 4 rounds.
 */
function rebalanceUntilStable(
  members: MemberSubscription[],
  ppt: Record<string, number>,
  first: GroupAssignment,
  generation = 1,
) {
  let current = members;
  let assignment = first;
  let rounds = 0;
  for (;;) {
    const added = new Set<string>();
    const revoked = new Set<string>();
    for (const m of current) {
      const owned = new Set((m.ownedPartitions ?? []).map(key));
      const now = new Set((assignment[m.memberId] ?? []).map(key));
      for (const p of now) if (!owned.has(p)) added.add(p);
      for (const p of owned) if (!now.has(p)) revoked.add(p);
    }
    expect([...added].filter((p) => revoked.has(p))).toEqual([]);
    if (revoked.size === 0) break;
    current = current.map((m) => ({ ...m, ownedPartitions: assignment[m.memberId] ?? [], generation }));
    assignment = coop(current, ppt);
    rounds++;
    expect(rounds).toBeLessThanOrEqual(4);
  }
  expect(validityProblems(current, ppt, assignment)).toEqual([]);
  expect(balanceProblems(assignment)).toEqual([]);
  return { assignment, rounds, members: current };
}

describe('CooperativeStickyAssignor (CooperativeStickyAssignorTest.java)', () => {
  /** topic-0 owned by consumer1 and consumer2 in the same generation; consumer3 owns nothing. */
  const claimedByTwoInOneGeneration = [
    member('consumer1', [topic], [tp(topic, 0), tp(topic, 1)], generationId),
    member('consumer2', [topic], [tp(topic, 0), tp(topic, 2)], generationId),
    member('consumer3', [topic], [], generationId),
  ];

  it('testAllConsumersHaveOwnedPartitionInvalidatedWhenClaimedByMultipleConsumersInSameGenerationWithEqualPartitionsPerConsumer', () => {
    const members = claimedByTwoInOneGeneration;
    const a = coop(members, { topic: 3 });
    // topic-0 still counts as owned, so it cannot go to consumer3 until both have revoked it.
    expect(a).toEqual({ consumer1: [tp(topic, 1)], consumer2: [tp(topic, 2)], consumer3: [] });
    const final = rebalanceUntilStable(members, { topic: 3 }, a);
    expect(final.assignment.consumer3).toEqual([tp(topic, 0)]);
    expect(isFullyBalanced(final.assignment)).toBe(true);
  });

  it('testAllConsumersHaveOwnedPartitionInvalidatedWhenClaimedByMultipleConsumersInSameGenerationWithUnequalPartitionsPerConsumer', () => {
    const members = claimedByTwoInOneGeneration;
    const a = coop(members, { topic: 4 });
    expect(a).toEqual({ consumer1: [tp(topic, 1), tp(topic, 3)], consumer2: [tp(topic, 2)], consumer3: [] });
    expect(isFullyBalanced(rebalanceUntilStable(members, { topic: 4 }, a).assignment)).toBe(true);
  });

  it('testAssignorWithOldVersionSubscriptions: owned partitions with the generation from user data', () => {
    const members = [
      member('consumer1', [topic1], [tp(topic1, 0)], generationId),
      member('consumer2', [topic1], [tp(topic1, 1)], generationId),
      member('consumer3', [topic1], [], generationId),
    ];
    expect(coop(members, { topic1: 3 })).toEqual({
      consumer1: [tp(topic1, 0)],
      consumer2: [tp(topic1, 1)],
      consumer3: [tp(topic1, 2)],
    });
  });
});

describe('CooperativeStickyAssignor running AbstractStickyAssignorTest.java', () => {
  it('testMaxQuotaConsumerMoreThanNumExpectedMaxCapacityMembers: topic2-0 waits one rebalance', () => {
    const both = [topic1, topic2];
    const ppt = { topic1: 2, topic2: 2 };
    const members = [
      member('consumer1', both, [tp(topic1, 0), tp(topic2, 0)], generationId),
      member('consumer2', both, [tp(topic1, 1), tp(topic2, 1)], generationId),
      member('consumer3', both, [], generationId),
    ];
    const first = coop(members, ppt);
    expect(first).toEqual({ consumer1: [tp(topic1, 0)], consumer2: [tp(topic1, 1), tp(topic2, 1)], consumer3: [] });
    const e = explainAssignment('cooperative-sticky', members, ppt);
    expect(e.revokedThisGeneration).toEqual([{ topic: topic2, partition: 0, from: 'consumer1', to: 'consumer3' }]);
    expect(e.steps.filter((s) => s.action === 'revoke').map((s) => [s.memberId, s.fromMemberId])).toEqual([
      ['consumer3', 'consumer1'],
    ]);
    const final = rebalanceUntilStable(members, ppt, first);
    expect(final.rounds).toBe(1);
    expect(final.assignment).toEqual({
      consumer1: [tp(topic1, 0)],
      consumer2: [tp(topic1, 1), tp(topic2, 1)],
      consumer3: [tp(topic2, 0)],
    });
  });

  it('testAddRemoveTwoConsumersTwoTopics: three partitions move, each over two rebalances', () => {
    const all = [topic1, topic2];
    const ppt = { topic1: 3, topic2: 4 };
    const first = coop([member('consumer1', all), member('consumer2', all)], ppt);
    const members = ['consumer1', 'consumer2', 'consumer3', 'consumer4'].map((id) =>
      member(id, all, first[id] ?? [], generationId),
    );
    const second = coop(members, ppt);
    expect(second).toEqual({
      consumer1: [tp(topic1, 0), tp(topic2, 1)],
      consumer2: [tp(topic1, 1), tp(topic2, 0)],
      consumer3: [],
      consumer4: [],
    });
    const final = rebalanceUntilStable(members, ppt, second);
    expect(final.assignment).toEqual({
      consumer1: [tp(topic1, 0), tp(topic2, 1)],
      consumer2: [tp(topic1, 1), tp(topic2, 0)],
      consumer3: [tp(topic1, 2), tp(topic2, 3)],
      consumer4: [tp(topic2, 2)],
    });
  });

  it('general path: the transfers are computed from owned vs assigned (computePartitionsTransferringOwnership)', () => {
    const ppt = { t1: 4, t2: 2 };
    const first = coop([member('a', ['t1', 't2']), member('b', ['t1'])], ppt);
    const members = [
      member('a', ['t1', 't2'], first.a ?? [], 1),
      member('b', ['t1'], first.b ?? [], 1),
      member('c', ['t1', 't2'], [], 1),
    ];
    const e = explainAssignment('cooperative-sticky', members, ppt);
    expect(e.stickyPath).toBe('general');
    const sticky = assignPartitions('sticky', members, ppt);
    // The eager result minus exactly the partitions that change hands.
    const withheld = new Set((e.revokedThisGeneration ?? []).map(key));
    expect(withheld.size).toBeGreaterThan(0);
    for (const m of members) {
      expect((e.assignment[m.memberId] ?? []).map(key)).toEqual(
        (sticky[m.memberId] ?? []).map(key).filter((p) => !withheld.has(p)),
      );
    }
    const final = rebalanceUntilStable(members, ppt, e.assignment);
    expect(final.rounds).toBe(1);
  });
});
