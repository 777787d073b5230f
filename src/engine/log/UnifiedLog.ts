import type { Clock } from '../Clock';
import type { RecordBatch, RecordBatchHeader } from '../codec';
import { decodeRecordBatches, wholeBatches } from '../codec';
import { KafkaError } from '../errors';
import type { Store } from '../Store';
import { LeaderEpochFileCache } from './LeaderEpochFileCache';
import { type FetchDataInfo, LocalLog, type SegmentInfo } from './LocalLog';
import { type CleanerResult, cleanLocalLog } from './LogCleaner';
import type { CleanerLogView } from './LogCleanerManager';
import type { LogConfig, LogConfigInput } from './LogConfig';
import { createLogConfig, isCompacted, segmentJitterMs } from './LogConfig';
import { LEADER_EPOCH_CHECKPOINT_FILENAME } from './LogFileUtils';
import type { LoadParams, LogRecoveryReport } from './LogLoader';
import { finishLoad, loadProducerSnapshots, loadSegments, RECOVER_EVERYTHING } from './LogLoader';
import type { LogSegment } from './LogSegment';
import type { LookupStep } from './LookupTrace';
import {
  type LookupOptions,
  type OffsetLookupAnswer,
  type TimestampLookupAnswer,
  lookupOffset,
  lookupTimestamp,
} from './OffsetLookup';
import { ProducerSnapshotFiles } from './ProducerSnapshotFiles';
import type { PagedLog, SegmentCache } from './SegmentCache';
import { StoreWriter } from './StoreWriter';
import type { AppendedBatchInfo, LogAppendInfo } from './LogAppendInfo';
import { type DeletedSegment, deleteOldSegments, type RetentionResult } from './LogRetention';
import { analyzeAndValidateRecords, assignOffsets, recompress } from './LogValidator';
import type { UnifiedLogOptions } from './UnifiedLogOptions';

export type { AppendedBatchInfo, LogAppendInfo } from './LogAppendInfo';
export type { DeletedSegment, RetentionReason, RetentionResult } from './LogRetention';
export type { UnifiedLogOptions } from './UnifiedLogOptions';

/**
 * One replica's log of one partition (Kafka's UnifiedLog over LocalLog, which holds the
 * segments, the last of which is active; OffsetLookup has the traced lookups). It assigns offsets on append (the leader) or keeps the
 * leader's (a follower), rolls segments on segment.bytes / segment.ms / a full index, serves
 * reads and lookups, truncates for replication, applies retention and compaction, and hands
 * flushed bytes to the Store through a StoreWriter without ever awaiting it.
 *
 * Invariants:
 *  - logStartOffset <= highWatermark <= logEndOffset; logStartOffset = first segment's base offset;
 *  - offsets strictly increase through the segments (contiguous unless compaction removed some);
 *  - recoveryPoint <= logEndOffset: offsets below it have been handed to the Store;
 *  - durableOffset <= logEndOffset: offsets below it are confirmed by the Store (see DurableOffset, LocalLog);
 *  - a failed append, truncation or config change throws a KafkaError and changes nothing;
 *  - with a SegmentCache, only closed segments whose bytes are durable in the Store, entirely
 *    below the high watermark, of a log that is not compacted, are ever paged out (isPageable).
 */
export class UnifiedLog implements PagedLog {
  readonly dir: string;
  private readonly clock: Clock;
  /** The segments as files (Kafka's LocalLog): roll, read, flush, truncate, delete. */
  readonly localLog: LocalLog;
  readonly leaderEpochCache = new LeaderEpochFileCache();
  /** The producer state's bytes for the snapshots a roll or shutdown writes (see attachProducerSnapshots). */
  private producerSnapshotSource: (() => Uint8Array) | null = null;
  /** This dir's `.snapshot` files; their bytes only while their segment is in memory (pagedOut). */
  readonly producerSnapshots = new ProducerSnapshotFiles(
    (op) => this.writer.submit(op),
    (name) => this.local.path(name),
  );
  private _logStartOffset: number;
  private _highWatermark: number;
  /**
   * Whether the log was loaded after a clean shutdown (false for a new log or one loaded after a
   * crash). A log rebuilt after a crash gets a producer snapshot at its end once its producer state
   * is rebuilt (UnifiedLog.rebuildProducerState -> takeSnapshot).
   */
  hadCleanShutdown = false;

