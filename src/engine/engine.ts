import {
  brokerStates,
  controllerState,
  type LeaderReplica,
  leaderReplica,
  partitionState,
  type ReplicationGauges,
  replicationGauges,
  topicState,
  znodes,
} from './queries';
import type { BoardBrokerView, BoardPartitionView, BoardTopicView, ZnodeView } from './views/types';
import { ManualClock } from './Clock';
import type { BrokerConfigInput } from './cluster/BrokerConfig';
import { type AddBrokerOptions, Cluster, type CreateTopicOptions } from './cluster/Cluster';
import type { HostedLog } from './cluster/HostedLog';
import type { StoredCluster } from './cluster/StoredCluster';
import { encodeZnode, znodeFile } from './cluster/ZnodeFiles';
import type { ClusterEvent } from './cluster/events';
import { logDirPath, replicaDir } from './cluster/logDirs';
import { CLEANER_OFFSET_CHECKPOINT_FILENAME } from './cluster/checkpoint';
import { producerSnapshotFileName } from './codec/producerSnapshot';
import { checkReplicationInvariants } from './cluster/invariants';
import type { NetworkEndpoint } from './cluster/Network';
import { logConfigOf, PartitionLogReplica } from './cluster/PartitionLogReplica';
import type { NodeId } from './cluster/requests';
import type { TopicConfigOverrides } from './cluster/TopicConfig';
import { argumentsOf, type EngineCommand, type EngineCommandOp, type EngineCommandResult } from './commands';
import { KafkaError } from './errors';
import { LEADER_EPOCH_CHECKPOINT_FILENAME } from './log/LogFileUtils';
import type { LogSegment } from './log/LogSegment';
import { UnifiedLog } from './log/UnifiedLog';
import { SegmentCache } from './log/SegmentCache';
import { type StoreFailure, StoreWriter } from './log/StoreWriter';
import type { Store } from './Store';
// --- consumer groups (consumer engineer) ---
import { ClusterConsumerPort } from './consumerApps/ClusterConsumerPort';
import { ConsumerApplications } from './consumerApps/ConsumerApplications';
import type { GroupCoordinatorConfig } from './clients/consumer/ConsumerConfig';
import { type ConsumerGroupDescribeRow, ConsumerGroups } from './consumerApps/ConsumerGroups';
import type { GroupEvent } from './clients/consumer/groupEvents';
import { Rng } from './Rng';
// --- end consumer groups ---
// --- producers (producer engineer) ---
import type { ProducerEvent } from './producer/events';
import { ProducerRegistry } from './producer/ProducerRegistry';
// --- end producers ---

/**
 * The engine's facade: typed commands in, typed events out, `tick(ms)` drives simulated time.
 *
 * - Commands: `engine.apply({ op: 'createTopic', ... })` (or the method of the same name): one
 *   op-tagged union, EngineCommand (commands.ts, the one place to add commands). A command that
 *   is refused throws a KafkaError and changes nothing.
 * - Events: every state change comes out as an EngineEvent (one discriminated union on `type`,
 *   extended in one place below), delivered to subscribers as it happens and kept for
 *   `drainEvents()` — the worker drains once per animation frame.
 * - `snapshot()`: a plain, structured-clone-safe picture of the whole cluster for the UI.
 *
 * Determinism: the clock is a ManualClock moved only by `tick`, randomness comes from `seed`;
 * the same seed and the same commands produce the same events.
 *
 * Storage: each broker's replicas are PartitionLogs writing behind to the Store under
 * `broker-<id><log.dir>/<topic>-<partition>/` (e.g. `broker-1/var/kafka-logs/orders-0/00000000000000000000.log`).
 */
