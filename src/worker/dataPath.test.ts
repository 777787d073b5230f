import { describe, expect, it } from 'vitest';
import { ManualClock } from '../engine/Clock';
import { isKafkaError } from '../engine/errors';
import { StoreWriter } from '../engine/log/StoreWriter';
import { DeferredStore, drain } from '../engine/log/testSupport';
import { MemoryStore } from '../storage/MemoryStore';
import { validateLogFile } from '../engine/apps/importPartition';
import { exportPartitionZip, importPartitionZip } from '../engine/apps';
import { DataPath } from '../engine';
import { addSeedsLookupExample, SEEDS_TARGET, SEEDS_TOPIC } from '../engine/apps/demo';
import { PANEL_CLIENT_ID, panelProducerConfig } from '../engine/apps/ProducerApp';
import { ClusterApps, DEMO_TOPIC_DEFAULTS } from '../engine/apps/ClusterApps';
import { sameScenario } from '../engine/apps/sameScenario';
import { lookupView, readStoredCluster, recordWindow, recoveryView, segmentDump } from '../engine';
import { SCENARIO_EPOCH_MS } from '../engine/apps/scenarioTime';
import { demoWithPanel } from './demoWithPanel.testing';

const enc = new TextEncoder();

function demo(store = new MemoryStore()) {
  const recovered = new Map();
  const clock = new ManualClock(SCENARIO_EPOCH_MS);
  const apps = new ClusterApps(1, 'demo', { store, recoveredLogs: recovered, clock });
  const data = new DataPath(apps.engine, recovered);
  return { store, apps, data, clock, writer: new StoreWriter(store) };
}

/** The panel's producer (acks=all, linger.ms=5, sticky) with its metadata for `orders` fetched. */
function ordersProducer(apps: ClusterApps) {
  const producer = apps.createProducer({
    clientId: PANEL_CLIENT_ID,
    config: panelProducerConfig({ acks: 'all', 'linger.ms': 5, 'batch.size': 16384, partitioner: 'sticky' }),
    salt: 0x5eed0001,
  });
  producer.warmUp('orders');
  apps.tick(500);
  return producer;
}

describe('the data path reads the engine the board runs', () => {
  it('shows each partition through its leader replica, and a keyed record lands where murmur2 says', () => {
    const { apps, data } = demo();
    const producer = ordersProducer(apps);
    const sent = producer.send('orders', enc.encode('alice'), enc.encode('hello'), []);
    apps.tick(500);
    expect(sent.choice?.strategy).toBe('key-hash');
    const partition = sent.choice?.partition as number;
    const views = data.views().filter((v) => v.topic === 'orders');
    expect(views).toHaveLength(6);
    const v = views[partition];
    // The leader is the broker the controller wrote into the partition's state znode.
    expect(v?.leader).toBe(apps.cluster.partitionState('orders', partition)?.leader);
    const window = recordWindow('orders', partition, data.log('orders', partition), {
      topic: 'orders',
      partition,
      from: 'end',
      count: 50,
    });
    expect(window.records.some((r) => r.key === 'alice' && r.value === 'hello')).toBe(true);
    expect(v?.highWatermark).toBeLessThanOrEqual(v?.logEndOffset as number);
  });

  it('killing the leader moves the partition view to the new leader', () => {
    const { apps, data } = demo();
    apps.tick(1000);
    const before = data.replica('orders', 0)?.broker as number;
    apps.cluster.killBroker(before);
    apps.tick(10_000);
    const after = data.replica('orders', 0)?.broker;
    expect(after).toBeDefined();
    expect(after).not.toBe(before);
  });
});

describe("the seeds' lookup example", () => {
  it('has segments 0, 170410, 239430 and finds 170418 through the index entry [8, 1325]', () => {
    const { apps, data, clock, writer } = demo();
    apps.tick(300);
    const where = addSeedsLookupExample(data, clock, writer);
    apps.tick(300);
    expect(where).toEqual({ topic: SEEDS_TOPIC, partition: 0, offset: SEEDS_TARGET });
    const log = data.log(SEEDS_TOPIC, 0);
    expect(log.logSegments.map((s) => s.baseOffset)).toEqual([0, 170410, 239430]);
    const dump = segmentDump(SEEDS_TOPIC, 0, log, 170410);
    expect(dump.index[0]).toEqual({ offset: 170418, position: 1325 });
    const view = lookupView(SEEDS_TOPIC, 0, log, { kind: 'offset', value: 170418 });
    expect(view.answer).toMatchObject({ segmentBaseOffset: 170410, position: 1325, offset: 170418 });
    expect(view.steps.find((s) => s.kind === 'segment-chosen')).toMatchObject({ baseOffset: 170410 });
  });
});

