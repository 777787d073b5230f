import type { Clock } from '../Clock';
import type { RecordBatchHeader } from '../codec';
import { KafkaError } from '../errors';
import type { AbstractIndex } from './AbstractIndex';
import { DurableOffset, type DurablePoint } from './DurableOffset';
import type { LogConfig } from './LogConfig';
import { LogSegment } from './LogSegment';
import { LogSegments } from './LogSegments';
import { type PagedLog, type SegmentCache, SegmentNotLoadedError } from './SegmentCache';
import type { StoreWriter } from './StoreWriter';

/** The records of an empty fetch (shared: zero bytes cannot change). */
const NO_BYTES = new Uint8Array(0);

/** Kafka's FetchDataInfo: where the read started and the whole batches read. */
export interface FetchDataInfo {
  fetchOffsetMetadata: { messageOffset: number; segmentBaseOffset: number; relativePositionInSegment: number };
  /**
   * A view of the segment's bytes, which never change (share it, never write to it): the batches,
   * then possibly the first bytes of one that did not fit. Batches may start before the requested offset.
   */
  records: Uint8Array;
  /** The whole batches of `records`. */
  batches: RecordBatchHeader[];
  /** The offset a follow-up fetch should ask for. */
  nextOffset: number;
}

/** Per-segment facts for the UI: sizes, what is flushed, index fill. */
export interface SegmentInfo {
  baseOffset: number;
  logFileName: string;
  nextOffset: number;
  sizeInBytes: number;
  flushedBytes: number;
  unflushedBytes: number;
  /** Bytes of the `.log` the Store has confirmed (<= flushedBytes): they survive the tab closing. */
  durableBytes: number;
  offsetIndexEntries: number;
  timeIndexEntries: number;
  largestTimestamp: number;
  active: boolean;
}

export interface LocalLogOptions {
  /** The partition's directory, `<topic>-<partition>`. */
  dir: string;
  config: LogConfig;
  clock: Clock;
  writer: StoreWriter;
  /** Base offset of the first segment when nothing was recovered. */
  startOffset: number;
  /** Segments already recovered from the Store, in offset order. */
  recoveredSegments: readonly LogSegment[];
  /** Their recovery point (LogLoader's); default: the log end offset. */
  recoveryPoint?: number;
  /**
   * Called before a segment's files are deleted: Kafka's UnifiedLog deletes the producer snapshot
   * named by the segment's base offset with it (deleteProducerSnapshots).
   */
  onDeleteSegmentFiles: (seg: LogSegment) => void;
}

/**
 * Kafka's LocalLog: the segments of one replica's log in its directory, and what is done to them
 * as files: create and roll segments, read whole batches, flush to the Store (the recovery point),
 * truncate, delete and replace segments. It knows nothing of the log start offset, the high
 * watermark, epochs or producers (UnifiedLog owns those), and hands every change to the Store
 * through its StoreWriter without awaiting it.
 *
 * Invariants: at least one segment, the last being active; recoveryPoint <= logEndOffset;
 * the durable point (DurableOffset) <= logEndOffset. Without write-through it trails the recovery
 * point (bytes reach the Store only at a flush); with it, it runs ahead (every append is in the
 * files, and only a flush moves the recovery point), as a recovered log's does (all of it was read
 * back from the Store, the recovery point stays at the checkpoint's).
 */
export class LocalLog {
  readonly dir: string;
  config: LogConfig;
  private readonly clock: Clock;
  readonly writer: StoreWriter;
  readonly segments = new LogSegments();
  /** Kafka's recoveryPoint: every offset below it has been flushed (handed to the Store). */
  private _recoveryPoint: number;
  /** glassbox's, not Kafka's: the recovery point whose writes the Store has confirmed. */
  private readonly durable: DurableOffset;
  private _lastFlushTimeMs: number;
  private cache: SegmentCache | null = null;
  /** The log the cache pages (the UnifiedLog over this one, which adds its own conditions). */
  private pagedLog: PagedLog | null = null;
  private readonly onDeleteSegmentFiles: (seg: LogSegment) => void;

