import type { PartitionStateMachine } from './PartitionStateMachine';
import type { ReassignmentContext } from './PartitionReassignment';
import type { ReplicaState } from './ReplicaStateMachine';
import { topicPath } from './ZkData';
import type { ErrorCode } from './requests';

const DELETE_TOPICS_PATH = '/admin/delete_topics';

/** Kafka's PartitionAndReplica. */
export interface PartitionAndReplica {
  topic: string;
  partition: number;
  replica: number;
}

/** What topic deletion needs of the controller. */
export interface TopicDeletionContext extends ReassignmentContext {
  readonly partitionStateMachine: PartitionStateMachine;
  /** The topic is one of the controller's topics (ControllerContext.allTopics). */
  isKnownTopic(topic: string): boolean;
  /** A reassignment of one of the topic's partitions is in progress (partitionsBeingReassigned). */
  isTopicBeingReassigned(topic: string): boolean;
  /** The topic leaves the controller's known topics (ControllerContext.removeTopic). */
  removeTopic(topic: string): void;
  /** UpdateMetadata telling every live broker the topic is gone. */
  updateMetadataDeleted(topic: string): void;
}

/**
 * Kafka's TopicDeletionManager (kafka/controller/TopicDeletionManager.scala). A topic queued
 * under /admin/delete_topics is deleted in steps, each waiting for the brokers:
 *  1. its partitions go OfflinePartition -> NonExistentPartition and every broker hears (leader -2)
 *     that it is going (onTopicDeletion);
 *  2. each replica on a live broker goes OfflineReplica -> ReplicaDeletionStarted, which sends
 *     StopReplica with delete; one on a dead broker goes ReplicaDeletionIneligible and the topic is
 *     ineligible for deletion (onPartitionDeletion);
 *  3. each StopReplica answer moves its replicas to ReplicaDeletionSuccessful, or on an error to
 *     ReplicaDeletionIneligible (completeReplicaDeletion / failReplicaDeletion);
 *  4. once every replica is ReplicaDeletionSuccessful the replicas go NonExistentReplica and the
 *     topic's znodes (/brokers/topics, /config/topics, /admin/delete_topics) are removed
 *     (completeDeleteTopic). A topic with an ineligible replica waits: its replicas go back to
 *     OfflineReplica, and the deletion resumes when a broker hosting one starts again or a
 *     reassignment of the topic completes (resumeDeletionForTopics).
 * The sets are the controller's memory (ControllerContext.topicsToBeDeleted,
 * topicsWithDeletionStarted, topicsIneligibleForDeletion), rebuilt on failover (init).
 */
export class TopicDeletionManager {
  private readonly topicsToBeDeleted = new Set<string>();
  private readonly topicsWithDeletionStarted = new Set<string>();
  private readonly topicsIneligibleForDeletion = new Set<string>();

  constructor(private readonly ctx: TopicDeletionContext) {}

  private get zk() {
    return this.ctx.services.zk;
  }

  private get isDeleteTopicEnabled(): boolean {
    return this.ctx.services.config['delete.topic.enable'];
  }

  isTopicQueuedUpForDeletion(topic: string): boolean {
    return this.isDeleteTopicEnabled && this.topicsToBeDeleted.has(topic);
  }

  /** ControllerContext.isTopicDeletionInProgress: its partitions have gone NonExistentPartition. */
  isTopicDeletionInProgress(topic: string): boolean {
    return this.topicsWithDeletionStarted.has(topic);
  }

  /** Queued, but halted until a dead broker returns or a reassignment ends. */
  isTopicIneligibleForDeletion(topic: string): boolean {
    return this.topicsIneligibleForDeletion.has(topic);
  }

  /** ControllerContext.resetContext: a controller that resigns forgets the deletions. */
  clear(): void {
    this.topicsToBeDeleted.clear();
    this.topicsWithDeletionStarted.clear();
    this.topicsIneligibleForDeletion.clear();
  }

  /**
   * init with KafkaController.fetchTopicDeletionsInProgress on failover: the queued topics, those
   * with a replica on a dead broker or a reassignment in progress ineligible.
   */
  init(): void {
    this.clear();
    const queued = this.zk.exists(DELETE_TOPICS_PATH) ? this.zk.getChildren(DELETE_TOPICS_PATH, this.ctx.watch()) : [];
    if (!this.isDeleteTopicEnabled) {
      this.deleteTopicDeletions(queued);
      return;
    }
    const live = this.ctx.liveBrokers();
    for (const topic of queued) {
      this.topicsToBeDeleted.add(topic);
      const offline = this.replicasForTopic(topic).some((r) => !live.has(r.replica));
      if (offline || this.ctx.isTopicBeingReassigned(topic)) this.topicsIneligibleForDeletion.add(topic);
    }
  }

