import type { FileRecords } from './FileRecords';
import { indexFileName, logFileName, timeIndexFileName } from './LogFileUtils';
import type { OffsetIndex } from './OffsetIndex';
import { PagedOutSegments } from './PagedOutSegments';
import type { TimeIndex } from './TimeIndex';

/**
 * What a LogSegment knows besides its base offset, in one of two forms: the resident state (the
 * `.log` bytes, the index objects and the numbers) while in memory, or a row of a
 * PagedOutSegments table once paged out, so that a retained closed segment costs its base offset,
 * two references and a row of numbers rather than an object of boxed numbers. The fields read
 * either; the bytes and indexes throw `notLoaded()` (SegmentNotLoadedError) while paged out.
 */
export abstract class SegmentState {
  readonly baseOffset: number;
  /** Everything but the base offset while the `.log` is in memory; null while paged out. */
  protected hot: ResidentState | null;
  /** While paged out: the table and row holding this segment's numbers. */
  protected cold: PagedOutSegments | null = null;
  protected row = -1;

  constructor(baseOffset: number, hot: ResidentState) {
    this.baseOffset = baseOffset;
    this.hot = hot;
  }

  /** The error a read of the bytes or indexes throws while paged out. */
  protected abstract notLoaded(): Error;

  // The fields below read the resident state, or the table's row while paged out.
  protected get _log(): FileRecords | null {
    return this.hot?.log ?? null;
  }
  protected set _log(log: FileRecords) {
    this.resident_().log = log;
  }
  protected get _offsetIndex(): OffsetIndex | null {
    return this.hot?.offsetIndex ?? null;
  }
  protected set _offsetIndex(index: OffsetIndex) {
    this.resident_().offsetIndex = index;
  }
  protected get _timeIndex(): TimeIndex | null {
    return this.hot?.timeIndex ?? null;
  }
  protected set _timeIndex(index: TimeIndex) {
    this.resident_().timeIndex = index;
  }
  get indexIntervalBytes(): number {
    return this.hot ? this.hot.indexIntervalBytes : this.coldI32('indexIntervalBytes');
  }
  protected get bytesSinceLastIndexEntry(): number {
    return this.hot ? this.hot.bytesSinceLastIndexEntry : 0;
  }
  protected set bytesSinceLastIndexEntry(n: number) {
    this.resident_().bytesSinceLastIndexEntry = n;
  }
  get maxTimestampSoFar(): number {
    return this.hot ? this.hot.maxTimestampSoFar : this.coldF64('maxTimestampSoFar');
  }
  get offsetOfMaxTimestampSoFar(): number {
    return this.hot ? this.hot.offsetOfMaxTimestampSoFar : this.coldF64('offsetOfMaxTimestampSoFar');
  }
  /**
   * Kafka's LogSegment.maxTimestampAndOffsetSoFar, one TimestampOffset: the largest timestamp so
   * far and the offset it is at change together.
   */
  protected setMaxTimestampAndOffsetSoFar(timestamp: number, offset: number): void {
    const hot = this.resident_();
    hot.maxTimestampSoFar = timestamp;
    hot.offsetOfMaxTimestampSoFar = offset;
  }
  /** The offset after the last batch (baseOffset when empty). */
  get nextOffset(): number {
    return this.hot ? this.hot.nextOffset : this.coldF64('nextOffset');
  }
  set nextOffset(offset: number) {
    this.resident_().nextOffset = offset;
  }
  /** Clock time the segment was created (used by segment.ms when records carry no timestamps). */
  get createdMs(): number {
    return this.hot ? this.hot.createdMs : this.coldF64('createdMs');
  }
  get lastModifiedMs(): number {
    return this.hot ? this.hot.lastModifiedMs : this.coldF64('lastModifiedMs');
  }
  set lastModifiedMs(ms: number) {
    if (this.hot) this.hot.lastModifiedMs = ms;
    else (this.cold as PagedOutSegments).setF64('lastModifiedMs', this.row, ms);
  }
  /** Max timestamp of the first batch: Kafka measures segment.ms from it. */
  protected get rollingBasedTimestamp(): number | null {
    if (this.hot) return this.hot.rollingBasedTimestamp;
    const ts = this.coldF64('rolling');
    return Number.isNaN(ts) ? null : ts;
  }
  protected set rollingBasedTimestamp(ts: number | null) {
    this.resident_().rollingBasedTimestamp = ts;
  }
  /** Bytes of the `.log` already handed to the Store (all of them while paged out). */
  get flushedBytes(): number {
    return this.hot ? this.hot.flushedBytes : this.size;
  }
  set flushedBytes(n: number) {
    this.resident_().flushedBytes = n;
  }
  get flushedOffsetIndexEntries(): number {
    return this.hot ? this.hot.flushedOffsetIndexEntries : this.offsetIndexEntries;
  }
  set flushedOffsetIndexEntries(n: number) {
    this.resident_().flushedOffsetIndexEntries = n;
  }
  get flushedTimeIndexEntries(): number {
    return this.hot ? this.hot.flushedTimeIndexEntries : this.timeIndexEntries;
  }
  set flushedTimeIndexEntries(n: number) {
    this.resident_().flushedTimeIndexEntries = n;
  }
  protected get names(): SegmentFileNames {
    if (!this.hot) return fileNames(this.baseOffset);
    return (this.hot.names ??= fileNames(this.baseOffset));
  }

