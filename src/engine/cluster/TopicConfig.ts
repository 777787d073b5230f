import { KafkaError } from '../errors';
import { createLogConfig, KAFKA_DEFAULT_LOG_CONFIG, type LogConfig, type LogConfigInput } from '../log/LogConfig';

/**
 * A topic's configuration: the log settings (LogConfig: segment.bytes, retention.ms,
 * cleanup.policy, ...) plus the replication settings Kafka also keeps per topic. Validated the
 * way Kafka validates `/config/topics/<topic>`: unknown names and bad values are INVALID_CONFIG.
 */
export interface ReplicationConfig {
  'min.insync.replicas': number;
  'unclean.leader.election.enable': boolean;
}

export type TopicConfig = LogConfig & ReplicationConfig;

/** The raw overrides as stored in the coordination store (`/config/topics/<topic>`). */
export type TopicConfigOverrides = Record<string, string | number | boolean | string[]>;

/** Kafka's topic-name rules (org.apache.kafka.common.internals.Topic.validate). */
export const MAX_TOPIC_NAME_LENGTH = 249;

export function validateTopicName(name: string): void {
  const fail = (why: string) => {
    throw new KafkaError('INVALID_TOPIC_EXCEPTION', `Topic name "${name}" is illegal, ${why}`, { topic: name });
  };
  if (name.length === 0) fail('it is empty');
  if (name === '.' || name === '..') fail('it cannot be "." or ".."');
  if (name.length > MAX_TOPIC_NAME_LENGTH)
    fail(`it can't be longer than ${MAX_TOPIC_NAME_LENGTH} characters, topic name: ${name}`);
  if (!/^[a-zA-Z0-9._-]+$/.test(name)) fail("it contains a character other than ASCII alphanumerics, '.', '_' and '-'");
}

function parseBool(key: string, raw: unknown): boolean {
  if (raw === true || raw === false) return raw;
  if (typeof raw === 'string' && /^(true|false)$/i.test(raw.trim())) return raw.trim().toLowerCase() === 'true';
  throw new KafkaError(
    'INVALID_CONFIG',
    `Invalid value ${JSON.stringify(raw)} for configuration ${key}: Expected value to be either true or false`,
    {
      key,
      value: raw,
    },
  );
}

/**
 * Effective config = broker defaults overlaid with the topic's overrides. `brokerDefaults` holds
 * Kafka's broker-level names or topic names (`log.segment.bytes`, `min.insync.replicas`...).
 */
export function createTopicConfig(
  overrides: TopicConfigOverrides = {},
  brokerDefaults: TopicConfigOverrides = {},
): TopicConfig {
  const replication: ReplicationConfig = { 'min.insync.replicas': 1, 'unclean.leader.election.enable': false };
  const logInput: Record<string, string | number | readonly string[]> = {};
  for (const source of [brokerDefaults, overrides]) {
    for (const [key, raw] of Object.entries(source)) {
      if (raw === undefined) continue;
      if (key === 'min.insync.replicas') {
        const n =
          typeof raw === 'number'
            ? raw
            : typeof raw === 'string' && /^\d+$/.test(raw.trim())
              ? Number(raw)
              : Number.NaN;
        if (!Number.isInteger(n) || n < 1)
          throw new KafkaError(
            'INVALID_CONFIG',
            `Invalid value ${JSON.stringify(raw)} for configuration min.insync.replicas: Value must be at least 1`,
            {
              key,
              value: raw,
            },
          );
        replication['min.insync.replicas'] = n;
      } else if (key === 'unclean.leader.election.enable') {
        replication['unclean.leader.election.enable'] = parseBool(key, raw);
      } else if (key === 'message.format.version') {
        // Deprecated, and ignored since inter.broker.protocol.version 3.0 (every batch is v2), but
        // still a topic config Kafka 3.9 accepts when its value names a version (AlterConfigs).
        if (typeof raw !== 'string' || !/^\d+\.\d+(\.\d+){0,2}(-IV\d+)?$/.test(raw.trim()))
          throw new KafkaError('INVALID_CONFIG', `Invalid value ${JSON.stringify(raw)} for configuration ${key}`, {
            key,
            value: raw,
          });
      } else if (typeof raw === 'boolean') {
        throw new KafkaError('INVALID_CONFIG', `Invalid value ${raw} for configuration ${key}`, { key, value: raw });
      } else if (source === brokerDefaults && !isLogKey(key)) {
        // other broker settings (replica.lag.time.max.ms...) are not topic configs
      } else {
        logInput[key] = raw;
      }
    }
  }
  const log = createLogConfig(logInput as LogConfigInput);
  return { ...log, ...replication };
}

function isLogKey(key: string): boolean {
  return key in KAFKA_DEFAULT_LOG_CONFIG;
}
