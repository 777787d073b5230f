import type { RecordBatchHeader } from '../codec';
import { LAST_OFFSET_DELTA_OFFSET, LENGTH_OFFSET, LOG_OVERHEAD, RECORD_BATCH_OVERHEAD } from '../codec/recordBatch';
import type { CleanerLogView } from '../log/LogCleanerManager';
import type { LogConfigInput } from '../log/LogConfig';
import type { UnifiedLog } from '../log/UnifiedLog';
import { SegmentNotLoadedError } from '../log/SegmentCache';
import type { EpochEntry } from '../log/LeaderEpochFileCache';
import type { ReplicaAppendInfo, ReplicaLog, SegmentSummary } from './ReplicaLog';
import type { TopicConfig } from './TopicConfig';

/**
 * A replica's log backed by the real UnifiedLog (segments, sparse indexes, leader-epoch
 * checkpoint, write-behind flushing to the Store). This is what the engine's brokers use.
 *
 * A power failure keeps exactly what had been flushed: the log is cut back to its recovery
 * point (every offset below it was handed to the Store), as recovery would find it after a
 * restart.
 */
export class PartitionLogReplica implements ReplicaLog {
  /** The hosting Partition's producer state, as Kafka's UnifiedLog owns its ProducerStateManager. */
  private activeProducers: (() => ReadonlyMap<number, number>) | null = null;

  constructor(readonly log: UnifiedLog) {}

  attachProducerState(lastRecordsOfActiveProducers: () => ReadonlyMap<number, number>): void {
    this.activeProducers = lastRecordsOfActiveProducers;
  }

  attachProducerSnapshots(source: () => Uint8Array): void {
    this.log.attachProducerSnapshots(source);
  }

  takeProducerSnapshot(): void {
    this.log.takeProducerSnapshot();
  }

  latestProducerSnapshot(): { offset: number; bytes: Uint8Array } | null {
    return this.log.latestProducerSnapshot();
  }

  logStartOffset(): number {
    return this.log.logStartOffset;
  }

  recoveryPoint(): number {
    return this.log.recoveryPoint;
  }

  firstSegmentBaseOffset(): number {
    return this.log.localLog.segments.first?.baseOffset ?? this.log.logStartOffset;
  }

  logEndOffset(): number {
    return this.log.logEndOffset;
  }

  maybeIncrementLogStartOffset(offset: number): boolean {
    return this.log.maybeIncrementLogStartOffset(offset);
  }

  appendAsLeader(records: Uint8Array, leaderEpoch: number): ReplicaAppendInfo {
    const info = this.log.appendAsLeader(records, leaderEpoch);
    // The log's own validated headers (fresh objects), given the offsets and epoch it wrote.
    const headers = info.headers;
    for (let i = 0; i < headers.length; i++) {
      const h = headers[i] as RecordBatchHeader;
      const base = info.batches[i]?.baseOffset ?? h.baseOffset;
      h.baseOffset = base;
      h.lastOffset = base + h.lastOffsetDelta;
      h.partitionLeaderEpoch = leaderEpoch;
    }
    return toAppendInfo(headers);
  }

  appendAsFollower(records: Uint8Array): ReplicaAppendInfo {
    // Drop batches we already hold (a fetch may start inside a batch we have).
    const start = firstBatchReaching(records, this.log.logEndOffset);
    if (start >= records.length) return toAppendInfo([]);
    const bytes = start === 0 ? records : records.subarray(start);
    // Fetched records are a leader's read(), which never changes (ReplicaLog.read): keep them.
    return toAppendInfo(this.log.appendAsFollower(bytes, true).headers);
  }

  /**
   * A read that reaches a paged-out segment returns nothing yet, as a broker's read waits on its
   * disk: the log has asked for the segment, and the fetch comes back (from the purgatory or on
   * the next request) once the host has read it back from the Store.
   */
  read(startOffset: number, maxBytes: number, maxOffset: number, minOneMessage = true): Uint8Array {
    try {
      return this.log.fetch(startOffset, maxBytes, maxOffset, minOneMessage).records;
    } catch (e) {
      if (e instanceof SegmentNotLoadedError) return NO_RECORDS;
      throw e;
    }
  }

  truncateTo(offset: number): void {
    this.log.truncateTo(offset);
  }

  truncateFullyAndStartAt(offset: number): void {
    this.log.truncateFullyAndStartAt(offset);
  }

  assignEpochStartOffset(epoch: number, startOffset: number): void {
    this.log.maybeAssignEpochStartOffset(epoch, startOffset);
  }

  latestEpoch(): number | null {
    return this.log.leaderEpochCache.latestEpoch;
  }

  endOffsetForEpoch(epoch: number): { epoch: number; endOffset: number } {
    return this.log.leaderEpochCache.endOffsetFor(epoch, this.log.logEndOffset);
  }

  epochEntries(): EpochEntry[] {
    return this.log.leaderEpochCache.entries.map((e) => ({ ...e }));
  }

