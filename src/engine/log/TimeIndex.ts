import { NO_TIMESTAMP } from '../codec';
import { KafkaError } from '../errors';
import { AbstractIndex } from './AbstractIndex';
import type { IndexFileKind, LookupStep, TimeIndexEntryInfo } from './LookupTrace';

/** Kafka's TimestampOffset. Timestamp -1 (RecordBatch.NO_TIMESTAMP) means "none". */
export interface TimestampOffset {
  timestamp: number;
  offset: number;
}

/**
 * The sparse `.timeindex` file of a segment (Kafka's TimeIndex).
 *
 * Format: 12-byte big-endian entries `timestamp int64 | relativeOffset int32`. An entry
 * (largest timestamp so far, offset of that timestamp) is added at the same appends that add an
 * `.index` entry, but only when the timestamp grew, plus one final entry when the segment is
 * rolled or closed (`onBecomeInactiveSegment`). Like Kafka, `isFull` keeps the last slot free for
 * that final entry.
 *
 * Invariants: timestamps strictly increase, offsets never decrease.
 */
export class TimeIndex extends AbstractIndex {
  static readonly ENTRY_SIZE = 12;
  readonly file: IndexFileKind = '.timeindex';

  constructor(baseOffset: number, maxIndexSize: number) {
    super(baseOffset, maxIndexSize, TimeIndex.ENTRY_SIZE);
  }

  /** Loads entries from a stored `.timeindex` file (trailing partial entry ignored). */
  static fromBytes(baseOffset: number, maxIndexSize: number, bytes: Uint8Array): TimeIndex {
    return new TimeIndex(baseOffset, Math.max(maxIndexSize, bytes.length + TimeIndex.ENTRY_SIZE)).loadEntries(bytes);
  }

  /** Kafka reserves the last slot for the entry written when the segment becomes inactive. */
  override isFull(): boolean {
    return this.count >= this.maxEntries - 1;
  }

  timestampAt(slot: number): number {
    const at = slot * 12;
    return this.view.getInt32(at) * 4294967296 + this.view.getUint32(at + 4);
  }

  relativeOffsetAt(slot: number): number {
    return this.view.getInt32(slot * 12 + 8);
  }

  protected describeKey(slot: number): string {
    return `timestamp ${this.timestampAt(slot)} (offset ${this.baseOffset + this.relativeOffsetAt(slot)})`;
  }

  protected keyAt(slot: number): number {
    return this.timestampAt(slot);
  }

  entryInfo(slot: number): TimeIndexEntryInfo {
    const relativeOffset = this.relativeOffsetAt(slot);
    return { slot, timestamp: this.timestampAt(slot), relativeOffset, offset: this.baseOffset + relativeOffset };
  }

  /** The last entry, or (NO_TIMESTAMP, baseOffset) when empty (Kafka's `lastEntry`). */
  lastEntry(): TimestampOffset {
    if (this.count === 0) return { timestamp: NO_TIMESTAMP, offset: this.baseOffset };
    return {
      timestamp: this.timestampAt(this.count - 1),
      offset: this.baseOffset + this.relativeOffsetAt(this.count - 1),
    };
  }

  /**
   * Kafka's `maybeAppend`: adds (timestamp, offset) only if the timestamp is larger than the last
   * entry's. `skipFullCheck` is used for the final entry on roll/close, which may take the
   * reserved last slot.
   */
  maybeAppend(timestamp: number, offset: number, skipFullCheck = false): boolean {
    if (!skipFullCheck && this.isFull()) {
      throw new KafkaError('KAFKA_STORAGE_ERROR', `attempt to append to a full ${this.file} (size = ${this.count})`, {
        entries: this.count,
      });
    }
    const last = this.lastEntry();
    if (this.count > 0 && offset < last.offset) {
      throw new KafkaError(
        'KAFKA_STORAGE_ERROR',
        `attempt to append offset ${offset} to ${this.file} smaller than the last offset ${last.offset}`,
        { offset, lastOffset: last.offset },
      );
    }
    if (timestamp <= last.timestamp) return false;
    if (this.count >= this.maxEntries) return false; // no room even in the reserved slot
    this.appendRaw(timestamp, offset - this.baseOffset);
    return true;
  }

  private appendRaw(timestamp: number, relativeOffset: number): void {
    this.reserveOne();
    const at = this.count * 12;
    const hi = Math.floor(timestamp / 4294967296);
    this.view.setInt32(at, hi);
    this.view.setUint32(at + 4, timestamp - hi * 4294967296);
    this.view.setInt32(at + 8, relativeOffset);
    this.count++;
  }

  /**
   * Kafka's TimeIndex.lookup: the largest entry with timestamp <= target, or
   * (NO_TIMESTAMP, baseOffset) when there is none.
   */
  lookup(targetTimestamp: number, trace?: LookupStep[]): TimestampOffset & { slot: number } {
    const slot = this.largestLowerBoundSlotFor(targetTimestamp, trace);
    if (slot < 0) {
      trace?.push({
        kind: 'index-result',
        file: this.file,
        slot: -1,
        entry: null,
        explanation: `No ${this.file} entry has a timestamp <= ${targetTimestamp}, so the search starts from the segment's base offset ${this.baseOffset}.`,
      });
      return { slot: -1, timestamp: NO_TIMESTAMP, offset: this.baseOffset };
    }
    const entry = this.entryInfo(slot);
    trace?.push({
      kind: 'index-result',
      file: this.file,
      slot,
      entry,
      explanation: `Use slot ${slot}: timestamp ${entry.timestamp} is the largest <= ${targetTimestamp}; it points at offset ${entry.offset}.`,
    });
    return { slot, timestamp: entry.timestamp, offset: entry.offset };
  }

  /** Removes entries with offset >= `offset` (Kafka's TimeIndex.truncateTo). */
  truncateTo(offset: number): void {
    let keep = this.count;
    while (keep > 0 && this.baseOffset + this.relativeOffsetAt(keep - 1) >= offset) keep--;
    this.truncateToEntries(keep);
  }
}
