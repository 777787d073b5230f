import type { Clock } from '../Clock';
import type { DefaultRecord, RecordBatch, RecordBatchHeader } from '../codec';
import { producerSnapshotFileName } from '../codec/producerSnapshot';
import {
  TIMESTAMP_TYPE_MASK,
  decodeBatchRecords,
  decodeRecordBatches,
  readBatchHeader,
  validateBatchCrc,
} from '../codec';
import { CorruptRecordError, KafkaError } from '../errors';
import type { Store } from '../Store';
import { DurableOffset, type DurablePoint } from './DurableOffset';
import { type CleanerResult, cleanLog, emptyCleanerResult } from './LogCleaner';
import type { CleanerLogView } from './LogCleanerManager';
import type { LogConfig, LogConfigInput } from './LogConfig';
import { createLogConfig, isCompacted, isDeleteEnabled } from './LogConfig';
import { LEADER_EPOCH_CHECKPOINT_FILENAME } from './LogFileUtils';
import { LeaderEpochFileCache } from './LeaderEpochFileCache';
import type { LogRecoveryReport } from './LogLoader';
import { finishLoad, loadProducerSnapshots, loadSegments } from './LogLoader';
import { type LogOffsetPosition, LogSegment, type RollReason } from './LogSegment';
import { LogSegments } from './LogSegments';
import { type PagedLog, type SegmentCache, SegmentNotLoadedError } from './SegmentCache';
import { type LocatedRecord, locateRecord } from './RecordLocator';
import type { LookupStep, OffsetIndexEntryInfo } from './LookupTrace';
import { StoreWriter } from './StoreWriter';

/** The records of an empty fetch (shared: zero bytes cannot change). */
const NO_BYTES = new Uint8Array(0);

/** Kafka's ListOffsets special timestamps. */
export const EARLIEST_TIMESTAMP = -2;
export const LATEST_TIMESTAMP = -1;
export const MAX_TIMESTAMP = -3;

export interface PartitionLogOptions {
  /** The partition's directory, `<topic>-<partition>`. */
  dir: string;
  config?: LogConfigInput | LogConfig;
  clock: Clock;
  /** Where flushed bytes go. Omitted: a memory-only log (benchmarks, scratch logs). */
  writer?: StoreWriter;
  /** Base offset of the first segment (default 0). */
  logStartOffset?: number;
  /** The page cache closed segments are paged out of (omitted: every segment stays in memory). */
  cache?: SegmentCache;
  /** Internal (LogLoader): segments already recovered from the Store, in offset order. */
  recoveredSegments?: readonly LogSegment[];
}

/** One appended batch, where it landed. */
export interface AppendedBatchInfo {
  baseOffset: number;
  lastOffset: number;
  position: number;
  sizeInBytes: number;
  segmentBaseOffset: number;
}

/** Kafka's LogAppendInfo, trimmed to what glassbox shows. */
export interface LogAppendInfo {
  firstOffset: number;
  lastOffset: number;
  /** Number of records (not batches). */
  numMessages: number;
  validBytes: number;
  maxTimestamp: number;
  offsetOfMaxTimestamp: number;
  batches: AppendedBatchInfo[];
  /**
   * The appended batches' headers as read (and validated) from the records, with the offsets the
   * caller sent (0-based for a leader's append); fresh objects the caller may keep or change.
   */
  headers: RecordBatchHeader[];
  /** Set when this append rolled a new segment first. */
  rolled: { fromBaseOffset: number; toBaseOffset: number; reason: RollReason } | null;
  /** Whether the append triggered a flush (flush.messages / flush.ms). */
  flushed: boolean;
}

/** Kafka's FetchDataInfo: where the read started and the whole batches read. */
export interface FetchDataInfo {
  fetchOffsetMetadata: { messageOffset: number; segmentBaseOffset: number; relativePositionInSegment: number };
  /**
   * Whole batches: a view of the segment's bytes, which never change (share it, never write to it).
   * Batches may start before the requested offset.
   */
  records: Uint8Array;
  batches: RecordBatchHeader[];
  /** The offset a follow-up fetch should ask for. */
  nextOffset: number;
}

/** A record as a lookup shows it. */
export interface LookupRecord {
  offset: number;
  timestamp: number;
  key: Uint8Array | null;
  value: Uint8Array | null;
  headers: DefaultRecord['headers'];
}

export interface OffsetLookupAnswer {
  offset: number;
  segment: { baseOffset: number; logFileName: string; indexFileName: string };
  /** The `.index` entry the scan started from, or null when it started at byte 0. */
  indexEntry: OffsetIndexEntryInfo | null;
  /** Byte position of the batch holding the record. */
  position: number;
  batch: RecordBatchHeader;
  /** Batch headers read during the forward scan (including the matching one). */
  batchesScanned: number;
  /** The record at `offset`; when compaction removed it, the next one in the batch. */
  record: LookupRecord;
  exact: boolean;
}

export interface TimestampLookupAnswer {
  timestamp: number;
  offset: number;
  leaderEpoch: number | null;
  segmentBaseOffset: number;
  position: number;
}

