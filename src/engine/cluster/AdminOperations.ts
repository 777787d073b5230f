/**
 * What a broker does for the Admin APIs that act on partitions already there, read from and done
 * through the cluster's brokers as Kafka 3.9's ZooKeeper-mode broker does them: DeleteRecords
 * (ReplicaManager.deleteRecords on the leader, then the low watermark the DelayedDeleteRecords
 * purgatory waits on), DescribeLogDirs (ReplicaManager.describeLogDirs), DescribeProducers
 * (ReplicaManager.activeProducerState), ElectLeaders (KafkaController.processReplicaLeaderElection,
 * admin-triggered) and the reassignments the controller is moving (listPartitionReassignments).
 * Every answer is Kafka's error name per partition; nothing here throws for a bad partition.
 */
import type { ErrorCode } from './requests';
import { isKafkaError } from '../errors';
import { tpKey } from '../TopicPartition';
import type { Broker } from './Broker';
import type { Cluster } from './Cluster';
import type { Partition } from './Partition';

/** DeleteRecordsRequest.HIGH_WATERMARK: delete everything below the high watermark. */
export const DELETE_TO_HIGH_WATERMARK = -1;

/** Topic.isInternal: the topics no client may delete records of. */
export function isInternalTopic(topic: string): boolean {
  return topic === '__consumer_offsets' || topic === '__transaction_state';
}

export interface PartitionAnswer {
  errorCode: ErrorCode;
  errorMessage: string | null;
}

function answer(errorCode: ErrorCode, errorMessage: string | null = null): PartitionAnswer {
  return { errorCode, errorMessage };
}

/**
 * ReplicaManager.getPartitionOrException: the broker's partition if it leads it;
 * UNKNOWN_TOPIC_OR_PARTITION if the cluster has no such partition, NOT_LEADER_OR_FOLLOWER if this
 * broker does not lead it.
 */
function leaderPartition(
  cluster: Cluster,
  brokerId: number,
  topic: string,
  partition: number,
): Partition | PartitionAnswer {
  const broker = cluster.brokers.get(brokerId);
  if (cluster.assignment(topic)[partition] === undefined)
    return answer('UNKNOWN_TOPIC_OR_PARTITION', `Partition ${tpKey(topic, partition)} does not exist.`);
  const p = broker?.state === 'running' ? broker.replicaManager.partitions.get(tpKey(topic, partition)) : undefined;
  if (!p?.isLeader)
    return answer(
      'NOT_LEADER_OR_FOLLOWER',
      `Leader not local for partition ${tpKey(topic, partition)} on broker ${brokerId}`,
    );
  return p;
}

// ---------------------------------------------------------------- DeleteRecords

export interface DeleteRecordsResult extends PartitionAnswer {
  /** The offset the log now starts at on the leader (-1 on error). */
  requestedOffset: number;
  lowWatermark: number;
}

/**
 * Partition.deleteRecordsOnLeader: the leader's log starts at `offset` (-1: its high watermark)
 * from now on. Internal topics are refused (INVALID_TOPIC_EXCEPTION), an offset past the high
 * watermark is OFFSET_OUT_OF_RANGE; the followers follow through their next fetch.
 */
export function deleteRecordsOnLeader(
  cluster: Cluster,
  brokerId: number,
  topic: string,
  partition: number,
  offset: number,
): DeleteRecordsResult {
  const failed = (a: PartitionAnswer) => ({ ...a, requestedOffset: -1, lowWatermark: -1 });
  if (isInternalTopic(topic))
    return failed(answer('INVALID_TOPIC_EXCEPTION', `Cannot delete records of internal topic ${topic}`));
  const p = leaderPartition(cluster, brokerId, topic, partition);
  if (!('isLeader' in p)) return failed(p);
  const target = offset === DELETE_TO_HIGH_WATERMARK ? p.highWatermark : offset;
  if (target < 0 || target > p.highWatermark)
    return failed(
      answer(
        'OFFSET_OUT_OF_RANGE',
        `Cannot increment the log start offset to ${target} of partition ${tpKey(topic, partition)} since it is larger than the high watermark ${p.highWatermark}`,
      ),
    );
  try {
    p.log.maybeIncrementLogStartOffset?.(target);
  } catch (e) {
    if (!isKafkaError(e)) throw e;
    return failed(answer(e.code, e.reason));
  }
  return {
    ...answer('NONE'),
    requestedOffset: target,
    lowWatermark: lowWatermarkIfLeader(cluster, brokerId, topic, partition),
  };
}

