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
