import { describe, expect, it } from 'vitest';
import { stickyAssign } from './AbstractStickyAssignor';
import { balanceProblems, isFullyBalanced, validityProblems } from './assignmentChecks';
import { assignPartitions, explainAssignment } from './assignPartitions';
import { GroupSubscription } from './GroupSubscription';
import type { GroupAssignment, MemberSubscription, TopicPartition } from './types';
import { member, tp, topic, topic1, topic2, topic3, generationId } from './testing';

// Expected assignments from apache/kafka clients/src/test/java/org/apache/kafka/clients/consumer/
// internals/AbstractStickyAssignorTest.java and StickyAssignorTest.java (test method named in each
// case), and the StickyAssignor.java class comment. Kafka runs AbstractStickyAssignorTest for both
// sticky assignors; cooperative-sticky's own two-phase checks are in CooperativeStickyAssignor.test.ts.

const names = (l: readonly TopicPartition[] | undefined) => (l ?? []).map((p) => `${p.topic}-${p.partition}`).sort();
const sticky = (members: MemberSubscription[], ppt: Record<string, number>) => assignPartitions('sticky', members, ppt);

/** What AbstractStickyAssignor leaves in partitionsTransferringOwnership (null on the general path). */
function transferring(members: MemberSubscription[], ppt: Record<string, number>): Record<string, string> | null {
  const group = new GroupSubscription(members, ppt);
  const r = stickyAssign(group);
  if (r.partitionsTransferringOwnership === null) return null;
  return Object.fromEntries(
    [...r.partitionsTransferringOwnership].map(([p, m]) => [
      `${group.topicOf(p)}-${group.partitionOf(p)}`,
      group.members[m]?.memberId as string,
    ]),
  );
}

function isSticky(members: MemberSubscription[], ppt: Record<string, number>): boolean {
  return stickyAssign(new GroupSubscription(members, ppt)).isSticky ?? true;
}

/** verifyValidityAndBalance: valid, and no member 2+ short of another that shares a topic with it. */
function expectValidAndBalanced(members: MemberSubscription[], ppt: Record<string, number>, a: GroupAssignment) {
  expect(validityProblems(members, ppt, a)).toEqual([]);
  expect(balanceProblems(a)).toEqual([]);
}

const owning = (m: MemberSubscription, owned: TopicPartition[], generation?: number): MemberSubscription => ({
  ...m,
  ownedPartitions: owned,
  ...(generation === undefined ? {} : { generation }),
});

