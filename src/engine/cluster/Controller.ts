import { isKafkaError } from '../errors';
import type { ControllerBroker } from './ControllerBroker';
import type { BrokerServices } from './BrokerServices';
import { ControllerBrokerRequestBatch } from './ControllerBrokerRequestBatch';
import { type ControllerRequestContext, doControlledShutdown, processAlterPartition } from './ControllerBrokerRequests';
import { ControllerChannelManager } from './ControllerChannelManager';
import type { LeaderIsrAndControllerEpoch } from './ControllerContext';
import type { WatchedEvent } from './CoordinationStore';
import type { LeaderAndIsrValue, LeaderElectionReason } from './events';
import { PartitionReassignment } from './PartitionReassignment';
import { PartitionStateMachine } from './PartitionStateMachine';
import { ReplicaStateMachine } from './ReplicaStateMachine';
import { TopicDeletionManager } from './TopicDeletionManager';
import {
  readPartitionState,
  statePath,
  TopicAssignmentCache,
  type TopicAssignmentZnode,
  topicPath,
  writePartitionState,
} from './ZkData';
import type {
  AlterPartitionRequest,
  ControlledShutdownRequest,
  KafkaResponse,
  LeaderAndIsrPartitionState,
  MetadataBroker,
} from './requests';

/** KafkaController.onControllerFailover: the first auto leader rebalance check runs 5 s after it. */
const AUTO_LEADER_REBALANCE_FIRST_CHECK_MS = 5000;

/**
 * The controller (Kafka's KafkaController in ZooKeeper mode). Every broker runs one; the one
 * that creates the ephemeral `/controller` znode first is active and increments
 * `/controller_epoch`. The others watch `/controller` and race again when it disappears.
 *
 * The active controller watches `/brokers/ids` (brokers coming and going), `/brokers/topics`
 * (new topics and partitions), `/admin/delete_topics`, `/admin/reassign_partitions` and
 * `/admin/preferred_replica_election`. It writes each partition's leader, leader epoch and ISR
 * to `/brokers/topics/<t>/partitions/<p>/state` with a version check, then tells the replicas
 * (LeaderAndIsr) and every broker (UpdateMetadata). Every request carries the controller epoch,
 * so brokers refuse a deposed controller (STALE_CONTROLLER_EPOCH); its own writes are refused
 * too, because each write first checks that `/controller_epoch` is still at the version it set.
 *
 * Partitions and replicas change state through Kafka's two state machines (PartitionStateMachine:
 * initialization and offline and preferred elections; ReplicaStateMachine: a dead replica leaves
 * the ISR), each refusing a transition its table does not allow.
 *
 * Leader election (PartitionLeaderElectionAlgorithms):
 *  - offline: the first replica in assignment order that is alive and in the ISR; with
 *    unclean.leader.election.enable, failing that, the first live replica (data may be lost);
 *    otherwise the partition stays offline (leader -1) until an ISR member returns;
 *  - preferred: the first replica of the assignment, if alive and in the ISR;
 *  - controlled shutdown: the first live ISR replica that is not shutting down;
 *  - reassignment: the first live ISR replica of the target assignment.
 * Every leader change, and every ISR change made by the controller, bumps the leader epoch.
 *
 * A dead replica leaves the ISR (OfflineReplica, ZkReplicaStateMachine.doRemoveReplicasFromIsr),
 * but ZooKeeper mode never empties the ISR: its last member stays, so when that broker comes
 * back it is elected again, even after an unclean shutdown that lost records it had
 * acknowledged. KRaft's eligible leader replicas and unclean-shutdown fencing (KIP-966) are not
 * part of ZooKeeper mode and not applied here.
 */
