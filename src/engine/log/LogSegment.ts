import type { RecordBatchHeader } from '../codec';
import {
  ATTRIBUTES_OFFSET,
  CRC_OFFSET,
  MAX_TIMESTAMP_OFFSET,
  NO_TIMESTAMP,
  TIMESTAMP_TYPE_MASK,
  crc32c,
  readBatchHeader,
  writeInt32At,
  writeInt64At,
} from '../codec';
import { CorruptRecordError } from '../errors';
import { FileRecords } from './FileRecords';
import type { LeaderEpochFileCache } from './LeaderEpochFileCache';
import { batchHeaderStep, type LookupStep } from './LookupTrace';
import { OffsetIndex } from './OffsetIndex';
import { SegmentState } from './SegmentState';
import { recoverBatches, type SegmentRecoveryResult } from './SegmentRecovery';
import { TimeIndex } from './TimeIndex';

export type { SegmentRecoveryResult } from './SegmentRecovery';

const INT32_MAX = 2147483647;

/** Kafka's LogOffsetPosition: the batch holding an offset, where it starts and how big it is. */
export interface LogOffsetPosition {
  /** The batch's base offset. */
  offset: number;
  position: number;
  size: number;
  header: RecordBatchHeader;
  /** Batch headers read by the forward scan to get here (including this one). */
  headersRead: number;
}

/** What LogSegment.read found: the byte range [startPosition, endPosition) of whole batches. */
export interface LogReadResult {
  /** Base offset of the first batch read (it may start before the requested offset). */
  firstBatchOffset: number;
  startPosition: number;
  /** Where the whole batches read end. */
  endPosition: number;
  /** Where the bytes returned end (Kafka's slice): past `endPosition` when it cuts a batch. */
  sliceEnd: number;
  batches: RecordBatchHeader[];
}

/** Kafka's RollParams: what an append brings, for shouldRoll. */
export interface RollParams {
  maxSegmentBytes: number;
  maxSegmentMs: number;
  messagesSize: number;
  maxTimestampInMessages: number;
  maxOffsetInMessages: number;
  now: number;
}

/** Why a segment rolled; null when it should not. */
export type RollReason = 'segment.bytes' | 'segment.ms' | 'index-full' | 'timeindex-full' | 'relative-offset-overflow';

/**
 * One segment of a partition log (Kafka's LogSegment): a `.log` of record batches, its sparse
 * `.index` and `.timeindex`, and a base offset that is the first offset it may hold and its name.
 *
 * Invariants:
 *  - offsets in the `.log` strictly increase from batch to batch and are >= baseOffset;
 *  - `bytesSinceLastIndexEntry` counts the bytes appended since the last index entry by this
 *    segment object, as Kafka's: 0 when the segment is opened from its files (the LogSegment
 *    constructor), after `recover` (which counts in a local) and after `truncateTo`, so the first
 *    append after a restart or a truncation is indexed only once `index.interval.bytes` more have
 *    been appended. An index rebuilt from the bytes may therefore differ from the one the appends
 *    wrote, as in Kafka. A multi-batch append (a follower's fetch) indexes once per append, as
 *    Kafka's LogSegment.append, so its entries are fewer than a per-batch rebuild's;
 *  - `flushedBytes` <= size: bytes [0, flushedBytes) were handed to the Store, the rest live only
 *    in memory (the page cache) and are lost on a power failure;
 *  - a closed segment whose bytes are all in the Store may be paged out (SegmentCache): its `.log`
 *    bytes and its index objects leave memory; offsets, timestamps, size and index entry counts
 *    stay, as a row of the cache's PagedOutSegments table (SegmentState). Reading `log`, `offsetIndex` or `timeIndex` then throws SegmentNotLoadedError until
 *    `reload` brings the very same bytes back with the stored `.index` / `.timeindex` (rebuilt
 *    from the bytes when those are not whole). At 64 KiB segments an index object costs as
 *    much memory as a hundred index entries, and a long run has hundreds of thousands of segments.
 */
/** A segment's `.index` and `.timeindex` files as the Store holds them (null: none). */
export interface StoredIndexes {
  index: Uint8Array | null;
  timeIndex: Uint8Array | null;
}

