import { describe, expect, it } from 'vitest';
import {
  type Chunk,
  chunkAt,
  chunkKey,
  chunksToAbsorb,
  MAX_SMALL_CHUNKS,
  packLayout,
  parseChunkKey,
  tileChunks,
  unpackLayout,
} from './chunkLayout';

const path = 'orders-0/00000000000000000000.log';

/** The chunk lengths a file ends up with after appends of these sizes, applying chunksToAbsorb. */
function lengthsAfter(appends: readonly number[], chunkBytes: number): number[] {
  let chunks: Chunk[] = [];
  for (const length of appends) {
    const absorbed = chunksToAbsorb(chunks, length, chunkBytes);
    const kept = chunks.slice(0, chunks.length - absorbed.length);
    const start =
      absorbed[0]?.start ?? (chunks.length ? chunks[chunks.length - 1]!.start + chunks[chunks.length - 1]!.length : 0);
    const merged = absorbed.reduce((n, c) => n + c.length, length);
    chunks = [...kept, chunkAt(path, start, merged)];
  }
  return chunks.map((c) => c.length);
}

describe('chunk keys', () => {
  it('name the path, the 16-digit start and the length, and parse back', () => {
    expect(chunkKey(path, 65536, 4096)).toBe('orders-0/00000000000000000000.log#0000000000065536+4096');
    const parsed = parseChunkKey('orders-0/00000000000000000000.log#0000000000065536+4096');
    expect(parsed?.path).toBe(path);
    const chunk = parsed?.chunk;
    expect({ key: chunk?.key, start: chunk?.start, length: chunk?.length }).toEqual({
      key: 'orders-0/00000000000000000000.log#0000000000065536+4096',
      start: 65536,
      length: 4096,
    });
    for (const notAChunk of ['#probe', 'a.log', 'a.log#12+3', 42]) expect(parseChunkKey(notAChunk)).toBeNull();
  });

  it('sort by path and then by position, as IndexedDB orders string keys', () => {
    const keys = [
      chunkKey('a.log', 100, 1),
      chunkKey('a.log', 20, 80),
      chunkKey('a.log.x', 0, 1),
      chunkKey('a.log', 0, 20),
    ];
    expect([...keys].sort()).toEqual([
      chunkKey('a.log', 0, 20),
      chunkKey('a.log', 20, 80),
      chunkKey('a.log', 100, 1),
      chunkKey('a.log.x', 0, 1),
    ]);
  });
});

describe('tileChunks', () => {
  it('keeps chunks that tile from 0, whatever order the keys came in', () => {
    const found = [chunkAt(path, 10, 5), chunkAt(path, 0, 10), chunkAt(path, 15, 1)];
    expect(tileChunks(path, found)).toEqual({ tiled: [found[1], found[0], found[2]], orphans: [], emptied: null });
  });

  it('cuts at the first gap or overlap: everything after it is an orphan', () => {
    const gap = tileChunks(path, [chunkAt(path, 0, 10), chunkAt(path, 12, 5), chunkAt(path, 17, 3)]);
    expect(gap.tiled.map((c) => c.start)).toEqual([0]);
    expect(gap.orphans.map((c) => c.start)).toEqual([12, 17]);
    const overlap = tileChunks(path, [chunkAt(path, 0, 10), chunkAt(path, 5, 10), chunkAt(path, 10, 5)]);
    expect(overlap.tiled.map((c) => c.key)).toEqual([chunkKey(path, 0, 10)]);
    expect(overlap.orphans).toHaveLength(2);
  });

  it('drops an empty-file marker beside real chunks, and keeps a file with nothing intact as empty', () => {
    const stray = tileChunks(path, [chunkAt(path, 0, 0), chunkAt(path, 0, 4)]);
    expect(stray.tiled).toEqual([chunkAt(path, 0, 4)]);
    expect(stray.orphans).toEqual([chunkAt(path, 0, 0)]);
    const lost = tileChunks(path, [chunkAt(path, 8, 4)]);
    expect(lost).toEqual({
      tiled: [chunkAt(path, 0, 0)],
      orphans: [chunkAt(path, 8, 4)],
      emptied: chunkAt(path, 0, 0),
    });
    expect(tileChunks(path, [chunkAt(path, 0, 0)])).toEqual({
      tiled: [chunkAt(path, 0, 0)],
      orphans: [],
      emptied: null,
    });
  });
});

