import { isKafkaError } from '../errors';
import type { BrokerServices, ClusterServices } from './BrokerServices';
import type { BrokerState } from './BrokerState';
import { Controller } from './Controller';
import type { BrokerDownHow } from './events';
import { KafkaApis } from './KafkaApis';
import { LogManager } from './LogManager';
import { MetadataCache } from './MetadataCache';
import type { NetworkEndpoint, RequestMessage, ResponseMessage } from './Network';
import { ProducerIdManager } from './ProducerIdManager';
import { ReplicaFetcherManager } from './ReplicaFetcherManager';
import { ReplicaManager } from './ReplicaManager';
import { brokerNodeId, type KafkaRequest, type KafkaResponse } from './requests';
import { BrokerDynamicConfig, DEFAULT_BROKER_ENTITY } from './DynamicBrokerConfig';
import type { TopicConfigOverrides } from './TopicConfig';
import { ZkConfigManager } from './ZkConfigManager';

/**
 * A Kafka broker (Kafka's KafkaServer): registers itself in the coordination store under
 * `/brokers/ids/<id>` (ephemeral, tied to its session), keeps the session alive with heartbeats
 * every third of `zookeeper.session.timeout.ms`, takes part in controller election, and wires
 * its parts together: the LogManager (its disk), the ReplicaManager (its replicas), the
 * ReplicaFetcherManager (one fetcher per leader it follows), the MetadataCache, the
 * ProducerIdManager, the Controller it may become, and KafkaApis, which answers requests.
 *
 * How a broker goes down:
 *  - kill: the process dies. Connections reset; the page cache survives, so every appended byte
 *    is still there at restart. The session lingers until it expires.
 *  - powerFail: the machine dies. Unflushed bytes are lost; peers hear nothing.
 *  - stop: a clean shutdown. Controlled shutdown first (the controller moves leadership away),
 *    then logs are flushed and the session is closed, so the controller reacts at once.
 * After a restart, the broker re-registers once its old session's ephemeral node is gone (a
 * ZooKeeper-mode registration does not say how the broker went down). Controller requests
 * addressed to an earlier incarnation (an older broker epoch, KIP-380) are refused with
 * STALE_BROKER_EPOCH.
 */
export type { BrokerState };

export class Broker {
  state: BrokerState = 'down';
  downHow: BrokerDownHow | null = null;
  sessionId = 0;
  brokerEpoch = -1;
  /** The highest controller epoch this broker has accepted a request from. */
  controllerEpochSeen = -1;
  metadata = new MetadataCache();
  readonly logManager: LogManager;
  readonly replicaManager: ReplicaManager;
  readonly controller: Controller;
  readonly fetcherManager: ReplicaFetcherManager;
  readonly producerIdManager: ProducerIdManager;
  private readonly apis: KafkaApis;
  /** This broker's dynamic configs (`/config/brokers/<id>` and `<default>`). */
  readonly dynamicConfig: BrokerDynamicConfig;
  private readonly configManager: ZkConfigManager;
  /** Topic-config defaults from dynamic log configs (DynamicLogConfig); empty when none is set. */
  private logDefaults: TopicConfigOverrides = {};
  private cleanerTask: { cancel(): void } | null = null;
  private tasks: { cancel(): void }[] = [];
  private controllerRequests = new Map<number, (r: KafkaResponse) => void>();
  private readonly services: BrokerServices;
  private shutdownAttempt = 0;
  private generation = 0;