export class LogSegment extends SegmentState {
  constructor(
    baseOffset: number,
    indexIntervalBytes: number,
    maxIndexSize: number,
    nowMs: number,
    log?: FileRecords,
    maxSegmentBytes?: number,
  ) {
    super(baseOffset, {
      log: log ?? new FileRecords(4096, maxSegmentBytes),
      offsetIndex: new OffsetIndex(baseOffset, maxIndexSize),
      timeIndex: new TimeIndex(baseOffset, maxIndexSize),
      indexIntervalBytes,
      bytesSinceLastIndexEntry: 0,
      maxTimestampSoFar: NO_TIMESTAMP,
      offsetOfMaxTimestampSoFar: -1,
      nextOffset: baseOffset,
      createdMs: nowMs,
      lastModifiedMs: nowMs,
      rollingBasedTimestamp: null,
      flushedBytes: 0,
      flushedOffsetIndexEntries: 0,
      flushedTimeIndexEntries: 0,
      names: null,
    });
  }

  protected notLoaded(): Error {
    return new SegmentNotLoadedError(this);
  }

  /**
   * Takes the `.log` bytes back from the Store. They must be exactly the file that was paged out
   * (same length; the batches are checked again by whoever reads them): anything else is a Store
   * that lost data, refused with CORRUPT_MESSAGE and the segment left paged out.
   */
  reload(bytes: Uint8Array, stored?: StoredIndexes): void {
    const cold = this.cold;
    if (this.hot !== null || cold === null) return;
    const out = cold.fields(this.row);
    // Recovering the bytes on a scratch segment checks every batch and rebuilds the indexes.
    const scratch = new LogSegment(this.baseOffset, out.indexIntervalBytes, out.maxIndexSize, 0, FileRecords.of(bytes));
    if (bytes.length === out.size) scratch.recover();
    // The stored index files are what the appends wrote; they win when whole (a follower's
    // multi-batch appends index fewer entries than a per-batch rebuild).
    if (stored?.index && stored.index.length === out.offsetIndexEntries * OffsetIndex.ENTRY_SIZE) {
      scratch._offsetIndex = OffsetIndex.fromBytes(this.baseOffset, out.maxIndexSize, stored.index);
    }
    if (stored?.timeIndex && stored.timeIndex.length === out.timeIndexEntries * TimeIndex.ENTRY_SIZE) {
      scratch._timeIndex = TimeIndex.fromBytes(this.baseOffset, out.maxIndexSize, stored.timeIndex);
    }
    if (
      bytes.length !== out.size ||
      scratch.size !== out.size ||
      scratch.offsetIndexEntries !== out.offsetIndexEntries ||
      scratch.timeIndexEntries !== out.timeIndexEntries
    ) {
      throw new CorruptRecordError(
        `${this.logFileName} came back from the store as ${bytes.length} bytes that are not the ${out.size} paged out`,
        { expected: out.size, actual: bytes.length },
      );
    }
    // The numbers are the row's, not the scratch's: a rebuild may not restore them all.
    this.hot = {
      log: scratch._log as FileRecords,
      offsetIndex: scratch._offsetIndex as OffsetIndex,
      timeIndex: scratch._timeIndex as TimeIndex,
      indexIntervalBytes: out.indexIntervalBytes,
      bytesSinceLastIndexEntry: 0,
      maxTimestampSoFar: out.maxTimestampSoFar,
      offsetOfMaxTimestampSoFar: out.offsetOfMaxTimestampSoFar,
      nextOffset: out.nextOffset,
      createdMs: out.createdMs,
      lastModifiedMs: out.lastModifiedMs,
      rollingBasedTimestamp: out.rollingBasedTimestamp,
      flushedBytes: out.size,
      flushedOffsetIndexEntries: out.offsetIndexEntries,
      flushedTimeIndexEntries: out.timeIndexEntries,
      names: null,
    };
    cold.release(this.row);
    this.cold = null;
    this.row = -1;
  }

  /** `<20-digit base offset>.log`, `.index`, `.timeindex`. */
  get logFileName(): string {
    return this.names.log;
  }

  get indexFileName(): string {
    return this.names.index;
  }

  get timeIndexFileName(): string {
    return this.names.timeIndex;
  }

  /** Bytes only in memory, not yet handed to the Store. */
  get unflushedBytes(): number {
    return this.size - this.flushedBytes;
  }

  /** Kafka's getFirstBatchTimestamp: the first batch's max timestamp, Long.MAX_VALUE when none is known. */
  get firstBatchTimestamp(): number {
    const ts = this.rollingBasedTimestamp;
    return ts !== null && ts >= 0 ? ts : Number.MAX_SAFE_INTEGER;
  }

