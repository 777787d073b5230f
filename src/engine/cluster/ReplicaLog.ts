import type { EpochEntry } from '../log/LeaderEpochFileCache';
import type { DeletedSegment, LogAppendInfo } from '../log/UnifiedLog';
import {
  BASE_OFFSET_OFFSET,
  concatBytes,
  NO_PARTITION_LEADER_EPOCH,
  PARTITION_LEADER_EPOCH_OFFSET,
  type RecordBatchHeader,
  readBatchHeader,
  validateBatchCrc,
  writeInt32At,
  writeInt64At,
} from '../codec';
import { CorruptRecordError, KafkaError } from '../errors';
import { LeaderEpochFileCache } from '../log/LeaderEpochFileCache';

/**
 * What replication needs from a replica's local log (Kafka's UnifiedLog as ReplicaManager and
 * Partition use it): leader appends that assign offsets and stamp the leader epoch, follower
 * appends that keep the leader's offsets, reads bounded by an offset (the high watermark for
 * consumers), truncation, and the leader-epoch cache (epoch -> start offset) that KIP-101
 * truncation asks with `endOffsetForEpoch`.
 */
/** What replication keeps of an append (of Kafka's LogAppendInfo): offsets, sizes, the batches. */
export type ReplicaAppendInfo = Pick<LogAppendInfo, 'firstOffset' | 'lastOffset' | 'maxTimestamp' | 'validBytes'> & {
  recordCount: number;
  /** Headers of the appended batches, at their assigned offsets. */
  batches: RecordBatchHeader[];
};

export interface SegmentSummary {
  /** `<20-digit base offset>.log` */
  name: string;
  baseOffset: number;
  sizeInBytes: number;
  flushedBytes: number;
  unflushedBytes: number;
  active: boolean;
}