export class Controller {
  active = false;
  epoch = -1;
  private epochZkVersion = -1;
  private liveBrokers = new Map<number, number>();
  private shuttingDown = new Set<number>();
  private tasks: { cancel(): void }[] = [];
  private knownTopics = new Set<string>();
  /** Watches belong to one incarnation of the broker: a restarted process never hears its predecessor's. */
  private incarnation = 0;
  private watcher = this.makeWatcher();
  /**
   * Notifications that fired while this broker was cut off from the store. ZooKeeper delivers a
   * watch only to a connected client (on reconnection it re-registers its watches and hears
   * what changed meanwhile), so they are handled once the broker is back in touch, not before:
   * acting on them unreachable would change the controller's view without writing anything.
   */
  private deferredWatches: WatchedEvent[] = [];
  private readonly channels: ControllerChannelManager;
  private readonly requestBatch: ControllerBrokerRequestBatch;
  /** Kafka's PartitionStateMachine and ReplicaStateMachine, over this controller's context. */
  readonly partitionStateMachine: PartitionStateMachine;
  readonly replicaStateMachine: ReplicaStateMachine;
  readonly reassignment: PartitionReassignment;
  readonly topicDeletionManager: TopicDeletionManager;
  private readonly requestContext: ControllerRequestContext;

  private makeWatcher(): (e: WatchedEvent) => void {
    const incarnation = this.incarnation;
    return (e) => {
      if (incarnation === this.incarnation) this.onWatch(e);
    };
  }

  constructor(
    private readonly broker: ControllerBroker,
    private readonly services: BrokerServices,
  ) {
    const controller = this; // the state machines are built after this context: its getters read them late
    this.channels = new ControllerChannelManager(
      services,
      (to, request, onResponse) => broker.send(to, request, onResponse),
      (cid) => broker.forgetRequest(cid),
    );
    this.requestBatch = new ControllerBrokerRequestBatch(services, this.channels, {
      controllerId: broker.id,
      isActive: () => this.active,
      controllerEpoch: () => this.epoch,
      liveBrokers: () => this.liveBrokers,
      brokerMetadata: (id) => this.brokerMetadata(id),
      currentPartitionState: (topic, partition) => {
        const v = this.readState(topic, partition);
        return v ? this.partitionState(topic, partition, v) : null;
      },
      isTopicQueuedUpForDeletion: (topic) => this.topicDeletionManager.isTopicQueuedUpForDeletion(topic),
      isTopicDeletionInProgress: (topic) => this.topicDeletionManager.isTopicDeletionInProgress(topic),
      onTopicDeletionStopReplicaResponse: (b, requestError, partitionErrors) =>
        this.topicDeletionManager.processStopReplicaResponse(b, requestError, partitionErrors),
    });
    const context: ControllerRequestContext = {
      services,
      liveBrokers: () => this.liveBrokers,
      shuttingDown: () => this.shuttingDown,
      now: () => this.now(),
      allPartitions: () => this.allPartitions(),
      replicasOf: (topic, partition) => this.replicasOf(topic, partition),
      readState: (topic, partition) => this.readState(topic, partition),
      writeState: (topic, partition, next, old, reason) => this.writeState(topic, partition, next, old, reason),
      propagate: (topic, partition, v, isNew, except) => this.propagate(topic, partition, v, isNew, except),
      isActive: () => this.active,
      canWrite: () => this.canWrite(),
      watch: () => this.watch(),
      assignment: (topic) => this.assignment(topic),
      get replicaStateMachine() {
        return controller.replicaStateMachine;
      },
      get partitionStateMachine() {
        return controller.partitionStateMachine;
      },
      addStopReplica: (b, topic, partition, deletePartition) =>
        this.requestBatch.addStopReplicaRequest(b, topic, partition, deletePartition),
      isKnownTopic: (topic) => this.knownTopics.has(topic),
      isTopicBeingReassigned: (topic) => this.reassignment.isTopicBeingReassigned(topic),
      markTopicIneligibleForDeletion: (topic) => this.topicDeletionManager.markTopicIneligibleForDeletion([topic]),
      resumeDeletionForTopic: (topic) => this.topicDeletionManager.resumeDeletionForTopics([topic]),
      updateMetadata: (partitions) =>
        this.requestBatch.addUpdateMetadataRequest([...this.liveBrokers.keys()], partitions),
      removeTopic: (topic) => {
        this.knownTopics.delete(topic);
        this.reassignment.forgetTopic(topic);
      },
      isTopicQueuedUpForDeletion: (topic) => this.topicDeletionManager.isTopicQueuedUpForDeletion(topic),
      beginShutdown: (id) => this.shuttingDown.add(id),
      checkReassignments: () => this.reassignment.checkReassignments(),
      updateMetadataDeleted: (topic) => {
        for (const b of this.liveBrokers.keys()) this.requestBatch.addUpdateMetadataRequest([b], [], [topic]);
      },
    };
    this.partitionStateMachine = new PartitionStateMachine(context);
    this.replicaStateMachine = new ReplicaStateMachine(context);
    this.reassignment = new PartitionReassignment(context);
    this.topicDeletionManager = new TopicDeletionManager(context);
    this.requestContext = context;
  }

