import { describe, expect, it } from 'vitest';
import { assignPartitions, explainAssignment } from './assignPartitions';
import type { GroupAssignment, MemberSubscription } from './types';
import { member, tp, topic, topic1, topic2 } from './testing';

// Expected assignments from apache/kafka
// clients/src/test/java/org/apache/kafka/clients/consumer/RoundRobinAssignorTest.java (test named per case)
// and the RoundRobinAssignor.java class comment.
const rr = (members: MemberSubscription[], partitions: Record<string, number>): GroupAssignment =>
  assignPartitions('roundrobin', members, partitions);

describe('RoundRobinAssignor (RoundRobinAssignorTest.java)', () => {
  it('testOneConsumerNoTopic / testOneConsumerNonexistentTopic / testOneConsumerOneTopic', () => {
    expect(rr([member('consumer', [])], {})).toEqual({ consumer: [] });
    expect(rr([member('consumer', [topic])], {})).toEqual({ consumer: [] });
    expect(rr([member('consumer', [topic])], { topic: 3 })).toEqual({
      consumer: [tp(topic, 0), tp(topic, 1), tp(topic, 2)],
    });
  });

  it('testOnlyAssignsPartitionsFromSubscribedTopics / testOneConsumerMultipleTopics', () => {
    expect(rr([member('consumer', [topic])], { topic: 3, other: 3 })).toEqual({
      consumer: [tp(topic, 0), tp(topic, 1), tp(topic, 2)],
    });
    expect(rr([member('consumer', [topic1, topic2])], { topic1: 1, topic2: 2 })).toEqual({
      consumer: [tp(topic1, 0), tp(topic2, 0), tp(topic2, 1)],
    });
  });

  it('testTwoConsumersOneTopicOnePartition / testTwoConsumersOneTopicTwoPartitions', () => {
    const two = [member('consumer1', [topic]), member('consumer2', [topic])];
    expect(rr(two, { topic: 1 })).toEqual({ consumer1: [tp(topic, 0)], consumer2: [] });
    expect(rr(two, { topic: 2 })).toEqual({ consumer1: [tp(topic, 0)], consumer2: [tp(topic, 1)] });
  });

  it('testMultipleConsumersMixedTopics', () => {
    expect(
      rr([member('consumer1', [topic1]), member('consumer2', [topic1, topic2]), member('consumer3', [topic1])], {
        topic1: 3,
        topic2: 2,
      }),
    ).toEqual({
      consumer1: [tp(topic1, 0)],
      consumer2: [tp(topic1, 1), tp(topic2, 0), tp(topic2, 1)],
      consumer3: [tp(topic1, 2)],
    });
  });

  it('testTwoDynamicConsumersTwoTopicsSixPartitions', () => {
    const both = [topic1, topic2];
    expect(rr([member('consumer1', both), member('consumer2', both)], { topic1: 3, topic2: 3 })).toEqual({
      consumer1: [tp(topic1, 0), tp(topic1, 2), tp(topic2, 1)],
      consumer2: [tp(topic1, 1), tp(topic2, 0), tp(topic2, 2)],
    });
  });

  it('testTwoStaticConsumersTwoTopicsSixPartitions / testOneStaticConsumerAndOneDynamicConsumerTwoTopicsSixPartitions', () => {
    const both = [topic1, topic2];
    const expected = {
      'consumer-b': [tp(topic1, 0), tp(topic1, 2), tp(topic2, 1)],
      'consumer-a': [tp(topic1, 1), tp(topic2, 0), tp(topic2, 2)],
    };
    expect(
      rr(
        [
          { memberId: 'consumer-b', groupInstanceId: 'instance1', topics: both },
          { memberId: 'consumer-a', groupInstanceId: 'instance2', topics: both },
        ],
        { topic1: 3, topic2: 3 },
      ),
    ).toEqual(expected);
    expect(
      rr([{ memberId: 'consumer-b', groupInstanceId: 'instance1', topics: both }, member('consumer-a', both)], {
        topic1: 3,
        topic2: 3,
      }),
    ).toEqual(expected);
  });

  it('testStaticMemberRoundRobinAssignmentPersistent', () => {
    const both = [topic1, topic2];
    const statics = [1, 2, 3].map((i) => ({ memberId: `consumer${i}`, groupInstanceId: `instance${i}`, topics: both }));
    const expected = {
      consumer1: [tp(topic1, 0), tp(topic2, 1)],
      consumer2: [tp(topic1, 1), tp(topic2, 2)],
      consumer3: [tp(topic1, 2)],
    };
    expect(rr([...statics, member('consumer4', both)], { topic1: 3, topic2: 3 })).toEqual({
      ...expected,
      consumer4: [tp(topic2, 0)],
    });
    expect(rr([...statics, member('consumer5', both)], { topic1: 3, topic2: 3 })).toEqual({
      ...expected,
      consumer5: [tp(topic2, 0)],
    });
  });

  it('testStaticMemberRoundRobinAssignmentPersistentAfterMemberIdChanges', () => {
    const both = [topic1, topic2];
    const expected = {
      instance1: [tp(topic1, 0), tp(topic1, 3), tp(topic2, 1), tp(topic2, 4)],
      instance2: [tp(topic1, 1), tp(topic1, 4), tp(topic2, 2)],
      instance3: [tp(topic1, 2), tp(topic2, 0), tp(topic2, 3)],
    };
    for (const ids of [
      ['consumer1', 'consumer2', 'consumer3'],
      ['consumer1', 'consumer5', 'consumer4'],
    ]) {
      const members = ids.map((memberId, i) => ({ memberId, groupInstanceId: `instance${i + 1}`, topics: both }));
      const a = rr(members, { topic1: 5, topic2: 5 });
      expect(Object.fromEntries(members.map((m) => [m.groupInstanceId, a[m.memberId]]))).toEqual(expected);
    }
  });

  it('class comment: different subscriptions skip members and can end up unbalanced', () => {
    expect(
      rr([member('C0', ['t0']), member('C1', ['t0', 't1']), member('C2', ['t0', 't1', 't2'])], { t0: 1, t1: 2, t2: 3 }),
    ).toEqual({
      C0: [tp('t0', 0)],
      C1: [tp('t1', 0)],
      C2: [tp('t1', 1), tp('t2', 0), tp('t2', 1), tp('t2', 2)],
    });
  });
});