  /** Kafka's largestTimestamp: the max record timestamp, or the last modification time when none. */
  get largestTimestamp(): number {
    return this.maxTimestampSoFar >= 0 ? this.maxTimestampSoFar : this.lastModifiedMs;
  }

  /**
   * Appends a follower's batch (src[start, start+size)) exactly as the leader wrote it, keeping
   * the bytes rather than copying them: `src` must never change (see FileRecords.adopt). Indexes
   * as appendBatch does.
   */
  adoptBatch(
    src: Uint8Array,
    start: number,
    size: number,
    lastOffset: number,
    maxTimestamp: number,
    nowMs: number,
  ): number {
    const position = this.adoptBytes(src, start, size);
    this.recordAppend(position, size, lastOffset, maxTimestamp, lastOffset, nowMs);
    return position;
  }

  /** The byte half of adoptBatch: keeps the batch's bytes, updates no index or offset. */
  adoptBytes(src: Uint8Array, start: number, size: number): number {
    return this.log.adopt(start === 0 && size === src.length ? src : src.subarray(start, start + size));
  }

  /**
   * Appends one batch (src[start, start+size)) whose offsets are already assigned, writing
   * `baseOffset` and, when given, `partitionLeaderEpoch` into the copy (neither field is covered
   * by the CRC), as one append of its own (Kafka's LogSegment.append of a one-batch MemoryRecords).
   */
  appendBatch(
    src: Uint8Array,
    start: number,
    size: number,
    baseOffset: number,
    lastOffset: number,
    maxTimestamp: number,
    partitionLeaderEpoch: number | null,
    nowMs: number,
  ): number {
    const position = this.writeBatch(src, start, size, baseOffset, partitionLeaderEpoch);
    this.recordAppend(position, size, lastOffset, maxTimestamp, lastOffset, nowMs);
    return position;
  }

  /** The byte half of appendBatch: copies and patches the batch, updates no index or offset. */
  writeBatch(
    src: Uint8Array,
    start: number,
    size: number,
    baseOffset: number,
    partitionLeaderEpoch: number | null,
  ): number {
    const position = this.log.append(src, start, start + size);
    const b = this.log.backing;
    const hi = Math.floor(baseOffset / 4294967296);
    const lo = baseOffset - hi * 4294967296;
    b[position] = hi >>> 24;
    b[position + 1] = hi >>> 16;
    b[position + 2] = hi >>> 8;
    b[position + 3] = hi;
    b[position + 4] = lo >>> 24;
    b[position + 5] = lo >>> 16;
    b[position + 6] = lo >>> 8;
    b[position + 7] = lo;
    if (partitionLeaderEpoch !== null) {
      b[position + 12] = partitionLeaderEpoch >>> 24;
      b[position + 13] = partitionLeaderEpoch >>> 16;
      b[position + 14] = partitionLeaderEpoch >>> 8;
      b[position + 15] = partitionLeaderEpoch;
    }
    return position;
  }

  /**
   * LogValidator's MutableRecordBatch.setMaxTimestamp(CREATE_TIME, maxBatchTimestamp) on a batch
   * just written at `position`: the max timestamp its records carry, and the CRC recomputed.
   */
  stampMaxTimestamp(position: number, size: number, timestamp: number): void {
    const b = this.log.backing;
    writeInt64At(b, position + MAX_TIMESTAMP_OFFSET, timestamp);
    writeInt32At(b, position + CRC_OFFSET, crc32c(b, position + ATTRIBUTES_OFFSET, position + size));
  }

  /**
   * LogValidator's in-place LogAppendTime assignment (MutableRecordBatch.setMaxTimestamp) on a
   * batch just written at `position`: sets the timestamp-type bit, writes `timestamp` as the max
   * timestamp and recomputes the CRC, which covers both.
   */
  stampLogAppendTime(position: number, size: number, timestamp: number): void {
    const b = this.log.backing;
    const attributes =
      ((b[position + ATTRIBUTES_OFFSET] as number) << 8) | (b[position + ATTRIBUTES_OFFSET + 1] as number);
    const stamped = attributes | TIMESTAMP_TYPE_MASK;
    b[position + ATTRIBUTES_OFFSET] = stamped >>> 8;
    b[position + ATTRIBUTES_OFFSET + 1] = stamped;
    writeInt64At(b, position + MAX_TIMESTAMP_OFFSET, timestamp);
    writeInt32At(b, position + CRC_OFFSET, crc32c(b, position + ATTRIBUTES_OFFSET, position + size));
  }