export interface EngineOptions {
  seed: number;
  store: Store;
  clock?: ManualClock;
  brokerConfig?: BrokerConfigInput;
  /** Topic config defaults for every topic (Kafka topic names: segment.bytes, flush.ms, ...). */
  topicDefaults?: TopicConfigOverrides;
  networkLatencyMs?: number;
  /** Brokers to start with. */
  brokers?: AddBrokerOptions[];
  /**
   * Group coordinator settings (Kafka's broker names: offsets.topic.num.partitions,
   * group.initial.rebalance.delay.ms, group.min.session.timeout.ms, ...); Kafka's defaults otherwise.
   */
  groupCoordinatorConfig?: Partial<Record<keyof GroupCoordinatorConfig, number>>;
  /**
   * Replica logs recovered from `store` at start-up (UnifiedLog.load), by replica directory
   * (`replicaDir`). A replica created for one of these directories opens that log instead of an
   * empty one: the cluster restarts on its old segment files, as brokers restart on their disks.
   */
  recoveredLogs?: ReadonlyMap<string, UnifiedLog>;
  /**
   * What the Store held when the engine (re)started (readStoredCluster): the persistent znodes are
   * restored before anything runs, and each broker hosts its recovered logs, with their
   * checkpointed high watermarks, when it is added. The brokers then start as in a cluster
   * restart: they register again, one of them is elected controller and reads the znodes.
   */
  stored?: StoredCluster;
  /**
   * The writer for `store` (default: a new one). A host that writes files of its own (metadata) and
   * recovers logs passes the one it uses, so one sequence orders every write and a log's durable
   * offset also covers what the host wrote before it.
   */
  writer?: StoreWriter;
  /**
   * The brokers' page cache: bytes of closed segments kept in memory over every replica log
   * (SegmentCache); older ones are paged out once durable and read back from `store` on demand.
   * Default DEFAULT_SEGMENT_CACHE_BYTES.
   */
  segmentCacheBytes?: number;
}

/** 32 MiB of closed segments in memory, whatever the log's size (issue 10: worker heap < 150 MB). */
/**
 * One replica log that lost its oldest segments with the Store (Engine.rewriteStoreFiles): the
 * offsets [fromOffset, logStartOffset) were only in the Store, paged out of memory.
 */
export interface LostWithStore {
  broker: number;
  topic: string;
  partition: number;
  /** The log start offset before. */
  fromOffset: number;
  /** The log start offset now: the base offset of the first segment memory still held. */
  logStartOffset: number;
  segments: number;
}

export const DEFAULT_SEGMENT_CACHE_BYTES = 32 * 1024 * 1024;

/** Every event the engine emits. Other subsystems add their unions here. */
export type EngineEvent = ClusterEvent | GroupEvent | ProducerEvent;

export { logDirPath, replicaDir };
export type { EngineSnapshot, PartitionSnapshot, ReplicaSnapshot } from './engineSnapshot';
import { clusterSnapshot, type EngineSnapshot } from './engineSnapshot';

interface EventListenerEntry {
  listener: (e: EngineEvent) => void;
  /** The event types it takes; null: all. */
  types: ReadonlySet<string> | null;
}

export class Engine {
  /** The run's seed: every random stream of the engine, and of the applications around it, derives from it. */
  readonly seed: number;
  readonly clock: ManualClock;
  readonly cluster: Cluster;
  readonly store: Store;
  /** Consumer groups (group coordinators, consumers) and the applications that own consumers. */
  readonly groups: ConsumerGroups;
  readonly consumerApps: ConsumerApplications;
  /** Producer clients (KafkaProducer) by client id. */
  readonly producers: ProducerRegistry;
  private readonly writer: StoreWriter;
  /** The brokers' page cache of closed segments (see SegmentCache). */
  readonly segmentCache: SegmentCache;
  private readonly openLogs = new Map<string, UnifiedLog>();
  /** The writer's sequence number of each persistent znode's latest write (0: restored, already stored). */
  private readonly znodeWrites = new Map<string, number>();
  /** Whose replica each open log is (by dir), for the events a log cannot name itself. */
  private readonly logReplicas = new Map<string, { broker: number; topic: string; partition: number }>();
  /** Replaced, never mutated, so a listener may unsubscribe while an event is being delivered. */
  private listeners: EventListenerEntry[] = [];
  private buffer: EngineEvent[] = [];
  private maxBuffered = 100_000;
  /** Someone takes every event (the drain buffer, or a listener without a type list). */
  private everyTypeWanted = true;
  /** Types the listeners with a type list take. */
  private wantedTypes = new Set<string>();

