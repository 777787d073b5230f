/**
 * The iteration order of Java's HashMap and HashSet, reproduced.
 *
 * Kafka's sticky assignors walk HashMaps (members in the constrained algorithm, the partitions
 * of a movement in the general one), so on ties their choices follow the JVM's bucket order. To
 * compute the same assignment a real group leader computes, glassbox walks in that order too.
 *
 * The rules (java.util.HashMap): the table starts at 16 buckets and doubles whenever the size
 * exceeds 3/4 of it; a key's bucket is `(h ^ (h >>> 16)) & (capacity - 1)` for its hashCode h;
 * iteration goes bucket by bucket, and within a bucket in insertion order (a resize splits each
 * bucket keeping that relative order). Not reproduced: bins of 8+ colliding keys that the JVM
 * turns into trees, which needs adversarial keys.
 */
import { javaStringHashCode } from '../javaStringHashCode';

const DEFAULT_CAPACITY = 16;

/** Java HashMap's table size after `size` puts into a `new HashMap<>()`. */
export function javaHashMapCapacity(size: number): number {
  let capacity = DEFAULT_CAPACITY;
  while (size > capacity * 0.75) capacity *= 2;
  return capacity;
}

/** HashMap.hash: the hashCode with its high half folded into the low half. */
function spread(h: number): number {
  return (h ^ (h >>> 16)) | 0;
}

export function javaBucket(hashCode: number, capacity: number): number {
  return spread(hashCode) & (capacity - 1);
}

/**
 * The order in which a `new HashMap<String, V>()` filled by put() in the order of `keys` (no
 * removals) iterates: returns indexes into `keys`.
 */
export function javaHashMapOrder(keys: readonly string[]): number[] {
  const capacity = javaHashMapCapacity(keys.length);
  const buckets = keys.map((k) => javaBucket(javaStringHashCode(k), capacity));
  const order = keys.map((_, i) => i);
  // Array.prototype.sort is stable, so equal buckets keep insertion order.
  order.sort((a, b) => (buckets[a] as number) - (buckets[b] as number));
  return order;
}

/** TopicPartition.hashCode: 31 * (31 + partition) + topic.hashCode(), in int arithmetic. */
export function topicPartitionHashCode(topicHash: number, partition: number): number {
  return (Math.imul(31, (31 + partition) | 0) + topicHash) | 0;
}

/**
 * A set of numbers that remembers what a java.util.HashSet holding the same elements, added and
 * removed in the same order, would return first from iterator().next(). The element's Java
 * hashCode is supplied by the caller.
 */
export class JavaHashSetOrder {
  private capacity = DEFAULT_CAPACITY;
  private seq = 0;
  /** element -> [hashCode, insertion sequence] */
  private readonly entries = new Map<number, [number, number]>();

  get size(): number {
    return this.entries.size;
  }

  has(element: number): boolean {
    return this.entries.has(element);
  }

  add(element: number, hashCode: number): void {
    if (this.entries.has(element)) return;
    this.entries.set(element, [hashCode, this.seq++]);
    // The table never shrinks: only growth matters.
    while (this.entries.size > this.capacity * 0.75) this.capacity *= 2;
  }

  delete(element: number): boolean {
    return this.entries.delete(element);
  }

  /** What iterator().next() returns: lowest bucket, then earliest inserted within it. */
  first(): number | undefined {
    let best: number | undefined;
    let bestBucket = Number.POSITIVE_INFINITY;
    let bestSeq = Number.POSITIVE_INFINITY;
    for (const [element, [hash, seq]] of this.entries) {
      const bucket = javaBucket(hash, this.capacity);
      if (bucket < bestBucket || (bucket === bestBucket && seq < bestSeq)) {
        best = element;
        bestBucket = bucket;
        bestSeq = seq;
      }
    }
    return best;
  }
}