  constructor(options: LocalLogOptions) {
    this.dir = options.dir;
    this.config = options.config;
    this.clock = options.clock;
    this.writer = options.writer;
    this.onDeleteSegmentFiles = options.onDeleteSegmentFiles;
    this._lastFlushTimeMs = this.clock.now();
    if (options.recoveredSegments.length === 0) {
      this.createSegment(options.startOffset);
      this._recoveryPoint = options.startOffset;
    } else {
      for (const s of options.recoveredSegments) this.segments.add(s);
      this._recoveryPoint = Math.min(options.recoveryPoint ?? this.logEndOffset, this.logEndOffset);
    }
    // A new log has nothing to lose yet; a recovered one was read back from the Store, so all of it is durable.
    this.durable = new DurableOffset(this.writer, this.logEndPoint());
  }

  /** Puts the closed segments under `cache`, paged as `owner`'s. */
  attachCache(cache: SegmentCache, owner: PagedLog): void {
    if (this.cache === cache) return;
    this.cache = cache;
    this.pagedLog = owner;
    const active = this.activeSegment;
    for (const seg of this.segments.values) if (seg !== active) cache.admit(owner, seg);
  }

  /** What paging needs of the files: `seg` closed, in memory, every byte flushed and the Store done with its `.log`. */
  isPageable(seg: LogSegment): boolean {
    return (
      seg !== this.activeSegment &&
      seg.resident &&
      seg.flushedBytes === seg.size &&
      this.writer.isPathDurable(this.path(seg.logFileName))
    );
  }

  holds(seg: LogSegment): boolean {
    return this.segments.floorSegment(seg.baseOffset) === seg;
  }

  /** Before reading `seg`'s bytes: marks it used, or asks for it and throws when it is paged out. */
  readable(seg: LogSegment): LogSegment {
    if (!seg.resident) {
      this.cache?.request(seg);
      throw new SegmentNotLoadedError(seg);
    }
    this.cache?.touch(seg);
    return seg;
  }

  /** Asks the cache for every segment of `segs` that is paged out; true when all are in memory. */
  requestResident(segs: readonly LogSegment[]): boolean {
    const missing = segs.filter((seg) => !seg.resident);
    for (const seg of missing) this.cache?.request(seg);
    return missing.length === 0;
  }

  /** The offset the next appended record gets (Kafka's LEO). */
  get logEndOffset(): number {
    return (this.segments.last as LogSegment).nextOffset;
  }

  get recoveryPoint(): number {
    return this._recoveryPoint;
  }

  /** Raises the recovery point to `offset` (the log start moved past it). */
  raiseRecoveryPoint(offset: number): void {
    this._recoveryPoint = Math.max(this._recoveryPoint, offset);
  }

  get lastFlushTimeMs(): number {
    return this._lastFlushTimeMs;
  }

  /** Messages appended since the last flush (Kafka's unflushedMessages). */
  get unflushedMessages(): number {
    return this.logEndOffset - this._recoveryPoint;
  }

  get activeSegment(): LogSegment {
    return this.segments.last as LogSegment;
  }

  /** Total bytes over all segments. */
  get size(): number {
    let n = 0;
    for (const s of this.segments.values) n += s.size;
    return n;
  }

  /** The newest flush the Store has confirmed. */
  durablePoint(): DurablePoint {
    return this.durable.current();
  }

  /** Bytes of `seg`'s `.log` the Store has confirmed. */
  durableBytes(seg: LogSegment): number {
    const point = this.durable.current();
    if (seg.nextOffset <= point.offset) return seg.size;
    if (seg.baseOffset === point.segmentBaseOffset) return Math.min(point.position, seg.size);
    return 0;
  }

  /** The log end as a DurablePoint: the offset, and where it falls in the active segment. */
  private logEndPoint(): DurablePoint {
    const active = this.activeSegment;
    return { offset: active.nextOffset, segmentBaseOffset: active.baseOffset, position: active.size };
  }

  segmentInfos(): SegmentInfo[] {
    const active = this.activeSegment;
    return this.segments.values.map((s) => ({
      baseOffset: s.baseOffset,
      logFileName: s.logFileName,
      nextOffset: s.nextOffset,
      sizeInBytes: s.size,
      flushedBytes: s.flushedBytes,
      unflushedBytes: s.unflushedBytes,
      durableBytes: this.durableBytes(s),
      offsetIndexEntries: s.offsetIndexEntries,
      timeIndexEntries: s.timeIndexEntries,
      largestTimestamp: s.largestTimestamp,
      active: s === active,
    }));
  }

