import { describe, expect, it } from 'vitest';
import { decodeRecordBatches } from '../codec/recordBatch';
import type { ProducerEventBody } from './events';
import { estimateSizeInBytesUpperBound, type PendingRecord, ProducerBatch } from './ProducerBatch';
import { resolveProducerConfig } from './ProducerConfig';
import { ProducerMetadata } from './ProducerMetadata';
import { RecordAccumulator } from './RecordAccumulator';
import type { Rng } from '../Rng';
import { metadataResponse } from './testing/FakeBrokers';

const enc = (s: string) => new TextEncoder().encode(s);
let nextId = 1;
const rec = (value: string, timestamp = 1000, key: string | null = null): PendingRecord => ({
  sendId: nextId++,
  key: key === null ? null : enc(key),
  value: enc(value),
  headers: [],
  timestamp,
});

function metadataFor(leaders: number[]): ProducerMetadata {
  const m = new ProducerMetadata([1]);
  m.update(metadataResponse([1, 2], new Map([['t', leaders]])), 0);
  return m;
}

describe('ProducerBatch', () => {
  it('counts exactly the bytes the encoded RecordBatch v2 takes, and encodes what was appended', () => {
    const b = new ProducerBatch(1, 't', 0, 0, 16384);
    b.tryAppend(rec('hello', 1000, 'k'));
    b.tryAppend(rec('x'.repeat(300), 1003));
    b.tryAppend({
      ...rec('h', 1010),
      headers: [
        { key: 'trace', value: enc('abc') },
        { key: 'n', value: null },
      ],
    });
    const bytes = b.encode();
    expect(bytes.length).toBe(b.sizeInBytes);
    const [decoded] = decodeRecordBatches(bytes);
    expect(decoded?.records.map((r) => r.timestampDelta)).toEqual([0, 3, 10]);
    expect(decoded?.records.map((r) => r.offsetDelta)).toEqual([0, 1, 2]);
    expect(decoded).toMatchObject({ baseTimestamp: 1000, maxTimestamp: 1010, producerId: -1, baseSequence: -1 });
    expect(decoded?.records[2]?.headers).toEqual([
      { key: 'trace', value: enc('abc') },
      { key: 'n', value: null },
    ]);
  });

  it('the size upper bound used against max.request.size covers the real size', () => {
    for (const n of [0, 1, 100, 1000, 20000]) {
      const r = rec('y'.repeat(n));
      const b = new ProducerBatch(1, 't', 0, 0, 1);
      b.tryAppend(r);
      expect(estimateSizeInBytesUpperBound(r.key, r.value, r.headers)).toBeGreaterThanOrEqual(b.sizeInBytes);
    }
  });

  it('DefaultRecordBatch.estimateBatchSizeUpperBound: the batch header, MAX_RECORD_OVERHEAD (21), then key, value and headers with their lengths', () => {
    expect(estimateSizeInBytesUpperBound(null, new Uint8Array(1000), [])).toBe(61 + 21 + 1 + 2 + 1000 + 1);
    expect(estimateSizeInBytesUpperBound(enc('k'), null, [{ key: 'h', value: enc('vv') }])).toBe(
      61 + 21 + 2 + 1 + 1 + 2 + 3,
    );
  });

  it('a record bigger than batch.size still gets a batch of its own', () => {
    const b = new ProducerBatch(1, 't', 0, 0, 100);
    expect(b.tryAppend(rec('z'.repeat(500)))).toBeGreaterThan(100);
    expect(b.isFull()).toBe(true);
    expect(b.tryAppend(rec('a'))).toBe(0);
  });
});

