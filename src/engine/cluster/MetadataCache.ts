import type {
  ErrorCode,
  LeaderAndIsrPartitionState,
  MetadataBroker,
  MetadataTopic,
  UpdateMetadataRequest,
} from './requests';

export interface PartitionMetadataState extends LeaderAndIsrPartitionState {
  offlineReplicas: number[];
}

/**
 * What a broker knows of the cluster (Kafka's kafka.server.MetadataCache, ZkMetadataCache): the
 * controller, the live brokers and every partition's leader, ISR and replicas, exactly as the
 * last UpdateMetadata requests said — never read from ZooKeeper. A fresh process starts empty
 * and knows nothing until the controller tells it.
 */
export class MetadataCache {
  controllerId = -1;
  controllerEpoch = -1;
  brokers = new Map<number, MetadataBroker>();
  topics = new Map<string, Map<number, PartitionMetadataState>>();

  /** Whether the partition exists as far as this broker knows (NOT_LEADER vs UNKNOWN_TOPIC). */
  contains(topic: string, partition: number): boolean {
    return this.topics.get(topic)?.has(partition) ?? false;
  }

  /** Kafka's updateMetadata: the controller's view replaces what the request covers. */
  updateMetadata(body: UpdateMetadataRequest): void {
    this.controllerId = body.controllerId;
    this.controllerEpoch = body.controllerEpoch;
    this.brokers = new Map(body.liveBrokers.map((b) => [b.nodeId, { ...b }]));
    for (const t of body.deletedTopics) this.topics.delete(t);
    for (const s of body.partitionStates) {
      // ZkMetadataCache.updateMetadata: leader -2 (LeaderDuringDelete) removes the partition.
      if (s.leader === -2) {
        const t = this.topics.get(s.topicName);
        t?.delete(s.partitionIndex);
        if (t?.size === 0) this.topics.delete(s.topicName);
        continue;
      }
      let t = this.topics.get(s.topicName);
      if (!t) {
        t = new Map();
        this.topics.set(s.topicName, t);
      }
      t.set(s.partitionIndex, { ...s, offlineReplicas: [...s.offlineReplicas] });
    }
  }

  /** Every topic known, sorted by name. */
  allTopics(): string[] {
    return [...this.topics.keys()].sort();
  }

  /** ZkMetadataCache.hasAliveBroker. */
  hasAliveBroker(id: number): boolean {
    return this.brokers.has(id);
  }

  /** The live brokers in id order (copies). */
  aliveBrokers(): MetadataBroker[] {
    return [...this.brokers.values()].sort((a, b) => a.nodeId - b.nodeId).map((b) => ({ ...b }));
  }

  /** Kafka's getTopicMetadata: a topic not known answers UNKNOWN_TOPIC_OR_PARTITION. */
  getTopicMetadata(names: string[]): MetadataTopic[] {
    return names.map((name) => {
      const parts = this.topics.get(name);
      if (!parts)
        return {
          errorCode: 'UNKNOWN_TOPIC_OR_PARTITION' as ErrorCode,
          name,
          isInternal: name.startsWith('__'),
          partitions: [],
        };
      return {
        errorCode: 'NONE' as ErrorCode,
        name,
        isInternal: name.startsWith('__'),
        partitions: [...parts.values()]
          .sort((a, b) => a.partitionIndex - b.partitionIndex)
          .map((s) => ({
            errorCode: (s.leader < 0 ? 'LEADER_NOT_AVAILABLE' : 'NONE') as ErrorCode,
            partitionIndex: s.partitionIndex,
            leaderId: s.leader,
            leaderEpoch: s.leaderEpoch,
            replicaNodes: [...s.replicas],
            isrNodes: [...s.isr],
            offlineReplicas: [...s.offlineReplicas],
          })),
      };
    });
  }
}
