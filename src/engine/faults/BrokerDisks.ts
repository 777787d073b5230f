/**
 * The fault schedules' brokers on real disks: every replica is a PartitionLogReplica (segments,
 * sparse indexes, leader-epoch checkpoint, write-behind through a StoreWriter) over one Store
 * laid out like the worker's (`broker-<id>/var/kafka-logs/<topic>-<partition>/...`), each broker
 * machine with its own write cache (LazyStore) in front of it.
 *
 * What each kind of fault does to a disk, as in Kafka:
 *  - kill: the process dies, the machine keeps running, so its page cache survives: every byte
 *    the log had written is on disk by the restart.
 *  - powerFail: the machine dies. Bytes the log never handed to the Store are gone, and so are the
 *    operations still in the write cache, the one being written possibly torn.
 * Either way the restarted broker finds its logs the way Kafka's LogManager does: it lists its log
 * dir, recovers every partition directory through LogLoader (CRC and length checks, a torn tail
 * truncated, indexes rebuilt, the epoch checkpoint cut to the log) and reads its high watermarks
 * back from replication-offset-checkpoint, before it registers again.
 */
import type { ManualClock } from '../Clock';
import type { Cluster } from '../cluster/Cluster';
import { CLEANER_OFFSET_CHECKPOINT_FILENAME, parseReplicationOffsetCheckpoint } from '../cluster/checkpoint';
import { logConfigOf, PartitionLogReplica } from '../cluster/PartitionLogReplica';
import type { TopicConfigOverrides } from '../cluster/TopicConfig';
import { logDirPath, replicaDir } from '../engine';
import type { LogConfigInput } from '../log/LogConfig';
import type { LogRecoveryReport } from '../log/LogLoader';
import { UnifiedLog } from '../log/UnifiedLog';
import { StoreWriter } from '../log/StoreWriter';
import type { Rng } from '../Rng';
import type { Store } from '../Store';
import { LazyStore, type PowerCutReport } from './LazyStore';

const LOG_DIR = '/var/kafka-logs';
const CHECKPOINT = 'replication-offset-checkpoint';

export interface DiskOptions {
  /** The durable Store under every broker's write cache (a MemoryStore, say); starts empty. */
  store: Store;
  /** Whether a power cut may tear the append it interrupts (default true). */
  tornWrites?: boolean;
}

/** What the disks went through in one run (the soak prints the totals). */
export interface DiskStats {
  powerCuts: number;
  /** Operations in the write cache at power cuts, and how many never reached the disk. */
  inFlightAtCut: number;
  lostAtCut: number;
  tornAppends: number;
  /** Restarts whose logs were recovered through LogLoader, and the partition dirs loaded. */
  recoveries: number;
  logsRecovered: number;
  /** Bytes LogLoader cut off torn or corrupt tails, and the index files it rebuilt. */
  bytesTruncatedByRecovery: number;
  indexesRebuilt: number;
}

/**
 * Topic settings of the disk schedules, chosen per seed: small segments so logs roll (and rolls
 * flush) within a schedule, a small index interval so the sparse indexes fill, one of three
 * flush policies — Kafka's default (never fsync; replication keeps acknowledged records), the UI's
 * flush.ms=1000, and flush.messages=1 (every append handed to the disk at once) — and on three
 * seeds in four a small retention.bytes, so old segments are deleted under the followers' feet.
 */
export function diskTopicDefaults(rng: Rng): TopicConfigOverrides {
  const flush: TopicConfigOverrides[] = [{}, { 'flush.ms': 1000 }, { 'flush.messages': 1 }];
  const retention: TopicConfigOverrides[] = [
    {},
    { 'retention.bytes': 150 },
    { 'retention.bytes': 300 },
    { 'retention.bytes': 600 },
  ];
  return {
    'segment.bytes': rng.pick([100, 200, 1024, 4096]),
    'index.interval.bytes': rng.pick([1, 64, 256]),
    ...rng.pick(flush),
    ...rng.pick(retention),
  };
}

/** Broker settings of the disk schedules: the retention check runs every second, not every 5 minutes. */
export const DISK_BROKER_CONFIG = { 'log.retention.check.interval.ms': 1000 } as const;

export class BrokerDisks {
  private readonly caches = new Map<number, LazyStore>();
  /** Each broker incarnation writes through its own StoreWriter (a dead one's never settles). */
  private readonly writers = new Map<number, StoreWriter>();
  private cluster: Cluster | null = null;
  readonly stats: DiskStats = {
    powerCuts: 0,
    inFlightAtCut: 0,
    lostAtCut: 0,
    tornAppends: 0,
    recoveries: 0,
    logsRecovered: 0,
    bytesTruncatedByRecovery: 0,
    indexesRebuilt: 0,
  };
  /** The latest power cut and recovery, per broker, for a failing seed's trace. */
  readonly lastCut = new Map<number, PowerCutReport>();
  readonly lastRecovery = new Map<number, LogRecoveryReport[]>();

