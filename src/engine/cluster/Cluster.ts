import { newTopicId, uuidFromString } from './TopicId';
import { isKafkaError, KafkaError } from '../errors';
import type { ErrorCode } from './requests';
import { Rng } from '../Rng';
import { Broker } from './Broker';
import { type BrokerConfig, type BrokerConfigInput, createBrokerConfig } from './BrokerConfig';
import type { ClusterServices } from './BrokerServices';
import { CoordinationStore } from './CoordinationStore';
import { statePath, topicPath } from './ZkData';
import type { ClusterEvent } from './events';
import { Network } from './Network';
import { MemoryReplicaLog, type ReplicaLog } from './ReplicaLog';
import { assignReplicasToBrokersWithSteps, validateAssignment } from './ReplicaPlacement';
import { tpKey } from '../TopicPartition';
import { Scheduler } from './Scheduler';
import { brokerEntity, validateDynamicBrokerConfigs } from './DynamicBrokerConfig';
import { createConfigChangeNotification } from './ZkConfigManager';
import { ensureNoCollision } from './TopicCollision';
import { createTopicConfig, type TopicConfig, type TopicConfigOverrides, validateTopicName } from './TopicConfig';

/**
 * The whole simulated cluster: brokers on a network around one coordination store, driven by
 * one scheduler. Admin operations write to the coordination store the way Kafka's
 * AdminZkClient does (`/brokers/topics/<t>`, `/config/topics/<t>`, `/admin/...`) and the
 * active controller reacts through its watches. Every check happens before anything is
 * written: a refused command changes nothing.
 *
 * The cluster also keeps the omniscient books the tests and the UI need and no broker could:
 * the highest high watermark each partition has reached (to report exactly what an unclean
 * election loses) and which broker led each leader epoch (at most one per epoch).
 */
/** Event types the cluster's own books are kept from (observe): always built. */
const OBSERVED: ReadonlySet<ClusterEvent['type']> = new Set(['highWatermarkChanged', 'becameLeader', 'topicDeleted']);

import type { AddBrokerOptions, ClusterOptions, CreateTopicOptions } from './ClusterOptions';

export type { AddBrokerOptions, ClusterOptions, CreateTopicOptions };

export class Cluster {
  readonly scheduler: Scheduler;
  readonly network: Network;
  readonly zk: CoordinationStore;
  readonly rng: Rng;
  private readonly topicIdRng: Rng;
  readonly config: BrokerConfig;
  readonly brokers = new Map<number, Broker>();
  private readonly services: ClusterServices;
  private readonly topicDefaults: TopicConfigOverrides;
  /**
   * Per partition, the highest high watermark any of its leaders has reached — everything below
   * it was committed — cut back to what survives when an unclean election loses records.
   */
  readonly highestHighWatermark = new Map<string, number>();
  /** @deprecated the old, misleading name of `highestHighWatermark` (still read by the worker's board views). */
  get committed(): Map<string, number> {
    return this.highestHighWatermark;
  }
  /** leader epoch -> broker, per partition: the "one leader per epoch" books. */
  readonly leadersByEpoch = new Map<string, Map<number, number>>();
  readonly violations: string[] = [];

