import { KafkaError } from '../errors';
import { BROKER_ALIASES } from '../log/LogConfig';
import {
  type BrokerConfig,
  type BrokerConfigInput,
  createBrokerConfig,
  KAFKA_DEFAULT_BROKER_CONFIG,
} from './BrokerConfig';
import type { CoordinationStore } from './CoordinationStore';
import { NON_DYNAMIC_BROKER_CONFIGS } from './NonDynamicBrokerConfigs';
import { createTopicConfig, type TopicConfigOverrides } from './TopicConfig';

/**
 * Kafka 3.9's dynamic broker configs in ZooKeeper mode (DynamicBrokerConfig): settings an Admin
 * client changes without a restart, kept in `/config/brokers/<id>` (one broker) and
 * `/config/brokers/<default>` (every broker), read at start-up and applied again whenever a
 * `/config/changes` notification names them. A per-broker value beats the cluster-wide default,
 * which beats server.properties.
 */

/** ZooKeeperInternals.DEFAULT_STRING: the cluster-wide entity's name under /config/brokers. */
export const DEFAULT_BROKER_ENTITY = '<default>';

/** The entity name under /config/brokers: a broker id, or null for the cluster-wide default. */
export function brokerEntity(broker: number | null): string {
  return broker === null ? DEFAULT_BROKER_ENTITY : String(broker);
}

/** What `/config/brokers/<id>` (null: `<default>`) holds (AdminZkClient.fetchEntityConfig). */
export function brokerConfigOverrides(zk: CoordinationStore, broker: number | null): Record<string, string> {
  const d = zk.tryGetData(`/config/brokers/${brokerEntity(broker)}`) as { config?: Record<string, unknown> } | null;
  return Object.fromEntries(Object.entries(d?.config ?? {}).map(([k, v]) => [k, String(v)]));
}

/** DynamicListenerConfig.ReconfigurableConfigs and SslConfigs.RECONFIGURABLE_CONFIGS: settable per broker only. */
const PER_BROKER_CONFIGS: readonly string[] = [
  'advertised.listeners',
  'listeners',
  'listener.security.protocol.map',
  'principal.builder.class',
  'ssl.protocol',
  'ssl.provider',
  'ssl.cipher.suites',
  'ssl.enabled.protocols',
  'ssl.keystore.type',
  'ssl.keystore.location',
  'ssl.keystore.password',
  'ssl.key.password',
  'ssl.truststore.type',
  'ssl.truststore.location',
  'ssl.truststore.password',
  'ssl.keymanager.algorithm',
  'ssl.trustmanager.algorithm',
  'ssl.endpoint.identification.algorithm',
  'ssl.secure.random.implementation',
  'ssl.client.auth',
  'ssl.engine.factory.class',
  'ssl.keystore.certificate.chain',
  'ssl.keystore.key',
  'ssl.truststore.certificates',
  'sasl.mechanism.inter.broker.protocol',
  'sasl.jaas.config',
  'sasl.enabled.mechanisms',
  'sasl.kerberos.service.name',
  'sasl.kerberos.kinit.cmd',
  'sasl.kerberos.ticket.renew.window.factor',
  'sasl.kerberos.ticket.renew.jitter',
  'sasl.kerberos.min.time.before.relogin',
  'sasl.kerberos.principal.to.local.rules',
  'sasl.login.refresh.window.factor',
  'sasl.login.refresh.window.jitter',
  'sasl.login.refresh.min.period.seconds',
  'sasl.login.refresh.buffer.seconds',
];

/** The other dynamic configs: LogCleaner, DynamicLogConfig, DynamicThreadPool, SocketServer, the producer state and remote log ones. */
const CLUSTER_WIDE_CONFIGS: readonly string[] = [
  'log.cleaner.threads',
  'log.cleaner.dedupe.buffer.size',
  'log.cleaner.io.buffer.load.factor',
  'log.cleaner.io.buffer.size',
  'message.max.bytes',
  'log.cleaner.io.max.bytes.per.second',
  'log.cleaner.backoff.ms',
  // ServerTopicConfigSynonyms' first synonyms, but log.message.format.version (not reconfigurable).
  'log.segment.bytes',
  'log.roll.ms',
  'log.roll.jitter.ms',
  'log.index.size.max.bytes',
  'log.flush.interval.messages',
  'log.flush.interval.ms',
  'log.retention.bytes',
  'log.retention.ms',
  'log.index.interval.bytes',
  'log.cleaner.delete.retention.ms',
  'log.cleaner.min.compaction.lag.ms',
  'log.cleaner.max.compaction.lag.ms',
  'log.segment.delete.delay.ms',
  'log.cleaner.min.cleanable.ratio',
  'log.cleanup.policy',
  'unclean.leader.election.enable',
  'min.insync.replicas',
  'compression.type',
  'compression.gzip.level',
  'compression.lz4.level',
  'compression.zstd.level',
  'log.preallocate',
  'log.message.timestamp.type',
  'log.message.timestamp.difference.max.ms',
  'log.message.timestamp.before.max.ms',
  'log.message.timestamp.after.max.ms',
  'log.message.downconversion.enable',
  'log.local.retention.ms',
  'log.local.retention.bytes',
  'num.io.threads',
  'num.replica.fetchers',
  'num.recovery.threads.per.data.dir',
  'background.threads',
  'metric.reporters',
  'max.connections',
  'max.connection.creation.rate',
  'num.network.threads',
  'max.connections.per.ip',
  'max.connections.per.ip.overrides',
  'producer.id.expiration.ms',
  'transaction.partition.verification.enable',
  'remote.log.index.file.cache.total.size.bytes',
  'remote.fetch.max.wait.ms',
  'remote.log.manager.copy.max.bytes.per.second',
  'remote.log.manager.fetch.max.bytes.per.second',
];

