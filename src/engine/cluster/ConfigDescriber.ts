import { KafkaError } from '../errors';
import { BROKER_ALIASES, KAFKA_DEFAULT_LOG_CONFIG } from '../log/LogConfig';
import { KAFKA_DEFAULT_BROKER_CONFIG } from './BrokerConfig';
import type { Cluster } from './Cluster';
import { type TopicConfigOverrides, validateTopicName } from './TopicConfig';

/**
 * What DescribeConfigs answers (Kafka's ConfigHelper.describeConfigs in ZooKeeper mode): each
 * config of a topic or of a broker with its effective value, where that value comes from, and its
 * synonyms — the same setting at every level that could set it, the one in force first: a topic
 * override (TOPIC_CONFIG), the broker's server.properties (STATIC_BROKER_CONFIG, under the
 * broker's name for it, e.g. `log.segment.bytes` for `segment.bytes`), Kafka's default
 * (DEFAULT_CONFIG).
 */
export type ConfigSource = 'TOPIC_CONFIG' | 'STATIC_BROKER_CONFIG' | 'DEFAULT_CONFIG';
export type ConfigValueType = 'BOOLEAN' | 'STRING' | 'INT' | 'LONG' | 'DOUBLE' | 'LIST';

export interface ConfigSynonym {
  name: string;
  value: string;
  source: ConfigSource;
}

export interface DescribedConfig {
  name: string;
  value: string;
  source: ConfigSource;
  readOnly: boolean;
  isSensitive: boolean;
  type: ConfigValueType;
  /** In force first. */
  synonyms: ConfigSynonym[];
}

/** Topic configs and the broker settings that default them (LogConfig's ServerDefaultHeaderName). */
const TOPIC_TO_BROKER: Readonly<Record<string, string>> = {
  ...Object.fromEntries(Object.entries(BROKER_ALIASES).map(([broker, topic]) => [topic, broker])),
  'compression.type': 'compression.type',
  'min.insync.replicas': 'min.insync.replicas',
  'unclean.leader.election.enable': 'unclean.leader.election.enable',
};

const TOPIC_DEFAULTS: Readonly<Record<string, unknown>> = {
  ...KAFKA_DEFAULT_LOG_CONFIG,
  'min.insync.replicas': 1,
  'unclean.leader.election.enable': false,
};

/** ConfigDef types of the topic configs (TopicConfig / LogConfig's definitions). */
const TOPIC_TYPES: Readonly<Record<string, ConfigValueType>> = {
  'segment.bytes': 'INT',
  'segment.index.bytes': 'INT',
  'index.interval.bytes': 'INT',
  'max.message.bytes': 'INT',
  'min.insync.replicas': 'INT',
  'cleanup.policy': 'LIST',
  'min.cleanable.dirty.ratio': 'DOUBLE',
  'message.timestamp.type': 'STRING',
  'compression.type': 'STRING',
  'unclean.leader.election.enable': 'BOOLEAN',
};

/** Broker settings Kafka can change without a restart (DynamicBrokerConfig's reconfigurables). */
const DYNAMIC_BROKER_CONFIGS: ReadonlySet<string> = new Set([
  'min.insync.replicas',
  'unclean.leader.election.enable',
  'log.cleaner.backoff.ms',
  'producer.id.expiration.ms',
  ...Object.keys(BROKER_ALIASES),
  'compression.type',
]);

/** A value as Kafka prints it: lists comma-separated, Long.MAX_VALUE for "never". */
function render(v: unknown): string {
  if (v === Number.POSITIVE_INFINITY) return '9223372036854775807';
  if (Array.isArray(v)) return v.join(',');
  return String(v);
}

function synonymsFor(
  levels: readonly { name: string; value: unknown; source: ConfigSource; set: boolean }[],
): ConfigSynonym[] {
  return levels.filter((l) => l.set).map((l) => ({ name: l.name, value: render(l.value), source: l.source }));
}