  constructor(private readonly options: ClusterOptions) {
    this.scheduler = new Scheduler(options.clock);
    this.rng = new Rng(options.seed);
    // A stream of its own, so topic ids draw nothing from the one that places replicas.
    this.topicIdRng = new Rng((options.seed ^ 0x746f7069) >>> 0);
    this.config = createBrokerConfig(options.brokerConfig);
    this.topicDefaults = { ...(options.topicDefaults ?? {}) };
    createTopicConfig(this.topicDefaults); // validate now
    const emit = (e: ClusterEvent) => this.observe(e);
    const outside = options.wants;
    const wants = outside ? (type: ClusterEvent['type']) => OBSERVED.has(type) || outside(type) : () => true;
    this.network = new Network(this.scheduler, emit, { latencyMs: options.networkLatencyMs ?? 1, wants });
    this.zk = new CoordinationStore(this.scheduler, emit, options.onZnodeChange ?? null);
    const logFactory = options.logFactory ?? (() => new MemoryReplicaLog());
    this.services = {
      scheduler: this.scheduler,
      network: this.network,
      zk: this.zk,
      emit,
      wants,
      rng: this.rng.fork(),
      config: this.config,
      clusterId: options.clusterId ?? 'glassbox-cluster',
      newLog: logFactory,
      deleteLog: (b, d, t, p) => options.onDeleteLog?.(b, d, t, p),
      topicConfig: (topic) => this.topicConfig(topic),
      topicConfigOver: (topic, brokerDefaults) =>
        createTopicConfig(this.topicOverrides(topic), { ...this.brokerTopicDefaults(), ...brokerDefaults }),
      reportUncleanElection: (t, p, leader) => this.reportUncleanElection(t, p, leader),
      writeHighWatermarkCheckpoint: (b, d, text) => options.onHighWatermarkCheckpoint?.(b, d, text),
      writeCleanerCheckpoint: (b, d, text) => options.onCleanerCheckpoint?.(b, d, text),
      writeLogDirFile: (b, d, name, text) => options.onLogDirFile?.(b, d, name, text),
      loadLogs: (b, d) => options.loadLogs?.(b, d) ?? [],
      readCleanerCheckpoint: (b, d) => options.readCleanerCheckpoint?.(b, d) ?? null,
      groupCoordinator: (b) => options.groupCoordinator?.(b),
      autoCreateTopic: (topic) => this.autoCreateTopic(topic),
      newTopicId: (topic) => newTopicId(this.topicIdRng, topic, this.zk.lastZxid, this.now()),
    };
    // ZooKeeper's session tracker: check for expired sessions every 100 ms of simulated time.
    this.scheduler.schedulePeriodic(100, 100, () => this.zk.expireSessions());
  }

  private now(): number {
    return this.scheduler.now();
  }

  /** Every event passes here: the books are kept, then the event goes out. */
  private observe(e: ClusterEvent): void {
    if (e.type === 'highWatermarkChanged' && e.role === 'leader') {
      const key = tpKey(e.topic, e.partition);
      if (e.new > (this.highestHighWatermark.get(key) ?? 0)) this.highestHighWatermark.set(key, e.new);
    } else if (e.type === 'becameLeader') {
      const key = tpKey(e.topic, e.partition);
      let m = this.leadersByEpoch.get(key);
      if (!m) {
        m = new Map();
        this.leadersByEpoch.set(key, m);
      }
      const prior = m.get(e.leaderEpoch);
      if (prior !== undefined && prior !== e.broker) {
        const message = `two leaders for ${key} in leader epoch ${e.leaderEpoch}: ${prior} and ${e.broker}`;
        this.violations.push(message);
        this.options.emit(e);
        this.options.emit({ type: 'invariantViolated', message, atMs: e.atMs });
        return;
      }
      m.set(e.leaderEpoch, e.broker);
      // ZooKeeper mode keeps the ISR's last member and elects it again, even when a power failure
      // took committed records from its log: Kafka cannot tell, the simulation can and says so.
      const committed = this.highestHighWatermark.get(key) ?? 0;
      if (e.logEndOffset < committed) {
        this.highestHighWatermark.set(key, e.logEndOffset);
        this.options.emit(e);
        this.options.emit({
          type: 'committedRecordsLost',
          topic: e.topic,
          partition: e.partition,
          newLeader: e.broker,
          newLeaderLogEndOffset: e.logEndOffset,
          lostCommittedOffsets: { from: e.logEndOffset, to: committed },
          atMs: e.atMs,
        });
        return;
      }
    } else if (e.type === 'topicDeleted') {
      for (const key of [...this.highestHighWatermark.keys()])
        if (key.startsWith(`${e.topic}-`)) this.highestHighWatermark.delete(key);
      for (const key of [...this.leadersByEpoch.keys()])
        if (key.startsWith(`${e.topic}-`)) this.leadersByEpoch.delete(key);
    }
    this.options.emit(e);
  }

  tick(ms: number): void {
    if (!(ms >= 0)) throw new RangeError(`cannot tick by ${ms}`);
    this.scheduler.runUntil(this.now() + ms);
  }

  // ------------------------------------------------------------------ brokers

