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
