import { describe, expect, it } from 'vitest';
import { defaultPartition } from '../codec/murmur2';
import { decodeRecordBatches } from '../codec/recordBatch';
import { Engine, type EngineEvent } from '../engine';
import { isKafkaError } from '../errors';
import type { Store } from '../Store';

/** A store that keeps nothing: these tests look at the engine, not at files. */
const nullStore: Store = {
  list: async () => [],
  read: async () => null,
  write: async () => {},
  append: async () => {},
  truncate: async () => {},
  delete: async () => {},
};

function engine(seed = 3) {
  const e = new Engine({ seed, store: nullStore, brokers: [{ id: 1 }, { id: 2 }, { id: 3 }] });
  e.tick(500);
  e.createTopic({ name: 'orders', partitions: 3, replicationFactor: 3, configs: { 'min.insync.replicas': 2 } });
  e.tick(500);
  return e;
}

function reports(events: EngineEvent[]) {
  return events
    .filter((x): x is Extract<EngineEvent, { type: 'deliveryReport' }> => x.type === 'deliveryReport')
    .map((x) => x.report);
}

describe('producers on the engine facade', () => {
  it('createProducer / sendMany / send: keyed records land where murmur2 says, acknowledged by the ISR', () => {
    const e = engine();
    const id = e.apply({ op: 'createProducer', config: { 'linger.ms': 5 } });
    expect(id).toBe('producer-1');
    const ids = e.apply({ op: 'sendMany', producer: id, topic: 'orders', count: 6, keyed: true, distinctKeys: 3 });
    const one = e.apply({ op: 'send', producer: id, record: { topic: 'orders', key: 'alice', value: 'hello' } });
    expect(ids).toEqual([1, 2, 3, 4, 5, 6]);
    expect(one).toBe(7);
    e.tick(200);
    const rs = reports(e.drainEvents()).sort((a, b) => a.sendId - b.sendId);
    expect(rs).toHaveLength(7);
    expect(rs.every((r) => r.error === null && r.offset >= 0)).toBe(true);
    const enc = new TextEncoder();
    expect(rs[6]?.partition).toBe(defaultPartition(enc.encode('alice'), 3));
    for (let i = 0; i < 6; i++) expect(rs[i]?.partition).toBe(defaultPartition(enc.encode(`key-${i % 3}`), 3));
    // acknowledged = replicated to the ISR: the leader's high watermark covers every offset
    const snap = e.snapshot();
    for (const r of rs) {
      const leader = snap.replicas.find(
        (x) => x.role === 'leader' && x.topic === 'orders' && x.partition === r.partition,
      );
      expect(leader?.highWatermark).toBeGreaterThan(r.offset);
    }
    expect(snap.producers).toMatchObject([{ clientId: 'producer-1', producerId: 0, pendingRecords: 0 }]);
  });

  it('emits the producer story in order, stamped with engine time', () => {
    const e = engine();
    e.drainEvents();
    const id = e.apply({ op: 'createProducer', config: { 'linger.ms': 10 } });
    e.apply({ op: 'send', producer: id, record: { topic: 'orders', partition: 1, key: null, value: 'v' } });
    e.tick(200);
    const mine = e.drainEvents().filter((x) => 'producer' in x && x.producer === id);
    const order = mine
      .map((x) => x.type)
      .filter((t) => t !== 'producerMetadataRequested' && t !== 'producerMetadataUpdated');
    expect(order).toEqual([
      'producerCreated',
      'recordWaitingForMetadata', // send() before the first metadata response
      'producerIdRequested',
      'recordPartitioned',
      'recordAppended',
      'producerIdAssigned', // the batch lingers meanwhile; it cannot leave without a producer id
      'batchSealed',
      'produceRequestSent',
      'produceResponseReceived',
      'deliveryReport',
    ]);
    const times = mine.map((x) => ('atMs' in x ? x.atMs : -1));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
  });

  it('acks=0 reports offset -1; a bad config is INVALID_CONFIG and creates nothing', () => {
    const e = engine();
    const id = e.apply({ op: 'createProducer', config: { acks: 0 } });
    e.apply({ op: 'send', producer: id, record: { topic: 'orders', partition: 0, value: 'x' } });
    e.tick(100);
    expect(reports(e.drainEvents())).toMatchObject([{ offset: -1, error: null, partition: 0 }]);
    try {
      e.apply({ op: 'createProducer', config: { 'batch.size': -5 } });
      expect.unreachable();
    } catch (err) {
      expect(isKafkaError(err, 'INVALID_CONFIG')).toBe(true);
    }
    expect(e.snapshot().producers.map((p) => p.clientId)).toEqual([id]);
  });

  it('keeps producing through a leader kill: every record acknowledged once, in order per partition', () => {
    const e = engine(11);
    const id = e.apply({ op: 'createProducer', config: { 'linger.ms': 2, 'request.timeout.ms': 3000 } });
    const sent: number[] = [];
    for (let i = 0; i < 30; i++) {
      sent.push(...e.apply({ op: 'sendMany', producer: id, topic: 'orders', count: 1 }));
      if (i === 10) {
        const leader = e.snapshot().topics[0]?.partitions[0]?.leader ?? 1;
        e.killBroker(leader);
      }
      e.tick(20);
    }
    e.tick(60_000);
    const rs = reports(e.drainEvents());
    expect(rs.map((r) => r.sendId).sort((a, b) => a - b)).toEqual(sent);
    expect(rs.every((r) => r.error === null)).toBe(true);
  });

  it('is deterministic: same seed and commands, same events', () => {
    const run = () => {
      const e = engine(5);
      const id = e.apply({ op: 'createProducer' });
      e.apply({ op: 'sendMany', producer: id, topic: 'orders', count: 20 });
      e.tick(300);
      return JSON.stringify(e.drainEvents().filter((x) => 'producer' in x));
    };
    expect(run()).toEqual(run());
  });
});