export interface ReplicaLog {
  logStartOffset(): number;
  logEndOffset(): number;
  /** Validates, assigns offsets from the LEO, stamps partitionLeaderEpoch. */
  appendAsLeader(records: Uint8Array, leaderEpoch: number, maxMessageBytes: number): ReplicaAppendInfo;
  /**
   * Appends batches that already carry the leader's offsets and epochs. `records` is a leader's
   * read() result, which never changes: the log may keep it rather than copy it.
   */
  appendAsFollower(records: Uint8Array): ReplicaAppendInfo;
  /**
   * Whole batches starting at the one holding startOffset, up to maxBytes (at least one batch),
   * below maxOffset. The bytes never change afterwards (a copy, or a view of bytes the log never
   * rewrites), and nobody writes to them.
   */
  /** `minOneMessage` (default true): the first batch whole even past `maxBytes` (Kafka's LogSegment.read). */
  read(startOffset: number, maxBytes: number, maxOffset: number, minOneMessage?: boolean): Uint8Array;
  /**
   * Removes every record at or above offset. Asked to truncate at or past its end, a log still
   * drops epoch entries that start at its end (Kafka's UnifiedLog.truncateTo: a replica that led
   * an epoch without writing to it must not keep claiming that epoch).
   */
  truncateTo(offset: number): void;
  /** Kafka's truncateFullyAndStartAt: every record and epoch entry goes; the log restarts empty at `offset`. */
  truncateFullyAndStartAt(offset: number): void;
  latestEpoch(): number | null;
  /** Kafka's LeaderEpochFileCache.endOffsetFor: (largest epoch <= requested, its end offset), or (-1, -1). */
  endOffsetForEpoch(epoch: number): { epoch: number; endOffset: number };
  epochEntries(): EpochEntry[];
  /** Every batch header from `fromOffset` on (for rebuilding producer state). */
  batchHeaders(fromOffset?: number): RecordBatchHeader[];
  segments(): SegmentSummary[];
  /** fsync: everything appended so far is now durable. */
  flush(): void;
  /** A power failure: bytes not yet flushed are gone (torn tail included). */
  loseUnflushed(): void;
  /** A replica becoming leader records that its epoch starts at its LEO (Kafka's maybeAssignEpochStartOffset). */
  assignEpochStartOffset(epoch: number, startOffset: number): void;
  /** Mirrors the partition's high watermark into the log (retention never passes it). */
  setHighWatermark?(offset: number): void;
  /** The log flusher's periodic check (flush.ms / flush.messages). */
  maybeFlush?(now: number): void;
  /**
   * Kafka's maybeIncrementLogStartOffset: the log starts at `offset` from now on (DeleteRecords,
   * or a follower following its leader's log start); OFFSET_OUT_OF_RANGE past the high watermark.
   */
  maybeIncrementLogStartOffset?(offset: number): boolean;
  /** Kafka's recoveryPoint: offsets below it are flushed (recovery-point-offset-checkpoint). */
  recoveryPoint?(): number;
  /** The base offset of the first segment (log-start-offset-checkpoint lists only logs starting above it). */
  firstSegmentBaseOffset?(): number;
  /** The retention check (retention.ms / retention.bytes): deletes whole old segments. */
  deleteOldSegments?(now: number): {
    deletedSegments: number;
    logStartOffset: number;
    deleted?: DeletedSegment[];
  };
  /**
   * Hands the log its partition's producer state (producer id -> last data offset), which the
   * cleaner needs to keep each active producer's last batch (BatchRetention.RETAIN_EMPTY).
   */
  attachProducerState?(lastRecordsOfActiveProducers: () => ReadonlyMap<number, number>): void;
  /** Hands the log its producer state as snapshot bytes, written as `<offset>.snapshot` on every roll. */
  attachProducerSnapshots?(source: () => Uint8Array): void;
  /** Writes a producer snapshot at the log end (a clean shutdown). */
  takeProducerSnapshot?(): void;
  /** The latest producer snapshot inside (log start, log end], for recovery to start from. */
  latestProducerSnapshot?(): { offset: number; bytes: Uint8Array } | null;
  /** The log cleaner's pass over a compacted log (cleanup.policy=compact), its offset map built from `firstDirtyOffset`. */
  compact?(
    now: number,
    firstDirtyOffset?: number,
  ): {
    recordsSuperseded: number;
    tombstonesRemoved: number;
    bytesBefore: number;
    bytesAfter: number;
    cleanedSegments?: number[];
    /** Offsets [from, to) the pass could clean; `to` is what the cleaner checkpoints. */
    cleanableRange?: { from: number; to: number } | null;
  } | null;
  /** What LogCleanerManager weighs of a compacted log (null when the log is not compacted). */
  cleanerView?(): import('../log/LogCleanerManager').CleanerLogView | null;
  updateConfig?(config: import('./TopicConfig').TopicConfig): void;
  /** Kafka's fetchOffsetByTimestamp: the first record with timestamp >= ts (null when none). */
  offsetForTimestamp?(timestamp: number): { offset: number; timestamp: number; leaderEpoch: number | null } | null;
}

/**
 * The batch headers of a records buffer, structure checked but CRCs not (the log validates
 * CRCs on append; bookkeeping needs only the headers).
 */
export function readBatchHeaders(records: Uint8Array): RecordBatchHeader[] {
  const headers: RecordBatchHeader[] = [];
  let position = 0;
  while (position < records.length) {
    const header = readBatchHeader(records, position);
    headers.push(header);
    position += header.sizeInBytes;
  }
  if (headers.length === 0) throw new KafkaError('INVALID_RECORD', 'no record batch in the request', {});
  return headers;
}

/** Reads every batch header and validates each CRC. */
export function readBatches(records: Uint8Array): RecordBatchHeader[] {
  const headers: RecordBatchHeader[] = [];
  let position = 0;
  while (position < records.length) {
    const header = readBatchHeader(records, position);
    if (!validateBatchCrc(records, header))
      throw new CorruptRecordError(`batch at position ${position} fails its CRC check`, { position, reason: 'crc' });
    headers.push(header);
    position += header.sizeInBytes;
  }
  if (headers.length === 0) throw new KafkaError('INVALID_RECORD', 'no record batch in the request', {});
  return headers;
}

interface StoredBatch {
  header: RecordBatchHeader;
  bytes: Uint8Array;
  flushed: boolean;
}

