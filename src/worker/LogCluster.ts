/**
 * What the worker runs until the engine's cluster facade (src/engine/engine.ts) is ready: topics
 * made of PartitionLogs on one Store, each log the leader's replica (so HW = LEO), records placed
 * by the engine's own Partitioner and written as RecordBatch v2 by the engine's codec.
 *
 * It holds no Kafka logic of its own — partitioning, batching format, offsets, rolls, flushes,
 * recovery and lookups are all the engine's. It only wires them: which logs exist, where their
 * metadata lives (`meta/topics.json`), and when time moves.
 */
import type { ManualClock } from '../engine/Clock';
import { encodeRecordBatch, NO_PARTITION_LEADER_EPOCH } from '../engine/codec';
import type { DefaultRecord } from '../engine/codec';
import { KafkaError } from '../engine/errors';
import { GLASSBOX_DEMO_LOG_CONFIG, type LogConfigInput } from '../engine/log/LogConfig';
import type { LogRecoveryReport } from '../engine/log/LogLoader';
import { PartitionLog } from '../engine/log/PartitionLog';
import { StoreWriter } from '../engine/log/StoreWriter';
import { type PartitionChoice, Partitioner, type PartitionerStrategy } from '../engine/producer/Partitioner';
import { Rng } from '../engine/Rng';
import type { Store } from '../engine/Store';
import type { RecoveryView } from './protocol';

export const META_PATH = 'meta/topics.json';

export interface TopicMeta {
  name: string;
  partitions: number;
  config: LogConfigInput;
}

interface Topic {
  meta: TopicMeta;
  logs: PartitionLog[];
}

export interface SendRecord {
  key: Uint8Array | null;
  value: Uint8Array | null;
  headers: DefaultRecord['headers'];
}

const encoder = new TextEncoder();

export function utf8(text: string | null): Uint8Array | null {
  return text === null ? null : encoder.encode(text);
}

/** The demo topic a first visit sees. */
export const DEMO_TOPIC: TopicMeta = { name: 'orders', partitions: 3, config: { ...GLASSBOX_DEMO_LOG_CONFIG } };

export class LogCluster {
  readonly clock: ManualClock;
  readonly store: Store;
  readonly writer: StoreWriter;
  private readonly topics = new Map<string, Topic>();
  private partitioner: Partitioner;
  private readonly rng: Rng;
  /** Bumps on every change the page should redraw. */
  version = 0;

  constructor(store: Store, clock: ManualClock, seed = 42, strategy: PartitionerStrategy = 'sticky') {
    this.store = store;
    this.clock = clock;
    this.writer = new StoreWriter(store);
    this.rng = new Rng(seed);
    this.partitioner = new Partitioner(strategy, this.rng.fork());
  }

  /** Loads every topic listed in the Store's metadata, recovering each log; null when there is none. */
  static async load(
    store: Store,
    clock: ManualClock,
  ): Promise<{ cluster: LogCluster; recovery: RecoveryView[] } | null> {
    const raw = await store.read(META_PATH);
    if (!raw) return null;
    const metas = JSON.parse(new TextDecoder().decode(raw)) as TopicMeta[];
    const cluster = new LogCluster(store, clock);
    const recovery: RecoveryView[] = [];
    for (const meta of metas) {
      const logs: PartitionLog[] = [];
      for (let p = 0; p < meta.partitions; p++) {
        const dir = `${meta.name}-${p}`;
        const { log, report } = await PartitionLog.load(store, dir, meta.config, clock, cluster.writer);
        // A single replica: everything recovered is committed.
        log.updateHighWatermark(log.logEndOffset);
        logs.push(log);
        recovery.push(recoveryView(dir, report));
      }
      cluster.topics.set(meta.name, { meta, logs });
    }
    return { cluster, recovery };
  }

  get strategy(): PartitionerStrategy {
    return this.partitioner.strategy;
  }

  setPartitioner(strategy: PartitionerStrategy): void {
    if (strategy !== this.partitioner.strategy) this.partitioner = new Partitioner(strategy, this.rng.fork());
  }

  topicNames(): string[] {
    return [...this.topics.keys()];
  }

  createTopic(meta: TopicMeta): void {
    if (this.topics.has(meta.name)) {
      throw new KafkaError('TOPIC_ALREADY_EXISTS', `Topic '${meta.name}' already exists.`, { topic: meta.name });
    }
    const logs: PartitionLog[] = [];
    for (let p = 0; p < meta.partitions; p++) {
      logs.push(
        new PartitionLog({ dir: `${meta.name}-${p}`, config: meta.config, clock: this.clock, writer: this.writer }),
      );
    }
    this.topics.set(meta.name, { meta, logs });
    this.saveMeta();
    this.version++;
  }

  /** Adds an already-built log (an import) as a one-partition topic. */
  adoptTopic(meta: TopicMeta, logs: PartitionLog[]): void {
    if (this.topics.has(meta.name)) {
      throw new KafkaError('TOPIC_ALREADY_EXISTS', `Topic '${meta.name}' already exists.`, { topic: meta.name });
    }
    this.topics.set(meta.name, { meta, logs });
    this.saveMeta();
    this.version++;
  }