describe('StickyAssignor: AbstractStickyAssignorTest.java', () => {
  it('testOneConsumerNoTopic / testOneConsumerNonexistentTopic', () => {
    expect(sticky([member('consumer', [])], {})).toEqual({ consumer: [] });
    expect(sticky([member('consumer', [topic])], { topic: 0 })).toEqual({ consumer: [] });
    expect(transferring([member('consumer', [topic])], { topic: 0 })).toEqual({});
  });

  it('testOneConsumerOneTopic / testOneConsumerMultipleTopics', () => {
    expect(sticky([member('consumer', [topic])], { topic: 3 })).toEqual({
      consumer: [tp(topic, 0), tp(topic, 1), tp(topic, 2)],
    });
    expect(sticky([member('consumer', [topic1, topic2])], { topic1: 1, topic2: 2 })).toEqual({
      consumer: [tp(topic1, 0), tp(topic2, 0), tp(topic2, 1)],
    });
  });

  it('testOnlyAssignsPartitionsFromSubscribedTopics: owned partitions of other topics are dropped', () => {
    const members = [
      member('consumer', [topic], [tp(topic, 0), tp(topic, 1), tp('other', 0), tp('other', 1)], generationId),
    ];
    expect(sticky(members, { topic: 2 })).toEqual({ consumer: [tp(topic, 0), tp(topic, 1)] });
    expect(transferring(members, { topic: 2 })).toEqual({});
  });

  it('testTwoConsumersOneTopicOnePartition / testTwoConsumersOneTopicTwoPartitions', () => {
    const two = [member('consumer1', [topic]), member('consumer2', [topic])];
    const one = sticky(two, { topic: 1 });
    expectValidAndBalanced(two, { topic: 1 }, one);
    expect(sticky(two, { topic: 2 })).toEqual({ consumer1: [tp(topic, 0)], consumer2: [tp(topic, 1)] });
  });

  it('testMultipleConsumersMixedTopicSubscriptions (general path)', () => {
    const members = [
      member('consumer1', [topic1]),
      member('consumer2', [topic1, topic2]),
      member('consumer3', [topic1]),
    ];
    const a = sticky(members, { topic1: 3, topic2: 2 });
    expect(a).toEqual({
      consumer1: [tp(topic1, 0), tp(topic1, 2)],
      consumer2: [tp(topic2, 0), tp(topic2, 1)],
      consumer3: [tp(topic1, 1)],
    });
    expect(transferring(members, { topic1: 3, topic2: 2 })).toBeNull();
    expect(explainAssignment('sticky', members, { topic1: 3, topic2: 2 }).stickyPath).toBe('general');
  });

  it('testTwoConsumersTwoTopicsSixPartitions', () => {
    const both = [topic1, topic2];
    const members = [member('consumer1', both), member('consumer2', both)];
    expect(sticky(members, { topic1: 3, topic2: 3 })).toEqual({
      consumer1: [tp(topic1, 0), tp(topic1, 2), tp(topic2, 1)],
      consumer2: [tp(topic1, 1), tp(topic2, 0), tp(topic2, 2)],
    });
    expect(explainAssignment('sticky', members, { topic1: 3, topic2: 3 }).stickyPath).toBe('constrained');
  });

  it('testConsumerOwningMinQuotaExpectedMaxQuota', () => {
    const both = [topic1, topic2];
    const members = [
      member('consumer1', both, [tp(topic1, 0), tp(topic2, 1)], generationId),
      member('consumer2', both, [tp(topic1, 1), tp(topic2, 2)], generationId),
    ];
    const a = sticky(members, { topic1: 2, topic2: 3 });
    expect(names(a.consumer1)).toEqual(['topic1-0', 'topic2-0', 'topic2-1']);
    expect(names(a.consumer2)).toEqual(['topic1-1', 'topic2-2']);
    expect(transferring(members, { topic1: 2, topic2: 3 })).toEqual({});
  });

  it('testMaxQuotaConsumerMoreThanNumExpectedMaxCapacityMembers', () => {
    const both = [topic1, topic2];
    const members = [
      member('consumer1', both, [tp(topic1, 0), tp(topic2, 0)], generationId),
      member('consumer2', both, [tp(topic1, 1), tp(topic2, 1)], generationId),
      member('consumer3', both, [], generationId),
    ];
    expect(transferring(members, { topic1: 2, topic2: 2 })).toEqual({ 'topic2-0': 'consumer3' });
    expect(sticky(members, { topic1: 2, topic2: 2 })).toEqual({
      consumer1: [tp(topic1, 0)],
      consumer2: [tp(topic1, 1), tp(topic2, 1)],
      consumer3: [tp(topic2, 0)],
    });
  });

  it('testAllConsumersAreUnderMinQuota', () => {
    const both = [topic1, topic2];
    const members = [
      member('consumer1', both, [tp(topic1, 0)], generationId),
      member('consumer2', both, [tp(topic1, 1)], generationId),
      member('consumer3', both, [], generationId),
    ];
    expect(transferring(members, { topic1: 2, topic2: 3 })).toEqual({});
    expect(sticky(members, { topic1: 2, topic2: 3 })).toEqual({
      consumer1: [tp(topic1, 0), tp(topic2, 1)],
      consumer2: [tp(topic1, 1), tp(topic2, 2)],
      consumer3: [tp(topic2, 0)],
    });
  });

  it('testAddRemoveConsumerOneTopic', () => {
    const ppt = { topic: 3 };
    const first = sticky([member('consumer1', [topic])], ppt);
    expect(first).toEqual({ consumer1: [tp(topic, 0), tp(topic, 1), tp(topic, 2)] });
    const round2 = [
      owning(member('consumer1', [topic]), first.consumer1 ?? [], generationId),
      owning(member('consumer2', [topic]), [], generationId),
    ];
    expect(transferring(round2, ppt)).toEqual({ 'topic-2': 'consumer2' });
    const second = sticky(round2, ppt);
    expect(second).toEqual({ consumer1: [tp(topic, 0), tp(topic, 1)], consumer2: [tp(topic, 2)] });
    const round3 = [owning(member('consumer2', [topic]), second.consumer2 ?? [], generationId)];
    expect(sticky(round3, ppt)).toEqual({ consumer2: [tp(topic, 0), tp(topic, 1), tp(topic, 2)] });
    expect(transferring(round3, ppt)).toEqual({});
  });

  it('testTopicBalanceAfterReassignment: every member ends with the same share of each topic', () => {
    const all = [topic1, topic2];
    const ppt = { topic1: 12, topic2: 12 };
    const perTopic = (a: GroupAssignment, n: number) => {
      for (const list of Object.values(a)) {
        expect(list.filter((p) => p.topic === topic1)).toHaveLength(n);
        expect(list.filter((p) => p.topic === topic2)).toHaveLength(n);
      }
    };
    let a = sticky([member('consumer1', all)], ppt);
    perTopic(a, 12);
    let members = ['consumer1', 'consumer2'].map((id) => owning(member(id, all), a[id] ?? [], generationId));
    a = sticky(members, ppt);
    perTopic(a, 6);
    members = ['consumer1', 'consumer2', 'consumer3', 'consumer4'].map((id) =>
      owning(member(id, all), a[id] ?? [], generationId),
    );
    a = sticky(members, ppt);
    perTopic(a, 3);
    members = ['consumer3', 'consumer4'].map((id) => owning(member(id, all), a[id] ?? [], generationId));
    expect(transferring(members, ppt)).toEqual({});
    a = sticky(members, ppt);
    perTopic(a, 6);
  });

  it('testAddRemoveTwoConsumersTwoTopics', () => {
    const all = [topic1, topic2];
    const ppt = { topic1: 3, topic2: 4 };
    const first = sticky([member('consumer1', all), member('consumer2', all)], ppt);
    expect(first).toEqual({
      consumer1: [tp(topic1, 0), tp(topic1, 2), tp(topic2, 1), tp(topic2, 3)],
      consumer2: [tp(topic1, 1), tp(topic2, 0), tp(topic2, 2)],
    });
    const round2 = ['consumer1', 'consumer2', 'consumer3', 'consumer4'].map((id) =>
      owning(member(id, all), first[id] ?? [], generationId),
    );
    expect(transferring(round2, ppt)).toEqual({
      'topic1-2': 'consumer3',
      'topic2-2': 'consumer4',
      'topic2-3': 'consumer3',
    });
    const second = sticky(round2, ppt);
    expect(second).toEqual({
      consumer1: [tp(topic1, 0), tp(topic2, 1)],
      consumer2: [tp(topic1, 1), tp(topic2, 0)],
      consumer3: [tp(topic1, 2), tp(topic2, 3)],
      consumer4: [tp(topic2, 2)],
    });
    const round3 = ['consumer3', 'consumer4'].map((id) => owning(member(id, all), second[id] ?? [], generationId));
    expect(sticky(round3, ppt)).toEqual({
      consumer3: [tp(topic1, 0), tp(topic1, 2), tp(topic2, 1), tp(topic2, 3)],
      consumer4: [tp(topic1, 1), tp(topic2, 0), tp(topic2, 2)],
    });
    expect(transferring(round3, ppt)).toEqual({});
  });

  it('testPoorRoundRobinAssignmentScenario: valid and balanced where roundrobin leaves consumer3 idle', () => {
    const ppt = { topic1: 2, topic2: 1, topic3: 2, topic4: 1, topic5: 2 };
    const members = [
      member('consumer1', ['topic1', 'topic2', 'topic3', 'topic4', 'topic5']),
      member('consumer2', ['topic1', 'topic3', 'topic5']),
      member('consumer3', ['topic1', 'topic3', 'topic5']),
      member('consumer4', ['topic1', 'topic2', 'topic3', 'topic4', 'topic5']),
    ];
    expectValidAndBalanced(members, ppt, sticky(members, ppt));
    expect(assignPartitions('roundrobin', members, ppt).consumer3).toEqual([]);
  });

  it('testAddRemoveTopicTwoConsumers: partitions stay put as topics come and go', () => {
    let ppt: Record<string, number> = { topic: 3 };
    const a1 = sticky([member('consumer1', [topic]), member('consumer2', [topic])], ppt);
    expect(isFullyBalanced(a1)).toBe(true);
    ppt = { topic: 3, topic2: 3 };
    let members = ['consumer1', 'consumer2'].map((id) =>
      owning(member(id, [topic, topic2]), a1[id] ?? [], generationId),
    );
    expect(transferring(members, ppt)).toEqual({});
    const a2 = sticky(members, ppt);
    expect(a2.consumer1).toHaveLength(3);
    expect(a2.consumer2).toHaveLength(3);
    expect(names(a2.consumer1)).toEqual(expect.arrayContaining(names(a1.consumer1)));
    expect(names(a2.consumer2)).toEqual(expect.arrayContaining(names(a1.consumer2)));
    ppt = { topic2: 3 };
    members = ['consumer1', 'consumer2'].map((id) => owning(member(id, [topic2]), a2[id] ?? [], generationId));
    const a3 = sticky(members, ppt);
    expect(isFullyBalanced(a3)).toBe(true);
    expect(names(a2.consumer1)).toEqual(expect.arrayContaining(names(a3.consumer1)));
    expect(names(a2.consumer2)).toEqual(expect.arrayContaining(names(a3.consumer2)));
  });

  const pad = (s: string, i: number, max: number) => s + String(i).padStart(String(max).length, '0');

  it('testReassignmentAfterOneConsumerLeaves: general path stays sticky', () => {
    const ppt: Record<string, number> = {};
    for (let i = 1; i < 20; i++) ppt[pad('t', i, 20)] = i;
    let members: MemberSubscription[] = [];
    for (let i = 1; i < 20; i++) {
      members.push({ memberId: pad('c', i, 20), topics: Array.from({ length: i }, (_, j) => pad('t', j + 1, 20)) });
    }
    const a = sticky(members, ppt);
    expectValidAndBalanced(members, ppt, a);
    members = members.map((m) => owning(m, a[m.memberId] ?? [], generationId)).filter((m) => m.memberId !== 'c10');
    const b = sticky(members, ppt);
    expectValidAndBalanced(members, ppt, b);
    expect(isSticky(members, ppt)).toBe(true);
  });

  it('testReassignmentAfterOneConsumerAdded / testSameSubscriptions', () => {
    const members = Array.from({ length: 9 }, (_, i) => ({ memberId: pad('c', i + 1, 10), topics: ['topic'] }));
    const a = sticky(members, { topic: 20 });
    expectValidAndBalanced(members, { topic: 20 }, a);
    const more = [...members, member('c10', ['topic'])];
    expectValidAndBalanced(more, { topic: 20 }, sticky(more, { topic: 20 }));

    const ppt: Record<string, number> = {};
    for (let i = 1; i < 15; i++) ppt[pad('t', i, 15)] = i;
    const all = Object.keys(ppt);
    let group: MemberSubscription[] = Array.from({ length: 8 }, (_, i) => ({
      memberId: pad('c', i + 1, 9),
      topics: all,
    }));
    const b = sticky(group, ppt);
    expectValidAndBalanced(group, ppt, b);
    group = group.map((m) => owning(m, b[m.memberId] ?? [], generationId)).filter((m) => m.memberId !== 'c5');
    expect(transferring(group, ppt)).toEqual({});
    expectValidAndBalanced(group, ppt, sticky(group, ppt));
  });

  it('testStickiness: removing a member keeps everyone else\u2019s partition', () => {
    const ppt = { topic1: 3 };
    const members = [1, 2, 3, 4].map((i) => ({ memberId: `consumer${i}`, topics: [topic1] }));
    const a = sticky(members, ppt);
    for (const l of Object.values(a)) expect(l.length).toBeLessThanOrEqual(1);
    const next = members.slice(1).map((m) => owning(m, a[m.memberId] ?? [], generationId));
    const b = sticky(next, ppt);
    for (const m of next) {
      expect(b[m.memberId]).toHaveLength(1);
      if ((a[m.memberId] ?? []).length === 1) expect(b[m.memberId]).toEqual(a[m.memberId]);
    }
  });

  it('testAssignmentUpdatedForDeletedTopic / testNoExceptionThrownWhenOnlySubscribedTopicDeleted', () => {
    const a = sticky([member('consumer', [topic1, topic2, topic3])], { topic1: 1, topic3: 100 });
    expect(a.consumer).toHaveLength(101);
    const owned = sticky([member('consumer', [topic])], { topic: 3 }).consumer ?? [];
    expect(sticky([owning(member('consumer', [topic]), owned, generationId)], {})).toEqual({
      consumer: [],
    });
  });

  it('testAllConsumersReachExpectedQuotaAndAreConsideredFilled', () => {
    const members = [
      member('consumer1', [topic], [tp(topic, 0), tp(topic, 1)], generationId),
      member('consumer2', [topic], [tp(topic, 2)], generationId),
      member('consumer3', [topic], [], generationId),
    ];
    expect(sticky(members, { topic: 4 })).toEqual({
      consumer1: [tp(topic, 0), tp(topic, 1)],
      consumer2: [tp(topic, 2)],
      consumer3: [tp(topic, 3)],
    });
    expect(transferring(members, { topic: 4 })).toEqual({});
  });

  it('testOwnedPartitionsAreInvalidatedForConsumerWithStaleGeneration / ...WithNoGeneration', () => {
    const both = [topic, topic2];
    const owned = [tp(topic, 0), tp(topic, 2), tp(topic2, 1)];
    for (const staleGeneration of [9, undefined, -1]) {
      const members = [member('consumer1', both, owned, 10), member('consumer2', both, owned, staleGeneration)];
      const a = sticky(members, { topic: 3, topic2: 3 });
      expect(names(a.consumer1)).toEqual(['topic-0', 'topic-2', 'topic2-1']);
      expect(names(a.consumer2)).toEqual(['topic-1', 'topic2-0', 'topic2-2']);
      expect(transferring(members, { topic: 3, topic2: 3 })).toEqual({});
    }
  });

  it('testPartitionsTransferringOwnershipIncludeThePartitionClaimedByMultipleConsumersInSameGeneration', () => {
    const members = [
      member('consumer1', [topic], [tp(topic, 0), tp(topic, 1)], generationId),
      member('consumer2', [topic], [tp(topic, 0), tp(topic, 2)], generationId),
      member('consumer3', [topic], [], generationId),
    ];
    expect(transferring(members, { topic: 3 })).toEqual({ 'topic-0': 'consumer3' });
    expect(sticky(members, { topic: 3 })).toEqual({
      consumer1: [tp(topic, 1)],
      consumer2: [tp(topic, 2)],
      consumer3: [tp(topic, 0)],
    });
  });

  it('testEnsurePartitionsAssignedToHighestGeneration', () => {
    const all = [topic, topic2, topic3];
    const members = [
      member('consumer1', all, [tp(topic, 0), tp(topic2, 0), tp(topic3, 0)], 10),
      member('consumer2', all, [tp(topic, 1), tp(topic2, 1), tp(topic3, 1)], 9),
      member('consumer3', all, [tp(topic2, 1), tp(topic3, 0), tp(topic3, 2)], 8),
    ];
    const a = sticky(members, { topic: 3, topic2: 3, topic3: 3 });
    expect(names(a.consumer1)).toEqual(['topic-0', 'topic2-0', 'topic3-0']);
    expect(names(a.consumer2)).toEqual(['topic-1', 'topic2-1', 'topic3-1']);
    expect(names(a.consumer3)).toEqual(['topic-2', 'topic2-2', 'topic3-2']);
    expect(transferring(members, { topic: 3, topic2: 3, topic3: 3 })).toEqual({});
  });

  it('testNoReassignmentOnCurrentMembers', () => {
    const all = [topic, topic2, topic3, topic1];
    const members = [
      member('consumer1', all, [], -1),
      member('consumer2', all, [tp(topic, 0), tp(topic2, 0), tp(topic1, 0)], 9),
      member('consumer3', all, [tp(topic3, 2), tp(topic2, 2), tp(topic1, 1)], 8),
      member('consumer4', all, [tp(topic3, 1), tp(topic, 1), tp(topic, 2)], 7),
    ];
    const ppt = { topic: 3, topic1: 3, topic2: 3, topic3: 3 };
    expect(names(sticky(members, ppt).consumer1)).toEqual(['topic1-2', 'topic2-1', 'topic3-0']);
    expect(transferring(members, ppt)).toEqual({});
  });

  it('testOwnedPartitionsAreInvalidatedForConsumerWithMultipleGeneration', () => {
    const both = [topic, topic2];
    const members = [
      member('consumer1', both, [tp(topic, 0), tp(topic2, 1), tp(topic, 1)], 10),
      member('consumer2', both, [tp(topic, 0), tp(topic2, 1), tp(topic2, 2)], 8),
    ];
    const a = sticky(members, { topic: 3, topic2: 3 });
    expect(names(a.consumer1)).toEqual(['topic-0', 'topic-1', 'topic2-1']);
    expect(names(a.consumer2)).toEqual(['topic-2', 'topic2-0', 'topic2-2']);
  });

  it('testSubscriptionNotEqualAndAssignSamePartitionWith3Generation', () => {
    for (const [g1, g2, g3] of [
      [1, 2, 3],
      [1, 3, 2],
      [2, 1, 3],
      [2, 3, 1],
      [3, 1, 2],
      [3, 2, 1],
    ]) {
      const members = [
        member('consumer1', [topic], [tp(topic, 0), tp(topic, 2)], g1),
        member('consumer2', [topic], [tp(topic, 1), tp(topic, 2), tp(topic, 3)], g2),
        member('consumer3', [topic], [tp(topic, 2), tp(topic, 4), tp(topic, 5)], g3),
        member('consumer4', [topic1], [tp(topic1, 0)], 2),
      ];
      const ppt = { topic: 6, topic1: 1 };
      const a = sticky(members, ppt);
      expect(validityProblems(members, ppt, a)).toEqual([]);
      for (const l of Object.values(a)) {
        expect(l.length).toBeGreaterThanOrEqual(1);
        expect(l.length).toBeLessThanOrEqual(2);
      }
    }
  });
});