  /**
   * Kafka's LogSegment.append bookkeeping for one append of `size` bytes written at `position`
   * (one or more batches, via writeBatch / adoptBytes): at most one index entry per append, mapping
   * the append's largest offset to its first byte, so a follower's multi-batch fetch indexes once.
   */
  recordAppend(
    position: number,
    size: number,
    largestOffset: number,
    largestTimestamp: number,
    shallowOffsetOfMaxTimestamp: number,
    nowMs: number,
  ): void {
    if (position === 0) this.rollingBasedTimestamp = largestTimestamp;
    this.indexBatch(position, size, largestOffset, largestTimestamp, shallowOffsetOfMaxTimestamp);
    this.nextOffset = largestOffset + 1;
    this.lastModifiedMs = nowMs;
  }

  /** The index step shared by an append (per append) and recover (per batch, as Kafka's recover). */
  private indexBatch(
    position: number,
    size: number,
    lastOffset: number,
    maxTimestamp: number,
    offsetOfMaxTimestamp = lastOffset,
  ): void {
    if (maxTimestamp > this.maxTimestampSoFar) {
      this.setMaxTimestampAndOffsetSoFar(maxTimestamp, offsetOfMaxTimestamp);
    }
    if (this.bytesSinceLastIndexEntry > this.indexIntervalBytes) {
      if (!this.offsetIndex.isFull()) this.offsetIndex.append(lastOffset, position);
      if (!this.timeIndex.isFull()) this.timeIndex.maybeAppend(this.maxTimestampSoFar, this.offsetOfMaxTimestampSoFar);
      this.bytesSinceLastIndexEntry = 0;
    }
    this.bytesSinceLastIndexEntry += size;
  }

  /** Kafka's shouldRoll: why this segment must roll before taking an append, or null. */
  shouldRoll(p: RollParams): RollReason | null {
    const size = this.size;
    if (size > p.maxSegmentBytes - p.messagesSize) return 'segment.bytes';
    if (size > 0 && this.timeWaitedForRoll(p.now, p.maxTimestampInMessages) > p.maxSegmentMs) return 'segment.ms';
    if (this.offsetIndex.isFull()) return 'index-full';
    if (this.timeIndex.isFull()) return 'timeindex-full';
    if (p.maxOffsetInMessages - this.baseOffset > INT32_MAX) return 'relative-offset-overflow';
    return null;
  }

  /**
   * How long this segment has been open, by record time when records carry timestamps (the first
   * batch's max timestamp vs the incoming batch's), else by clock time since creation.
   */
  timeWaitedForRoll(now: number, messageTimestamp: number): number {
    const ts = this.rollingBasedTimestamp;
    if (ts !== null && ts >= 0) return messageTimestamp - ts;
    return now - this.createdMs;
  }

  /** Called when a newer segment takes over: writes the final time index entry (Kafka does the same). */
  onBecomeInactiveSegment(): void {
    this.timeIndex.maybeAppend(this.maxTimestampSoFar, this.offsetOfMaxTimestampSoFar, true);
  }

  /**
   * Kafka's translateOffset: the first batch whose last offset is >= `offset`, found by an index
   * lookup and then a forward scan of batch headers from max(index position, startingPosition).
   * Null when the segment holds no such batch.
   */
  translateOffset(offset: number, startingPosition = 0, trace?: LogStepsSink): LogOffsetPosition | null {
    const mapping = this.offsetIndex.lookup(offset, trace);
    return this.searchForOffset(offset, Math.max(mapping.position, startingPosition), trace);
  }

