import { describe, expect, it } from 'vitest';
import { assignPartitions } from './assignPartitions';
import type { GroupAssignment, MemberSubscription } from './types';
import { member, tp, topic1, topic2 } from './testing';

// Expected assignments from apache/kafka
// clients/src/test/java/org/apache/kafka/clients/consumer/RangeAssignorTest.java (test named per case)
// and the RangeAssignor.java class comment.
const range = (members: MemberSubscription[], partitions: Record<string, number>): GroupAssignment =>
  assignPartitions('range', members, partitions);

describe('RangeAssignor (RangeAssignorTest.java)', () => {
  it('testOneConsumerNoTopic / testOneConsumerNonexistentTopic', () => {
    expect(range([member('consumer1', [])], {})).toEqual({ consumer1: [] });
    expect(range([member('consumer1', [topic1])], {})).toEqual({ consumer1: [] });
  });

  it('testOneConsumerOneTopic / testOnlyAssignsPartitionsFromSubscribedTopics', () => {
    expect(range([member('consumer1', [topic1])], { topic1: 3 })).toEqual({
      consumer1: [tp(topic1, 0), tp(topic1, 1), tp(topic1, 2)],
    });
    expect(range([member('consumer1', [topic1])], { topic1: 3, other: 3 })).toEqual({
      consumer1: [tp(topic1, 0), tp(topic1, 1), tp(topic1, 2)],
    });
  });

  it('testOneConsumerMultipleTopics', () => {
    expect(range([member('consumer1', [topic1, topic2])], { topic1: 1, topic2: 2 })).toEqual({
      consumer1: [tp(topic1, 0), tp(topic2, 0), tp(topic2, 1)],
    });
  });

  it('testTwoConsumersOneTopicOnePartition / testTwoConsumersOneTopicTwoPartitions', () => {
    const two = [member('consumer1', [topic1]), member('consumer2', [topic1])];
    expect(range(two, { topic1: 1 })).toEqual({ consumer1: [tp(topic1, 0)], consumer2: [] });
    expect(range(two, { topic1: 2 })).toEqual({ consumer1: [tp(topic1, 0)], consumer2: [tp(topic1, 1)] });
  });

  it('testMultipleConsumersMixedTopics', () => {
    const a = range(
      [member('consumer1', [topic1]), member('consumer2', [topic1, topic2]), member('consumer3', [topic1])],
      { topic1: 3, topic2: 2 },
    );
    expect(a).toEqual({
      consumer1: [tp(topic1, 0)],
      consumer2: [tp(topic1, 1), tp(topic2, 0), tp(topic2, 1)],
      consumer3: [tp(topic1, 2)],
    });
  });

  it('testTwoConsumersTwoTopicsSixPartitions (also the RangeAssignor class comment example)', () => {
    const both = [topic1, topic2];
    expect(range([member('consumer1', both), member('consumer2', both)], { topic1: 3, topic2: 3 })).toEqual({
      consumer1: [tp(topic1, 0), tp(topic1, 1), tp(topic2, 0), tp(topic2, 1)],
      consumer2: [tp(topic1, 2), tp(topic2, 2)],
    });
  });

  it('testTwoStaticConsumersTwoTopicsSixPartitions: static members sort by group.instance.id, not member.id', () => {
    const both = [topic1, topic2];
    const a = range(
      [
        { memberId: 'consumer-b', groupInstanceId: 'instance1', topics: both },
        { memberId: 'consumer-a', groupInstanceId: 'instance2', topics: both },
      ],
      { topic1: 3, topic2: 3 },
    );
    expect(a['consumer-b']).toEqual([tp(topic1, 0), tp(topic1, 1), tp(topic2, 0), tp(topic2, 1)]);
    expect(a['consumer-a']).toEqual([tp(topic1, 2), tp(topic2, 2)]);
  });

  it('testOneStaticConsumerAndOneDynamicConsumerTwoTopicsSixPartitions: static members come first', () => {
    const both = [topic1, topic2];
    const a = range(
      [{ memberId: 'consumer-b', groupInstanceId: 'instance1', topics: both }, member('consumer-a', both)],
      { topic1: 3, topic2: 3 },
    );
    expect(a['consumer-b']).toEqual([tp(topic1, 0), tp(topic1, 1), tp(topic2, 0), tp(topic2, 1)]);
    expect(a['consumer-a']).toEqual([tp(topic1, 2), tp(topic2, 2)]);
  });

  it('testStaticMemberRangeAssignmentPersistent: a replaced dynamic member takes the same ranges', () => {
    const both = [topic1, topic2];
    const statics = [1, 2, 3].map((i) => ({ memberId: `consumer${i}`, groupInstanceId: `instance${i}`, topics: both }));
    const expected = {
      consumer1: [tp(topic1, 0), tp(topic1, 1), tp(topic2, 0)],
      consumer2: [tp(topic1, 2), tp(topic2, 1)],
      consumer3: [tp(topic1, 3), tp(topic2, 2)],
    };
    expect(range([...statics, member('consumer4', both)], { topic1: 5, topic2: 4 })).toEqual({
      ...expected,
      consumer4: [tp(topic1, 4), tp(topic2, 3)],
    });
    expect(range([...statics, member('consumer5', both)], { topic1: 5, topic2: 4 })).toEqual({
      ...expected,
      consumer5: [tp(topic1, 4), tp(topic2, 3)],
    });
  });

  it('testStaticMemberRangeAssignmentPersistentAfterMemberIdChanges', () => {
    const both = [topic1, topic2];
    const byInstance = (a: GroupAssignment, members: { memberId: string; groupInstanceId: string }[]) =>
      Object.fromEntries(members.map((m) => [m.groupInstanceId, a[m.memberId]]));
    const before = [1, 2, 3].map((i) => ({ memberId: `consumer${i}`, groupInstanceId: `instance${i}`, topics: both }));
    const expected = {
      instance1: [tp(topic1, 0), tp(topic1, 1), tp(topic2, 0), tp(topic2, 1)],
      instance2: [tp(topic1, 2), tp(topic1, 3), tp(topic2, 2), tp(topic2, 3)],
      instance3: [tp(topic1, 4), tp(topic2, 4)],
    };
    expect(byInstance(range(before, { topic1: 5, topic2: 5 }), before)).toEqual(expected);
    const after = [
      { memberId: 'consumer1', groupInstanceId: 'instance1', topics: both },
      { memberId: 'consumer5', groupInstanceId: 'instance2', topics: both },
      { memberId: 'consumer4', groupInstanceId: 'instance3', topics: both },
    ];
    expect(byInstance(range(after, { topic1: 5, topic2: 5 }), after)).toEqual(expected);
  });
});

describe('the seeds\u2019 range hazard: imbalance grows with every topic subscribed', () => {
  it('2 consumers, 3 topics of 3 partitions: C0 gets 6, C1 gets 3', () => {
    const topics = ['A', 'B', 'C'];
    const a = range(
      [
        { memberId: 'C0', topics },
        { memberId: 'C1', topics },
      ],
      { A: 3, B: 3, C: 3 },
    );
    expect(a.C0).toEqual([tp('A', 0), tp('A', 1), tp('B', 0), tp('B', 1), tp('C', 0), tp('C', 1)]);
    expect(a.C1).toEqual([tp('A', 2), tp('B', 2), tp('C', 2)]);
  });

  it('the gap equals the number of topics with an odd partition count', () => {
    for (let n = 1; n <= 6; n++) {
      const topics = Array.from({ length: n }, (_, i) => `t${i}`);
      const a = range(
        [
          { memberId: 'C0', topics },
          { memberId: 'C1', topics },
        ],
        Object.fromEntries(topics.map((t) => [t, 3])),
      );
      expect(a.C0?.length).toBe(2 * n);
      expect(a.C1?.length).toBe(n);
    }
  });
});