describe('chunksToAbsorb', () => {
  it('merges equal appends like a binary counter until a chunk is sealed at chunkBytes', () => {
    expect(lengthsAfter([4], 64)).toEqual([4]);
    expect(lengthsAfter([4, 4], 64)).toEqual([8]);
    expect(lengthsAfter([4, 4, 4], 64)).toEqual([8, 4]);
    expect(lengthsAfter([4, 4, 4, 4], 64)).toEqual([16]);
    expect(lengthsAfter(Array(7).fill(4), 64)).toEqual([16, 8, 4]);
    expect(lengthsAfter(Array(16).fill(4), 64)).toEqual([64]);
    expect(lengthsAfter(Array(23).fill(4), 64)).toEqual([64, 16, 8, 4]); // sealed 64 never moves
  });

  it('never absorbs a sealed chunk; a large append absorbs the small tail and is sealed', () => {
    expect(lengthsAfter([100, 1], 64)).toEqual([100, 1]);
    expect(lengthsAfter([1, 100], 64)).toEqual([101]);
    expect(lengthsAfter([30, 20, 10, 100, 3], 64)).toEqual([160, 3]);
    expect(lengthsAfter([64, 64, 1], 64)).toEqual([64, 64, 1]);
  });

  it('caps the run of small chunks even when every append is smaller than the one before', () => {
    const shrinking = Array.from({ length: 200 }, (_, i) => 1000 - i);
    const lengths = lengthsAfter(shrinking, 1 << 20);
    expect(lengths.length).toBeLessThanOrEqual(MAX_SMALL_CHUNKS);
    expect(lengths.reduce((a, b) => a + b, 0)).toBe(shrinking.reduce((a, b) => a + b, 0));
  });

  it('for irregular append sizes, every chunk but a short, shrinking tail is sealed', () => {
    let seed = 1;
    const sizes = Array.from({ length: 5000 }, () => 1 + ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) % 300));
    const lengths = lengthsAfter(sizes, 4096);
    const firstSmall = lengths.findIndex((n) => n < 4096);
    const tail = lengths.slice(firstSmall);
    expect(tail.every((n) => n < 4096)).toBe(true);
    expect(tail.length).toBeLessThanOrEqual(MAX_SMALL_CHUNKS);
    for (let i = 1; i < tail.length; i++) expect(tail[i]!).toBeLessThan(tail[i - 1]!);
    expect(lengths.length).toBeLessThanOrEqual(Math.ceil(sizes.reduce((a, b) => a + b, 0) / 4096) + MAX_SMALL_CHUNKS);
  });
});

describe('packed layouts (what the store holds in memory per file)', () => {
  it('keep only the lengths and give back the same chunks, keys included', () => {
    const chunks = [chunkAt(path, 0, 65536), chunkAt(path, 65536, 8192), chunkAt(path, 73728, 4096)];
    const packed = packLayout(chunks);
    expect(packed).toEqual([65536, 8192, 4096]);
    const back = unpackLayout(path, packed);
    expect(back.map((c) => [c.key, c.start, c.length])).toEqual(chunks.map((c) => [c.key, c.start, c.length]));
  });

  it('pack a one-chunk file (and the empty-file marker) as a bare number', () => {
    expect(packLayout([chunkAt(path, 0, 16384)])).toBe(16384);
    expect(packLayout([chunkAt(path, 0, 0)])).toBe(0);
    expect(unpackLayout(path, 0).map((c) => c.key)).toEqual([`${path}#0000000000000000+0`]);
  });

  it('refuse a list that does not tile the file from byte 0', () => {
    expect(() => packLayout([chunkAt(path, 0, 10), chunkAt(path, 20, 10)])).toThrow(RangeError);
  });
});