  path(fileName: string): string {
    return `${this.dir}/${fileName}`;
  }

  // ---------------------------------------------------------------- segments

  createSegment(baseOffset: number): LogSegment {
    const seg = new LogSegment(
      baseOffset,
      this.config['index.interval.bytes'],
      this.config['segment.index.bytes'],
      this.clock.now(),
      undefined,
      this.config['segment.bytes'],
    );
    this.segments.add(seg);
    // Creating the files is metadata the Store must know at once, or a reload would lose the segment.
    // An empty append creates a file as a write would (nothing is there: a new base offset, or
    // its old files deleted just before), and appends are group-committed: at hundreds of rolls
    // a second, one IndexedDB transaction per new file left the Store ever further behind.
    const empty = new Uint8Array(0);
    this.writer.submit({ op: 'append', path: this.path(seg.logFileName), bytes: empty });
    this.writer.submit({ op: 'append', path: this.path(seg.indexFileName), bytes: empty });
    this.writer.submit({ op: 'append', path: this.path(seg.timeIndexFileName), bytes: empty });
    return seg;
  }

  /** The segment's files (and, through onDeleteSegmentFiles, its producer snapshot). */
  private deleteSegmentFiles(seg: LogSegment): void {
    this.onDeleteSegmentFiles(seg);
    this.cache?.forget(seg);
    this.writer.submit({ op: 'delete', path: this.path(seg.logFileName) });
    this.writer.submit({ op: 'delete', path: this.path(seg.indexFileName) });
    this.writer.submit({ op: 'delete', path: this.path(seg.timeIndexFileName) });
  }

  /** Kafka's LocalLog.removeAndDeleteSegments: `segs` leave the log and their files go. */
  removeAndDeleteSegments(segs: readonly LogSegment[]): void {
    for (const seg of segs) {
      this.segments.remove(seg);
      this.deleteSegmentFiles(seg);
    }
  }

  /** An empty active segment that cannot hold the next offsets is replaced by one at `baseOffset`. */
  replaceEmptyActiveSegment(baseOffset: number): LogSegment {
    this.removeAndDeleteSegments([this.activeSegment]);
    return this.createSegment(baseOffset);
  }

  /**
   * Kafka's LocalLog.roll: closes the active segment (final time index entry, flush of everything
   * before the new segment — Kafka schedules that flush on every roll) and opens a new one at
   * `newBaseOffset`. An empty active segment is replaced rather than left behind, or returned as
   * is when it already starts there.
   */
  roll(newBaseOffset: number): LogSegment {
    const active = this.activeSegment;
    if (newBaseOffset < active.nextOffset) {
      throw new KafkaError(
        'INVALID_REQUEST',
        `cannot roll to ${newBaseOffset} below the log end offset ${active.nextOffset}`,
      );
    }
    if (active.size === 0) {
      if (active.baseOffset === newBaseOffset) return active;
      return this.replaceEmptyActiveSegment(newBaseOffset);
    }
    active.onBecomeInactiveSegment();
    // Kafka's flushUptoOffsetExclusive(newSegment.baseOffset): everything before the new segment
    // reaches the Store, and the recovery point moves up to the rolled segment's end.
    this.forceFrom(this._recoveryPoint);
    for (const seg of this.unflushedTail()) this.flushSegment(seg);
    this._recoveryPoint = Math.max(this._recoveryPoint, active.nextOffset);
    this.durable.flushed({ offset: active.nextOffset, segmentBaseOffset: active.baseOffset, position: active.size });
    const created = this.createSegment(newBaseOffset);
    if (this.pagedLog) this.cache?.admit(this.pagedLog, active);
    return created;
  }