  constructor(options: EngineOptions) {
    this.seed = options.seed;
    this.clock = options.clock ?? new ManualClock();
    this.store = options.store;
    this.writer = options.writer ?? new StoreWriter(options.store);
    this.segmentCache = new SegmentCache(options.segmentCacheBytes ?? DEFAULT_SEGMENT_CACHE_BYTES);
    this.cluster = new Cluster({
      clock: this.clock,
      seed: options.seed,
      emit: (e) => this.emit(e),
      wants: (type) => this.wants(type),
      brokerConfig: options.brokerConfig,
      topicDefaults: options.topicDefaults,
      networkLatencyMs: options.networkLatencyMs,
      // Each broker's group coordinator (made below), told by its KafkaApis as LeaderAndIsr lands.
      groupCoordinator: (brokerId) => this.groups.coordinatorOn(brokerId),
      logFactory: (brokerId, logDir, topic, partition) => {
        const dir = replicaDir(brokerId, logDir, topic, partition);
        const recovered = options.recoveredLogs?.get(dir) ?? options.stored?.logs.get(dir);
        const log =
          recovered ??
          new UnifiedLog({
            dir,
            config: logConfigOf(this.cluster.topicConfig(topic)),
            clock: this.clock,
            writer: this.writer,
            cache: this.segmentCache,
          });
        log.attachCache(this.segmentCache);
        this.openLogs.set(dir, log);
        this.logReplicas.set(dir, { broker: brokerId, topic, partition });
        return new PartitionLogReplica(log);
      },
      onDeleteLog: (brokerId, logDir, topic, partition) =>
        this.deleteReplicaFiles(replicaDir(brokerId, logDir, topic, partition)),
      // Each log dir's replication-offset-checkpoint, written behind like every other file.
      onHighWatermarkCheckpoint: (brokerId, logDir, text) =>
        this.writer.submit({
          op: 'write',
          path: `${logDirPath(brokerId, logDir)}/replication-offset-checkpoint`,
          bytes: new TextEncoder().encode(text),
        }),
      onCleanerCheckpoint: (brokerId, logDir, text) =>
        this.writer.submit({
          op: 'write',
          path: `${logDirPath(brokerId, logDir)}/${CLEANER_OFFSET_CHECKPOINT_FILENAME}`,
          bytes: new TextEncoder().encode(text),
        }),
      onLogDirFile: (brokerId, logDir, fileName, text) =>
        this.writer.submit(
          text === null
            ? { op: 'delete', path: `${logDirPath(brokerId, logDir)}/${fileName}` }
            : {
                op: 'write',
                path: `${logDirPath(brokerId, logDir)}/${fileName}`,
                bytes: new TextEncoder().encode(text),
              },
        ),
      // Persistent znodes go through the same writer as the segments: a durable offset also
      // covers the metadata written before it.
      onZnodeChange: (path, node) => {
        const seq = this.writer.submit(
          node
            ? { op: 'write', path: znodeFile(path), bytes: encodeZnode(node) }
            : { op: 'delete', path: znodeFile(path) },
        );
        if (node) this.znodeWrites.set(path, seq);
        else this.znodeWrites.delete(path);
      },
      loadLogs: (brokerId, logDir) => this.loadLogs(options.stored, brokerId, logDir),
      readCleanerCheckpoint: (brokerId, logDir) =>
        options.stored?.cleanerCheckpoints.get(logDirPath(brokerId, logDir)) ?? null,
    });
    if (options.stored) {
      this.cluster.zk.restore(options.stored.znodes);
      for (const n of options.stored.znodes) this.znodeWrites.set(n.path, 0);
    }
    // --- consumer groups: coordinators on every broker, consumers, their links ---
    this.groups = new ConsumerGroups({
      scheduler: this.cluster.scheduler,
      // The port listens for brokers going down only; saying so lets per-record events go unbuilt.
      port: new ClusterConsumerPort(this.cluster, (l) => this.subscribe(l, ['brokerDown'])),
      // An independent stream, so adding consumers never shifts the cluster's randomness.
      rng: new Rng((options.seed ^ 0x5bd1e995) >>> 0),
      emit: (e) => this.emit(e),
      zk: this.cluster.zk,
      coordinatorConfig: options.groupCoordinatorConfig ?? {},
      // The consumers are nodes on the cluster's network: their requests reach the brokers' KafkaApis.
      network: this.cluster.network,
    });
    this.consumerApps = new ConsumerApplications(this.groups, this.cluster.scheduler);
    // --- end consumer groups ---
    // --- producers: their own random stream, bootstrapping from every broker ---
    this.producers = new ProducerRegistry({
      scheduler: this.cluster.scheduler,
      network: this.cluster.network,
      rng: new Rng((options.seed ^ 0x9e3779b9) >>> 0),
      emit: (e) => this.emit(e),
      wants: (type) => this.wants(type),
      bootstrapBrokers: () => [...this.cluster.brokers.keys()].sort((a, b) => a - b),
    });
    // --- end producers ---
    const recovered = options.recoveredLogs ?? options.stored?.logs;
    if (recovered) this.continueProducerIds(recovered.values());
    for (const b of options.brokers ?? []) this.cluster.addBroker(b);
  }