describe('RecordAccumulator (behaviour of apache/kafka RecordAccumulatorTest: testFull, testLinger, testRetryBackoff)', () => {
  function acc(overrides: Record<string, number> = {}) {
    const events: ProducerEventBody[] = [];
    const config = resolveProducerConfig({ 'enable.idempotence': false, ...overrides });
    return { a: new RecordAccumulator('p', config, (e) => events.push(e), null), events };
  }

  it('testLinger: not ready before linger.ms, ready (leader node) after', () => {
    const { a } = acc({ 'linger.ms': 10 });
    const m = metadataFor([1]);
    a.append('t', 0, rec('v'), 0);
    expect(a.ready(m, 0).readyNodes.size).toBe(0);
    expect(a.ready(m, 0).nextReadyCheckDelayMs).toBe(10);
    expect([...a.ready(m, 10).readyNodes]).toEqual([1]);
    const drained = a.drain(m, [1], 10);
    expect(drained.get(1)?.map((b) => b.recordCount)).toEqual([1]);
  });

  it('RecordAccumulator.append sizes the buffer max(batch.size, estimateSizeInBytesUpperBound): a batch whose first record outgrew batch.size is not full (MemoryRecordsBuilder.isFull), so it lingers and takes a small record into its slack', () => {
    const { a } = acc({ 'linger.ms': 50, 'batch.size': 100 });
    const m = metadataFor([1]);
    const big = a.append('t', 0, rec('z'.repeat(500), 0), 0);
    // writeLimit 586 (61 + 21 + 2 + 500 + 1 + 1) against 570 bytes written: 16 bytes of room.
    expect(big.writeLimit).toBe(586);
    expect(big.sizeInBytes).toBe(570);
    expect(big.isFull()).toBe(false);
    expect(a.ready(m, 0).readyNodes.size).toBe(0);
    expect(a.append('t', 0, rec('a', 0), 0)).toBe(big);
    expect(big.recordCount).toBe(2);
    expect([...a.ready(m, 50).readyNodes]).toEqual([1]);
  });

  it('testAdaptiveBuiltInPartitioner (partitioner.availability.timeout.ms): a leader that had data ready but could not drain it for longer leaves the load stats', () => {
    const { a } = acc({ 'linger.ms': 0, 'batch.size': 128, 'partitioner.availability.timeout.ms': 100 });
    const m = metadataFor([1, 1, 2]);
    const reports: { ids: number[]; sizes: number[] }[] = [];
    a.onPartitionLoad = (_topic, sizes, ids, length) => {
      if (sizes) reports.push({ ids: ids.slice(0, length), sizes: sizes.slice(0, length) });
    };
    [1, 7, 2].forEach((n, partition) => {
      for (let i = 0; i < n; i++) a.append('t', partition, rec('x'.repeat(128)), 0);
    });
    a.ready(m, 1000);
    expect(reports.at(-1)).toEqual({ ids: [0, 1, 2], sizes: [1, 7, 2] });
    // Node 1 drained at 800, and has had data ready it could not send since: 200 ms > 100.
    a.updateNodeLatencyStats(1, 800, true);
    a.updateNodeLatencyStats(1, 1000, false);
    a.ready(m, 1000);
    expect(reports.at(-1)).toEqual({ ids: [2], sizes: [2] });
    // Drained again: its partitions are back in the draw.
    a.updateNodeLatencyStats(1, 1010, true);
    a.ready(m, 1010);
    expect(reports.at(-1)?.ids).toEqual([0, 1, 2]);
  });

  it('testFull: a full batch is ready at once, whatever linger.ms says', () => {
    const { a, events } = acc({ 'linger.ms': 100000, 'batch.size': 200 });
    const m = metadataFor([1]);
    let appends = 0;
    while (a.snapshot()[0]?.batches.length !== 2) {
      a.append('t', 0, rec('0123456789'), 0);
      appends++;
    }
    expect(appends).toBeGreaterThan(2);
    expect([...a.ready(m, 0).readyNodes]).toEqual([1]);
    expect(
      events.filter((e) => e.type === 'batchSealed').map((e) => (e.type === 'batchSealed' ? e.reason : '')),
    ).toEqual(['full']);
  });

  it('testRetryBackoff: a re-enqueued batch waits retry.backoff.ms (+/-20 % jitter) after its last attempt', () => {
    // Kafka 3.9's testRetryBackoff drains the retried batch only after retry.backoff.ms x 1.2
    // (the jitter's upper bound, CommonClientConfigs.RETRY_BACKOFF_JITTER).
    const { a } = acc({ 'linger.ms': 0, 'retry.backoff.ms': 100 });
    const m = metadataFor([1]);
    a.append('t', 0, rec('v'), 0);
    const [batch] = a.drain(m, a.ready(m, 0).readyNodes, 0).get(1) ?? [];
    expect(batch).toBeDefined();
    a.reenqueue(batch as ProducerBatch, 5);
    expect(a.ready(m, 5 + 80 - 1).readyNodes.size).toBe(0);
    const next = a.ready(m, 50).nextReadyCheckMs;
    expect(next).toBeGreaterThanOrEqual(5 + 80);
    expect(next).toBeLessThan(5 + 120);
    expect([...a.ready(m, 5 + 120 + 1).readyNodes]).toEqual([1]);
  });

  it('testExponentialRetryBackoff: each retry waits twice as long, within the jitter, up to retry.backoff.max.ms (KIP-580)', () => {
    const { a } = acc({ 'linger.ms': 0, 'retry.backoff.ms': 100, 'retry.backoff.max.ms': 1000 });
    const m = metadataFor([1]);
    a.append('t', 0, rec('v'), 0);
    let [batch] = a.drain(m, a.ready(m, 0).readyNodes, 0).get(1) ?? [];
    let now = 0;
    for (let i = 0; i < 8; i++) {
      a.reenqueue(batch as ProducerBatch, now);
      const term = Math.min(100 * 2 ** i, 1000);
      const lower = Math.trunc(term * 0.8);
      const upper = Math.min(Math.trunc(term * 1.2), 1000);
      expect(a.ready(m, now + lower - 1).readyNodes.size).toBe(0);
      expect(a.ready(m, now + upper).readyNodes.size).toBe(1);
      now += upper;
      [batch] = a.drain(m, [1], now).get(1) ?? [];
      expect(batch).toBeDefined();
    }
  });

  it('drains one batch per partition per request, up to max.request.size, rotating the start (drainIndex)', () => {
    const { a } = acc({ 'linger.ms': 0, 'max.request.size': 200 });
    const m = metadataFor([1, 1, 1]);
    for (const p of [0, 1, 2]) a.append('t', p, rec('x'.repeat(60)), 0);
    const first = a.drain(m, [1], 0).get(1) ?? [];
    // ~131 bytes each: the first always goes, a second would pass 200.
    expect(first.map((b) => b.partition)).toEqual([0]);
    // Kafka's drainIndex has already moved past the partition that did not fit.
    const second = a.drain(m, [1], 0).get(1) ?? [];
    expect(second.map((b) => b.partition)).toEqual([2]);
    const third = a.drain(m, [1], 0).get(1) ?? [];
    expect(third.map((b) => b.partition)).toEqual([1]);
  });

  it('a partition without a leader marks its topic unknown', () => {
    const { a } = acc({ 'linger.ms': 0 });
    const m = metadataFor([-1]);
    a.append('t', 0, rec('v'), 0);
    const r = a.ready(m, 0);
    expect(r.readyNodes.size).toBe(0);
    expect([...r.unknownLeaderTopics]).toEqual(['t']);
  });

  it('expires batches after delivery.timeout.ms', () => {
    const { a } = acc({ 'linger.ms': 0, 'delivery.timeout.ms': 40000, 'request.timeout.ms': 30000 });
    a.append('t', 0, rec('v'), 0);
    expect(a.expiredBatches(39999)).toEqual([]);
    expect(a.expiredBatches(40000).map((b) => b.recordCount)).toEqual([1]);
    expect(a.hasUndrained()).toBe(false);
  });
});