  constructor(
    readonly id: number,
    readonly rack: string | null,
    readonly logDirs: string[],
    cluster: ClusterServices,
  ) {
    this.dynamicConfig = new BrokerDynamicConfig(cluster.config);
    this.services = {
      ...cluster,
      // A broker's own copy: dynamic configs change it without touching the other brokers'.
      config: { ...cluster.config },
      topicConfig: (topic) =>
        Object.keys(this.logDefaults).length === 0
          ? cluster.topicConfig(topic)
          : cluster.topicConfigOver(topic, this.logDefaults),
      metadataHasPartition: (topic, partition) => this.metadata.contains(topic, partition),
      metadataHasAliveBroker: (id) => this.metadata.hasAliveBroker(id),
      sendToController: (request) => this.sendToController(request),
      brokerEpoch: () => this.brokerEpoch,
    };
    this.logManager = new LogManager(id, logDirs, this.services);
    this.replicaManager = new ReplicaManager(id, this.logManager, this.services);
    this.controller = new Controller(this, this.services);
    this.fetcherManager = new ReplicaFetcherManager(id, this.services, this.replicaManager);
    this.producerIdManager = new ProducerIdManager(id, this.services, () => this.zkReachable());
    this.apis = new KafkaApis(this, this.services);
    this.configManager = new ZkConfigManager(
      this.services.zk,
      {
        topics: (topic, overrides) => this.onTopicConfigChange(topic, overrides),
        brokers: (entity, config) => this.onBrokerConfigChange(entity, config),
      },
      () => this.now(),
      () => this.zkReachable(),
    );
  }

  /**
   * TopicConfigHandler.processConfigChanges: this broker's logs of the topic take the new config,
   * and an override enabling unclean leader election tells the controller (which acts only when active).
   */
  private onTopicConfigChange(topic: string, overrides: Readonly<Record<string, unknown>>): void {
    const config = this.services.topicConfig(topic);
    for (const p of this.replicaManager.partitions.values()) {
      if (p.topic !== topic) continue;
      p.config = config;
      p.log.updateConfig?.(config);
    }
    if (String(overrides['unclean.leader.election.enable']).toLowerCase() === 'true')
      this.controller.enableTopicUncleanLeaderElection(topic);
  }

  /** BrokerConfigHandler.processConfigChanges: the default entity, or this broker's own. */
  private onBrokerConfigChange(entity: string, config: Readonly<Record<string, unknown>>): void {
    if (entity === DEFAULT_BROKER_ENTITY) this.dynamicConfig.update('default', config);
    else if (Number(entity) === this.id) this.dynamicConfig.update('broker', config);
    else return;
    this.applyDynamicConfig();
  }

  /**
   * DynamicBrokerConfig.updateCurrentConfig: the settings in force change, every log's config is
   * rebuilt over the new defaults (DynamicLogConfig.updateLogsConfig), and the cleaner picks up a
   * new log.cleaner.backoff.ms (LogCleaner.reconfigure restarts its threads).
   */
  private applyDynamicConfig(): void {
    const backoff = this.services.config['log.cleaner.backoff.ms'];
    const unclean =
      this.logDefaults['unclean.leader.election.enable'] ?? this.services.config['unclean.leader.election.enable'];
    Object.assign(this.services.config, this.dynamicConfig.brokerConfig());
    this.logDefaults = this.dynamicConfig.logDefaults();
    for (const p of this.replicaManager.partitions.values()) {
      p.config = this.services.topicConfig(p.topic);
      p.log.updateConfig?.(p.config);
    }
    if (this.state !== 'down' && this.services.config['log.cleaner.backoff.ms'] !== backoff) this.scheduleCleaner();
    // DynamicLogConfig.reconfigure: unclean election turned on by default tells the controller
    // (enableDefaultUncleanLeaderElection), which elects every topic's offline partitions again.
    const now =
      this.logDefaults['unclean.leader.election.enable'] ?? this.services.config['unclean.leader.election.enable'];
    if (
      String(now).toLowerCase() === 'true' &&
      String(unclean).toLowerCase() !== 'true' &&
      this.services.zk.exists('/brokers/topics')
    )
      for (const topic of this.services.zk.getChildren('/brokers/topics'))
        this.controller.enableTopicUncleanLeaderElection(topic);
  }

  private scheduleCleaner(): void {
    this.cleanerTask?.cancel();
    this.cleanerTask = null;
    const c = this.services.config;
    if (!c['log.cleaner.enable']) return;
    const backoff = c['log.cleaner.backoff.ms'];
    this.cleanerTask = this.services.scheduler.schedulePeriodic(backoff, backoff, () => this.logManager.compactLogs());
  }