  /**
   * A broker's LogManager.loadLogs on a restart: the recovered logs of one of its log dirs, each
   * with the high watermark its replication-offset-checkpoint names (0 when it names none).
   */
  private loadLogs(stored: StoredCluster | undefined, brokerId: number, logDir: string): HostedLog[] {
    if (!stored) return [];
    const root = logDirPath(brokerId, logDir);
    const hws = stored.highWatermarks.get(root);
    const hosted: HostedLog[] = [];
    for (const [dir, log] of stored.logs) {
      if (!dir.startsWith(`${root}/`) || dir.indexOf('/', root.length + 1) >= 0) continue;
      const name = dir.slice(root.length + 1);
      const dash = name.lastIndexOf('-');
      const topic = name.slice(0, dash);
      const partition = Number(name.slice(dash + 1));
      log.attachCache(this.segmentCache);
      this.openLogs.set(dir, log);
      this.logReplicas.set(dir, { broker: brokerId, topic, partition });
      const replica = new PartitionLogReplica(log);
      hosted.push({
        topic,
        partition,
        dir: logDir,
        log: replica,
        checkpointedHighWatermark: Math.min(hws?.get(name) ?? 0, replica.logEndOffset()),
      });
    }
    return hosted;
  }

  /**
   * A restart must never hand out a producer id the logs already hold: a new producer with an old
   * id and sequence 0 would have its batches taken for duplicates (acknowledged with the offsets
   * of someone else's records) or refused. Kafka keeps `/latest_producer_id_block` in ZooKeeper,
   * which outlives its brokers (ZkProducerIdManager claims the block after `block_end`); here the
   * coordination store starts afresh on a restart, so the znode is written back past the highest
   * producer id in the recovered logs.
   */
  private continueProducerIds(logs: Iterable<UnifiedLog>): void {
    const path = '/latest_producer_id_block';
    // Restored from the Store's znodes: ZooKeeper kept it, as it does for Kafka.
    if (this.cluster.zk.exists(path)) return;
    let highest = -1;
    for (const log of logs) {
      for (const h of new PartitionLogReplica(log).batchHeaders()) highest = Math.max(highest, h.producerId);
    }
    if (highest < 0) return;
    this.cluster.zk.create(path, { version: 1, broker: -1, block_start: 0, block_end: highest });
  }

  /**
   * An independent random stream derived from the run's seed and `salt`: an application around
   * the engine (a producer app) draws its randomness here, so a seed reproduces the whole run and
   * adding one application never shifts another's stream.
   */
  deriveRng(salt: number): Rng {
    return new Rng((this.seed ^ salt) >>> 0);
  }

  // ------------------------------------------------------------------ events

  /** Cap on undrained events kept for drainEvents (subscribers still see everything); 0 keeps none. */
  get maxBufferedEvents(): number {
    return this.maxBuffered;
  }

  set maxBufferedEvents(n: number) {
    this.maxBuffered = n;
    if (n <= 0) this.buffer = [];
    this.updateWanted();
  }

  /** Emits an event to subscribers and the drain buffer. Subsystems plugged into the engine use this too. */
  emit(event: EngineEvent): void {
    const listeners = this.listeners;
    for (let i = 0; i < listeners.length; i++) {
      const l = listeners[i] as EventListenerEntry;
      if (l.types === null || l.types.has(event.type)) l.listener(event);
    }
    if (this.maxBuffered <= 0) return;
    this.buffer.push(event);
    // Trim in bulk (keeping the newest) so an undrained engine costs O(1) per event, not O(buffer).
    if (this.buffer.length > this.maxBuffered * 1.5) this.buffer = this.buffer.slice(-this.maxBuffered);
  }

  /**
   * Whether anyone would see an event of this type. Parts that emit one event per record (the
   * producer's recordPartitioned, recordAppended, deliveryReport) ask first and skip building
   * events nobody takes.
   */
  wants(type: EngineEvent['type']): boolean {
    return this.everyTypeWanted || this.wantedTypes.has(type);
  }