describe('a reload is a cluster restart on the recovered files', () => {
  it('brings back the same records at the same offsets, and reports what recovery checked', async () => {
    const first = demo();
    const producer = ordersProducer(first.apps);
    for (let i = 0; i < 200; i++) producer.send('orders', enc.encode(`k${i}`), enc.encode(`v${i}`), []);
    first.apps.tick(3000); // flush.ms = 1000: everything is handed to the store
    // What was handed to the store (the recovery point) must come back; later appends may not.
    const before = first.data.views().map((v) => ({ dir: v.dir, leo: v.recoveryPoint }));
    const log2 = first.data.log('orders', 2);
    const records = recordWindow('orders', 2, log2, {
      topic: 'orders',
      partition: 2,
      from: 0,
      count: log2.recoveryPoint,
    });
    await first.writer.settled();

    const clock = new ManualClock(first.clock.now());
    const stored = await readStoredCluster(first.store, {
      clock,
      writer: new StoreWriter(first.store),
      topicDefaults: DEMO_TOPIC_DEFAULTS,
    });
    const reports = stored.reports.filter((r) => !r.dir.includes('/__')).map((r) => recoveryView(r.dir, r.report));
    expect(reports.length).toBe(18); // 6 partitions x RF 3
    expect(reports.every((r) => r.truncatedBytes === 0)).toBe(true);
    const apps = new ClusterApps(1, 'demo', { store: first.store, clock, restart: { stored, actions: [] } });
    const data = new DataPath(apps.engine, stored.logs);
    apps.tick(300);
    for (const b of before) {
      expect(data.views().find((v) => v.dir === b.dir)?.logEndOffset).toBeGreaterThanOrEqual(b.leo);
    }
    const again = recordWindow('orders', 2, data.log('orders', 2), {
      topic: 'orders',
      partition: 2,
      from: 0,
      count: 500,
    });
    expect(again.records.slice(0, records.records.length).map((r) => [r.offset, r.key, r.value])).toEqual(
      records.records.map((r) => [r.offset, r.key, r.value]),
    );
  });
});

describe('a restart after panel records were recorded in the scenario', () => {
  // Kafka's LogManager.loadLogs brings a partition's records back from its log dir; a client's
  // sends are not replayed (a KafkaProducer keeps nothing across a restart). The recorded produce
  // commands stay in the run's actions only for its link.
  it('brings the records back from the logs once, not again from the recorded produce commands', async () => {
    const store = new MemoryStore();
    const { clock, writer, apps: first } = demoWithPanel(store);
    first.apply({
      op: 'createTopic',
      name: 'ledger',
      partitions: 1,
      replicationFactor: 2,
      rackAware: true,
      startIndex: null,
    });
    first.tick(500);
    for (const k of ['a', 'b', 'c'])
      first.apply({ op: 'produceRecord', topic: 'ledger', key: k, value: k, headers: [] });
    first.tick(3000); // flush.ms = 1000: everything is handed to the store
    await writer.settled();
    const leo = new DataPath(first.engine, new Map()).log('ledger', 0).logEndOffset;
    expect(leo).toBe(3);

    const again = new ManualClock(clock.now());
    const stored = await readStoredCluster(store, {
      clock: again,
      writer: new StoreWriter(store),
      topicDefaults: DEMO_TOPIC_DEFAULTS,
    });
    const actions = JSON.parse(JSON.stringify(first.actions));
    const second = new ClusterApps(1, 'demo', {
      store,
      clock: again,
      panelProducer: true,
      restart: { stored, actions },
    });
    second.tick(3000);
    expect(new DataPath(second.engine, stored.logs).log('ledger', 0).logEndOffset).toBe(3);
    // The link is still the running scenario: a reload of it replaces nothing.
    expect(sameScenario({ seed: 1, preset: 'demo', actions, untilMs: 0 }, second)).toBe(true);
  });
});

