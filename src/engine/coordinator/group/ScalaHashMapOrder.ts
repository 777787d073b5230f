import { javaStringHashCode } from '../../clients/consumer/javaStringHashCode';

/**
 * The iteration order of a Scala 2.13 `mutable.HashMap[String, _]` (Kafka 3.9 builds with Scala
 * 2.13.14), for the keys it currently holds.
 *
 * Kafka's ZooKeeper-mode coordinator keeps a group's members in such a map (GroupMetadata.members)
 * and takes "the first member" from it, e.g. to pick a new leader. The rules of that map
 * (scala.collection.mutable.HashMap in 2.13):
 *   - a key's hash is `improveHash(h) = h ^ (h >>> 16)` of its hashCode (String.hashCode here);
 *     its bucket is `hash & (tableLength - 1)`;
 *   - the table starts at 16 buckets and doubles *before* an insert when
 *     `size + 1 >= tableLength * 0.75` (truncated); removals never shrink it;
 *   - each bucket's chain is sorted by hash ascending (as a signed Int); equal hashes keep
 *     insertion order; growing splits chains without reordering them;
 *   - iteration walks the buckets in index order, each chain front to back.
 * So the order is a sort by (bucket, hash, insertion); only the table length has history.
 */
export class ScalaHashMapOrder {
  private tableLength = 16;
  private nextSeq = 0;
  private readonly entries = new Map<string, { hash: number; seq: number }>();

  put(key: string): void {
    // put0 grows before it looks the key up, so even a put of a present key may grow the table.
    if (this.entries.size + 1 >= Math.trunc(this.tableLength * 0.75)) this.tableLength *= 2;
    if (this.entries.has(key)) return;
    this.entries.set(key, { hash: improveHash(javaStringHashCode(key)), seq: this.nextSeq++ });
  }

  remove(key: string): void {
    this.entries.delete(key);
  }

  /** The keys in the order the Scala map would iterate them. */
  keys(): string[] {
    const mask = this.tableLength - 1;
    return [...this.entries]
      .sort(([, a], [, b]) => (a.hash & mask) - (b.hash & mask) || a.hash - b.hash || a.seq - b.seq)
      .map(([key]) => key);
  }

  get capacity(): number {
    return this.tableLength;
  }
}

/** Scala 2.13 HashMap.improveHash: the high half of the hashCode folded into the low half. */
export function improveHash(h: number): number {
  return (h ^ (h >>> 16)) | 0;
}
