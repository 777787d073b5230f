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
  'compression.gzip.level': 'compression.gzip.level',
  'compression.lz4.level': 'compression.lz4.level',
  'compression.zstd.level': 'compression.zstd.level',
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
  'compression.gzip.level': 'INT',
  'compression.lz4.level': 'INT',
  'compression.zstd.level': 'INT',
  'unclean.leader.election.enable': 'BOOLEAN',
};

/**
 * DynamicBrokerConfig.brokerConfigSynonyms: the broker configs that set one thing, the one that
 * wins first (KafkaConfig reads log.retention.ms, else .minutes, else .hours).
 */
const RETENTION = ['log.retention.ms', 'log.retention.minutes', 'log.retention.hours'];
const ROLL = ['log.roll.ms', 'log.roll.hours'];
const JITTER = ['log.roll.jitter.ms', 'log.roll.jitter.hours'];
const BROKER_CONFIG_SYNONYMS: Readonly<Record<string, readonly string[]>> = {
  ...Object.fromEntries([RETENTION, ROLL, JITTER].flatMap((group) => group.map((n) => [n, group]))),
  // log.flush.scheduler.interval.ms stands in for an unset log.flush.interval.ms, not the reverse.
  'log.flush.interval.ms': ['log.flush.interval.ms', 'log.flush.scheduler.interval.ms'],
};
const brokerSynonyms = (name: string): readonly string[] => BROKER_CONFIG_SYNONYMS[name] ?? [name];

/**
 * KafkaConfig's defaults of those synonyms (DynamicBrokerConfig.staticDefaultConfigs holds only
 * the non-null ones: null is "unset, the next synonym decides").
 */
const SYNONYM_DEFAULTS: Readonly<Record<string, unknown>> = {
  'log.retention.ms': undefined,
  'log.retention.minutes': undefined,
  'log.retention.hours': 168,
  'log.roll.ms': undefined,
  'log.roll.hours': 168,
  'log.roll.jitter.ms': undefined,
  'log.roll.jitter.hours': 0,
  'log.flush.interval.ms': undefined,
  'log.flush.scheduler.interval.ms': Number.POSITIVE_INFINITY,
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

/**
 * ConfigHelper.configSynonyms: `name`'s synonyms set at each level (the answering broker's dynamic
 * configs, the cluster-wide dynamic default, server.properties, Kafka's default), each level in
 * brokerConfigSynonyms order; those before the first entry under `name` itself are dropped, so a
 * default carried only by log.retention.hours leaves log.retention.ms with no synonym at all.
 */
function configSynonyms(
  name: string,
  dyn: ReturnType<typeof dynamicOf>,
  staticOf: (name: string) => unknown,
  defaultOf: (name: string) => unknown,
): ConfigSynonym[] {
  const names = brokerSynonyms(name);
  const levels: [ConfigSource, (n: string) => unknown][] = [
    ['DYNAMIC_BROKER_CONFIG', (n) => dyn.broker[n]],
    ['DYNAMIC_DEFAULT_BROKER_CONFIG', (n) => dyn.defaults[n]],
    ['STATIC_BROKER_CONFIG', staticOf],
    ['DEFAULT_CONFIG', (n) => (n in SYNONYM_DEFAULTS ? SYNONYM_DEFAULTS[n] : defaultOf(n))],
  ];
  const all: ConfigSynonym[] = [];
  for (const [source, levelValue] of levels)
    for (const n of names) {
      const value = levelValue(n);
      if (value !== undefined && value !== null) all.push({ name: n, value: render(value), source });
    }
  const first = all.findIndex((x) => x.name === name);
  return first < 0 ? [] : all.slice(first);
}

/** The value in force and its source: the first synonym's, else (none set) Kafka's default. */
function described(
  name: string,
  value: string,
  synonyms: ConfigSynonym[],
  readOnly: boolean,
  type: ConfigValueType,
): DescribedConfig {
  const source = synonyms[0]?.source ?? 'DEFAULT_CONFIG';
  return { name, value, source, readOnly, isSensitive: false, type, synonyms };
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
      const staticOf = (n: string) =>
        n === brokerName ? (staticTopic[n] ?? staticTopic[name] ?? staticBroker[n]) : undefined;
      const synonyms = configSynonyms(brokerName, dyn, staticOf, () => TOPIC_DEFAULTS[name]);
      if (name in overrides) synonyms.unshift({ name, value: render(effective[name]), source: 'TOPIC_CONFIG' });
      // The value in force is the effective one (the overrides as the topic's LogConfig parsed them).
      return described(name, render(effective[name]), synonyms, false, TOPIC_TYPES[name] ?? 'LONG');
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
  // The hour and minute variants KafkaConfig also defines (glassbox's engine reads only the .ms ones).
  for (const [name, fallback] of Object.entries(SYNONYM_DEFAULTS))
    if (!rows.has(name)) rows.set(name, { set: undefined, fallback, type: name.endsWith('.ms') ? 'LONG' : 'INT' });
  const others = new Set([...Object.keys(dyn.broker), ...Object.keys(dyn.defaults)].filter((n) => !rows.has(n)));
  for (const name of others) rows.set(name, { set: undefined, fallback: undefined, type: 'STRING' });
  const row = (n: string) => rows.get(n);
  return [...rows.keys()].sort().map((name) => {
    const r = rows.get(name) as { set: unknown; fallback: unknown; type: ConfigValueType };
    const synonyms = configSynonyms(
      name,
      dyn,
      (n) => row(n)?.set,
      (n) => row(n)?.fallback,
    );
    // The value KafkaConfig holds; glassbox's effective default where Kafka's is null (log.retention.ms).
    const value = synonyms[0]?.value ?? render(r.set ?? r.fallback ?? '');
    return described(name, value, synonyms, !DYNAMIC_BROKER_CONFIGS.has(name), r.type);
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
        defaults[name] as string,
        [{ name, value: defaults[name] as string, source: 'DYNAMIC_DEFAULT_BROKER_CONFIG' }],
        !DYNAMIC_BROKER_CONFIGS.has(name),
        'STRING',
      ),
    );
}
