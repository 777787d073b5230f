import { describe, expect, it } from 'vitest';
import { byType, setup } from './testing/producerHarness';

// The idempotent producer's epoch bumps as Kafka 3.9's Sender and TransactionManager make them
// (apache/kafka clients/.../producer/internals/Sender.java sendProducerData / completeBatch,
// TransactionManager.canRetry / handleFailedBatch / maybeResolveSequences), tested the way
// SenderTest does: each ends with the same producer id at epoch + 1, never a second InitProducerId.
describe('Sender: the idempotent producer bumps its epoch locally (Kafka 3.9 SenderTest)', () => {
  const sentBatches = (h: ReturnType<typeof setup>) =>
    byType(h.events, 'produceRequestSent')
      .flatMap((e) => e.batches)
      .map((b) => [b.producerId, b.producerEpoch, b.baseSequence]);
  const idsAssigned = (h: ReturnType<typeof setup>) =>
    byType(h.events, 'producerIdAssigned').map((e) => [e.producerId, e.producerEpoch]);

  it('testEpochBumpOnOutOfOrderSequenceForNextBatch: OUT_OF_ORDER_SEQUENCE_NUMBER for the batch right after the last acknowledged one bumps the epoch and resends it at sequence 0', () => {
    const h = setup({ 'linger.ms': 0, 'retry.backoff.ms': 10, 'enable.idempotence': true });
    // The leader lost this producer's state after A: B, the next in line, is refused.
    h.cluster.fault = (c) =>
      c.firstValue === 'B' && c.attempt === 1 ? { kind: 'error', error: 'OUT_OF_ORDER_SEQUENCE_NUMBER' } : null;
    h.run(10);
    h.send('A');
    h.run(100);
    h.send('B');
    h.run(100);
    expect(h.reports().map((r) => r.error)).toEqual([null, null]);
    expect(byType(h.events, 'batchRetried').map((e) => e.error)).toEqual(['OUT_OF_ORDER_SEQUENCE_NUMBER']);
    expect(byType(h.events, 'producerIdRequested')).toHaveLength(1);
    expect(idsAssigned(h)).toEqual([
      [1000, 0],
      [1000, 1],
    ]);
    expect(sentBatches(h)).toEqual([
      [1000, 0, 0],
      [1000, 0, 1],
      [1000, 1, 0],
    ]);
    expect(h.cluster.values('t', 0)).toEqual(['A', 'B']);
  });

  it('testExpiryOfAllSentBatchesShouldCauseUnresolvedSequences: a batch that expired after it was sent leaves its partition unresolved, then bumps the epoch once nothing is in flight', () => {
    // A is refused, waits out a 1000 ms backoff and expires at delivery.timeout.ms in the queue:
    // whether the broker holds it is unknown, and nothing else is in flight, so the next sender
    // pass bumps the epoch (TransactionManagerTest.testBumpEpochAfterTimeoutWithoutPendingInflightRequests).
    const h = setup({
      'linger.ms': 0,
      'retry.backoff.ms': 1000,
      'request.timeout.ms': 100,
      'delivery.timeout.ms': 200,
      'enable.idempotence': true,
    });
    h.cluster.fault = (c) => (c.firstValue === 'A' ? { kind: 'error', error: 'NOT_ENOUGH_REPLICAS' } : null);
    h.run(10);
    h.send('A');
    h.run(400);
    h.send('B');
    h.run(100);
    expect(h.reports().map((r) => r.error)).toEqual(['REQUEST_TIMED_OUT', null]);
    expect(byType(h.events, 'producerIdRequested')).toHaveLength(1);
    expect(idsAssigned(h)).toEqual([
      [1000, 0],
      [1000, 1],
    ]);
    expect(sentBatches(h)).toEqual([
      [1000, 0, 0],
      [1000, 1, 0],
    ]);
    expect(h.cluster.values('t', 0)).toEqual(['B']);
  });

  it('testIdempotentUnknownProducerHandlingWhenRetentionLimitReached: UNKNOWN_PRODUCER_ID past the last acknowledged offset bumps the epoch and retries from sequence 0', () => {
    const h = setup({ 'linger.ms': 0, 'retry.backoff.ms': 10, 'enable.idempotence': true });
    // Retention removed A (offset 0): the log starts at 1 and the broker forgot the producer.
    h.cluster.fault = (c) =>
      c.firstValue === 'B' && c.attempt === 1
        ? { kind: 'error', error: 'UNKNOWN_PRODUCER_ID', logStartOffset: 1 }
        : null;
    h.run(10);
    h.send('A');
    h.run(100);
    h.send('B');
    h.run(100);
    expect(h.reports().map((r) => [r.offset, r.error])).toEqual([
      [0, null],
      [1, null],
    ]);
    expect(idsAssigned(h)).toEqual([
      [1000, 0],
      [1000, 1],
    ]);
    expect(sentBatches(h)).toEqual([
      [1000, 0, 0],
      [1000, 0, 1],
      [1000, 1, 0],
    ]);
  });

  it('testUnknownProducerErrorShouldBeRetriedWhenLogStartOffsetIsUnknown: without a log start offset the batch is retried as it was', () => {
    const h = setup({ 'linger.ms': 0, 'retry.backoff.ms': 10, 'enable.idempotence': true });
    h.cluster.fault = (c) =>
      c.firstValue === 'B' && c.attempt === 1
        ? { kind: 'error', error: 'UNKNOWN_PRODUCER_ID', logStartOffset: -1 }
        : null;
    h.run(10);
    h.send('A');
    h.run(100);
    h.send('B');
    h.run(100);
    expect(h.reports().map((r) => [r.offset, r.error])).toEqual([
      [0, null],
      [1, null],
    ]);
    expect(idsAssigned(h)).toEqual([[1000, 0]]);
    expect(sentBatches(h)).toEqual([
      [1000, 0, 0],
      [1000, 0, 1],
      [1000, 0, 1],
    ]);
  });
});