function described(name: string, synonyms: ConfigSynonym[], readOnly: boolean, type: ConfigValueType): DescribedConfig {
  const first = synonyms[0] as ConfigSynonym;
  return { name, value: first.value, source: first.source, readOnly, isSensitive: false, type, synonyms };
}

/**
 * A topic's configs: INVALID_TOPIC_EXCEPTION for an illegal name, UNKNOWN_TOPIC_OR_PARTITION for
 * a topic the answering broker's metadata does not know (`known`).
 */
export function describeTopicConfigs(cluster: Cluster, topic: string, known: readonly string[]): DescribedConfig[] {
  validateTopicName(topic);
  if (!known.includes(topic)) throw new KafkaError('UNKNOWN_TOPIC_OR_PARTITION', '', { topic });
  return topicConfigEntries(cluster, cluster.topicOverrides(topic));
}

/** The configs a topic with these overrides has (or would have: CreateTopics v5+ answers them). */
export function topicConfigEntries(cluster: Cluster, overrides: TopicConfigOverrides): DescribedConfig[] {
  const staticTopic = cluster.staticTopicDefaults;
  const staticBroker: Record<string, unknown> = cluster.staticBrokerConfig;
  const effective: Record<string, unknown> = { ...cluster.topicConfigWith(overrides) };
  return Object.keys(TOPIC_TO_BROKER)
    .sort()
    .map((name) => {
      const brokerName = TOPIC_TO_BROKER[name] as string;
      const atBroker = staticTopic[brokerName] ?? staticTopic[name] ?? staticBroker[brokerName];
      const synonyms = synonymsFor([
        { name, value: effective[name], source: 'TOPIC_CONFIG', set: name in overrides },
        { name: brokerName, value: atBroker, source: 'STATIC_BROKER_CONFIG', set: atBroker !== undefined },
        { name: brokerName, value: TOPIC_DEFAULTS[name], source: 'DEFAULT_CONFIG', set: true },
      ]);
      // The value in force is the effective one (the overrides as the topic's LogConfig parsed them).
      const inForce = { ...(synonyms[0] as ConfigSynonym), value: render(effective[name]) };
      return described(name, [inForce, ...synonyms.slice(1)], false, TOPIC_TYPES[name] ?? 'LONG');
    });
}

/** A broker's configs: the engine's broker settings and the broker-level defaults of topic configs. */
export function describeBrokerConfigs(cluster: Cluster): DescribedConfig[] {
  const staticBroker: Record<string, unknown> = cluster.staticBrokerConfig;
  const staticTopic = cluster.staticTopicDefaults;
  const rows = new Map<string, { value: unknown; set: unknown; fallback: unknown; type: ConfigValueType }>();
  for (const [name, fallback] of Object.entries(KAFKA_DEFAULT_BROKER_CONFIG)) {
    const type: ConfigValueType = typeof fallback === 'boolean' ? 'BOOLEAN' : name.endsWith('.ms') ? 'LONG' : 'INT';
    rows.set(name, {
      value: cluster.config[name as keyof typeof cluster.config],
      set: staticBroker[name],
      fallback,
      type,
    });
  }
  for (const [topicName, brokerName] of Object.entries(TOPIC_TO_BROKER)) {
    if (rows.has(brokerName)) continue;
    const set = staticTopic[brokerName] ?? staticTopic[topicName];
    const fallback = TOPIC_DEFAULTS[topicName];
    rows.set(brokerName, { value: set ?? fallback, set, fallback, type: TOPIC_TYPES[topicName] ?? 'LONG' });
  }
  return [...rows.keys()].sort().map((name) => {
    const r = rows.get(name) as { value: unknown; set: unknown; fallback: unknown; type: ConfigValueType };
    const synonyms = synonymsFor([
      { name, value: r.value, source: 'STATIC_BROKER_CONFIG', set: r.set !== undefined },
      { name, value: r.fallback, source: 'DEFAULT_CONFIG', set: true },
    ]);
    return described(name, synonyms, !DYNAMIC_BROKER_CONFIGS.has(name), r.type);
  });
}
