import { describe, expect, it } from 'vitest';
import { ManualClock } from '../Clock';
import { encodeRecordBatch, readProducerSnapshot } from '../codec';
import { UnifiedLog } from '../log/UnifiedLog';
import { StoreWriter } from '../log/StoreWriter';
import { MapStore } from '../log/testSupport';
import { createBrokerConfig } from './BrokerConfig';
import { Cluster } from './Cluster';
import { Partition } from './Partition';
import { PartitionLogReplica } from './PartitionLogReplica';
import { makeBatch, TestClient } from './testing';
import { ProducerStateManager } from './ProducerStateManager';
import { createTopicConfig } from './TopicConfig';

const T0 = 1_700_000_000_000;
const DIR = 'orders-0';
const CONFIG = { 'segment.bytes': 300 };
const enc = new TextEncoder();

function idempotentBatch(
  producerId: number,
  epoch: number,
  baseSequence: number,
  count: number,
  ts: number,
): Uint8Array {
  return encodeRecordBatch({
    baseOffset: 0,
    partitionLeaderEpoch: -1,
    attributes: 0,
    lastOffsetDelta: count - 1,
    baseTimestamp: ts,
    maxTimestamp: ts,
    producerId,
    producerEpoch: epoch,
    baseSequence,
    records: Array.from({ length: count }, (_, i) => ({
      attributes: 0,
      timestampDelta: 0,
      offsetDelta: i,
      key: enc.encode(`k${i}`),
      value: enc.encode(`v${baseSequence + i}`),
      headers: [],
    })),
  });
}

/** A leader partition over a UnifiedLog in a MapStore; `produce` appends and updates the producer state as ReplicaManager does. */
function leader(store = new MapStore(), clock = new ManualClock(T0)) {
  const writer = new StoreWriter(store);
  const log = new UnifiedLog({ dir: DIR, config: CONFIG, clock, writer });
  const replica = new PartitionLogReplica(log);
  const p = new Partition('orders', 0, 1, replica, createTopicConfig(CONFIG), '/var/kafka-logs');
  const seq = new Map<number, number>();
  const produce = (producerId: number, count = 2) => {
    const s = seq.get(producerId) ?? 0;
    const info = replica.appendAsLeader(idempotentBatch(producerId, 0, s, count, clock.now()), 0);
    for (const h of info.batches) p.producerState.update(h);
    seq.set(producerId, s + count);
  };
  return { store, writer, log, replica, p, produce, clock };
}

const snapshotsIn = (store: MapStore) => [...store.files.keys()].filter((k) => k.endsWith('.snapshot')).sort();

