import type { BrokerServices } from './BrokerServices';
import type { ControllerChannelManager } from './ControllerChannelManager';
import type { ErrorCode, KafkaResponse, LeaderAndIsrPartitionState, MetadataBroker } from './requests';

/** LeaderAndIsr.LeaderDuringDelete / EpochDuringDelete: a topic queued for deletion. */
export const LEADER_DURING_DELETE = -2;
export const EPOCH_DURING_DELETE = -2;

/** What the batch reads from the controller when it sends (the controller's context, live). */
export interface RequestBatchContext {
  readonly controllerId: number;
  isActive(): boolean;
  controllerEpoch(): number;
  /** Live brokers and their broker epochs (czxid of /brokers/ids/<id>). */
  liveBrokers(): ReadonlyMap<number, number>;
  brokerMetadata(id: number): MetadataBroker;
  /** The partition's state as the controller would send it now; null when it has none. */
  currentPartitionState(topic: string, partition: number): LeaderAndIsrPartitionState | null;
  /** ControllerContext.isTopicQueuedUpForDeletion. */
  isTopicQueuedUpForDeletion(topic: string): boolean;
  /** ControllerContext.isTopicDeletionInProgress: its deletion has started (topicsWithDeletionStarted). */
  isTopicDeletionInProgress(topic: string): boolean;
  /**
   * ControllerChannelManager.handleStopReplicaResponse: a StopReplica answer naming deleted
   * partitions of topics being deleted (the TopicDeletionStopReplicaResponseReceived event).
   */
  onTopicDeletionStopReplicaResponse(
    broker: number,
    requestError: ErrorCode,
    partitionErrors: ReadonlyMap<string, { topic: string; partition: number; error: ErrorCode }>,
  ): void;
}

interface PendingStopReplica {
  topicName: string;
  partitionIndex: number;
  leaderEpoch: number;
  deletePartition: boolean;
}

/**
 * Requests from the controller to brokers, batched like Kafka's ControllerBrokerRequestBatch
 * (kafka.controller.ControllerChannelManager.scala): everything one controller event changes
 * goes out as one LeaderAndIsr, one UpdateMetadata and one StopReplica per broker, in that order
 * (sendRequestsToBrokers), sent once the event (and anything else due at the same instant) has
 * been handled.
 *
 * Invariants: a broker gets at most one request of each kind per flush, brokers in id order; a
 * partition stopped twice in one batch is deleted if either asked it (alreadyDelete); a topic
 * queued for deletion is sent leader -2 in UpdateMetadata and leader epoch -2 in StopReplica; an UpdateMetadata carries each partition's state as it is when sent (read then,
 * not when queued); nothing is sent by a controller that is no longer active, nor to a broker
 * that is no longer live, nor by a flush scheduled before the process restarted.
 */
export class ControllerBrokerRequestBatch {
  private readonly pendingLeaderAndIsr = new Map<number, Map<string, LeaderAndIsrPartitionState>>();
  private readonly pendingUpdateMetadata = new Map<
    number,
    { partitions: Map<string, [string, number]>; deleted: Set<string> }
  >();
  private readonly pendingStopReplica = new Map<number, Map<string, PendingStopReplica>>();
  private flushScheduled = false;
  /** Bumped when the process dies: a flush scheduled by a previous incarnation sends nothing. */
  private incarnation = 0;

  constructor(
    private readonly services: BrokerServices,
    private readonly channels: ControllerChannelManager,
    private readonly controller: RequestBatchContext,
  ) {}

  /** Drops what is queued (the controller resigned). */
  clear(): void {
    this.pendingLeaderAndIsr.clear();
    this.pendingUpdateMetadata.clear();
    this.pendingStopReplica.clear();
  }

  /** The process died: drops what is queued, and the flush already scheduled will send nothing. */
  onProcessDown(): void {
    this.incarnation++;
    this.clear();
  }

  private scheduleFlush(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    const incarnation = this.incarnation;
    this.services.scheduler.schedule(0, () => {
      this.flushScheduled = false;
      if (incarnation === this.incarnation) this.sendRequestsToBrokers();
    });
  }

  addLeaderAndIsrRequest(broker: number, state: LeaderAndIsrPartitionState): void {
    let m = this.pendingLeaderAndIsr.get(broker);
    if (!m) {
      m = new Map();
      this.pendingLeaderAndIsr.set(broker, m);
    }
    m.set(`${state.topicName}-${state.partitionIndex}`, state);
    this.scheduleFlush();
  }

  /**
   * addStopReplicaRequestForBrokers: the partition's leader epoch as the controller knows it now
   * (EpochDuringDelete for a topic queued for deletion), deleted if any request in the batch asked.
   */
  addStopReplicaRequest(broker: number, topic: string, partition: number, deletePartition: boolean): void {
    if (broker < 0) return;
    let m = this.pendingStopReplica.get(broker);
    if (!m) {
      m = new Map();
      this.pendingStopReplica.set(broker, m);
    }
    const key = `${topic}-${partition}`;
    const leaderEpoch = this.controller.isTopicQueuedUpForDeletion(topic)
      ? EPOCH_DURING_DELETE
      : (this.controller.currentPartitionState(topic, partition)?.leaderEpoch ?? -1);
    const alreadyDelete = m.get(key)?.deletePartition ?? false;
    m.set(key, {
      topicName: topic,
      partitionIndex: partition,
      leaderEpoch,
      deletePartition: alreadyDelete || deletePartition,
    });
    this.scheduleFlush();
  }