  get node(): string {
    return brokerNodeId(this.id);
  }

  get network() {
    return this.services.network;
  }

  get isRunning(): boolean {
    return this.state !== 'down';
  }

  private now(): number {
    return this.services.scheduler.now();
  }

  // ------------------------------------------------------------------ lifecycle

  startup(): void {
    if (this.state !== 'down') return;
    this.generation++;
    this.state = 'running';
    this.downHow = null;
    this.metadata = new MetadataCache();
    this.brokerEpoch = -1;
    this.controllerEpochSeen = -1;
    this.shutdownAttempt = 0;
    const endpoint: NetworkEndpoint = {
      onRequest: (m) => this.onRequest(m),
      onResponse: (m) => this.onResponse(m),
      onDisconnect: (_peer, cid) => this.onDisconnect(cid),
    };
    this.services.network.attach(this.node, endpoint);
    this.services.emit({
      type: 'brokerStarted',
      broker: this.id,
      rack: this.rack,
      logDirs: [...this.logDirs],
      atMs: this.now(),
    });
    // The logs are loaded (they outlive the process): the clean-shutdown marker goes.
    this.logManager.clearCleanShutdown();
    this.initializeDynamicConfig();
    const c = this.services.config;
    this.openSession();
    const timeout = c['zookeeper.session.timeout.ms'];
    const lag = c['replica.lag.time.max.ms'];
    // Each periodic task at its interval, first run one interval in (KafkaScheduler.schedule).
    const periodic: [intervalMs: number, task: () => void][] = [
      [timeout / 3, () => this.heartbeat()],
      [lag / 2, () => this.replicaManager.maybeShrinkIsr()],
      [c['replica.high.watermark.checkpoint.interval.ms'], () => this.replicaManager.checkpointHighWatermarks()],
      // Kafka's log flusher (flush.ms / flush.messages), retention checker and log cleaner.
      [1000, () => this.logManager.maybeFlushLogs()],
      [c['log.flush.offset.checkpoint.interval.ms'], () => this.logManager.checkpointRecoveryOffsets()],
      [c['log.flush.start.offset.checkpoint.interval.ms'], () => this.logManager.checkpointLogStartOffsets()],
      [c['log.retention.check.interval.ms'], () => this.logManager.cleanupLogs()],
      [c['producer.id.expiration.check.interval.ms'], () => this.replicaManager.removeExpiredProducers()],
    ];
    for (const [ms, task] of periodic) this.tasks.push(this.services.scheduler.schedulePeriodic(ms, ms, task));
    this.scheduleCleaner();
    this.registerBroker();
  }

  /** DynamicBrokerConfig.initialize: the dynamic configs in the store are in force from the start. */
  private initializeDynamicConfig(): void {
    const read = (entity: string) =>
      (this.services.zk.tryGetData(`/config/brokers/${entity}`) as { config?: Record<string, unknown> } | null)
        ?.config ?? {};
    this.dynamicConfig.update('default', read(DEFAULT_BROKER_ENTITY));
    this.dynamicConfig.update('broker', read(String(this.id)));
    Object.assign(this.services.config, this.dynamicConfig.brokerConfig());
    this.logDefaults = this.dynamicConfig.logDefaults();
  }

  private openSession(): void {
    this.sessionId = this.services.zk.createSession(this.node, this.services.config['zookeeper.session.timeout.ms']);
  }