describe('producer-state snapshots (ProducerStateManager.takeSnapshot, UnifiedLog.roll, LogLoader)', () => {
  it('every roll writes <new base offset>.snapshot holding the state of every offset below it (UnifiedLog.roll)', async () => {
    const { store, writer, log, replica, produce } = leader();
    for (let i = 0; i < 12; i++) produce(i % 3 === 0 ? 7 : 9);
    await writer.settled();
    const bases = log.logSegments.slice(1).map((s) => s.baseOffset);
    expect(bases.length).toBeGreaterThan(2);
    expect(snapshotsIn(store)).toEqual(bases.map((b) => `${DIR}/${String(b).padStart(20, '0')}.snapshot`));
    for (const base of bases) {
      const expected = new ProducerStateManager();
      expected.rebuild(replica.batchHeaders().filter((h) => h.lastOffset < base));
      const file = store.files.get(`${DIR}/${String(base).padStart(20, '0')}.snapshot`) as Uint8Array;
      expect(readProducerSnapshot(file)).toEqual(expected.snapshotEntries());
    }
  });

  it('recovery loads the latest snapshot and replays only the later batches, reaching the state of a full rebuild (LogLoader, UnifiedLog.rebuildProducerState)', async () => {
    const { store, writer, log, p, produce, clock } = leader();
    for (let i = 0; i < 14; i++) produce(i % 2 === 0 ? 7 : 9, 1 + (i % 3));
    log.flush();
    await writer.settled();
    const latest = log.latestProducerSnapshot()?.offset as number;
    expect(latest).toBe(log.activeSegment.baseOffset);
    expect(log.logEndOffset).toBeGreaterThan(latest);

    const { log: loaded } = await UnifiedLog.load(store, DIR, CONFIG, clock);
    expect(loaded.producerSnapshotOffsets).toEqual(log.producerSnapshotOffsets);
    const replica = new PartitionLogReplica(loaded);
    const reads: number[] = [];
    const batchHeaders = replica.batchHeaders.bind(replica);
    replica.batchHeaders = (from?: number) => {
      reads.push(from ?? 0);
      return batchHeaders(from);
    };
    const recovered = new Partition('orders', 0, 1, replica, createTopicConfig(CONFIG), '/var/kafka-logs');
    expect(reads).toEqual([latest]);
    const full = new ProducerStateManager();
    full.rebuild(batchHeaders());
    expect(recovered.producerState.snapshotEntries()).toEqual(full.snapshotEntries());
    expect(recovered.producerState.snapshotEntries()).toEqual(p.producerState.snapshotEntries());
    // The next batch of producer 7 is in sequence; a retry of its last one is a duplicate.
    const last = p.producerState
      .entries()
      .find((e) => e.producerId === 7)
      ?.batches.at(-1);
    const nextSeq = (last?.lastSeq ?? 0) + 1;
    const next = replica.appendAsLeader(idempotentBatch(7, 0, nextSeq, 1, clock.now()), 0).batches[0];
    expect(next && recovered.producerState.checkLeaderAppend({ ...next })).toBeNull();
  });

  it('a corrupt latest snapshot is deleted and recovery falls back to the previous one (ProducerStateManager.loadFromSnapshot)', async () => {
    const { store, writer, log, p, produce, clock } = leader();
    for (let i = 0; i < 12; i++) produce(7);
    log.flush();
    await writer.settled();
    const offsets = log.producerSnapshotOffsets;
    const latestPath = `${DIR}/${String(offsets.at(-1)).padStart(20, '0')}.snapshot`;
    const bad = (store.files.get(latestPath) as Uint8Array).slice();
    bad[20] = (bad[20] as number) ^ 0xff;
    store.files.set(latestPath, bad);
    const w = new StoreWriter(store);
    const { log: loaded } = await UnifiedLog.load(store, DIR, CONFIG, clock, w);
    await w.settled();
    expect(loaded.producerSnapshotOffsets).toEqual(offsets.slice(0, -1));
    expect(store.files.has(latestPath)).toBe(false);
    const recovered = new Partition('orders', 0, 1, new PartitionLogReplica(loaded), createTopicConfig(CONFIG), '/d');
    expect(recovered.producerState.snapshotEntries()).toEqual(p.producerState.snapshotEntries());
  });

  it('retention deletes a snapshot with the segment named like it (UnifiedLog.deleteProducerSnapshots)', async () => {
    const { store, writer, log, produce } = leader();
    for (let i = 0; i < 12; i++) produce(7);
    log.updateHighWatermark(log.logEndOffset);
    const before = log.producerSnapshotOffsets;
    log.updateConfig({ ...CONFIG, 'retention.bytes': 250 });
    const r = log.deleteOldSegments();
    expect(r.deleted.length).toBeGreaterThan(0);
    await writer.settled();
    const gone = r.deleted.map((d) => d.baseOffset).filter((b) => before.includes(b));
    expect(gone.length).toBeGreaterThan(0);
    for (const b of gone) expect(store.files.has(`${DIR}/${String(b).padStart(20, '0')}.snapshot`)).toBe(false);
    expect(log.producerSnapshotOffsets).toEqual(before.filter((b) => !gone.includes(b)));
  });

  it('a clean shutdown writes a snapshot at the log end (UnifiedLog.close -> takeSnapshot)', async () => {
    const { store, writer, log, replica, produce } = leader();
    produce(7);
    expect(snapshotsIn(store)).toEqual([]);
    replica.takeProducerSnapshot();
    await writer.settled();
    expect(snapshotsIn(store)).toEqual([`${DIR}/${String(log.logEndOffset).padStart(20, '0')}.snapshot`]);
    expect(log.latestProducerSnapshot()?.offset).toBe(2);
  });

  it('a truncation below a snapshot deletes it (ProducerStateManager.truncateAndReload)', () => {
    const { log, replica, produce } = leader();
    produce(7);
    replica.takeProducerSnapshot();
    expect(log.producerSnapshotOffsets).toEqual([2]);
    log.truncateTo(1);
    expect(log.producerSnapshotOffsets).toEqual([]);
  });
});

