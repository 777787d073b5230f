import { describe, expect, it } from 'vitest';
import { isKafkaError } from '../errors';
import { Rng } from '../Rng';
import { BuiltInPartitioner } from './BuiltInPartitioner';
import { Partitioner, type TopicPartitionsView } from './Partitioner';

const enc = (s: string) => new TextEncoder().encode(s);
const all3: TopicPartitionsView = { numPartitions: 3, availablePartitions: [0, 1, 2] };

describe('Partitioner: keyed records (murmur2)', () => {
  // Vectors generated with Kafka's Utils.murmur2 by kafkajs:
  // tulios/kafkajs src/producer/partitioners/defaultJava/murmur2.spec.js
  const vectors: [string, number][] = [
    ['0', 971027396],
    ['1', -1993445489],
    ['128', -326012175],
    ['16384', -325739742],
    ['100:48069', 1009543857],
  ];

  it.each(vectors)('key %s hashes to %d and explains toPositive %% n', (key, hash) => {
    const p = new Partitioner('sticky', new Rng(1));
    const choice = p.partition('t', enc(key), undefined, {
      numPartitions: 7,
      availablePartitions: [0, 1, 2, 3, 4, 5, 6],
    });
    expect(choice.strategy).toBe('key-hash');
    if (choice.strategy !== 'key-hash') return;
    expect(choice.murmur2).toBe(hash);
    expect(choice.positive).toBe(hash & 0x7fffffff);
    expect(choice.partition).toBe((hash & 0x7fffffff) % 7);
    expect(choice.numPartitions).toBe(7);
  });

  it('key "1" (murmur2 -1993445489) goes to partition 154038159 % 3 = 0 under both sticky partitioners', () => {
    // -1993445489 & 0x7fffffff = 154038159; 154038159 % 3 = 0
    for (const s of ['sticky', 'sticky-2.4'] as const) {
      const c = new Partitioner(s, new Rng(9)).partition('t', enc('1'), undefined, all3);
      expect(c.partition).toBe(0);
    }
  });

  it('same key yields same partition (DefaultPartitionerTest.testKeyPartitionIsStable)', () => {
    // apache/kafka clients/src/test/java/org/apache/kafka/clients/producer/internals/DefaultPartitionerTest.java
    const p = new Partitioner('sticky-2.4', new Rng(3));
    const a = p.partition('test', enc('key'), undefined, all3).partition;
    for (let i = 0; i < 10; i++) expect(p.partition('test', enc('key'), undefined, all3).partition).toBe(a);
  });

  it('an explicit partition wins over the key, and one out of range is UNKNOWN_TOPIC_OR_PARTITION', () => {
    const p = new Partitioner('sticky', new Rng(3));
    expect(p.partition('t', enc('1'), 2, all3)).toEqual({
      strategy: 'explicit',
      topic: 't',
      partition: 2,
      numPartitions: 3,
    });
    expect(p.partition('t', null, 0, all3).partition).toBe(0);
    try {
      p.partition('t', null, 3, all3);
      expect.unreachable();
    } catch (e) {
      expect(isKafkaError(e, 'UNKNOWN_TOPIC_OR_PARTITION')).toBe(true);
    }
  });
});

