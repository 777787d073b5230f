import { isKafkaError } from '../errors';
import type { ControllerBroker } from './ControllerBroker';
import type { BrokerServices } from './BrokerServices';
import { ControllerBrokerRequestBatch } from './ControllerBrokerRequestBatch';
import { ControllerChannelManager } from './ControllerChannelManager';
import type { ControllerContext, LeaderIsrAndControllerEpoch } from './ControllerContext';
import type { WatchedEvent } from './CoordinationStore';
import type { LeaderAndIsrValue, LeaderElectionReason } from './events';
import {
  controlledShutdownPartitionLeaderElection,
  reassignPartitionLeaderElection,
} from './PartitionLeaderElectionAlgorithms';
import { PartitionStateMachine } from './PartitionStateMachine';
import { ReplicaStateMachine } from './ReplicaStateMachine';
import type {
  AlterPartitionRequest,
  AlterPartitionResponse,
  ControlledShutdownRequest,
  ControlledShutdownResponse,
  ErrorCode,
  KafkaResponse,
  LeaderAndIsrPartitionState,
  MetadataBroker,
} from './requests';

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
interface PartitionStateZnode {
  controller_epoch: number;
  leader: number;
  version: 1;
  leader_epoch: number;
  isr: number[];
}

interface TopicAssignmentZnode {
  /** 3 since topic ids (KIP-516), which "topic_id" carries. */
  version: 2 | 3;
  topic_id?: string;
  partitions: Record<string, number[]>;
  adding_replicas: Record<string, number[]>;
  removing_replicas: Record<string, number[]>;
}

interface Reassignment {
  topic: string;
  partition: number;
  original: number[];
  target: number[];
  /** Phase B has begun: in memory RS = TRS, AR = RR = [] (step B2), though ZooKeeper keeps ORS + TRS until B6. */
  completing?: boolean;
}

/** KafkaController.onControllerFailover: the first auto leader rebalance check runs 5 s after it. */
const AUTO_LEADER_REBALANCE_FIRST_CHECK_MS = 5000;

export const topicPath = (t: string) => `/brokers/topics/${t}`;
export const statePath = (t: string, p: number) => `/brokers/topics/${t}/partitions/${p}/state`;