/** DynamicBrokerConfig.AllDynamicConfigs. */
export const DYNAMIC_BROKER_CONFIGS: ReadonlySet<string> = new Set([...PER_BROKER_CONFIGS, ...CLUSTER_WIDE_CONFIGS]);
const PER_BROKER: ReadonlySet<string> = new Set(PER_BROKER_CONFIGS);

/**
 * DynamicConfig.Broker.nonDynamicProps: every KafkaConfig name outside AllDynamicConfigs (the
 * engine's own settings too, e.g. the internal producer.id.expiration.check.interval.ms).
 */
function isNonDynamic(name: string): boolean {
  if (DYNAMIC_BROKER_CONFIGS.has(name)) return false;
  return NON_DYNAMIC_BROKER_CONFIGS.has(name) || name in KAFKA_DEFAULT_BROKER_CONFIG;
}

/** A Scala Set's toString, as Kafka's ConfigException messages print the names. */
function scalaSet(names: readonly string[]): string {
  return `Set(${names.join(', ')})`;
}

/** The log-config part of dynamic configs, by topic config name (DynamicLogConfig). */
function logDefaultsOf(configs: Readonly<Record<string, string>>): TopicConfigOverrides {
  const out: TopicConfigOverrides = {};
  for (const [name, value] of Object.entries(configs)) {
    const topicName = BROKER_ALIASES[name] ?? name;
    if (
      [
        'min.insync.replicas',
        'unclean.leader.election.enable',
        'compression.type',
        'compression.gzip.level',
        'compression.lz4.level',
        'compression.zstd.level',
      ].includes(topicName) ||
      name in BROKER_ALIASES
    )
      out[topicName] = value;
  }
  return out;
}

/** The settings of the engine's BrokerConfig among dynamic configs. */
function brokerSettingsOf(configs: Readonly<Record<string, string>>): BrokerConfigInput {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(configs)) if (name in KAFKA_DEFAULT_BROKER_CONFIG) out[name] = value;
  return out as BrokerConfigInput;
}

/**
 * DynamicBrokerConfig.validateConfigs and validateConfigTypes: a config Kafka cannot change at
 * run time, or one only a single broker may have set cluster-wide, is a ConfigException
 * (INVALID_CONFIG); values of the configs the engine models must parse. Names Kafka does not
 * define are custom configs and pass, as Kafka lets them.
 */
export function validateDynamicBrokerConfigs(configs: Readonly<Record<string, string>>, perBroker: boolean): void {
  const names = Object.keys(configs);
  const nonDynamic = names.filter(isNonDynamic);
  if (nonDynamic.length > 0)
    throw new KafkaError('INVALID_CONFIG', `Cannot update these configs dynamically: ${scalaSet(nonDynamic)}`, {});
  createBrokerConfig(brokerSettingsOf(configs));
  createTopicConfig(logDefaultsOf(configs));
  const perBrokerOnly = names.filter((n) => PER_BROKER.has(n));
  if (!perBroker && perBrokerOnly.length > 0)
    throw new KafkaError(
      'INVALID_CONFIG',
      `Cannot update these configs at default cluster level, broker id must be specified: ${scalaSet(perBrokerOnly)}`,
      {},
    );
}

/**
 * DynamicBrokerConfig.fromPersistentProps: what a broker takes from a znode, with what it may
 * not have there dropped (Kafka logs and ignores them).
 */
function fromPersistentProps(configs: Readonly<Record<string, unknown>>, perBroker: boolean): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, raw] of Object.entries(configs)) {
    if (isNonDynamic(name) || (!perBroker && PER_BROKER.has(name))) continue;
    const value = String(raw);
    // removeInvalidConfigs: a value that does not parse is dropped on its own, the others apply.
    try {
      createBrokerConfig(brokerSettingsOf({ [name]: value }));
      createTopicConfig(logDefaultsOf({ [name]: value }));
    } catch {
      continue;
    }
    out[name] = value;
  }
  return out;
}

/**
 * One broker's view of its dynamic configs (DynamicBrokerConfig's dynamicBrokerConfigs and
 * dynamicDefaultConfigs) and the settings in force from them over server.properties.
 */
export class BrokerDynamicConfig {
  private perBroker: Record<string, string> = {};
  private defaults: Record<string, string> = {};

  constructor(private readonly staticConfig: Readonly<BrokerConfig>) {}

  get currentDynamicBrokerConfigs(): Readonly<Record<string, string>> {
    return this.perBroker;
  }

  get currentDynamicDefaultConfigs(): Readonly<Record<string, string>> {
    return this.defaults;
  }

  /** updateBrokerConfig / updateDefaultConfig: the entity's znode content replaces what was known. */
  update(entity: 'broker' | 'default', persisted: Readonly<Record<string, unknown>>): void {
    const next = fromPersistentProps(persisted, entity === 'broker');
    if (entity === 'broker') this.perBroker = next;
    else this.defaults = next;
  }

  /** The broker settings in force: static ones overlaid by the cluster default, then this broker's. */
  brokerConfig(): BrokerConfig {
    const changes = brokerSettingsOf({ ...this.defaults, ...this.perBroker });
    const parsed = createBrokerConfig(changes);
    const out: BrokerConfig = { ...this.staticConfig };
    for (const k of Object.keys(changes) as (keyof BrokerConfig)[]) Object.assign(out, { [k]: parsed[k] });
    return out;
  }

  /** Topic-config defaults from dynamic log configs (DynamicLogConfig), by topic config name. */
  logDefaults(): TopicConfigOverrides {
    return { ...logDefaultsOf(this.defaults), ...logDefaultsOf(this.perBroker) };
  }
}
