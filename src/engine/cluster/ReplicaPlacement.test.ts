import { describe, expect, it } from 'vitest';
import { isKafkaError } from '../errors';
import { Rng } from '../Rng';
import {
  assignReplicasToBrokers,
  assignReplicasToBrokersWithSteps,
  getRackAlternatedBrokerList,
} from './ReplicaPlacement';

const ids = (...xs: number[]) => xs.map((id) => ({ id }));

describe('assignReplicasToBrokers: the seeds worked examples (000, section on replica placement)', () => {
  // Two topics x two partitions x RF 2 on brokers 1-4. The seed numbers the four partitions
  // 1-1, 1-2, 2-1, 2-2 and continues the round-robin across topics: topic 2 is placed as
  // partitions 2 and 3 of the same round (startPartitionId 2), both with start index 0.
  it('without broker.rack: leaders 1,2,3,4 and each follower on the next broker', () => {
    const brokers = ids(1, 2, 3, 4);
    const topic1 = assignReplicasToBrokers(brokers, 2, 2, { fixedStartIndex: 0 });
    const topic2 = assignReplicasToBrokers(brokers, 2, 2, { fixedStartIndex: 0, startPartitionId: 2 });
    expect(topic1).toEqual([
      [1, 2], // 1-1-1 on broker 1, 1-1-2 on broker 2
      [2, 3], // 1-2-1 on broker 2, 1-2-2 on broker 3
    ]);
    expect(topic2).toEqual([
      [3, 4],
      [4, 1],
    ]);
  });

  it('with two racks (brokers 1,2 in rack 1; 3,4 in rack 2): leaders alternate racks, followers on the other rack', () => {
    const brokers = [
      { id: 1, rack: 'rack1' },
      { id: 2, rack: 'rack1' },
      { id: 3, rack: 'rack2' },
      { id: 4, rack: 'rack2' },
    ];
    const topic1 = assignReplicasToBrokers(brokers, 2, 2, { fixedStartIndex: 0 });
    const topic2 = assignReplicasToBrokers(brokers, 2, 2, { fixedStartIndex: 0, startPartitionId: 2 });
    // 1-1-1 on rack 1 broker 1, 1-2-1 on rack 2 broker 3; 1-1-2 on broker 3 (the next rack).
    expect(topic1).toEqual([
      [1, 3],
      [3, 2],
    ]);
    expect(topic2).toEqual([
      [2, 4],
      [4, 1],
    ]);
    for (const replicas of [...topic1, ...topic2]) {
      const racks = replicas.map((id) => brokers.find((b) => b.id === id)?.rack);
      expect(new Set(racks).size).toBe(2);
    }
  });
});

describe("assignReplicasToBrokers: Kafka's own placement tests", () => {
  // apache/kafka core/src/test/scala/unit/kafka/admin/AdminRackAwareTest.scala testReplicaAssignment
  // (also AdminTest.scala testReplicaAssignment in older versions)
  it('rack-unaware, 5 brokers, 10 partitions, RF 3, fixed start index 0', () => {
    expect(assignReplicasToBrokers(ids(0, 1, 2, 3, 4), 10, 3, { fixedStartIndex: 0 })).toEqual([
      [0, 1, 2],
      [1, 2, 3],
      [2, 3, 4],
      [3, 4, 0],
      [4, 0, 1],
      [0, 2, 3],
      [1, 3, 4],
      [2, 4, 0],
      [3, 0, 1],
      [4, 1, 2],
    ]);
  });

  // Same test: RF 0 and RF larger than the broker count are refused.
  it('refuses replication factor 0 and larger than the broker count', () => {
    const brokers = ids(0, 1, 2, 3, 4);
    for (const rf of [0, 6]) {
      try {
        assignReplicasToBrokers(brokers, 10, rf);
        expect.unreachable();
      } catch (e) {
        expect(isKafkaError(e, 'INVALID_REPLICATION_FACTOR')).toBe(true);
      }
    }
    try {
      assignReplicasToBrokers(brokers, 0, 1);
      expect.unreachable();
    } catch (e) {
      expect(isKafkaError(e, 'INVALID_PARTITIONS')).toBe(true);
    }
  });

  // apache/kafka server/src/test/java/org/apache/kafka/server/admin/AdminRackAwareTest.java
  // testGetRackAlternatedBrokerListAndAssignReplicasToBrokers (and the AdminUtils javadoc example)
  it('rack-alternated broker list and the 7-partition RF 3 rack-aware assignment', () => {
    const rackMap = new Map([
      [0, 'rack1'],
      [1, 'rack3'],
      [2, 'rack3'],
      [3, 'rack2'],
      [4, 'rack2'],
      [5, 'rack1'],
    ]);
    expect(getRackAlternatedBrokerList(rackMap)).toEqual([0, 3, 1, 5, 4, 2]);
    const without5 = new Map(rackMap);
    without5.delete(5);
    expect(getRackAlternatedBrokerList(without5)).toEqual([0, 3, 1, 4, 2]);
    const brokers = [...rackMap].map(([id, rack]) => ({ id, rack }));
    expect(assignReplicasToBrokers(brokers, 7, 3, { fixedStartIndex: 0 })).toEqual([
      [0, 3, 1],
      [3, 1, 5],
      [1, 5, 4],
      [5, 4, 2],
      [4, 2, 0],
      [2, 0, 3],
      [0, 4, 2],
    ]);
  });

  // apache/kafka AdminRackAwareTest testAssignmentWithRackAware / WithRandomStartIndex: 6 brokers
  // in 3 racks, 6 partitions, RF 3: every partition on 3 racks, one leader and 3 replicas per broker.
  it('rack-aware distribution is even and spans every rack, for fixed and random start indexes', () => {
    const mapping: [number, string][] = [
      [0, 'rack1'],
      [1, 'rack2'],
      [2, 'rack2'],
      [3, 'rack3'],
      [4, 'rack3'],
      [5, 'rack1'],
    ];
    const brokers = mapping.map(([id, rack]) => ({ id, rack }));
    const rack = new Map(mapping);
    for (const options of [{ fixedStartIndex: 2 }, { rng: new Rng(1) }, { rng: new Rng(99) }]) {
      const a = assignReplicasToBrokers(brokers, 6, 3, options);
      const leaders = new Map<number, number>();
      const replicas = new Map<number, number>();
      for (const r of a) {
        expect(new Set(r.map((b) => rack.get(b))).size).toBe(3);
        leaders.set(r[0] as number, (leaders.get(r[0] as number) ?? 0) + 1);
        for (const b of r) replicas.set(b, (replicas.get(b) ?? 0) + 1);
      }
      expect([...leaders.values()]).toEqual([1, 1, 1, 1, 1, 1]);
      expect([...replicas.values()]).toEqual([3, 3, 3, 3, 3, 3]);
    }
  });

  // apache/kafka AdminRackAwareTest testSkipBrokerWithReplicaAlreadyAssigned: RF 4 over 3 racks
  // must still pick 4 distinct brokers once every rack holds a replica.
  it('never places two replicas of a partition on one broker', () => {
    const brokers = [
      { id: 0, rack: 'a' },
      { id: 1, rack: 'b' },
      { id: 2, rack: 'c' },
      { id: 3, rack: 'a' },
      { id: 4, rack: 'a' },
    ];
    for (const r of assignReplicasToBrokers(brokers, 6, 4, { fixedStartIndex: 2 })) {
      expect(new Set(r).size).toBe(4);
    }
  });
});