describe('StickyAssignor: StickyAssignorTest.java', () => {
  it('testAllConsumersHaveOwnedPartitionInvalidatedWhenClaimedByMultipleConsumersInSameGeneration (equal and unequal)', () => {
    const members = [
      member('consumer1', [topic], [tp(topic, 0), tp(topic, 1)], generationId),
      member('consumer2', [topic], [tp(topic, 0), tp(topic, 2)], generationId),
      member('consumer3', [topic], [], generationId),
    ];
    expect(sticky(members, { topic: 3 })).toEqual({
      consumer1: [tp(topic, 1)],
      consumer2: [tp(topic, 2)],
      consumer3: [tp(topic, 0)],
    });
    expect(sticky(members, { topic: 4 })).toEqual({
      consumer1: [tp(topic, 1), tp(topic, 3)],
      consumer2: [tp(topic, 2)],
      consumer3: [tp(topic, 0)],
    });
  });

  for (const equal of [true, false]) {
    it(`testAssignmentWithMultipleGenerations1 (isAllSubscriptionsEqual=${equal})`, () => {
      const all = [topic, topic2];
      const c2Topics = equal ? all : [topic];
      const ppt = { topic: 6, topic2: 6 };
      const r1 = sticky([member('consumer1', all), member('consumer2', c2Topics), member('consumer3', all)], ppt);
      for (const l of Object.values(r1)) expect(l).toHaveLength(4);
      const round2 = [
        member('consumer1', all, r1.consumer1, generationId),
        member('consumer2', c2Topics, r1.consumer2, generationId),
      ];
      const r2 = sticky(round2, ppt);
      expect(r2.consumer1).toHaveLength(6);
      expect(r2.consumer2).toHaveLength(6);
      if (equal) expect(names(r2.consumer1)).toEqual(expect.arrayContaining(names(r1.consumer1)));
      expect(names(r2.consumer2)).toEqual(expect.arrayContaining(names(r1.consumer2)));
      expectValidAndBalanced(round2, ppt, r2);
      expect(names(r2.consumer2).some((p) => names(r1.consumer3).includes(p))).toBe(true);
      const round3 = [member('consumer2', c2Topics, r2.consumer2, 2), member('consumer3', all, r1.consumer3, 1)];
      const r3 = sticky(round3, ppt);
      expect(r3.consumer2).toHaveLength(6);
      expect(r3.consumer3).toHaveLength(6);
      expectValidAndBalanced(round3, ppt, r3);
    });

    it(`testAssignmentWithMultipleGenerations2 (isAllSubscriptionsEqual=${equal})`, () => {
      const all = [topic, topic2, topic3];
      const c1Topics = equal ? all : [topic];
      const c3Topics = equal ? all : [topic, topic2];
      const ppt = { topic: 4, topic2: 4, topic3: 4 };
      const r1 = sticky([member('consumer1', c1Topics), member('consumer2', all), member('consumer3', c3Topics)], ppt);
      for (const l of Object.values(r1)) expect(l).toHaveLength(4);
      const r2 = sticky([member('consumer2', all, r1.consumer2, 1)], ppt);
      expect(r2.consumer2).toHaveLength(12);
      const round3 = [
        member('consumer1', c1Topics, r1.consumer1, 1),
        member('consumer2', all, r2.consumer2, 2),
        member('consumer3', c3Topics, r1.consumer3, 1),
      ];
      const r3 = sticky(round3, ppt);
      for (const l of Object.values(r3)) expect(l).toHaveLength(4);
      expectValidAndBalanced(round3, ppt, r3);
    });

    it(`testAssignmentWithConflictingPreviousGenerations (isAllSubscriptionsEqual=${equal})`, () => {
      const all = [topic, topic2, topic3];
      const ppt = { topic: 4, topic2: 4, topic3: 4 };
      const c1 = equal
        ? [tp(topic, 0), tp(topic, 1), tp(topic, 2), tp(topic2, 2), tp(topic2, 3), tp(topic3, 0)]
        : [tp(topic, 0), tp(topic, 1), tp(topic, 2), tp(topic, 3)];
      const c2 = [tp(topic, 0), tp(topic, 1), tp(topic2, 0), tp(topic2, 1), tp(topic2, 2), tp(topic2, 3)];
      const c3 = [tp(topic, 2), tp(topic, 3), tp(topic3, 0), tp(topic3, 1), tp(topic3, 2), tp(topic3, 3)];
      const members = [
        { memberId: 'consumer1', topics: equal ? all : [topic], ownedPartitions: c1, generation: 1 },
        { memberId: 'consumer2', topics: equal ? all : [topic, topic2], ownedPartitions: c2, generation: 2 },
        member('consumer3', all, c3, 2),
      ];
      const a = sticky(members, ppt);
      for (const l of Object.values(a)) expect(l).toHaveLength(4);
      expect(names(c2)).toEqual(expect.arrayContaining(names(a.consumer2)));
      expect(names(c3)).toEqual(expect.arrayContaining(names(a.consumer3)));
      expectValidAndBalanced(members, ppt, a);
    });
  }
});