describe('RecordAccumulator.splitAndReenqueue (Kafka 3.9 ProducerBatch.split(batch.size))', () => {
  const bigBatch = (values: string[]) => {
    // As RecordAccumulatorTest.testSplitAndReenqueue builds it: a batch of 4096 bytes, beyond batch.size.
    const b = new ProducerBatch(900, 't', 0, 0, 4096);
    for (const v of values) b.tryAppend(rec(v, 0));
    return b;
  };

  it('testSplitAndReenqueue: two 1024-byte records past batch.size 1024 come back as two untried batches, in order', () => {
    const config = resolveProducerConfig({ 'enable.idempotence': false, 'linger.ms': 10, 'batch.size': 1024 });
    const a = new RecordAccumulator('p', config, () => {}, null);
    const m = metadataFor([1]);
    const big = bigBatch(['a'.repeat(1024), 'b'.repeat(1024)]);
    a.reenqueue(big, 0);
    const [drained] = a.drain(m, [1], 200).get(1) ?? [];
    expect(drained).toBe(big);
    const parts = a.splitAndReenqueue(big);
    expect(parts.map((b) => b.recordCount)).toEqual([1, 1]);
    // The parts are treated "as if they are not even tried": no attempt used, no retry backoff.
    expect(parts.map((b) => b.attempts)).toEqual([0, 0]);
    expect(parts.map((b) => b.createdMs)).toEqual([0, 0]);
    expect([...a.ready(m, 200).readyNodes]).toEqual([1]);
    const first = a.drain(m, [1], 200).get(1) ?? [];
    const second = a.drain(m, [1], 200).get(1) ?? [];
    expect([first[0]?.pendingRecords()[0]?.value, second[0]?.pendingRecords()[0]?.value]).toEqual([
      enc('a'.repeat(1024)),
      enc('b'.repeat(1024)),
    ]);
  });

  it('ProducerBatch.split fills each part up to batch.size instead of cutting the batch in halves', () => {
    const config = resolveProducerConfig({ 'enable.idempotence': false, 'batch.size': 350 });
    const a = new RecordAccumulator('p', config, () => {}, null);
    const values = Array.from({ length: 10 }, (_, i) => `${i}`.repeat(100));
    const parts = a.splitAndReenqueue(bigBatch(values));
    // 61 header bytes + 2 records of 104 bytes fit in 350; a third would not.
    expect(parts.map((b) => b.recordCount)).toEqual([2, 2, 2, 2, 2]);
    expect(parts.every((b) => b.sizeInBytes <= 350)).toBe(true);
    expect(parts.flatMap((b) => b.pendingRecords().map((r) => new TextDecoder().decode(r.value ?? undefined)))).toEqual(
      values,
    );
  });

  it('ProducerBatch.split hands an idempotent batch its sequence range on: each part starts where the last ended', () => {
    const big = bigBatch(Array.from({ length: 5 }, (_, i) => `${i}`.repeat(100)));
    big.producerId = 7;
    big.producerEpoch = 2;
    big.baseSequence = 40;
    let id = 1;
    const parts = big.split(250, () => id++);
    expect(parts.map((b) => [b.recordCount, b.producerId, b.producerEpoch, b.baseSequence])).toEqual([
      [1, 7, 2, 40],
      [1, 7, 2, 41],
      [1, 7, 2, 42],
      [1, 7, 2, 43],
      [1, 7, 2, 44],
    ]);
  });
});

