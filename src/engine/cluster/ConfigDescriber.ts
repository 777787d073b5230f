import { KafkaError } from '../errors';
import { BROKER_ALIASES, KAFKA_DEFAULT_LOG_CONFIG } from '../log/LogConfig';
import { KAFKA_DEFAULT_BROKER_CONFIG } from './BrokerConfig';
import type { Cluster } from './Cluster';
import { DYNAMIC_BROKER_CONFIGS } from './DynamicBrokerConfig';
import { type TopicConfigOverrides, validateTopicName } from './TopicConfig';

/**
 * What DescribeConfigs answers (Kafka's ConfigHelper.describeConfigs in ZooKeeper mode): each
 * config of a topic or of a broker with its effective value, where that value comes from, and its
 * synonyms — the same setting at every level that could set it, the one in force first: a topic
 * override (TOPIC_CONFIG), the answering broker's dynamic config (`/config/brokers/<id>`,
 * DYNAMIC_BROKER_CONFIG), the cluster-wide dynamic default (`/config/brokers/<default>`,
 * DYNAMIC_DEFAULT_BROKER_CONFIG), the broker's server.properties (STATIC_BROKER_CONFIG, under the
 * broker's name for it, e.g. `log.segment.bytes` for `segment.bytes`), Kafka's default
 * (DEFAULT_CONFIG).
 */
export type ConfigSource =
  | 'TOPIC_CONFIG'
  | 'DYNAMIC_BROKER_CONFIG'
  | 'DYNAMIC_DEFAULT_BROKER_CONFIG'
  | 'STATIC_BROKER_CONFIG'
  | 'DEFAULT_CONFIG';
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

/** A value as Kafka prints it: lists comma-separated, Long.MAX_VALUE for "never". */
function render(v: unknown): string {
  if (v === Number.POSITIVE_INFINITY) return '9223372036854775807';
  if (Array.isArray(v)) return v.join(',');
  return String(v);
}

/** The answering broker's dynamic configs: its own, then the cluster-wide default (none without a broker). */
function dynamicOf(cluster: Cluster, brokerId: number | undefined) {
  const d = brokerId === undefined ? undefined : cluster.brokers.get(brokerId)?.dynamicConfig;
  return {
    broker: (d?.currentDynamicBrokerConfigs ?? {}) as Readonly<Record<string, string>>,
    defaults: (d?.currentDynamicDefaultConfigs ?? {}) as Readonly<Record<string, string>>,
  };
}