  constructor(options: UnifiedLogOptions) {
    this.dir = options.dir;
    this.clock = options.clock;
    const start = options.logStartOffset ?? 0;
    if (!Number.isSafeInteger(start) || start < 0) {
      throw new KafkaError('INVALID_REQUEST', `invalid log start offset ${start}`, { logStartOffset: start });
    }
    this.localLog = new LocalLog({
      dir: options.dir,
      config: toConfig(options.config),
      clock: options.clock,
      writer: options.writer ?? new StoreWriter(null),
      startOffset: start,
      recoveredSegments: options.recoveredSegments ?? [],
      ...(options.recoveryPoint !== undefined ? { recoveryPoint: options.recoveryPoint } : {}),
      onDeleteSegmentFiles: (seg) => this.producerSnapshots.deleteFile(seg.baseOffset),
    });
    this._logStartOffset = (this.local.segments.first as LogSegment).baseOffset;
    this._highWatermark = this._logStartOffset;
    if (options.cache) this.attachCache(options.cache);
  }

  private get local(): LocalLog {
    return this.localLog;
  }

  get writer(): StoreWriter {
    return this.local.writer;
  }

  /** Puts this log's closed segments under `cache` (a recovered log joins its engine's cache). */
  attachCache(cache: SegmentCache): void {
    this.local.attachCache(cache, this);
  }

  /**
   * Whether `seg` may leave memory: closed, every byte flushed and the Store done with its `.log`
   * (LocalLog.isPageable), wholly below the high watermark (replication never truncates there
   * but in an unclean election, see truncateTo), and the log not compacted (the cleaner reads
   * every closed segment; a compacted log is bounded by its keys).
   */
  isPageable(seg: LogSegment): boolean {
    return seg.nextOffset <= this._highWatermark && !isCompacted(this.config) && this.local.isPageable(seg);
  }

  holds(seg: LogSegment): boolean {
    return this.local.holds(seg);
  }

  /** The segment left memory: so do the bytes of the producer snapshot taken when it began. */
  pagedOut(seg: LogSegment): void {
    this.producerSnapshots.forgetBytes(seg.baseOffset);
  }

  /**
   * Loads a partition log from the Store the way a broker does at start-up (Kafka's LogLoader):
   * reads `<dir>/` files, recovers the segments a crash may have torn (from the recovery point on,
   * none after a clean shutdown: `params`), opens the others as they are, and reports what it did.
   * See LogLoader.
   */
  static async load(
    store: Store,
    dir: string,
    config: LogConfigInput | LogConfig | undefined,
    clock: Clock,
    writer: StoreWriter = new StoreWriter(store),
    params: LoadParams = RECOVER_EVERYTHING,
  ): Promise<{ log: UnifiedLog; report: LogRecoveryReport }> {
    const cfg = toConfig(config);
    const loaded = await loadSegments(store, dir, cfg, clock, writer, params);
    const end = loaded.segments.at(-1)?.nextOffset ?? 0;
    // LogLoader.recoverLog: after a clean shutdown the recovery point is the log end; after a
    // crash it stays where the checkpoint had it (never past the log end).
    const recoveryPoint = params.hadCleanShutdown ? end : Math.min(params.recoveryPoint, end);
    const log = new UnifiedLog({
      dir,
      config: cfg,
      clock,
      writer,
      recoveredSegments: loaded.segments,
      recoveryPoint,
    });
    loaded.report.recoveryPoint = recoveryPoint;
    // LogLoader.load: the log start offset is the checkpoint's when above the first segment.
    if (params.logStartOffset > log.logStartOffset && params.logStartOffset <= log.logEndOffset)
      log.logStartMovedTo(params.logStartOffset);
    log.hadCleanShutdown = params.hadCleanShutdown;
    // The epoch cache starts from the checkpoint (plus epochs recovery found) and is cut to the log.
    for (const e of loaded.epochs.entries) log.leaderEpochCache.assign(e.epoch, e.startOffset);
    finishLoad(
      dir,
      log.leaderEpochCache,
      loaded.checkpointText,
      log.logStartOffset,
      log.logEndOffset,
      writer,
      loaded.report,
    );
    const snapshots = await loadProducerSnapshots(
      store,
      dir,
      log.logStartOffset,
      log.logEndOffset,
      writer,
      params.files,
    );
    for (const [offset, bytes] of snapshots) log.producerSnapshots.set(offset, bytes);
    return { log, report: loaded.report };
  }