export class Controller {
  active = false;
  epoch = -1;
  private epochZkVersion = -1;
  private liveBrokers = new Map<number, number>();
  private shuttingDown = new Set<number>();
  private reassignments = new Map<string, Reassignment>();
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
    });
    const context: ControllerContext = {
      services,
      liveBrokers: () => this.liveBrokers,
      shuttingDown: () => this.shuttingDown,
      now: () => this.now(),
      allPartitions: () => this.allPartitions(),
      replicasOf: (topic, partition) => this.replicasOf(topic, partition),
      readState: (topic, partition) => this.readState(topic, partition),
      writeState: (topic, partition, next, old, reason) => this.writeState(topic, partition, next, old, reason),
      propagate: (topic, partition, v, isNew, except) => this.propagate(topic, partition, v, isNew, except),
    };
    this.partitionStateMachine = new PartitionStateMachine(context);
    this.replicaStateMachine = new ReplicaStateMachine(context);
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
    this.reassignments.clear();
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
    else if (e.path === '/admin/delete_topics') this.onTopicDeletion();
    else if (e.path === '/admin/reassign_partitions') this.onPartitionReassignment();
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
    this.zk.getChildren('/admin/delete_topics', this.watch());
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
      if (state && (state.leader < 0 || !this.liveBrokers.has(state.leader)))
        this.electOffline(topic, partition, lastLeader);
    }
    // Every replica hears the current state from the new controller (and its epoch).
    this.sendLeaderAndIsrForAll([...this.liveBrokers.keys()]);
    this.onPartitionReassignment();
    this.onPreferredReplicaElection();
    this.onTopicDeletion();
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

  /** Topic assignments as last read, keyed by znode version (Kafka's ControllerContext caches them too). */
  private readonly assignmentCache = new Map<string, { version: string; value: number[][] }>();

  /** A topic's replica assignment (shared: callers must not mutate it). */
  assignment(topic: string): number[][] {
    const stat = this.zk.exists(topicPath(topic));
    if (!stat) return [];
    const version = `${stat.czxid}:${stat.mzxid}`;
    const hit = this.assignmentCache.get(topic);
    if (hit?.version === version) return hit.value;
    const d = this.zk.tryGetData(topicPath(topic)) as TopicAssignmentZnode | null;
    if (!d) return [];
    const out: number[][] = [];
    for (const [p, replicas] of Object.entries(d.partitions)) out[Number(p)] = replicas;
    this.assignmentCache.set(topic, { version, value: out });
    return out;
  }

  /**
   * Kafka's OfflinePartitionsCount gauge (KafkaController): the partitions whose leader this
   * controller does not count among the live brokers; 0 on a broker that is not the active one.
   */
  offlinePartitionCount(): number {
    if (!this.active) return 0;
    let n = 0;
    for (const [topic, partition] of this.allPartitions()) {
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
    const path = statePath(topic, partition);
    if (!this.zk.exists(path)) return null;
    const { data, stat } = this.zk.getData(path);
    const d = data as PartitionStateZnode;
    return {
      leader: d.leader,
      leaderEpoch: d.leader_epoch,
      isr: d.isr,
      partitionEpoch: stat.version,
      controllerEpoch: d.controller_epoch,
    };
  }

  private replicasOf(topic: string, partition: number): number[] {
    const r = this.reassignments.get(`${topic}-${partition}`);
    const base = this.assignment(topic)[partition] ?? [];
    if (!r) return [...base];
    if (r.completing) return [...r.target];
    return [...new Set([...r.target, ...r.original])];
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
    const path = statePath(topic, partition);
    const data: PartitionStateZnode = {
      controller_epoch: this.epoch,
      leader: next.leader,
      version: 1,
      leader_epoch: next.leaderEpoch,
      isr: next.isr,
    };
    let version: number;
    try {
      if (old) version = this.zk.setData(path, data, old.partitionEpoch).version;
      else {
        this.ensure(`/brokers/topics/${topic}/partitions/${partition}`);
        this.zk.create(path, data);
        version = 0;
      }
    } catch (e) {
      if (isKafkaError(e, 'BAD_VERSION') || isKafkaError(e, 'NODE_EXISTS')) return null;
      throw e;
    }
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

  private onTopicDeletion(): void {
    if (!this.zk.exists('/admin/delete_topics')) return;
    const topics = this.zk.getChildren('/admin/delete_topics', this.watch());
    for (const topic of topics) {
      if (!this.canWrite()) return;
      const a = this.assignment(topic);
      this.services.emit({ type: 'topicDeletionStarted', topic, atMs: this.now() });
      for (const b of this.liveBrokers.keys()) {
        const parts = a.map((r, p) => [r, p] as const).filter(([r]) => r?.includes(b));
        if (parts.length === 0) continue;
        this.channels.sendRequest(b, {
          api: 'StopReplica',
          controllerId: this.broker.id,
          controllerEpoch: this.epoch,
          brokerEpoch: this.liveBrokers.get(b) ?? -1,
          partitions: parts.map(([, p]) => ({
            topicName: topic,
            partitionIndex: p,
            leaderEpoch: -2,
            deletePartition: true,
          })),
        });
      }
      // Kafka's TopicDeletionManager: OfflinePartition -> NonExistentPartition, replicas deleted.
      for (let p = 0; p < a.length; p++) {
        if (!a[p]) continue;
        this.partitionStateMachine.transition(topic, p, 'OfflinePartition');
        this.partitionStateMachine.transition(topic, p, 'NonExistentPartition');
        this.replicaStateMachine.deleteReplicas(topic, p, this.replicasOf(topic, p));
      }
      this.knownTopics.delete(topic);
      this.zk.deleteRecursive(topicPath(topic));
      this.zk.deleteRecursive(`/config/topics/${topic}`);
      this.zk.deleteRecursive(`/admin/delete_topics/${topic}`);
      for (const b of this.liveBrokers.keys()) this.requestBatch.addUpdateMetadataRequest([b], [], [topic]);
      this.services.emit({ type: 'topicDeleted', topic, atMs: this.now() });
    }
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
    for (const [topic, partition] of this.allPartitions()) {
      const state = this.readState(topic, partition);
      if (!state) continue;
      if (goneSet.has(state.leader) || (state.leader >= 0 && !this.liveBrokers.has(state.leader))) {
        this.partitionStateMachine.transition(topic, partition, 'OfflinePartition');
        this.electOffline(topic, partition);
      }
      this.replicaStateMachine.offlineDeadReplicas(topic, partition);
    }
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
      const state = this.readState(topic, partition);
      if (!state) this.initializePartition(topic, partition);
      else if (state.leader < 0) this.electOffline(topic, partition);
    }
    this.checkReassignments();
  }

  // ------------------------------------------------------------------ elections

  /**
   * Kafka's enableTopicUncleanLeaderElection / processTopicUncleanLeaderElectionEnable: the
   * topic's offline partitions (and new ones without a state yet) are elected again at once,
   * now with its unclean.leader.election.enable, unless the topic is queued for deletion.
   */
  enableTopicUncleanLeaderElection(topic: string): void {
    if (!this.active || !this.knownTopics.has(topic) || this.zk.exists(`/admin/delete_topics/${topic}`)) return;
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
      if (this.reassignments.has(`${topic}-${partition}`)) continue;
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
    if (body.api === 'AlterPartition') reply(this.handleAlterPartition(body));
    else reply(this.handleControlledShutdown(body));
  }

  private handleAlterPartition(body: AlterPartitionRequest): AlterPartitionResponse {
    if (!this.active) return { api: 'AlterPartition', errorCode: 'NOT_CONTROLLER', topics: [] };
    const topics = body.topics.map((t) => ({
      topicName: t.topicName,
      partitions: t.partitions.map((p) => {
        const state = this.readState(t.topicName, p.partitionIndex);
        const fail = (errorCode: ErrorCode) => ({
          partitionIndex: p.partitionIndex,
          errorCode,
          leaderId: state?.leader ?? -1,
          leaderEpoch: state?.leaderEpoch ?? -1,
          isr: state?.isr ?? [],
          partitionEpoch: state?.partitionEpoch ?? -1,
        });
        if (!state) return fail('UNKNOWN_TOPIC_OR_PARTITION');
        if (state.leader !== body.brokerId || p.leaderEpoch !== state.leaderEpoch) return fail('FENCED_LEADER_EPOCH');
        // The leader's view is stale (the controller changed the ISR meanwhile): Kafka's answer.
        if (p.partitionEpoch !== state.partitionEpoch) return fail('INVALID_UPDATE_VERSION');
        // A replica may only join the ISR if it is a live replica not shutting down.
        const replicas = this.replicasOf(t.topicName, p.partitionIndex);
        const joining = p.newIsr.filter((r) => !state.isr.includes(r));
        if (joining.some((r) => !replicas.includes(r) || !this.liveBrokers.has(r) || this.shuttingDown.has(r)))
          return fail('INELIGIBLE_REPLICA');
        const value = this.writeState(
          t.topicName,
          p.partitionIndex,
          { leader: state.leader, leaderEpoch: state.leaderEpoch, isr: p.newIsr },
          state,
          'isrChange',
        );
        if (!value) return fail('NOT_CONTROLLER');
        this.requestBatch.addUpdateMetadataRequest([...this.liveBrokers.keys()], [[t.topicName, p.partitionIndex]]);
        return {
          partitionIndex: p.partitionIndex,
          errorCode: 'NONE' as ErrorCode,
          leaderId: value.leader,
          leaderEpoch: value.leaderEpoch,
          isr: value.isr,
          partitionEpoch: value.partitionEpoch,
        };
      }),
    }));
    this.services.scheduler.schedule(0, () => this.checkReassignments());
    return { api: 'AlterPartition', errorCode: 'NONE', topics };
  }

  /**
   * KafkaController.doControlledShutdown: a request from an older broker epoch is
   * STALE_BROKER_EPOCH; otherwise the broker joins the shutting-down brokers, and of the
   * partitions with more than one replica (and not queued for deletion) those it leads elect
   * another leader (ControlledShutdownPartitionLeaderElection; the new ISR drops every
   * shutting-down broker) while those it follows get StopReplica (no delete) and take it out of
   * their ISR (OfflineReplica). It answers the partitions it still leads.
   */
  private handleControlledShutdown(body: ControlledShutdownRequest): ControlledShutdownResponse {
    const answer = (errorCode: ErrorCode, remainingPartitions: { topicName: string; partitionIndex: number }[] = []) =>
      ({ api: 'ControlledShutdown', errorCode, remainingPartitions }) as const;
    if (!this.active) return answer('NOT_CONTROLLER');
    const id = body.brokerId;
    const cachedEpoch = this.liveBrokers.get(id);
    if (body.brokerEpoch !== -1 && cachedEpoch !== undefined && body.brokerEpoch < cachedEpoch)
      return answer('STALE_BROKER_EPOCH');
    if (cachedEpoch === undefined) return answer('BROKER_NOT_AVAILABLE');
    this.shuttingDown.add(id);
    const live = new Set(this.liveBrokers.keys());
    const followed: [string, number][] = [];
    for (const [topic, partition] of this.allPartitions()) {
      const replicas = this.replicasOf(topic, partition);
      const state = this.readState(topic, partition);
      if (!state || !replicas.includes(id) || replicas.length <= 1) continue;
      if (this.zk.exists(`/admin/delete_topics/${topic}`)) continue;
      if (state.leader !== id) {
        followed.push([topic, partition]);
        continue;
      }
      const leader = controlledShutdownPartitionLeaderElection(replicas, state.isr, live, this.shuttingDown);
      if (leader === null) continue;
      const value = this.writeState(
        topic,
        partition,
        { leader, leaderEpoch: state.leaderEpoch + 1, isr: state.isr.filter((r) => !this.shuttingDown.has(r)) },
        state,
        'controlledShutdown',
      );
      if (value) this.propagate(topic, partition, value);
    }
    for (const [topic, partition] of followed) {
      this.channels.sendRequest(id, {
        api: 'StopReplica',
        controllerId: this.broker.id,
        controllerEpoch: this.epoch,
        brokerEpoch: cachedEpoch,
        partitions: [
          {
            topicName: topic,
            partitionIndex: partition,
            leaderEpoch: this.readState(topic, partition)?.leaderEpoch ?? -1,
            deletePartition: false,
          },
        ],
      });
      this.replicaStateMachine.offlineReplicas(topic, partition, [id]);
    }
    this.requestBatch.addUpdateMetadataRequest([...this.liveBrokers.keys()], this.allPartitions());
    // controllerContext.partitionLeadersOnBroker(id): what it still leads.
    const remaining: { topicName: string; partitionIndex: number }[] = [];
    for (const [topic, partition] of this.allPartitions())
      if (this.readState(topic, partition)?.leader === id)
        remaining.push({ topicName: topic, partitionIndex: partition });
    return answer('NONE', remaining);
  }

  // ------------------------------------------------------------------ reassignment

  /**
   * /admin/reassign_partitions, as KafkaController.onPartitionReassignment: U1 writes RS = TRS +
   * ORS. While the target is not yet within the ISR (Phase A), A1 bumps the leader epoch and A2
   * starts the new replicas as followers; once it is (at once for a reorder or a shrink inside
   * the ISR), Phase B completes the move (completeReassignment).
   */
  private onPartitionReassignment(): void {
    const path = '/admin/reassign_partitions';
    if (!this.zk.exists(path, this.watch())) return;
    const d = this.zk.getData(path).data as {
      partitions: { topic: string; partition: number; replicas: number[] }[];
    } | null;
    for (const r of d?.partitions ?? []) {
      const key = `${r.topic}-${r.partition}`;
      if (this.reassignments.has(key)) continue;
      const original = this.assignment(r.topic)[r.partition];
      const state = this.readState(r.topic, r.partition);
      if (!original || !state) continue;
      const reassignment = { topic: r.topic, partition: r.partition, original: [...original], target: [...r.replicas] };
      this.reassignments.set(key, reassignment);
      this.services.emit({
        type: 'reassignmentStarted',
        topic: r.topic,
        partition: r.partition,
        originalReplicas: [...original],
        targetReplicas: [...r.replicas],
        atMs: this.now(),
      });
      this.writeAssignment(r.topic, r.partition, this.replicasOf(r.topic, r.partition), reassignment);
      if (this.isReassignmentComplete(reassignment, state)) continue; // Phase B, below
      // A1: bump the leader epoch and send LeaderAndIsr with the new RS, AR and RR.
      const value = this.writeState(
        r.topic,
        r.partition,
        { leader: state.leader, leaderEpoch: state.leaderEpoch + 1, isr: state.isr },
        state,
        'reassignment',
      );
      if (value) this.propagate(r.topic, r.partition, value);
      // A2: the adding replicas go NewReplica.
      const adding = r.replicas.filter((x) => !original.includes(x));
      this.replicaStateMachine.handleStateChanges(r.topic, r.partition, adding, 'NewReplica');
    }
    this.checkReassignments();
  }

  /** KafkaController.isReassignmentComplete: nothing is added or removed, or every target replica is in the ISR. */
  private isReassignmentComplete(r: Reassignment, state: LeaderAndIsrValue): boolean {
    const moving = r.target.some((x) => !r.original.includes(x)) || r.original.some((x) => !r.target.includes(x));
    return !moving || r.target.every((x) => state.isr.includes(x));
  }

  private writeAssignment(topic: string, partition: number, replicas: number[], r: Reassignment | null): void {
    if (!this.canWrite()) return;
    const d = this.zk.tryGetData(topicPath(topic)) as TopicAssignmentZnode | null;
    if (!d) return;
    d.partitions[String(partition)] = replicas;
    const key = String(partition);
    if (r) {
      d.adding_replicas[key] = r.target.filter((x) => !r.original.includes(x));
      d.removing_replicas[key] = r.original.filter((x) => !r.target.includes(x));
    } else {
      delete d.adding_replicas[key];
      delete d.removing_replicas[key];
    }
    this.zk.setData(topicPath(topic), d);
    this.zk.getData(topicPath(topic), this.watch());
  }

  private checkReassignments(): void {
    if (!this.active) return;
    for (const [key, r] of [...this.reassignments]) {
      const state = this.readState(r.topic, r.partition);
      if (!state || !this.isReassignmentComplete(r, state)) continue;
      if (!this.completeReassignment(r, state)) continue;
      this.reassignments.delete(key);
    }
  }

  /**
   * Phase B of KafkaController.onPartitionReassignment, once the target replicas are all in the
   * ISR: B1 the adding replicas go OnlineReplica; B2 RS = TRS in memory; B3 the leader moves into
   * the target by ReassignPartitionLeaderElection if it is not there (or is dead), else only its
   * epoch is bumped (moveReassignedPartitionLeaderIfRequired); B4/B5 each removed replica goes
   * OfflineReplica, leaving the ISR with a write and an epoch bump of its own, then is deleted;
   * B6 ZooKeeper gets RS = TRS; B7 the partition leaves /admin/reassign_partitions. Returns false
   * (nothing changed) when no target replica can lead.
   */
  private completeReassignment(r: Reassignment, state: LeaderIsrAndControllerEpoch): boolean {
    const { topic, partition } = r;
    const live = new Set(this.liveBrokers.keys());
    const leaderStays = r.target.includes(state.leader) && live.has(state.leader);
    const leader = leaderStays ? state.leader : reassignPartitionLeaderElection(r.target, state.isr, live);
    if (leader === null) return false;
    const adding = r.target.filter((x) => !r.original.includes(x));
    const removing = r.original.filter((x) => !r.target.includes(x));
    this.replicaStateMachine.handleStateChanges(topic, partition, adding, 'OnlineReplica'); // B1
    r.completing = true; // B2
    const value = this.writeState(
      topic,
      partition,
      { leader, leaderEpoch: state.leaderEpoch + 1, isr: state.isr },
      state,
      'reassignment',
    ); // B3
    if (value) this.propagate(topic, partition, value);
    this.replicaStateMachine.offlineReplicas(topic, partition, removing); // B4
    for (const b of removing) {
      if (!this.liveBrokers.has(b)) continue;
      this.channels.sendRequest(b, {
        api: 'StopReplica',
        controllerId: this.broker.id,
        controllerEpoch: this.epoch,
        brokerEpoch: this.liveBrokers.get(b) ?? -1,
        partitions: [
          {
            topicName: topic,
            partitionIndex: partition,
            leaderEpoch: this.readState(topic, partition)?.leaderEpoch ?? -1,
            deletePartition: true,
          },
        ],
      });
    }
    this.replicaStateMachine.deleteReplicas(topic, partition, removing); // B5
    this.writeAssignment(topic, partition, r.target, null); // B6
    this.services.emit({
      type: 'reassignmentCompleted',
      topic,
      partition,
      originalReplicas: r.original,
      targetReplicas: r.target,
      atMs: this.now(),
    });
    this.removeFromReassignZnode(topic, partition); // B7
    this.requestBatch.addUpdateMetadataRequest([...this.liveBrokers.keys()], [[topic, partition]]); // B8
    return true;
  }

  private removeFromReassignZnode(topic: string, partition: number): void {
    if (!this.canWrite()) return;
    const path = '/admin/reassign_partitions';
    const d = this.zk.tryGetData(path) as { version: 1; partitions: { topic: string; partition: number }[] } | null;
    if (!d) return;
    const rest = d.partitions.filter((p) => !(p.topic === topic && p.partition === partition));
    if (rest.length === 0) this.zk.delete(path);
    else this.zk.setData(path, { ...d, partitions: rest });
    this.zk.exists(path, this.watch());
  }

  // ------------------------------------------------------------------ requests to brokers

  private partitionState(
    topic: string,
    partition: number,
    v: LeaderAndIsrValue,
    isNew = false,
  ): LeaderAndIsrPartitionState {
    const r = this.reassignments.get(`${topic}-${partition}`);
    return {
      topicName: topic,
      partitionIndex: partition,
      controllerEpoch: this.epoch,
      leader: v.leader,
      leaderEpoch: v.leaderEpoch,
      isr: [...v.isr],
      partitionEpoch: v.partitionEpoch,
      replicas: this.replicasOf(topic, partition),
      addingReplicas: r && !r.completing ? r.target.filter((x) => !r.original.includes(x)) : [],
      removingReplicas: r && !r.completing ? r.original.filter((x) => !r.target.includes(x)) : [],
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
    return [...this.reassignments.values()].map((r) => ({ ...r, original: [...r.original], target: [...r.target] }));
  }

  liveBrokerIds(): number[] {
    return [...this.liveBrokers.keys()].sort((a, b) => a - b);
  }
}