  private get zk() {
    return this.services.zk;
  }

  private now(): number {
    return this.services.scheduler.now();
  }

  private watch() {
    return { sessionId: this.broker.sessionId, watcher: this.watcher };
  }

  // ------------------------------------------------------------------ election

  startup(): void {
    this.elect();
  }

  /** Races to create /controller; the winner bumps /controller_epoch and takes over. */
  private elect(): void {
    if (!this.broker.zkReachable() || this.broker.state !== 'running') return;
    const zk = this.zk;
    const existing = zk.exists('/controller', this.watch());
    if (existing) return;
    try {
      zk.create(
        '/controller',
        { version: 1, brokerid: this.broker.id, timestamp: String(this.now()) },
        { ephemeralSessionId: this.broker.sessionId },
      );
    } catch (e) {
      if (isKafkaError(e, 'NODE_EXISTS')) {
        zk.exists('/controller', this.watch());
        return;
      }
      throw e;
    }
    zk.exists('/controller', this.watch());
    let previous = 0;
    const stat = zk.exists('/controller_epoch');
    if (!stat) zk.create('/controller_epoch', 0);
    else previous = zk.getData('/controller_epoch').data as number;
    const version = zk.exists('/controller_epoch')?.version ?? 0;
    this.epochZkVersion = zk.setData('/controller_epoch', previous + 1, version).version;
    this.epoch = previous + 1;
    this.active = true;
    this.services.emit({
      type: 'controllerElected',
      broker: this.broker.id,
      controllerEpoch: this.epoch,
      previousEpoch: previous,
      atMs: this.now(),
    });
    this.onControllerFailover();
  }

  /** Stops acting as the controller: channels closed, periodic tasks cancelled, its context forgotten. */
  private stopActing(): void {
    this.active = false;
    this.channels.shutdown();
    for (const t of this.tasks) t.cancel();
    this.tasks = [];
    this.reassignment.clear();
    this.topicDeletionManager.clear();
    this.shuttingDown.clear();
    this.replicaStateMachine.shutdown();
    this.partitionStateMachine.shutdown();
  }

  private resign(): void {
    if (!this.active) return;
    this.stopActing();
    this.requestBatch.clear();
    this.services.emit({
      type: 'controllerResigned',
      broker: this.broker.id,
      controllerEpoch: this.epoch,
      atMs: this.now(),
    });
  }

  onSessionExpired(): void {
    // The session's watches are gone with it (a new session registers its own).
    this.deferredWatches = [];
    this.resign();
  }

  onProcessDown(): void {
    this.incarnation++;
    this.watcher = this.makeWatcher();
    this.deferredWatches = [];
    this.stopActing();
    this.requestBatch.onProcessDown();
  }