  tryTopicDeletion(): void {
    if (this.isDeleteTopicEnabled) this.resumeDeletions();
  }

  /** KafkaController.processTopicDeletion: the /admin/delete_topics watch fired. */
  processTopicDeletion(): void {
    const ctx = this.ctx;
    if (!ctx.isActive() || !this.zk.exists(DELETE_TOPICS_PATH)) return;
    const children = this.zk.getChildren(DELETE_TOPICS_PATH, ctx.watch());
    const nonExistent = children.filter((t) => !ctx.isKnownTopic(t));
    if (nonExistent.length > 0) this.deleteTopicDeletions(nonExistent);
    const topics = children.filter((t) => ctx.isKnownTopic(t));
    if (!this.isDeleteTopicEnabled) {
      this.deleteTopicDeletions(topics);
      return;
    }
    if (topics.length === 0) return;
    // A reassignment in progress halts the deletion until it completes.
    this.markTopicIneligibleForDeletion(topics.filter((t) => ctx.isTopicBeingReassigned(t)));
    this.enqueueTopicsForDeletion(topics);
  }

  enqueueTopicsForDeletion(topics: readonly string[]): void {
    if (!this.isDeleteTopicEnabled) return;
    for (const t of topics) this.topicsToBeDeleted.add(t);
    this.resumeDeletions();
  }

  /** A broker hosting the topics started, or their reassignment completed: try again. */
  resumeDeletionForTopics(topics: readonly string[]): void {
    if (!this.isDeleteTopicEnabled) return;
    const resume = topics.filter((t) => this.topicsToBeDeleted.has(t));
    if (resume.length === 0) return;
    for (const t of resume) this.topicsIneligibleForDeletion.delete(t);
    this.resumeDeletions();
  }

  /** Replicas that could not be deleted (an error answer, or their broker died) halt their topics. */
  failReplicaDeletion(replicas: readonly PartitionAndReplica[]): void {
    if (!this.isDeleteTopicEnabled) return;
    const failed = replicas.filter((r) => this.isTopicQueuedUpForDeletion(r.topic));
    if (failed.length === 0) return;
    this.handleStateChanges(failed, 'ReplicaDeletionIneligible');
    this.markTopicIneligibleForDeletion([...new Set(failed.map((r) => r.topic))]);
    this.resumeDeletions();
  }

  markTopicIneligibleForDeletion(topics: readonly string[]): void {
    if (!this.isDeleteTopicEnabled) return;
    for (const t of topics) if (this.topicsToBeDeleted.has(t)) this.topicsIneligibleForDeletion.add(t);
  }

  completeReplicaDeletion(replicas: readonly PartitionAndReplica[]): void {
    const deleted = replicas.filter((r) => this.isTopicQueuedUpForDeletion(r.topic));
    this.handleStateChanges(deleted, 'ReplicaDeletionSuccessful');
    this.resumeDeletions();
  }

  /**
   * KafkaController.processTopicDeletionStopReplicaResponseReceived: a request-level error fails
   * every partition of the answer, else each partition's own error decides.
   */
  processStopReplicaResponse(
    replicaId: number,
    requestError: ErrorCode,
    partitionErrors: ReadonlyMap<string, { topic: string; partition: number; error: ErrorCode }>,
  ): void {
    if (!this.ctx.isActive()) return;
    const all = [...partitionErrors.values()];
    const inError = requestError !== 'NONE' ? all : all.filter((p) => p.error !== 'NONE');
    const replica = (p: { topic: string; partition: number }) => ({ ...p, replica: replicaId });
    this.failReplicaDeletion(inError.map(replica));
    if (inError.length !== all.length)
      this.completeReplicaDeletion(all.filter((p) => !inError.includes(p)).map(replica));
  }

  /** The replicas of the topics queued for deletion that are on `brokers`. */
  replicasOnBrokers(brokers: ReadonlySet<number>): PartitionAndReplica[] {
    return [...this.topicsToBeDeleted]
      .sort()
      .flatMap((t) => this.replicasForTopic(t).filter((r) => brokers.has(r.replica)));
  }

  // ------------------------------------------------------------------ the steps

  private replicasForTopic(topic: string): PartitionAndReplica[] {
    const out: PartitionAndReplica[] = [];
    const a = this.ctx.assignment(topic);
    for (let p = 0; p < a.length; p++) {
      if (!a[p]) continue;
      for (const r of this.ctx.replicasOf(topic, p)) out.push({ topic, partition: p, replica: r });
    }
    return out;
  }

  private replicaState(r: PartitionAndReplica): ReplicaState {
    return this.ctx.replicaStateMachine.state(r.topic, r.partition, r.replica);
  }