  /** Creates /brokers/ids/<id>; while a previous incarnation's node lingers, retries. */
  private registerBroker(): void {
    if (this.state !== 'running' || this.services.network.isIsolated(this.node)) {
      this.scheduleRegisterRetry();
      return;
    }
    const zk = this.services.zk;
    const path = `/brokers/ids/${this.id}`;
    if (!zk.isSessionLive(this.sessionId)) {
      // The session expired while we were retrying: start a fresh one.
      this.controller.onSessionExpired();
      this.openSession();
    }
    try {
      if (!zk.exists('/brokers/ids')) zk.createRecursive('/brokers/ids', null);
      zk.create(
        path,
        {
          version: 5,
          host: `broker-${this.id}`,
          port: 9092,
          rack: this.rack,
          endpoints: [`PLAINTEXT://broker-${this.id}:9092`],
          timestamp: String(this.now()),
        },
        { ephemeralSessionId: this.sessionId },
      );
    } catch (e) {
      if (isKafkaError(e, 'NODE_EXISTS')) {
        this.scheduleRegisterRetry();
        return;
      }
      throw e;
    }
    this.brokerEpoch = zk.getData(path).stat.czxid;
    this.services.emit({ type: 'brokerRegistered', broker: this.id, brokerEpoch: this.brokerEpoch, atMs: this.now() });
    this.configManager.startup(this.sessionId);
    this.deleteStrayLogs();
    // The election runs once everything due now has run, so brokers starting together all
    // register before the first controller looks at /brokers/ids.
    const gen = this.generation;
    this.services.scheduler.schedule(0, () => {
      if (this.generation === gen && this.state === 'running') this.controller.startup();
    });
  }

  /**
   * Logs of partitions this broker no longer hosts — the topic was deleted, or the replica moved
   * away, while the broker was down — are deleted at start-up (Kafka's stray replica cleanup).
   */
  private deleteStrayLogs(): void {
    const zk = this.services.zk;
    for (const h of [...this.replicaManager.logs.values()]) {
      const d = zk.tryGetData(`/brokers/topics/${h.topic}`) as { partitions?: Record<string, number[]> } | null;
      const replicas = d?.partitions?.[String(h.partition)];
      if (replicas?.includes(this.id)) continue;
      // A reassignment in flight may be adding this broker: keep the log.
      const moving = zk.tryGetData('/admin/reassign_partitions') as {
        partitions?: { topic: string; partition: number; replicas: number[] }[];
      } | null;
      if (
        moving?.partitions?.some(
          (m) => m.topic === h.topic && m.partition === h.partition && m.replicas.includes(this.id),
        )
      )
        continue;
      this.replicaManager.deletePartition(h.topic, h.partition);
    }
  }

  private scheduleRegisterRetry(): void {
    const gen = this.generation;
    this.services.scheduler.schedule(1000, () => {
      if (this.generation === gen && this.state === 'running') this.registerBroker();
    });
  }

  private heartbeat(): void {
    if (this.services.network.isIsolated(this.node)) return; // ZooKeeper is unreachable
    if (this.services.zk.heartbeat(this.sessionId)) {
      // In touch with the store again: watches that fired while we were cut off are delivered now.
      this.controller.processDeferredWatches();
      this.configManager.processDeferred();
      return;
    }
    // Back in touch after the session expired: a new session, registration and election.
    this.controller.onSessionExpired();
    this.openSession();
    this.brokerEpoch = -1;
    this.registerBroker();
  }

  /** Whether this broker can talk to the coordination store right now. */
  zkReachable(): boolean {
    return (
      this.state !== 'down' &&
      !this.services.network.isIsolated(this.node) &&
      this.services.zk.isSessionLive(this.sessionId)
    );
  }

  down(how: BrokerDownHow): void {
    if (this.state === 'down') return;
    this.state = 'down';
    this.downHow = how;
    this.generation++;
    for (const t of this.tasks) t.cancel();
    this.tasks = [];
    this.cleanerTask?.cancel();
    this.cleanerTask = null;
    this.configManager.close();
    this.fetcherManager.shutdown();
    this.controllerRequests.clear();
    this.controller.onProcessDown();
    this.replicaManager.checkpointHighWatermarks();
    let lost = 0;
    if (how === 'stopped') {
      this.logManager.takeProducerSnapshots();
      this.logManager.flushAll();
      this.logManager.markCleanShutdown();
      this.services.zk.closeSession(this.sessionId);
    }
    // A crash or a clean stop closes the sockets (peers hear a reset); a machine without power says nothing.
    this.services.network.detach(this.node, how !== 'powerFailed');
    if (how === 'powerFailed') lost = this.logManager.loseUnflushed();
    this.replicaManager.onProcessDown();
    this.producerIdManager.reset();
    this.services.emit({ type: 'brokerDown', broker: this.id, how, lostUnflushedBytes: lost, atMs: this.now() });
  }