  protected resident_(): ResidentState {
    if (this.hot === null) throw this.notLoaded();
    return this.hot;
  }

  protected coldF64(column: Parameters<PagedOutSegments['f64At']>[0]): number {
    return (this.cold as PagedOutSegments).f64At(column, this.row);
  }

  protected coldI32(column: Parameters<PagedOutSegments['i32At']>[0]): number {
    return (this.cold as PagedOutSegments).i32At(column, this.row);
  }

  /** The `.log`'s bytes (Kafka's FileRecords); throws SegmentNotLoadedError while paged out. */
  get log(): FileRecords {
    const log = this._log;
    if (log === null) throw this.notLoaded();
    return log;
  }

  get offsetIndex(): OffsetIndex {
    const index = this._offsetIndex;
    if (index === null) throw this.notLoaded();
    return index;
  }

  get timeIndex(): TimeIndex {
    const index = this._timeIndex;
    if (index === null) throw this.notLoaded();
    return index;
  }

  /** Entries in the `.index` (known while paged out too). */
  get offsetIndexEntries(): number {
    return this.hot ? this.hot.offsetIndex.entries : this.coldI32('offsetIndexEntries');
  }

  get timeIndexEntries(): number {
    return this.hot ? this.hot.timeIndex.entries : this.coldI32('timeIndexEntries');
  }

  get size(): number {
    return this.hot ? this.hot.log.sizeInBytes : this.coldI32('size');
  }

  /** Whether the `.log` bytes are in memory (false once paged out, until reloaded). */
  get resident(): boolean {
    return this.hot !== null;
  }

  /**
   * Drops the `.log` bytes from memory (they are in the Store: the caller checked). Views handed
   * out earlier stay valid (FileRecords never rewrites bytes); the memory goes once nobody holds one.
   */
  pageOut(table: PagedOutSegments = new PagedOutSegments(true), owner: unknown = null): void {
    const hot = this.hot;
    if (hot === null) return;
    this.row = table.add(
      {
        size: hot.log.sizeInBytes,
        nextOffset: hot.nextOffset,
        maxTimestampSoFar: hot.maxTimestampSoFar,
        offsetOfMaxTimestampSoFar: hot.offsetOfMaxTimestampSoFar,
        createdMs: hot.createdMs,
        lastModifiedMs: hot.lastModifiedMs,
        rollingBasedTimestamp: hot.rollingBasedTimestamp,
        offsetIndexEntries: hot.offsetIndex.entries,
        timeIndexEntries: hot.timeIndex.entries,
        maxIndexSize: hot.offsetIndex.maxIndexSize,
        indexIntervalBytes: hot.indexIntervalBytes,
      },
      owner,
    );
    this.cold = table;
    this.hot = null;
  }

  /** The table holding this paged-out segment's row (null while resident). */
  get pagedOutIn(): PagedOutSegments | null {
    return this.cold;
  }

  /** The log owning this paged-out segment, as its table was told (null while resident). */
  get pagedOutOwner(): unknown {
    return this.cold ? this.cold.owner(this.row) : null;
  }

  /**
   * Moves this paged-out segment's row to `table` (a one-row table of its own by default: the
   * segment left its log and the shared table's row may be reused).
   */
  movePagedOut(table: PagedOutSegments = new PagedOutSegments(true), owner: unknown = null): void {
    const cold = this.cold;
    if (cold === null || cold === table) return;
    const fields = cold.fields(this.row);
    cold.release(this.row);
    this.row = table.add(fields, owner);
    this.cold = table;
  }
}

export interface SegmentFileNames {
  log: string;
  index: string;
  timeIndex: string;
}

/** A segment's state while its `.log` is in memory. */
export interface ResidentState {
  log: FileRecords;
  offsetIndex: OffsetIndex;
  timeIndex: TimeIndex;
  indexIntervalBytes: number;
  bytesSinceLastIndexEntry: number;
  maxTimestampSoFar: number;
  offsetOfMaxTimestampSoFar: number;
  nextOffset: number;
  createdMs: number;
  lastModifiedMs: number;
  rollingBasedTimestamp: number | null;
  flushedBytes: number;
  flushedOffsetIndexEntries: number;
  flushedTimeIndexEntries: number;
  names: SegmentFileNames | null;
}

function fileNames(baseOffset: number): SegmentFileNames {
  return { log: logFileName(baseOffset), index: indexFileName(baseOffset), timeIndex: timeIndexFileName(baseOffset) };
}