  /** Before every write: still reachable, and /controller_epoch still ours (else we were deposed). */
  private canWrite(): boolean {
    if (!this.active) return false;
    if (!this.broker.zkReachable()) return false;
    const stat = this.zk.exists('/controller_epoch');
    if (!stat || stat.version !== this.epochZkVersion) {
      this.resign();
      return false;
    }
    return true;
  }

  private onWatch(e: WatchedEvent): void {
    if (this.broker.state === 'down') return;
    if (!this.broker.zkReachable()) {
      if (!this.deferredWatches.some((d) => d.path === e.path && d.type === e.type)) this.deferredWatches.push(e);
      return;
    }
    if (e.path === '/controller') {
      if (e.type === 'NodeDeleted') {
        this.resign();
        this.elect();
      } else {
        const data = this.zk.tryGetData('/controller') as { brokerid?: number } | null;
        this.zk.exists('/controller', this.watch());
        if (this.active && data?.brokerid !== this.broker.id) this.resign();
      }
      return;
    }
    if (!this.active) return;
    if (e.path === '/brokers/ids') this.onBrokerChange();
    else if (e.path === '/brokers/topics') this.onTopicChange();
    else if (e.path === '/admin/delete_topics') this.topicDeletionManager.processTopicDeletion();
    else if (e.path === '/admin/reassign_partitions') this.reassignment.onReassignZnodeEvent(e.type);
    else if (e.path === '/admin/preferred_replica_election') this.onPreferredReplicaElection();
    else if (e.path.startsWith('/brokers/topics/'))
      this.onPartitionModification(e.path.slice('/brokers/topics/'.length));
  }

  /** Back in touch with the store: the notifications held while cut off, in the order they fired. */
  processDeferredWatches(): void {
    if (this.deferredWatches.length === 0 || !this.broker.zkReachable()) return;
    const events = this.deferredWatches;
    this.deferredWatches = [];
    for (const e of events) this.onWatch(e);
  }

  // ------------------------------------------------------------------ failover

  private ensure(path: string): void {
    if (!this.zk.exists(path)) this.zk.createRecursive(path, null);
  }

  private onControllerFailover(): void {
    for (const p of ['/brokers/ids', '/brokers/topics', '/admin/delete_topics', '/config/topics']) this.ensure(p);
    this.liveBrokers = this.readLiveBrokers();
    for (const [id, epoch] of this.liveBrokers) this.channels.addBroker(id, epoch);
    this.knownTopics = new Set(this.zk.getChildren('/brokers/topics', this.watch()));
    for (const t of this.knownTopics) this.zk.getData(topicPath(t), this.watch());
    this.processTopicIds([...this.knownTopics]);
    this.topicDeletionManager.init();
    this.requestBatch.addUpdateMetadataRequest([...this.liveBrokers.keys()], this.allPartitions());
    // Kafka's onControllerFailover starts the replica state machine (replicas that died while
    // there was no controller go offline) before the partition state machine (elections).
    this.replicaStateMachine.startup();
    this.partitionStateMachine.startup();
    for (const [topic, partition] of this.allPartitions()) {
      if (!this.readState(topic, partition)) {
        this.initializePartition(topic, partition);
        continue;
      }
      const lastLeader = this.replicaStateMachine.offlineDeadReplicas(topic, partition);
      const state = this.readState(topic, partition);
      if (this.topicDeletionManager.isTopicQueuedUpForDeletion(topic)) continue; // not elected while deleted
      if (state && (state.leader < 0 || !this.liveBrokers.has(state.leader)))
        this.electOffline(topic, partition, lastLeader);
    }
    // Every replica hears the current state from the new controller (and its epoch).
    this.sendLeaderAndIsrForAll([...this.liveBrokers.keys()]);
    this.reassignment.initializePartitionReassignments();
    this.topicDeletionManager.tryTopicDeletion();
    this.onPreferredReplicaElection();
    const c = this.services.config;
    if (c['auto.leader.rebalance.enable']) {
      // scheduleAutoLeaderRebalanceTask(delay = 5 s) after a failover, then every
      // leader.imbalance.check.interval.seconds after each check.
      const interval = c['leader.imbalance.check.interval.seconds'] * 1000;
      this.tasks.push(
        this.services.scheduler.schedulePeriodic(AUTO_LEADER_REBALANCE_FIRST_CHECK_MS, interval, () =>
          this.checkAndTriggerAutoLeaderRebalance(),
        ),
      );
    }
  }