  /**
   * Kafka's LogSegment.read: the bytes from the batch holding `startOffset`, at most `maxSize` of
   * them (at least the first batch when `minOneMessage`: Kafka's adjustedMaxSize), ending before
   * the first batch holding an offset >= `maxOffset` (Kafka's maxPosition). A byte slice, not a
   * batch list: it may end inside a batch (FileRecords.slice), whose first bytes the reader
   * discards; `batches` and `endPosition` cover the whole batches, `sliceEnd` the slice. Null when
   * this segment has no batch reaching `startOffset`.
   */
  read(
    startOffset: number,
    maxSize: number,
    maxOffset = Number.MAX_SAFE_INTEGER,
    minOneMessage = true,
  ): LogReadResult | null {
    const found = this.translateOffset(startOffset);
    if (!found) return null;
    const batches: RecordBatchHeader[] = [];
    const bytes = this.log.view();
    const adjustedMaxSize = minOneMessage ? Math.max(maxSize, found.size) : maxSize;
    const fetchEnd = found.position + Math.min(Math.max(0, adjustedMaxSize), bytes.length - found.position);
    let maxPosition = bytes.length;
    let position = found.position;
    while (position < bytes.length) {
      // The first header was just read by translateOffset.
      const h = position === found.position ? found.header : readBatchHeader(bytes, position);
      if (h.lastOffset >= maxOffset) {
        maxPosition = position;
        break;
      }
      if (position + h.sizeInBytes > fetchEnd) break;
      batches.push(h);
      position += h.sizeInBytes;
    }
    return {
      firstBatchOffset: found.offset,
      startPosition: found.position,
      endPosition: position,
      sliceEnd: Math.min(maxPosition, fetchEnd),
      batches,
    };
  }

  /** FileRecords.searchForOffsetWithSize: reads headers only, batch by batch. */
  searchForOffset(offset: number, fromPosition: number, trace?: LogStepsSink): LogOffsetPosition | null {
    const found = this.scanBatches(
      fromPosition,
      (h) => h.lastOffset >= offset,
      (h, position, match) =>
        match
          ? `The batch at byte ${position} holds offsets ${h.baseOffset}..${h.lastOffset}, which includes ${offset}: stop scanning.`
          : `The batch at byte ${position} ends at offset ${h.lastOffset} < ${offset}: skip its ${h.sizeInBytes} bytes to byte ${position + h.sizeInBytes}.`,
      trace,
    );
    if (!found) return null;
    const { header, position, headersRead } = found;
    return { offset: header.baseOffset, position, size: header.sizeInBytes, header, headersRead };
  }

  /**
   * Reads batch headers forward from `fromPosition` until one matches (a trace step for each,
   * explained by `explain`): the scan of FileRecords.searchForOffsetWithSize and
   * searchForTimestamp.
   */
  private scanBatches(
    fromPosition: number,
    matches: (header: RecordBatchHeader) => boolean,
    explain: (header: RecordBatchHeader, position: number, match: boolean) => string,
    trace?: LogStepsSink,
  ): { header: RecordBatchHeader; position: number; headersRead: number } | null {
    const size = this.size;
    let position = fromPosition;
    let headersRead = 0;
    const bytes = this.log.view();
    while (position < size) {
      const header = readBatchHeader(bytes, position);
      headersRead++;
      const match = matches(header);
      trace?.push(batchHeaderStep(position, header, match, explain(header, position, match)));
      if (match) return { header, position, headersRead };
      position += header.sizeInBytes;
    }
    return null;
  }

  /** Every batch header in order, with its position. */
  *batches(fromPosition = 0): Generator<RecordBatchHeader> {
    let position = fromPosition;
    const size = this.size;
    while (position < size) {
      const header = this.log.header(position);
      yield header;
      position += header.sizeInBytes;
    }
  }

  /**
   * Kafka's findOffsetByTimestamp: the time index gives the last entry with timestamp <= ts, the
   * offset index turns its offset into a position, and the scan returns the first batch whose
   * max timestamp is >= ts. The caller then picks the record inside that batch.
   */
  findBatchByTimestamp(
    timestamp: number,
    startingOffset: number,
    trace?: LogStepsSink,
  ): { position: number; header: RecordBatchHeader } | null {
    const entry = this.timeIndex.lookup(timestamp, trace);
    const mapping = this.offsetIndex.lookup(Math.max(entry.offset, startingOffset), trace);
    const found = this.scanBatches(
      mapping.position,
      (h) => h.maxTimestamp >= timestamp && h.lastOffset >= startingOffset,
      (h, position, match) =>
        match
          ? `The batch at byte ${position} has max timestamp ${h.maxTimestamp} >= ${timestamp}: the answer is inside it.`
          : `The batch at byte ${position} has max timestamp ${h.maxTimestamp} < ${timestamp}: skip ${h.sizeInBytes} bytes.`,
      trace,
    );
    return found ? { position: found.position, header: found.header } : null;
  }