describe('BufferPool (Kafka RecordAccumulator.free)', () => {
  const config = resolveProducerConfig({ 'enable.idempotence': false, 'linger.ms': 0 });

  it('a batch whose one request was answered gives its buffer to the next batch', () => {
    const a = new RecordAccumulator('p', config, () => {}, null);
    const m = metadataFor([1]);
    a.append('t', 0, rec('first'), 0);
    const [sent] = a.drain(m, [1], 0).get(1) ?? [];
    const bytes = (sent as ProducerBatch).encode();
    a.deallocate(sent as ProducerBatch);
    expect(a.free.freeBuffers).toBe(1);
    a.append('t', 0, rec('second'), 1);
    const [next] = a.drain(m, [1], 1).get(1) ?? [];
    expect((next as ProducerBatch).encode().buffer).toBe(bytes.buffer);
    expect(decodeRecordBatches((next as ProducerBatch).encode().slice())[0]?.records.map((r) => r.value)).toEqual([
      enc('second'),
    ]);
  });

  it('a batch sent twice keeps its buffer: the first request may still be on its way', () => {
    const a = new RecordAccumulator('p', config, () => {}, null);
    const b = a.append('t', 0, rec('x'), 0);
    b.encode();
    b.encode(); // a retry
    a.deallocate(b);
    expect(a.free.freeBuffers).toBe(0);
  });
});

// RecordAccumulator.partitionReady (3.9): the queue sizes handed to the partitioner, once every
// partition of the topic has an entry in the batches map, in partition order; before that (and
// with partitioner.adaptive.partitioning.enable=false) none, so the draw stays uniform.
describe('RecordAccumulator: queue sizes for adaptive partitioning (partitionReady)', () => {
  function run(adaptive: boolean, partitions: number[]) {
    const config = resolveProducerConfig({
      'enable.idempotence': false,
      'linger.ms': 1000,
      'batch.size': 100,
      'partitioner.adaptive.partitioning.enable': adaptive,
    });
    const a = new RecordAccumulator('p', config, () => {}, null);
    const reports: [string, number[] | null, number[], number][] = [];
    a.onPartitionLoad = (topic, sizes, ids, length) => reports.push([topic, sizes, ids, length]);
    for (const p of partitions) a.append('t', p, rec('x'.repeat(60)), 0);
    a.ready(metadataFor([1, 2, 1]), 0);
    return reports;
  }

  it('reports each partition’s queue length once every partition has a queue', () => {
    // Partition 0 has two batches (a 60-byte record fills half of batch.size 100), 1 one, 2 one.
    expect(run(true, [0, 0, 1, 2])).toEqual([['t', [2, 1, 1], [0, 1, 2], 3]]);
    // Partition 2 never had a batch: no stats yet.
    expect(run(true, [0, 1])).toEqual([['t', null, [], 0]]);
    expect(run(false, [0, 0, 1, 2])).toEqual([['t', null, [], 0]]);
  });
});