describe('events nobody takes are not built', () => {
  it('a listener for some types gets only those; per-record producer events are skipped unless someone takes them', () => {
    const e = engine();
    e.maxBufferedEvents = 0; // as the worker runs it: listeners only
    const reportsSeen: EngineEvent[] = [];
    const stop = e.subscribe((ev) => reportsSeen.push(ev), ['deliveryReport']);
    expect(e.wants('deliveryReport')).toBe(true);
    expect(e.wants('recordAppended')).toBe(false);
    expect(e.wants('recordPartitioned')).toBe(false);
    const id = e.apply({ op: 'createProducer', config: { 'linger.ms': 5 } });
    e.apply({ op: 'sendMany', producer: id, topic: 'orders', count: 5, keyed: true, distinctKeys: 5 });
    e.tick(200);
    expect(reportsSeen.map((x) => x.type)).toEqual(Array(5).fill('deliveryReport'));
    expect(reports(reportsSeen).every((r) => r.error === null)).toBe(true);

    // Someone taking every event (or the drain buffer) brings the per-record events back.
    const all: EngineEvent[] = [];
    const stopAll = e.subscribe((ev) => all.push(ev));
    expect(e.wants('recordAppended')).toBe(true);
    e.apply({ op: 'sendMany', producer: id, topic: 'orders', count: 3 });
    e.tick(200);
    expect(all.filter((x) => x.type === 'recordPartitioned')).toHaveLength(3);
    expect(all.filter((x) => x.type === 'recordAppended')).toHaveLength(3);
    expect(reports(all)).toHaveLength(3);
    stopAll();
    stop();

    // With no listener for reports, records still complete: the producer ends with nothing pending.
    expect(e.wants('deliveryReport')).toBe(false);
    e.apply({ op: 'sendMany', producer: id, topic: 'orders', count: 4 });
    e.tick(200);
    expect(e.producers.get(id).pendingRecords).toBe(0);
    e.maxBufferedEvents = 1000;
    expect(e.wants('recordAppended')).toBe(true);
  });

  it('with nobody keeping network events, batch buffers are reused, and every record reads back as sent', () => {
    const e = engine();
    e.maxBufferedEvents = 0;
    const acked: number[] = [];
    e.subscribe(
      (ev) => ev.type === 'deliveryReport' && ev.report.error === null && acked.push(ev.report.sendId),
      ['deliveryReport'],
    );
    const id = e.apply({ op: 'createProducer', config: { 'linger.ms': 1, 'batch.size': 1024 } });
    const producer = e.producers.get(id);
    const enc = new TextEncoder();
    for (let round = 0; round < 20; round++) {
      for (let i = 0; i < 40; i++) {
        producer.send({
          topic: 'orders',
          partition: 0,
          key: null,
          value: enc.encode(`v${round * 40 + i}`.padEnd(60, '.')),
        });
      }
      e.tick(20);
    }
    e.tick(500);
    expect(acked).toHaveLength(800);
    const leaderId = e.cluster.partitionState('orders', 0)?.leader as number;
    const replica = e.cluster.brokers.get(leaderId)?.replicaManager.partitions.get('orders-0');
    const values = decodeRecordBatches(replica?.log.read(0, 1 << 30, Number.MAX_SAFE_INTEGER) as Uint8Array).flatMap(
      (b) => b.records.map((r) => new TextDecoder().decode(r.value as Uint8Array).replace(/\.+$/, '')),
    );
    expect(values).toEqual(Array.from({ length: 800 }, (_, i) => `v${i}`));
  });
});
