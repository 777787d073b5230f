import { KafkaError } from '../errors';
import type { Comparison, IndexFileKind, LookupStep, OffsetIndexEntryInfo, TimeIndexEntryInfo } from './LookupTrace';
import { compare } from './LookupTrace';

/**
 * What OffsetIndex and TimeIndex share (Kafka's AbstractIndex): a file of fixed-size big-endian
 * entries sorted by key, a maximum size from `segment.index.bytes` (rounded down to a whole
 * number of entries), and a binary search for the largest entry whose key is <= a target.
 *
 * Kafka memory-maps the file and preallocates it to the maximum size while the segment is active,
 * trimming it to `entries * entrySize` on roll or close. Here the entries live in a growable
 * byte array that is always exactly `entries * entrySize` long when written out, so what the Store
 * holds is always the trimmed form a closed Kafka segment has on disk.
 *
 * Invariant: keys strictly increase from slot to slot (offsets) or never decrease (timestamps).
 */
export abstract class AbstractIndex {
  readonly baseOffset: number;
  readonly maxIndexSize: number;
  readonly entrySize: number;
  readonly maxEntries: number;
  protected buf: Uint8Array;
  protected view: DataView;
  protected count = 0;

  constructor(baseOffset: number, maxIndexSize: number, entrySize: number) {
    this.baseOffset = baseOffset;
    this.entrySize = entrySize;
    this.maxEntries = Math.floor(maxIndexSize / entrySize);
    this.maxIndexSize = this.maxEntries * entrySize;
    this.buf = new Uint8Array(Math.min(this.maxEntries, 16) * entrySize);
    this.view = new DataView(this.buf.buffer);
  }

  abstract readonly file: IndexFileKind;

  /** The key an entry is sorted by: the absolute offset (OffsetIndex) or the timestamp (TimeIndex). */
  protected abstract keyAt(slot: number): number;

  /** The key of `slot` in words for a trace, e.g. "offset 170418 (relative 8)". */
  protected abstract describeKey(slot: number): string;

  /** The entry at `slot`, spelled out for traces and tests. */
  abstract entryInfo(slot: number): OffsetIndexEntryInfo | TimeIndexEntryInfo;

  get entries(): number {
    return this.count;
  }

  get sizeInBytes(): number {
    return this.count * this.entrySize;
  }

  isFull(): boolean {
    return this.count >= this.maxEntries;
  }

  /** Kafka reads the last 8192 bytes of an index first: that part is kept hot in the page cache. */
  protected get warmEntries(): number {
    return Math.floor(8192 / this.entrySize);
  }

  /**
   * Takes a stored index file's entries as they are (a trailing partial entry is ignored): the
   * file's bytes are the entries' bytes.
   */
  protected loadEntries(bytes: Uint8Array): this {
    const n = Math.floor(bytes.length / this.entrySize);
    const size = n * this.entrySize;
    if (size > this.buf.length) {
      this.buf = new Uint8Array(Math.min(size, this.maxIndexSize));
      this.view = new DataView(this.buf.buffer);
    }
    this.buf.set(bytes.subarray(0, size));
    this.count = n;
    return this;
  }

  /**
   * Makes room for one more entry, doubling the backing array (never past the maximum size).
   * Checks against maxEntries, not isFull, so TimeIndex's reserved last slot can be written.
   */
  protected reserveOne(): void {
    if (this.count >= this.maxEntries) {
      throw new KafkaError('KAFKA_STORAGE_ERROR', `attempt to append to a full ${this.file} (size = ${this.count})`, {
        baseOffset: this.baseOffset,
        entries: this.count,
      });
    }
    const need = (this.count + 1) * this.entrySize;
    if (need <= this.buf.length) return;
    const grown = new Uint8Array(Math.min(Math.max(need, this.buf.length * 2), this.maxIndexSize));
    grown.set(this.buf.subarray(0, this.count * this.entrySize));
    this.buf = grown;
    this.view = new DataView(grown.buffer);
  }

  /**
   * Kafka's `largestLowerBoundSlotFor`: the slot of the largest entry whose key is <= target, or -1
   * when every entry is larger (or the index is empty). Checks the warm tail first, then binary
   * searches, exactly as AbstractIndex.indexSlotRangeFor does. Pushes each step to `trace` if given.
   */
  largestLowerBoundSlotFor(target: number, trace?: LookupStep[]): number {
    const n = this.count;
    if (n === 0) {
      trace?.push({
        kind: 'index-warm-check',
        file: this.file,
        entries: 0,
        firstWarmSlot: 0,
        entry: null,
        target,
        comparison: null,
        searchFrom: 0,
        searchTo: -1,
        explanation: `${this.file} has no entries yet (less than index.interval.bytes was appended), so there is nothing to search.`,
      });
      return -1;
    }
    const firstHot = Math.max(0, n - 1 - this.warmEntries);
    const hotKey = this.keyAt(firstHot);
    if (hotKey < target) {
      trace?.push(this.warmStep(n, firstHot, target, 'less', firstHot, n - 1));
      return this.binarySearch(target, firstHot, n - 1, trace);
    }
    const firstKey = firstHot === 0 ? hotKey : this.keyAt(0);
    if (firstKey > target) {
      trace?.push(this.warmStep(n, firstHot, target, compare(hotKey, target), 0, -1));
      return -1;
    }
    trace?.push(this.warmStep(n, firstHot, target, compare(hotKey, target), 0, firstHot));
    return this.binarySearch(target, 0, firstHot, trace);
  }

