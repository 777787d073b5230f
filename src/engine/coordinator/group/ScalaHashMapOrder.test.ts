import { describe, expect, it } from 'vitest';
import { javaStringHashCode } from '../../clients/consumer/javaStringHashCode';
import { improveImmutableHash, ScalaHashMapOrder, scalaImmutableHashMapOrder } from './ScalaHashMapOrder';

/**
 * Scala 2.13 mutable.HashMap iteration order (Kafka 3.9's GroupMetadata.members). The expected
 * orders are worked out by hand from the map's rules (see ScalaHashMapOrder.ts); String.hashCode
 * of a one-letter string is its char code.
 */
function order(keys: string[], removed: string[] = []): string[] {
  const map = new ScalaHashMapOrder();
  for (const k of keys) map.put(k);
  for (const k of removed) map.remove(k);
  return map.keys();
}

describe('ScalaHashMapOrder (scala.collection.mutable.HashMap, Scala 2.13)', () => {
  it('walks buckets in index order, each bucket sorted by hash', () => {
    // 16 buckets: "a" = 97 -> bucket 1, "q" = 113 -> bucket 1 (after "a": 113 > 97), "b" = 98 -> bucket 2.
    expect(order(['q', 'b', 'a'])).toEqual(['a', 'q', 'b']);
  });

  it('keys with equal hashes keep insertion order', () => {
    // "Aa" and "BB" share hashCode 2112.
    expect(order(['BB', 'Aa'])).toEqual(['BB', 'Aa']);
    expect(order(['Aa', 'BB'])).toEqual(['Aa', 'BB']);
  });

  it("folds the hash's high half into the low half (improveHash)", () => {
    // "hello".hashCode = 0x05E918D2; improved: 0x05E91D3B -> bucket 0xB = 11, with "k" (107),
    // after it (larger hash). Without the fold it would sit in bucket 2, right after "b".
    expect(order(['hello', 'k', 'b', 'c'])).toEqual(['b', 'c', 'k', 'hello']);
  });

  it('doubles to 32 buckets before the 12th put (size + 1 >= 16 * 0.75) and never shrinks', () => {
    const eleven = ['q', 'a', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k'];
    // 16 buckets: "q" (113 & 15 = 1) shares bucket 1 with "a".
    expect(order(eleven)).toEqual(['a', 'q', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k']);
    // The 12th put grows the table: "q" moves to bucket 113 & 31 = 17, after "l" (108 -> 12).
    expect(order([...eleven, 'l'])).toEqual(['a', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l', 'q']);
    // Removing entries keeps the 32 buckets.
    expect(order([...eleven, 'l'], ['c', 'd', 'e'])).toEqual(['a', 'f', 'g', 'h', 'i', 'j', 'k', 'l', 'q']);
  });
});

/**
 * Scala 2.13 immutable.HashMap (CHAMP) iteration order, as `groupBy` builds it in
 * GroupMetadata.selectProtocol. Worked out by hand: improve(hashCode) = h + ~(h << 9), ^ >>> 14,
 * + << 4, ^ >>> 10; the root takes its low 5 bits: "roundrobin" 7, "range" 20, "sticky" 20,
 * "c" 25; at the next level "range" 10, "sticky" 26.
 */
describe('scalaImmutableHashMapOrder (scala.collection.immutable.HashMap, Scala 2.13)', () => {
  it('a node lists its own keys by slot, then its sub-nodes by slot', () => {
    expect(improveImmutableHash(javaStringHashCode('roundrobin')) & 31).toBe(7);
    expect(improveImmutableHash(javaStringHashCode('range')) & 31).toBe(20);
    expect(scalaImmutableHashMapOrder(['range', 'roundrobin'])).toEqual(['roundrobin', 'range']);
    // "range" and "sticky" share slot 20: they go down a level, after "c" in slot 25.
    expect(scalaImmutableHashMapOrder(['sticky', 'c', 'range', 'roundrobin'])).toEqual([
      'roundrobin',
      'c',
      'range',
      'sticky',
    ]);
  });

  it('keys with equal hashes keep the order they were given', () => {
    expect(scalaImmutableHashMapOrder(['BB', 'Aa'])).toEqual(['BB', 'Aa']);
  });
});