  /**
   * KafkaController.processTopicIds: a topic znode written without a topic id (before ids, or by
   * an older writer) gets one, and TopicZNode version 3, from the controller.
   */
  private processTopicIds(topics: readonly string[]): void {
    if (!this.canWrite()) return;
    for (const t of [...topics].sort()) {
      const d = this.zk.tryGetData(topicPath(t)) as TopicAssignmentZnode | null;
      if (!d || d.topic_id) continue;
      this.zk.setData(topicPath(t), { ...d, version: 3, topic_id: this.services.newTopicId(t) });
      this.zk.getData(topicPath(t), this.watch());
    }
  }

  private readLiveBrokers(): Map<number, number> {
    const ids = this.zk.getChildren('/brokers/ids', this.watch());
    const m = new Map<number, number>();
    for (const id of ids) {
      const stat = this.zk.exists(`/brokers/ids/${id}`);
      if (stat) m.set(Number(id), stat.czxid);
    }
    return m;
  }

  private brokerMetadata(id: number): MetadataBroker {
    const d = this.zk.tryGetData(`/brokers/ids/${id}`) as { rack?: string | null } | null;
    return { nodeId: id, host: `broker-${id}`, port: 9092, rack: d?.rack ?? null };
  }

  // ------------------------------------------------------------------ reading state

  private readonly assignmentCache = new TopicAssignmentCache();

  /** A topic's replica assignment (shared: callers must not mutate it). */
  assignment(topic: string): number[][] {
    return this.assignmentCache.get(this.zk, topic);
  }

  /**
   * Kafka's OfflinePartitionsCount gauge (KafkaController): the partitions whose leader this
   * controller does not count among the live brokers; 0 on a broker that is not the active one.
   */
  offlinePartitionCount(): number {
    if (!this.active) return 0;
    let n = 0;
    for (const [topic, partition] of this.allPartitions()) {
      // Kafka's gauge leaves out the topics whose deletion has started.
      if (this.topicDeletionManager.isTopicDeletionInProgress(topic)) continue;
      const s = this.zk.peekData(statePath(topic, partition)) as { leader?: number } | null;
      if (s && (s.leader === undefined || s.leader < 0 || !this.liveBrokers.has(s.leader))) n++;
    }
    return n;
  }

  private allPartitions(): [string, number][] {
    const out: [string, number][] = [];
    for (const t of [...this.knownTopics].sort()) {
      const a = this.assignment(t);
      for (let p = 0; p < a.length; p++) if (a[p]) out.push([t, p]);
    }
    return out;
  }

  private readState(topic: string, partition: number): LeaderIsrAndControllerEpoch | null {
    return readPartitionState(this.zk, topic, partition);
  }

  private replicasOf(topic: string, partition: number): number[] {
    return this.reassignment.replicasOf(topic, partition, this.assignment(topic)[partition] ?? []);
  }

  /** Writes a partition's new state (conditional on the version read) and reports it. */
  private writeState(
    topic: string,
    partition: number,
    next: { leader: number; leaderEpoch: number; isr: number[] },
    old: LeaderAndIsrValue | null,
    reason: LeaderElectionReason,
  ): LeaderAndIsrValue | null {
    if (!this.canWrite()) return null;
    const version = writePartitionState(this.zk, topic, partition, this.epoch, next, old?.partitionEpoch ?? null);
    if (version === null) return null;
    const value = {
      leader: next.leader,
      leaderEpoch: next.leaderEpoch,
      isr: [...next.isr],
      partitionEpoch: version,
    };
    this.services.emit({
      type: 'partitionStateChanged',
      topic,
      partition,
      old,
      new: value,
      reason,
      controllerEpoch: this.epoch,
      atMs: this.now(),
    });
    return value;
  }

