import type { StoreWriter } from './StoreWriter';

/** Marks kept before the confirmed ones are dropped. */
const MAX_MARKS_BEFORE_PRUNING = 64;

/** A flush as the Store will confirm it: the log end then, and the last operation it submitted. */
interface FlushMark {
  /** Every offset below this was handed to the Store by this flush or earlier ones. */
  offset: number;
  /** The StoreWriter sequence number of the flush's last operation. */
  sequence: number;
  /** Where `offset` falls: the segment it ends in and the byte position there. */
  segmentBaseOffset: number;
  position: number;
}

/** The durable point: offsets below `offset` are in the Store; bytes below `position` of that segment. */
export interface DurablePoint {
  offset: number;
  segmentBaseOffset: number;
  position: number;
}

/**
 * A partition log's durable offset: the recovery point whose writes the Store has confirmed.
 *
 * Kafka has no such notion. Its recoveryPoint says the bytes below it were flushed (fsync), which a
 * broker knows the moment the call returns. Here a flush only hands bytes to the Store's write
 * queue (the recovery point moves at once, as in Kafka), and they survive the tab closing only
 * once the Store completes them (IndexedDB's `complete` event). So each flush leaves a mark, and
 * the durable offset is the newest mark whose last operation the StoreWriter has seen complete
 * (its durableSequence: that operation and every earlier one succeeded).
 *
 * Completions arrive outside engine ticks, so this is something the host shows, never something
 * the engine's behaviour depends on: the engine stays deterministic.
 */
export class DurableOffset {
  /** Flushes not yet confirmed, oldest first (sequence numbers increase). */
  private marks: FlushMark[] = [];
  private point: DurablePoint;

  constructor(
    private readonly writer: StoreWriter,
    point: DurablePoint,
  ) {
    this.point = { ...point };
  }

  /** Records a flush that has just handed everything below `point.offset` to the writer. */
  flushed(point: DurablePoint): void {
    const mark = { ...point, sequence: this.writer.operationsIssued };
    // No operation since the last mark (or a memory-only log, which submits none): that mark's
    // operations carry these offsets too, so it just moves up.
    const last = this.marks[this.marks.length - 1];
    if (last && last.sequence === mark.sequence) this.marks[this.marks.length - 1] = mark;
    else this.marks.push(mark);
    // A write-through log marks every append: drop the confirmed ones even when nobody asks for
    // the durable point, so the marks stay bounded by the writes still in flight.
    if (this.marks.length >= MAX_MARKS_BEFORE_PRUNING) this.current();
  }

  /** The newest confirmed flush (advances over the marks the writer has completed). */
  current(): DurablePoint {
    const confirmed = this.writer.durableSequence;
    let i = 0;
    while (i < this.marks.length && (this.marks[i] as FlushMark).sequence <= confirmed) i++;
    if (i > 0) {
      const m = this.marks[i - 1] as FlushMark;
      if (m.offset >= this.point.offset)
        this.point = { offset: m.offset, segmentBaseOffset: m.segmentBaseOffset, position: m.position };
      this.marks = this.marks.slice(i);
    }
    return this.point;
  }

  /**
   * The log was truncated to `point` (its new end): what the Store still holds above it is about to
   * be cut and will be overwritten by different records, so no mark may claim past it.
   */
  truncatedTo(point: DurablePoint): void {
    if (this.point.offset > point.offset) this.point = { ...point };
    for (const m of this.marks) {
      if (m.offset > point.offset) {
        m.offset = point.offset;
        m.segmentBaseOffset = point.segmentBaseOffset;
        m.position = point.position;
      }
    }
  }

  /**
   * The Store lost every file (StoreWriter.storeLost): nothing of this log is durable until it is
   * handed over again; `start` is the log's first offset. Marks left by earlier flushes name
   * operations that went to the lost Store, so they go too.
   */
  lost(start: DurablePoint): void {
    this.marks = [];
    this.point = { ...start };
  }

  /** The log was emptied and restarted at `point.offset` (truncateFullyAndStartAt): forget every mark. */
  reset(point: DurablePoint): void {
    this.marks = [];
    this.point = { ...point };
  }
}
