import { tpKey } from '../TopicPartition';
import { type CleanerLogView, grabFilthiestCompactedLog } from '../log/LogCleanerManager';
import type { BrokerServices } from './BrokerServices';
import {
  CLEAN_SHUTDOWN_FILENAME,
  LOG_START_OFFSET_CHECKPOINT_FILENAME,
  RECOVERY_POINT_CHECKPOINT_FILENAME,
} from '../log/LogFileUtils';
import { formatOffsetCheckpoint, parseOffsetCheckpoint } from './checkpoint';
import type { HostedLog } from './HostedLog';

export type { HostedLog };

/** A topic-partition's key, which is also its log directory's name (`<topic>-<partition>`). */

/**
 * A broker's logs on disk (Kafka's kafka.log.LogManager): which log dir a new replica's log goes
 * to, creating and deleting logs, and the periodic duties over every log — the flusher
 * (flush.ms), the retention check, the cleaner's compaction passes — and what a power failure
 * does to the unflushed tail of each.
 *
 * Logs outlive the process: `logs` is the broker's disk (and page cache) and survives a restart;
 * the in-memory replica state over them (ReplicaManager's Partitions) does not.
 */
export class LogManager {
  readonly logs = new Map<string, HostedLog>();
  /**
   * The cleaner-offset-checkpoint of each log dir (LogCleanerManager's checkpoints): tpKey -> the
   * offset the cleaner has cleaned up to, i.e. the first dirty offset of its next pass.
   */
  private readonly cleanerCheckpoints = new Map<
    string,
    Map<string, { topic: string; partition: number; offset: number }>
  >();

  constructor(
    private readonly brokerId: number,
    readonly logDirs: string[],
    private readonly services: BrokerServices,
  ) {
    // Kafka's LogManager.loadLogs: what the disk already holds is hosted before anything else runs.
    for (const dir of logDirs) {
      for (const h of services.loadLogs(brokerId, dir)) this.logs.set(tpKey(h.topic, h.partition), h);
      // LogCleanerManager reads each log dir's cleaner-offset-checkpoint at startup; none: all dirty.
      const cleaned = services.readCleanerCheckpoint?.(brokerId, dir);
      if (cleaned) this.loadCleanerCheckpoint(dir, cleaned);
    }
  }

  private now(): number {
    return this.services.scheduler.now();
  }

  /** Kafka's LogManager.nextLogDirs: the dir holding the fewest partitions. */
  private nextLogDir(): string {
    let best = this.logDirs[0] as string;
    let bestCount = Number.POSITIVE_INFINITY;
    for (const dir of this.logDirs) {
      const count = [...this.logs.values()].filter((l) => l.dir === dir).length;
      if (count < bestCount) {
        best = dir;
        bestCount = count;
      }
    }
    return best;
  }

  /** The replica's log, opened in the least loaded log dir if this broker has none yet. */
  getOrCreateLog(topic: string, partition: number): HostedLog {
    const key = tpKey(topic, partition);
    const existing = this.logs.get(key);
    if (existing) return existing;
    const dir = this.nextLogDir();
    const partitionsPerLogDir: Record<string, number> = {};
    for (const d of this.logDirs) partitionsPerLogDir[d] = 0;
    for (const l of this.logs.values()) partitionsPerLogDir[l.dir] = (partitionsPerLogDir[l.dir] ?? 0) + 1;
    this.services.emit({
      type: 'replicaCreated',
      broker: this.brokerId,
      topic,
      partition,
      logDir: dir,
      partitionsPerLogDir,
      atMs: this.now(),
    });
    const hosted: HostedLog = {
      topic,
      partition,
      dir,
      log: this.services.newLog(this.brokerId, dir, topic, partition),
      checkpointedHighWatermark: 0,
    };
    this.logs.set(key, hosted);
    return hosted;
  }

  /** Deletes the replica's log from its dir (no-op when this broker holds none). */
  deleteLog(topic: string, partition: number): void {
    const key = tpKey(topic, partition);
    const hosted = this.logs.get(key);
    this.logs.delete(key);
    if (!hosted) return;
    // LogCleanerManager.updateCheckpoints(partitionToRemove): a deleted log leaves the checkpoint.
    if (this.cleanerCheckpoints.get(hosted.dir)?.delete(key)) this.writeCleanerCheckpoint(hosted.dir);
    this.services.deleteLog(this.brokerId, hosted.dir, topic, partition);
    this.services.emit({
      type: 'replicaDeleted',
      broker: this.brokerId,
      topic,
      partition,
      logDir: hosted.dir,
      atMs: this.now(),
    });
  }

  /** UnifiedLog.close on a clean shutdown: each log snapshots its producer state at its end. */
  takeProducerSnapshots(): void {
    for (const h of this.logs.values()) h.log.takeProducerSnapshot?.();
  }