  /** Calls `listener` with every event, or only with events of the given types. */
  subscribe(listener: (e: EngineEvent) => void, types?: readonly EngineEvent['type'][]): () => void {
    const entry: EventListenerEntry = { listener, types: types ? new Set(types) : null };
    this.listeners = [...this.listeners, entry];
    this.updateWanted();
    return () => {
      this.listeners = this.listeners.filter((l) => l !== entry);
      this.updateWanted();
    };
  }

  private updateWanted(): void {
    this.everyTypeWanted = this.maxBuffered > 0 || this.listeners.some((l) => l.types === null);
    this.wantedTypes = new Set(this.listeners.flatMap((l) => (l.types ? [...l.types] : [])));
  }

  /** Every event since the last drain, oldest first. */
  drainEvents(): EngineEvent[] {
    const out = this.buffer;
    this.buffer = [];
    return out;
  }

  // ------------------------------------------------------------------ time

  /** Advances simulated time by `ms`, running everything due on the way, in order. */
  tick(ms: number): void {
    this.cluster.tick(ms);
    // The page cache gives memory back at the end of a tick, never in the middle of a read.
    this.segmentCache.enforce();
  }

  /**
   * Reads the segments that reads are waiting for back from the Store (SegmentCache.load). The
   * host awaits this between engine calls; `segments` are those a host read found paged out.
   */
  loadSegments(segments?: readonly LogSegment[]): Promise<number> {
    return this.segmentCache.load(this.store, segments);
  }

  now(): number {
    return this.clock.now();
  }

  /** Store operations that failed (quota exceeded, IndexedDB gone): the page says nothing is being saved. */
  get storeFailures(): readonly StoreFailure[] {
    return this.writer.failures;
  }

  // ------------------------------------------------------------------ commands

  /** The one dispatcher of the engine's commands; a refused command throws a KafkaError and changes nothing. */
  apply<C extends EngineCommand>(command: C): EngineCommandResult<C['op']> {
    const handler = this.handlers[command.op] as ((c: C) => EngineCommandResult<C['op']>) | undefined;
    if (!handler) throw new KafkaError('INVALID_REQUEST', `unknown command ${String(command.op)}`, { op: command.op });
    return handler(command);
  }

  private readonly handlers: {
    [K in EngineCommandOp]: (
      c: EngineCommand<K>,
    ) => EngineCommandResult<K> extends undefined ? unknown : EngineCommandResult<K>;
  } = {
    addBroker: (a) => this.cluster.addBroker(argumentsOf(a)).id,
    killBroker: (a) => this.cluster.killBroker(a.broker),
    powerFailBroker: (a) => this.cluster.powerFailBroker(a.broker),
    stopBroker: (a) => this.cluster.stopBroker(a.broker),
    restartBroker: (a) => this.cluster.restartBroker(a.broker),
    isolateBroker: (a) => this.cluster.isolateBroker(a.broker),
    healBroker: (a) => this.cluster.healBroker(a.broker),
    createTopic: (a) => this.cluster.createTopic(argumentsOf(a)),
    createPartitions: (a) => this.cluster.createPartitions(a.topic, a.totalCount, a.assignment),
    deleteTopic: (a) => this.cluster.deleteTopic(a.topic),
    alterTopicConfig: (a) => this.cluster.alterTopicConfig(a.topic, a.configs),
    electPreferredLeaders: (a) => this.cluster.electPreferredLeaders(a.partitions),
    reassignPartitions: (a) => this.cluster.reassignPartitions(a.moves),
    setNetworkLatency: (a) => {
      if (!(a.latencyMs >= 0))
        throw new KafkaError('INVALID_REQUEST', 'latency must be >= 0', { latencyMs: a.latencyMs });
      if (a.between) this.cluster.network.setLatency(a.latencyMs, `broker-${a.between[0]}`, `broker-${a.between[1]}`);
      else this.cluster.network.setLatency(a.latencyMs);
    },
    // --- consumer groups ---
    createConsumer: (a) => {
      this.consumerApps.createConsumer(a.consumerId, a.groupId, a.config ?? {}, a.pollIntervalMs ?? 100);
      if (a.topics && a.topics.length > 0) this.consumerApps.subscribe(a.consumerId, a.topics);
    },
    subscribeConsumer: (a) => this.consumerApps.subscribe(a.consumerId, a.topics),
    crashConsumer: (a) => this.consumerApps.crash(a.consumerId),
    closeConsumer: (a) => this.consumerApps.close(a.consumerId),
    moveConsumer: (a) => this.consumerApps.move(a.consumerId, a.groupId),
    setGroupAssignor: (a) => this.consumerApps.setGroupAssignor(a.groupId, a.strategy),
    setGroupProtocol: (a) => this.consumerApps.setGroupProtocol(a.groupId, a.protocol),
    deleteConsumerGroup: (a) => this.groups.deleteGroup(a.groupId),
    // --- end consumer groups ---
    // --- producers ---
    createProducer: (a) => this.producers.create(a.config ?? {}),
    send: (a) => this.producers.send(a.producer, a.record),
    sendMany: (a) => this.producers.sendMany(a.producer, argumentsOf(a)),
    closeProducer: (a) => this.producers.close(a.producer, a.force === true),
    // --- end producers ---
  };