  /**
   * Kafka's LogSegment.recover: validates every batch (length, magic, CRC, offsets in range and
   * increasing), truncates the file at the first bad or torn batch, and rebuilds both indexes
   * from the valid batches, ending with the time index entry a clean close would have written.
   * Leader epochs found in the batches are assigned to `epochCache` as Kafka does.
   */
  recover(epochCache?: LeaderEpochFileCache): SegmentRecoveryResult {
    this.offsetIndex.reset();
    this.timeIndex.reset();
    const scan = recoverBatches(
      this.log,
      this.baseOffset,
      this.indexIntervalBytes,
      this.offsetIndex,
      this.timeIndex,
      epochCache,
    );
    this.nextOffset = scan.nextOffset;
    this.setMaxTimestampAndOffsetSoFar(scan.maxTimestamp, scan.offsetOfMaxTimestamp);
    this.rollingBasedTimestamp = scan.rollingBasedTimestamp;
    const validBytes = scan.validBytes;
    const truncated = this.log.truncateTo(validBytes);
    if (this.flushedBytes > validBytes) this.flushedBytes = validBytes;
    this.timeIndex.maybeAppend(this.maxTimestampSoFar, this.offsetOfMaxTimestampSoFar, true);
    return {
      batchesValidated: scan.batches,
      recordsValidated: scan.records,
      validBytes,
      bytesTruncated: truncated,
      truncationReason: truncated > 0 ? scan.reason : null,
      truncatedAtPosition: truncated > 0 ? validBytes : null,
    };
  }

  /**
   * Kafka's LogSegment.truncateTo: removes every batch holding an offset >= `offset` (from the
   * start of the batch containing it) and the index entries pointing there. Returns bytes removed.
   */
  truncateTo(offset: number): number {
    const mapping = this.translateOffset(offset);
    this.offsetIndex.truncateTo(offset);
    this.timeIndex.truncateTo(offset);
    if (mapping === null) return 0;
    const removed = this.log.truncateTo(mapping.position);
    if (this.flushedBytes > mapping.position) this.flushedBytes = mapping.position;
    this.recomputeStateAfterTruncation();
    return removed;
  }

  /** Re-derives nextOffset, max timestamp and the index counter from what remains. */
  private recomputeStateAfterTruncation(): void {
    // Drop index entries that point at or past the new end (they referenced removed batches).
    while (this.offsetIndex.entries > 0 && this.offsetIndex.lastPosition >= this.size) {
      this.offsetIndex.truncateToEntries(this.offsetIndex.entries - 1);
    }
    this.setMaxTimestampAndOffsetSoFar(NO_TIMESTAMP, -1);
    this.nextOffset = this.baseOffset;
    this.rollingBasedTimestamp = null;
    for (const h of this.batches()) {
      if (h.position === 0) this.rollingBasedTimestamp = h.maxTimestamp;
      if (h.maxTimestamp > this.maxTimestampSoFar) {
        this.setMaxTimestampAndOffsetSoFar(h.maxTimestamp, h.lastOffset);
      }
      this.nextOffset = h.lastOffset + 1;
    }
    // Kafka's LogSegment.truncateTo: bytesSinceLastIndexEntry = 0.
    this.bytesSinceLastIndexEntry = 0;
    if (this.flushedOffsetIndexEntries > this.offsetIndex.entries)
      this.flushedOffsetIndexEntries = this.offsetIndex.entries;
    if (this.flushedTimeIndexEntries > this.timeIndex.entries) this.flushedTimeIndexEntries = this.timeIndex.entries;
  }