  get config(): Readonly<LogConfig> {
    return this.local.config;
  }

  /** Applies new topic configs (AlterConfigs). Index sizes apply to segments created afterwards. */
  updateConfig(input: LogConfigInput): void {
    this.local.config = createLogConfig(input, this.local.config);
  }

  get logStartOffset(): number {
    return this._logStartOffset;
  }

  /** The offset the next appended record gets (Kafka's LEO). */
  get logEndOffset(): number {
    return this.local.logEndOffset;
  }

  get highWatermark(): number {
    return this._highWatermark;
  }

  get recoveryPoint(): number {
    return this.local.recoveryPoint;
  }

  /**
   * Every offset below it is in the Store, confirmed (IndexedDB's transaction completed): what a
   * tab closed now would get back. Trails recoveryPoint while the Store's queue drains; moves on
   * its own, between engine ticks (an observation for the host, which no engine behaviour reads).
   */
  get durableOffset(): number {
    return Math.max(this._logStartOffset, this.local.durablePoint().offset);
  }

  /** Whether every record below `offset` is durable (e.g. before dropping a closed segment's bytes from memory). */
  isDurableUpTo(offset: number): boolean {
    return offset <= this.durableOffset;
  }

  /** Bytes of `seg`'s `.log` the Store has confirmed. */
  durableBytes(seg: LogSegment): number {
    return this.local.durableBytes(seg);
  }

  get lastFlushTimeMs(): number {
    return this.local.lastFlushTimeMs;
  }

  /** Messages appended since the last flush (Kafka's unflushedMessages). */
  get unflushedMessages(): number {
    return this.local.unflushedMessages;
  }

  get activeSegment(): LogSegment {
    return this.local.activeSegment;
  }

  get logSegments(): readonly LogSegment[] {
    return this.local.segments.values;
  }

  /** Total bytes over all segments. */
  get size(): number {
    return this.local.size;
  }

  segmentInfos(): SegmentInfo[] {
    return this.local.segmentInfos();
  }

  /**
   * Moves the high watermark (replication owns it; a single-replica leader sets it to the LEO).
   * Clamped to [logStartOffset, logEndOffset]. Retention never deletes at or past it.
   */
  updateHighWatermark(offset: number): number {
    this._highWatermark = Math.max(this._logStartOffset, Math.min(offset, this.logEndOffset));
    return this._highWatermark;
  }

  /**
   * The log now starts at `offset` (retention, segments lost with the Store, DeleteRecords). Never
   * backwards: after DeleteRecords the start may lie inside the first segment, and retention
   * deleting older segments must not bring the records below it back.
   */
  private logStartMovedTo(offset: number): void {
    this._logStartOffset = Math.max(this._logStartOffset, offset);
    offset = this._logStartOffset;
    this._highWatermark = Math.max(this._highWatermark, offset);
    this.local.raiseRecoveryPoint(offset);
    if (this.leaderEpochCache.truncateFromStart(offset)) this.writeEpochCheckpoint();
  }

  // ---------------------------------------------------------------- append

  /**
   * Appends a producer's record batches (concatenated RecordBatch v2 bytes, each with base
   * offset 0) as the leader in `leaderEpoch`: validates everything first, assigns offsets by
   * rewriting each batch's baseOffset and stamps partitionLeaderEpoch (neither is covered by the
   * CRC, so the CRC stays valid — as Kafka's broker does), rolls if needed, appends.
   * The caller's bytes are not modified.
   */
  appendAsLeader(records: Uint8Array, leaderEpoch = 0): LogAppendInfo {
    return this.append(records, true, leaderEpoch);
  }

  /**
   * Appends batches fetched from the leader, keeping the offsets and epochs they carry. With
   * `immutable` (the records are a leader's fetch result, which never changes) the log keeps the
   * bytes instead of copying them; they are written exactly as fetched either way.
   */
  appendAsFollower(records: Uint8Array, immutable = false): LogAppendInfo {
    // A fetch may end inside a batch: only the whole ones are appended (Kafka's trimInvalidBytes).
    return this.append(wholeBatches(records), false, -1, immutable);
  }