  private warmStep(
    n: number,
    firstHot: number,
    target: number,
    comparison: Comparison,
    from: number,
    to: number,
  ): LookupStep {
    const entry = this.entryInfo(firstHot);
    const what = this.describeKey(firstHot);
    // Kafka's AbstractIndex.indexSlotRangeFor compares the warm section's first entry before any
    // binary search: say so, or a one-slot answer reads like a search that found it at once.
    const warm =
      firstHot === 0
        ? `Warm-section check first: all ${n} entries of ${this.file} lie in its warm section (the last 8 KiB, kept in the page cache), which starts at slot 0`
        : `Warm-section check first: ${this.file} has ${n} entries, and its warm section (the last 8 KiB, kept in the page cache) starts at slot ${firstHot}`;
    const range = from === to ? `slots ${from}..${to}: one slot, nothing to halve.` : `slots ${from}..${to}.`;
    let explanation: string;
    if (comparison === 'less') {
      explanation = `${warm}; it holds ${what}, below ${target}, so the binary search covers ${range}`;
    } else if (to < 0) {
      explanation = `Even the first entry of ${this.file} (${this.describeKey(0)}) is above ${target}, so no entry applies and the search starts at the beginning of the segment.`;
    } else {
      explanation = `${warm}; it holds ${what}, not below ${target}, so the binary search covers ${range}`;
    }
    return {
      kind: 'index-warm-check',
      file: this.file,
      entries: n,
      firstWarmSlot: firstHot,
      entry,
      target,
      comparison,
      searchFrom: from,
      searchTo: to,
      explanation,
    };
  }

  private binarySearch(target: number, begin: number, end: number, trace?: LookupStep[]): number {
    let lo = begin;
    let hi = end;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      const key = this.keyAt(mid);
      if (trace) {
        const comparison = compare(key, target);
        const verdict =
          comparison === 'greater'
            ? `above ${target}: the answer is before slot ${mid}, search ${lo}..${mid - 1}`
            : comparison === 'less'
              ? `below ${target}: slot ${mid} is a candidate, search ${mid}..${hi}`
              : `exactly ${target}: found`;
        trace.push({
          kind: 'index-probe',
          file: this.file,
          lo,
          hi,
          slot: mid,
          entry: this.entryInfo(mid),
          target,
          comparison,
          explanation: `Probe slot ${mid} of ${lo}..${hi}: it holds ${this.describeKey(mid)}, ${verdict}.`,
        });
      }
      if (key > target) hi = mid - 1;
      else if (key < target) lo = mid;
      else return mid;
    }
    return lo;
  }

  /** Drops every entry from `slot` on. */
  truncateToEntries(slot: number): void {
    this.count = Math.max(0, Math.min(this.count, slot));
  }

  /** Kafka's `reset`: empties the index (recovery rebuilds it from the log). */
  reset(): void {
    this.count = 0;
  }

  /** The file's bytes, trimmed to `entries * entrySize` (a copy). */
  toBytes(): Uint8Array {
    return this.buf.slice(0, this.count * this.entrySize);
  }

  /** Bytes of entries [fromSlot, entries) — what a flush appends to the stored file (a copy). */
  bytesFrom(fromSlot: number): Uint8Array {
    return this.buf.slice(fromSlot * this.entrySize, this.count * this.entrySize);
  }

  /** True when both indexes hold the same entries byte for byte. */
  sameEntriesAs(other: AbstractIndex): boolean {
    if (other.count !== this.count || other.entrySize !== this.entrySize) return false;
    const n = this.count * this.entrySize;
    for (let i = 0; i < n; i++) if (this.buf[i] !== other.buf[i]) return false;
    return true;
  }

  /** True when this index's bytes equal `bytes` exactly (e.g. a stored file). */
  equalsBytes(bytes: Uint8Array): boolean {
    if (bytes.length !== this.count * this.entrySize) return false;
    for (let i = 0; i < bytes.length; i++) if (this.buf[i] !== bytes[i]) return false;
    return true;
  }
}