  constructor(
    private readonly options: DiskOptions,
    private readonly clock: ManualClock,
    private readonly rng: Rng,
  ) {}

  /** The cluster whose brokers use these disks (its topic configs give the logs theirs). */
  attach(cluster: Cluster): void {
    this.cluster = cluster;
  }

  cache(brokerId: number): LazyStore {
    let c = this.caches.get(brokerId);
    if (!c) {
      c = new LazyStore(this.options.store, this.options.tornWrites ?? true);
      this.caches.set(brokerId, c);
    }
    return c;
  }

  private writer(brokerId: number): StoreWriter {
    let w = this.writers.get(brokerId);
    if (!w) {
      w = new StoreWriter(this.cache(brokerId));
      this.writers.set(brokerId, w);
    }
    return w;
  }

  /** The Cluster's logFactory: a new replica's log, in its broker's log dir. */
  newLog(brokerId: number, logDir: string, topic: string, partition: number): PartitionLogReplica {
    return new PartitionLogReplica(
      new UnifiedLog({
        dir: replicaDir(brokerId, logDir, topic, partition),
        config: this.logConfig(topic),
        clock: this.clock,
        writer: this.writer(brokerId),
      }),
    );
  }

  /** The Cluster's onHighWatermarkCheckpoint: the file goes through the broker's write cache. */
  writeCheckpoint(brokerId: number, logDir: string, text: string, name = CHECKPOINT): void {
    this.writer(brokerId).submit({
      op: 'write',
      path: `${logDirPath(brokerId, logDir)}/${name}`,
      bytes: new TextEncoder().encode(text),
    });
  }

  /** The Cluster's onCleanerCheckpoint: cleaner-offset-checkpoint, through the same write cache. */
  writeCleanerCheckpoint(brokerId: number, logDir: string, text: string): void {
    this.writeCheckpoint(brokerId, logDir, text, CLEANER_OFFSET_CHECKPOINT_FILENAME);
  }

  /**
   * The write-back, called every 50 ms slice: each machine's cache reaches its disk at seeded
   * moments (one slice in ten), so an operation stays in flight for about half a second, like
   * IndexedDB transactions queued behind each other on a busy page, and a power cut finds the
   * latest ones there.
   */
  writeBack(): void {
    for (const c of this.caches.values()) if (this.rng.next() < 0.1) c.sync();
  }

  /** Cuts a broker's power: call before the cluster takes the broker down. */
  powerCut(brokerId: number): PowerCutReport {
    const report = this.cache(brokerId).powerCut(this.rng);
    this.stats.powerCuts++;
    this.stats.inFlightAtCut += report.inFlight;
    this.stats.lostAtCut += report.lost;
    if (report.torn) this.stats.tornAppends++;
    this.lastCut.set(brokerId, report);
    return report;
  }

  /**
   * Restarts a broker that is down: its logs are recovered from its disk, then it starts.
   * `how` says how it went down (a killed broker's page cache reaches the disk first).
   */
  async restart(brokerId: number, how: 'killed' | 'powerFailed'): Promise<LogRecoveryReport[]> {
    const cluster = this.requireCluster();
    const broker = cluster.broker(brokerId);
    const cache = this.cache(brokerId);
    if (how === 'killed') {
      for (const h of broker.replicaManager.logs.values()) h.log.flush();
    }
    cache.powerOn();
    cache.sync();
    // The old incarnation's writer (and whatever it had in flight when the power went) is gone.
    const writer = new StoreWriter(cache);
    this.writers.set(brokerId, writer);
    const root = logDirPath(brokerId, LOG_DIR);
    const paths = await cache.list(`${root}/`);
    const checkpoint = await cache.read(`${root}/${CHECKPOINT}`);
    const hws = parseReplicationOffsetCheckpoint(new TextDecoder().decode(checkpoint ?? new Uint8Array(0)));
    // The log cleaner starts again from its cleaner-offset-checkpoint (missing: everything is dirty).
    const cleaned = await cache.read(`${root}/${CLEANER_OFFSET_CHECKPOINT_FILENAME}`);
    broker.logManager.loadCleanerCheckpoint(LOG_DIR, new TextDecoder().decode(cleaned ?? new Uint8Array(0)));
    const dirs = new Set<string>();
    for (const p of paths) {
      const rest = p.slice(root.length + 1);
      const slash = rest.indexOf('/');
      if (slash > 0) dirs.add(rest.slice(0, slash));
    }
    // The broker's disk is all it knows: logs are rebuilt from what is there, nothing else.
    broker.replicaManager.logs.clear();
    const reports: LogRecoveryReport[] = [];
    for (const name of [...dirs].sort()) {
      const dash = name.lastIndexOf('-');
      const topic = name.slice(0, dash);
      const partition = Number(name.slice(dash + 1));
      if (dash <= 0 || !Number.isInteger(partition)) continue;
      const { log, report } = await UnifiedLog.load(
        cache,
        `${root}/${name}`,
        this.logConfig(topic),
        this.clock,
        writer,
      );
      cluster.hostRecoveredLog(brokerId, LOG_DIR, topic, partition, new PartitionLogReplica(log), hws.get(name) ?? 0);
      reports.push(report);
      this.stats.logsRecovered++;
      for (const s of report.segments) {
        this.stats.bytesTruncatedByRecovery += s.bytesTruncated;
        if (s.offsetIndex.rebuilt) this.stats.indexesRebuilt++;
        if (s.timeIndex.rebuilt) this.stats.indexesRebuilt++;
      }
    }
    this.stats.recoveries++;
    this.lastRecovery.set(brokerId, reports);
    cluster.restartBroker(brokerId);
    return reports;
  }