  // ------------------------------------------------------------------ topics

  private onTopicChange(): void {
    const topics = new Set(this.zk.getChildren('/brokers/topics', this.watch()));
    const added = [...topics].filter((t) => !this.knownTopics.has(t)).sort();
    for (const t of [...this.knownTopics]) if (!topics.has(t)) this.knownTopics.delete(t);
    this.processTopicIds(added);
    for (const t of added) {
      this.knownTopics.add(t);
      this.zk.getData(topicPath(t), this.watch());
      this.onNewPartitions(
        t,
        this.assignment(t).map((_, i) => i),
      );
    }
  }

  private onPartitionModification(topic: string): void {
    if (!this.knownTopics.has(topic) || !this.zk.exists(topicPath(topic))) return;
    this.zk.getData(topicPath(topic), this.watch());
    const a = this.assignment(topic);
    const fresh = a.map((_, i) => i).filter((p) => !this.zk.exists(statePath(topic, p)));
    if (fresh.length > 0) this.onNewPartitions(topic, fresh);
  }

  /**
   * Kafka's onNewPartitionCreation: the partitions go New and their replicas NewReplica, then
   * OnlinePartition (first leader and ISR) and OnlineReplica.
   */
  private onNewPartitions(topic: string, partitions: number[]): void {
    this.requestBatch.addUpdateMetadataRequest(
      [...this.liveBrokers.keys()],
      partitions.map((p) => [topic, p]),
    );
    for (const p of partitions) {
      // A partition still New from an initialization that found no live replica stays New.
      this.partitionStateMachine.transition(topic, p, 'NewPartition');
      this.replicaStateMachine.handleStateChanges(topic, p, this.replicasOf(topic, p), 'NewReplica');
    }
    for (const p of partitions) this.initializePartition(topic, p);
    for (const p of partitions)
      this.replicaStateMachine.handleStateChanges(topic, p, this.replicasOf(topic, p), 'OnlineReplica');
  }

  /** NewPartition -> OnlinePartition: leader = first live replica, ISR = live replicas. */
  private initializePartition(topic: string, partition: number): void {
    this.partitionStateMachine.initializeLeaderAndIsr(topic, partition);
  }

  // ------------------------------------------------------------------ brokers

  private onBrokerChange(): void {
    const current = this.readLiveBrokers();
    const dead: number[] = [];
    const born: number[] = [];
    for (const [id, epoch] of this.liveBrokers) {
      const now = current.get(id);
      if (now === undefined) dead.push(id);
      else if (now !== epoch) {
        dead.push(id);
        born.push(id);
      }
    }
    for (const id of current.keys()) if (!this.liveBrokers.has(id)) born.push(id);
    this.liveBrokers = current;
    // Kafka's processBrokerChange: a bounced broker gets a fresh channel, a dead one none.
    for (const id of dead) this.channels.removeBroker(id);
    for (const id of born) this.channels.addBroker(id, current.get(id) as number);
    for (const id of dead) this.shuttingDown.delete(id);
    if (dead.length > 0) this.onBrokerFailure(dead.sort((a, b) => a - b));
    if (born.length > 0) this.onBrokerStartup(born.sort((a, b) => a - b));
  }