  private append(records: Uint8Array, asLeader: boolean, leaderEpoch: number, adopt = false): LogAppendInfo {
    let validated = analyzeAndValidateRecords(this, records, asLeader);
    const recompressed = asLeader ? recompress(records, validated, this.config) : null;
    if (recompressed) {
      records = recompressed;
      validated = analyzeAndValidateRecords(this, records, asLeader);
    }
    const now = this.clock.now();
    const logAppendTime = asLeader && this.config['message.timestamp.type'] === 'LogAppendTime';
    const { bases, lastOffset, numMessages, maxTimestamp, offsetOfMaxTimestamp, restamped } = assignOffsets(
      records,
      validated,
      asLeader ? this.logEndOffset : null,
      logAppendTime ? now : null,
    );
    const firstOffset = bases[0] as number;
    const rolled = this.maybeRoll(records.length, maxTimestamp, firstOffset, lastOffset, now);
    const segment = this.local.activeSegment;
    const batches: AppendedBatchInfo[] = [];
    // Kafka's LogSegment.append takes the whole append at once: the batches are written, then
    // indexed once (at most one .index entry per append, not per batch).
    const appendStart = segment.size;
    for (let i = 0; i < validated.length; i++) {
      const h = validated[i] as RecordBatchHeader;
      const base = bases[i] as number;
      // A follower's batch already carries its offsets (validated above): nothing to patch.
      const position =
        adopt && !asLeader
          ? segment.adoptBytes(records, h.position, h.sizeInBytes)
          : segment.writeBatch(records, h.position, h.sizeInBytes, base, asLeader ? leaderEpoch : null);
      if (logAppendTime) segment.stampLogAppendTime(position, h.sizeInBytes, now);
      else if (restamped?.has(i)) segment.stampMaxTimestamp(position, h.sizeInBytes, h.maxTimestamp);
      batches.push({
        baseOffset: base,
        lastOffset: base + h.lastOffsetDelta,
        position,
        sizeInBytes: h.sizeInBytes,
        segmentBaseOffset: segment.baseOffset,
      });
      if (!asLeader) this.assignEpoch(h.partitionLeaderEpoch, base);
    }
    segment.recordAppend(appendStart, segment.size - appendStart, lastOffset, maxTimestamp, offsetOfMaxTimestamp, now);
    if (asLeader) this.assignEpoch(leaderEpoch, firstOffset);
    this.local.writeThrough();
    const flushed = this.maybeFlushAfterAppend(now);
    return {
      firstOffset,
      lastOffset,
      numMessages,
      validBytes: records.length,
      maxTimestamp,
      offsetOfMaxTimestamp,
      batches,
      headers: validated,
      rolled,
      flushed,
    };
  }

  /**
   * Kafka's maybeAssignEpochStartOffset: a replica becoming leader in `epoch` records that the
   * epoch starts at its log end, before any record of that epoch exists, so a follower asking
   * OffsetsForLeaderEpoch about an older epoch learns where it ended.
   */
  maybeAssignEpochStartOffset(epoch: number, startOffset: number): void {
    this.assignEpoch(epoch, startOffset);
  }

  private assignEpoch(epoch: number, startOffset: number): void {
    if (epoch < 0) return;
    const latest = this.leaderEpochCache.latestEpoch;
    if (latest !== null && epoch <= latest) return;
    if (this.leaderEpochCache.assign(epoch, startOffset)) this.writeEpochCheckpoint();
  }

  private writeEpochCheckpoint(): void {
    this.writer.submit({
      op: 'write',
      path: `${this.dir}/${LEADER_EPOCH_CHECKPOINT_FILENAME}`,
      bytes: new TextEncoder().encode(this.leaderEpochCache.serialize()),
    });
  }

  // ---------------------------------------------------------------- roll

  /**
   * The segment's roll jitter (LogSegment.rollJitterMs; see segmentJitterMs), seeded by the log's
   * dir and the segment's base offset.
   */
  rollJitterMs(segment: LogSegment): number {
    return segmentJitterMs(this.config, `${this.dir}/${segment.baseOffset}`);
  }

