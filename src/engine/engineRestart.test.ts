import { describe, expect, it } from 'vitest';
import { ManualClock } from './Clock';
import { deleteRecordsOnLeader } from './cluster/AdminOperations';
import { readStoredCluster } from './cluster/StoredCluster';
import { makeBatch, TestClient } from './cluster/testing';
import { Engine } from './engine';
import { StoreWriter } from './log/StoreWriter';
import { MapStore } from './log/testSupport';

const BROKER_CONFIG = { 'zookeeper.session.timeout.ms': 6000, 'replica.high.watermark.checkpoint.interval.ms': 500 };
const TOPIC_DEFAULTS = { 'flush.messages': 1 };
const BROKERS = [1, 2, 3, 4].map((id) => ({ id }));

const settle = async (writer: StoreWriter) => {
  await writer.settled();
  for (let i = 0; i < 20; i++) await Promise.resolve();
};

/** A new page on the same Store: read what it holds, then start an engine on it (nothing else carried over). */
/** A four-broker engine on a fresh Store, as first started, with topic orders (RF 2, start index 0). */
function firstStart(ordersPartitions: number): {
  store: MapStore;
  clock: ManualClock;
  writer: StoreWriter;
  engine: Engine;
} {
  const store = new MapStore();
  const clock = new ManualClock(0);
  const writer = new StoreWriter(store);
  const engine = new Engine({
    seed: 3,
    store,
    clock,
    writer,
    brokerConfig: BROKER_CONFIG,
    topicDefaults: TOPIC_DEFAULTS,
    brokers: BROKERS,
  });
  engine.tick(100);
  engine.createTopic({ name: 'orders', partitions: ordersPartitions, replicationFactor: 2, fixedStartIndex: 0 });
  engine.tick(300);
  return { store, clock, writer, engine };
}

async function restartFrom(
  store: MapStore,
  clock: ManualClock,
  options: { brokerConfig: Record<string, number>; brokers: { id: number }[] },
): Promise<Engine> {
  const writer = new StoreWriter(store);
  const stored = await readStoredCluster(store, { clock, writer, topicDefaults: TOPIC_DEFAULTS });
  return new Engine({ seed: 3, store, clock, writer, stored, topicDefaults: TOPIC_DEFAULTS, ...options });
}

/**
 * A ZooKeeper-mode cluster restart from what the Store kept (KafkaServer.startup: LogManager
 * loadLogs with the replication-offset-checkpoint, broker registration, then the controller's
 * KafkaController.onControllerFailover reading /brokers/topics, partition states and
 * /admin/reassign_partitions from ZooKeeper).
 */
describe('Engine restarted from its Store', () => {
  it('comes back with its topics, configs, partition states, reassignment in progress and high watermarks', async () => {
    const { store, clock, writer, engine: before } = firstStart(2);
    before.alterTopicConfig('orders', { 'retention.ms': 3_600_000, 'segment.bytes': 4096 });
    const client = new TestClient(before.cluster);
    expect(client.produce(1, 'orders', 0, makeBatch(['a', 'b', 'c']), -1)?.errorCode).toBe('NONE');
    before.tick(200);
    // Broker 4 is down, so moving orders-1 onto it cannot finish: the reassignment stays in progress.
    before.killBroker(4);
    before.tick(7000);
    before.reassignPartitions([{ topic: 'orders', partition: 1, replicas: [4, 3] }]);
    before.tick(1000);
    const states = [0, 1].map((p) => before.cluster.partitionState('orders', p));
    const epoch = before.cluster.controllerEpoch();
    expect(before.cluster.zk.exists('/admin/reassign_partitions')).not.toBeNull();
    await settle(writer);

    // A new page: the same Store, nothing else.
    const after = await restartFrom(store, clock, { brokerConfig: BROKER_CONFIG, brokers: BROKERS });
    // Before anything runs, each broker hosts its logs at the checkpointed high watermark.
    expect(after.cluster.broker(1).replicaManager.logs.get('orders-0')?.checkpointedHighWatermark).toBe(3);
    expect(after.cluster.broker(2).replicaManager.logs.get('orders-0')?.checkpointedHighWatermark).toBe(3);
    expect(after.cluster.zk.tryGetData('/admin/reassign_partitions')).toEqual(
      before.cluster.zk.tryGetData('/admin/reassign_partitions'),
    );
    expect(after.cluster.assignment('orders')).toEqual([
      [1, 2],
      [4, 3, 2],
    ]);
    const completed: unknown[] = [];
    after.subscribe((e) => completed.push(e), ['reassignmentCompleted']);
    after.tick(2000);

    expect(after.topicNames()).toEqual(['orders']);
    expect(after.cluster.topicOverrides('orders')).toEqual({ 'retention.ms': 3_600_000, 'segment.bytes': 4096 });
    // The recovered log runs with the topic's config from /config/topics, not a default.
    expect(after.leaderReplica('orders', 0)?.log.config['retention.ms']).toBe(3_600_000);
    // Broker 4 is back with the restart: the new controller resumes the reassignment and finishes it.
    expect(completed).toHaveLength(1);
    expect(after.cluster.assignment('orders')).toEqual([
      [1, 2],
      [4, 3],
    ]);
    expect(after.cluster.zk.exists('/admin/reassign_partitions')).toBeNull();
    expect(after.cluster.controllerEpoch()).toBe(epoch + 1);
    expect(after.cluster.partitionState('orders', 0)).toMatchObject({ leader: states[0]?.leader });
    const leader0 = after.leaderReplica('orders', 0);
    expect([leader0?.log.logEndOffset, leader0?.highWatermark]).toEqual([3, 3]);
    // Producer ids continue from /latest_producer_id_block, and new records follow the old ones.
    expect(new TestClient(after.cluster).produce(1, 'orders', 0, makeBatch(['d']), -1)).toMatchObject({
      errorCode: 'NONE',
      baseOffset: 3,
    });
  });
});