  /**
   * Kafka's onReplicasBecomeOffline: partitions that lost their leader are elected first
   * (OfflinePartition -> OnlinePartition); then the dead replicas go offline and leave the ISR.
   */
  private onBrokerFailure(dead: number[]): void {
    const goneSet = new Set(dead);
    const deletions = this.topicDeletionManager;
    for (const [topic, partition] of this.allPartitions()) {
      const state = this.readState(topic, partition);
      // onReplicasBecomeOffline: a deleting topic's replicas fail their deletion, below.
      if (!state || deletions.isTopicQueuedUpForDeletion(topic)) continue;
      if (goneSet.has(state.leader) || (state.leader >= 0 && !this.liveBrokers.has(state.leader))) {
        this.partitionStateMachine.transition(topic, partition, 'OfflinePartition');
        this.electOffline(topic, partition);
      }
      this.replicaStateMachine.offlineDeadReplicas(topic, partition);
    }
    deletions.failReplicaDeletion(deletions.replicasOnBrokers(goneSet));
    this.requestBatch.addUpdateMetadataRequest([...this.liveBrokers.keys()], this.allPartitions());
  }

  private onBrokerStartup(born: number[]): void {
    this.requestBatch.addUpdateMetadataRequest([...this.liveBrokers.keys()], this.allPartitions());
    // Kafka's onBrokerStartup: the replicas on those brokers go OnlineReplica, and they learn the
    // state of every partition they host.
    for (const [topic, partition] of this.allPartitions()) {
      const hosted = this.replicasOf(topic, partition).filter((r) => born.includes(r));
      this.replicaStateMachine.handleStateChanges(topic, partition, hosted, 'OnlineReplica');
    }
    this.sendLeaderAndIsrForAll(born);
    for (const [topic, partition] of this.allPartitions()) {
      if (this.topicDeletionManager.isTopicQueuedUpForDeletion(topic)) continue;
      const state = this.readState(topic, partition);
      if (!state) this.initializePartition(topic, partition);
      else if (state.leader < 0) this.electOffline(topic, partition);
    }
    this.reassignment.checkReassignments();
    // A replica of a topic queued for deletion is back: its deletion may resume.
    const back = this.topicDeletionManager.replicasOnBrokers(new Set(born));
    this.topicDeletionManager.resumeDeletionForTopics([...new Set(back.map((r) => r.topic))]);
  }

  // ------------------------------------------------------------------ elections

  /**
   * Kafka's enableTopicUncleanLeaderElection / processTopicUncleanLeaderElectionEnable: the
   * topic's offline partitions (and new ones without a state yet) are elected again at once,
   * now with its unclean.leader.election.enable, unless the topic is queued for deletion.
   */
  enableTopicUncleanLeaderElection(topic: string): void {
    const deleting = this.topicDeletionManager.isTopicQueuedUpForDeletion(topic);
    if (!this.active || !this.knownTopics.has(topic) || deleting) return;
    const a = this.assignment(topic);
    for (let partition = 0; partition < a.length; partition++) {
      if (!a[partition]) continue;
      const state = this.readState(topic, partition);
      if (!state) this.initializePartition(topic, partition);
      else if (state.leader < 0 || !this.liveBrokers.has(state.leader)) this.electOffline(topic, partition);
    }
  }

  /** OfflinePartition -> OnlinePartition (PartitionStateMachine.electOffline). */
  electOffline(topic: string, partition: number, lastLeader = -1, allowUnclean = false): void {
    this.partitionStateMachine.electOffline(topic, partition, lastLeader, allowUnclean);
  }

  /** Preferred replica election for the given partitions; returns those that moved. */
  electPreferred(
    partitions: [string, number][],
    trigger: 'manual' | 'auto',
    imbalance?: { broker: number; ratio: number }[],
  ) {
    return this.partitionStateMachine.electPreferred(partitions, trigger, imbalance);
  }