  /**
   * Adds a broker and starts it. With `start: false` the broker exists but stays down (a
   * cluster being reloaded: its logs are attached with hostRecoveredLog, then startBroker).
   */
  addBroker(options: AddBrokerOptions = {}, how: { start?: boolean } = {}): Broker {
    const id = options.id ?? (this.brokers.size === 0 ? 1 : Math.max(...this.brokers.keys()) + 1);
    if (!Number.isInteger(id) || id < 0) throw new KafkaError('INVALID_REQUEST', `invalid broker id ${id}`, { id });
    if (this.brokers.has(id)) throw new KafkaError('INVALID_REQUEST', `broker ${id} already exists`, { id });
    const logDirs = options.logDirs && options.logDirs.length > 0 ? [...options.logDirs] : ['/var/kafka-logs'];
    if (new Set(logDirs).size !== logDirs.length)
      throw new KafkaError('INVALID_REQUEST', 'duplicate log.dirs', { logDirs });
    const broker = new Broker(id, options.rack ?? null, logDirs, this.services);
    this.brokers.set(id, broker);
    this.options.emit({ type: 'brokerAdded', broker: id, rack: broker.rack, atMs: this.now() });
    if (how.start !== false) broker.startup();
    return broker;
  }

  /** Starts a broker that was added with `start: false` (or restarts a stopped one). */
  startBroker(id: number): void {
    const b = this.broker(id);
    if (b.state === 'down') b.startup();
  }

  /**
   * Puts a log found on disk back under its broker (a reload): the replica is known to the broker
   * again, with the high watermark from its replication-offset-checkpoint, before it starts.
   */
  hostRecoveredLog(
    brokerId: number,
    logDir: string,
    topic: string,
    partition: number,
    log: ReplicaLog,
    checkpointedHighWatermark: number,
  ): void {
    const b = this.broker(brokerId);
    if (!b.logDirs.includes(logDir))
      throw new KafkaError('INVALID_REQUEST', `broker ${brokerId} has no log dir ${logDir}`, { logDir });
    b.replicaManager.logs.set(tpKey(topic, partition), {
      topic,
      partition,
      dir: logDir,
      log,
      checkpointedHighWatermark: Math.min(checkpointedHighWatermark, log.logEndOffset()),
    });
  }

  broker(id: number): Broker {
    const b = this.brokers.get(id);
    if (!b) throw new KafkaError('BROKER_NOT_AVAILABLE', `no broker ${id}`, { id });
    return b;
  }

  private requireRunning(id: number): Broker {
    const b = this.broker(id);
    if (b.state === 'down') throw new KafkaError('BROKER_NOT_AVAILABLE', `broker ${id} is not running`, { id });
    return b;
  }

  killBroker(id: number): void {
    this.requireRunning(id).down('killed');
  }

  powerFailBroker(id: number): void {
    this.requireRunning(id).down('powerFailed');
  }

  stopBroker(id: number): void {
    this.requireRunning(id).controlledShutdown();
  }

  restartBroker(id: number): void {
    const b = this.broker(id);
    if (b.state !== 'down') throw new KafkaError('INVALID_REQUEST', `broker ${id} is running`, { id });
    b.startup();
  }

  isolateBroker(id: number): void {
    this.broker(id);
    this.network.isolate(`broker-${id}`);
  }

  healBroker(id: number): void {
    this.broker(id);
    this.network.heal(`broker-${id}`);
  }

  /** Brokers registered in the coordination store (what Kafka calls alive). */
  liveBrokerIds(): number[] {
    if (!this.zk.exists('/brokers/ids')) return [];
    return this.zk.getChildren('/brokers/ids').map(Number);
  }

  activeController(): Broker | null {
    const d = this.zk.tryGetData('/controller') as { brokerid?: number } | null;
    const b = d?.brokerid !== undefined ? this.brokers.get(d.brokerid) : undefined;
    return b?.controller.active ? b : null;
  }

  controllerEpoch(): number {
    return (this.zk.tryGetData('/controller_epoch') as number | null) ?? 0;
  }

  // ------------------------------------------------------------------ topics

  topicNames(): string[] {
    if (!this.zk.exists('/brokers/topics')) return [];
    return this.zk.getChildren('/brokers/topics');
  }

  /** The broker settings this cluster was started with (a broker's server.properties), not the defaults. */
  get staticBrokerConfig(): BrokerConfigInput {
    return { ...(this.options.brokerConfig ?? {}) };
  }

  /** Topic-level defaults set for every topic (broker-level `log.*` settings in Kafka). */
  get staticTopicDefaults(): TopicConfigOverrides {
    return { ...this.topicDefaults };
  }

