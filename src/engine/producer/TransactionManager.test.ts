import { describe, expect, it } from 'vitest';
import { ProducerBatch } from './ProducerBatch';
import { TransactionManager } from './TransactionManager';

// apache/kafka clients/.../producer/internals/TransactionManager.java (bumpIdempotentProducerEpoch)
// and TxnPartitionEntry.startSequencesAtBeginning.
const enc = (s: string) => new TextEncoder().encode(s);
let sendId = 1;
function batch(id: number, records: number): ProducerBatch {
  const b = new ProducerBatch(id, 't', 0, 0, 16384);
  for (let i = 0; i < records; i++)
    b.tryAppend({ sendId: sendId++, key: null, value: enc(`v${i}`), headers: [], timestamp: 0 });
  return b;
}

describe('TransactionManager: local epoch bump of the idempotent producer', () => {
  it('renumbers the partition’s unresolved batches from 0 under epoch + 1, same producer id', () => {
    const tm = new TransactionManager();
    tm.setProducerIdAndEpoch({ producerId: 5, epoch: 0 });
    const b1 = batch(1, 2);
    const b2 = batch(2, 3);
    for (const b of [b1, b2]) {
      tm.assignSequence('t-0', b);
      tm.addInFlightBatch('t-0', b);
    }
    expect([b1.baseSequence, b2.baseSequence]).toEqual([0, 2]);
    tm.removeInFlightBatch('t-0', b1); // b1 failed for good
    tm.requestEpochBumpForPartition('t-0');
    expect(tm.bumpIdempotentEpochIfNeeded()).toEqual({ producerId: 5, epoch: 1 });
    expect([b2.producerId, b2.producerEpoch, b2.baseSequence, b2.sequenceHasBeenReset]).toEqual([5, 1, 0, true]);
    expect(tm.sequenceNumber('t-0')).toBe(3);
    expect(tm.lastAcked('t-0')).toBe(-1);
    expect(tm.hasProducerId()).toBe(true);
    expect(tm.bumpIdempotentEpochIfNeeded()).toBeNull(); // one bump per request
  });

  it('another partition restarts at sequence 0 under the new epoch once nothing of it is in flight (maybeUpdateProducerIdAndEpoch)', () => {
    const tm = new TransactionManager();
    tm.setProducerIdAndEpoch({ producerId: 5, epoch: 0 });
    const other = batch(3, 4);
    tm.assignSequence('t-1', other);
    tm.addInFlightBatch('t-1', other);
    tm.requestEpochBumpForPartition('t-0');
    tm.bumpIdempotentEpochIfNeeded();
    expect(tm.hasStaleProducerIdAndEpoch('t-1')).toBe(true);
    tm.maybeUpdateProducerIdAndEpoch('t-1');
    expect(tm.sequenceNumber('t-1')).toBe(4); // still in flight: left alone
    tm.handleCompletedBatch('t-1', other);
    tm.maybeUpdateProducerIdAndEpoch('t-1');
    expect(tm.sequenceNumber('t-1')).toBe(0);
    expect(tm.hasStaleProducerIdAndEpoch('t-1')).toBe(false);
  });

  it('with the epoch at Short.MAX_VALUE it asks for a new producer id instead (resetIdempotentProducerId)', () => {
    const tm = new TransactionManager();
    tm.setProducerIdAndEpoch({ producerId: 5, epoch: 32767 });
    tm.requestEpochBumpForPartition('t-0');
    expect(tm.bumpIdempotentEpochIfNeeded()).toBeNull();
    expect(tm.hasProducerId()).toBe(false);
  });
});

