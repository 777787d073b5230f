import type { RecordBatchHeader } from '../codec';
import { readBatchHeader } from '../codec';

/**
 * The bytes of a segment's `.log` as the broker's page cache holds them (Kafka's FileRecords):
 * RecordBatch v2 batches laid end to end, nothing between them, nothing after the last.
 *
 * Backed by one preallocated growable array so appends are a single typed-array copy and reads are
 * views, never concatenations. `size` is the logical file length; bytes past it are garbage.
 *
 * Bytes once in the file never change: a view handed out (a fetch response on its way to a
 * follower or a consumer) stays valid and equal for as long as anyone holds it. Growing moves to a
 * new array and leaves the old one as it was; a truncation followed by an append writes to a new
 * array rather than over the bytes it gave back. That is what lets a follower keep the leader's
 * bytes it fetched (`adopt`) instead of copying them: the simulated page caches of two brokers
 * may share memory, never content that changes.
 */
export class FileRecords {
  private buf: Uint8Array;
  /** Bytes [0, length) of `buf` are the start of the file. */
  private length = 0;
  /** Adopted immutable pieces that follow `buf`'s bytes, in file order; copied in only when read. */
  private tail: Uint8Array[] = [];
  private tailBytes = 0;
  /** A truncation gave back bytes that views may still show: the next write goes to a new array. */
  private mustNotOverwrite = false;
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
    return this.length + this.tailBytes;
  }

  /** Appends a copy of src[start, end) and returns the position it was written at. */
  append(src: Uint8Array, start = 0, end = src.length): number {
    if (this.tailBytes > 0) this.absorbTail();
    const position = this.length;
    this.reserve(position + (end - start));
    this.buf.set(start === 0 && end === src.length ? src : src.subarray(start, end), position);
    this.length = position + (end - start);
    return position;
  }

  /**
   * Appends bytes that will never change (a leader's fetch response: a view of its own file) by
   * keeping them, not copying them; returns the position they start at. Pieces that continue each
   * other in the same underlying array join into one. They are copied into the file's own array
   * only if something reads across them.
   */
  adopt(bytes: Uint8Array): number {
    const position = this.sizeInBytes;
    if (bytes.length === 0) return position;
    const tail = this.tail;
    const last = tail[tail.length - 1];
    if (last && last.buffer === bytes.buffer && last.byteOffset + last.length === bytes.byteOffset) {
      tail[tail.length - 1] = new Uint8Array(last.buffer, last.byteOffset, last.length + bytes.length);
    } else {
      tail.push(bytes);
    }
    this.tailBytes += bytes.length;
    return position;
  }

  /** Cuts the file to `size` bytes; returns how many bytes were removed. */
  truncateTo(size: number): number {
    const total = this.sizeInBytes;
    if (size >= total) return 0;
    if (size >= this.length) {
      // Only adopted pieces go: shorten the list (views of them stay as they were).
      let keep = size - this.length;
      const kept: Uint8Array[] = [];
      for (const piece of this.tail) {
        if (keep === 0) break;
        kept.push(piece.length <= keep ? piece : piece.subarray(0, keep));
        keep -= Math.min(keep, piece.length);
      }
      this.tail = kept;
      this.tailBytes = size - this.length;
    } else {
      this.tail = [];
      this.tailBytes = 0;
      this.length = size;
      this.mustNotOverwrite = true;
    }
    return total - size;
  }

  /** A view of [start, end). Its bytes never change, whatever happens to the file later. */
  view(start = 0, end = this.sizeInBytes): Uint8Array {
    const stop = Math.min(end, this.sizeInBytes);
    if (this.tailBytes > 0) {
      // Inside one adopted piece (a follower's file is often one piece): no copy needed.
      let at = this.length;
      if (start >= at) {
        for (const piece of this.tail) {
          if (start < at + piece.length) {
            if (stop <= at + piece.length) return piece.subarray(start - at, stop - at);
            break;
          }
          at += piece.length;
        }
      }
      this.absorbTail();
    }
    return this.buf.subarray(start, stop);
  }

  /** A copy of [start, end). */
  copy(start = 0, end = this.sizeInBytes): Uint8Array {
    return this.view(start, end).slice();
  }

  /** Reads the batch header at `position` (throws CorruptRecordError when truncated or bad). */
  header(position: number): RecordBatchHeader {
    return readBatchHeader(this.view(0, this.sizeInBytes), position);
  }

  /**
   * The raw backing array, holding the whole file; callers must stay below `sizeInBytes`. Used by
   * the append path to patch fields of the bytes it has just copied in, before anyone can see them.
   */
  get backing(): Uint8Array {
    if (this.tailBytes > 0) this.absorbTail();
    return this.buf;
  }

  /** Makes room for `need` bytes in `buf`, moving to a new array when it is too small or must not be overwritten. */
  private reserve(need: number): void {
    if (need <= this.buf.length && !this.mustNotOverwrite) return;
    let cap = this.buf.length;
    if (need > cap) {
      // Grow 4x (fewer copies and fresh pages than doubling), but not past the expected maximum.
      cap *= 4;
      while (cap < need) cap *= 4;
      // (If the hint was outgrown — segment.bytes raised by a config change — plain 4x growth.)
      if (need <= this.capacityHint) cap = Math.min(cap, this.capacityHint);
    }
    const moved = new Uint8Array(cap);
    moved.set(this.buf.subarray(0, this.length));
    this.buf = moved;
    this.mustNotOverwrite = false;
  }

  /** Copies the adopted pieces into `buf` (a read across them wants one contiguous array). */
  private absorbTail(): void {
    this.reserve(this.length + this.tailBytes);
    let at = this.length;
    for (const piece of this.tail) {
      this.buf.set(piece, at);
      at += piece.length;
    }
    this.length = at;
    this.tail = [];
    this.tailBytes = 0;
  }
}
