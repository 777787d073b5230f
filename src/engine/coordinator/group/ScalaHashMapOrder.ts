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

/** Scala 2.13 immutable.HashMap's hash spreader (scala.collection.Hashing.improve). */
export function improveImmutableHash(hcode: number): number {
  let h = (hcode + ~(hcode << 9)) | 0;
  h ^= h >>> 14;
  h = (h + (h << 4)) | 0;
  return (h ^ (h >>> 10)) | 0;
}

/**
 * The iteration order of a Scala 2.13 `immutable.HashMap[String, _]` (a CHAMP trie) holding
 * `keys`, as `groupBy` builds one. Its shape depends only on the keys: each node takes 5 bits of
 * the improved hash, lowest first; a key alone in its slot is payload of that node, keys sharing a
 * slot go down into a sub-node. Iteration is depth first: a node's payload in slot order, then its
 * sub-nodes in slot order. Keys with equal hashes (a collision node) keep their order in `keys`.
 */
export function scalaImmutableHashMapOrder(keys: readonly string[]): string[] {
  const hashed = keys.map((key, seq) => ({ key, seq, hash: improveImmutableHash(javaStringHashCode(key)) }));
  const out: string[] = [];
  const walk = (group: typeof hashed, shift: number): void => {
    if (shift >= 32) {
      for (const e of [...group].sort((a, b) => a.seq - b.seq)) out.push(e.key);
      return;
    }
    const slots = new Map<number, typeof hashed>();
    for (const e of group) {
      const slot = (e.hash >>> shift) & 31;
      const list = slots.get(slot);
      if (list) list.push(e);
      else slots.set(slot, [e]);
    }
    const ordered = [...slots].sort(([a], [b]) => a - b);
    for (const [, list] of ordered) if (list.length === 1) out.push((list[0] as (typeof hashed)[number]).key);
    for (const [, list] of ordered) if (list.length > 1) walk(list, shift + 5);
  };
  walk(hashed, 0);
  return out;
}