/**
 * Partition.lowWatermarkIfLeader: the lowest log start offset of the partition's replicas on live
 * brokers (the leader's included), what DelayedDeleteRecords waits to reach the requested offset;
 * -1 once this broker no longer leads it.
 */
export function lowWatermarkIfLeader(cluster: Cluster, brokerId: number, topic: string, partition: number): number {
  const p = leaderPartition(cluster, brokerId, topic, partition);
  if (!('isLeader' in p)) return -1;
  let low = p.log.logStartOffset();
  for (const replica of p.replicas) {
    const b = cluster.brokers.get(replica);
    if (replica === brokerId || b?.state !== 'running') continue;
    const log = b.replicaManager.logs.get(tpKey(topic, partition))?.log;
    if (log) low = Math.min(low, log.logStartOffset());
  }
  return low;
}

// ---------------------------------------------------------------- DescribeLogDirs

export interface LogDirDescription {
  logDir: string;
  topics: { name: string; partitions: { partitionIndex: number; partitionSize: number; offsetLag: number }[] }[];
}

/**
 * ReplicaManager.describeLogDirs: each log dir of this broker and, for the partitions asked
 * (`null`: every one), the size of its replica there: the bytes of its segment files. A replica's
 * offset lag is 0 (only a future replica, moving between dirs, lags, and the engine moves none).
 */
export function describeLogDirs(
  broker: Broker,
  wanted: { topic: string; partitions: number[] }[] | null,
): LogDirDescription[] {
  const asked = wanted === null ? null : new Set(wanted.flatMap((t) => t.partitions.map((p) => tpKey(t.topic, p))));
  return broker.logManager.logDirs.map((logDir) => {
    const byTopic = new Map<string, LogDirDescription['topics'][number]['partitions']>();
    for (const hosted of broker.replicaManager.logs.values()) {
      if (hosted.dir !== logDir || (asked !== null && !asked.has(tpKey(hosted.topic, hosted.partition)))) continue;
      const partitionSize = hosted.log.segments().reduce((n, s) => n + s.sizeInBytes, 0);
      const list = byTopic.get(hosted.topic) ?? [];
      list.push({ partitionIndex: hosted.partition, partitionSize, offsetLag: 0 });
      byTopic.set(hosted.topic, list);
    }
    const topics = [...byTopic]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([name, partitions]) => ({
        name,
        partitions: partitions.sort((a, b) => a.partitionIndex - b.partitionIndex),
      }));
    return { logDir, topics };
  });
}

// ---------------------------------------------------------------- DescribeProducers

export interface ActiveProducer {
  producerId: number;
  producerEpoch: number;
  lastSequence: number;
  lastTimestamp: number;
}

/** ReplicaManager.activeProducerState: the leader's producer state of one partition. */
export function describeProducers(
  cluster: Cluster,
  brokerId: number,
  topic: string,
  partition: number,
): PartitionAnswer & { activeProducers: ActiveProducer[] } {
  const p = leaderPartition(cluster, brokerId, topic, partition);
  if (!('isLeader' in p)) return { ...p, activeProducers: [] };
  const activeProducers = p.producerState.entries().map((e) => {
    const last = e.batches[e.batches.length - 1];
    return {
      producerId: e.producerId,
      producerEpoch: e.producerEpoch,
      lastSequence: last?.lastSeq ?? -1,
      lastTimestamp: last?.timestamp ?? -1,
    };
  });
  return { ...answer('NONE'), activeProducers };
}

// ---------------------------------------------------------------- ElectLeaders

export type ElectionType = 'PREFERRED' | 'UNCLEAN';

export interface ElectionResult extends PartitionAnswer {
  topic: string;
  partition: number;
}

