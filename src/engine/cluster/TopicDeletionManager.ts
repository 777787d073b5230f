import type { PartitionStateMachine } from './PartitionStateMachine';
import type { ReassignmentContext } from './PartitionReassignment';
import { topicPath } from './ZkData';

const DELETE_TOPICS_PATH = '/admin/delete_topics';

/** What topic deletion needs of the controller. */
export interface TopicDeletionContext extends ReassignmentContext {
  readonly partitionStateMachine: PartitionStateMachine;
  /** The topic leaves the controller's known topics (ControllerContext.removeTopic). */
  removeTopic(topic: string): void;
  /** UpdateMetadata telling every live broker the topic is gone. */
  updateMetadataDeleted(topic: string): void;
}

/**
 * Kafka's TopicDeletionManager: the topics queued under /admin/delete_topics are stopped on
 * their replicas (StopReplica with delete), their partitions go OfflinePartition ->
 * NonExistentPartition and their replicas are deleted, then their znodes are removed.
 */
export class TopicDeletionManager {
  constructor(private readonly ctx: TopicDeletionContext) {}

  private get zk() {
    return this.ctx.services.zk;
  }

  /** The topic is queued for deletion (its partitions elect no one in a controlled shutdown). */
  isTopicQueuedUpForDeletion(topic: string): boolean {
    return this.zk.exists(`${DELETE_TOPICS_PATH}/${topic}`) !== null;
  }

  onTopicDeletion(): void {
    const ctx = this.ctx;
    if (!this.zk.exists(DELETE_TOPICS_PATH)) return;
    const topics = this.zk.getChildren(DELETE_TOPICS_PATH, ctx.watch());
    for (const topic of topics) {
      if (!ctx.canWrite()) return;
      const a = ctx.assignment(topic);
      ctx.services.emit({ type: 'topicDeletionStarted', topic, atMs: ctx.now() });
      for (const b of ctx.liveBrokers().keys()) {
        const parts = a.map((r, p) => [r, p] as const).filter(([r]) => r?.includes(b));
        if (parts.length === 0) continue;
        ctx.stopReplica(
          b,
          parts.map(([, p]) => ({ topicName: topic, partitionIndex: p, leaderEpoch: -2, deletePartition: true })),
        );
      }
      for (let p = 0; p < a.length; p++) {
        if (!a[p]) continue;
        ctx.partitionStateMachine.transition(topic, p, 'OfflinePartition');
        ctx.partitionStateMachine.transition(topic, p, 'NonExistentPartition');
        ctx.replicaStateMachine.deleteReplicas(topic, p, ctx.replicasOf(topic, p));
      }
      ctx.removeTopic(topic);
      this.zk.deleteRecursive(topicPath(topic));
      this.zk.deleteRecursive(`/config/topics/${topic}`);
      this.zk.deleteRecursive(`${DELETE_TOPICS_PATH}/${topic}`);
      ctx.updateMetadataDeleted(topic);
      ctx.services.emit({ type: 'topicDeleted', topic, atMs: ctx.now() });
    }
  }
}