/**
 * A ReplicaLog held in memory as a list of batches (one segment). It models exactly what
 * replication observes — offsets, epochs, flushed vs unflushed bytes — and serves as the test
 * double for cluster tests; the segment-and-index machinery lives in log/UnifiedLog.
 */
export class MemoryReplicaLog implements ReplicaLog {
  private batches: StoredBatch[] = [];
  private readonly epochs = new LeaderEpochFileCache();
  private startOffset = 0;
  private endOffset = 0;

  logStartOffset(): number {
    return this.startOffset;
  }

  logEndOffset(): number {
    return this.endOffset;
  }

  appendAsLeader(records: Uint8Array, leaderEpoch: number, maxMessageBytes: number): ReplicaAppendInfo {
    const headers = readBatches(records);
    for (const h of headers) {
      if (h.sizeInBytes > maxMessageBytes)
        throw new KafkaError('MESSAGE_TOO_LARGE', `batch of ${h.sizeInBytes} bytes exceeds max.message.bytes`, {
          size: h.sizeInBytes,
          limit: maxMessageBytes,
        });
    }
    const appended: RecordBatchHeader[] = [];
    let next = this.endOffset;
    for (const h of headers) {
      const bytes = records.slice(h.position, h.position + h.sizeInBytes);
      writeInt64At(bytes, BASE_OFFSET_OFFSET, next);
      writeInt32At(bytes, PARTITION_LEADER_EPOCH_OFFSET, leaderEpoch);
      const header = readBatchHeader(bytes, 0);
      appended.push(header);
      next = header.lastOffset + 1;
      this.store(header, bytes);
    }
    return this.info(appended);
  }

  appendAsFollower(records: Uint8Array): ReplicaAppendInfo {
    const headers = readBatches(records);
    const appended: RecordBatchHeader[] = [];
    for (const h of headers) {
      if (h.lastOffset < this.endOffset) continue; // already have it
      if (h.baseOffset < this.endOffset)
        throw new KafkaError('INVALID_RECORD', `batch at ${h.baseOffset} overlaps the log end ${this.endOffset}`, {});
      const bytes = records.slice(h.position, h.position + h.sizeInBytes);
      const header = readBatchHeader(bytes, 0);
      appended.push(header);
      this.store(header, bytes);
    }
    return this.info(appended);
  }

  private store(header: RecordBatchHeader, bytes: Uint8Array): void {
    if (this.batches.length === 0 && this.endOffset === 0) this.startOffset = header.baseOffset;
    this.batches.push({ header, bytes, flushed: false });
    this.endOffset = header.lastOffset + 1;
    const epoch = header.partitionLeaderEpoch;
    if (epoch !== NO_PARTITION_LEADER_EPOCH) this.epochs.assign(epoch, header.baseOffset);
  }

  private info(batches: RecordBatchHeader[]): ReplicaAppendInfo {
    const first = batches[0];
    const last = batches[batches.length - 1];
    return {
      firstOffset: first ? first.baseOffset : this.endOffset,
      lastOffset: last ? last.lastOffset : this.endOffset - 1,
      recordCount: batches.reduce((n, b) => n + b.recordCount, 0),
      maxTimestamp: batches.reduce((m, b) => Math.max(m, b.maxTimestamp), -1),
      validBytes: batches.reduce((n, b) => n + b.sizeInBytes, 0),
      batches,
    };
  }

  read(startOffset: number, maxBytes: number, maxOffset: number, minOneMessage = true): Uint8Array {
    if (startOffset < this.startOffset || startOffset > this.endOffset)
      throw new KafkaError(
        'OFFSET_OUT_OF_RANGE',
        `offset ${startOffset} is outside [${this.startOffset}, ${this.endOffset}]`,
        {
          offset: startOffset,
          logStartOffset: this.startOffset,
          logEndOffset: this.endOffset,
        },
      );
    // As LogSegment.read: a slice of adjustedMaxSize bytes, which may end inside a batch.
    const chosen: Uint8Array[] = [];
    let limit = -1;
    let size = 0;
    for (const b of this.batches) {
      if (b.header.lastOffset < startOffset) continue;
      if (b.header.baseOffset >= maxOffset) break;
      if (limit < 0) limit = Math.max(0, minOneMessage ? Math.max(maxBytes, b.bytes.length) : maxBytes);
      if (size >= limit) break;
      chosen.push(size + b.bytes.length > limit ? b.bytes.subarray(0, limit - size) : b.bytes);
      size += Math.min(b.bytes.length, limit - size);
    }
    return concatBytes(chosen);
  }