describe('assignReplicasToBrokers: engine conventions', () => {
  it('sorts brokers by id and numbers partitions from startPartitionId', () => {
    expect(assignReplicasToBrokers(ids(4, 2, 3, 1), 1, 2, { fixedStartIndex: 0 })).toEqual([[1, 2]]);
    // Partition 5 on 5 brokers: the shift has grown by one (5 % 5 == 0).
    expect(assignReplicasToBrokers(ids(0, 1, 2, 3, 4), 1, 3, { fixedStartIndex: 0, startPartitionId: 5 })).toEqual([
      [0, 2, 3],
    ]);
  });

  it('falls back to rack-unaware when only some brokers have a rack', () => {
    expect(assignReplicasToBrokers([{ id: 1, rack: 'r' }, { id: 2 }, { id: 3 }], 1, 2, { fixedStartIndex: 0 })).toEqual(
      [[1, 2]],
    );
  });

  it('draws the start from the seeded Rng: same seed, same placement', () => {
    const brokers = ids(0, 1, 2, 3, 4, 5);
    const a = assignReplicasToBrokers(brokers, 8, 3, { rng: new Rng(7) });
    const b = assignReplicasToBrokers(brokers, 8, 3, { rng: new Rng(7) });
    expect(a).toEqual(b);
  });

  it('returns its steps: leaders, skipped candidates and followers with their shift', () => {
    const brokers = [
      { id: 1, rack: 'rack1' },
      { id: 2, rack: 'rack1' },
      { id: 3, rack: 'rack2' },
      { id: 4, rack: 'rack2' },
    ];
    const { steps, assignment } = assignReplicasToBrokersWithSteps(brokers, 4, 2, { fixedStartIndex: 0 });
    expect(steps[0]).toEqual({
      kind: 'arrangeBrokers',
      rackAware: true,
      brokers: [1, 3, 2, 4],
      racks: ['rack1', 'rack2', 'rack1', 'rack2'],
    });
    expect(steps[1]).toEqual({ kind: 'start', startIndex: 0, replicaShift: 0, random: false });
    const placed = steps.filter((s) => s.kind === 'leader' || s.kind === 'follower');
    expect(placed.length).toBe(8);
    expect(assignment).toEqual([
      [1, 3],
      [3, 2],
      [2, 4],
      [4, 1],
    ]);
    // RF 3 on two racks of two: the third replica can't find a new rack and takes the next broker.
    const rf3 = assignReplicasToBrokersWithSteps(brokers, 1, 3, { fixedStartIndex: 0 });
    expect(rf3.assignment).toEqual([[1, 3, 2]]);
  });
});

describe('assignReplicasToBrokers: seed 002', () => {
  // Seed 002 states the 0.8-era rule: partition i on broker (i mod n), its j-th replica on
  // broker ((i + j) mod n). Kafka's algorithm agrees for the first round of partitions (i < n)
  // with start index and shift 0; after that the replica shift grows, which the seed omits.
  it('the j-th replica of partition i < n lands on broker (i + j) mod n', () => {
    const n = 8;
    const brokers = ids(...Array.from({ length: n }, (_, i) => i));
    const a = assignReplicasToBrokers(brokers, n, 3, { fixedStartIndex: 0 });
    for (let i = 0; i < n; i++) for (let j = 0; j < 3; j++) expect(a[i]?.[j]).toBe((i + j) % n);
    const later = assignReplicasToBrokers(brokers, 1, 3, { fixedStartIndex: 0, startPartitionId: n });
    expect(later).toEqual([[0, 2, 3]]);
  });
});
