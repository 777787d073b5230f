import { KafkaError } from '../errors';
import { AbstractIndex } from './AbstractIndex';
import type { IndexFileKind, LookupStep, OffsetIndexEntryInfo } from './LookupTrace';

/** Kafka's OffsetPosition: an absolute offset and the byte position of the batch holding it. */
export interface OffsetPosition {
  offset: number;
  position: number;
}

/**
 * The sparse `.index` file of a segment (Kafka's OffsetIndex).
 *
 * Format: 8-byte big-endian entries `relativeOffset int32 | position int32`, where
 * relativeOffset = offset - segment base offset. An entry is written each time more than
 * `index.interval.bytes` have been appended since the last one, and it holds the LAST offset of
 * the batch being appended with the byte position where that batch STARTS (confirmed on a real
 * Kafka 3.7 segment: entries (3 -> 4730) and (7 -> 9571) in __consumer_offsets-6).
 *
 * Invariants: offsets strictly increase; every position is the start of a batch in the `.log`;
 * the batch at that position contains the entry's offset.
 */
export class OffsetIndex extends AbstractIndex {
  static readonly ENTRY_SIZE = 8;
  readonly file: IndexFileKind = '.index';

  constructor(baseOffset: number, maxIndexSize: number) {
    super(baseOffset, maxIndexSize, OffsetIndex.ENTRY_SIZE);
  }

  /** Loads entries from a stored `.index` file (trailing partial entry ignored). */
  static fromBytes(baseOffset: number, maxIndexSize: number, bytes: Uint8Array): OffsetIndex {
    return new OffsetIndex(baseOffset, Math.max(maxIndexSize, bytes.length)).loadEntries(bytes);
  }

  protected keyAt(slot: number): number {
    return this.baseOffset + this.view.getInt32(slot * 8);
  }

  protected describeKey(slot: number): string {
    const rel = this.relativeOffsetAt(slot);
    return `offset ${this.baseOffset + rel} (relative ${rel}, at byte ${this.positionAt(slot)})`;
  }

  relativeOffsetAt(slot: number): number {
    return this.view.getInt32(slot * 8);
  }

  positionAt(slot: number): number {
    return this.view.getInt32(slot * 8 + 4);
  }

  entryInfo(slot: number): OffsetIndexEntryInfo {
    const relativeOffset = this.relativeOffsetAt(slot);
    return { slot, relativeOffset, offset: this.baseOffset + relativeOffset, position: this.positionAt(slot) };
  }

  /** The last offset indexed, or the base offset when empty (Kafka's `lastOffset`). */
  get lastOffset(): number {
    return this.count === 0 ? this.baseOffset : this.keyAt(this.count - 1);
  }

  /** Position of the last entry, or 0 when empty. */
  get lastPosition(): number {
    return this.count === 0 ? 0 : this.positionAt(this.count - 1);
  }

  /** Adds an entry; offsets must strictly increase (Kafka's InvalidOffsetException otherwise). */
  append(offset: number, position: number): void {
    if (this.count > 0 && offset <= this.lastOffset) {
      throw new KafkaError(
        'KAFKA_STORAGE_ERROR',
        `attempt to append offset ${offset} to ${this.file} no larger than the last offset appended (${this.lastOffset})`,
        { offset, lastOffset: this.lastOffset },
      );
    }
    this.appendRaw(offset - this.baseOffset, position);
  }

  private appendRaw(relativeOffset: number, position: number): void {
    this.reserveOne();
    const at = this.count * 8;
    this.view.setInt32(at, relativeOffset);
    this.view.setInt32(at + 4, position);
    this.count++;
  }

  /**
   * Kafka's `lookup`: the largest entry with offset <= target, or (baseOffset, 0) when none is,
   * so a scan then starts at the beginning of the segment.
   */
  lookup(targetOffset: number, trace?: LookupStep[]): OffsetPosition & { slot: number } {
    const slot = this.largestLowerBoundSlotFor(targetOffset, trace);
    if (slot < 0) {
      trace?.push({
        kind: 'index-result',
        file: this.file,
        slot: -1,
        entry: null,
        explanation: `No ${this.file} entry is <= ${targetOffset}, so the scan starts at byte 0 of the segment (offset ${this.baseOffset}).`,
      });
      return { slot: -1, offset: this.baseOffset, position: 0 };
    }
    const entry = this.entryInfo(slot);
    trace?.push({
      kind: 'index-result',
      file: this.file,
      slot,
      entry,
      explanation: `Use slot ${slot}: relative offset ${entry.relativeOffset} (offset ${entry.offset}) is the largest entry <= ${targetOffset}; its batch starts at byte ${entry.position}.`,
    });
    return { slot, offset: entry.offset, position: entry.position };
  }

  /** Removes entries with offset >= `offset` (Kafka's OffsetIndex.truncateTo). */
  truncateTo(offset: number): void {
    const slot = this.largestLowerBoundSlotFor(offset);
    // Keep the found slot only if it is strictly below `offset`.
    const keep = slot < 0 ? 0 : this.keyAt(slot) === offset ? slot : slot + 1;
    this.truncateToEntries(keep);
  }
}