describe('StickyAssignor class comment examples', () => {
  it('Example 1: a member leaves and every other assignment is preserved', () => {
    const all = ['t0', 't1', 't2', 't3'];
    const ppt = { t0: 2, t1: 2, t2: 2, t3: 2 };
    const a = sticky(
      ['C0', 'C1', 'C2'].map((memberId) => ({ memberId, topics: all })),
      ppt,
    );
    expect(a).toEqual(
      assignPartitions(
        'roundrobin',
        ['C0', 'C1', 'C2'].map((memberId) => ({ memberId, topics: all })),
        ppt,
      ),
    );
    expect(names(a.C0)).toEqual(['t0-0', 't1-1', 't3-0']);
    const b = sticky(
      ['C0', 'C2'].map((memberId) => ({ memberId, topics: all, ownedPartitions: a[memberId], generation: 1 })),
      ppt,
    );
    // Both keep everything they had; the comment's exact lists predate the constrained algorithm,
    // which deals C1's partitions by topic then partition (what Kafka's code returns today).
    expect(names(b.C0)).toEqual(expect.arrayContaining(names(a.C0)));
    expect(names(b.C2)).toEqual(expect.arrayContaining(names(a.C2)));
    expect(names(b.C0)).toEqual(['t0-0', 't0-1', 't1-1', 't3-0']);
    expect(names(b.C2)).toEqual(['t1-0', 't2-0', 't2-1', 't3-1']);
  });

  it('Example 2: different subscriptions, balanced better than roundrobin, and sticky when C0 leaves', () => {
    const ppt = { t0: 1, t1: 2, t2: 3 };
    const members = [member('C0', ['t0']), member('C1', ['t0', 't1']), member('C2', ['t0', 't1', 't2'])];
    const a = sticky(members, ppt);
    expect(a).toEqual({
      C0: [tp('t0', 0)],
      C1: [tp('t1', 0), tp('t1', 1)],
      C2: [tp('t2', 0), tp('t2', 1), tp('t2', 2)],
    });
    const b = sticky(
      members.slice(1).map((m) => ({ ...m, ownedPartitions: a[m.memberId], generation: 1 })),
      ppt,
    );
    expect(b).toEqual({ C1: [tp('t0', 0), tp('t1', 0), tp('t1', 1)], C2: [tp('t2', 0), tp('t2', 1), tp('t2', 2)] });
  });
});