  addBroker(options: AddBrokerOptions = {}): number {
    return this.apply({ op: 'addBroker', ...options });
  }
  killBroker(broker: number): void {
    this.apply({ op: 'killBroker', broker });
  }
  powerFailBroker(broker: number): void {
    this.apply({ op: 'powerFailBroker', broker });
  }
  stopBroker(broker: number): void {
    this.apply({ op: 'stopBroker', broker });
  }
  restartBroker(broker: number): void {
    this.apply({ op: 'restartBroker', broker });
  }
  isolateBroker(broker: number): void {
    this.apply({ op: 'isolateBroker', broker });
  }
  healBroker(broker: number): void {
    this.apply({ op: 'healBroker', broker });
  }
  createTopic(options: CreateTopicOptions): number[][] {
    return this.apply({ op: 'createTopic', ...options });
  }
  createPartitions(topic: string, totalCount: number, assignment?: number[][]): number[][] {
    return this.apply({ op: 'createPartitions', topic, totalCount, assignment });
  }
  deleteTopic(topic: string): void {
    this.apply({ op: 'deleteTopic', topic });
  }
  alterTopicConfig(topic: string, configs: Record<string, string | number | boolean | string[] | null>): void {
    this.apply({ op: 'alterTopicConfig', topic, configs });
  }
  electPreferredLeaders(partitions?: { topic: string; partition: number }[]): void {
    this.apply({ op: 'electPreferredLeaders', partitions });
  }
  reassignPartitions(moves: { topic: string; partition: number; replicas: number[] }[]): void {
    this.apply({ op: 'reassignPartitions', moves });
  }

  /** Plugs a client (producer, consumer) into the simulated network under `node`. */
  attachClient(node: NodeId, endpoint: NetworkEndpoint): void {
    if (node.startsWith('broker-')) throw new KafkaError('INVALID_REQUEST', `${node} is a broker address`, { node });
    this.cluster.network.attach(node, endpoint);
  }

  /** The replication invariants over the current state (empty when all hold). */
  checkInvariants(): string[] {
    return checkReplicationInvariants(this.cluster);
  }

  // ------------------------------------------------------------------ queries (read only: ./queries.ts)

  /** The replica a partition is served from: its leader, or while it has none the fullest replica. */
  leaderReplica(topic: string, partition: number): LeaderReplica | null {
    return leaderReplica(this.cluster, topic, partition);
  }

  /** Leader, epoch, ISR and each replica's role, LEO and HW, as the controller and brokers hold them. */
  partitionState(topic: string, partition: number): BoardPartitionView {
    return partitionState(this.cluster, topic, partition);
  }

  topicState(topic: string): BoardTopicView {
    return topicState(this.cluster, topic);
  }

  /** The topic's id (KIP-516) as 32 lower-case hex digits, from its topic znode; null if none. */
  topicId(topic: string): string | null {
    return this.cluster.topicId(topic);
  }

  topicNames(): string[] {
    return this.cluster.topicNames();
  }

  brokerStates(leaderCount: ReadonlyMap<number, number>, originMs = 0): BoardBrokerView[] {
    return brokerStates(this.cluster, leaderCount, originMs);
  }

  /** UnderReplicatedPartitions, OfflinePartitionsCount and ActiveControllerCount over the live brokers. */
  replicationGauges(): ReplicationGauges {
    return replicationGauges(this.cluster);
  }