  /** Kafka's maybeRoll: rolls the active segment when shouldRoll says so. */
  private maybeRoll(
    messagesSize: number,
    maxTimestamp: number,
    firstOffset: number,
    lastOffset: number,
    now: number,
  ): LogAppendInfo['rolled'] {
    const active = this.local.activeSegment;
    const reason = active.shouldRoll({
      maxSegmentBytes: this.config['segment.bytes'],
      // LogSegment.shouldRoll: timeWaitedForRoll > segment.ms - rollJitterMs.
      maxSegmentMs: this.config['segment.ms'] - this.rollJitterMs(active),
      messagesSize,
      maxTimestampInMessages: maxTimestamp,
      maxOffsetInMessages: lastOffset,
      now,
    });
    if (reason === null) return null;
    if (active.size === 0) {
      // An empty active segment is never rolled behind; if it cannot hold the offsets (its base is
      // too far below them), it is replaced, as Kafka does for an empty active segment.
      if (reason !== 'relative-offset-overflow' || active.baseOffset === firstOffset) return null;
      this.local.replaceEmptyActiveSegment(firstOffset);
      return { fromBaseOffset: active.baseOffset, toBaseOffset: firstOffset, reason };
    }
    this.roll(firstOffset);
    return { fromBaseOffset: active.baseOffset, toBaseOffset: firstOffset, reason };
  }

  /**
   * Kafka's UnifiedLog.roll: LocalLog.roll at `newBaseOffset` (default: the log end offset), then
   * a producer snapshot at the new segment's base, so recovery can start there.
   */
  roll(newBaseOffset = this.logEndOffset): LogSegment {
    const before = this.local.activeSegment;
    const created = this.local.roll(newBaseOffset);
    if (created === before) return created;
    // Replacing the only (empty) segment moves the log start with it.
    if (this.local.segments.count === 1) this._logStartOffset = newBaseOffset;
    this.takeProducerSnapshot(newBaseOffset);
    return created;
  }

  /**
   * Hands the log its partition's producer state as snapshot bytes (Kafka's UnifiedLog owns its
   * ProducerStateManager): from now on every roll writes `<new base offset>.snapshot`.
   */
  attachProducerSnapshots(source: () => Uint8Array): void {
    this.producerSnapshotSource = source;
  }

  /**
   * ProducerStateManager.takeSnapshot: the producer state after every offset below `offset`
   * (the log end: on roll the new segment's base offset, on a clean shutdown the LEO) as
   * `<offset>.snapshot`, written behind like the segments. As Kafka's, only for an offset past the
   * last snapshot (none: the log start offset): an empty log shut down cleanly writes none.
   */
  takeProducerSnapshot(offset = this.logEndOffset): void {
    if (this.producerSnapshotSource)
      this.producerSnapshots.take(offset, this._logStartOffset, this.producerSnapshotSource);
  }

  /**
   * The latest producer snapshot inside (log start, log end] (ProducerStateManager.latestSnapshotFile
   * after truncateAndReload): recovery loads it and replays only the batches from its offset on.
   */
  latestProducerSnapshot(): { offset: number; bytes: Uint8Array } | null {
    return this.producerSnapshots.latest(this._logStartOffset, this.logEndOffset);
  }

  /** The offsets of the producer snapshots in this log's directory, ascending. */
  get producerSnapshotOffsets(): number[] {
    return this.producerSnapshots.offsets;
  }

  // ---------------------------------------------------------------- flush

  private maybeFlushAfterAppend(now: number): boolean {
    if (this.unflushedMessages >= this.config['flush.messages']) {
      this.flush();
      return true;
    }
    return this.maybeFlush(now);
  }

  /**
   * Time-based flush (Kafka's log flusher: flush when now - lastFlushTime >= flush.ms). The
   * engine calls this from its tick; appends call it too. Returns whether it flushed.
   */
  maybeFlush(now = this.clock.now()): boolean {
    // Written through, the bytes are all in the Store: what a flush still has to do is the fsync.
    if (this.local.unflushedBytes() === 0 && this.unflushedMessages === 0) return false;
    if (now - this.local.lastFlushTimeMs >= this.config['flush.ms']) {
      this.flush();
      return true;
    }
    return false;
  }

  /** Hands every unflushed byte and index entry to the Store; recoveryPoint becomes the LEO. */
  flush(): void {
    this.local.flush();
  }

  /** Bytes (over all segments) only in memory, not yet handed to the Store. */
  unflushedBytes(): number {
    return this.local.unflushedBytes();
  }

  /** The Store lost every file (the database was deleted under the page): nothing of this log is durable. */
  storeLost(): void {
    this.local.storeLost();
  }