describe('Partitioner: round-robin for null keys (classic, as the seeds describe)', () => {
  it('cycles 0,1,2,0,... with the counter in the explanation', () => {
    const p = new Partitioner('round-robin', new Rng(1));
    const picks = Array.from({ length: 6 }, () => p.partition('t', null, undefined, all3));
    expect(picks.map((c) => c.partition)).toEqual([0, 1, 2, 0, 1, 2]);
    expect(picks.map((c) => (c.strategy === 'round-robin' ? c.counter : -1))).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('never picks a leaderless partition, and splits evenly over the others', () => {
    // apache/kafka clients/src/test/java/org/apache/kafka/clients/producer/RoundRobinPartitionerTest.java
    // testRoundRobinWithUnavailablePartitions: partition 1 has no leader; 100 records split 50/50 over 0 and 2.
    const p = new Partitioner('round-robin', new Rng(1));
    const view = { numPartitions: 3, availablePartitions: [0, 2] };
    const counts = new Map<number, number>();
    for (let i = 0; i < 100; i++) {
      const part = p.partition('test', null, undefined, view).partition;
      counts.set(part, (counts.get(part) ?? 0) + 1);
    }
    expect(counts).toEqual(
      new Map([
        [0, 50],
        [2, 50],
      ]),
    );
  });

  it('ignores the key (RoundRobinPartitionerTest.testRoundRobinWithKeyBytes: 10/10/10 for one key)', () => {
    // RoundRobinPartitioner.partition never reads keyBytes: the same key goes round the partitions.
    const p = new Partitioner('round-robin', new Rng(1));
    const counts = [0, 0, 0];
    for (let i = 0; i < 30; i++) {
      const c = p.partition('topicA', enc('key'), undefined, all3);
      expect(c.strategy).toBe('round-robin');
      counts[c.partition] = (counts[c.partition] ?? 0) + 1;
      if (i % 5 === 0) p.partition('topicB', enc('key'), undefined, { numPartitions: 1, availablePartitions: [0] });
    }
    expect(counts).toEqual([10, 10, 10]);
  });

  it('keeps one counter per topic (testRoundRobinWithNullKeyBytes: 10/10/10 despite topicB interleaved)', () => {
    const p = new Partitioner('round-robin', new Rng(1));
    const counts = [0, 0, 0];
    for (let i = 0; i < 30; i++) {
      const part = p.partition('topicA', null, undefined, all3).partition;
      // onNewBatch must not move a round-robin partitioner
      expect(p.onNewBatch('topicA', all3, part)).toBeNull();
      counts[part] = (counts[part] ?? 0) + 1;
      if (i % 5 === 0) p.partition('topicB', null, undefined, { numPartitions: 1, availablePartitions: [0] });
    }
    expect(counts).toEqual([10, 10, 10]);
  });

  it('falls back to all partitions when none has a leader', () => {
    const p = new Partitioner('round-robin', new Rng(1));
    const view = { numPartitions: 2, availablePartitions: [] };
    expect([0, 1, 2].map(() => p.partition('t', null, undefined, view).partition)).toEqual([0, 1, 0]);
  });
});

describe('Partitioner: sticky for null keys (KIP-480, StickyPartitionCache)', () => {
  // apache/kafka clients/src/test/java/org/apache/kafka/clients/producer/internals/StickyPartitionCacheTest.java
  it('sticks until a new batch, then switches to a different partition (testStickyPartitionCache)', () => {
    const p = new Partitioner('sticky-2.4', new Rng(42));
    const a = p.partition('topicA', null, undefined, all3).partition;
    expect(p.partition('topicA', null, undefined, all3).partition).toBe(a);
    const one = { numPartitions: 1, availablePartitions: [0] };
    const b = p.partition('topicB', null, undefined, one).partition;
    expect(p.partition('topicB', null, undefined, one).partition).toBe(b);

    const changed = p.onNewBatch('topicA', all3, a);
    expect(changed?.partition).not.toBe(a);
    expect(changed?.strategy === 'sticky' && changed.switched).toBe(true);
    expect(p.partition('topicA', null, undefined, all3).partition).toBe(changed?.partition);
    // A stale trigger (prev != current sticky) changes nothing.
    expect(p.onNewBatch('topicA', all3, a)?.partition).toBe(changed?.partition);
    // Works with a single partition too.
    expect(p.onNewBatch('topicB', one, b)?.partition).toBe(0);
  });

  it('never chooses an unavailable partition (unavailablePartitionsTest)', () => {
    const p = new Partitioner('sticky-2.4', new Rng(7));
    const viewA = { numPartitions: 3, availablePartitions: [0, 2] };
    let partA = p.partition('topicA', null, undefined, viewA).partition;
    expect(partA).not.toBe(1);
    for (let i = 0; i < 100; i++) {
      partA = p.onNewBatch('topicA', viewA, partA)?.partition ?? -1;
      expect(p.partition('topicA', null, undefined, viewA).partition).not.toBe(1);
    }
    const viewB = { numPartitions: 2, availablePartitions: [1] };
    let partB = p.partition('topicB', null, undefined, viewB).partition;
    expect(partB).toBe(1);
    for (let i = 0; i < 100; i++) {
      partB = p.onNewBatch('topicB', viewB, partB)?.partition ?? -1;
      expect(partB).toBe(1);
    }
    const viewC = { numPartitions: 1, availablePartitions: [] };
    expect(p.partition('topicC', null, undefined, viewC).partition).toBe(0);
    expect(p.onNewBatch('topicC', viewC, 0)?.partition).toBe(0);
  });

  it('is deterministic for a seed', () => {
    const run = (seed: number) => {
      const p = new Partitioner('sticky-2.4', new Rng(seed));
      const out: number[] = [];
      let cur = p.partition('t', null, undefined, all3).partition;
      for (let i = 0; i < 20; i++) out.push((cur = p.onNewBatch('t', all3, cur)?.partition ?? -1));
      return out;
    };
    expect(run(5)).toEqual(run(5));
  });
});

describe("the seeds' producer rules (seeds/000: 如果没有 Key 值则进行轮询发送。如果有 Key 值，对 Key 值进行 Hash，然后对分区数量取余)", () => {
  it('no key: round-robin over the partitions; a key: hash modulo the partition count, same key same partition', () => {
    // The seeds describe Kafka's pre-2.4 DefaultPartitioner. In 3.9 the round-robin half is the
    // RoundRobinPartitioner (which ignores keys) and the hash half every other partitioner.
    const rr = new Partitioner('round-robin', new Rng(1));
    const view = { numPartitions: 4, availablePartitions: [0, 1, 2, 3] };
    expect(Array.from({ length: 8 }, () => rr.partition('orders', null, undefined, view).partition)).toEqual([
      0, 1, 2, 3, 0, 1, 2, 3,
    ]);
    const p = new Partitioner('sticky', new Rng(1));
    for (const key of ['user-1', 'user-2', 'order-42']) {
      const bytes = enc(key);
      const first = p.partition('orders', bytes, undefined, view);
      if (first.strategy !== 'key-hash') throw new Error('expected a key hash');
      expect(first.partition).toBe(first.positive % 4);
      for (let i = 0; i < 5; i++) expect(p.partition('orders', bytes, undefined, view).partition).toBe(first.partition);
    }
  });
});

// BuiltInPartitionerTest.adaptivePartitionsTest (3.9): with queue sizes {5, 0, 3, 0, 1} the draw's
// frequencies are max + 1 - size = {1, 6, 3, 6, 5}. SequentialPartitioner's randomPartition
// counts 0, 1, 2, ...: two cycles over the 21-wide table give each partition exactly twice its weight.
describe('BuiltInPartitioner: adaptive partitioning (KIP-794 updatePartitionLoadStats)', () => {
  it('adaptivePartitionsTest: switches land on partitions in inverse proportion to their queue lengths', () => {
    let counter = 0;
    const sequential = { nextInt: () => counter++ } as unknown as Rng;
    const builtIn = new BuiltInPartitioner(1, sequential);
    const view: TopicPartitionsView = { numPartitions: 5, availablePartitions: [0, 1, 2, 3, 4] };
    const queueSizes = [5, 0, 3, 0, 1];
    builtIn.updatePartitionLoadStats('a', queueSizes, [0, 1, 2, 3, 4], 5);
    const frequencies = [0, 0, 0, 0, 0];
    for (let i = 0; i < 21 * 2; i++) {
      const info = builtIn.peekCurrentPartitionInfo('a', view);
      frequencies[info.partition] = (frequencies[info.partition] as number) + 1;
      builtIn.updatePartitionInfo('a', 1, view, true);
    }
    expect(frequencies).toEqual(queueSizes.map((q) => (6 - q) * 2));
    // The caller's array is left as it was.
    expect(queueSizes).toEqual([5, 0, 3, 0, 1]);
  });

  it('equal queues, or fewer than two partitions, leave the draw uniform (updatePartitionLoadStats)', () => {
    let counter = 0;
    const sequential = { nextInt: () => counter++ } as unknown as Rng;
    const builtIn = new BuiltInPartitioner(1, sequential);
    const view: TopicPartitionsView = { numPartitions: 3, availablePartitions: [0, 1, 2] };
    builtIn.updatePartitionLoadStats('a', [2, 2, 2], [0, 1, 2], 3);
    const seen: number[] = [];
    for (let i = 0; i < 6; i++) {
      seen.push(builtIn.peekCurrentPartitionInfo('a', view).partition);
      builtIn.updatePartitionInfo('a', 1, view, true);
    }
    expect(seen).toEqual([0, 1, 2, 0, 1, 2]);
  });
});
