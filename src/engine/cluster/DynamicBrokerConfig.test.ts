import { describe, expect, it } from 'vitest';
import type { KafkaError } from '../errors';
import { brokerConfigOverrides } from './DynamicBrokerConfig';
import { errorCodeOf, QUICK_FAILOVER_CONFIG, startCluster } from './testing';
import { CONFIG_CHANGE_EXPIRATION_MS, createConfigChangeNotification } from './ZkConfigManager';

function leaderConfig(cluster: ReturnType<typeof startCluster>['cluster'], broker: number, topic: string) {
  const p = cluster.broker(broker).replicaManager.partitions.get(`${topic}-0`);
  if (!p) throw new Error(`broker ${broker} hosts no ${topic}-0`);
  return p.config;
}

describe('config changes through /config/changes (ZkConfigManager, ZkNodeChangeNotificationListener)', () => {
  it('AdminZkClient.changeTopicConfig writes a config_change_ notification; brokers apply it when their watch fires, not within the write', () => {
    const { cluster } = startCluster(7, 2, QUICK_FAILOVER_CONFIG);
    cluster.createTopic({ name: 't', assignment: [[1, 2]] });
    cluster.tick(500);
    cluster.alterTopicConfig('t', { 'retention.ms': '1000' });
    // ConfigEntityChangeNotificationSequenceZNode: PERSISTENT_SEQUENTIAL, version 2 with the entity path.
    expect(cluster.zk.getChildren('/config/changes')).toEqual(['config_change_0000000000']);
    expect(cluster.zk.getData('/config/changes/config_change_0000000000').data).toEqual({
      version: 2,
      entity_path: 'topics/t',
    });
    // TopicConfigHandler.processConfigChanges has not run yet on either broker.
    expect(leaderConfig(cluster, 1, 't')['retention.ms']).toBe(604_800_000);
    cluster.tick(0);
    expect(leaderConfig(cluster, 1, 't')['retention.ms']).toBe(1000);
    expect(leaderConfig(cluster, 2, 't')['retention.ms']).toBe(1000);
    // A second change gets the next sequence number (the parent's cversion).
    cluster.alterTopicConfig('t', { 'retention.ms': '2000' });
    expect(cluster.zk.getChildren('/config/changes').sort()).toEqual([
      'config_change_0000000000',
      'config_change_0000000001',
    ]);
  });

  it('purgeObsoleteNotifications: a notification older than changeExpirationMs (15 min) is deleted at the next processing', () => {
    const { cluster } = startCluster(7, 2, QUICK_FAILOVER_CONFIG);
    cluster.createTopic({ name: 't', assignment: [[1, 2]] });
    cluster.tick(500);
    cluster.alterTopicConfig('t', { 'retention.ms': '1000' });
    cluster.tick(CONFIG_CHANGE_EXPIRATION_MS + 1);
    cluster.alterTopicConfig('t', { 'retention.ms': '2000' });
    cluster.tick(0);
    expect(cluster.zk.getChildren('/config/changes')).toEqual(['config_change_0000000001']);
    expect(leaderConfig(cluster, 2, 't')['retention.ms']).toBe(2000);
  });

  it('a broker restarted after the change takes the topic config from /config/topics (ZkConfigManager.startup bootstrap)', () => {
    const { cluster } = startCluster(7, 2, QUICK_FAILOVER_CONFIG);
    cluster.createTopic({ name: 't', assignment: [[1, 2]] });
    cluster.tick(500);
    cluster.killBroker(2);
    cluster.alterTopicConfig('t', { 'segment.bytes': '20000' });
    cluster.tick(2000);
    cluster.restartBroker(2);
    cluster.tick(2000);
    expect(leaderConfig(cluster, 2, 't')['segment.bytes']).toBe(20_000);
  });
});