// Kafka 3.9 RecordAccumulator.partitionReady / shouldBackoff call retryBackoff.backoff(attempts - 1)
// at every check (ExponentialBackoff draws from ThreadLocalRandom each time): the same moment can
// be inside the backoff at one check and past it at the next. Here the draws come from the Rng.
describe('RecordAccumulator.shouldBackoff: the jitter drawn at every readiness check (KIP-580)', () => {
  it('one moment, two checks, two draws: backing off (119 ms), then ready (80 ms)', () => {
    const draws = [0.999, 0.999, 0];
    const rng = { next: () => draws.shift() ?? 0.5 } as unknown as Rng;
    const config = resolveProducerConfig({ 'enable.idempotence': false, 'linger.ms': 0, 'retry.backoff.ms': 100 });
    const a = new RecordAccumulator(
      'p',
      config,
      () => {},
      null,
      () => true,
      rng,
    );
    const m = metadataFor([1]);
    a.append('t', 0, rec('v'), 0);
    const [batch] = a.drain(m, a.ready(m, 0).readyNodes, 0).get(1) ?? [];
    a.reenqueue(batch as ProducerBatch, 0);
    expect(draws).toHaveLength(3); // nothing drawn when it is put back
    const first = a.ready(m, 90);
    expect(first.readyNodes.size).toBe(0); // shouldBackoff drew 119
    expect(first.nextReadyCheckMs).toBe(119); // timeToWaitMs drew again
    expect([...a.ready(m, 90).readyNodes]).toEqual([1]); // this check drew 80
  });
});

// apache/kafka 3.9 RecordAccumulatorTest.testReadyAndDrainWhenABatchIsBeingRetried
// (RecordAccumulator.ready / drain -> shouldBackoff(hasLeaderChangedForTheOngoingRetry, ...)).
describe('RecordAccumulator: a leader change cuts a retry’s backoff short', () => {
  function metadataAtEpoch(m: ProducerMetadata, epoch: number, now: number): void {
    const r = metadataResponse([1, 2], new Map([['t', [1]]]));
    for (const t of r.topics) for (const p of t.partitions) p.leaderEpoch = epoch;
    m.update(r, now);
  }

  it('testReadyAndDrainWhenABatchIsBeingRetried', () => {
    const config = resolveProducerConfig({
      'enable.idempotence': false,
      'linger.ms': 10,
      'retry.backoff.ms': 100,
      'retry.backoff.max.ms': 1000,
    });
    const a = new RecordAccumulator('p', config, () => {}, null);
    const m = new ProducerMetadata([1]);
    metadataAtEpoch(m, 100, 0);
    a.append('t', 0, rec('v'), 0);
    // The first attempt: ready and drained, bound for epoch 100.
    let now = 11;
    const [batch] = a.drain(m, a.ready(m, now).readyNodes, now).get(1) ?? [];
    expect([batch?.currentLeaderEpoch, batch?.attemptsWhenLeaderLastChanged]).toEqual([100, 0]);
    a.reenqueue(batch as ProducerBatch, now);
    // Inside the backoff, same leader: backs off.
    now += 1;
    expect(a.ready(m, now).readyNodes.size).toBe(0);
    expect(a.drain(m, [1], now).size).toBe(0);
    // Inside the backoff, a new leader epoch: sent at once.
    now += 1;
    metadataAtEpoch(m, 101, now);
    expect([...a.ready(m, now).readyNodes]).toEqual([1]);
    const [again] = a.drain(m, [1], now).get(1) ?? [];
    expect(again).toBe(batch);
    expect([again?.currentLeaderEpoch, again?.attemptsWhenLeaderLastChanged]).toEqual([101, 1]);
    // The next retry to that same leader waits its backoff again.
    a.reenqueue(again as ProducerBatch, now);
    now += 1;
    expect(a.ready(m, now).readyNodes.size).toBe(0);
    now += 2000;
    expect([...a.ready(m, now).readyNodes]).toEqual([1]);
  });
});