// apache/kafka 3.9 TransactionManager.markSequenceUnresolved / maybeResolveSequences /
// handleFailedBatch / canRetry, and the TransactionManagerTest cases named below.
describe('TransactionManager: unresolved sequences and epoch bumps (Kafka 3.9 TransactionManagerTest)', () => {
  function manager(epoch = 5) {
    const tm = new TransactionManager();
    tm.setProducerIdAndEpoch({ producerId: 15, epoch });
    const write = (records = 1) => {
      const b = batch(sendId, records);
      tm.assignSequence('t-0', b);
      tm.addInFlightBatch('t-0', b);
      return b;
    };
    // One sender pass: maybeResolveSequences, then bumpIdempotentEpochAndResetIdIfNeeded.
    const pass = () => {
      tm.maybeResolveSequences();
      return tm.bumpIdempotentEpochIfNeeded();
    };
    return { tm, write, pass };
  }

  it('testBumpEpochAfterTimeoutWithoutPendingInflightRequests', () => {
    const { tm, write, pass } = manager();
    expect(pass()).toBeNull(); // nothing to resolve
    const b1 = write();
    tm.handleCompletedBatch('t-0', b1, 500);
    expect(tm.lastAcked('t-0')).toBe(0);
    // Marking a sequence unresolved with nothing in flight that is past it is a no-op.
    tm.markSequenceUnresolved('t-0', b1);
    expect(pass()).toBeNull();
    expect(tm.hasUnresolvedSequences()).toBe(false);
    // b2 times out: the only batch in flight, so the partition resolves at once with a bump.
    const b2 = write();
    tm.markSequenceUnresolved('t-0', b2);
    tm.handleFailedBatch('t-0', b2, 'REQUEST_TIMED_OUT', false);
    expect(tm.hasUnresolvedSequences()).toBe(true);
    expect(pass()).toEqual({ producerId: 15, epoch: 6 });
    expect(tm.hasUnresolvedSequences()).toBe(false);
    expect(tm.hasProducerId()).toBe(true);
  });

  it('testNoProducerIdResetAfterLastInFlightBatchSucceeds', () => {
    const { tm, write, pass } = manager();
    const [b1, b2, b3] = [write(), write(), write()] as ProducerBatch[];
    tm.markSequenceUnresolved('t-0', b1 as ProducerBatch);
    tm.handleFailedBatch('t-0', b1 as ProducerBatch, 'REQUEST_TIMED_OUT', false);
    expect(pass()).toBeNull(); // not until the sequences are resolved
    expect(tm.hasUnresolvedSequences()).toBe(true);
    tm.handleFailedBatch('t-0', b2 as ProducerBatch, 'REQUEST_TIMED_OUT', false);
    expect(pass()).toBeNull();
    expect(tm.hasUnresolvedSequences()).toBe(true);
    // b3 succeeds: the broker holds everything up to the next sequence, no bump.
    tm.handleCompletedBatch('t-0', b3 as ProducerBatch, 500);
    expect(pass()).toBeNull();
    expect(tm.hasUnresolvedSequences()).toBe(false);
    expect(tm.producerIdAndEpoch).toEqual({ producerId: 15, epoch: 5 });
    expect(tm.sequenceNumber('t-0')).toBe(3);
  });

  it('testEpochBumpAfterLastInflightBatchFails', () => {
    const { tm, write, pass } = manager(0);
    const [b1, b2, b3] = [write(), write(), write()] as ProducerBatch[];
    tm.markSequenceUnresolved('t-0', b1 as ProducerBatch);
    tm.handleFailedBatch('t-0', b1 as ProducerBatch, 'REQUEST_TIMED_OUT', false);
    tm.handleCompletedBatch('t-0', b2 as ProducerBatch, 500);
    expect(pass()).toBeNull(); // b3 still in flight
    expect(tm.hasUnresolvedSequences()).toBe(true);
    tm.handleFailedBatch('t-0', b3 as ProducerBatch, 'REQUEST_TIMED_OUT', false);
    expect(pass()).toEqual({ producerId: 15, epoch: 1 });
    expect(tm.hasUnresolvedSequences()).toBe(false);
    expect(tm.sequenceNumber('t-0')).toBe(0);
  });

  it('testBumpEpochAndResetSequenceNumbersAfterUnknownProducerId', () => {
    const { tm, write, pass } = manager(1);
    const [b1, b2, b3, b4, b5] = [write(), write(), write(), write(), write()] as ProducerBatch[];
    expect(tm.sequenceNumber('t-0')).toBe(5);
    tm.handleCompletedBatch('t-0', b1 as ProducerBatch, 500);
    // The log now starts past the last acknowledged offset: the broker lost the producer.
    expect(tm.canRetry('t-0', b2 as ProducerBatch, 'UNKNOWN_PRODUCER_ID', 501)).toBe(true);
    expect(pass()).toEqual({ producerId: 15, epoch: 2 });
    expect([b2, b3, b4, b5].map((b) => [b?.producerEpoch, b?.baseSequence])).toEqual([
      [2, 0],
      [2, 1],
      [2, 2],
      [2, 3],
    ]);
  });

  it('TransactionManager.canRetry: OUT_OF_ORDER_SEQUENCE_NUMBER for a later batch is retried without a bump; for the next in line it bumps', () => {
    const { tm, write, pass } = manager();
    const [b1, b2] = [write(), write()] as ProducerBatch[];
    expect(tm.canRetry('t-0', b2 as ProducerBatch, 'OUT_OF_ORDER_SEQUENCE_NUMBER', 0)).toBe(true);
    expect(pass()).toBeNull();
    expect(tm.canRetry('t-0', b1 as ProducerBatch, 'OUT_OF_ORDER_SEQUENCE_NUMBER', 0)).toBe(true);
    expect(pass()).toEqual({ producerId: 15, epoch: 6 });
    expect([b1?.baseSequence, b2?.baseSequence]).toEqual([0, 1]);
    expect(tm.canRetry('t-0', b1 as ProducerBatch, 'NOT_ENOUGH_REPLICAS', 0)).toBeNull();
  });

  it('testNoFailedBatchHandlingWhenTxnManagerIsInFatalError (first half): a batch failed with OUT_OF_ORDER_SEQUENCE_NUMBER bumps the epoch, retries left or not', () => {
    const { tm, write, pass } = manager();
    tm.handleFailedBatch('t-0', write(), 'OUT_OF_ORDER_SEQUENCE_NUMBER', false);
    expect(pass()).toEqual({ producerId: 15, epoch: 6 });
    // Out of retries with any other error, nobody knows whether it was written: no bump.
    tm.handleFailedBatch('t-0', write(), 'REQUEST_TIMED_OUT', false);
    expect(pass()).toBeNull();
  });
});