  /** auto.leader.rebalance.enable: per broker, the share of partitions it should lead but doesn't. */
  checkAndTriggerAutoLeaderRebalance(): void {
    if (!this.active) return;
    const threshold = this.services.config['leader.imbalance.per.broker.percentage'] / 100;
    const byPreferred = new Map<number, [string, number][]>();
    const notLed = new Map<number, [string, number][]>();
    for (const [topic, partition] of this.allPartitions()) {
      if (this.reassignment.get(topic, partition)) continue;
      const preferred = this.replicasOf(topic, partition)[0];
      const state = this.readState(topic, partition);
      if (preferred === undefined || !state) continue;
      byPreferred.set(preferred, [...(byPreferred.get(preferred) ?? []), [topic, partition]]);
      if (state.leader !== preferred) notLed.set(preferred, [...(notLed.get(preferred) ?? []), [topic, partition]]);
    }
    const toElect: [string, number][] = [];
    const imbalance: { broker: number; ratio: number }[] = [];
    for (const [broker, all] of [...byPreferred].sort((a, b) => a[0] - b[0])) {
      const ratio = (notLed.get(broker)?.length ?? 0) / all.length;
      imbalance.push({ broker, ratio });
      if (ratio > threshold && this.liveBrokers.has(broker)) toElect.push(...(notLed.get(broker) ?? []));
    }
    if (toElect.length > 0) this.electPreferred(toElect, 'auto', imbalance);
  }

  private onPreferredReplicaElection(): void {
    const path = '/admin/preferred_replica_election';
    if (!this.zk.exists(path, this.watch())) return;
    const d = this.zk.getData(path).data as { partitions: { topic: string; partition: number }[] } | null;
    const list = (d?.partitions ?? []).map((p) => [p.topic, p.partition] as [string, number]);
    this.electPreferred(list.length > 0 ? list : this.allPartitions(), 'manual');
    if (this.canWrite()) this.zk.delete(path);
  }

  // ------------------------------------------------------------------ ISR changes from leaders

  handleRequest(body: AlterPartitionRequest | ControlledShutdownRequest, reply: (r: KafkaResponse) => void): void {
    if (body.api === 'AlterPartition') reply(processAlterPartition(this.requestContext, body));
    else reply(doControlledShutdown(this.requestContext, body));
  }

  // ------------------------------------------------------------------ requests to brokers

  private partitionState(
    topic: string,
    partition: number,
    v: LeaderAndIsrValue,
    isNew = false,
  ): LeaderAndIsrPartitionState {
    const { adding, removing } = this.reassignment.addingRemoving(topic, partition);
    return {
      topicName: topic,
      partitionIndex: partition,
      controllerEpoch: this.epoch,
      leader: v.leader,
      leaderEpoch: v.leaderEpoch,
      isr: [...v.isr],
      partitionEpoch: v.partitionEpoch,
      replicas: this.replicasOf(topic, partition),
      addingReplicas: adding,
      removingReplicas: removing,
      isNew,
    };
  }

  /** LeaderAndIsr to the partition's live replicas (but `except`), UpdateMetadata to every live broker. */
  private propagate(topic: string, partition: number, v: LeaderAndIsrValue, isNew = false, except = -1): void {
    const state = this.partitionState(topic, partition, v, isNew);
    for (const b of state.replicas)
      if (b !== except && this.liveBrokers.has(b)) this.requestBatch.addLeaderAndIsrRequest(b, state);
    this.requestBatch.addUpdateMetadataRequest([...this.liveBrokers.keys()], [[topic, partition]]);
  }

  private sendLeaderAndIsrForAll(brokers: number[]): void {
    for (const b of brokers) {
      if (!this.liveBrokers.has(b)) continue;
      for (const [topic, partition] of this.allPartitions()) {
        if (!this.replicasOf(topic, partition).includes(b)) continue;
        const v = this.readState(topic, partition);
        if (v) this.requestBatch.addLeaderAndIsrRequest(b, this.partitionState(topic, partition, v));
      }
    }
  }

  /** For the UI: the partitions this controller is moving. */
  reassignmentsInProgress(): { topic: string; partition: number; original: number[]; target: number[] }[] {
    return this.reassignment.inProgress();
  }

  liveBrokerIds(): number[] {
    return [...this.liveBrokers.keys()].sort((a, b) => a - b);
  }
}