/**
 * KafkaController.processReplicaLeaderElection for an admin-triggered election, on the broker
 * `brokerId` (NOT_CONTROLLER unless it is the active controller): unknown partitions are
 * UNKNOWN_TOPIC_OR_PARTITION, those of a topic being deleted INVALID_TOPIC_EXCEPTION, those whose
 * leader is already the preferred replica (PREFERRED) or alive (UNCLEAN) ELECTION_NOT_NEEDED; the
 * rest are elected (an unclean election may pick any live replica, whatever the topic's
 * unclean.leader.election.enable) or fail with PREFERRED_LEADER_NOT_AVAILABLE /
 * ELIGIBLE_LEADERS_NOT_AVAILABLE. `partitions` null: every partition of the cluster.
 */
export function electLeaders(
  cluster: Cluster,
  brokerId: number,
  type: ElectionType,
  partitions: { topic: string; partition: number }[] | null,
): ElectionResult[] {
  const controller = cluster.brokers.get(brokerId)?.controller;
  const all =
    partitions ??
    cluster.topicNames().flatMap((topic) => cluster.assignment(topic).map((_, partition) => ({ topic, partition })));
  if (!controller?.active) return all.map((p) => ({ ...p, ...answer('NOT_CONTROLLER') }));
  const live = new Set(cluster.liveBrokerIds());
  return all.map(({ topic, partition }) => {
    const at = (a: PartitionAnswer) => ({ topic, partition, ...a });
    const replicas = cluster.assignment(topic)[partition];
    const state = cluster.partitionState(topic, partition);
    if (!replicas || !state) return at(answer('UNKNOWN_TOPIC_OR_PARTITION'));
    if (cluster.zk.exists(`/admin/delete_topics/${topic}`))
      return at(answer('INVALID_TOPIC_EXCEPTION', 'The topic is being deleted'));
    const needed = type === 'PREFERRED' ? state.leader !== replicas[0] : state.leader < 0 || !live.has(state.leader);
    if (!needed) return at(answer('ELECTION_NOT_NEEDED', 'Leader election not needed for topic partition'));
    if (type === 'PREFERRED') {
      const moved = controller.electPreferred([[topic, partition]], 'manual');
      return moved.length > 0
        ? at(answer('NONE'))
        : at(
            answer(
              'PREFERRED_LEADER_NOT_AVAILABLE',
              `Failed to elect leader for partition ${tpKey(topic, partition)} under strategy PreferredReplicaPartitionLeaderElectionStrategy`,
            ),
          );
    }
    controller.electOffline(topic, partition, -1, true);
    const after = cluster.partitionState(topic, partition);
    return after && after.leader >= 0 && live.has(after.leader)
      ? at(answer('NONE'))
      : at(
          answer(
            'ELIGIBLE_LEADERS_NOT_AVAILABLE',
            `Failed to elect leader for partition ${tpKey(topic, partition)} under strategy OfflinePartitionLeaderElectionStrategy(true)`,
          ),
        );
  });
}

// ---------------------------------------------------------------- reassignments

export interface OngoingReassignment {
  topic: string;
  partition: number;
  /** The full replica set while moving: target and original replicas (RS = TRS + ORS). */
  replicas: number[];
  addingReplicas: number[];
  removingReplicas: number[];
}

/**
 * KafkaController.listPartitionReassignments on the broker `brokerId`: the partitions its
 * controller is moving (among `partitions`, or all); null when it is not the active controller.
 */
export function listPartitionReassignments(
  cluster: Cluster,
  brokerId: number,
  partitions: { topic: string; partition: number }[] | null,
): OngoingReassignment[] | null {
  const controller = cluster.brokers.get(brokerId)?.controller;
  if (!controller?.active) return null;
  const asked = partitions === null ? null : new Set(partitions.map((p) => tpKey(p.topic, p.partition)));
  return controller
    .reassignmentsInProgress()
    .filter((r) => asked === null || asked.has(tpKey(r.topic, r.partition)))
    .map((r) => ({
      topic: r.topic,
      partition: r.partition,
      replicas: cluster.assignment(r.topic)[r.partition] ?? [...new Set([...r.target, ...r.original])],
      addingReplicas: r.target.filter((b) => !r.original.includes(b)),
      removingReplicas: r.original.filter((b) => !r.target.includes(b)),
    }));
}