  private replicasInState(topic: string, state: ReplicaState): PartitionAndReplica[] {
    return this.replicasForTopic(topic).filter((r) => this.replicaState(r) === state);
  }

  private handleStateChanges(replicas: readonly PartitionAndReplica[], target: ReplicaState): void {
    for (const r of replicas) this.ctx.replicaStateMachine.transition(r.topic, r.partition, r.replica, target);
  }

  private isTopicEligibleForDeletion(topic: string): boolean {
    return (
      this.topicsToBeDeleted.has(topic) &&
      this.replicasInState(topic, 'ReplicaDeletionStarted').length === 0 &&
      !this.topicsIneligibleForDeletion.has(topic)
    );
  }

  private resumeDeletions(): void {
    const retry: string[] = [];
    const eligible: string[] = [];
    for (const topic of [...this.topicsToBeDeleted].sort()) {
      const replicas = this.replicasForTopic(topic);
      if (replicas.every((r) => this.replicaState(r) === 'ReplicaDeletionSuccessful')) {
        this.completeDeleteTopic(topic);
        continue;
      }
      const started = replicas.some((r) => this.replicaState(r) === 'ReplicaDeletionStarted');
      if (!started && replicas.some((r) => this.replicaState(r) === 'ReplicaDeletionIneligible')) retry.push(topic);
      if (this.isTopicEligibleForDeletion(topic)) eligible.push(topic);
    }
    // retryDeletionForIneligibleReplicas: back to OfflineReplica, to be started again.
    for (const topic of retry)
      this.handleStateChanges(this.replicasInState(topic, 'ReplicaDeletionIneligible'), 'OfflineReplica');
    if (eligible.length > 0) this.onTopicDeletion(eligible);
  }

  private onTopicDeletion(topics: readonly string[]): void {
    const ctx = this.ctx;
    const partitionsOf = (topic: string) =>
      ctx.assignment(topic).flatMap((r, p) => (r ? [[topic, p] as [string, number]] : []));
    for (const topic of topics.filter((t) => !this.topicsWithDeletionStarted.has(t))) {
      for (const [, p] of partitionsOf(topic)) ctx.partitionStateMachine.transition(topic, p, 'OfflinePartition');
      for (const [, p] of partitionsOf(topic)) ctx.partitionStateMachine.transition(topic, p, 'NonExistentPartition');
      this.topicsWithDeletionStarted.add(topic);
      ctx.services.emit({ type: 'topicDeletionStarted', topic, atMs: ctx.now() });
    }
    // The brokers stop serving the topics (UpdateMetadata with leader -2).
    ctx.updateMetadata(topics.flatMap(partitionsOf));
    this.onPartitionDeletion(topics);
  }

  private onPartitionDeletion(topics: readonly string[]): void {
    const live = this.ctx.liveBrokers();
    const dead: PartitionAndReplica[] = [];
    const retry: PartitionAndReplica[] = [];
    const ineligible: string[] = [];
    for (const topic of topics) {
      const replicas = this.replicasForTopic(topic);
      const deadReplicas = replicas.filter((r) => !live.has(r.replica));
      dead.push(...deadReplicas);
      retry.push(
        ...replicas.filter((r) => live.has(r.replica) && this.replicaState(r) !== 'ReplicaDeletionSuccessful'),
      );
      if (deadReplicas.length > 0) ineligible.push(topic);
    }
    this.handleStateChanges(dead, 'ReplicaDeletionIneligible');
    // OfflineReplica stops the followers fetching; ReplicaDeletionStarted sends StopReplica with delete.
    this.handleStateChanges(retry, 'OfflineReplica');
    this.handleStateChanges(retry, 'ReplicaDeletionStarted');
    this.markTopicIneligibleForDeletion(ineligible);
  }

  private completeDeleteTopic(topic: string): void {
    const ctx = this.ctx;
    if (!ctx.canWrite()) return;
    this.handleStateChanges(this.replicasInState(topic, 'ReplicaDeletionSuccessful'), 'NonExistentReplica');
    this.zk.deleteRecursive(topicPath(topic));
    this.zk.deleteRecursive(`/config/topics/${topic}`);
    this.zk.deleteRecursive(`${DELETE_TOPICS_PATH}/${topic}`);
    ctx.removeTopic(topic);
    this.topicsToBeDeleted.delete(topic);
    this.topicsWithDeletionStarted.delete(topic);
    this.topicsIneligibleForDeletion.delete(topic);
    ctx.updateMetadataDeleted(topic);
    ctx.services.emit({ type: 'topicDeleted', topic, atMs: ctx.now() });
  }

  private deleteTopicDeletions(topics: readonly string[]): void {
    if (!this.ctx.canWrite()) return;
    for (const t of topics) this.zk.deleteRecursive(`${DELETE_TOPICS_PATH}/${t}`);
  }
}