  /** Kafka's LocalLog.replaceSegments for the cleaner: `cleaned` (flushed whole) takes the place of `old`. */
  replaceSegments(old: readonly LogSegment[], cleaned: LogSegment | null): void {
    this.segments.replace(old, cleaned);
    for (const seg of old) this.cache?.forget(seg);
    for (const seg of old) {
      if (!cleaned || seg.baseOffset !== cleaned.baseOffset) this.deleteSegmentFiles(seg);
    }
    if (cleaned) {
      // Kafka writes `.cleaned` files, flushes them and swaps them in; the Store's write() replaces a file whole.
      this.writer.submit({ op: 'write', path: this.path(cleaned.logFileName), bytes: cleaned.log.copy() });
      this.writer.submit({ op: 'write', path: this.path(cleaned.indexFileName), bytes: cleaned.offsetIndex.toBytes() });
      this.writer.submit({
        op: 'write',
        path: this.path(cleaned.timeIndexFileName),
        bytes: cleaned.timeIndex.toBytes(),
      });
      cleaned.flushedBytes = cleaned.size;
      cleaned.flushedOffsetIndexEntries = cleaned.offsetIndex.entries;
      cleaned.flushedTimeIndexEntries = cleaned.timeIndex.entries;
      if (this.pagedLog) this.cache?.admit(this.pagedLog, cleaned);
    }
  }

  // ---------------------------------------------------------------- truncation

  /**
   * Kafka's LocalLog.truncateTo, for 0 <= targetOffset < logEndOffset at or above the first
   * segment: deletes the segments above it and cuts the one holding it. A segment paged out is
   * deleted whole instead (see truncateToPagedOut); the log may then end below `targetOffset`.
   */
  truncateTo(targetOffset: number): void {
    const floor = this.segments.floorSegment(targetOffset) as LogSegment;
    if (!floor.resident) {
      this.truncateToPagedOut(floor);
      return;
    }
    this.removeAndDeleteSegments(this.segments.values.filter((seg) => seg.baseOffset > targetOffset));
    const seg = this.activeSegment;
    const before = { bytes: seg.flushedBytes, index: seg.flushedOffsetIndexEntries, time: seg.flushedTimeIndexEntries };
    seg.truncateTo(targetOffset);
    this.syncTruncation(seg, before);
    this._recoveryPoint = Math.min(this._recoveryPoint, this.logEndOffset);
    this.durable.truncatedTo(this.logEndPoint());
  }

  /**
   * Truncation into a paged-out segment (only an unclean election cuts below the high
   * watermark): the engine cannot wait for its bytes, so the whole segment goes and an empty one
   * takes its base offset, as if it had been cut to zero bytes. A follower then fetches the
   * difference from the leader again, which holds it.
   */
  private truncateToPagedOut(floor: LogSegment): void {
    this.removeAndDeleteSegments(this.segments.values.filter((seg) => seg.baseOffset >= floor.baseOffset));
    if (this.segments.count === 0) {
      this.truncateFullyAndStartAt(floor.baseOffset);
      return;
    }
    this.createSegment(floor.baseOffset);
    this._recoveryPoint = Math.min(this._recoveryPoint, this.logEndOffset);
  }

  /** Kafka's LocalLog.truncateFullyAndStartAt: deletes every segment and starts empty at `newOffset`. */
  truncateFullyAndStartAt(newOffset: number): void {
    for (const seg of this.segments.values) this.deleteSegmentFiles(seg);
    this.segments.clear();
    this.createSegment(newOffset);
    this._recoveryPoint = newOffset;
    this.durable.reset(this.logEndPoint());
  }

  /** Issues Store truncations for whatever a segment lost below its flushed marks. */
  private syncTruncation(seg: LogSegment, before: { bytes: number; index: number; time: number }): void {
    if (seg.flushedBytes < before.bytes) {
      this.writer.submit({ op: 'truncate', path: this.path(seg.logFileName), size: seg.flushedBytes });
    }
    if (seg.flushedOffsetIndexEntries < before.index) {
      this.writer.submit({
        op: 'truncate',
        path: this.path(seg.indexFileName),
        size: seg.flushedOffsetIndexEntries * 8,
      });
    }
    if (seg.flushedTimeIndexEntries < before.time) {
      this.writer.submit({
        op: 'truncate',
        path: this.path(seg.timeIndexFileName),
        size: seg.flushedTimeIndexEntries * 12,
      });
    }
  }

  // ---------------------------------------------------------------- flush