describe('truncation reloads the producer state (UnifiedLog.truncateTo -> loadProducerState, ProducerStateManager.truncateAndReload)', () => {
  function broker() {
    const clock = new ManualClock(T0);
    const logFactory = (_b: number, _d: string, topic: string, partition: number) =>
      new PartitionLogReplica(
        new UnifiedLog({
          dir: `${topic}-${partition}`,
          config: CONFIG,
          clock,
          writer: new StoreWriter(new MapStore()),
        }),
      );
    const cluster = new Cluster({ clock, seed: 1, emit: () => {}, logFactory });
    cluster.addBroker({ id: 1 });
    cluster.tick(100);
    cluster.createTopic({ name: 't', partitions: 1, replicationFactor: 1, configs: CONFIG });
    cluster.tick(200);
    const client = new TestClient(cluster);
    const p = cluster.broker(1).replicaManager.partitions.get('t-0') as Partition;
    const seq = new Map<number, number>();
    const produce = (producerId: number) => {
      const s = seq.get(producerId) ?? 0;
      const b = makeBatch(['a', 'b'], {
        producerId,
        producerEpoch: 0,
        baseSequence: s,
        timestamp: cluster.scheduler.now(),
      });
      expect(client.produce(1, 't', 0, b, 1)?.errorCode).toBe('NONE');
      seq.set(producerId, s + 2);
    };
    return { cluster, clock, p, produce };
  }

  it('keeps, from the latest snapshot below the new end, a producer whose batches retention deleted (KIP-360: retention keeps producer state)', () => {
    const { cluster, p, produce } = broker();
    for (let i = 0; i < 3; i++) produce(42);
    for (let i = 0; i < 12; i++) produce(43);
    const log = (p.log as PartitionLogReplica).log;
    const bases = log.logSegments.map((s) => s.baseOffset);
    expect(bases.length).toBeGreaterThan(3);
    // DeleteRecords past producer 42's batches; retention deletes their segments.
    log.maybeIncrementLogStartOffset(bases[2] as number);
    log.deleteOldSegments();
    expect(p.log.batchHeaders().some((h) => h.producerId === 42)).toBe(false);
    expect(p.producerState.entries().map((e) => e.producerId)).toEqual([42, 43]);
    const end = p.logEndOffset();
    cluster.broker(1).replicaManager.truncate(p, end - 2, 'divergingEpoch', null);
    expect(p.logEndOffset()).toBe(end - 2);
    // Kafka reloads the latest snapshot (which still holds 42) and replays the batches after it;
    // a rebuild from the batches alone would forget 42.
    const ids = p.producerState.entries().map((e) => e.producerId);
    expect(ids).toEqual([42, 43]);
    const last43 = p.producerState
      .entries()
      .find((e) => e.producerId === 43)
      ?.batches.at(-1);
    expect(last43?.lastOffset).toBe(end - 3);
  });

  it('drops a producer the snapshot holds but that expired by the time of the truncation (ProducerStateManager.loadFromSnapshot: isProducerExpired)', () => {
    const { cluster, clock, p, produce } = broker();
    for (let i = 0; i < 3; i++) produce(42);
    for (let i = 0; i < 12; i++) produce(43);
    const log = (p.log as PartitionLogReplica).log;
    const snapshot = log.latestProducerSnapshot()?.offset as number;
    expect(snapshot).toBeGreaterThan(6);
    clock.advance(createBrokerConfig()['producer.id.expiration.ms'] + 1);
    cluster.broker(1).replicaManager.truncate(p, snapshot, 'divergingEpoch', null);
    expect(p.producerState.entries()).toEqual([]);
  });
});

