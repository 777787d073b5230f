/**
 * Which partition of a coordinator's internal topic holds a key, and so which broker coordinates
 * it (the partition's leader): Kafka computes it the same way for both coordinators,
 * GroupMetadataManager.partitionFor (a group id in `__consumer_offsets`) and
 * TransactionStateManager.partitionFor (a transactional id in `__transaction_state`):
 * `Utils.abs(key.hashCode) % partitionCount`.
 */
import { javaStringHashCode, kafkaAbs } from '../clients/consumer/javaStringHashCode';
import { KafkaError } from '../errors';

/** `config` names the topic's partition-count setting, for the error when it is not a positive integer. */
export function coordinatorPartitionFor(key: string, partitionCount: number, config: string): number {
  if (!Number.isInteger(partitionCount) || partitionCount < 1) {
    throw new KafkaError('INVALID_CONFIG', `${config} must be a positive integer, got ${partitionCount}`, {
      [config]: partitionCount,
    });
  }
  return kafkaAbs(javaStringHashCode(key)) % partitionCount;
}