  /** Clean shutdown: ask the controller to move leadership off this broker, then stop. */
  controlledShutdown(): void {
    if (this.state !== 'running') return;
    if (!this.services.config['controlled.shutdown.enable']) {
      this.down('stopped');
      return;
    }
    this.state = 'shuttingDown';
    this.tryControlledShutdown();
  }

  private tryControlledShutdown(): void {
    if (this.state !== 'shuttingDown') return;
    const c = this.services.config;
    if (this.shutdownAttempt > c['controlled.shutdown.max.retries']) {
      this.down('stopped');
      return;
    }
    this.shutdownAttempt++;
    const gen = this.generation;
    const sent = this.sendToController(
      { api: 'ControlledShutdown', brokerId: this.id, brokerEpoch: this.brokerEpoch },
      (r) => {
        if (this.generation !== gen || r.api !== 'ControlledShutdown') return;
        this.services.emit({
          type: 'controlledShutdown',
          broker: this.id,
          remaining: r.remainingPartitions.length,
          atMs: this.now(),
        });
        if (r.errorCode === 'NONE' && r.remainingPartitions.length === 0) this.down('stopped');
        else
          this.services.scheduler.schedule(c['controlled.shutdown.retry.backoff.ms'], () =>
            this.tryControlledShutdown(),
          );
      },
    );
    const retry = sent ? c['controller.socket.timeout.ms'] : c['controlled.shutdown.retry.backoff.ms'];
    this.services.scheduler.schedule(retry, () => {
      if (this.generation === gen && this.state === 'shuttingDown') this.tryControlledShutdown();
    });
  }

  // ------------------------------------------------------------------ messaging

  /** Sends to the controller this broker knows of; the callback gets the response. */
  sendToController(request: KafkaRequest, onResponse?: (r: KafkaResponse) => void): boolean {
    if (this.state === 'down') return false;
    const controllerId = this.currentControllerId();
    if (controllerId < 0) return false;
    const cid = this.services.network.send(this.node, brokerNodeId(controllerId), request);
    if (onResponse) this.controllerRequests.set(cid, onResponse);
    return true;
  }

  /** The controller per the store (as Kafka brokers watch /controller), else per metadata. */
  private currentControllerId(): number {
    if (this.zkReachable()) {
      const data = this.services.zk.tryGetData('/controller') as { brokerid?: number } | null;
      return data?.brokerid ?? -1;
    }
    return this.metadata.controllerId;
  }

  /** Sends a request from this broker (controller channel, fetchers). */
  send(to: number, request: KafkaRequest, onResponse?: (r: KafkaResponse) => void): number {
    const cid = this.services.network.send(this.node, brokerNodeId(to), request);
    if (onResponse) this.controllerRequests.set(cid, onResponse);
    return cid;
  }

  /** Stops waiting for a request sent with `send` (its sender gave up on it). */
  forgetRequest(correlationId: number): void {
    this.controllerRequests.delete(correlationId);
    this.services.network.abandon(correlationId);
  }

  private onResponse(message: ResponseMessage): void {
    if (this.state === 'down') return;
    const cb = this.controllerRequests.get(message.correlationId);
    if (cb) {
      this.controllerRequests.delete(message.correlationId);
      cb(message.body);
      return;
    }
    if (message.body.api === 'AlterPartition') {
      this.replicaManager.handleAlterPartitionResponse(message.body);
      return;
    }
    this.fetcherManager.onResponse(message);
  }

  private onDisconnect(correlationId: number): void {
    this.controllerRequests.delete(correlationId);
    this.fetcherManager.onDisconnect(correlationId);
  }

  private onRequest(message: RequestMessage): void {
    if (this.state === 'down') return;
    this.apis.handle(message);
  }
}
