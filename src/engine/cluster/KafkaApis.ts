import type { BrokerState } from './BrokerState';
import type { Controller } from './Controller';
import type { MetadataCache } from './MetadataCache';
import type { ProducerIdManager } from './ProducerIdManager';
import type { ReplicaFetcherManager } from './ReplicaFetcherManager';
import type { ReplicaManager } from './ReplicaManager';
import type { BrokerServices } from './BrokerServices';
import type { Network, RequestMessage } from './Network';
import { tpKey } from '../TopicPartition';
import { type GroupCoordinator, OFFSETS_TOPIC } from '../coordinator/group/GroupCoordinator';
import type {
  FindCoordinatorRequest,
  FindCoordinatorResponse,
  GroupRequest,
  GroupResponse,
} from '../clients/consumer/groupProtocol';
import type {
  ErrorCode,
  KafkaResponse,
  LeaderAndIsrRequest,
  MetadataRequest,
  MetadataResponse,
  StopReplicaRequest,
  StopReplicaResponse,
  UpdateMetadataRequest,
  UpdateMetadataResponse,
} from './requests';

/** The broker KafkaApis answers for: its id, epochs and process state, and the parts that answer requests. */
export interface ApisBroker {
  readonly id: number;
  readonly state: BrokerState;
  readonly brokerEpoch: number;
  /** The highest controller epoch accepted so far (fencing moves it). */
  controllerEpochSeen: number;
  readonly metadata: MetadataCache;
  readonly network: Network;
  readonly replicaManager: ReplicaManager;
  readonly fetcherManager: ReplicaFetcherManager;
  readonly producerIdManager: ProducerIdManager;
  readonly controller: Controller;
}

/** Answers one request (no per-request closure: a small object with a bound method). */
class Reply {
  constructor(
    private readonly broker: ApisBroker,
    private readonly message: RequestMessage,
  ) {}

  send(r: KafkaResponse): void {
    if (this.broker.state !== 'down') this.broker.network.reply(this.message, r);
  }
}

/**
 * A broker's request handler (Kafka's kafka.server.KafkaApis): routes each request to whoever
 * answers it — the ReplicaManager (Produce, Fetch, ListOffsets, OffsetsForLeaderEpoch,
 * LeaderAndIsr), the MetadataCache (Metadata, UpdateMetadata), the ProducerIdManager
 * (InitProducerId), the controller (AlterPartition, ControlledShutdown), the GroupCoordinator
 * (FindCoordinator and the group APIs) — and fences the controller's requests first. Every
 * client's request arrives here over the network: a producer's, a simulated consumer's (its
 * Fetch with replicaId -1 waits in the one DelayedFetch purgatory), a real client's.
 *
 * Fencing: a controller request addressed to an earlier incarnation of this broker (KIP-380,
 * STALE_BROKER_EPOCH) or sent by an older controller than one already heard from
 * (STALE_CONTROLLER_EPOCH) changes nothing.
 */
export class KafkaApis {
  constructor(
    private readonly broker: ApisBroker,
    private readonly services: BrokerServices,
  ) {}

  handle(message: RequestMessage): void {
    const body = message.body;
    const replier = new Reply(this.broker, message);
    const reply = replier.send.bind(replier);
    const replicaManager = this.broker.replicaManager;
    switch (body.api) {
      case 'Produce':
        replicaManager.handleProduce(body, reply);
        return;
      case 'Fetch':
        replicaManager.handleFetch(body, reply);
        return;
      case 'ListOffsets':
        reply(replicaManager.handleListOffsets(body));
        return;
      case 'OffsetsForLeaderEpoch':
        reply(replicaManager.handleOffsetsForLeaderEpoch(body));
        return;
      case 'Metadata':
        reply(this.handleTopicMetadataRequest(body));
        return;
      case 'InitProducerId':
        reply(this.handleInitProducerIdRequest());
        return;
      case 'LeaderAndIsr':
        reply(this.handleLeaderAndIsrRequest(body));
        return;
      case 'UpdateMetadata':
        reply(this.handleUpdateMetadataRequest(body));
        return;
      case 'StopReplica':
        reply(this.handleStopReplicaRequest(body));
        return;
      case 'AlterPartition':
      case 'ControlledShutdown':
        this.broker.controller.handleRequest(body, reply);
        return;
      default:
        this.handleGroupRequest(body, reply);
    }
  }