  /**
   * Hands every file of this log to the Store again, whole, as far as it was flushed (the Store
   * lost them: the database was deleted under the page). Bytes not yet flushed stay in memory and
   * follow with the next flush, as always.
   *
   * Memory holds only what the segment cache kept: a segment paged out was only in the Store and
   * went with it. The log then starts past the last such segment, as if retention had deleted it
   * and every segment before it (a log has no holes): the log start offset moves to the next
   * segment's base offset, and the result names the segments dropped (reason 'lost-with-store').
   * The active segment is never paged out, so something always remains.
   */
  rewriteStoreFiles(): RetentionResult {
    const lost = this.local.rewriteStoreFiles();
    const deleted: DeletedSegment[] = lost.map((seg) => ({
      baseOffset: seg.baseOffset,
      logFileName: seg.logFileName,
      sizeInBytes: seg.size,
      reason: 'lost-with-store',
    }));
    if (deleted.length > 0) {
      this._logStartOffset = (this.local.segments.first as LogSegment).baseOffset;
      this._highWatermark = Math.max(this._highWatermark, this._logStartOffset);
      this.local.raiseRecoveryPoint(this._logStartOffset);
      this.leaderEpochCache.truncateFromStart(this._logStartOffset);
    }
    if (this.leaderEpochCache.entries.length > 0) this.writeEpochCheckpoint();
    this.producerSnapshots.rewriteAfterStoreLoss();
    return { deleted, logStartOffset: this._logStartOffset };
  }

  // ---------------------------------------------------------------- read

  /** Kafka's UnifiedLog.read: LocalLog.read from the log start offset (see LocalLog.read). */
  fetch(offset: number, maxBytes: number, maxOffset?: number, minOneMessage = true): FetchDataInfo {
    return this.local.read(offset, maxBytes, maxOffset, this._logStartOffset, minOneMessage);
  }

  /** Decodes the whole batches of a fetch (its truncated tail, if any, left out). */
  static decode(info: FetchDataInfo): RecordBatch[] {
    return decodeRecordBatches(wholeBatches(info.records));
  }

  /** The record at `offset` and every step of finding it (OffsetLookup.lookupOffset). */
  lookup(offset: number, options: LookupOptions = {}): { answer: OffsetLookupAnswer; trace: LookupStep[] } {
    return lookupOffset(this, offset, options);
  }

  /** The first offset whose timestamp is >= `timestamp`, traced (OffsetLookup.lookupTimestamp). */
  lookupByTimestamp(
    timestamp: number,
    options: LookupOptions = {},
  ): { answer: TimestampLookupAnswer | null; trace: LookupStep[] } {
    return lookupTimestamp(this, timestamp, options);
  }

  // ---------------------------------------------------------------- truncation

  /**
   * Kafka's UnifiedLog.truncateTo: removes every offset >= targetOffset (a follower does this to
   * the leader's epoch end offset before fetching). Returns whether anything was removed.
   * Truncation into a paged-out segment (only an unclean election cuts below the high watermark)
   * deletes that segment whole: the log then ends below `targetOffset` (see LocalLog.truncateTo).
   */
  truncateTo(targetOffset: number): boolean {
    if (!Number.isSafeInteger(targetOffset) || targetOffset < 0) {
      throw new KafkaError('INVALID_REQUEST', `cannot truncate ${this.dir} to offset ${targetOffset}`, {
        targetOffset,
      });
    }
    if (targetOffset >= this.logEndOffset) {
      // Kafka still truncates the epoch cache at the log end: a replica that led an epoch without
      // writing to it must not keep that entry (it would claim records it never had).
      if (this.leaderEpochCache.truncateFromEnd(this.logEndOffset)) this.writeEpochCheckpoint();
      return false;
    }
    const segments = this.local.segments;
    const first = segments.first as LogSegment;
    const floor = segments.floorSegment(targetOffset);
    // Below the first segment, or into a paged-out first one: nothing of the log is kept.
    if (targetOffset < first.baseOffset || (floor === first && !first.resident)) {
      this.truncateFullyAndStartAt(Math.min(targetOffset, first.baseOffset));
      return true;
    }
    const pagedOut = !(floor as LogSegment).resident;
    this.local.truncateTo(targetOffset);
    this.producerSnapshots.deleteAbove(this.logEndOffset);
    const epochEnd = pagedOut ? Math.min(targetOffset, this.logEndOffset) : targetOffset;
    if (this.leaderEpochCache.truncateFromEnd(epochEnd)) this.writeEpochCheckpoint();
    this._highWatermark = Math.min(this._highWatermark, this.logEndOffset);
    return true;
  }