  addUpdateMetadataRequest(brokers: number[], partitions: [string, number][], deletedTopics: string[] = []): void {
    if (!this.controller.isActive()) return;
    for (const b of brokers) {
      let u = this.pendingUpdateMetadata.get(b);
      if (!u) {
        u = { partitions: new Map(), deleted: new Set() };
        this.pendingUpdateMetadata.set(b, u);
      }
      for (const [topic, partition] of partitions) u.partitions.set(`${topic}-${partition}`, [topic, partition]);
      for (const t of deletedTopics) u.deleted.add(t);
    }
    this.scheduleFlush();
  }

  private sendRequestsToBrokers(): void {
    const leaderAndIsr = [...this.pendingLeaderAndIsr].sort((a, b) => a[0] - b[0]);
    const updates = [...this.pendingUpdateMetadata].sort((a, b) => a[0] - b[0]);
    const stops = [...this.pendingStopReplica].sort((a, b) => a[0] - b[0]);
    this.pendingLeaderAndIsr.clear();
    this.pendingUpdateMetadata.clear();
    this.pendingStopReplica.clear();
    if (!this.controller.isActive()) return;
    const live = this.controller.liveBrokers();
    // Every controller request names its sender, its epoch and the broker epoch it was meant for.
    const header = (b: number) => ({
      controllerId: this.controller.controllerId,
      controllerEpoch: this.controller.controllerEpoch(),
      brokerEpoch: live.get(b) ?? -1,
    });
    for (const [b, states] of leaderAndIsr) {
      if (!live.has(b)) continue;
      const partitionStates = [...states.values()];
      this.channels.sendRequest(b, {
        api: 'LeaderAndIsr',
        ...header(b),
        partitionStates,
        liveLeaders: [...new Set(partitionStates.map((x) => x.leader).filter((l) => l >= 0))].sort((x, y) => x - y),
      });
    }
    this.sendUpdateMetadataRequests(updates, header);
    this.sendStopReplicaRequests(stops, header);
  }

  private sendUpdateMetadataRequests(
    updates: [number, { partitions: Map<string, [string, number]>; deleted: Set<string> }][],
    header: (b: number) => { controllerId: number; controllerEpoch: number; brokerEpoch: number },
  ): void {
    if (updates.length === 0) return;
    const live = this.controller.liveBrokers();
    const liveBrokers = [...live.keys()].sort((a, b) => a - b).map((id) => this.controller.brokerMetadata(id));
    for (const [b, u] of updates) {
      if (!live.has(b)) continue;
      const partitionStates: (LeaderAndIsrPartitionState & { offlineReplicas: number[] })[] = [];
      for (const [topic, partition] of u.partitions.values()) {
        const state = this.controller.currentPartitionState(topic, partition);
        if (!state) continue;
        // LeaderAndIsr.duringDelete: brokers drop a partition of a topic being deleted from their metadata.
        const leader = this.controller.isTopicQueuedUpForDeletion(topic) ? LEADER_DURING_DELETE : state.leader;
        partitionStates.push({ ...state, leader, offlineReplicas: state.replicas.filter((r) => !live.has(r)) });
      }
      this.channels.sendRequest(b, {
        api: 'UpdateMetadata',
        ...header(b),
        partitionStates,
        liveBrokers,
        deletedTopics: [...u.deleted],
      });
    }
  }

  /**
   * sendStopReplicaRequests: one StopReplica per live broker; its answer's deleted partitions of
   * topics whose deletion has started go to the controller as one event.
   */
  private sendStopReplicaRequests(
    stops: [number, Map<string, PendingStopReplica>][],
    header: (b: number) => { controllerId: number; controllerEpoch: number; brokerEpoch: number },
  ): void {
    const live = this.controller.liveBrokers();
    for (const [b, states] of stops) {
      if (!live.has(b)) continue;
      const partitions = [...states.values()];
      this.channels.sendRequest(b, { api: 'StopReplica', ...header(b), partitions }, (response: KafkaResponse) => {
        if (response.api !== 'StopReplica') return;
        const errors = new Map<string, { topic: string; partition: number; error: ErrorCode }>();
        for (const pe of response.partitionErrors) {
          const key = `${pe.topicName}-${pe.partitionIndex}`;
          if (this.controller.isTopicDeletionInProgress(pe.topicName) && states.get(key)?.deletePartition)
            errors.set(key, { topic: pe.topicName, partition: pe.partitionIndex, error: pe.errorCode });
        }
        if (errors.size > 0) this.controller.onTopicDeletionStopReplicaResponse(b, response.errorCode, errors);
      });
    }
  }
}