  private saveMeta(): void {
    const metas = [...this.topics.values()].map((t) => t.meta);
    this.writer.submit({ op: 'write', path: META_PATH, bytes: encoder.encode(JSON.stringify(metas)) });
  }

  log(topic: string, partition: number): PartitionLog {
    const t = this.topics.get(topic);
    const log = t?.logs[partition];
    if (!log) {
      throw new KafkaError(
        'UNKNOWN_TOPIC_OR_PARTITION',
        `This server does not host this topic-partition: ${topic}-${partition}`,
        {
          topic,
          partition,
        },
      );
    }
    return log;
  }

  *partitions(): Generator<{ topic: string; partition: number; log: PartitionLog }> {
    for (const [topic, t] of this.topics)
      for (let p = 0; p < t.logs.length; p++) yield { topic, partition: p, log: t.logs[p] as PartitionLog };
  }

  /** Chooses a partition with the engine's partitioner (Kafka's rules) and says why. */
  choosePartition(topic: string, key: Uint8Array | null): PartitionChoice {
    const t = this.topics.get(topic);
    if (!t) throw new KafkaError('UNKNOWN_TOPIC_OR_PARTITION', `Unknown topic ${topic}`, { topic });
    const all = t.logs.map((_, i) => i);
    const choice = this.partitioner.partition(topic, key, undefined, {
      numPartitions: t.logs.length,
      availablePartitions: all,
    });
    return choice;
  }

  /** Appends records to one partition as one batch (the leader assigns the offsets). */
  appendBatch(topic: string, partition: number, records: SendRecord[]): { baseOffset: number; lastOffset: number } {
    const log = this.log(topic, partition);
    const now = this.clock.now();
    const bytes = encodeRecordBatch({
      baseOffset: 0,
      partitionLeaderEpoch: NO_PARTITION_LEADER_EPOCH,
      attributes: 0,
      lastOffsetDelta: records.length - 1,
      baseTimestamp: now,
      maxTimestamp: now,
      producerId: -1,
      producerEpoch: -1,
      baseSequence: -1,
      records: records.map((r, i) => ({
        attributes: 0,
        timestampDelta: 0,
        offsetDelta: i,
        key: r.key,
        value: r.value,
        headers: r.headers,
      })),
    });
    const info = log.appendAsLeader(bytes, 0);
    log.updateHighWatermark(log.logEndOffset);
    if (this.partitioner.strategy === 'sticky') {
      // A completed batch is what moves the sticky partitioner on (KIP-480's onNewBatch).
      const t = this.topics.get(topic) as Topic;
      this.partitioner.onNewBatch(
        topic,
        { numPartitions: t.logs.length, availablePartitions: t.logs.map((_, i) => i) },
        partition,
      );
    }
    this.version++;
    return { baseOffset: info.firstOffset, lastOffset: info.lastOffset };
  }

  /** Time passes: logs flush on flush.ms and apply retention. */
  tick(ms: number): void {
    if (ms > 0) this.clock.advance(ms);
    const now = this.clock.now();
    for (const { log } of this.partitions()) {
      const flushed = log.maybeFlush(now);
      const retention = log.deleteOldSegments(now);
      if (flushed || retention.deleted.length > 0) this.version++;
    }
  }

  /** Hands every unflushed byte to the Store (before a reset or a planned close). */
  flushAll(): void {
    for (const { log } of this.partitions()) log.flush();
    this.version++;
  }
}

/** What recovery did to one log, in the page's terms (Kafka's LogLoader report, summed). */
export function recoveryView(dir: string, report: LogRecoveryReport): RecoveryView {
  const segmentsLoaded = report.segments.length;
  const batchesValidated = report.segments.reduce((n, s) => n + s.batchesValidated, 0);
  const truncatedBytes = report.segments.reduce((n, s) => n + s.bytesTruncated, 0);
  const indexesRebuilt = report.segments.reduce(
    (n, s) => n + (s.offsetIndex.rebuilt ? 1 : 0) + (s.timeIndex.rebuilt ? 1 : 0),
    0,
  );
  const parts = [`${segmentsLoaded} segment${segmentsLoaded === 1 ? '' : 's'}, ${batchesValidated} batches valid`];
  for (const s of report.segments) {
    if (s.bytesTruncated > 0) {
      parts.push(
        `${s.logFileName} truncated by ${s.bytesTruncated} bytes at position ${s.truncatedAtPosition} (${s.truncationReason})`,
      );
    }
  }
  if (report.deletedSegments.length > 0) parts.push(`${report.deletedSegments.length} later segments deleted`);
  if (indexesRebuilt > 0) parts.push(`${indexesRebuilt} index files rebuilt`);
  parts.push(`offsets ${report.logStartOffset} to ${report.logEndOffset}`);
  return { dir, segmentsLoaded, batchesValidated, truncatedBytes, indexesRebuilt, summary: `${parts.join('; ')}.` };
}