  /**
   * The group APIs, answered by the broker's GroupCoordinator as KafkaApis' handleJoinGroupRequest
   * (→ groupCoordinator.handleJoinGroup), handleSyncGroupRequest, ... answer them: the
   * coordinator's `handle` is that one dispatch by API. A broker whose host runs no group
   * coordinator leaves them unanswered.
   */
  private handleGroupRequest(request: GroupRequest, reply: (r: GroupResponse) => void): void {
    const coordinator = this.services.groupCoordinator?.(this.broker.id);
    if (!coordinator) return;
    if (request.api === 'FindCoordinator') reply(this.handleFindCoordinatorRequest(coordinator, request));
    else coordinator.handle(request, reply);
  }

  /**
   * KafkaApis.getCoordinator for a group: the broker leading the group's `__consumer_offsets`
   * partition; COORDINATOR_NOT_AVAILABLE while the topic is being created or the partition has no
   * leader.
   */
  private handleFindCoordinatorRequest(
    coordinator: GroupCoordinator,
    request: FindCoordinatorRequest,
  ): FindCoordinatorResponse {
    const partition = coordinator.partitionFor(request.key);
    const leader = coordinator.ensureOffsetsTopic() ? coordinator.offsetsPartitionLeader(partition) : null;
    if (leader === null)
      return { api: 'FindCoordinator', errorCode: 'COORDINATOR_NOT_AVAILABLE', nodeId: -1, partition };
    return { api: 'FindCoordinator', errorCode: 'NONE', nodeId: leader, partition };
  }

  /** Fencing: a request from an older controller than one already heard from is refused. */
  private checkControllerEpoch(epoch: number, api: string): ErrorCode | null {
    const broker = this.broker;
    if (epoch < broker.controllerEpochSeen) {
      this.services.emit({
        type: 'staleControllerRequestRejected',
        broker: broker.id,
        api,
        requestControllerEpoch: epoch,
        knownControllerEpoch: broker.controllerEpochSeen,
        atMs: this.services.scheduler.now(),
      });
      return 'STALE_CONTROLLER_EPOCH';
    }
    broker.controllerEpochSeen = epoch;
    return null;
  }

  /**
   * KIP-380: a controller request addressed to an earlier incarnation of this broker (an older
   * broker epoch, or sent before this process has registered) is refused.
   */
  private staleBrokerEpoch(requestBrokerEpoch: number): boolean {
    if (this.broker.brokerEpoch < 0) return true;
    return requestBrokerEpoch >= 0 && requestBrokerEpoch < this.broker.brokerEpoch;
  }

  private handleLeaderAndIsrRequest(body: LeaderAndIsrRequest) {
    if (this.staleBrokerEpoch(body.brokerEpoch))
      return { api: 'LeaderAndIsr' as const, errorCode: 'STALE_BROKER_EPOCH' as ErrorCode, partitionErrors: [] };
    const stale = this.checkControllerEpoch(body.controllerEpoch, body.api);
    if (stale) return { api: 'LeaderAndIsr' as const, errorCode: stale, partitionErrors: [] };
    const { replicaManager, fetcherManager } = this.broker;
    const partitionErrors = body.partitionStates.map((s) => {
      const { error, becameFollowerOf } = replicaManager.becomeLeaderOrFollower(s);
      if (error === 'NONE') {
        const p = replicaManager.partitions.get(tpKey(s.topicName, s.partitionIndex));
        if (p?.isLeader) fetcherManager.removeFetcherForPartition(s.topicName, s.partitionIndex);
        else if (p && becameFollowerOf !== null)
          fetcherManager.addFetcherForPartition(p.topic, p.partition, becameFollowerOf);
        else if (p && p.leaderEpoch === s.leaderEpoch && s.leader < 0)
          fetcherManager.removeFetcherForPartition(s.topicName, s.partitionIndex);
      }
      return { topicName: s.topicName, partitionIndex: s.partitionIndex, errorCode: error };
    });
    this.onLeadershipChange(body.partitionStates.filter((_, i) => partitionErrors[i]?.errorCode === 'NONE'));
    return { api: 'LeaderAndIsr' as const, errorCode: 'NONE' as ErrorCode, partitionErrors };
  }