/**
 * LogCleanerManager reads every log dir's cleaner-offset-checkpoint when the broker starts
 * (LogCleanerManager.allCleanerCheckpoints): a restart from the Store continues cleaning where it
 * stopped instead of counting the whole log dirty again.
 */
describe('Engine restarted from its Store: the cleaner checkpoint', () => {
  it('DynamicBrokerConfig.initialize: dynamic broker configs in /config/brokers survive a restart of the whole cluster', async () => {
    const { store, clock, writer, engine: before } = firstStart(1);
    before.cluster.alterBrokerConfig(2, {
      'log.retention.ms': '60000',
      'sasl.kerberos.min.time.before.relogin': '58000',
    });
    before.cluster.alterBrokerConfig(null, { 'log.cleaner.backoff.ms': '4000' });
    before.tick(10);
    await settle(writer);

    const after = await restartFrom(store, clock, { brokerConfig: BROKER_CONFIG, brokers: BROKERS });
    after.tick(1000);
    expect(after.cluster.broker(2).dynamicConfig.currentDynamicBrokerConfigs).toEqual({
      'log.retention.ms': '60000',
      'sasl.kerberos.min.time.before.relogin': '58000',
    });
    expect(after.cluster.broker(1).dynamicConfig.brokerConfig()['log.cleaner.backoff.ms']).toBe(4000);
    expect(after.cluster.broker(2).replicaManager.partitions.get('orders-0')?.config['retention.ms']).toBe(60_000);
    expect(after.cluster.broker(1).replicaManager.partitions.get('orders-0')?.config['retention.ms']).toBe(604_800_000);
  });

  it('brings back each log dir’s cleaner-offset-checkpoint', async () => {
    const store = new MapStore();
    const clock = new ManualClock(0);
    const writer = new StoreWriter(store);
    const brokerConfig = { ...BROKER_CONFIG, 'log.cleaner.backoff.ms': 1000 };
    const before = new Engine({
      seed: 3,
      store,
      clock,
      writer,
      brokerConfig,
      topicDefaults: TOPIC_DEFAULTS,
      brokers: [{ id: 1 }],
    });
    before.tick(100);
    before.createTopic({
      name: 'prices',
      partitions: 1,
      replicationFactor: 1,
      configs: { 'cleanup.policy': 'compact', 'segment.bytes': 200 },
    });
    before.tick(300);
    const client = new TestClient(before.cluster);
    const key = new TextEncoder().encode('k');
    for (let i = 0; i < 10; i++)
      expect(client.produce(1, 'prices', 0, makeBatch([`v${i}`.padEnd(60, '.')], { key }), -1)?.errorCode).toBe('NONE');
    before.tick(3000);
    const cleaned = before.cluster.broker(1).logManager.cleanerCheckpointOffsets();
    expect(cleaned.get('prices-0')).toBeGreaterThan(0);
    await settle(writer);

    const after = await restartFrom(store, clock, { brokerConfig, brokers: [{ id: 1 }] });
    expect(after.cluster.broker(1).logManager.cleanerCheckpointOffsets()).toEqual(cleaned);
  });
});

/**
 * Issue 25, log recovery items 3 and 4, at the broker: Kafka's LogManager.shutdown flushes the
 * logs, writes each log dir's recovery-point-offset-checkpoint and log-start-offset-checkpoint and
 * then `.kafka_cleanshutdown`, which the next LogManager.loadLogs reads (no segment recovered,
 * LogLoaderTest.testCleanShutdownFile) and deletes; a broker whose process died instead rebuilds
 * its producer state and takes a producer snapshot at the log end
 * (UnifiedLog.rebuildProducerState -> ProducerStateManager.takeSnapshot).
 */
