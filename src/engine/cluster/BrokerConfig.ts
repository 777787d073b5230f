import { KafkaError } from '../errors';

/**
 * Broker settings that drive the cluster's behaviour, by Kafka's names and with Kafka's
 * defaults (KafkaConfig / ReplicationConfigs / ZkConfigs, Kafka 3.x). The UI uses smaller
 * timeouts so failures play out in seconds; the semantics stay Kafka's.
 */
export interface BrokerConfig {
  'zookeeper.session.timeout.ms': number;
  'replica.lag.time.max.ms': number;
  'replica.fetch.wait.max.ms': number;
  'replica.fetch.min.bytes': number;
  'replica.fetch.max.bytes': number;
  'replica.fetch.backoff.ms': number;
  'replica.socket.timeout.ms': number;
  'replica.high.watermark.checkpoint.interval.ms': number;
  /** How often each log dir's recovery-point-offset-checkpoint is written (LogManager). */
  'log.flush.offset.checkpoint.interval.ms': number;
  /** How often each log dir's log-start-offset-checkpoint is written (LogManager). */
  'log.flush.start.offset.checkpoint.interval.ms': number;
  'controller.socket.timeout.ms': number;
  'auto.leader.rebalance.enable': boolean;
  'leader.imbalance.check.interval.seconds': number;
  'leader.imbalance.per.broker.percentage': number;
  'controlled.shutdown.enable': boolean;
  'controlled.shutdown.max.retries': number;
  'controlled.shutdown.retry.backoff.ms': number;
  /** Metadata requests that allow it create unknown topics with the two defaults below. */
  'auto.create.topics.enable': boolean;
  'default.replication.factor': number;
  'num.partitions': number;
  'min.insync.replicas': number;
  'unclean.leader.election.enable': boolean;
  'delete.topic.enable': boolean;
  'log.cleaner.enable': boolean;
  'log.cleaner.backoff.ms': number;
  'log.retention.check.interval.ms': number;
  /** How long a producer id's state outlives its last batch (ProducerStateManagerConfig). */
  'producer.id.expiration.ms': number;
  'producer.id.expiration.check.interval.ms': number;
}

export const KAFKA_DEFAULT_BROKER_CONFIG: Readonly<BrokerConfig> = Object.freeze({
  'zookeeper.session.timeout.ms': 18_000,
  'replica.lag.time.max.ms': 30_000,
  'replica.fetch.wait.max.ms': 500,
  'replica.fetch.min.bytes': 1,
  'replica.fetch.max.bytes': 1024 * 1024,
  'replica.fetch.backoff.ms': 1000,
  'replica.socket.timeout.ms': 30_000,
  'replica.high.watermark.checkpoint.interval.ms': 5000,
  'log.flush.offset.checkpoint.interval.ms': 60_000,
  'log.flush.start.offset.checkpoint.interval.ms': 60_000,
  'controller.socket.timeout.ms': 30_000,
  'auto.leader.rebalance.enable': true,
  'leader.imbalance.check.interval.seconds': 300,
  'leader.imbalance.per.broker.percentage': 10,
  'controlled.shutdown.enable': true,
  'controlled.shutdown.max.retries': 3,
  'controlled.shutdown.retry.backoff.ms': 5000,
  'auto.create.topics.enable': true,
  'default.replication.factor': 1,
  'num.partitions': 1,
  'min.insync.replicas': 1,
  'unclean.leader.election.enable': false,
  'delete.topic.enable': true,
  'log.cleaner.enable': true,
  'log.cleaner.backoff.ms': 15_000,
  'log.retention.check.interval.ms': 300_000,
  'producer.id.expiration.ms': 86_400_000,
  'producer.id.expiration.check.interval.ms': 600_000,
});

/** Broker configs Kafka defines with atLeast(1). */
const AT_LEAST_ONE: ReadonlySet<string> = new Set([
  'num.partitions',
  'producer.id.expiration.ms',
  'producer.id.expiration.check.interval.ms',
]);

export type BrokerConfigInput = Partial<Record<keyof BrokerConfig, number | boolean | string>>;

export function createBrokerConfig(overrides: BrokerConfigInput = {}): BrokerConfig {
  const out: BrokerConfig = { ...KAFKA_DEFAULT_BROKER_CONFIG };
  for (const [key, raw] of Object.entries(overrides)) {
    if (raw === undefined) continue;
    if (!(key in KAFKA_DEFAULT_BROKER_CONFIG))
      throw new KafkaError('INVALID_CONFIG', `Unknown broker config name: ${key}`, { key });
    const k = key as keyof BrokerConfig;
    const def = KAFKA_DEFAULT_BROKER_CONFIG[k];
    if (typeof def === 'boolean') {
      const v = raw === true || raw === 'true' ? true : raw === false || raw === 'false' ? false : null;
      if (v === null)
        throw new KafkaError('INVALID_CONFIG', `Invalid value ${String(raw)} for configuration ${key}`, { key });
      Object.assign(out, { [k]: v });
    } else {
      const v = typeof raw === 'number' ? raw : Number(raw);
      if (!Number.isFinite(v) || v < (AT_LEAST_ONE.has(key) ? 1 : 0))
        throw new KafkaError('INVALID_CONFIG', `Invalid value ${String(raw)} for configuration ${key}`, { key });
      Object.assign(out, { [k]: v });
    }
  }
  return out;
}