describe('export and import of a partition', () => {
  it('round-trips the files, and a flipped bit is refused with its file, position and offset', async () => {
    const { apps, data, store, clock, writer } = demo();
    const producer = ordersProducer(apps);
    for (let i = 0; i < 60; i++) producer.send('orders', null, enc.encode(`value ${i}`), []);
    apps.tick(2000);
    const busiest = data.views().reduce((a, b) => (b.logEndOffset > a.logEndOffset ? b : a));
    const source = data.log('orders', busiest.partition);
    expect(source.logSegments[0]?.size).toBeGreaterThan(200);
    const { zip } = exportPartitionZip(source, 'orders-0');
    const exportedEnd = source.logEndOffset; // the demo's own producers may append after the export

    const topicsBefore = apps.cluster.topicNames().length;
    const logBytes = source.logSegments[0]?.log.copy() as Uint8Array;
    const secondBatch = new DataView(logBytes.buffer).getInt32(8) + 12;
    const bad = logBytes.slice();
    bad[secondBatch + 70] = (bad[secondBatch + 70] as number) ^ 1;
    let error: unknown;
    try {
      validateLogFile('orders-0/00000000000000000000.log', bad, 0, 0);
    } catch (e) {
      error = e;
    }
    expect(isKafkaError(error, 'CORRUPT_MESSAGE')).toBe(true);
    expect((error as { details: Record<string, unknown> }).details.position).toBe(secondBatch);

    const result = await importPartitionZip(data, store, clock, writer, zip, 'orders-0.zip');
    apps.tick(500);
    expect(result.topic).toBe('orders-imported');
    expect(apps.cluster.topicNames().length).toBe(topicsBefore + 1);
    expect(data.log('orders-imported', 0).logEndOffset).toBe(exportedEnd);
  });
});

describe('storage failures', () => {
  it('a full store is reported (KAFKA_STORAGE_ERROR) while the cluster keeps running in memory', async () => {
    const { apps, data } = demo(new MemoryStore({ quotaBytes: 64 * 1024 }));
    const producer = ordersProducer(apps);
    for (let i = 0; i < 2000; i++) producer.send('orders', enc.encode(`k${i}`), new Uint8Array(100), []);
    apps.tick(3000);
    await new Promise((resolve) => setTimeout(resolve, 0)); // failures are seen when the write settles
    const failure = apps.engine.storeFailures[0];
    expect(isKafkaError(failure?.error, 'KAFKA_STORAGE_ERROR')).toBe(true);
    const total = data.views().reduce((n, v) => n + v.logEndOffset, 0);
    expect(total).toBeGreaterThanOrEqual(2000);
  });
});

describe('durability: the board writes through the host’s one StoreWriter', () => {
  it('every record below a partition’s durable offset comes back after a restart, at the same offset with the same key', async () => {
    const store = new DeferredStore();
    const writer = new StoreWriter(store);
    const recovered = new Map();
    const clock = new ManualClock(SCENARIO_EPOCH_MS);
    const apps = new ClusterApps(1, 'demo', { store, recoveredLogs: recovered, clock, writer });
    const data = new DataPath(apps.engine, recovered);
    const producer = ordersProducer(apps);
    // Three waves a flush apart (flush.ms = 1000): three flushes per partition, none completed yet.
    for (let wave = 0; wave < 3; wave++) {
      for (let i = 0; i < 100; i++) producer.send('orders', enc.encode(`k${wave}-${i}`), enc.encode('v'), []);
      apps.tick(1100);
    }
    expect(writer.operationsIssued).toBeGreaterThan(0); // the engine's files go through the host's writer
    const views = data.views().filter((v) => v.topic === 'orders');
    expect(views.some((v) => v.recoveryPoint > 0)).toBe(true);
    expect(views.every((v) => v.durableOffset === 0)).toBe(true);
    // The store completes its queue in order until some partition has records saved; then the
    // tab "closes" (nothing more completes).
    await drain();
    const saved = () => data.views().some((v) => v.topic === 'orders' && v.durableOffset > 0);
    while (!saved() && store.pending > 0) {
      store.complete(1);
      await drain();
    }
    store.complete(5); // a little past it, into the next flushes
    const shown = data.views().filter((v) => v.topic === 'orders');
    const expected = shown.map((v) =>
      recordWindow('orders', v.partition, data.log('orders', v.partition), {
        topic: 'orders',
        partition: v.partition,
        from: 0,
        count: v.durableOffset,
      }).records.map((r) => [r.offset, r.key]),
    );
    expect(shown.some((v) => v.durableOffset > 0)).toBe(true);
    expect(shown.some((v) => v.durableOffset < v.recoveryPoint)).toBe(true);

    // Restart on what the store holds: the operations that completed before the "close".
    const snapshot = store.files;
    const restartClock = new ManualClock(clock.now());
    const stored = await readStoredCluster(snapshot, {
      clock: restartClock,
      writer: new StoreWriter(snapshot),
      topicDefaults: DEMO_TOPIC_DEFAULTS,
    });
    const again = new ClusterApps(1, 'demo', {
      store: snapshot,
      clock: restartClock,
      restart: { stored, actions: [] },
    });
    const data2 = new DataPath(again.engine, stored.logs);
    again.tick(300);
    for (const [i, v] of shown.entries()) {
      const back = recordWindow('orders', v.partition, data2.log('orders', v.partition), {
        topic: 'orders',
        partition: v.partition,
        from: 0,
        count: v.durableOffset,
      }).records.map((r) => [r.offset, r.key]);
      expect(back).toEqual(expected[i]);
    }
  });
});