  batchHeaders(fromOffset = 0): RecordBatchHeader[] {
    const out: RecordBatchHeader[] = [];
    let offset = Math.max(fromOffset, this.log.logStartOffset);
    while (offset < this.log.logEndOffset) {
      let info: ReturnType<UnifiedLog['fetch']>;
      try {
        info = this.log.fetch(offset, Number.MAX_SAFE_INTEGER);
      } catch (e) {
        // A paged-out segment is skipped, as Kafka's producer state rebuild starts from its
        // latest snapshot and never reads the segments before it: the paged-out ones are old
        // (closed, committed, durable), and producers whose last batch is only there are
        // forgotten as if expired.
        if (!(e instanceof SegmentNotLoadedError)) throw e;
        offset = Math.max(offset + 1, e.segment.nextOffset);
        continue;
      }
      if (info.batches.length === 0) break;
      out.push(...info.batches);
      if (info.nextOffset <= offset) break;
      offset = info.nextOffset;
    }
    return out;
  }

  segments(): SegmentSummary[] {
    return this.log.segmentInfos().map((s) => ({
      name: s.logFileName,
      baseOffset: s.baseOffset,
      sizeInBytes: s.sizeInBytes,
      flushedBytes: s.flushedBytes,
      unflushedBytes: s.unflushedBytes,
      active: s.active,
    }));
  }

  flush(): void {
    this.log.flush();
  }

  loseUnflushed(): void {
    if (this.log.recoveryPoint < this.log.logEndOffset) this.log.truncateTo(this.log.recoveryPoint);
  }

  setHighWatermark(offset: number): void {
    this.log.updateHighWatermark(offset);
  }

  maybeFlush(now: number): void {
    this.log.maybeFlush(now);
  }

  deleteOldSegments(now: number): NonNullable<ReturnType<NonNullable<ReplicaLog['deleteOldSegments']>>> {
    const r = this.log.deleteOldSegments(now);
    return { deletedSegments: r.deleted.length, logStartOffset: r.logStartOffset, deleted: r.deleted };
  }

  compact(now: number, firstDirtyOffset?: number): ReturnType<NonNullable<ReplicaLog['compact']>> {
    if (!this.log.config['cleanup.policy'].includes('compact')) return null;
    const r = this.log.compact(now, this.activeProducers?.(), firstDirtyOffset);
    return {
      recordsSuperseded: r.recordsSuperseded,
      tombstonesRemoved: r.tombstonesRemoved,
      bytesBefore: r.bytesBefore,
      bytesAfter: r.bytesAfter,
      cleanedSegments: r.groups.map((g) => g.cleanedBaseOffset),
      cleanableRange: r.cleanableRange,
    };
  }

  cleanerView(): CleanerLogView | null {
    return this.log.config['cleanup.policy'].includes('compact') ? this.log.cleanerView() : null;
  }

  /** Throws SegmentNotLoadedError when the answer is in a paged-out segment (the load is asked for). */
  offsetForTimestamp(timestamp: number): { offset: number; timestamp: number; leaderEpoch: number | null } | null {
    const { answer } = this.log.lookupByTimestamp(timestamp, { trace: false });
    return answer ? { offset: answer.offset, timestamp: answer.timestamp, leaderEpoch: answer.leaderEpoch } : null;
  }

  updateConfig(config: TopicConfig): void {
    this.log.updateConfig(logConfigOf(config));
  }
}

/** The log part of a topic config (UnifiedLog refuses the replication keys). */
export function logConfigOf(config: TopicConfig): LogConfigInput {
  const { 'min.insync.replicas': _m, 'unclean.leader.election.enable': _u, ...log } = config;
  return log;
}

/**
 * The byte position of the first batch in `records` whose last offset is >= `offset` (or the
 * length if none), reading only the base offset, last offset delta and length of the batches
 * before it. The batches it skips are checked no further: they are not appended.
 */
function firstBatchReaching(records: Uint8Array, offset: number): number {
  let position = 0;
  while (position + RECORD_BATCH_OVERHEAD <= records.length) {
    const baseOffset = uint32(records, position) * 4294967296 + uint32(records, position + 4);
    const lastOffsetDelta = uint32(records, position + LAST_OFFSET_DELTA_OFFSET);
    if (baseOffset + lastOffsetDelta >= offset) return position;
    position += LOG_OVERHEAD + uint32(records, position + LENGTH_OFFSET);
  }
  return Math.min(position, records.length);
}

function uint32(b: Uint8Array, p: number): number {
  return (
    (b[p] as number) * 16777216 + (((b[p + 1] as number) << 16) | ((b[p + 2] as number) << 8) | (b[p + 3] as number))
  );
}

const NO_RECORDS = new Uint8Array(0);

function toAppendInfo(batches: RecordBatchHeader[]): ReplicaAppendInfo {
  const first = batches[0];
  const last = batches[batches.length - 1];
  return {
    firstOffset: first ? first.baseOffset : -1,
    lastOffset: last ? last.lastOffset : -1,
    recordCount: batches.reduce((n, b) => n + b.recordCount, 0),
    maxTimestamp: batches.reduce((m, b) => Math.max(m, b.maxTimestamp), -1),
    validBytes: batches.reduce((n, b) => n + b.sizeInBytes, 0),
    batches,
  };
}