  flushAll(): void {
    for (const h of this.logs.values()) h.log.flush();
  }

  /**
   * Kafka's LogManager.checkpointLogRecoveryOffsets (every log.flush.offset.checkpoint.interval.ms
   * and at shutdown): each log dir's recovery-point-offset-checkpoint, the offset below which each
   * of its logs is flushed. A restart after a crash recovers only from there on.
   */
  checkpointRecoveryOffsets(): void {
    for (const dir of this.logDirs) {
      const entries = [...this.logs.values()]
        .filter((h) => h.dir === dir)
        .map((h) => ({ topic: h.topic, partition: h.partition, offset: h.log.recoveryPoint?.() ?? 0 }));
      this.services.writeLogDirFile?.(
        this.brokerId,
        dir,
        RECOVERY_POINT_CHECKPOINT_FILENAME,
        formatOffsetCheckpoint(entries),
      );
    }
  }

  /**
   * Kafka's LogManager.checkpointLogStartOffsets (every log.flush.start.offset.checkpoint.interval.ms
   * and at shutdown): the logs whose log start offset is above their first segment's base offset.
   */
  checkpointLogStartOffsets(): void {
    for (const dir of this.logDirs) {
      const entries = [...this.logs.values()]
        .filter((h) => h.dir === dir && h.log.logStartOffset() > (h.log.firstSegmentBaseOffset?.() ?? 0))
        .map((h) => ({ topic: h.topic, partition: h.partition, offset: h.log.logStartOffset() }));
      this.services.writeLogDirFile?.(
        this.brokerId,
        dir,
        LOG_START_OFFSET_CHECKPOINT_FILENAME,
        formatOffsetCheckpoint(entries),
      );
    }
  }

  /**
   * The end of Kafka's LogManager.shutdown: logs flushed, checkpoints written, then
   * `.kafka_cleanshutdown` in every log dir, so the next start-up skips recovery (LogLoader).
   */
  markCleanShutdown(): void {
    this.checkpointRecoveryOffsets();
    this.checkpointLogStartOffsets();
    for (const dir of this.logDirs) this.services.writeLogDirFile?.(this.brokerId, dir, CLEAN_SHUTDOWN_FILENAME, '');
  }

  /**
   * A start-up has loaded the logs: the clean-shutdown marker goes (LogManager.loadLogs deletes
   * it), so a crash from now on is recovered as one.
   */
  clearCleanShutdown(): void {
    for (const dir of this.logDirs) this.services.writeLogDirFile?.(this.brokerId, dir, CLEAN_SHUTDOWN_FILENAME, null);
  }

  /** The log flusher (flush.ms), run periodically by the broker. */
  maybeFlushLogs(): void {
    const now = this.now();
    for (const h of this.logs.values()) h.log.maybeFlush?.(now);
  }

  /** Kafka's retention check (every log.retention.check.interval.ms). */
  cleanupLogs(): void {
    const now = this.now();
    for (const h of this.logs.values()) {
      const r = h.log.deleteOldSegments?.(now);
      if (r && r.deletedSegments > 0)
        this.services.emit({
          type: 'logRetention',
          broker: this.brokerId,
          topic: h.topic,
          partition: h.partition,
          deletedSegments: r.deletedSegments,
          logStartOffset: r.logStartOffset,
          ...(r.deleted ? { deleted: r.deleted.map((d) => ({ ...d })) } : {}),
          atMs: now,
        });
    }
  }

  /**
   * Kafka's LogCleaner thread, woken every log.cleaner.backoff.ms: it cleans the filthiest
   * compacted log whose dirty ratio exceeds min.cleanable.dirty.ratio (or whose oldest dirty record
   * is past max.compaction.lag.ms), checkpoints how far it cleaned, and goes on to the next
   * filthiest without backing off until none qualifies (CleanerThread.doWork); each log once a pass.
   */
  compactLogs(): void {
    const now = this.now();
    const done = new Set<string>();
    for (;;) {
      const views: [string, CleanerLogView][] = [];
      for (const [key, h] of this.logs) {
        const view = done.has(key) ? null : h.log.cleanerView?.();
        if (view) views.push([key, view]);
      }
      const ltc = grabFilthiestCompactedLog(views, this.cleanerCheckpointOffsets(), now, (key, offset) =>
        this.updateCleanerCheckpoint(key, offset),
      );
      if (!ltc) return;
      done.add(ltc.key);
      const h = this.logs.get(ltc.key) as HostedLog;
      const r = h.log.compact?.(now, ltc.firstDirtyOffset);
      // LogCleanerManager.doneCleaning: the checkpoint moves to the end of what was cleaned.
      if (r?.cleanableRange) this.updateCleanerCheckpoint(ltc.key, r.cleanableRange.to);
      if (r && r.bytesAfter < r.bytesBefore)
        this.services.emit({
          type: 'logCompacted',
          broker: this.brokerId,
          topic: h.topic,
          partition: h.partition,
          recordsSuperseded: r.recordsSuperseded,
          tombstonesRemoved: r.tombstonesRemoved,
          bytesBefore: r.bytesBefore,
          bytesAfter: r.bytesAfter,
          ...(r.cleanedSegments ? { cleanedSegments: [...r.cleanedSegments] } : {}),
          dirtyRatio: ltc.cleanableRatio,
          atMs: now,
        });
    }
  }

