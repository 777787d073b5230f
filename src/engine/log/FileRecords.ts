import type { RecordBatchHeader } from '../codec';
import { readBatchHeader } from '../codec';

/**
 * The bytes of a segment's `.log` as the broker's page cache holds them (Kafka's FileRecords):
 * RecordBatch v2 batches laid end to end, nothing between them, nothing after the last.
 *
 * Backed by one preallocated growable array so appends are a single typed-array copy and reads are
 * views, never concatenations. `size` is the logical file length; bytes past it are garbage.
 */
export class FileRecords {
  private buf: Uint8Array;
  private length = 0;
  /** The file is never expected to grow past this (segment.bytes), so growth stops there. */
  private readonly capacityHint: number;

  constructor(initialCapacity = 4096, capacityHint = Number.MAX_SAFE_INTEGER) {
    this.buf = new Uint8Array(Math.max(64, Math.min(initialCapacity, capacityHint)));
    this.capacityHint = capacityHint;
  }

  /** Wraps existing file content (e.g. read back from the Store). Takes ownership of `bytes`. */
  static of(bytes: Uint8Array): FileRecords {
    const fr = new FileRecords(bytes.length);
    fr.buf.set(bytes);
    fr.length = bytes.length;
    return fr;
  }

  get sizeInBytes(): number {
    return this.length;
  }

  /** Appends src[start, end) and returns the position it was written at. */
  append(src: Uint8Array, start = 0, end = src.length): number {
    const position = this.length;
    const n = end - start;
    const need = position + n;
    if (need > this.buf.length) {
      // Grow 4x (fewer copies and fresh pages than doubling), but not past the expected maximum.
      let cap = this.buf.length * 4;
      while (cap < need) cap *= 4;
      // (If the hint was outgrown — segment.bytes raised by a config change — plain 4x growth.)
      if (need <= this.capacityHint) cap = Math.min(cap, this.capacityHint);
      const grown = new Uint8Array(cap);
      grown.set(this.buf.subarray(0, position));
      this.buf = grown;
    }
    this.buf.set(start === 0 && end === src.length ? src : src.subarray(start, end), position);
    this.length = need;
    return position;
  }

  /** Cuts the file to `size` bytes; returns how many bytes were removed. */
  truncateTo(size: number): number {
    if (size >= this.length) return 0;
    const removed = this.length - size;
    this.length = size;
    return removed;
  }

  /** A view of [start, end) — valid until the next append or truncate. */
  view(start = 0, end = this.length): Uint8Array {
    return this.buf.subarray(start, Math.min(end, this.length));
  }

  /** A copy of [start, end). */
  copy(start = 0, end = this.length): Uint8Array {
    return this.buf.slice(start, Math.min(end, this.length));
  }

  /** Reads the batch header at `position` (throws CorruptRecordError when truncated or bad). */
  header(position: number): RecordBatchHeader {
    return readBatchHeader(this.view(0, this.length), position);
  }

  /** The raw backing array; callers must stay below `sizeInBytes`. Used by hot paths to patch fields. */
  get backing(): Uint8Array {
    return this.buf;
  }
}