// Batches in flight expire at delivery.timeout.ms as Kafka 3.9's Sender expires them
// (Sender.sendProducerData -> getExpiredInflightBatches, failBatch; ProducerBatch.done ignores
// the late answer; TransactionManager.handleCompletedBatch still learns it), tested after SenderTest.
describe('Sender: batches in flight expire at delivery.timeout.ms (Kafka 3.9 SenderTest)', () => {
  // A is refused once, then its retry is answered 95 ms late (inside request.timeout.ms) but after
  // A's delivery.timeout.ms has passed: created at 10, it expires at 160, the retry leaves at ~90.
  const config = {
    'linger.ms': 0,
    'retry.backoff.ms': 80,
    'retry.backoff.max.ms': 80,
    'request.timeout.ms': 100,
    'delivery.timeout.ms': 150,
  };
  const lateRetryOfA = (h: ReturnType<typeof setup>, second: 'ok' | 'NOT_ENOUGH_REPLICAS' = 'ok') => {
    h.cluster.fault = (c) => {
      h.cluster.responseDelayMs = c.firstValue === 'A' && c.attempt === 2 ? 95 : 0;
      if (c.firstValue !== 'A') return null;
      if (c.attempt === 1 || second !== 'ok') return { kind: 'error', error: 'NOT_ENOUGH_REPLICAS' };
      return null;
    };
  };
  const reportsWithTime = (h: ReturnType<typeof setup>) =>
    byType(h.events, 'deliveryReport').map((e) => ({
      atMs: e.atMs,
      error: e.report.error,
      message: e.report.error === null ? null : e.report.message,
    }));
  const answerTimes = (h: ReturnType<typeof setup>, batchId: number) =>
    byType(h.events, 'produceResponseReceived')
      .filter((e) => e.partitions.some((p) => p.batchId === batchId))
      .map((e) => e.atMs);
  const sendTimes = (h: ReturnType<typeof setup>) =>
    byType(h.events, 'produceRequestSent').flatMap((e) => e.batches.map((b) => ({ atMs: e.atMs, id: b.batchId })));

  it('testInflightBatchesExpireOnDeliveryTimeout: the batch fails at its delivery timeout, not when the late success arrives', () => {
    const h = setup({ ...config, 'enable.idempotence': false });
    lateRetryOfA(h);
    h.run(10);
    h.send('A');
    h.run(400);
    expect(reportsWithTime(h)).toEqual([
      {
        atMs: 160,
        error: 'REQUEST_TIMED_OUT',
        message: 'Expiring 1 record(s) for t-0: 150 ms has passed since batch creation',
      },
    ]);
    const [, lateAnswer] = answerTimes(h, sendTimes(h)[0]?.id ?? -1);
    expect(lateAnswer).toBeGreaterThan(160);
    // The broker wrote it all the same: a timed-out report means "unknown", not "not written".
    expect(h.cluster.values('t', 0)).toEqual(['A']);
  });

  it('testExpiredBatchDoesNotRetry: a retriable error arriving for an expired batch neither retries it nor reports it again', () => {
    const h = setup({ ...config, 'enable.idempotence': false });
    lateRetryOfA(h, 'NOT_ENOUGH_REPLICAS');
    h.run(10);
    h.send('A');
    h.run(400);
    expect(reportsWithTime(h).map((r) => [r.atMs, r.error])).toEqual([[160, 'REQUEST_TIMED_OUT']]);
    expect(byType(h.events, 'batchRetried')).toHaveLength(1);
    expect(byType(h.events, 'produceRequestSent')).toHaveLength(2);
  });

  it('testWhenFirstBatchExpireNoSendSecondBatchIfGuaranteeOrder: with one request in flight, the partition stays muted until the expired batch is answered', () => {
    const h = setup({ ...config, 'enable.idempotence': false, 'max.in.flight.requests.per.connection': 1 });
    lateRetryOfA(h);
    h.run(10);
    h.send('A');
    h.run(110);
    h.send('B');
    h.run(400);
    expect(reportsWithTime(h).map((r) => [r.atMs, r.error])).toEqual([
      [160, 'REQUEST_TIMED_OUT'],
      [expect.any(Number), null],
    ]);
    const sends = sendTimes(h);
    const a = sends[0]?.id ?? -1;
    const lateAnswer = answerTimes(h, a)[1] as number;
    expect(lateAnswer).toBeGreaterThan(160);
    expect(sends.filter((s) => s.id !== a).map((s) => s.atMs)).toEqual([lateAnswer]);
    expect(h.cluster.values('t', 0)).toEqual(['A', 'B']);
  });

  it('testExpiryOfFirstBatchShouldNotCauseUnresolvedSequencesIfFutureBatchesSucceed: a retried batch expiring in flight leaves its partition unresolved; the next batch succeeding resolves it without an epoch bump', () => {
    const h = setup({ ...config, 'enable.idempotence': true });
    lateRetryOfA(h);
    h.run(10);
    h.send('A');
    h.run(110);
    h.send('B'); // sequence 1, sent while A's retry is in flight
    h.run(45);
    h.send('C'); // after A expired: held back while A's fate is unknown
    h.run(400);
    expect(reportsWithTime(h).map((r) => [r.atMs, r.error])).toEqual([
      [160, 'REQUEST_TIMED_OUT'],
      [expect.any(Number), null],
      [expect.any(Number), null],
    ]);
    expect(h.reports().map((r) => r.offset)).toEqual([-1, 1, 2]);
    // The late success acknowledged sequence 0 and B acknowledged 1: no hole, no bump.
    expect(byType(h.events, 'producerIdAssigned').map((e) => [e.producerId, e.producerEpoch])).toEqual([[1000, 0]]);
    const sent = byType(h.events, 'produceRequestSent').flatMap((e) =>
      e.batches.map((b) => [e.atMs, b.producerEpoch, b.baseSequence]),
    );
    expect(sent.map(([, epoch, seq]) => [epoch, seq])).toEqual([
      [0, 0],
      [0, 0],
      [0, 1],
      [0, 2],
    ]);
    const b = sendTimes(h)[2]?.id ?? -1;
    expect(sent[3]?.[0]).toBe(answerTimes(h, b)[0]);
    expect(h.cluster.values('t', 0)).toEqual(['A', 'B', 'C']);
  });

  it('testExpiryOfFirstBatchShouldCauseEpochBumpIfFutureBatchesFail: when the expired batch was not written, the next batch is refused out of order and the epoch is bumped', () => {
    const h = setup({ ...config, 'enable.idempotence': true });
    lateRetryOfA(h, 'NOT_ENOUGH_REPLICAS'); // A's retry is refused too, after it expired
    h.run(10);
    h.send('A');
    h.run(140);
    h.send('B'); // sequence 1: a gap once A is known not to be written
    h.run(15);
    h.send('C');
    h.run(400);
    expect(h.reports().map((r) => [r.offset, r.error])).toEqual([
      [-1, 'REQUEST_TIMED_OUT'],
      [0, null],
      [1, null],
    ]);
    expect(byType(h.events, 'producerIdAssigned').map((e) => [e.producerId, e.producerEpoch])).toEqual([
      [1000, 0],
      [1000, 1],
    ]);
    expect(byType(h.events, 'producerIdRequested')).toHaveLength(1);
    // B and C start epoch 1 at sequence 0; each is written once, in order.
    expect(h.cluster.values('t', 0)).toEqual(['B', 'C']);
  });
});