  /** Hands every unflushed byte and index entry to the Store; recoveryPoint becomes the LEO. */
  flush(): void {
    this.forceFrom(this._recoveryPoint);
    for (const seg of this.unflushedTail()) this.flushSegment(seg);
    this._recoveryPoint = this.logEndOffset;
    this.durable.flushed(this.logEndPoint());
    this._lastFlushTimeMs = this.clock.now();
  }

  /**
   * A write-through Store (StoreWriter.writeThrough): Kafka's LogSegment.append, the append's
   * bytes and index entries written to the files at once (the page cache) without moving the
   * recovery point, which only a flush moves. Without write-through, nothing: bytes wait for the
   * flush.
   */
  writeThrough(): void {
    if (!this.writer.writeThrough) return;
    for (const seg of this.unflushedTail()) this.flushSegment(seg);
    this.durable.flushed(this.logEndPoint());
  }

  /**
   * With write-through, a flush is Kafka's LogSegment.flush of every segment from the one holding
   * `offset` on (LocalLog.flush(offset)): its `.log`, `.index` and `.timeindex` forced to disk.
   * Queued behind the writes it covers; issued before the bytes of this flush only when those
   * were already written through.
   */
  private forceFrom(offset: number): void {
    if (!this.writer.writeThrough || offset >= this.logEndOffset) return;
    for (const seg of this.segments.values.filter((s) => s.nextOffset > offset)) {
      this.writeThroughSegment(seg);
      this.writer.sync(this.path(seg.logFileName));
      this.writer.sync(this.path(seg.indexFileName));
      this.writer.sync(this.path(seg.timeIndexFileName));
    }
  }

  private writeThroughSegment(seg: LogSegment): void {
    if (seg.resident) this.flushSegment(seg);
  }

  /** Bytes (over all segments) only in memory, not yet handed to the Store. */
  unflushedBytes(): number {
    let n = 0;
    for (const s of this.unflushedTail()) n += s.unflushedBytes;
    return n;
  }

  /**
   * The segments that may hold something not yet handed to the Store. Every flush covers all
   * segments, so the flushed ones form a prefix: walking back from the active segment to the
   * first fully flushed one finds them without visiting the (possibly thousands of) older ones.
   */
  private unflushedTail(): readonly LogSegment[] {
    const all = this.segments.values;
    let i = all.length - 1;
    while (i > 0) {
      const s = all[i - 1] as LogSegment;
      if (
        s.flushedBytes === s.size &&
        s.flushedOffsetIndexEntries === s.offsetIndexEntries &&
        s.flushedTimeIndexEntries === s.timeIndexEntries
      )
        break;
      i--;
    }
    return all.slice(i);
  }

  private flushSegment(seg: LogSegment): void {
    if (this.writer.store === null) {
      // A memory-only log: nothing to hand over, so skip materializing the bytes.
      seg.flushedBytes = seg.size;
      seg.flushedOffsetIndexEntries = seg.offsetIndex.entries;
      seg.flushedTimeIndexEntries = seg.timeIndex.entries;
      return;
    }
    if (seg.flushedBytes < seg.size) {
      this.writer.submit({ op: 'append', path: this.path(seg.logFileName), bytes: seg.log.copy(seg.flushedBytes) });
      seg.flushedBytes = seg.size;
    }
    seg.flushedOffsetIndexEntries = this.flushIndex(seg.indexFileName, seg.offsetIndex, seg.flushedOffsetIndexEntries);
    seg.flushedTimeIndexEntries = this.flushIndex(seg.timeIndexFileName, seg.timeIndex, seg.flushedTimeIndexEntries);
  }

  /** Appends the entries of `index` past `flushedEntries` to its file; returns the new flushed count. */
  private flushIndex(fileName: string, index: AbstractIndex, flushedEntries: number): number {
    if (flushedEntries < index.entries)
      this.writer.submit({ op: 'append', path: this.path(fileName), bytes: index.bytesFrom(flushedEntries) });
    return index.entries;
  }

  /**
   * The Store lost every file: drops the segments that were only there (paged out, up to the last
   * such one: a log has no holes) and hands the rest to the Store again, whole, as far as each was
   * flushed. Returns the segments dropped; the active one is never paged out, so one remains.
   */
  /** The Store lost every file (the database was deleted): nothing of this log is durable any more. */
  storeLost(): void {
    const first = this.segments.first as LogSegment;
    this.durable.lost({ offset: first.baseOffset, segmentBaseOffset: first.baseOffset, position: 0 });
  }