  controllerState(): { id: number | null; epoch: number } {
    return controllerState(this.cluster);
  }

  /** The coordination store's tree with its watches. */
  znodes(originMs = 0, maxData?: number): ZnodeView[] {
    return znodes(this.cluster, originMs, maxData);
  }

  /** kafka-consumer-groups --describe for one group (`logEnds` shares log-end lookups across groups). */
  describeGroup(groupId: string, logEnds?: Map<string, number>): ConsumerGroupDescribeRow[] {
    return this.groups.describeGroup(groupId, logEnds);
  }

  // ------------------------------------------------------------------ snapshot

  snapshot(): EngineSnapshot {
    return clusterSnapshot(this.cluster, this.clock.now(), this.consumerApps.snapshot(), this.producers.snapshot());
  }

  /**
   * Hands every file the cluster keeps to the Store again (after the Store lost them all, e.g. the
   * database was deleted under the page): each open log's segments, indexes and leader-epoch
   * checkpoint, each broker's replication-offset-checkpoint, and every persistent znode.
   *
   * Segments paged out of memory were only in the Store and are gone with it: each log that had
   * some starts past them (UnifiedLog.rewriteStoreFiles), told as a logRetention event whose
   * deleted segments give the reason 'lost-with-store', and listed in the result.
   */
  rewriteStoreFiles(): LostWithStore[] {
    // Whatever went to the lost Store is superseded by what follows; durability counts from here.
    this.storeLost();
    this.writer.resumeAfterLoss();
    const lost: LostWithStore[] = [];
    for (const [dir, log] of this.openLogs) {
      const from = log.logStartOffset;
      const r = log.rewriteStoreFiles();
      const replica = this.logReplicas.get(dir);
      if (r.deleted.length === 0 || !replica) continue;
      lost.push({ ...replica, fromOffset: from, logStartOffset: r.logStartOffset, segments: r.deleted.length });
      this.emit({
        type: 'logRetention',
        ...replica,
        deletedSegments: r.deleted.length,
        logStartOffset: r.logStartOffset,
        deleted: r.deleted,
        atMs: this.clock.now(),
      });
    }
    for (const broker of this.cluster.brokers.values()) {
      broker.replicaManager.rewriteHighWatermarkCheckpoints();
      broker.logManager.rewriteCleanerCheckpoints();
    }
    for (const node of this.cluster.zk.snapshot()) {
      if (node.ephemeralOwner !== 0 || node.path === '/') continue;
      this.znodeWrites.set(
        node.path,
        this.writer.submit({ op: 'write', path: znodeFile(node.path), bytes: encodeZnode(node) }),
      );
    }
    return lost;
  }

  /**
   * The Store lost every file (the database was deleted under the page): from now on nothing
   * counts as saved, no log offset and no znode, until rewriteStoreFiles hands it all over again
   * and the Store confirms it. Observed by the host only, like the durable offsets themselves.
   */
  storeLost(): void {
    this.writer.storeLost();
    for (const log of this.openLogs.values()) log.storeLost();
  }

  /**
   * Whether the Store has confirmed the latest write of persistent znode `path`, so a restart would
   * find it (a topic whose /brokers/topics znode is not saved yet would not come back). Observed
   * by the host only, like a log's durable offset.
   */
  isZnodeSaved(path: string): boolean {
    const seq = this.znodeWrites.get(path);
    // Sequence 0: read back from the Store at start-up (durable unless the Store was lost since).
    return seq !== undefined && this.writer.isDurable(seq);
  }

  /** StopReplica with delete: the replica's files go, in order with every write before them. */
  private deleteReplicaFiles(dir: string): void {
    const log = this.openLogs.get(dir);
    this.openLogs.delete(dir);
    this.logReplicas.delete(dir);
    if (!log) return;
    for (const seg of log.logSegments) {
      this.segmentCache.forget(seg);
      for (const name of [seg.logFileName, seg.indexFileName, seg.timeIndexFileName])
        this.writer.submit({ op: 'delete', path: `${dir}/${name}` });
    }
    for (const offset of log.producerSnapshotOffsets)
      this.writer.submit({ op: 'delete', path: `${dir}/${producerSnapshotFileName(offset)}` });
    this.writer.submit({ op: 'delete', path: `${dir}/${LEADER_EPOCH_CHECKPOINT_FILENAME}` });
  }
}