  /**
   * The end-of-run check that the disk says what the log says: every running broker's logs are
   * flushed and synced, then each partition directory is loaded again through LogLoader (into a
   * scratch log that writes nothing) and compared with the log in memory — same log start and
   * end, the same batches (base offset, last offset, leader epoch, CRC), the same leader epochs,
   * and nothing for recovery to truncate. A truncation, roll or epoch checkpoint the log forgot
   * to hand to the Store shows up here as a difference.
   */
  async checkDisksMatchLogs(): Promise<string[]> {
    const cluster = this.requireCluster();
    const problems: string[] = [];
    for (const broker of cluster.brokers.values()) {
      if (!broker.isRunning) continue;
      for (const h of broker.replicaManager.logs.values()) h.log.flush();
      const cache = this.cache(broker.id);
      cache.sync();
      for (const h of broker.replicaManager.logs.values()) {
        const dir = replicaDir(broker.id, h.dir, h.topic, h.partition);
        const where = `broker ${broker.id} ${h.topic}-${h.partition}`;
        const { log, report } = await UnifiedLog.load(
          cache,
          dir,
          this.logConfig(h.topic),
          this.clock,
          new StoreWriter(null),
        );
        const disk = new PartitionLogReplica(log);
        const cut = report.segments.reduce((n, seg) => n + seg.bytesTruncated, 0);
        if (cut > 0) problems.push(`${where}: recovery of a flushed log truncated ${cut} bytes`);
        if (disk.logStartOffset() !== h.log.logStartOffset() || disk.logEndOffset() !== h.log.logEndOffset())
          problems.push(
            `${where}: on disk [${disk.logStartOffset()}, ${disk.logEndOffset()}), in memory [${h.log.logStartOffset()}, ${h.log.logEndOffset()})`,
          );
        const batches = (r: PartitionLogReplica | typeof h.log) =>
          r
            .batchHeaders()
            .map((b) => `${b.baseOffset}-${b.lastOffset}@${b.partitionLeaderEpoch}#${b.crc}`)
            .join(' ');
        if (batches(disk) !== batches(h.log)) problems.push(`${where}: the batches on disk differ from the log's`);
        // Kafka's LogLoader.load cuts the epoch cache at the log end (truncateFromEnd(nextOffset)):
        // an epoch a leader opened at its log end without writing to it is not reloaded, so
        // only the epochs that start below the log end are compared.
        const end = h.log.logEndOffset();
        const epochs = (e: { epoch: number; startOffset: number }[]) =>
          e
            .filter((x) => x.startOffset < end)
            .map((x) => `${x.epoch}@${x.startOffset}`)
            .join(' ');
        if (epochs(disk.epochEntries()) !== epochs(h.log.epochEntries()))
          problems.push(
            `${where}: leader epochs on disk ${epochs(disk.epochEntries())}, in memory ${epochs(h.log.epochEntries())}`,
          );
      }
    }
    return problems;
  }

  private logConfig(topic: string): LogConfigInput {
    return logConfigOf(this.requireCluster().topicConfig(topic));
  }

  private requireCluster(): Cluster {
    if (!this.cluster) throw new Error('BrokerDisks used before attach(cluster)');
    return this.cluster;
  }
}