  /** The base offset of a log's active segment (its last). */
  activeSegmentBaseOffset(topic: string, partition: number): number | null {
    const segments = this.logs.get(tpKey(topic, partition))?.log.segments();
    return segments?.[segments.length - 1]?.baseOffset ?? null;
  }

  /**
   * LogManager.truncateTo / truncateFullyAndStartAt after a truncation below the active segment:
   * LogCleanerManager.maybeTruncateCheckpoint pulls a compacted log's cleaner checkpoint back to
   * the new active segment's base offset if it was past it (what lay above is gone or rewritten).
   */
  maybeTruncateCleanerCheckpoint(topic: string, partition: number): void {
    const key = tpKey(topic, partition);
    const h = this.logs.get(key);
    if (!h?.log.cleanerView?.()) return;
    const activeBase = this.activeSegmentBaseOffset(topic, partition);
    const existing = this.cleanerCheckpoints.get(h.dir)?.get(key)?.offset ?? 0;
    if (activeBase !== null && existing > activeBase) this.updateCleanerCheckpoint(key, activeBase);
  }

  /** Every log's checkpointed cleaner offset (LogCleanerManager.allCleanerCheckpoints). */
  cleanerCheckpointOffsets(): Map<string, number> {
    const out = new Map<string, number>();
    for (const entries of this.cleanerCheckpoints.values()) for (const [key, e] of entries) out.set(key, e.offset);
    return out;
  }

  /** Puts a log dir's cleaner-offset-checkpoint read from disk back in place (a broker restarting on its disk). */
  loadCleanerCheckpoint(dir: string, text: string): void {
    const entries = new Map<string, { topic: string; partition: number; offset: number }>();
    for (const [key, offset] of parseOffsetCheckpoint(text)) {
      const dash = key.lastIndexOf('-');
      entries.set(key, { topic: key.slice(0, dash), partition: Number(key.slice(dash + 1)), offset });
    }
    this.cleanerCheckpoints.set(dir, entries);
  }

  /** Writes every log dir's cleaner-offset-checkpoint again (the Store lost its files). */
  rewriteCleanerCheckpoints(): void {
    for (const dir of this.cleanerCheckpoints.keys()) this.writeCleanerCheckpoint(dir);
  }

  /** LogCleanerManager.updateCheckpoints(partitionToUpdateOrAdd): one entry changed, the dir's file rewritten. */
  private updateCleanerCheckpoint(key: string, offset: number): void {
    const h = this.logs.get(key);
    if (!h) return;
    let entries = this.cleanerCheckpoints.get(h.dir);
    if (!entries) {
      entries = new Map();
      this.cleanerCheckpoints.set(h.dir, entries);
    }
    if (entries.get(key)?.offset === offset) return;
    entries.set(key, { topic: h.topic, partition: h.partition, offset });
    this.writeCleanerCheckpoint(h.dir);
  }

  private writeCleanerCheckpoint(dir: string): void {
    const entries = [...(this.cleanerCheckpoints.get(dir)?.values() ?? [])];
    this.services.writeCleanerCheckpoint(this.brokerId, dir, formatOffsetCheckpoint(entries));
  }

  /** A power failure: unflushed bytes vanish from every log on this machine. */
  loseUnflushed(): number {
    let lost = 0;
    for (const h of this.logs.values()) {
      const before = h.log.segments().reduce((n, s) => n + s.unflushedBytes, 0);
      const oldEnd = h.log.logEndOffset();
      h.log.loseUnflushed();
      lost += before;
      if (h.log.logEndOffset() < oldEnd)
        this.services.emit({
          type: 'replicaTruncated',
          broker: this.brokerId,
          topic: h.topic,
          partition: h.partition,
          oldLogEndOffset: oldEnd,
          oldHighWatermark: h.checkpointedHighWatermark,
          newLogEndOffset: h.log.logEndOffset(),
          highWatermark: Math.min(h.checkpointedHighWatermark, h.log.logEndOffset()),
          reason: 'powerFailure',
          leaderEpochEndOffset: null,
          atMs: this.now(),
        });
    }
    return lost;
  }
}