  /** Kafka's truncateFullyAndStartAt: deletes every segment and starts empty at `newOffset`. */
  truncateFullyAndStartAt(newOffset: number): void {
    if (!Number.isSafeInteger(newOffset) || newOffset < 0) {
      throw new KafkaError('INVALID_REQUEST', `cannot start ${this.dir} at offset ${newOffset}`, { newOffset });
    }
    this.local.truncateFullyAndStartAt(newOffset);
    this.producerSnapshots.deleteAbove(-1);
    this.leaderEpochCache.clear();
    this.writeEpochCheckpoint();
    this._logStartOffset = newOffset;
    this._highWatermark = newOffset;
  }

  /**
   * Kafka's UnifiedLog.maybeIncrementLogStartOffset (DeleteRecords on the leader; a follower
   * following its leader's log start): the log now starts at `offset`, reads below it are out of
   * range, and the segments wholly below it go at the next retention check. Never past the high
   * watermark (OFFSET_OUT_OF_RANGE); an offset at or below the current start changes nothing.
   * Returns whether the start moved.
   */
  maybeIncrementLogStartOffset(offset: number): boolean {
    if (offset > this._highWatermark)
      throw new KafkaError(
        'OFFSET_OUT_OF_RANGE',
        `Cannot increment the log start offset to ${offset} of partition ${this.dir} since it is larger than the high watermark ${this._highWatermark}`,
        { offset, highWatermark: this._highWatermark },
      );
    if (offset <= this._logStartOffset) return false;
    this.logStartMovedTo(offset);
    return true;
  }

  // ---------------------------------------------------------------- retention & compaction

  /**
   * Kafka's UnifiedLog.deleteOldSegments for cleanup.policy=delete: first by retention.bytes
   * (delete the oldest segments while the log stays at or above the limit without them), then by
   * retention.ms (delete the oldest segments whose newest record is older than the limit).
   * Whole segments only, oldest first, never a segment holding offsets at or above the high
   * watermark (the active segment's upper bound is the log end offset), never an empty active
   * segment (deletableSegments). When every segment goes, a new empty segment is rolled at the
   * log end first (deleteSegments: a log always has one). Moves logStartOffset to the first
   * remaining segment.
   */
  deleteOldSegments(now = this.clock.now()): RetentionResult {
    return deleteOldSegments(
      {
        config: this.config,
        size: () => this.size,
        logEndOffset: () => this.logEndOffset,
        highWatermark: () => this._highWatermark,
        logStartOffset: () => this._logStartOffset,
        segments: this.local.segments,
        roll: () => this.roll(),
        removeAndDeleteSegments: (segs) => this.local.removeAndDeleteSegments(segs),
        logStartMovedTo: (offset) => this.logStartMovedTo(offset),
      },
      now,
    );
  }

  /**
   * Runs one pass of Kafka's log cleaner over this log (cleanup.policy=compact): keeps the latest
   * record per key in every whole segment below the active segment and the high watermark,
   * preserves offsets, stamps a delete horizon on tombstones and drops them once it passed,
   * rebuilds indexes. See LogCleaner.
   */
  compact(
    now = this.clock.now(),
    lastRecordsOfActiveProducers?: ReadonlyMap<number, number>,
    firstDirtyOffset = this._logStartOffset,
  ): CleanerResult {
    return cleanLocalLog(this.local, this._highWatermark, now, lastRecordsOfActiveProducers, firstDirtyOffset);
  }

  /** What LogCleanerManager weighs of this log (dirty ratio, compaction lags). */
  cleanerView(): CleanerLogView {
    return {
      config: this.config,
      logStartOffset: this._logStartOffset,
      logEndOffset: this.logEndOffset,
      lastStableOffset: this._highWatermark,
      segments: this.local.segments.values.map((s) => ({
        baseOffset: s.baseOffset,
        size: s.size,
        largestTimestamp: s.largestTimestamp,
        firstBatchTimestamp: s.firstBatchTimestamp,
      })),
    };
  }
}

function toConfig(config: LogConfigInput | LogConfig | undefined): LogConfig {
  return createLogConfig((config ?? {}) as LogConfigInput);
}