describe('where glassbox deliberately differs from Kafka', () => {
  it('never sends a partition back to an older-generation owner that no longer subscribes to its topic', () => {
    // Found by differential testing against Kafka's AbstractStickyAssignor: there m-b (generation 1,
    // subscribed to Z9 and t10) is handed back a-b-1, a topic it does not subscribe to.
    const members: MemberSubscription[] = [
      {
        memberId: 'c1',
        topics: ['Z9', 't0'],
        generation: 1,
        ownedPartitions: [tp('Z9', 0), tp('Z9', 2), tp('Z9', 4), tp('t0', 4)],
      },
      {
        memberId: 'consumer-b',
        topics: ['t10', 'a-b', 't0'],
        generation: 3,
        ownedPartitions: [tp('a-b', 1), tp('a-b', 3), tp('t0', 1)],
      },
      { memberId: 'm-b', topics: ['Z9', 't10'], generation: 1, ownedPartitions: [tp('t0', 0), tp('a-b', 1)] },
      { memberId: 'c2', groupInstanceId: 'inst42-3', topics: ['t10'], generation: 2, ownedPartitions: [] },
      {
        memberId: 'BB',
        topics: ['Z9', 'a-b', 't0'],
        generation: 3,
        ownedPartitions: [tp('a-b', 0), tp('a-b', 2), tp('t0', 0), tp('t0', 3)],
      },
      {
        memberId: 'consumer4',
        topics: ['Z9', 't10', 'a-b', 't0'],
        generation: 3,
        ownedPartitions: [tp('Z9', 1), tp('Z9', 3), tp('t0', 2)],
      },
    ];
    const ppt = { Z9: 5, t10: 0, 'a-b': 4, t0: 5 };
    const a = sticky(members, ppt);
    expect(validityProblems(members, ppt, a)).toEqual([]);
    expect(balanceProblems(a)).toEqual([]);
  });
});
