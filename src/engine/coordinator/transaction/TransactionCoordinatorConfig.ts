/**
 * The transaction coordinator's broker settings, by Kafka's names, with Kafka 3.9's defaults and
 * validators (TransactionLogConfigs and TransactionStateManagerConfigs in transaction-coordinator;
 * every integer is `atLeast(1)`), and the configs `__transaction_state` is created with
 * (TransactionStateManager.transactionTopicConfigs).
 */
import { KafkaError } from '../../errors';

export interface TransactionCoordinatorConfig {
  'transaction.state.log.num.partitions': number;
  'transaction.state.log.replication.factor': number;
  'transaction.state.log.min.isr': number;
  'transaction.state.log.segment.bytes': number;
  'transaction.state.log.load.buffer.size': number;
  /** KIP-890 part 1: leaders ask the coordinator whether a transactional produce's partition was added. */
  'transaction.partition.verification.enable': boolean;
  /** The largest `transaction.timeout.ms` a producer may ask for (INVALID_TRANSACTION_TIMEOUT above it). */
  'transaction.max.timeout.ms': number;
  'transactional.id.expiration.ms': number;
  'transaction.abort.timed.out.transaction.cleanup.interval.ms': number;
  'transaction.remove.expired.transaction.cleanup.interval.ms': number;
}

export const TRANSACTION_COORDINATOR_DEFAULTS: Readonly<TransactionCoordinatorConfig> = {
  'transaction.state.log.num.partitions': 50,
  'transaction.state.log.replication.factor': 3,
  'transaction.state.log.min.isr': 2,
  'transaction.state.log.segment.bytes': 100 * 1024 * 1024,
  'transaction.state.log.load.buffer.size': 5 * 1024 * 1024,
  'transaction.partition.verification.enable': true,
  'transaction.max.timeout.ms': 15 * 60 * 1000,
  'transactional.id.expiration.ms': 7 * 24 * 60 * 60 * 1000,
  'transaction.abort.timed.out.transaction.cleanup.interval.ms': 10 * 1000,
  'transaction.remove.expired.transaction.cleanup.interval.ms': 60 * 60 * 1000,
};

/** transaction.state.log.replication.factor is a SHORT; the others are INTs. */
const SHORT_MAX = 32767;
const INT_MAX = 2147483647;

function isKey(name: string): name is keyof TransactionCoordinatorConfig {
  return name in TRANSACTION_COORDINATOR_DEFAULTS;
}

function invalid(name: string, value: unknown, reason: string): KafkaError {
  return new KafkaError('INVALID_CONFIG', `Invalid value ${String(value)} for configuration ${name}: ${reason}`, {
    name,
    value,
  });
}

/** Kafka's defaults with `overrides` applied, each checked as Kafka's ConfigDef checks it. */
export function transactionCoordinatorConfig(
  overrides: Partial<Record<string, unknown>> = {},
): TransactionCoordinatorConfig {
  const c: TransactionCoordinatorConfig = { ...TRANSACTION_COORDINATOR_DEFAULTS };
  for (const [name, value] of Object.entries(overrides)) {
    if (value === undefined) continue;
    if (!isKey(name)) throw invalid(name, value, 'Unknown transaction coordinator configuration');
    if (name === 'transaction.partition.verification.enable') {
      if (typeof value !== 'boolean') throw invalid(name, value, 'Expected value to be either true or false');
      c[name] = value;
      continue;
    }
    const max = name === 'transaction.state.log.replication.factor' ? SHORT_MAX : INT_MAX;
    if (typeof value !== 'number' || !Number.isInteger(value) || value > max) {
      throw invalid(name, value, `Expected value to be a ${max === SHORT_MAX ? '16' : '32'}-bit integer`);
    }
    if (value < 1) throw invalid(name, value, 'Value must be at least 1');
    c[name] = value;
  }
  return c;
}

/**
 * The topic configs `__transaction_state` is created with: compacted, never compressed, no unclean
 * elections (a lost coordinator record could resurrect or lose a transaction), the log's min ISR
 * and segment size.
 */
export function transactionTopicConfigs(config: TransactionCoordinatorConfig): Record<string, string> {
  return {
    'unclean.leader.election.enable': 'false',
    'compression.type': 'uncompressed',
    'cleanup.policy': 'compact',
    'min.insync.replicas': String(config['transaction.state.log.min.isr']),
    'segment.bytes': String(config['transaction.state.log.segment.bytes']),
  };
}
