/**
 * The data path as the page draws it, read from the one engine a host runs: each partition is
 * shown through its leader's replica log (where produce requests append and consumers read, up to
 * the high watermark), so killing a broker moves the log the producer panel writes to.
 *
 * Reading only, except `adoptLog`, which lets a log built or recovered outside the engine (the
 * seeds' lookup example, an imported partition) become a new topic's replica: the engine opens it
 * through its recoveredLogs map when the replica is created, as a broker opens a directory it
 * finds on disk.
 */
import type { Cluster } from '../cluster/Cluster';
import type { ClusterEvent } from '../cluster/events';
import type { LeaderReplica } from '../cluster/LeaderReplica';
import { replicaDir } from '../cluster/logDirs';
import { KafkaError } from '../errors';
import type { UnifiedLog } from '../log/UnifiedLog';
import type { CleanupView, PartitionView } from './types';
import { cleanupView, partitionView } from './logViews';

/** The broker a new topic made of an adopted log lives on, and its log dir. */
const ADOPT_BROKER_LOG_DIR = '/var/kafka-logs';

/**
 * What the data path reads of the engine: the Engine facade is one. A view never imports the
 * facade or its queries (they import the views), so it names what it needs here.
 */
export interface DataPathEngine {
  readonly cluster: Cluster;
  /** Engine.subscribe: the listener is handed any engine event (those of `types`). */
  subscribe(listener: (e: { type: string }) => void, types?: readonly string[]): () => void;
  /** The partition's leader replica (Engine.leaderReplica). */
  leaderReplica(topic: string, partition: number): LeaderReplica | null;
}

type CleanupEvent = Extract<ClusterEvent, { type: 'logRetention' | 'logCompacted' }>;

function isCleanup(e: { type: string }): e is CleanupEvent {
  return e.type === 'logRetention' || e.type === 'logCompacted';
}

export class DataPath {
  /** The latest retention / compaction pass per replica, keyed `<broker>:<topic>-<partition>`. */
  private readonly cleanups = new Map<string, CleanupView>();
  private cleanupCount = 0;

  constructor(
    readonly engine: DataPathEngine,
    /** The very map the engine was given as recoveredLogs (adopted logs are added to it). */
    private readonly recovered: Map<string, UnifiedLog>,
  ) {
    // The brokers' retention checks and log cleaner say what they removed only in their events.
    engine.subscribe(
      (e) => {
        if (!isCleanup(e)) return;
        const view = cleanupView(e, ++this.cleanupCount);
        if (view) this.cleanups.set(`${e.broker}:${e.topic}-${e.partition}`, view);
      },
      ['logRetention', 'logCompacted'],
    );
  }

  /** The latest cleanup of the replica on `broker` (null when its log was never cleaned). */
  lastCleanup(broker: number, topic: string, partition: number): CleanupView | null {
    return this.cleanups.get(`${broker}:${topic}-${partition}`) ?? null;
  }

  get cluster(): Cluster {
    return this.engine.cluster;
  }

  /** User topics (internal ones, like __consumer_offsets, start with two underscores). */
  topics(): string[] {
    return this.cluster.topicNames().filter((t) => !t.startsWith('__'));
  }

  partitionCount(topic: string): number {
    return this.cluster.assignment(topic).length;
  }

  /** The leader replica of a partition (the engine's query; see Engine.leaderReplica). */
  replica(topic: string, partition: number): LeaderReplica | null {
    return this.engine.leaderReplica(topic, partition);
  }

  log(topic: string, partition: number): UnifiedLog {
    const r = this.replica(topic, partition);
    if (!r) {
      throw new KafkaError(
        'UNKNOWN_TOPIC_OR_PARTITION',
        `This server does not host this topic-partition: ${topic}-${partition}`,
        {
          topic,
          partition,
        },
      );
    }
    return r.log;
  }

  /**
   * Every user partition as the page draws it. `saved(topic)` says whether a reload would recreate
   * the topic (its metadata is saved); a topic it would not has nothing saved yet.
   */
  views(saved: (topic: string) => boolean = () => true): PartitionView[] {
    const out: PartitionView[] = [];
    for (const topic of this.topics()) {
      const n = this.partitionCount(topic);
      for (let p = 0; p < n; p++) {
        const r = this.replica(topic, p);
        if (!r) continue;
        out.push({
          ...partitionView(topic, p, r.log, r.highWatermark, saved(topic)),
          leader: r.broker,
          isr: r.isr,
          lastCleanup: this.lastCleanup(r.broker, topic, p),
        });
      }
    }
    return out;
  }

  /** A cheap fingerprint of everything views() shows, to send views only when it changed. */
  signature(): string {
    const parts: (string | number)[] = [];
    for (const topic of this.topics()) {
      const n = this.partitionCount(topic);
      for (let p = 0; p < n; p++) {
        const r = this.replica(topic, p);
        if (!r) continue;
        const l = r.log;
        parts.push(
          r.broker,
          l.logStartOffset,
          l.logEndOffset,
          r.highWatermark,
          l.logSegments.length,
          l.unflushedBytes(),
          l.durableOffset,
          this.lastCleanup(r.broker, topic, p)?.id ?? 0,
        );
      }
      parts.push('|');
    }
    return parts.join(',');
  }

  /**
   * Makes `build(dir)`'s log the single replica (on broker 1, or the first live broker) of partition
   * `partition` of a new topic `topic`; partitions below it are created empty. Throws
   * TOPIC_ALREADY_EXISTS and changes nothing if the name is taken.
   */
  adoptLog(
    topic: string,
    partition: number,
    configs: Record<string, string | number>,
    log: UnifiedLog,
    brokerId: number,
  ): void {
    if (this.cluster.topicNames().includes(topic)) {
      throw new KafkaError('TOPIC_ALREADY_EXISTS', `Topic '${topic}' already exists.`, { topic });
    }
    this.recovered.set(replicaDir(brokerId, ADOPT_BROKER_LOG_DIR, topic, partition), log);
    const assignment = Array.from({ length: partition + 1 }, () => [brokerId]);
    this.cluster.createTopic({ name: topic, assignment, configs });
  }

  /** Where adoptLog will look for a topic's log: build the log in this directory. */
  static adoptDir(brokerId: number, topic: string, partition: number): string {
    return replicaDir(brokerId, ADOPT_BROKER_LOG_DIR, topic, partition);
  }

  /** The broker that hosts adopted logs: the lowest live broker id. */
  adoptBroker(): number {
    const live = this.cluster.liveBrokerIds();
    const id = [...live].sort((a, b) => a - b)[0];
    if (id === undefined) throw new KafkaError('BROKER_NOT_AVAILABLE', 'No live broker to host the topic.');
    return id;
  }
}