describe('the seeds\u2019 roundrobin hazard: topics mixed into one circle when subscriptions differ', () => {
  it('C0 subscribes A, C1 subscribes A and B: one circle over A and B gives C1 three of four', () => {
    const members = [member('C0', ['A']), member('C1', ['A', 'B'])];
    const a = rr(members, { A: 2, B: 2 });
    expect(a).toEqual({ C0: [tp('A', 0)], C1: [tp('A', 1), tp('B', 0), tp('B', 1)] });
    // Real Kafka skips a member not subscribed to the topic, so C0 never gets B's partitions (the
    // seed's picture of topic B landing on Consumer0 predates that check); the mixing shows instead
    // as imbalance, and in which partitions of one topic a member gets depending on other topics:
    // Adding a topic that sorts first shifts the circle: A-0 now goes to C1 instead of C0.
    const withOtherTopicFirst = rr([member('C0', ['0-first', 'A']), member('C1', ['0-first', 'A'])], {
      '0-first': 1,
      A: 2,
    });
    expect(withOtherTopicFirst).toEqual({ C0: [tp('0-first', 0), tp('A', 1)], C1: [tp('A', 0)] });
    const shifted = rr([member('C0', ['A', 'B']), member('C1', ['A', 'B'])], { A: 3, B: 3 });
    // Topic B starts where A's circle stopped: C1 gets B-0, not C0.
    expect(shifted.C1).toEqual([tp('A', 1), tp('B', 0), tp('B', 2)]);
  });

  it('explains each hand-out, including the skips', () => {
    const e = explainAssignment('roundrobin', [member('C0', ['A']), member('C1', ['A', 'B'])], { A: 2, B: 2 });
    expect(e.steps.map((s) => `${s.topic}-${s.partition}->${s.memberId}`)).toEqual([
      'A-0->C0',
      'A-1->C1',
      'B-0->C1',
      'B-1->C1',
    ]);
    expect(e.steps[3]?.reason).toContain('skipped 1');
  });
});