  /**
   * Kafka's LogSegment.open + sanityCheck, for a segment that is not recovered (below the recovery
   * point, or after a clean shutdown): the stored `.index` and `.timeindex` are taken as they are
   * (a missing `.timeindex` starts empty, as a newly created one). As Kafka, only the tail is read:
   * the next offset from the batches after the last `.index` entry (readNextOffset), the max
   * timestamp from the `.timeindex`'s last entry and that tail (maxTimestampAndOffsetSoFar); the first batch's
   * header gives the roll timestamp (Kafka's loadFirstBatchTimestamp, read here at once since the
   * bytes may be paged out later). No CRC is checked. Returns null when the segment is open, or
   * why it must be recovered instead (Kafka's NoSuchFileException / CorruptIndexException; a tail
   * batch that runs past the end of the file is not trusted either), leaving the indexes to `recover`.
   */
  openWithoutRecovery(stored: StoredIndexes): string | null {
    const max = this.offsetIndex.maxIndexSize;
    if (!stored.index) return `${this.indexFileName} is missing`;
    if (stored.index.length % OffsetIndex.ENTRY_SIZE !== 0)
      return `corrupt ${this.indexFileName}: its size ${stored.index.length} is not a multiple of ${OffsetIndex.ENTRY_SIZE}`;
    if (stored.timeIndex && stored.timeIndex.length % TimeIndex.ENTRY_SIZE !== 0)
      return `corrupt ${this.timeIndexFileName}: its size ${stored.timeIndex.length} is not a multiple of ${TimeIndex.ENTRY_SIZE}`;
    const offsetIndex = OffsetIndex.fromBytes(this.baseOffset, max, stored.index);
    if (offsetIndex.entries > 0 && offsetIndex.lastOffset < this.baseOffset)
      return `corrupt ${this.indexFileName}: its last offset ${offsetIndex.lastOffset} is below the base offset ${this.baseOffset}`;
    const timeIndex = stored.timeIndex
      ? TimeIndex.fromBytes(this.baseOffset, max, stored.timeIndex)
      : new TimeIndex(this.baseOffset, max);
    const size = this.size;
    if (offsetIndex.lastPosition > 0 && offsetIndex.lastPosition >= size)
      return `corrupt ${this.indexFileName}: its last entry points past the end of ${this.logFileName}`;
    // maxTimestampAndOffsetSoFar: the .timeindex's last entry. Kafka's LogSegment.close appends
    // the final entry at shutdown; glassbox's shutdown does not, so the tail read below, which
    // covers every batch after that entry, supplies it.
    const last = timeIndex.lastEntry();
    let maxTimestamp = last.timestamp;
    let offsetOfMax = timeIndex.entries > 0 ? last.offset : -1;
    // readNextOffset: the batches from the last index entry on (translateOffset starts there).
    let position = offsetIndex.lastPosition;
    let next = this.baseOffset;
    while (position < size) {
      if (size - position < 61) return `a batch header at byte ${position} runs past the end of ${this.logFileName}`;
      const h = this.log.header(position);
      if (h.magic !== 2 || h.sizeInBytes < 61 || position + h.sizeInBytes > size)
        return `the batch at byte ${position} runs past the end of ${this.logFileName}`;
      next = h.lastOffset + 1;
      position += h.sizeInBytes;
      if (h.maxTimestamp > maxTimestamp) {
        maxTimestamp = h.maxTimestamp;
        offsetOfMax = h.lastOffset;
      }
    }
    if (offsetIndex.entries > 0 && offsetIndex.lastOffset >= next)
      return `corrupt ${this.indexFileName}: its last entry points past the end of ${this.logFileName}`;
    const first = size >= 61 ? this.log.header(0).maxTimestamp : null;
    this._offsetIndex = offsetIndex;
    this._timeIndex = timeIndex;
    this.nextOffset = next;
    this.setMaxTimestampAndOffsetSoFar(maxTimestamp, offsetOfMax);
    this.rollingBasedTimestamp = first;
    return null;
  }

  /** Rebuilds the indexes from the `.log` into fresh objects, leaving this segment untouched. */
  rebuiltIndexes(): { offsetIndex: OffsetIndex; timeIndex: TimeIndex } {
    const copy = new LogSegment(
      this.baseOffset,
      this.indexIntervalBytes,
      this.offsetIndex.maxIndexSize,
      0,
      FileRecords.of(this.log.copy()),
    );
    copy.recover();
    return { offsetIndex: copy.offsetIndex, timeIndex: copy.timeIndex };
  }
}

/**
 * Thrown by a read of a segment whose `.log` bytes are paged out (LogSegment.log). Not a Kafka
 * error: a broker's read would block on the disk instead. The engine's own read paths turn it
 * into "no data yet" (a fetch waits, as for a slow disk) after asking for the load; a host's read
 * (a lookup, the inspector, an export) awaits SegmentCache.load and asks again.
 */
export class SegmentNotLoadedError extends Error {
  constructor(readonly segment: LogSegment) {
    super(`${segment.logFileName} is paged out; it must be read back from the store first`);
    this.name = 'SegmentNotLoadedError';
  }
}

/** Where trace steps go (a plain array). */
export type LogStepsSink = LookupStep[];