  /**
   * RequestHandlerHelper.onLeadershipChange: the `__consumer_offsets` partitions this
   * LeaderAndIsr made this broker lead move into its group coordinator (onElection, Kafka's
   * group immigration), the ones it now follows move out (onResignation, emigration), before the
   * answer goes back.
   */
  private onLeadershipChange(states: LeaderAndIsrRequest['partitionStates']): void {
    const coordinator = this.services.groupCoordinator?.(this.broker.id);
    if (!coordinator) return;
    for (const s of states) {
      if (s.topicName !== OFFSETS_TOPIC) continue;
      const p = this.broker.replicaManager.partitions.get(tpKey(s.topicName, s.partitionIndex));
      if (p?.isLeader) coordinator.onElection(s.partitionIndex);
      else coordinator.onResignation(s.partitionIndex);
    }
  }

  private handleUpdateMetadataRequest(body: UpdateMetadataRequest): UpdateMetadataResponse {
    const stale: ErrorCode | null = this.staleBrokerEpoch(body.brokerEpoch)
      ? 'STALE_BROKER_EPOCH'
      : this.checkControllerEpoch(body.controllerEpoch, body.api);
    if (!stale) this.broker.metadata.updateMetadata(body);
    return { api: 'UpdateMetadata', errorCode: stale ?? 'NONE' };
  }

  private handleStopReplicaRequest(body: StopReplicaRequest): StopReplicaResponse {
    const stale: ErrorCode | null = this.staleBrokerEpoch(body.brokerEpoch)
      ? 'STALE_BROKER_EPOCH'
      : this.checkControllerEpoch(body.controllerEpoch, body.api);
    if (!stale) {
      const { replicaManager, fetcherManager } = this.broker;
      const coordinator = this.services.groupCoordinator?.(this.broker.id);
      for (const p of body.partitions) {
        fetcherManager.removeFetcherForPartition(p.topicName, p.partitionIndex);
        if (p.deletePartition) replicaManager.deletePartition(p.topicName, p.partitionIndex);
        else replicaManager.partitions.delete(tpKey(p.topicName, p.partitionIndex));
        // KafkaApis.handleStopReplicaRequest clears the coordinator's cache in case this broker led
        // the partition: a reassignment moving it away sends no LeaderAndIsr to this broker. Kafka
        // does it for deletePartition only; here the replica leaves the ReplicaManager either way.
        if (p.topicName === OFFSETS_TOPIC) coordinator?.onResignation(p.partitionIndex);
      }
    }
    return {
      api: 'StopReplica',
      errorCode: stale ?? 'NONE',
      partitionErrors: body.partitions.map((p) => ({
        topicName: p.topicName,
        partitionIndex: p.partitionIndex,
        errorCode: 'NONE' as ErrorCode,
      })),
    };
  }

  private handleTopicMetadataRequest(body: MetadataRequest): MetadataResponse {
    const m = this.broker.metadata;
    const names = body.topics ?? m.allTopics();
    let topics = m.getTopicMetadata(names);
    // KafkaApis.handleTopicMetadataRequest: unknown topics named explicitly are created when both
    // the request and auto.create.topics.enable allow it, and answered LEADER_NOT_AVAILABLE until
    // the controller has elected their leaders (INVALID_TOPIC_EXCEPTION for a bad name).
    if (body.topics !== null && body.allowAutoTopicCreation && this.services.config['auto.create.topics.enable']) {
      topics = topics.map((t) => {
        if (t.errorCode !== 'UNKNOWN_TOPIC_OR_PARTITION') return t;
        const created = this.services.autoCreateTopic(t.name);
        if (created === 'UNKNOWN_TOPIC_OR_PARTITION') return t;
        return { ...t, errorCode: created === 'NONE' ? 'LEADER_NOT_AVAILABLE' : created };
      });
    }
    return {
      api: 'Metadata',
      throttleTimeMs: 0,
      brokers: m.aliveBrokers(),
      clusterId: this.services.clusterId,
      controllerId: m.controllerId,
      topics,
    };
  }

  private handleInitProducerIdRequest() {
    const { errorCode, producerId } = this.broker.producerIdManager.generateProducerId();
    return {
      api: 'InitProducerId' as const,
      throttleTimeMs: 0,
      errorCode,
      producerId,
      producerEpoch: errorCode === 'NONE' ? 0 : -1,
    };
  }
}
