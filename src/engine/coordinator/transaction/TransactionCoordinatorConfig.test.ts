import { describe, expect, it } from 'vitest';
import { KafkaError } from '../../errors';
import {
  TRANSACTION_COORDINATOR_DEFAULTS,
  transactionCoordinatorConfig,
  transactionTopicConfigs,
} from './TransactionCoordinatorConfig';

describe('the transaction coordinator configs (TransactionLogConfigs, TransactionStateManagerConfigs)', () => {
  it("has Kafka 3.9's defaults", () => {
    expect(TRANSACTION_COORDINATOR_DEFAULTS).toEqual({
      'transaction.state.log.num.partitions': 50,
      'transaction.state.log.replication.factor': 3,
      'transaction.state.log.min.isr': 2,
      'transaction.state.log.segment.bytes': 104857600,
      'transaction.state.log.load.buffer.size': 5242880,
      'transaction.partition.verification.enable': true,
      'transaction.max.timeout.ms': 900000,
      'transactional.id.expiration.ms': 604800000,
      'transaction.abort.timed.out.transaction.cleanup.interval.ms': 10000,
      'transaction.remove.expired.transaction.cleanup.interval.ms': 3600000,
    });
  });

  it('applies overrides checked as ConfigDef does: integers at least 1, the replication factor a short', () => {
    const c = transactionCoordinatorConfig({
      'transaction.max.timeout.ms': 60000,
      'transaction.state.log.num.partitions': 3,
    });
    expect(c['transaction.max.timeout.ms']).toBe(60000);
    expect(c['transaction.state.log.num.partitions']).toBe(3);
    for (const bad of [
      { 'transaction.state.log.min.isr': 0 },
      { 'transaction.state.log.replication.factor': 40000 },
      { 'transaction.max.timeout.ms': 1.5 },
      { 'transaction.partition.verification.enable': 'yes' },
      { 'transaction.timeout.ms': 1000 },
    ]) {
      expect(() => transactionCoordinatorConfig(bad)).toThrow(KafkaError);
    }
  });

  it('creates __transaction_state as TransactionStateManager.transactionTopicConfigs says', () => {
    expect(transactionTopicConfigs(transactionCoordinatorConfig({ 'transaction.state.log.min.isr': 1 }))).toEqual({
      'unclean.leader.election.enable': 'false',
      'compression.type': 'uncompressed',
      'cleanup.policy': 'compact',
      'min.insync.replicas': '1',
      'segment.bytes': '104857600',
    });
  });
});