  rewriteStoreFiles(): LogSegment[] {
    const all = this.segments.values;
    let lastLost = -1;
    for (let i = 0; i < all.length; i++) if (!(all[i] as LogSegment).resident) lastLost = i;
    const lost = all.slice(0, lastLost + 1);
    for (const seg of lost) {
      this.segments.remove(seg);
      this.cache?.forget(seg); // the Store has no files to delete
    }
    for (const seg of this.segments.values) {
      this.writer.submit({ op: 'write', path: this.path(seg.logFileName), bytes: seg.log.copy(0, seg.flushedBytes) });
      this.writer.submit({
        op: 'write',
        path: this.path(seg.indexFileName),
        bytes: seg.offsetIndex.toBytes().subarray(0, seg.flushedOffsetIndexEntries * 8),
      });
      this.writer.submit({
        op: 'write',
        path: this.path(seg.timeIndexFileName),
        bytes: seg.timeIndex.toBytes().subarray(0, seg.flushedTimeIndexEntries * 12),
      });
    }
    // What was flushed is handed over again: durable once the Store confirms these writes.
    const flushedEnd = this.segments.floorSegment(this._recoveryPoint) ?? (this.segments.first as LogSegment);
    this.storeLost();
    this.durable.flushed({
      offset: this._recoveryPoint,
      segmentBaseOffset: flushedEnd.baseOffset,
      position: flushedEnd.flushedBytes,
    });
    return lost;
  }

  // ---------------------------------------------------------------- read

  outOfRange(offset: number, logStartOffset: number, trace?: readonly unknown[]): KafkaError {
    return new KafkaError(
      'OFFSET_OUT_OF_RANGE',
      `Received request for offset ${offset} for partition ${this.dir}, but we only have log segments in the range ${logStartOffset} to ${this.logEndOffset}.`,
      { offset, logStartOffset, logEndOffset: this.logEndOffset, ...(trace ? { trace } : {}) },
    );
  }

  /**
   * Kafka's LocalLog.read: the bytes starting with the batch that holds `offset`, up to `maxBytes`
   * (the first batch whole when `minOneMessage`; without it, only the first `maxBytes` bytes of a
   * larger one), never a batch holding an offset >= `maxOffset` (replication passes the high
   * watermark here), and never past the end of the segment the read started in. The bytes may end
   * inside a batch, as Kafka's do (LogSegment.read): `batches` and `nextOffset` cover the whole ones.
   */
  read(
    offset: number,
    maxBytes: number,
    maxOffset: number | undefined,
    logStartOffset: number,
    minOneMessage = true,
  ): FetchDataInfo {
    if (!Number.isSafeInteger(offset) || offset < logStartOffset || offset > this.logEndOffset) {
      throw this.outOfRange(offset, logStartOffset);
    }
    const upper = Math.min(maxOffset ?? this.logEndOffset, this.logEndOffset);
    if (offset >= upper) return this.emptyFetch(offset);
    let seg = this.segments.floorSegment(offset);
    while (seg) {
      const read = this.readable(seg).read(offset, maxBytes, upper, minOneMessage);
      if (read) {
        const last = read.batches[read.batches.length - 1];
        return {
          fetchOffsetMetadata: {
            messageOffset: read.firstBatchOffset,
            segmentBaseOffset: seg.baseOffset,
            relativePositionInSegment: read.startPosition,
          },
          // A view, not a copy: the segment's bytes never change (FileRecords), so it is safe to share.
          records: seg.log.view(read.startPosition, read.sliceEnd),
          batches: read.batches,
          nextOffset: last ? last.lastOffset + 1 : offset,
        };
      }
      seg = this.segments.higherSegment(seg);
    }
    return this.emptyFetch(offset);
  }

  private emptyFetch(offset: number): FetchDataInfo {
    const active = this.activeSegment;
    return {
      fetchOffsetMetadata: {
        messageOffset: offset,
        segmentBaseOffset: active.baseOffset,
        relativePositionInSegment: active.size,
      },
      records: NO_BYTES,
      batches: [],
      nextOffset: offset,
    };
  }
}