describe('Engine restart: clean shutdown marker, recovery points, producer snapshot at the log end', () => {
  const DIR = 'broker-1/var/kafka-logs';
  /** One broker on `store` with topic orders (one partition) holding `batch`; returns the engine and its writer. */
  function oneBrokerWith(store: MapStore, clock: ManualClock, batch: Uint8Array) {
    const writer = new StoreWriter(store);
    const engine = new Engine({ seed: 3, store, clock, writer, brokers: [{ id: 1 }], topicDefaults: {} });
    engine.tick(100);
    engine.createTopic({ name: 'orders', partitions: 1, replicationFactor: 1 });
    engine.tick(300);
    expect(new TestClient(engine.cluster).produce(1, 'orders', 0, batch, -1)?.errorCode).toBe('NONE');
    engine.tick(100);
    return { engine, writer };
  }

  /** A new process on the same store: what it reads, and its engine once started. */
  async function restart(store: MapStore, clock: ManualClock, ms: number) {
    const stored = await readStoredCluster(store, { clock, writer: new StoreWriter(store) });
    const writer = new StoreWriter(store);
    const engine = new Engine({ seed: 3, store, clock, writer, stored, brokers: [{ id: 1 }] });
    engine.tick(ms);
    await settle(writer);
    return stored;
  }

  it('LogManager.shutdown: .kafka_cleanshutdown and the recovery points are written; the restart recovers nothing and deletes the marker', async () => {
    const store = new MapStore();
    const clock = new ManualClock(0);
    const { engine, writer } = oneBrokerWith(store, clock, makeBatch(['a', 'b', 'c']));
    engine.stopBroker(1);
    for (let i = 0; i < 600 && engine.cluster.broker(1).state !== 'down'; i++) engine.tick(100);
    await settle(writer);
    expect(store.files.has(`${DIR}/.kafka_cleanshutdown`)).toBe(true);
    expect(new TextDecoder().decode(store.files.get(`${DIR}/recovery-point-offset-checkpoint`))).toContain(
      'orders 0 3',
    );
    expect(store.files.has(`${DIR}/log-start-offset-checkpoint`)).toBe(true);

    const stored = await restart(store, clock, 100);
    const report = stored.reports.find((r) => r.dir === `${DIR}/orders-0`)?.report;
    expect(report?.hadCleanShutdown).toBe(true);
    expect(report?.segments.every((s) => !s.recovered)).toBe(true);
    expect(store.files.has(`${DIR}/.kafka_cleanshutdown`)).toBe(false);
  });

  it('DeleteRecords survives a restart: LogManager.checkpointLogStartOffsets lists the moved log start, LogLoader starts the log there', async () => {
    const store = new MapStore();
    const clock = new ManualClock(0);
    const { engine, writer } = oneBrokerWith(store, clock, makeBatch(['a', 'b', 'c']));
    expect(deleteRecordsOnLeader(engine.cluster, 1, 'orders', 0, 2).errorCode).toBe('NONE');
    engine.stopBroker(1);
    for (let i = 0; i < 600 && engine.cluster.broker(1).state !== 'down'; i++) engine.tick(100);
    await settle(writer);
    expect(new TextDecoder().decode(store.files.get(`${DIR}/log-start-offset-checkpoint`))).toContain('orders 0 2');

    const writer2 = new StoreWriter(store);
    const stored = await readStoredCluster(store, { clock, writer: writer2 });
    const again = new Engine({ seed: 3, store, clock, writer: writer2, stored, brokers: [{ id: 1 }] });
    again.tick(2000);
    expect(again.cluster.broker(1).replicaManager.logs.get('orders-0')?.log.logStartOffset()).toBe(2);
  });

  it('UnifiedLog.rebuildProducerState -> takeSnapshot: after a crash the rebuilt producer state is snapshotted at the log end', async () => {
    const store = new MapStore();
    const clock = new ManualClock(0);
    const idempotent = { producerId: 0, producerEpoch: 0, baseSequence: 0 };
    const { engine, writer } = oneBrokerWith(store, clock, makeBatch(['a', 'b', 'c'], idempotent));
    engine.cluster.broker(1).replicaManager.logs.get('orders-0')?.log.flush();
    await settle(writer);
    expect([...store.files.keys()].filter((p) => p.endsWith('.snapshot'))).toEqual([]);

    // The process dies (no shutdown): the next one loads the log and rebuilds producer state from the batches.
    const stored = await restart(store, clock, 2000);
    expect(stored.reports.find((r) => r.dir === `${DIR}/orders-0`)?.report.hadCleanShutdown).toBe(false);
    expect([...store.files.keys()].filter((p) => p.endsWith('.snapshot'))).toEqual([
      `${DIR}/orders-0/00000000000000000003.snapshot`,
    ]);
  });
});
