import { describe, expect, it } from 'vitest';
import { KafkaError } from '../../errors';
import { groupCoordinatorPartition } from '../group/groupCoordinatorPartition';
import { TRANSACTION_STATE_TOPIC, transactionCoordinatorPartition } from './transactionCoordinatorPartition';

// Expected partitions from Java's String.hashCode, worked out apart from the engine's helper:
// "hello".hashCode() = 99162322; "polygenelubricants".hashCode() = Integer.MIN_VALUE, which
// Utils.abs maps to 0 (Math.abs would leave it negative); "my-transactional-id" hashes to -959806496.
describe('transactionCoordinatorPartition (TransactionStateManager.partitionFor)', () => {
  it('is Utils.abs(transactionalId.hashCode) % 50 by default', () => {
    expect(TRANSACTION_STATE_TOPIC).toBe('__transaction_state');
    expect(transactionCoordinatorPartition('hello')).toBe(99162322 % 50);
    expect(transactionCoordinatorPartition('polygenelubricants')).toBe(0);
    expect(transactionCoordinatorPartition('my-transactional-id')).toBe(959806496 % 50);
    expect(transactionCoordinatorPartition('txn-processor-1')).toBe(2047343315 % 50);
  });

  it('follows transaction.state.log.num.partitions, and agrees with the group coordinator for the same string', () => {
    expect(transactionCoordinatorPartition('hello', 7)).toBe(99162322 % 7);
    for (const id of ['hello', 'my-transactional-id', 'a', ''])
      expect(transactionCoordinatorPartition(id, 50)).toBe(groupCoordinatorPartition(id, 50));
    expect(() => transactionCoordinatorPartition('hello', 0)).toThrow(KafkaError);
  });
});
