import type { BrokerServices } from './BrokerServices';
import type { ReplicaLog } from './ReplicaLog';

/** A topic-partition's key, which is also its log directory's name (`<topic>-<partition>`). */
export const tpKey = (topic: string, partition: number): string => `${topic}-${partition}`;

/** One replica's log on this broker's disk, in one of its log dirs. */
export interface HostedLog {
  topic: string;
  partition: number;
  dir: string;
  log: ReplicaLog;
  /** replication-offset-checkpoint: the HW last written to disk. */
  checkpointedHighWatermark: number;
}

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

  constructor(
    private readonly brokerId: number,
    readonly logDirs: string[],
    private readonly services: BrokerServices,
  ) {
    // Kafka's LogManager.loadLogs: what the disk already holds is hosted before anything else runs.
    for (const dir of logDirs) {
      for (const h of services.loadLogs(brokerId, dir)) this.logs.set(tpKey(h.topic, h.partition), h);
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

  flushAll(): void {
    for (const h of this.logs.values()) h.log.flush();
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

  /** Kafka's LogCleaner: a compaction pass over every compacted log (every log.cleaner.backoff.ms). */
  compactLogs(): void {
    const now = this.now();
    for (const h of this.logs.values()) {
      const r = h.log.compact?.(now);
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
          atMs: now,
        });
    }
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
