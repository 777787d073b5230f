import { controlledShutdownPartitionLeaderElection } from './PartitionLeaderElectionAlgorithms';
import type {
  AlterPartitionRequest,
  AlterPartitionResponse,
  ControlledShutdownRequest,
  ControlledShutdownResponse,
  ErrorCode,
} from './requests';
import type { TopicDeletionContext } from './TopicDeletionManager';

/** What the controller's handling of the brokers' requests needs of it. */
export interface ControllerRequestContext extends TopicDeletionContext {
  /** The broker joins the shutting-down brokers (never elected leader again until it restarts). */
  beginShutdown(id: number): void;
  checkReassignments(): void;
}

/**
 * KafkaController.processAlterPartition: a leader's ISR change is written if it leads at that
 * epoch and saw the latest partition epoch; a replica may only join if live and not shutting down.
 */
export function processAlterPartition(
  ctx: ControllerRequestContext,
  body: AlterPartitionRequest,
): AlterPartitionResponse {
  if (!ctx.isActive()) return { api: 'AlterPartition', errorCode: 'NOT_CONTROLLER', topics: [] };
  const topics = body.topics.map((t) => ({
    topicName: t.topicName,
    partitions: t.partitions.map((p) => {
      const state = ctx.readState(t.topicName, p.partitionIndex);
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
      const replicas = ctx.replicasOf(t.topicName, p.partitionIndex);
      const joining = p.newIsr.filter((r) => !state.isr.includes(r));
      if (joining.some((r) => !replicas.includes(r) || !ctx.liveBrokers().has(r) || ctx.shuttingDown().has(r)))
        return fail('INELIGIBLE_REPLICA');
      const value = ctx.writeState(
        t.topicName,
        p.partitionIndex,
        { leader: state.leader, leaderEpoch: state.leaderEpoch, isr: p.newIsr },
        state,
        'isrChange',
      );
      if (!value) return fail('NOT_CONTROLLER');
      ctx.updateMetadata([[t.topicName, p.partitionIndex]]);
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
  ctx.services.scheduler.schedule(0, () => ctx.checkReassignments());
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
export function doControlledShutdown(
  ctx: ControllerRequestContext,
  body: ControlledShutdownRequest,
): ControlledShutdownResponse {
  const answer = (errorCode: ErrorCode, remainingPartitions: { topicName: string; partitionIndex: number }[] = []) =>
    ({ api: 'ControlledShutdown', errorCode, remainingPartitions }) as const;
  if (!ctx.isActive()) return answer('NOT_CONTROLLER');
  const id = body.brokerId;
  const cachedEpoch = ctx.liveBrokers().get(id);
  if (body.brokerEpoch !== -1 && cachedEpoch !== undefined && body.brokerEpoch < cachedEpoch)
    return answer('STALE_BROKER_EPOCH');
  if (cachedEpoch === undefined) return answer('BROKER_NOT_AVAILABLE');
  ctx.beginShutdown(id);
  const live = new Set(ctx.liveBrokers().keys());
  const followed: [string, number][] = [];
  for (const [topic, partition] of ctx.allPartitions()) {
    const replicas = ctx.replicasOf(topic, partition);
    const state = ctx.readState(topic, partition);
    if (!state || !replicas.includes(id) || replicas.length <= 1) continue;
    if (ctx.isTopicQueuedUpForDeletion(topic)) continue;
    if (state.leader !== id) {
      followed.push([topic, partition]);
      continue;
    }
    const leader = controlledShutdownPartitionLeaderElection(replicas, state.isr, live, ctx.shuttingDown());
    if (leader === null) continue;
    const value = ctx.writeState(
      topic,
      partition,
      { leader, leaderEpoch: state.leaderEpoch + 1, isr: state.isr.filter((r) => !ctx.shuttingDown().has(r)) },
      state,
      'controlledShutdown',
    );
    if (value) ctx.propagate(topic, partition, value);
  }
  // OfflineReplica stops each followed replica (StopReplica without delete, in the request batch).
  for (const [topic, partition] of followed) ctx.replicaStateMachine.offlineReplicas(topic, partition, [id]);
  ctx.updateMetadata(ctx.allPartitions());
  // controllerContext.partitionLeadersOnBroker(id): what it still leads.
  const remaining: { topicName: string; partitionIndex: number }[] = [];
  for (const [topic, partition] of ctx.allPartitions())
    if (ctx.readState(topic, partition)?.leader === id) remaining.push({ topicName: topic, partitionIndex: partition });
  return answer('NONE', remaining);
}
