import { describe, expect, it } from 'vitest';
import { ManualClock } from '../Clock';
import { Cluster } from './Cluster';
import {
  type DescribedConfig,
  describeBrokerConfigs,
  describeTopicConfigs,
  topicConfigEntries,
} from './ConfigDescriber';
import { startCluster } from './testing';

/** A config as `value SOURCE TYPE [read-only] < synonym=value SOURCE, ...` (the one in force first). */
const describedAs = (c: DescribedConfig | undefined) =>
  c &&
  `${c.value} ${c.source} ${c.type}${c.readOnly ? ' read-only' : ''} < ${c.synonyms.map((x) => `${x.name}=${x.value} ${x.source}`).join(', ')}`;

/**
 * DescribeConfigs' view of the engine's configs (ConfigHelper.describeConfigs): the value in
 * force, its source, and the synonyms from the topic override down to Kafka's default.
 */
describe('ConfigDescriber', () => {
  it('a topic override is TOPIC_CONFIG, then the broker-level setting, then the default', () => {
    const cluster = new Cluster({
      clock: new ManualClock(0),
      seed: 1,
      emit: () => {},
      brokerConfig: { 'min.insync.replicas': 2 },
      topicDefaults: { 'segment.bytes': 65_536 },
    });
    for (let id = 1; id <= 3; id++) cluster.addBroker({ id });
    cluster.tick(200);
    cluster.createTopic({ name: 'orders', partitions: 1, replicationFactor: 3, configs: { 'retention.ms': '60000' } });
    const byName = new Map(describeTopicConfigs(cluster, 'orders', ['orders']).map((c) => [c.name, c]));
    expect(describedAs(byName.get('retention.ms'))).toBe('60000 TOPIC_CONFIG LONG < retention.ms=60000 TOPIC_CONFIG');
    expect(describedAs(byName.get('segment.bytes'))).toBe(
      '65536 STATIC_BROKER_CONFIG INT < log.segment.bytes=65536 STATIC_BROKER_CONFIG, log.segment.bytes=1073741824 DEFAULT_CONFIG',
    );
    expect(byName.get('min.insync.replicas')?.value).toBe('2');
    // "Never" is Long.MAX_VALUE, lists are comma-separated.
    expect(byName.get('flush.messages')).toMatchObject({ value: '9223372036854775807', source: 'DEFAULT_CONFIG' });
    expect(byName.get('cleanup.policy')).toMatchObject({ value: 'delete', type: 'LIST' });
  });

  it('an unknown topic is UNKNOWN_TOPIC_OR_PARTITION, an illegal name INVALID_TOPIC_EXCEPTION', () => {
    const { cluster } = startCluster(1, 3, {});
    expect(() => describeTopicConfigs(cluster, 'nope', [])).toThrow(
      expect.objectContaining({ code: 'UNKNOWN_TOPIC_OR_PARTITION' }),
    );
    expect(() => describeTopicConfigs(cluster, 'bad name', [])).toThrow(
      expect.objectContaining({ code: 'INVALID_TOPIC_EXCEPTION' }),
    );
  });

  it("a broker's configs: what server.properties set is STATIC_BROKER_CONFIG, the rest DEFAULT_CONFIG", () => {
    const { cluster } = startCluster(1, 3, { 'num.partitions': 3, 'default.replication.factor': 2 });
    const byName = new Map(describeBrokerConfigs(cluster).map((c) => [c.name, c]));
    expect(describedAs(byName.get('num.partitions'))).toBe(
      '3 STATIC_BROKER_CONFIG INT read-only < num.partitions=3 STATIC_BROKER_CONFIG, num.partitions=1 DEFAULT_CONFIG',
    );
    expect(describedAs(byName.get('auto.create.topics.enable'))).toMatch(/^true DEFAULT_CONFIG BOOLEAN read-only/);
    expect(byName.get('log.segment.bytes')).toMatchObject({ value: '1073741824', source: 'DEFAULT_CONFIG' });
    expect(byName.get('min.insync.replicas')?.readOnly).toBe(false);
  });

  it("ConfigHelper.createBrokerConfigEntry / configSynonyms: the answering broker's dynamic configs come first, DYNAMIC_BROKER_CONFIG then DYNAMIC_DEFAULT_BROKER_CONFIG", () => {
    const { cluster } = startCluster(1, 2, { 'log.cleaner.backoff.ms': 2000 });
    cluster.createTopic({ name: 'orders', partitions: 1, replicationFactor: 2 });
    cluster.alterBrokerConfig(null, { 'log.retention.ms': '3000', 'log.cleaner.backoff.ms': '4000' });
    cluster.alterBrokerConfig(1, { 'log.retention.ms': '1000' });
    cluster.tick(0);
    const topic = new Map(describeTopicConfigs(cluster, 'orders', ['orders'], 1).map((c) => [c.name, c]));
    expect(describedAs(topic.get('retention.ms'))).toBe(
      '1000 DYNAMIC_BROKER_CONFIG LONG < log.retention.ms=1000 DYNAMIC_BROKER_CONFIG, log.retention.ms=3000 DYNAMIC_DEFAULT_BROKER_CONFIG, log.retention.hours=168 DEFAULT_CONFIG',
    );
    const broker2 = new Map(describeBrokerConfigs(cluster, 2).map((c) => [c.name, c]));
    expect(describedAs(broker2.get('log.cleaner.backoff.ms'))).toBe(
      '4000 DYNAMIC_DEFAULT_BROKER_CONFIG LONG < log.cleaner.backoff.ms=4000 DYNAMIC_DEFAULT_BROKER_CONFIG, log.cleaner.backoff.ms=2000 STATIC_BROKER_CONFIG, log.cleaner.backoff.ms=15000 DEFAULT_CONFIG',
    );
    expect(broker2.get('log.retention.ms')?.value).toBe('3000');
  });

  it('ConfigHelper.configSynonyms over DynamicBrokerConfig.brokerConfigSynonyms: the hour and minute variants, and only from the first entry under the asked name', () => {
    const { cluster } = startCluster(1, 2, {});
    cluster.createTopic({ name: 'orders', partitions: 1, replicationFactor: 2 });
    cluster.alterBrokerConfig(null, { 'log.roll.ms': '5000' });
    cluster.tick(0);
    const topic = new Map(describeTopicConfigs(cluster, 'orders', ['orders'], 1).map((c) => [c.name, c]));
    // Kafka's only non-null default is log.retention.hours=168, before which no log.retention.ms
    // entry comes: the list is dropped whole and the value is the default.
    expect(describedAs(topic.get('retention.ms'))).toBe('604800000 DEFAULT_CONFIG LONG < ');
    expect(describedAs(topic.get('segment.ms'))).toBe(
      '5000 DYNAMIC_DEFAULT_BROKER_CONFIG LONG < log.roll.ms=5000 DYNAMIC_DEFAULT_BROKER_CONFIG, log.roll.hours=168 DEFAULT_CONFIG',
    );
    expect(describedAs(topic.get('segment.jitter.ms'))).toBe('0 DEFAULT_CONFIG LONG < ');
    expect(describedAs(topic.get('flush.ms'))).toBe('9223372036854775807 DEFAULT_CONFIG LONG < ');
    const broker = new Map(describeBrokerConfigs(cluster, 1).map((c) => [c.name, c]));
    expect(describedAs(broker.get('log.retention.hours'))).toBe(
      '168 DEFAULT_CONFIG INT read-only < log.retention.hours=168 DEFAULT_CONFIG',
    );
    expect(describedAs(broker.get('log.roll.hours'))).toBe(
      '168 DEFAULT_CONFIG INT read-only < log.roll.hours=168 DEFAULT_CONFIG',
    );
    expect(broker.get('log.retention.minutes')?.synonyms).toEqual([]);
    expect(broker.get('log.retention.ms')?.synonyms).toEqual([]);
    expect(describedAs(broker.get('log.roll.ms'))).toBe(
      '5000 DYNAMIC_DEFAULT_BROKER_CONFIG LONG < log.roll.ms=5000 DYNAMIC_DEFAULT_BROKER_CONFIG, log.roll.hours=168 DEFAULT_CONFIG',
    );
  });

  it('validate-only creation checks everything and writes nothing (AdminZkClient.validateTopicCreate)', () => {
    const { cluster, events } = startCluster(1, 3, { 'num.partitions': 4, 'default.replication.factor': 2 });
    const before = events.length;
    const assignment = cluster.validateCreateTopic({ name: 'later' });
    expect([assignment.length, assignment[0]?.length]).toEqual([4, 2]);
    expect(cluster.topicNames()).not.toContain('later');
    expect(events.length).toBe(before);
    expect(() => cluster.validateCreateTopic({ name: 'later', replicationFactor: 4 })).toThrow(
      'Replication factor: 4 larger than available brokers: 3.',
    );
    // The configs the topic would have, as CreateTopics v5+ answers them.
    const entries = topicConfigEntries(cluster, { 'cleanup.policy': 'compact' });
    expect(entries.find((c) => c.name === 'cleanup.policy')).toMatchObject({
      value: 'compact',
      source: 'TOPIC_CONFIG',
    });
  });
});