export interface LookupOptions {
  /** Record every step (default true). Off, the lookup allocates nothing for the trace. */
  trace?: boolean;
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

/**
 * Why retention deleted a segment: the limit it broke, or 'lost-with-store' (not Kafka's: the
 * segment's bytes were only in the Store, paged out of memory, when the Store lost every file,
 * so rewriting the log from memory had to start past it; see rewriteStoreFiles).
 */
export type RetentionReason = 'retention.bytes' | 'retention.ms' | 'lost-with-store';

/** A segment the retention check deleted. */
export interface DeletedSegment {
  baseOffset: number;
  logFileName: string;
  sizeInBytes: number;
  reason: RetentionReason;
}

export interface RetentionResult {
  deleted: DeletedSegment[];
  logStartOffset: number;
}

/**
 * One replica's log of one partition (Kafka's UnifiedLog over LocalLog): an ordered set of
 * segments, the last of which is active. It assigns offsets on append (the leader) or keeps the
 * leader's (a follower), rolls segments on segment.bytes / segment.ms / a full index, serves
 * reads and lookups, truncates for replication, applies retention and compaction, and hands
 * flushed bytes to the Store through a StoreWriter without ever awaiting it.
 *
 * Invariants:
 *  - logStartOffset <= highWatermark <= logEndOffset; logStartOffset = first segment's base offset;
 *  - offsets strictly increase through the segments (contiguous unless compaction removed some);
 *  - recoveryPoint <= logEndOffset: offsets below it have been handed to the Store;
 *  - durableOffset <= recoveryPoint: offsets below it are confirmed by the Store (see DurableOffset);
 *  - a failed append, truncation or config change throws a KafkaError and changes nothing;
 *  - with a SegmentCache, only closed segments whose bytes are durable in the Store, entirely
 *    below the high watermark, of a log that is not compacted, are ever paged out (isPageable).
 */
export class PartitionLog implements PagedLog {
  readonly dir: string;
  private _config: LogConfig;
  private readonly clock: Clock;
  readonly writer: StoreWriter;
  private readonly segments = new LogSegments();
  readonly leaderEpochCache = new LeaderEpochFileCache();
  /** The producer state's bytes for the snapshots a roll or shutdown writes (see attachProducerSnapshots). */
  private producerSnapshotSource: (() => Uint8Array) | null = null;
  /** This dir's `.snapshot` files by offset (a few dozen bytes each), so a restart finds them as on disk. */
  private readonly producerSnapshots = new Map<number, Uint8Array>();
  private _logStartOffset: number;
  private _highWatermark: number;
  /** Kafka's recoveryPoint: every offset below it has been flushed (handed to the Store). */
  private _recoveryPoint: number;
  /** glassbox's, not Kafka's: the recovery point whose writes the Store has confirmed. */
  private readonly durable: DurableOffset;
  private _lastFlushTimeMs: number;
  private cache: SegmentCache | null = null;

  constructor(options: PartitionLogOptions) {
    this.dir = options.dir;
    this._config = toConfig(options.config);
    this.clock = options.clock;
    this.writer = options.writer ?? new StoreWriter(null);
    const start = options.logStartOffset ?? 0;
    if (!Number.isSafeInteger(start) || start < 0) {
      throw new KafkaError('INVALID_REQUEST', `invalid log start offset ${start}`, { logStartOffset: start });
    }
    this._logStartOffset = start;
    this._highWatermark = start;
    this._recoveryPoint = start;
    this._lastFlushTimeMs = this.clock.now();
    const recovered = options.recoveredSegments ?? [];
    if (recovered.length === 0) {
      this.createSegment(start);
    } else {
      for (const s of recovered) this.segments.add(s);
      this._logStartOffset = (recovered[0] as LogSegment).baseOffset;
      this._highWatermark = this._logStartOffset;
      this._recoveryPoint = this.logEndOffset;
    }
    // A new log has nothing to lose yet; a recovered one was read back from the Store, so all of it is durable.
    this.durable = new DurableOffset(this.writer, this.logEndPoint());
    if (options.cache) this.attachCache(options.cache);
  }

  /** Puts this log's closed segments under `cache` (a recovered log joins its engine's cache). */
  attachCache(cache: SegmentCache): void {
    if (this.cache === cache) return;
    this.cache = cache;
    const active = this.activeSegment;
    for (const seg of this.segments.values) if (seg !== active) cache.admit(this, seg);
  }

  /**
   * Whether `seg` may leave memory: closed, every byte flushed and the Store done with its `.log`
   * (StoreWriter.isDurable), wholly below the high watermark (replication never truncates there
   * but in an unclean election, see truncateTo), and the log not compacted (the cleaner reads
   * every closed segment; a compacted log is bounded by its keys).
   */
  isPageable(seg: LogSegment): boolean {
    return (
      seg !== this.activeSegment &&
      seg.resident &&
      seg.flushedBytes === seg.size &&
      seg.nextOffset <= this._highWatermark &&
      !isCompacted(this._config) &&
      this.writer.isPathDurable(this.path(seg.logFileName))
    );
  }

  holds(seg: LogSegment): boolean {
    return this.segments.floorSegment(seg.baseOffset) === seg;
  }

  /** Before reading `seg`'s bytes: marks it used, or asks for it and throws when it is paged out. */
  private readable(seg: LogSegment): LogSegment {
    if (!seg.resident) {
      this.cache?.request(seg);
      throw new SegmentNotLoadedError(seg);
    }
    this.cache?.touch(seg);
    return seg;
  }

  /**
   * Loads a partition log from the Store the way a broker does at start-up (Kafka's LogLoader):
   * reads `<dir>/` files, validates every batch, truncates a torn or corrupt tail, rebuilds the
   * indexes, and reports what it did. See LogLoader.
   */
  static async load(
    store: Store,
    dir: string,
    config: LogConfigInput | LogConfig | undefined,
    clock: Clock,
    writer: StoreWriter = new StoreWriter(store),
  ): Promise<{ log: PartitionLog; report: LogRecoveryReport }> {
    const cfg = toConfig(config);
    const loaded = await loadSegments(store, dir, cfg, clock, writer);
    const log = new PartitionLog({ dir, config: cfg, clock, writer, recoveredSegments: loaded.segments });
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
    for (const [offset, bytes] of await loadProducerSnapshots(store, dir, log.logStartOffset, log.logEndOffset, writer))
      log.producerSnapshots.set(offset, bytes);
    return { log, report: loaded.report };
  }

  get config(): Readonly<LogConfig> {
    return this._config;
  }

  /** Applies new topic configs (AlterConfigs). Index sizes apply to segments created afterwards. */
  updateConfig(input: LogConfigInput): void {
    this._config = createLogConfig(input, this._config);
  }

