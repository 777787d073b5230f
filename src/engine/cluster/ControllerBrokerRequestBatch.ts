import type { BrokerServices } from './BrokerServices';
import type { ControllerChannelManager } from './ControllerChannelManager';
import type { LeaderAndIsrPartitionState, MetadataBroker } from './requests';

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
}

/**
 * Requests from the controller to brokers, batched like Kafka's ControllerBrokerRequestBatch
 * (kafka.controller.ControllerChannelManager.scala): everything one controller event changes
 * goes out as one LeaderAndIsr and one UpdateMetadata per broker, sent once the event (and
 * anything else due at the same instant) has been handled.
 *
 * Invariants: a broker gets at most one LeaderAndIsr and one UpdateMetadata per flush, brokers
 * in id order; an UpdateMetadata carries each partition's state as it is when sent (read then,
 * not when queued); nothing is sent by a controller that is no longer active, nor to a broker
 * that is no longer live, nor by a flush scheduled before the process restarted.
 */
export class ControllerBrokerRequestBatch {
  private readonly pendingLeaderAndIsr = new Map<number, Map<string, LeaderAndIsrPartitionState>>();
  private readonly pendingUpdateMetadata = new Map<
    number,
    { partitions: Map<string, [string, number]>; deleted: Set<string> }
  >();
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
    this.pendingLeaderAndIsr.clear();
    this.pendingUpdateMetadata.clear();
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
    if (updates.length === 0) return;
    const liveBrokers = [...live.keys()].sort((a, b) => a - b).map((id) => this.controller.brokerMetadata(id));
    for (const [b, u] of updates) {
      if (!live.has(b)) continue;
      const partitionStates: (LeaderAndIsrPartitionState & { offlineReplicas: number[] })[] = [];
      for (const [topic, partition] of u.partitions.values()) {
        const state = this.controller.currentPartitionState(topic, partition);
        if (!state) continue;
        partitionStates.push({ ...state, offlineReplicas: state.replicas.filter((r) => !live.has(r)) });
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
}
