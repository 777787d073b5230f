/**
 * How IdbStore lays a file out as chunks, as pure functions over chunk lists (no IndexedDB here).
 *
 *     key   `<path>#<start>+<length>`   e.g. `orders-0/00000000000000000000.log#0000000000065536+4096`
 *     value Uint8Array of exactly <length> bytes: the file's bytes [start, start + length)
 *
 * `start` is zero-padded to 16 digits, so keys sort by path, then by position. A file's chunks
 * tile it from byte 0 with no gap and no overlap; an empty file is the single chunk
 * `<path>#0000000000000000+0`. Because a key states where its chunk sits and how long it is, the
 * whole layout is known from the keys alone, without reading a value.
 */

/** One chunk of a file: bytes [start, start + length) stored under `key`. */
export interface Chunk {
  readonly key: string;
  readonly start: number;
  readonly length: number;
}

/** A chunk with the bytes to store under it. */
export type ChunkWrite = readonly [Chunk, Uint8Array];

/** Once more small chunks than this trail a file, they are merged whatever their sizes. */
export const MAX_SMALL_CHUNKS = 16;

const KEY_PATTERN = /^(.+)#(\d{16})\+(\d+)$/;

export function chunkKey(path: string, start: number, length: number): string {
  return `${path}#${String(start).padStart(16, '0')}+${length}`;
}

/**
 * A chunk that spells its key when asked. The store keeps every chunk of every file in memory, and
 * a key string held per chunk (path, '#', 16 digits, '+', length: about 180 bytes as V8 builds it)
 * cost more than the rest of a small segment's bookkeeping, over hundreds of thousands of chunks.
 */
class PathChunk implements Chunk {
  constructor(
    private readonly path: string,
    readonly start: number,
    readonly length: number,
  ) {}

  get key(): string {
    return chunkKey(this.path, this.start, this.length);
  }
}

export function chunkAt(path: string, start: number, length: number): Chunk {
  return new PathChunk(path, start, length);
}

/** The file and chunk a key names, or null for a key that is not a chunk (e.g. the open probe). */
export function parseChunkKey(key: unknown): { path: string; chunk: Chunk } | null {
  if (typeof key !== 'string') return null;
  const m = KEY_PATTERN.exec(key);
  if (!m) return null;
  const path = m[1]!;
  return { path, chunk: chunkAt(path, Number(m[2]), Number(m[3])) };
}

/**
 * A file's chunk list as the store keeps it in memory, for every file at once: just the chunk
 * lengths (the chunks tile the file from byte 0, so each start is the sum of the lengths before
 * it, and the key follows from path, start and length). A file of one chunk, like most closed
 * segment files, is a bare number: no allocation at all. A long run has hundreds of thousands of
 * files, and a Chunk object per chunk cost more memory than the engine's whole segment.
 */
export type PackedLayout = number | readonly number[];

/** Packs a tiling chunk list (from byte 0, no gap) into its lengths. */
export function packLayout(chunks: readonly Chunk[]): PackedLayout {
  let end = 0;
  for (const chunk of chunks) {
    if (chunk.start !== end) throw new RangeError(`chunk at ${chunk.start} does not follow ${end}: not a tiling`);
    end += chunk.length;
  }
  // map sizes the array exactly: a pushed one reserves 17 slots, and it is kept for every file.
  return chunks.length === 1 ? chunks[0]!.length : chunks.map((c) => c.length);
}

/** The chunks a packed layout stands for, in order. */
export function unpackLayout(path: string, layout: PackedLayout): Chunk[] {
  if (typeof layout === 'number') return [chunkAt(path, 0, layout)];
  const chunks: Chunk[] = [];
  let start = 0;
  for (const length of layout) {
    chunks.push(chunkAt(path, start, length));
    start += length;
  }
  return chunks;
}

/** Where the file ends: one past its last byte. */
export function fileEnd(chunks: readonly Chunk[]): number {
  const last = chunks[chunks.length - 1];
  return last ? last.start + last.length : 0;
}

/** True for the single zero-length chunk that marks an empty file. */
export function isEmptyFile(chunks: readonly Chunk[]): boolean {
  return chunks.length === 1 && chunks[0]!.length === 0;
}

/**
 * Rebuilds a file's chunk list from its keys (in any order): the longest run that tiles from
 * byte 0. Everything after a gap or an overlap is an orphan, as is an empty-file marker beside
 * real chunks. If nothing tiles, the file still existed, so it comes back empty (`emptied`).
 */
export function tileChunks(
  path: string,
  found: readonly Chunk[],
): { tiled: Chunk[]; orphans: Chunk[]; emptied: Chunk | null } {
  const sorted = [...found].sort((a, b) => a.start - b.start || a.length - b.length);
  const tiled: Chunk[] = [];
  const orphans: Chunk[] = [];
  let end = 0;
  let broken = false;
  for (const chunk of sorted) {
    broken ||= chunk.start !== end;
    if (broken || (chunk.length === 0 && sorted.length > 1)) orphans.push(chunk);
    else {
      tiled.push(chunk);
      end += chunk.length;
    }
  }
  if (tiled.length > 0) return { tiled, orphans, emptied: null };
  const emptied = chunkAt(path, 0, 0);
  return { tiled: [emptied], orphans, emptied };
}

/**
 * The trailing chunks (oldest first) that an append of `length` bytes absorbs into one new
 * chunk. The rule is a binary counter over the file's small tail: the gathered bytes take in the
 * chunk before them while that chunk is no larger than what has been gathered (or while more
 * than MAX_SMALL_CHUNKS small chunks would trail), and never a sealed chunk (`chunkBytes` or
 * more). Invariants: every chunk but the small tail is sealed; the small tail strictly shrinks
 * from chunk to chunk and is at most MAX_SMALL_CHUNKS long; for steady appends each byte is
 * rewritten about log2(chunkBytes / append size) times; and an append writes at most its own
 * bytes plus the small tail (under MAX_SMALL_CHUNKS x chunkBytes), never O(file).
 */
export function chunksToAbsorb(chunks: readonly Chunk[], length: number, chunkBytes: number): Chunk[] {
  let small = 0;
  while (small < chunks.length && chunks[chunks.length - 1 - small]!.length < chunkBytes) small++;
  let gathered = length;
  let taken = 0;
  while (taken < small) {
    const prev = chunks[chunks.length - 1 - taken]!;
    const tooMany = small - taken + 1 > MAX_SMALL_CHUNKS;
    if (prev.length > gathered && !tooMany) break;
    gathered += prev.length;
    taken++;
  }
  return chunks.slice(chunks.length - taken);
}

/** True if a stored value is exactly the bytes its chunk's key promises. */
export function isIntact(chunk: Chunk, value: unknown): value is Uint8Array {
  return value instanceof Uint8Array && value.length === chunk.length;
}

// The parts joined into one new array: the engine codec's one helper.
export { concatBytes } from '../engine/codec/bytes';
