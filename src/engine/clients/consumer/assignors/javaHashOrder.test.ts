import { describe, expect, it } from 'vitest';
import { javaStringHashCode } from '../javaStringHashCode';
import { JavaHashSetOrder, javaHashMapCapacity, javaHashMapOrder, topicPartitionHashCode } from './javaHashOrder';

// Expected orders were printed by a JVM (OpenJDK 17): a HashMap<String, _> filled with put() in
// the listed order, then keySet() iterated; and a HashSet of a class hashing like Kafka's
// TopicPartition (apache/kafka clients/src/main/java/org/apache/kafka/common/TopicPartition.java hashCode).
describe('javaHashMapOrder', () => {
  it('iterates like java.util.HashMap', () => {
    const cases: [string[], string[]][] = [
      [
        ['consumer1', 'consumer2', 'consumer3', 'consumer4'],
        ['consumer4', 'consumer3', 'consumer2', 'consumer1'],
      ],
      [
        ['c0', 'c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7', 'c8', 'c9', 'c10', 'c11', 'c12', 'c13'],
        ['c11', 'c10', 'c13', 'c12', 'c0', 'c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7', 'c8', 'c9'],
      ],
      [
        ['consumer-b', 'consumer-a', 'member-7', 'zeta', 'alpha', 'Aa', 'BB'],
        ['zeta', 'Aa', 'BB', 'alpha', 'consumer-b', 'consumer-a', 'member-7'],
      ],
    ];
    for (const [keys, expected] of cases) expect(javaHashMapOrder(keys).map((i) => keys[i])).toEqual(expected);
  });

  it('grows the table past 3/4 load', () => {
    expect(javaHashMapCapacity(12)).toBe(16);
    expect(javaHashMapCapacity(13)).toBe(32);
    expect(javaHashMapCapacity(2000)).toBe(4096);
  });
});

describe('JavaHashSetOrder', () => {
  it('returns what HashSet.iterator().next() returns through adds, a resize and removals', () => {
    const topicHash = javaStringHashCode('topic');
    // TopicPartition("topic", p).hashCode() as the JVM computes it.
    expect(topicPartitionHashCode(topicHash, 0)).toBe(110547184);
    expect(topicPartitionHashCode(javaStringHashCode('topic1'), 0)).toBe(-868033373);
    const set = new JavaHashSetOrder();
    const firsts: number[] = [];
    for (const p of [5, 3, 17, 16, 1, 0, 2, 33, 48, 64, 80, 96, 112, 128]) {
      set.add(p, topicPartitionHashCode(topicHash, p));
      firsts.push(set.first() as number);
    }
    for (const p of [0, 16, 1, 2, 3]) {
      set.delete(p);
      firsts.push(set.first() as number);
    }
    expect(firsts).toEqual([5, 3, 17, 16, 16, 16, 16, 16, 16, 16, 16, 16, 0, 0, 64, 64, 64, 64, 64]);
  });
});
