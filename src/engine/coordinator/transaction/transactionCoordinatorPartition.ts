/**
 * Where a transactional id lives: the `__transaction_state` partition holding its records, whose
 * leader is the id's transaction coordinator (FindCoordinator with key type TRANSACTION answers
 * with it), as TransactionStateManager.partitionFor computes it:
 * `Utils.abs(transactionalId.hashCode) % transaction.state.log.num.partitions`.
 */
import { coordinatorPartitionFor } from '../coordinatorPartitionFor';

/** Topic.TRANSACTION_STATE_TOPIC_NAME. */
export const TRANSACTION_STATE_TOPIC = '__transaction_state';

/** Kafka's default `transaction.state.log.num.partitions` (TransactionLogConfigs). */
export const DEFAULT_TRANSACTIONS_TOPIC_PARTITIONS = 50;

export function transactionCoordinatorPartition(
  transactionalId: string,
  transactionTopicPartitionCount: number = DEFAULT_TRANSACTIONS_TOPIC_PARTITIONS,
): number {
  return coordinatorPartitionFor(
    transactionalId,
    transactionTopicPartitionCount,
    'transaction.state.log.num.partitions',
  );
}