  /** The batches wholly below the new start go at once (one segment: nothing waits for retention). */
  maybeIncrementLogStartOffset(offset: number): boolean {
    if (offset <= this.startOffset) return false;
    if (offset > this.endOffset)
      throw new KafkaError('OFFSET_OUT_OF_RANGE', `log start ${offset} is past the log end ${this.endOffset}`, {
        offset,
      });
    this.batches = this.batches.filter((b) => b.header.lastOffset >= offset);
    this.startOffset = offset;
    this.epochs.truncateFromStart(offset);
    return true;
  }

  truncateTo(offset: number): void {
    if (offset < this.endOffset) {
      // Kafka truncates to a batch boundary: a batch straddling the point goes entirely.
      this.batches = this.batches.filter((b) => b.header.lastOffset < offset);
      const last = this.batches[this.batches.length - 1];
      this.endOffset = last ? last.header.lastOffset + 1 : this.startOffset;
    }
    this.epochs.truncateFromEnd(this.endOffset);
  }

  truncateFullyAndStartAt(offset: number): void {
    this.batches = [];
    this.startOffset = offset;
    this.endOffset = offset;
    this.epochs.clear();
  }

  latestEpoch(): number | null {
    return this.epochs.latestEpoch;
  }

  assignEpochStartOffset(epoch: number, startOffset: number): void {
    const latest = this.epochs.latestEpoch;
    if (latest !== null && epoch <= latest) return;
    this.epochs.assign(epoch, startOffset);
  }

  endOffsetForEpoch(epoch: number): { epoch: number; endOffset: number } {
    return this.epochs.endOffsetFor(epoch, this.endOffset);
  }

  epochEntries(): EpochEntry[] {
    return this.epochs.entries.map((e) => ({ ...e }));
  }

  batchHeaders(fromOffset = 0): RecordBatchHeader[] {
    return this.batches.filter((b) => b.header.lastOffset >= fromOffset).map((b) => b.header);
  }

  segments(): SegmentSummary[] {
    const size = this.batches.reduce((n, b) => n + b.bytes.length, 0);
    const flushed = this.batches.filter((b) => b.flushed).reduce((n, b) => n + b.bytes.length, 0);
    return [
      {
        name: `${String(this.startOffset).padStart(20, '0')}.log`,
        baseOffset: this.startOffset,
        sizeInBytes: size,
        flushedBytes: flushed,
        unflushedBytes: size - flushed,
        active: true,
      },
    ];
  }

  flush(): void {
    for (const b of this.batches) b.flushed = true;
  }

  loseUnflushed(): void {
    const keep = this.batches.findIndex((b) => !b.flushed);
    if (keep < 0) return;
    const cut = this.batches[keep] as StoredBatch;
    this.truncateTo(cut.header.baseOffset);
  }
}

/**
 * Kafka's LeaderEpochFileCache.endOffsetFor over a list of epoch entries: the latest epoch ends
 * at the log end offset; another epoch is reported against the largest epoch <= it, ending where
 * the next epoch starts; an epoch below every entry ends where the first entry starts (the
 * leader no longer holds what came before); an epoch above every entry, or none recorded, is
 * (-1, -1): UNDEFINED_EPOCH / UNDEFINED_EPOCH_OFFSET.
 */
export function endOffsetForEpoch(
  epochs: readonly EpochEntry[],
  requested: number,
  logEndOffset: number,
): { epoch: number; endOffset: number } {
  return new LeaderEpochFileCache(epochs).endOffsetFor(requested, logEndOffset);
}