  get logStartOffset(): number {
    return this._logStartOffset;
  }

  /** The offset the next appended record gets (Kafka's LEO). */
  get logEndOffset(): number {
    return (this.segments.last as LogSegment).nextOffset;
  }

  get highWatermark(): number {
    return this._highWatermark;
  }

  get recoveryPoint(): number {
    return this._recoveryPoint;
  }

  /**
   * Every offset below it is in the Store, confirmed (IndexedDB's transaction completed): what a
   * tab closed now would get back. Trails recoveryPoint while the Store's queue drains; moves on
   * its own, between engine ticks (an observation for the host, which no engine behaviour reads).
   */
  get durableOffset(): number {
    return Math.max(this._logStartOffset, this.durable.current().offset);
  }

  /** Whether every record below `offset` is durable (e.g. before dropping a closed segment's bytes from memory). */
  isDurableUpTo(offset: number): boolean {
    return offset <= this.durableOffset;
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

  get logSegments(): readonly LogSegment[] {
    return this.segments.values;
  }

  /** Total bytes over all segments. */
  get size(): number {
    let n = 0;
    for (const s of this.segments.values) n += s.size;
    return n;
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

  /**
   * Moves the high watermark (replication owns it; a single-replica leader sets it to the LEO).
   * Clamped to [logStartOffset, logEndOffset]. Retention never deletes at or past it.
   */
  updateHighWatermark(offset: number): number {
    this._highWatermark = Math.max(this._logStartOffset, Math.min(offset, this.logEndOffset));
    return this._highWatermark;
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
    return this.append(records, false, -1, immutable);
  }

  private append(records: Uint8Array, asLeader: boolean, leaderEpoch: number, adopt = false): LogAppendInfo {
    const validated = this.analyzeAndValidate(records, asLeader);
    const now = this.clock.now();
    // Offsets: the leader assigns them from the log end offset; a follower keeps the leader's.
    const bases: number[] = new Array(validated.length);
    let next = this.logEndOffset;
    let maxTimestamp = -1;
    let offsetOfMaxTimestamp = -1;
    let numMessages = 0;
    // message.timestamp.type=LogAppendTime: the leader stamps every batch with its clock.
    const logAppendTime = asLeader && this._config['message.timestamp.type'] === 'LogAppendTime';
    for (let i = 0; i < validated.length; i++) {
      const h = validated[i] as RecordBatchHeader;
      if (logAppendTime) {
        h.maxTimestamp = now;
        h.attributes |= TIMESTAMP_TYPE_MASK;
      }
      const base = asLeader ? next : h.baseOffset;
      bases[i] = base;
      const last = base + h.lastOffsetDelta;
      next = last + 1;
      numMessages += h.recordCount;
      if (h.maxTimestamp > maxTimestamp) {
        maxTimestamp = h.maxTimestamp;
        offsetOfMaxTimestamp = last;
      }
    }
    const firstOffset = bases[0] as number;
    const lastOffset = next - 1;
    const rolled = this.maybeRoll(records.length, maxTimestamp, firstOffset, lastOffset, now);
    const segment = this.activeSegment;
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

  /** Kafka's analyzeAndValidateRecords + LogValidator checks. Throws before any state changes. */
  private analyzeAndValidate(records: Uint8Array, asLeader: boolean): RecordBatchHeader[] {
    if (!(records instanceof Uint8Array) || records.length === 0) {
      throw new KafkaError('INVALID_RECORD', `empty append to ${this.dir}: no record batches`, { dir: this.dir });
    }
    const cfg = this._config;
    const out: RecordBatchHeader[] = [];
    const compacted = isCompacted(cfg);
    let expectedNext = this.logEndOffset;
    let position = 0;
    while (position < records.length) {
      const header = readBatchHeader(records, position);
      if (header.magic !== 2) {
        throw new KafkaError('INVALID_RECORD', `glassbox stores only RecordBatch v2, got magic ${header.magic}`, {
          position,
          magic: header.magic,
        });
      }
      if (position + header.sizeInBytes > records.length) {
        throw new CorruptRecordError(
          `batch at byte ${position} needs ${header.sizeInBytes} bytes but only ${records.length - position} were sent`,
          { position, sizeInBytes: header.sizeInBytes },
        );
      }
      if (asLeader && header.baseOffset !== 0) {
        throw new KafkaError(
          'INVALID_RECORD',
          `The baseOffset of the record batch in the append to ${this.dir} should be 0, but it is ${header.baseOffset}`,
          { position, baseOffset: header.baseOffset },
        );
      }
      if (header.sizeInBytes > cfg['max.message.bytes']) {
        throw new KafkaError(
          'RECORD_TOO_LARGE',
          `The record batch size in the append to ${this.dir} is ${header.sizeInBytes} bytes which exceeds the maximum configured value of ${cfg['max.message.bytes']}.`,
          { sizeInBytes: header.sizeInBytes, maxMessageBytes: cfg['max.message.bytes'] },
        );
      }
      if (!validateBatchCrc(records, header)) {
        throw new CorruptRecordError(`Record is corrupt (stored crc = ${header.crc}) in topic partition ${this.dir}.`, {
          position,
          crc: header.crc,
        });
      }
      // A follower copies the leader's log, which may hold batches the cleaner emptied (RETAIN_EMPTY).
      if (header.recordCount < 0 || (asLeader && header.recordCount === 0)) {
        throw new KafkaError('INVALID_RECORD', 'Batches must contain at least one record', { position });
      }
      if (asLeader && header.lastOffsetDelta !== header.recordCount - 1) {
        throw new KafkaError(
          'INVALID_RECORD',
          `Inner record offsets are not consecutive: ${header.recordCount} records but last offset delta ${header.lastOffsetDelta}`,
          { position, recordCount: header.recordCount, lastOffsetDelta: header.lastOffsetDelta },
        );
      }
      if (!asLeader) {
        if (header.baseOffset < expectedNext) {
          throw new KafkaError(
            'INVALID_RECORD',
            `Out of order offsets in the append to ${this.dir}: batch at ${header.baseOffset} but the log is at ${expectedNext}`,
            { baseOffset: header.baseOffset, expectedNext },
          );
        }
        expectedNext = header.lastOffset + 1;
      }
      if (compacted && asLeader) this.checkKeysForCompaction(records, header);
      out.push(header);
      position += header.sizeInBytes;
    }
    if (records.length > cfg['segment.bytes']) {
      throw new KafkaError(
        'RECORD_TOO_LARGE',
        `Message batch size is ${records.length} bytes in append to partition ${this.dir} which exceeds the maximum configured segment size of ${cfg['segment.bytes']}.`,
        { sizeInBytes: records.length, segmentBytes: cfg['segment.bytes'] },
      );
    }
    return out;
  }

  private checkKeysForCompaction(records: Uint8Array, header: RecordBatchHeader): void {
    for (const r of decodeBatchRecords(records, header)) {
      if (r.key === null) {
        throw new KafkaError(
          'INVALID_RECORD',
          `Compacted topic cannot accept message without key in topic partition ${this.dir}.`,
          { position: header.position, offsetDelta: r.offsetDelta },
        );
      }
    }
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

  /** Kafka's maybeRoll: rolls the active segment when shouldRoll says so. */
  private maybeRoll(
    messagesSize: number,
    maxTimestamp: number,
    firstOffset: number,
    lastOffset: number,
    now: number,
  ): LogAppendInfo['rolled'] {
    const active = this.activeSegment;
    const reason = active.shouldRoll({
      maxSegmentBytes: this._config['segment.bytes'],
      maxSegmentMs: this._config['segment.ms'],
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
      this.deleteSegmentFiles(active);
      this.segments.remove(active);
      this.createSegment(firstOffset);
      return { fromBaseOffset: active.baseOffset, toBaseOffset: firstOffset, reason };
    }
    this.roll(firstOffset);
    return { fromBaseOffset: active.baseOffset, toBaseOffset: firstOffset, reason };
  }

  /**
   * Closes the active segment (final time index entry, flush of its bytes — Kafka schedules that
   * flush on every roll) and opens a new one at `newBaseOffset` (default: the log end offset).
   */
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
   * `<offset>.snapshot`, written behind like the segments.
   */
  takeProducerSnapshot(offset = this.logEndOffset): void {
    if (!this.producerSnapshotSource) return;
    const bytes = this.producerSnapshotSource();
    this.producerSnapshots.set(offset, bytes);
    this.writer.submit({ op: 'write', path: this.path(producerSnapshotFileName(offset)), bytes });
  }

  /**
   * The latest producer snapshot inside (log start, log end] (ProducerStateManager.latestSnapshotFile
   * after truncateAndReload): recovery loads it and replays only the batches from its offset on.
   */
  latestProducerSnapshot(): { offset: number; bytes: Uint8Array } | null {
    let best: { offset: number; bytes: Uint8Array } | null = null;
    for (const [offset, bytes] of this.producerSnapshots) {
      if (offset <= this._logStartOffset || offset > this.logEndOffset) continue;
      if (!best || offset > best.offset) best = { offset, bytes };
    }
    return best;
  }

  /** The offsets of the producer snapshots in this log's directory, ascending. */
  get producerSnapshotOffsets(): number[] {
    return [...this.producerSnapshots.keys()].sort((a, b) => a - b);
  }

  /** ProducerStateManager.truncateAndReload: snapshots past the log end are gone with the records they cover. */
  private deleteProducerSnapshotsAbove(offset: number): void {
    for (const o of [...this.producerSnapshots.keys()]) if (o > offset) this.deleteProducerSnapshot(o);
  }

  private deleteProducerSnapshot(offset: number): void {
    if (!this.producerSnapshots.delete(offset)) return;
    this.writer.submit({ op: 'delete', path: this.path(producerSnapshotFileName(offset)) });
  }

  roll(newBaseOffset = this.logEndOffset): LogSegment {
    const active = this.activeSegment;
    if (newBaseOffset < active.nextOffset) {
      throw new KafkaError(
        'INVALID_REQUEST',
        `cannot roll to ${newBaseOffset} below the log end offset ${active.nextOffset}`,
      );
    }
    if (active.size === 0) {
      if (active.baseOffset === newBaseOffset) return active;
      // An empty active segment is replaced rather than left behind (Kafka's LocalLog.roll).
      this.segments.remove(active);
      this.deleteSegmentFiles(active);
      if (this.segments.count === 0) this._logStartOffset = newBaseOffset;
      const replaced = this.createSegment(newBaseOffset);
      this.takeProducerSnapshot(newBaseOffset);
      return replaced;
    }
    active.onBecomeInactiveSegment();
    // Kafka's flushUptoOffsetExclusive(newSegment.baseOffset): everything before the new segment
    // reaches the Store, and the recovery point moves up to the rolled segment's end.
    for (const seg of this.unflushedTail()) this.flushSegment(seg);
    this._recoveryPoint = Math.max(this._recoveryPoint, active.nextOffset);
    this.durable.flushed({ offset: active.nextOffset, segmentBaseOffset: active.baseOffset, position: active.size });
    const created = this.createSegment(newBaseOffset);
    // UnifiedLog.roll: a snapshot at the new segment's base, so recovery can start there.
    this.takeProducerSnapshot(newBaseOffset);
    this.cache?.admit(this, active);
    return created;
  }

  private createSegment(baseOffset: number): LogSegment {
    const seg = new LogSegment(
      baseOffset,
      this._config['index.interval.bytes'],
      this._config['segment.index.bytes'],
      this.clock.now(),
      undefined,
      this._config['segment.bytes'],
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

  private path(fileName: string): string {
    return `${this.dir}/${fileName}`;
  }

  /** The segment's files, and the producer snapshot named by its base offset (UnifiedLog.deleteProducerSnapshots). */
  private deleteSegmentFiles(seg: LogSegment): void {
    this.deleteProducerSnapshot(seg.baseOffset);
    this.cache?.forget(seg);
    this.writer.submit({ op: 'delete', path: this.path(seg.logFileName) });
    this.writer.submit({ op: 'delete', path: this.path(seg.indexFileName) });
    this.writer.submit({ op: 'delete', path: this.path(seg.timeIndexFileName) });
  }

  // ---------------------------------------------------------------- flush

  private maybeFlushAfterAppend(now: number): boolean {
    if (this.unflushedMessages >= this._config['flush.messages']) {
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
    if (this.unflushedBytes() === 0) return false;
    if (now - this._lastFlushTimeMs >= this._config['flush.ms']) {
      this.flush();
      return true;
    }
    return false;
  }

  /** Hands every unflushed byte and index entry to the Store; recoveryPoint becomes the LEO. */
  flush(): void {
    for (const seg of this.unflushedTail()) this.flushSegment(seg);
    this._recoveryPoint = this.logEndOffset;
    this.durable.flushed(this.logEndPoint());
    this._lastFlushTimeMs = this.clock.now();
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
    const all = this.segments.values;
    let lastLost = -1;
    for (let i = 0; i < all.length; i++) if (!(all[i] as LogSegment).resident) lastLost = i;
    const deleted: DeletedSegment[] = [];
    for (const seg of all.slice(0, lastLost + 1)) {
      deleted.push({
        baseOffset: seg.baseOffset,
        logFileName: seg.logFileName,
        sizeInBytes: seg.size,
        reason: 'lost-with-store',
      });
      this.segments.remove(seg);
      this.cache?.forget(seg); // the Store has no files to delete
    }
    if (deleted.length > 0) {
      this._logStartOffset = (this.segments.first as LogSegment).baseOffset;
      this._highWatermark = Math.max(this._highWatermark, this._logStartOffset);
      this._recoveryPoint = Math.max(this._recoveryPoint, this._logStartOffset);
      this.leaderEpochCache.truncateFromStart(this._logStartOffset);
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
    if (this.leaderEpochCache.entries.length > 0) this.writeEpochCheckpoint();
    for (const [offset, bytes] of this.producerSnapshots)
      this.writer.submit({ op: 'write', path: this.path(producerSnapshotFileName(offset)), bytes });
    return { deleted, logStartOffset: this._logStartOffset };
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
    if (seg.flushedOffsetIndexEntries < seg.offsetIndex.entries) {
      this.writer.submit({
        op: 'append',
        path: this.path(seg.indexFileName),
        bytes: seg.offsetIndex.bytesFrom(seg.flushedOffsetIndexEntries),
      });
      seg.flushedOffsetIndexEntries = seg.offsetIndex.entries;
    }
    if (seg.flushedTimeIndexEntries < seg.timeIndex.entries) {
      this.writer.submit({
        op: 'append',
        path: this.path(seg.timeIndexFileName),
        bytes: seg.timeIndex.bytesFrom(seg.flushedTimeIndexEntries),
      });
      seg.flushedTimeIndexEntries = seg.timeIndex.entries;
    }
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

  // ---------------------------------------------------------------- read

  private outOfRange(offset: number, trace?: LookupStep[]): KafkaError {
    return new KafkaError(
      'OFFSET_OUT_OF_RANGE',
      `Received request for offset ${offset} for partition ${this.dir}, but we only have log segments in the range ${this._logStartOffset} to ${this.logEndOffset}.`,
      { offset, logStartOffset: this._logStartOffset, logEndOffset: this.logEndOffset, ...(trace ? { trace } : {}) },
    );
  }

  /**
   * Kafka's UnifiedLog.read: whole batches starting with the one that holds `offset`, up to
   * `maxBytes` (the first batch is always returned whole, Kafka's minOneMessage), never a batch
   * holding an offset >= `maxOffset` (replication passes the high watermark here), and never past
   * the end of the segment the read started in. Kafka may end a response with a partial batch;
   * glassbox always returns whole batches.
   */
  fetch(offset: number, maxBytes: number, maxOffset?: number): FetchDataInfo {
    if (!Number.isSafeInteger(offset) || offset < this._logStartOffset || offset > this.logEndOffset) {
      throw this.outOfRange(offset);
    }
    const upper = Math.min(maxOffset ?? this.logEndOffset, this.logEndOffset);
    if (offset >= upper) return this.emptyFetch(offset);
    let seg = this.segments.floorSegment(offset);
    while (seg) {
      const read = this.readable(seg).read(offset, maxBytes, upper);
      if (read) {
        const last = read.batches[read.batches.length - 1];
        return {
          fetchOffsetMetadata: {
            messageOffset: read.firstBatchOffset,
            segmentBaseOffset: seg.baseOffset,
            relativePositionInSegment: read.startPosition,
          },
          // A view, not a copy: the segment's bytes never change (FileRecords), so it is safe to share.
          records: seg.log.view(read.startPosition, read.endPosition),
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

  /** Decodes the records of a fetch (a convenience over decodeRecordBatches). */
  static decode(info: FetchDataInfo): RecordBatch[] {
    return decodeRecordBatches(info.records);
  }

  /**
   * Finds the record at `offset` the way Kafka's read path does and explains every step: the range
   * check, the floor search over segment base offsets, the binary search of the sparse `.index`,
   * the forward scan of batch headers in the `.log`, and the record. Throws OFFSET_OUT_OF_RANGE
   * (details: offset, logStartOffset, logEndOffset, trace) outside [logStartOffset, logEndOffset).
   */
  lookup(offset: number, options: LookupOptions = {}): { answer: OffsetLookupAnswer; trace: LookupStep[] } {
    const trace: LookupStep[] | undefined = options.trace === false ? undefined : [];
    const lso = this._logStartOffset;
    const leo = this.logEndOffset;
    const inRange = Number.isSafeInteger(offset) && offset >= lso && offset < leo;
    trace?.push({
      kind: 'range-check',
      target: offset,
      logStartOffset: lso,
      logEndOffset: leo,
      inRange,
      explanation: inRange
        ? `Offset ${offset} is within the log: logStartOffset ${lso} <= ${offset} < logEndOffset ${leo}.`
        : `Offset ${offset} is outside the log [${lso}, ${leo}): the broker answers OFFSET_OUT_OF_RANGE.`,
    });
    if (!inRange) throw this.outOfRange(offset, trace);
    let seg = this.readable(this.segments.floorSegment(offset, trace) as LogSegment);
    let idx = seg.offsetIndex.lookup(offset, trace);
    let from = idx.position;
    let scanned = 0;
    let found: LogOffsetPosition | null = null;
    let hit: LocatedRecord | null = null;
    // Usually one pass. Compaction can leave the batch that reaches the offset without any record
    // at or after it, or a whole segment without it: then the scan continues after it.
    for (;;) {
      found = seg.searchForOffset(offset, from, trace);
      if (found) {
        scanned += found.headersRead;
        hit = locateRecord(seg.log.view(), found.header, offset);
        if (hit) break;
        const h = found.header;
        trace?.push({
          kind: 'batch-header',
          position: found.position,
          baseOffset: h.baseOffset,
          lastOffset: h.lastOffset,
          sizeInBytes: h.sizeInBytes,
          maxTimestamp: h.maxTimestamp,
          recordCount: h.recordCount,
          match: false,
          explanation: `Inside, the batch at byte ${found.position} has no record at or after ${offset}: compaction removed them (the batch keeps its last offset ${h.lastOffset}), so skip its ${h.sizeInBytes} bytes and read on.`,
        });
        from = found.position + found.size;
        continue;
      }
      const nextSeg = this.segments.higherSegment(seg);
      if (!nextSeg) break;
      seg = this.readable(nextSeg);
      trace?.push({
        kind: 'segment-chosen',
        baseOffset: seg.baseOffset,
        fileName: seg.logFileName,
        explanation: `No batch left in the previous segment holds offset ${offset} or later (compaction removed them), so the scan continues in ${seg.logFileName}.`,
      });
      idx = seg.offsetIndex.lookup(offset, trace);
      from = idx.position;
    }
    if (!found || !hit) {
      trace?.push({ kind: 'not-found', explanation: `No batch holds offset ${offset} or any later offset.` });
      throw this.outOfRange(offset, trace);
    }
    const record: LookupRecord = {
      offset: hit.offset,
      timestamp: hit.timestamp,
      key: hit.record.key,
      value: hit.record.value,
      headers: hit.record.headers,
    };
    const exact = hit?.offset === offset;
    trace?.push({
      kind: 'record-found',
      offset: record.offset,
      timestamp: record.timestamp,
      position: found.position,
      exact,
      explanation: exact
        ? `Read the batch at byte ${found.position} of ${seg.logFileName} and take record ${offset} (offset delta ${offset - found.offset}).`
        : `Offset ${offset} was removed by compaction; the next record is ${record.offset}.`,
    });
    return {
      answer: {
        offset,
        segment: { baseOffset: seg.baseOffset, logFileName: seg.logFileName, indexFileName: seg.indexFileName },
        indexEntry: idx.slot >= 0 ? seg.offsetIndex.entryInfo(idx.slot) : null,
        position: found.position,
        batch: found.header,
        batchesScanned: scanned,
        record,
        exact,
      },
      trace: trace ?? [],
    };
  }

  /**
   * Kafka's fetchOffsetByTimestamp: the first offset whose timestamp is >= `timestamp`. Skips
   * segments whose largest timestamp is older, searches `.timeindex`, maps its offset through
   * `.index`, scans batch headers by max timestamp, then picks the record. Answer null when no
   * record is that recent. EARLIEST_TIMESTAMP (-2) / LATEST_TIMESTAMP (-1) give the log start /
   * end offset; MAX_TIMESTAMP (-3) the offset of the largest timestamp.
   */
  lookupByTimestamp(
    timestamp: number,
    options: LookupOptions = {},
  ): { answer: TimestampLookupAnswer | null; trace: LookupStep[] } {
    const trace: LookupStep[] | undefined = options.trace === false ? undefined : [];
    const latestEpoch = this.leaderEpochCache.latestEpoch;
    if (timestamp === EARLIEST_TIMESTAMP || timestamp === LATEST_TIMESTAMP) {
      const offset = timestamp === EARLIEST_TIMESTAMP ? this._logStartOffset : this.logEndOffset;
      const seg = this.segments.floorSegment(offset) as LogSegment;
      trace?.push({
        kind: 'record-found',
        offset,
        timestamp,
        position: -1,
        exact: true,
        explanation:
          timestamp === EARLIEST_TIMESTAMP
            ? `Timestamp -2 means "earliest": the answer is the log start offset ${offset}.`
            : `Timestamp -1 means "latest": the answer is the log end offset ${offset}.`,
      });
      return {
        answer: { timestamp: -1, offset, leaderEpoch: latestEpoch, segmentBaseOffset: seg.baseOffset, position: -1 },
        trace: trace ?? [],
      };
    }
    if (timestamp === MAX_TIMESTAMP) {
      // KIP-734: the offset of the record with the largest timestamp (the first such record).
      let best: LogSegment | null = null;
      for (const s of this.segments.values) if (!best || s.maxTimestampSoFar > best.maxTimestampSoFar) best = s;
      if (!best || best.maxTimestampSoFar < 0) return { answer: null, trace: trace ?? [] };
      const max = best.maxTimestampSoFar;
      this.readable(best);
      const found = best.searchForOffset(
        best.offsetOfMaxTimestampSoFar,
        best.offsetIndex.lookup(best.offsetOfMaxTimestampSoFar).position,
      );
      let offset = best.offsetOfMaxTimestampSoFar;
      if (found) {
        const h = found.header;
        for (const r of decodeBatchRecords(best.log.view(), h)) {
          const ts = (h.attributes & 0x08) !== 0 ? h.maxTimestamp : h.baseTimestamp + r.timestampDelta;
          if (ts === max) {
            offset = h.baseOffset + r.offsetDelta;
            break;
          }
        }
      }
      trace?.push({
        kind: 'record-found',
        offset,
        timestamp: max,
        position: found?.position ?? -1,
        exact: true,
        explanation: `Timestamp -3 means "max timestamp": record ${offset} carries the largest timestamp, ${max}.`,
      });
      return {
        answer: {
          timestamp: max,
          offset,
          leaderEpoch: found && found.header.partitionLeaderEpoch >= 0 ? found.header.partitionLeaderEpoch : null,
          segmentBaseOffset: best.baseOffset,
          position: found?.position ?? -1,
        },
        trace: trace ?? [],
      };
    }
    let target: LogSegment | undefined;
    for (const s of this.segments.values) {
      const skipped = s.largestTimestamp < timestamp;
      trace?.push({
        kind: 'segment-timestamp-check',
        baseOffset: s.baseOffset,
        fileName: s.logFileName,
        largestTimestamp: s.largestTimestamp,
        targetTimestamp: timestamp,
        skipped,
        explanation: skipped
          ? `${s.logFileName}'s newest record has timestamp ${s.largestTimestamp} < ${timestamp}: skip the whole segment.`
          : `${s.logFileName}'s newest timestamp ${s.largestTimestamp} is >= ${timestamp}: the first such record is in this segment.`,
      });
      if (!skipped) {
        target = s;
        break;
      }
    }
    if (!target) {
      trace?.push({ kind: 'not-found', explanation: `No record has a timestamp >= ${timestamp}.` });
      return { answer: null, trace: trace ?? [] };
    }
    trace?.push({
      kind: 'segment-chosen',
      baseOffset: target.baseOffset,
      fileName: target.logFileName,
      explanation: `Search ${target.logFileName} through its ${target.timeIndexFileName}.`,
    });
    const hit = this.readable(target).findBatchByTimestamp(timestamp, this._logStartOffset, trace);
    if (hit) {
      const batch = hit.header;
      const logAppendTime = (batch.attributes & 0x08) !== 0;
      for (const r of decodeBatchRecords(target.log.view(), batch)) {
        const ts = logAppendTime ? batch.maxTimestamp : batch.baseTimestamp + r.timestampDelta;
        const o = batch.baseOffset + r.offsetDelta;
        if (ts >= timestamp && o >= this._logStartOffset) {
          trace?.push({
            kind: 'record-found',
            offset: o,
            timestamp: ts,
            position: hit.position,
            exact: ts === timestamp,
            explanation: `Record ${o} (timestamp ${ts}) is the first in the batch with a timestamp >= ${timestamp}.`,
          });
          const epoch = hit.header.partitionLeaderEpoch;
          return {
            answer: {
              timestamp: ts,
              offset: o,
              leaderEpoch: epoch >= 0 ? epoch : null,
              segmentBaseOffset: target.baseOffset,
              position: hit.position,
            },
            trace: trace ?? [],
          };
        }
      }
    }
    trace?.push({
      kind: 'not-found',
      explanation: `No record in ${target.logFileName} has a timestamp >= ${timestamp}.`,
    });
    return { answer: null, trace: trace ?? [] };
  }

  // ---------------------------------------------------------------- truncation

  /**
   * Kafka's UnifiedLog.truncateTo: removes every offset >= targetOffset (a follower does this to
   * the leader's epoch end offset before fetching). Returns whether anything was removed.
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
    if (targetOffset < (this.segments.first as LogSegment).baseOffset) {
      this.truncateFullyAndStartAt(targetOffset);
      return true;
    }
    const floor = this.segments.floorSegment(targetOffset) as LogSegment;
    if (!floor.resident) return this.truncateToPagedOut(floor, targetOffset);
    for (const seg of [...this.segments.values]) {
      if (seg.baseOffset > targetOffset) {
        this.segments.remove(seg);
        this.deleteSegmentFiles(seg);
      }
    }
    const seg = this.activeSegment;
    const before = { bytes: seg.flushedBytes, index: seg.flushedOffsetIndexEntries, time: seg.flushedTimeIndexEntries };
    seg.truncateTo(targetOffset);
    this.syncTruncation(seg, before);
    this.deleteProducerSnapshotsAbove(this.logEndOffset);
    if (this.leaderEpochCache.truncateFromEnd(targetOffset)) this.writeEpochCheckpoint();
    this._highWatermark = Math.min(this._highWatermark, this.logEndOffset);
    this._recoveryPoint = Math.min(this._recoveryPoint, this.logEndOffset);
    this.durable.truncatedTo(this.logEndPoint());
    return true;
  }

  /**
   * Truncation into a paged-out segment (only an unclean election cuts below the high
   * watermark): the engine cannot wait for its bytes, so the whole segment goes and an empty one
   * takes its base offset, as if it had been cut to zero bytes. The log then ends below
   * `targetOffset`; a follower fetches the difference from the leader again, which holds it.
   */
  private truncateToPagedOut(floor: LogSegment, targetOffset: number): boolean {
    for (const seg of [...this.segments.values]) {
      if (seg.baseOffset >= floor.baseOffset) {
        this.segments.remove(seg);
        this.deleteSegmentFiles(seg);
      }
    }
    if (this.segments.count === 0) {
      this.truncateFullyAndStartAt(floor.baseOffset);
      return true;
    }
    this.createSegment(floor.baseOffset);
    this.deleteProducerSnapshotsAbove(this.logEndOffset);
    const end = Math.min(targetOffset, this.logEndOffset);
    if (this.leaderEpochCache.truncateFromEnd(end)) this.writeEpochCheckpoint();
    this._highWatermark = Math.min(this._highWatermark, this.logEndOffset);
    this._recoveryPoint = Math.min(this._recoveryPoint, this.logEndOffset);
    return true;
  }

  /** Kafka's truncateFullyAndStartAt: deletes every segment and starts empty at `newOffset`. */
  truncateFullyAndStartAt(newOffset: number): void {
    if (!Number.isSafeInteger(newOffset) || newOffset < 0) {
      throw new KafkaError('INVALID_REQUEST', `cannot start ${this.dir} at offset ${newOffset}`, { newOffset });
    }
    for (const seg of this.segments.values) this.deleteSegmentFiles(seg);
    for (const o of [...this.producerSnapshots.keys()]) this.deleteProducerSnapshot(o);
    this.segments.clear();
    this.createSegment(newOffset);
    this.leaderEpochCache.clear();
    this.writeEpochCheckpoint();
    this._logStartOffset = newOffset;
    this._highWatermark = newOffset;
    this._recoveryPoint = newOffset;
    this.durable.reset(this.logEndPoint());
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
    const deleted: RetentionResult['deleted'] = [];
    if (!isDeleteEnabled(this._config)) return { deleted, logStartOffset: this._logStartOffset };
    const cfg = this._config;
    if (cfg['retention.bytes'] >= 0 && this.size >= cfg['retention.bytes']) {
      let diff = this.size - cfg['retention.bytes'];
      this.deleteSegmentsWhile(deleted, 'retention.bytes', (seg) => {
        if (diff - seg.size < 0) return false;
        diff -= seg.size;
        return true;
      });
    }
    if (cfg['retention.ms'] >= 0) {
      this.deleteSegmentsWhile(deleted, 'retention.ms', (seg) => now - seg.largestTimestamp > cfg['retention.ms']);
    }
    return { deleted, logStartOffset: this._logStartOffset };
  }

  /** Kafka's deletableSegments + deleteSegments for one retention predicate. */
  private deleteSegmentsWhile(
    deleted: DeletedSegment[],
    reason: RetentionReason,
    predicate: (seg: LogSegment) => boolean,
  ): void {
    const deletable: LogSegment[] = [];
    for (const seg of this.segments.values) {
      const next = this.segments.higherSegment(seg);
      const upperBound = next ? next.baseOffset : this.logEndOffset;
      if (next === undefined && seg.size === 0) break;
      if (!(this._highWatermark >= upperBound && predicate(seg))) break;
      deletable.push(seg);
    }
    if (deletable.length === 0) return;
    // The active segment itself is expired: roll first so the log keeps one (empty) segment.
    if (deletable.length === this.segments.count) this.roll();
    for (const seg of deletable) {
      deleted.push({ baseOffset: seg.baseOffset, logFileName: seg.logFileName, sizeInBytes: seg.size, reason });
      this.segments.remove(seg);
      this.deleteSegmentFiles(seg);
    }
    this._logStartOffset = (this.segments.first as LogSegment).baseOffset;
    this._highWatermark = Math.max(this._highWatermark, this._logStartOffset);
    this._recoveryPoint = Math.max(this._recoveryPoint, this._logStartOffset);
    if (this.leaderEpochCache.truncateFromStart(this._logStartOffset)) this.writeEpochCheckpoint();
  }

  /**
   * Runs one pass of Kafka's log cleaner over this log (cleanup.policy=compact): keeps the latest
   * record per key in every whole segment below the active segment and the high watermark,
   * preserves offsets, stamps a delete horizon on tombstones and drops them once it passed,
   * rebuilds indexes. See LogCleaner.
   */
  compact(now = this.clock.now(), lastRecordsOfActiveProducers?: ReadonlyMap<number, number>): CleanerResult {
    if (!isCompacted(this._config)) {
      throw new KafkaError(
        'INVALID_CONFIG',
        `${this.dir} has cleanup.policy=${this._config['cleanup.policy'].join(',')}, not compact`,
      );
    }
    const closed = this.segments.values.filter((seg) => seg !== this.activeSegment);
    const missing = closed.filter((seg) => !seg.resident);
    if (missing.length > 0) {
      // The cleaner reads every closed segment: it waits for those paged out (a log paged out
      // before cleanup.policy became compact) and cleans on its next pass.
      for (const seg of missing) this.cache?.request(seg);
      return emptyCleanerResult();
    }
    return cleanLog(
      {
        config: this._config,
        segments: this.segments.values,
        activeSegment: this.activeSegment,
        highWatermark: this._highWatermark,
        ...(lastRecordsOfActiveProducers ? { lastRecordsOfActiveProducers } : {}),
        replace: (old, cleaned) => this.replaceWithCleaned(old, cleaned),
      },
      now,
    );
  }

  /** What LogCleanerManager weighs of this log (dirty ratio, compaction lags). */
  cleanerView(): CleanerLogView {
    return {
      config: this._config,
      logStartOffset: this._logStartOffset,
      logEndOffset: this.logEndOffset,
      lastStableOffset: this._highWatermark,
      segments: this.segments.values.map((s) => ({
        baseOffset: s.baseOffset,
        size: s.size,
        largestTimestamp: s.largestTimestamp,
        firstBatchTimestamp: s.firstBatchTimestamp,
      })),
    };
  }

  private replaceWithCleaned(old: readonly LogSegment[], cleaned: LogSegment | null): void {
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
      this.cache?.admit(this, cleaned);
    }
  }
}

function toConfig(config: LogConfigInput | LogConfig | undefined): LogConfig {
  return createLogConfig((config ?? {}) as LogConfigInput);
}