function dynamicLevels(name: string, dyn: ReturnType<typeof dynamicOf>) {
  return [
    { name, value: dyn.broker[name], source: 'DYNAMIC_BROKER_CONFIG' as const, set: name in dyn.broker },
    { name, value: dyn.defaults[name], source: 'DYNAMIC_DEFAULT_BROKER_CONFIG' as const, set: name in dyn.defaults },
  ];
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
export function describeTopicConfigs(
  cluster: Cluster,
  topic: string,
  known: readonly string[],
  brokerId?: number,
): DescribedConfig[] {
  validateTopicName(topic);
  if (!known.includes(topic)) throw new KafkaError('UNKNOWN_TOPIC_OR_PARTITION', '', { topic });
  return topicConfigEntries(cluster, cluster.topicOverrides(topic), brokerId);
}

/** The configs a topic with these overrides has (or would have: CreateTopics v5+ answers them). */
export function topicConfigEntries(
  cluster: Cluster,
  overrides: TopicConfigOverrides,
  brokerId?: number,
): DescribedConfig[] {
  const staticTopic = cluster.staticTopicDefaults;
  const staticBroker: Record<string, unknown> = cluster.staticBrokerConfig;
  const dyn = dynamicOf(cluster, brokerId);
  const logDefaults = brokerId === undefined ? {} : (cluster.brokers.get(brokerId)?.dynamicConfig.logDefaults() ?? {});
  const effective: Record<string, unknown> = { ...cluster.topicConfigWith({ ...logDefaults, ...overrides }) };
  return Object.keys(TOPIC_TO_BROKER)
    .sort()
    .map((name) => {
      const brokerName = TOPIC_TO_BROKER[name] as string;
      const atBroker = staticTopic[brokerName] ?? staticTopic[name] ?? staticBroker[brokerName];
      const synonyms = synonymsFor([
        { name, value: effective[name], source: 'TOPIC_CONFIG', set: name in overrides },
        ...dynamicLevels(brokerName, dyn),
        { name: brokerName, value: atBroker, source: 'STATIC_BROKER_CONFIG', set: atBroker !== undefined },
        { name: brokerName, value: TOPIC_DEFAULTS[name], source: 'DEFAULT_CONFIG', set: true },
      ]);
      // The value in force is the effective one (the overrides as the topic's LogConfig parsed them).
      const inForce = { ...(synonyms[0] as ConfigSynonym), value: render(effective[name]) };
      return described(name, [inForce, ...synonyms.slice(1)], false, TOPIC_TYPES[name] ?? 'LONG');
    });
}

/**
 * A broker's configs: the engine's broker settings, the broker-level defaults of topic configs,
 * and any other dynamic config set for it (a SASL or listener setting the engine stores but does
 * not use), each from its dynamic config down to Kafka's default.
 */
export function describeBrokerConfigs(cluster: Cluster, brokerId?: number): DescribedConfig[] {
  const staticBroker: Record<string, unknown> = cluster.staticBrokerConfig;
  const staticTopic = cluster.staticTopicDefaults;
  const dyn = dynamicOf(cluster, brokerId);
  const rows = new Map<string, { set: unknown; fallback: unknown; type: ConfigValueType }>();
  for (const [name, fallback] of Object.entries(KAFKA_DEFAULT_BROKER_CONFIG)) {
    const type: ConfigValueType = typeof fallback === 'boolean' ? 'BOOLEAN' : name.endsWith('.ms') ? 'LONG' : 'INT';
    rows.set(name, { set: staticBroker[name], fallback, type });
  }
  for (const [topicName, brokerName] of Object.entries(TOPIC_TO_BROKER)) {
    if (rows.has(brokerName)) continue;
    const set = staticTopic[brokerName] ?? staticTopic[topicName];
    rows.set(brokerName, { set, fallback: TOPIC_DEFAULTS[topicName], type: TOPIC_TYPES[topicName] ?? 'LONG' });
  }
  const others = new Set([...Object.keys(dyn.broker), ...Object.keys(dyn.defaults)].filter((n) => !rows.has(n)));
  for (const name of others) rows.set(name, { set: undefined, fallback: undefined, type: 'STRING' });
  return [...rows.keys()].sort().map((name) => {
    const r = rows.get(name) as { set: unknown; fallback: unknown; type: ConfigValueType };
    const synonyms = synonymsFor([
      ...dynamicLevels(name, dyn),
      { name, value: r.set, source: 'STATIC_BROKER_CONFIG', set: r.set !== undefined },
      { name, value: r.fallback, source: 'DEFAULT_CONFIG', set: r.fallback !== undefined },
    ]);
    return described(name, synonyms, !DYNAMIC_BROKER_CONFIGS.has(name), r.type);
  });
}

/**
 * DescribeConfigs of the cluster-wide default (an empty broker name): the dynamic defaults in
 * `/config/brokers/<default>` as the answering broker knows them, each DYNAMIC_DEFAULT_BROKER_CONFIG.
 */
export function describeDefaultBrokerConfigs(cluster: Cluster, brokerId: number): DescribedConfig[] {
  const { defaults } = dynamicOf(cluster, brokerId);
  return Object.keys(defaults)
    .sort()
    .map((name) =>
      described(
        name,
        [{ name, value: defaults[name] as string, source: 'DYNAMIC_DEFAULT_BROKER_CONFIG' }],
        !DYNAMIC_BROKER_CONFIGS.has(name),
        'STRING',
      ),
    );
}