describe('dynamic broker configs (DynamicBrokerConfig, BrokerConfigHandler)', () => {
  it('validateConfigs: a non-dynamic config is refused (DynamicBrokerConfigTest.testConfigUpdateWithSomeInvalidConfigs), nothing written', () => {
    const { cluster } = startCluster(7, 2, QUICK_FAILOVER_CONFIG);
    let message = '';
    try {
      cluster.alterBrokerConfig(1, { 'zookeeper.session.timeout.ms': '9000' });
    } catch (e) {
      message = (e as KafkaError).reason;
    }
    expect(message).toBe('Cannot update these configs dynamically: Set(zookeeper.session.timeout.ms)');
    expect(cluster.zk.exists('/config/brokers/1')).toBeNull();
    // An invalid type for a dynamic config the engine models is refused too.
    expect(errorCodeOf(() => cluster.alterBrokerConfig(1, { 'log.retention.ms': 'soon' }))).toBe('INVALID_CONFIG');
  });

  it('DynamicBrokerConfig.validateConfigs / nonDynamicConfigs: every static KafkaConfig name is refused (DynamicConfig.Broker.nonDynamicProps), a name Kafka does not define is a custom config', () => {
    const { cluster } = startCluster(7, 2, QUICK_FAILOVER_CONFIG);
    for (const name of ['socket.send.buffer.bytes', 'offsets.topic.replication.factor', 'log.retention.hours']) {
      let message = '';
      try {
        cluster.alterBrokerConfig(1, { [name]: '1' });
      } catch (e) {
        message = (e as KafkaError).reason;
      }
      expect(message).toBe(`Cannot update these configs dynamically: Set(${name})`);
    }
    expect(cluster.zk.exists('/config/brokers/1')).toBeNull();
    cluster.alterBrokerConfig(1, { 'my.custom.setting': 'x' });
    expect(brokerConfigOverrides(cluster.zk, 1)).toEqual({ 'my.custom.setting': 'x' });
  });

  it('per-broker-only configs (DynamicListenerConfig: sasl.kerberos.min.time.before.relogin) are refused at the default level, accepted for a broker', () => {
    const { cluster } = startCluster(7, 2, QUICK_FAILOVER_CONFIG);
    let message = '';
    try {
      cluster.alterBrokerConfig(null, { 'sasl.kerberos.min.time.before.relogin': '58000' });
    } catch (e) {
      message = (e as KafkaError).reason;
    }
    expect(message).toBe(
      'Cannot update these configs at default cluster level, broker id must be specified: Set(sasl.kerberos.min.time.before.relogin)',
    );
    cluster.alterBrokerConfig(1, { 'sasl.kerberos.min.time.before.relogin': '58000' });
    expect(cluster.zk.getData('/config/brokers/1').data).toEqual({
      version: 1,
      config: { 'sasl.kerberos.min.time.before.relogin': '58000' },
    });
    expect(cluster.zk.getData('/config/changes/config_change_0000000000').data).toEqual({
      version: 2,
      entity_path: 'brokers/1',
    });
    cluster.tick(0);
    expect(cluster.broker(1).dynamicConfig.currentDynamicBrokerConfigs).toEqual({
      'sasl.kerberos.min.time.before.relogin': '58000',
    });
    expect(cluster.broker(2).dynamicConfig.currentDynamicBrokerConfigs).toEqual({});
  });

  it("DynamicLogConfig: a broker's log.retention.ms applies to its logs, the <default> one to every broker's, per-broker first", () => {
    const { cluster } = startCluster(7, 2, QUICK_FAILOVER_CONFIG);
    cluster.createTopic({ name: 't', assignment: [[1, 2]] });
    cluster.createTopic({ name: 'kept', assignment: [[1, 2]], configs: { 'retention.ms': 5 } });
    cluster.tick(500);
    cluster.alterBrokerConfig(null, { 'log.retention.ms': '3000', 'producer.id.expiration.ms': '60000' });
    cluster.alterBrokerConfig(1, { 'log.retention.ms': '1000' });
    expect(leaderConfig(cluster, 1, 't')['retention.ms']).toBe(604_800_000);
    cluster.tick(0);
    expect(leaderConfig(cluster, 1, 't')['retention.ms']).toBe(1000);
    expect(leaderConfig(cluster, 2, 't')['retention.ms']).toBe(3000);
    // A topic override still beats the broker's default.
    expect(leaderConfig(cluster, 1, 'kept')['retention.ms']).toBe(5);
    expect(cluster.broker(2).dynamicConfig.brokerConfig()['producer.id.expiration.ms']).toBe(60_000);
  });

  it('DynamicBrokerConfigTest.testImproperConfigsAreRemoved: an invalid value in the znode is dropped, the others apply', () => {
    const { cluster } = startCluster(7, 1, QUICK_FAILOVER_CONFIG);
    cluster.zk.createRecursive('/config/brokers/<default>', {
      version: 1,
      config: { 'log.cleaner.backoff.ms': 'INVALID', 'producer.id.expiration.ms': '1111' },
    });
    // Written behind validation's back (an older broker, a hand edit): the broker still reads it.
    createConfigChangeNotification(cluster.zk, 'brokers/<default>');
    cluster.tick(0);
    expect(cluster.broker(1).dynamicConfig.brokerConfig()['producer.id.expiration.ms']).toBe(1111);
    expect(cluster.broker(1).dynamicConfig.brokerConfig()['log.cleaner.backoff.ms']).toBe(15_000);
  });

  it('DynamicBrokerConfig.initialize: a restarted broker starts with the dynamic configs in /config/brokers', () => {
    const { cluster } = startCluster(7, 2, QUICK_FAILOVER_CONFIG);
    cluster.createTopic({ name: 't', assignment: [[1, 2]] });
    cluster.tick(500);
    cluster.alterBrokerConfig(2, { 'log.segment.bytes': '30000' });
    cluster.tick(0);
    cluster.stopBroker(2);
    cluster.tick(2000);
    cluster.restartBroker(2);
    cluster.tick(2000);
    expect(cluster.broker(2).dynamicConfig.currentDynamicBrokerConfigs).toEqual({ 'log.segment.bytes': '30000' });
    expect(leaderConfig(cluster, 2, 't')['segment.bytes']).toBe(30_000);
    expect(leaderConfig(cluster, 1, 't')['segment.bytes']).toBe(1024 * 1024 * 1024);
  });

  it('DynamicBrokerConfigTest.testEnableDefaultUncleanLeaderElection: turning it on by default elects offline partitions', () => {
    const { cluster, events } = startCluster(4, 2, { ...QUICK_FAILOVER_CONFIG, 'zookeeper.session.timeout.ms': 1000 });
    cluster.createTopic({ name: 't', assignment: [[1, 2]] });
    cluster.tick(500);
    cluster.killBroker(2);
    cluster.tick(1500);
    cluster.killBroker(1);
    cluster.tick(1500);
    cluster.restartBroker(2);
    cluster.tick(1500);
    expect(cluster.partitionState('t', 0)).toMatchObject({ leader: -1, isr: [1] });
    cluster.alterBrokerConfig(null, { 'unclean.leader.election.enable': 'true' });
    cluster.tick(0);
    expect(cluster.partitionState('t', 0)).toMatchObject({ leader: 2, isr: [2] });
    expect(events.filter((e) => e.type === 'uncleanLeaderElection')).toHaveLength(1);
  });
});