describe('producer-id expiry (ProducerStateManager.removeExpiredProducers, producer.id.expiration.ms)', () => {
  it('forgets a producer idle for producer.id.expiration.ms, keeps a younger one (ProducerStateManagerTest.testProducerExpirationTimeout)', () => {
    const { p, produce, clock } = leader();
    produce(7);
    clock.advance(1000);
    produce(9);
    const ms = createBrokerConfig()['producer.id.expiration.ms'];
    expect(ms).toBe(86_400_000);
    expect(p.producerState.removeExpiredProducers(T0 + ms - 1, ms)).toEqual([]);
    expect(p.producerState.removeExpiredProducers(T0 + ms, ms)).toEqual([7]);
    expect(p.producerState.entries().map((e) => e.producerId)).toEqual([9]);
  });

  it('a producer expired by load time is not loaded from the snapshot (testRemoveExpiredPidsOnReload)', async () => {
    const { store, writer, log, produce, clock } = leader();
    for (let i = 0; i < 6; i++) produce(7);
    clock.advance(5000);
    for (let i = 0; i < 6; i++) produce(9);
    await writer.settled();
    const offset = log.latestProducerSnapshot()?.offset as number;
    const { log: loaded } = await UnifiedLog.load(store, DIR, CONFIG, clock);
    const replica = new PartitionLogReplica(loaded);
    // Loaded 3 s before producer 9 expires and well after 7 did.
    const recovered = new Partition('orders', 0, 1, replica, createTopicConfig(CONFIG), '/d', {
      now: T0 + 5000 + 3000,
      expirationMs: 7000,
    });
    const snap = readProducerSnapshot((loaded.latestProducerSnapshot() as { bytes: Uint8Array }).bytes);
    expect(snap.map((e) => e.producerId)).toEqual([7, 9]);
    expect(offset).toBe(loaded.latestProducerSnapshot()?.offset);
    expect(recovered.producerState.entries().map((e) => e.producerId)).toEqual([9]);
  });

  it('the expiry configs must be at least 1 (Kafka: atLeast(1)) and a bad value changes nothing', () => {
    expect(() => createBrokerConfig({ 'producer.id.expiration.ms': 0 })).toThrow(/INVALID_CONFIG/);
    expect(() => createBrokerConfig({ 'producer.id.expiration.check.interval.ms': 'soon' })).toThrow(/INVALID_CONFIG/);
    expect(
      createBrokerConfig({ 'producer.id.expiration.check.interval.ms': 1 })['producer.id.expiration.check.interval.ms'],
    ).toBe(1);
    expect(createBrokerConfig()['producer.id.expiration.check.interval.ms']).toBe(600_000);
  });

  it('the broker checks every producer.id.expiration.check.interval.ms; an expired producer is then accepted at any sequence (KIP-360)', () => {
    const cluster = new Cluster({
      clock: new ManualClock(T0),
      seed: 1,
      emit: () => {},
      brokerConfig: { 'producer.id.expiration.ms': 10_000, 'producer.id.expiration.check.interval.ms': 1000 },
    });
    cluster.addBroker({ id: 1 });
    cluster.tick(100);
    cluster.createTopic({ name: 't', partitions: 1, replicationFactor: 1 });
    cluster.tick(200);
    const client = new TestClient(cluster);
    const batch = (seq: number) =>
      makeBatch(['a', 'b'], {
        producerId: 42,
        producerEpoch: 0,
        baseSequence: seq,
        timestamp: cluster.scheduler.now(),
      });
    expect(client.produce(1, 't', 0, batch(0), 1)?.errorCode).toBe('NONE');
    // A gap while the producer is known: refused.
    expect(client.produce(1, 't', 0, batch(7), 1)?.errorCode).toBe('OUT_OF_ORDER_SEQUENCE_NUMBER');
    const state = () => cluster.broker(1).replicaManager.partitions.get('t-0')?.producerState.entries() ?? [];
    cluster.tick(9000);
    expect(state().map((e) => e.producerId)).toEqual([42]);
    // Expired at T0 + 10 s after its batch, removed by the next check (at most 1 s later).
    cluster.tick(2000);
    expect(state()).toEqual([]);
    expect(client.produce(1, 't', 0, batch(7), 1)?.errorCode).toBe('NONE');
  });
});
