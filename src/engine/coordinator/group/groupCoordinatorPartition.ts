/**
 * Where a consumer group lives: the `__consumer_offsets` partition that holds its offsets and
 * group metadata. The broker leading that partition is the group's coordinator (FindCoordinator
 * answers with it), exactly as GroupMetadataManager.partitionFor computes it on a real broker:
 * `Utils.abs(groupId.hashCode) % offsets.topic.num.partitions`.
 */
import { coordinatorPartitionFor } from '../coordinatorPartitionFor';

/** Kafka's default `offsets.topic.num.partitions`. */
export const DEFAULT_OFFSETS_TOPIC_NUM_PARTITIONS = 50;

export function groupCoordinatorPartition(
  groupId: string,
  numPartitions: number = DEFAULT_OFFSETS_TOPIC_NUM_PARTITIONS,
): number {
  return coordinatorPartitionFor(groupId, numPartitions, 'offsets.topic.num.partitions');
}