  topicOverrides(topic: string): TopicConfigOverrides {
    const d = this.zk.tryGetData(`/config/topics/${topic}`) as { config?: TopicConfigOverrides } | null;
    return { ...(d?.config ?? {}) };
  }

  private readonly topicConfigCache = new Map<string, { version: string; config: TopicConfig }>();

  /** A topic's effective config, rebuilt only when /config/topics/<topic> changes. */
  /**
   * The topic's id (KIP-516) from its `/brokers/topics/<name>` znode, as the wire carries it (32
   * lower-case hex digits), or null for a topic that does not exist or predates ids.
   */
  topicId(topic: string): string | null {
    const d = this.zk.peekData(topicPath(topic)) as { topic_id?: string } | null;
    const bytes = d?.topic_id ? uuidFromString(d.topic_id) : null;
    return bytes ? [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('') : null;
  }

  topicConfig(topic: string): TopicConfig {
    const stat = this.zk.exists(`/config/topics/${topic}`);
    const version = stat ? `${stat.czxid}:${stat.mzxid}` : 'none';
    const hit = this.topicConfigCache.get(topic);
    if (hit?.version === version) return hit.config;
    const config = createTopicConfig(this.topicOverrides(topic), this.brokerTopicDefaults());
    this.topicConfigCache.set(topic, { version, config });
    return config;
  }

  /** The config a topic with these overrides would have (its broker-level defaults filled in). */
  topicConfigWith(overrides: TopicConfigOverrides): TopicConfig {
    return createTopicConfig(overrides, this.brokerTopicDefaults());
  }

  private brokerTopicDefaults(): TopicConfigOverrides {
    return {
      'min.insync.replicas': this.config['min.insync.replicas'],
      'unclean.leader.election.enable': this.config['unclean.leader.election.enable'],
      ...this.topicDefaults,
    };
  }

  assignment(topic: string): number[][] {
    const d = this.zk.tryGetData(topicPath(topic)) as { partitions: Record<string, number[]> } | null;
    if (!d) return [];
    const out: number[][] = [];
    for (const [p, r] of Object.entries(d.partitions)) out[Number(p)] = r;
    return out;
  }

  /**
   * A Metadata request named a topic that does not exist (ZkAutoTopicCreationManager): create it
   * with the defaults, or say why not. Internal names are never auto-created.
   */
  private autoCreateTopic(topic: string): ErrorCode {
    if (topic.startsWith('__')) return 'UNKNOWN_TOPIC_OR_PARTITION';
    try {
      this.createTopic({ name: topic });
      return 'NONE';
    } catch (e) {
      if (isKafkaError(e, 'TOPIC_ALREADY_EXISTS')) return 'NONE';
      return isKafkaError(e) ? e.code : 'UNKNOWN_SERVER_ERROR';
    }
  }

  /** Kafka's CreateTopics: validate everything, then write the assignment and config znodes. */
  createTopic(options: CreateTopicOptions): number[][] {
    const { name, configs, assignment, steps } = this.planTopic(options);
    // All checks passed: write (config first, as AdminZkClient does).
    if (!this.zk.exists('/config/topics')) this.zk.createRecursive('/config/topics', null);
    this.zk.create(`/config/topics/${name}`, { version: 1, config: configs });
    if (!this.zk.exists('/brokers/topics')) this.zk.createRecursive('/brokers/topics', null);
    // TopicZNode version 3 with the topic id AdminZkClient.writeTopicPartitionAssignment draws.
    this.zk.create(topicPath(name), {
      version: 3,
      partitions: Object.fromEntries(assignment.map((r, i) => [String(i), r])),
      adding_replicas: {},
      removing_replicas: {},
      topic_id: newTopicId(this.topicIdRng, name, this.zk.lastZxid, this.now()),
    });
    this.options.emit({
      type: 'topicCreated',
      topic: name,
      partitions: assignment.length,
      replicationFactor: assignment[0]?.length ?? 0,
      assignment: assignment.map((r) => [...r]),
      configs,
      placementSteps: steps,
      atMs: this.now(),
    });
    return assignment;
  }

  /**
   * CreateTopics with validate_only (AdminZkClient.validateTopicCreate): every check createTopic
   * makes, and the assignment it would write, with nothing written.
   */
  validateCreateTopic(options: CreateTopicOptions): number[][] {
    // A fixed start index: a check must not draw from the rng that places later topics.
    const fixed = options.assignment ? {} : { fixedStartIndex: options.fixedStartIndex ?? 0 };
    return this.planTopic({ ...options, ...fixed }).assignment;
  }

  private planTopic(options: CreateTopicOptions): {
    name: string;
    configs: TopicConfigOverrides;
    assignment: number[][];
    steps: ReturnType<typeof assignReplicasToBrokersWithSteps>['steps'];
  } {
    const name = options.name;
    validateTopicName(name);
    if (this.zk.exists(topicPath(name)))
      throw new KafkaError('TOPIC_ALREADY_EXISTS', `Topic '${name}' already exists.`, { topic: name });
    ensureNoCollision(name, this.topicNames());
    const configs = { ...(options.configs ?? {}) };
    createTopicConfig(configs, this.brokerTopicDefaults());
    const live = this.liveBrokerIds();
    const brokers = live.map((id) => ({ id, rack: this.brokers.get(id)?.rack ?? undefined }));
    let assignment: number[][];
    let steps: ReturnType<typeof assignReplicasToBrokersWithSteps>['steps'] = [];
    if (options.assignment) {
      if (options.partitions !== undefined || options.replicationFactor !== undefined)
        throw new KafkaError(
          'INVALID_REQUEST',
          'Both numPartitions or replicationFactor and replicasAssignment were set. Both cannot be used at the same time.',
          {},
        );
      assignment = validateAssignment(options.assignment, null);
    } else {
      const partitions = options.partitions ?? this.config['num.partitions'];
      const rf = options.replicationFactor ?? this.config['default.replication.factor'];
      if (!Number.isInteger(partitions) || partitions < 1)
        throw new KafkaError('INVALID_PARTITIONS', 'Number of partitions must be larger than 0.', { partitions });
      if (!Number.isInteger(rf) || rf < 1)
        throw new KafkaError('INVALID_REPLICATION_FACTOR', 'Replication factor must be larger than 0.', { rf });
      if (rf > live.length)
        throw new KafkaError(
          'INVALID_REPLICATION_FACTOR',
          `Replication factor: ${rf} larger than available brokers: ${live.length}.`,
          { replicationFactor: rf, liveBrokers: live.length },
        );
      const placed = assignReplicasToBrokersWithSteps(brokers, partitions, rf, {
        fixedStartIndex: options.fixedStartIndex,
        rng: this.rng,
      });
      assignment = placed.assignment;
      steps = placed.steps;
    }
    return { name, configs, assignment, steps };
  }

  /** Kafka's CreatePartitions: grow a topic to `totalCount` partitions. */
  createPartitions(topic: string, totalCount: number, assignment?: number[][]): number[][] {
    const current = this.assignment(topic);
    if (current.length === 0)
      throw new KafkaError('UNKNOWN_TOPIC_OR_PARTITION', `Topic '${topic}' does not exist.`, { topic });
    if (!Number.isInteger(totalCount) || totalCount <= current.length)
      throw new KafkaError(
        'INVALID_PARTITIONS',
        `Topic currently has ${current.length} partitions, ${totalCount} would not be an increase.`,
        { topic, totalCount },
      );
    const rf = current[0]?.length ?? 1;
    let added: number[][];
    if (assignment) {
      if (assignment.length !== totalCount - current.length)
        throw new KafkaError('INVALID_REPLICA_ASSIGNMENT', 'Assignment must list exactly the new partitions.', {});
      added = validateAssignment(assignment, new Set(this.brokers.keys()));
      if (added.some((r) => r.length !== rf))
        throw new KafkaError(
          'INVALID_REPLICA_ASSIGNMENT',
          `Inconsistent replication factor between partitions, partition 0 has ${rf}.`,
          {
            topic,
          },
        );
    } else {
      const live = this.liveBrokerIds();
      if (rf > live.length)
        throw new KafkaError(
          'INVALID_REPLICATION_FACTOR',
          `Replication factor: ${rf} larger than available brokers: ${live.length}.`,
          {},
        );
      // Kafka continues the round-robin from the first existing partition's leader.
      const brokers = live.map((id) => ({ id, rack: this.brokers.get(id)?.rack ?? undefined }));
      const leader0 = current[0]?.[0] ?? -1;
      const sorted = [...live].sort((a, b) => a - b);
      // AdminZkClient.addPartitions: startIndex = the first broker whose id >= partition 0's leader.
      const start = Math.max(
        0,
        sorted.findIndex((id) => id >= leader0),
      );
      added = assignReplicasToBrokersWithSteps(brokers, totalCount - current.length, rf, {
        fixedStartIndex: start,
        startPartitionId: current.length,
      }).assignment;
    }
    const d = this.zk.getData(topicPath(topic)).data as { partitions: Record<string, number[]> };
    added.forEach((r, i) => {
      d.partitions[String(current.length + i)] = r;
    });
    this.zk.setData(topicPath(topic), d);
    this.options.emit({
      type: 'partitionsAdded',
      topic,
      oldCount: current.length,
      newCount: totalCount,
      assignment: [...current, ...added].map((r) => [...r]),
      atMs: this.now(),
    });
    return added;
  }

  deleteTopic(topic: string): void {
    if (!this.zk.exists(topicPath(topic)))
      throw new KafkaError('UNKNOWN_TOPIC_OR_PARTITION', `Topic '${topic}' does not exist.`, { topic });
    if (!this.config['delete.topic.enable'])
      throw new KafkaError('INVALID_REQUEST', 'Topic deletion is disabled (delete.topic.enable=false).', { topic });
    if (!this.zk.exists('/admin/delete_topics')) this.zk.createRecursive('/admin/delete_topics', null);
    if (!this.zk.exists(`/admin/delete_topics/${topic}`)) this.zk.create(`/admin/delete_topics/${topic}`, null);
  }

  /** Replaces the topic's overrides with `configs` merged over the current ones (null removes a key). */
  alterTopicConfig(topic: string, changes: Record<string, string | number | boolean | string[] | null>): void {
    if (!this.zk.exists(topicPath(topic)))
      throw new KafkaError('UNKNOWN_TOPIC_OR_PARTITION', `Topic '${topic}' does not exist.`, { topic });
    const old = this.topicOverrides(topic);
    const next: TopicConfigOverrides = { ...old };
    for (const [k, v] of Object.entries(changes)) {
      if (v === null) delete next[k];
      else next[k] = v;
    }
    createTopicConfig(next, this.brokerTopicDefaults());
    // AdminZkClient.changeTopicConfig: the znode, then the notification every broker's
    // ZkConfigManager acts on (TopicConfigHandler: the logs' config, unclean leader election).
    this.zk.setData(`/config/topics/${topic}`, { version: 1, config: next });
    createConfigChangeNotification(this.zk, `topics/${topic}`);
    this.options.emit({ type: 'topicConfigChanged', topic, old, new: { ...next }, atMs: this.now() });
  }

  /**
   * AdminZkClient.changeBrokerConfig: `/config/brokers/<id>` (null: `<default>`) becomes
   * `configs`, validated first (DynamicBrokerConfig.validateConfigs), then a `/config/changes`
   * notification, which the brokers apply when they process it.
   */
  alterBrokerConfig(broker: number | null, configs: Readonly<Record<string, string>>, validateOnly = false): void {
    validateDynamicBrokerConfigs(configs, broker !== null);
    if (validateOnly) return;
    const entity = brokerEntity(broker);
    const path = `/config/brokers/${entity}`;
    const data = { version: 1, config: { ...configs } };
    if (this.zk.exists(path)) this.zk.setData(path, data);
    else this.zk.createRecursive(path, data);
    createConfigChangeNotification(this.zk, `brokers/${entity}`);
  }

  /** kafka-leader-election --election-type PREFERRED (all partitions when none are given). */
  electPreferredLeaders(partitions?: { topic: string; partition: number }[]): void {
    for (const p of partitions ?? []) this.requirePartition(p.topic, p.partition);
    const path = '/admin/preferred_replica_election';
    if (this.zk.exists(path))
      throw new KafkaError('INVALID_REQUEST', 'A preferred leader election is already in progress.', {});
    if (!this.zk.exists('/admin')) this.zk.createRecursive('/admin', null);
    this.zk.create(path, { version: 1, partitions: partitions ?? [] });
  }

  /**
   * AlterPartitionReassignments at the active controller (KafkaController
   * .processApiPartitionReassignment): null replicas cancel; each partition's error, in order.
   */
  alterPartitionReassignments(
    moves: readonly { topic: string; partition: number; replicas: readonly number[] | null }[],
  ): ErrorCode[] {
    const active = this.activeController();
    if (!active) throw new KafkaError('NOT_CONTROLLER', 'No active controller.', {});
    return active.controller.reassignment.processApiPartitionReassignment(moves);
  }

  /** kafka-reassign-partitions --execute. */
  reassignPartitions(moves: { topic: string; partition: number; replicas: number[] }[]): void {
    const path = '/admin/reassign_partitions';
    if (this.zk.exists(path))
      throw new KafkaError('INVALID_REQUEST', 'A partition reassignment is already in progress.', {});
    if (moves.length === 0) throw new KafkaError('INVALID_REQUEST', 'Nothing to reassign.', {});
    for (const m of moves) {
      const current = this.requirePartition(m.topic, m.partition);
      validateAssignment([m.replicas], new Set(this.brokers.keys()));
      if (m.replicas.length === 0 || current.length === 0)
        throw new KafkaError('INVALID_REPLICA_ASSIGNMENT', 'Empty replica list.', { move: m });
    }
    if (!this.zk.exists('/admin')) this.zk.createRecursive('/admin', null);
    this.zk.create(path, { version: 1, partitions: moves.map((m) => ({ ...m, replicas: [...m.replicas] })) });
  }

  private requirePartition(topic: string, partition: number): number[] {
    const r = this.assignment(topic)[partition];
    if (!r)
      throw new KafkaError('UNKNOWN_TOPIC_OR_PARTITION', `Unknown partition ${topic}-${partition}.`, {
        topic,
        partition,
      });
    return r;
  }

  /** The partition's state znode: leader, leader_epoch, isr, controller_epoch. */
  partitionState(
    topic: string,
    partition: number,
  ): { leader: number; leader_epoch: number; isr: number[]; controller_epoch: number } | null {
    return this.zk.tryGetData(statePath(topic, partition)) as {
      leader: number;
      leader_epoch: number;
      isr: number[];
      controller_epoch: number;
    } | null;
  }

  // ------------------------------------------------------------------ unclean elections

  /**
   * Before an out-of-sync replica becomes leader: every other replica will truncate back to where
   * its log stops matching the new leader's (compared batch by batch: same base offset, leader
   * epoch and CRC), so the records from the earliest such point to the longest log end are lost;
   * of those, and of any committed records no log holds any more, the ones below the highest high
   * watermark ever reached had been acknowledged as committed.
   */
  private reportUncleanElection(topic: string, partition: number, newLeader: number): void {
    const key = tpKey(topic, partition);
    const leaderLog = this.brokers.get(newLeader)?.replicaManager.logs.get(key)?.log;
    const leaderEnd = leaderLog?.logEndOffset() ?? 0;
    const leaderBatches = leaderLog?.batchHeaders() ?? [];
    let from = leaderEnd;
    let to = leaderEnd;
    for (const b of this.brokers.values()) {
      if (b.id === newLeader) continue;
      const log = b.replicaManager.logs.get(key)?.log;
      if (!log) continue;
      const end = log.logEndOffset();
      let diverge = Math.min(end, leaderEnd);
      const theirs = log.batchHeaders();
      for (let i = 0; i < theirs.length && i < leaderBatches.length; i++) {
        const x = theirs[i] as (typeof theirs)[number];
        const y = leaderBatches[i] as (typeof leaderBatches)[number];
        if (x.baseOffset !== y.baseOffset || x.partitionLeaderEpoch !== y.partitionLeaderEpoch || x.crc !== y.crc) {
          diverge = Math.min(x.baseOffset, y.baseOffset);
          break;
        }
      }
      if (end > diverge) {
        from = Math.min(from, diverge);
        to = Math.max(to, end);
      }
    }
    const committed = this.highestHighWatermark.get(key) ?? 0;
    this.options.emit({
      type: 'uncleanLeaderElection',
      topic,
      partition,
      newLeader,
      newLeaderLogEndOffset: leaderEnd,
      lostOffsets: to > from ? { from, to } : null,
      // Committed records past every surviving log (a power failure took them) are lost too.
      lostCommittedOffsets: committed > from ? { from, to: committed } : null,
      atMs: this.now(),
    });
    // What is committed from now on is what the new leader will commit.
    this.highestHighWatermark.set(key, Math.min(committed, from));
  }
}
