import { describe, expect, it } from 'vitest';
import { IllegalStateException } from '../../errors';
import { NO_PRODUCER_EPOCH, NO_PRODUCER_ID } from '../../codec/batchLayout';
import {
  type TransactionMetadataInit,
  TransactionMetadata,
  type TxnTransitMetadata,
  txnPartitionSet,
} from './TransactionMetadata';
import {
  ALL_TRANSACTION_STATES,
  type TransactionState,
  transactionStateFromId,
  transactionStateFromName,
  transactionStateId,
  validPreviousStates,
} from './TransactionState';

// Kafka 3.9 TransactionMetadataTest: its producer id, transactional id and MockTime's start.
const producerId = 23423;
const transactionalId = 'txnlId';
const now = 1_700_000_000_000;
const SHORT_MAX = 32767;

function metadata(init: Partial<TransactionMetadataInit> & Pick<TransactionMetadataInit, 'producerEpoch' | 'state'>) {
  return new TransactionMetadata({
    transactionalId,
    producerId,
    lastProducerId: NO_PRODUCER_ID,
    lastProducerEpoch: NO_PRODUCER_EPOCH,
    txnTimeoutMs: 30000,
    txnLastUpdateTimestamp: now,
    ...init,
  });
}

function prepareSuccessfulIncrementProducerEpoch(
  m: TransactionMetadata,
  expectedProducerEpoch: number | null,
  at = now,
): TxnTransitMetadata {
  const result = m.prepareIncrementProducerEpoch(30000, expectedProducerEpoch, at);
  if (!('transit' in result)) throw new Error(`prepareIncrementProducerEpoch failed with ${result.error}`);
  return result.transit;
}

const tps = (...pairs: [string, number][]) =>
  txnPartitionSet(pairs.map(([topic, partition]) => ({ topic, partition })));

describe('TransactionMetadata (Kafka 3.9 TransactionMetadataTest)', () => {
  it('testInitializeEpoch: a new producer gets epoch 0 and no last epoch', () => {
    const m = metadata({ producerEpoch: NO_PRODUCER_EPOCH, state: 'Empty' });
    m.completeTransitionTo(prepareSuccessfulIncrementProducerEpoch(m, null));
    expect(m.producerId).toBe(producerId);
    expect(m.producerEpoch).toBe(0);
    expect(m.lastProducerEpoch).toBe(NO_PRODUCER_EPOCH);
  });

  it('testNormalEpochBump', () => {
    const m = metadata({ producerEpoch: 735, state: 'Empty' });
    m.completeTransitionTo(prepareSuccessfulIncrementProducerEpoch(m, null));
    expect(m.producerId).toBe(producerId);
    expect(m.producerEpoch).toBe(736);
    expect(m.lastProducerEpoch).toBe(NO_PRODUCER_EPOCH);
  });

  it('testBumpEpochNotAllowedIfEpochsExhausted', () => {
    const m = metadata({ producerEpoch: SHORT_MAX - 1, state: 'Empty' });
    expect(m.isProducerEpochExhausted).toBe(true);
    expect(() => m.prepareIncrementProducerEpoch(30000, null, now)).toThrow(IllegalStateException);
  });

  it('testTolerateUpdateTimeShiftDuringEpochBump', () => {
    const m = metadata({ producerEpoch: 1, state: 'Empty', txnStartTimestamp: 1 });
    m.completeTransitionTo(prepareSuccessfulIncrementProducerEpoch(m, 1, now - 1));
    expect(m.producerId).toBe(producerId);
    expect(m.producerEpoch).toBe(2);
    expect(m.lastProducerEpoch).toBe(1);
    expect(m.txnStartTimestamp).toBe(1);
    expect(m.txnLastUpdateTimestamp).toBe(now - 1);
  });

  it('testTolerateUpdateTimeResetDuringProducerIdRotation', () => {
    const m = metadata({ producerEpoch: 1, state: 'Empty', txnStartTimestamp: 1 });
    m.completeTransitionTo(m.prepareProducerIdRotation(producerId + 1, 30000, now - 1, true));
    expect(m.producerId).toBe(producerId + 1);
    expect(m.lastProducerEpoch).toBe(1);
    expect(m.producerEpoch).toBe(0);
    expect(m.txnStartTimestamp).toBe(1);
    expect(m.txnLastUpdateTimestamp).toBe(now - 1);
  });

  it('testTolerateTimeShiftDuringAddPartitions: the start time is set leaving Empty, kept while Ongoing', () => {
    const m = metadata({ producerEpoch: 1, state: 'Empty', txnStartTimestamp: now });
    m.completeTransitionTo(m.prepareAddPartitions([{ topic: 'topic1', partition: 0 }], now - 1));
    expect([...m.topicPartitions.keys()]).toEqual(['topic1-0']);
    expect(m.producerId).toBe(producerId);
    expect(m.lastProducerEpoch).toBe(NO_PRODUCER_EPOCH);
    expect(m.producerEpoch).toBe(1);
    expect(m.txnStartTimestamp).toBe(now - 1);
    expect(m.txnLastUpdateTimestamp).toBe(now - 1);

    m.completeTransitionTo(m.prepareAddPartitions([{ topic: 'topic2', partition: 0 }], now - 2));
    expect(new Set(m.topicPartitions.keys())).toEqual(new Set(['topic1-0', 'topic2-0']));
    expect(m.txnStartTimestamp).toBe(now - 1);
    expect(m.txnLastUpdateTimestamp).toBe(now - 2);
  });

  for (const [test, from, prepare, to] of [
    [
      'testTolerateTimeShiftDuringPrepareCommit',
      'Ongoing',
      (m: TransactionMetadata) => m.prepareAbortOrCommit('PrepareCommit', now - 1),
      'PrepareCommit',
    ],
    [
      'testTolerateTimeShiftDuringPrepareAbort',
      'Ongoing',
      (m: TransactionMetadata) => m.prepareAbortOrCommit('PrepareAbort', now - 1),
      'PrepareAbort',
    ],
    [
      'testTolerateTimeShiftDuringCompleteCommit',
      'PrepareCommit',
      (m: TransactionMetadata) => m.prepareComplete(now - 1),
      'CompleteCommit',
    ],
    [
      'testTolerateTimeShiftDuringCompleteAbort',
      'PrepareAbort',
      (m: TransactionMetadata) => m.prepareComplete(now - 1),
      'CompleteAbort',
    ],
  ] as const) {
    it(test, () => {
      const m = metadata({ producerEpoch: 1, state: from, txnStartTimestamp: 1 });
      m.completeTransitionTo(prepare(m));
      expect(m.state).toBe(to);
      expect(m.producerId).toBe(producerId);
      expect(m.lastProducerEpoch).toBe(NO_PRODUCER_EPOCH);
      expect(m.producerEpoch).toBe(1);
      expect(m.txnStartTimestamp).toBe(1);
      expect(m.txnLastUpdateTimestamp).toBe(now - 1);
    });
  }

  it('testFenceProducerAfterEpochsExhausted: the fence takes Short.MaxValue, then PrepareAbort', () => {
    const m = metadata({ producerEpoch: SHORT_MAX - 1, state: 'Ongoing' });
    expect(m.isProducerEpochExhausted).toBe(true);
    const fencing = m.prepareFenceProducerEpoch();
    expect(fencing.producerEpoch).toBe(SHORT_MAX);
    expect(fencing.lastProducerEpoch).toBe(NO_PRODUCER_EPOCH);
    expect(m.pendingState).toBe('PrepareEpochFence');
    // The coordinator resets the pending state to make way for the abort.
    m.pendingState = null;
    const abort = m.prepareAbortOrCommit('PrepareAbort', now);
    m.completeTransitionTo(abort);
    expect(abort.producerId).toBe(producerId);
  });

  it('testFenceProducerNotAllowedIfItWouldOverflow', () => {
    const m = metadata({ producerEpoch: SHORT_MAX, state: 'Ongoing' });
    expect(m.isProducerEpochExhausted).toBe(true);
    expect(() => m.prepareFenceProducerEpoch()).toThrow(IllegalStateException);
  });

  it('testRotateProducerId', () => {
    const m = metadata({ producerEpoch: SHORT_MAX - 1, state: 'Empty' });
    m.completeTransitionTo(m.prepareProducerIdRotation(9893, 30000, now, true));
    expect(m.producerId).toBe(9893);
    expect(m.lastProducerId).toBe(producerId);
    expect(m.producerEpoch).toBe(0);
    expect(m.lastProducerEpoch).toBe(SHORT_MAX - 1);
  });

  for (const [test, state] of [
    ['testRotateProducerIdInOngoingState', 'Ongoing'],
    ['testRotateProducerIdInPrepareAbortState', 'PrepareAbort'],
    ['testRotateProducerIdInPrepareCommitState', 'PrepareCommit'],
  ] as const) {
    it(test, () => {
      const m = metadata({ producerEpoch: SHORT_MAX - 1, lastProducerId: producerId, state });
      expect(() => m.prepareProducerIdRotation(9893, 30000, now, false)).toThrow(IllegalStateException);
    });
  }

  it('testAttemptedEpochBumpWithNewlyCreatedMetadata', () => {
    const m = metadata({ producerEpoch: NO_PRODUCER_EPOCH, state: 'Empty' });
    m.completeTransitionTo(prepareSuccessfulIncrementProducerEpoch(m, 735));
    expect(m.producerId).toBe(producerId);
    expect(m.producerEpoch).toBe(0);
    expect(m.lastProducerEpoch).toBe(NO_PRODUCER_EPOCH);
  });

  it('testEpochBumpWithCurrentEpochProvided', () => {
    const m = metadata({ producerEpoch: 735, state: 'Empty' });
    m.completeTransitionTo(prepareSuccessfulIncrementProducerEpoch(m, 735));
    expect(m.producerId).toBe(producerId);
    expect(m.producerEpoch).toBe(736);
    expect(m.lastProducerEpoch).toBe(735);
  });

  it('testAttemptedEpochBumpWithLastEpoch: a retry of a bump that succeeded keeps the epoch', () => {
    const m = metadata({ producerEpoch: 735, lastProducerEpoch: 734, state: 'Empty' });
    m.completeTransitionTo(prepareSuccessfulIncrementProducerEpoch(m, 734));
    expect(m.producerId).toBe(producerId);
    expect(m.producerEpoch).toBe(735);
    expect(m.lastProducerEpoch).toBe(734);
  });

  it('testAttemptedEpochBumpWithFencedEpoch', () => {
    const m = metadata({ producerEpoch: 735, lastProducerId: producerId, lastProducerEpoch: 734, state: 'Empty' });
    expect(m.prepareIncrementProducerEpoch(30000, 733, now)).toEqual({ error: 'PRODUCER_FENCED' });
    expect(m.pendingState).toBe(null);
  });

  it('testTransactionStateIdAndNameMapping', () => {
    for (const state of ALL_TRANSACTION_STATES) {
      expect(transactionStateFromId(transactionStateId(state))).toBe(state);
      expect(transactionStateFromName(state)).toBe(state);
    }
    expect(() => transactionStateFromId(8)).toThrow(IllegalStateException);
  });

  it('testAllTransactionStatesAreMapped: the eight states with their TransactionStatus bytes', () => {
    expect(ALL_TRANSACTION_STATES.map((s) => [s, transactionStateId(s)])).toEqual([
      ['Empty', 0],
      ['Ongoing', 1],
      ['PrepareCommit', 2],
      ['PrepareAbort', 3],
      ['CompleteCommit', 4],
      ['CompleteAbort', 5],
      ['Dead', 6],
      ['PrepareEpochFence', 7],
    ]);
  });
});

describe('TransactionMetadata transitions (TransactionMetadata.scala, beyond the Kafka tests)', () => {
  it('refuses a transition whose target does not list the current state as a valid previous state', () => {
    const table: Record<TransactionState, TransactionState[]> = {
      Empty: ['Empty', 'CompleteCommit', 'CompleteAbort'],
      Ongoing: ['Ongoing', 'Empty', 'CompleteCommit', 'CompleteAbort'],
      PrepareCommit: ['Ongoing'],
      PrepareAbort: ['Ongoing', 'PrepareEpochFence'],
      CompleteCommit: ['PrepareCommit'],
      CompleteAbort: ['PrepareAbort'],
      Dead: ['Empty', 'CompleteAbort', 'CompleteCommit'],
      PrepareEpochFence: ['Ongoing'],
    };
    for (const state of ALL_TRANSACTION_STATES) expect(validPreviousStates(state)).toEqual(table[state]);
    const m = metadata({ producerEpoch: 1, state: 'Empty' });
    expect(() => m.prepareAbortOrCommit('PrepareCommit', now)).toThrow(IllegalStateException);
    expect(m.pendingState).toBe(null);
  });

  it('allows one pending transition at a time', () => {
    const m = metadata({ producerEpoch: 1, state: 'Empty' });
    m.prepareAddPartitions([{ topic: 't', partition: 0 }], now);
    expect(m.pendingTransitionInProgress).toBe(true);
    expect(() => m.prepareAddPartitions([{ topic: 't', partition: 1 }], now)).toThrow(IllegalStateException);
  });

  it('runs a commit end to end: Empty, Ongoing, PrepareCommit, CompleteCommit, then a new transaction', () => {
    const m = metadata({ producerEpoch: 0, state: 'Empty' });
    m.completeTransitionTo(m.prepareAddPartitions([{ topic: 'in', partition: 0 }], now + 1));
    m.completeTransitionTo(m.prepareAddPartitions([{ topic: 'out', partition: 2 }], now + 2));
    const prepare = m.prepareAbortOrCommit('PrepareCommit', now + 3);
    expect(prepare.topicPartitions).toEqual(tps(['in', 0], ['out', 2]));
    m.completeTransitionTo(prepare);
    // The markers go out partition by partition; each one written leaves the set.
    m.removePartition({ topic: 'in', partition: 0 });
    const complete = m.prepareComplete(now + 4);
    expect(complete.txnState).toBe('CompleteCommit');
    expect(complete.topicPartitions.size).toBe(0);
    m.completeTransitionTo(complete);
    expect(m.state).toBe('CompleteCommit');
    expect(m.topicPartitions.size).toBe(0);
    expect(m.txnStartTimestamp).toBe(now + 1);
    m.completeTransitionTo(m.prepareAddPartitions([{ topic: 'in', partition: 1 }], now + 5));
    expect(m.txnStartTimestamp).toBe(now + 5);
  });

  it('removes partitions only while the markers are being written', () => {
    const m = metadata({ producerEpoch: 0, state: 'Ongoing', topicPartitions: [{ topic: 't', partition: 0 }] });
    expect(() => m.removePartition({ topic: 't', partition: 0 })).toThrow(IllegalStateException);
  });

  it('completes only the transit that was prepared', () => {
    const m = metadata({ producerEpoch: 3, state: 'Ongoing', txnStartTimestamp: 5 });
    const transit = m.prepareAbortOrCommit('PrepareAbort', now);
    expect(() => m.completeTransitionTo({ ...transit, producerEpoch: 4 })).toThrow(IllegalStateException);
    expect(() => m.completeTransitionTo({ ...transit, txnState: 'PrepareCommit' })).toThrow(IllegalStateException);
    m.completeTransitionTo(transit);
    expect(() => m.completeTransitionTo(transit)).toThrow(/does not have a pending state/);
  });

  it('never completes PrepareEpochFence or Dead', () => {
    const fenced = metadata({ producerEpoch: 3, state: 'Ongoing' });
    expect(() => fenced.completeTransitionTo(fenced.prepareFenceProducerEpoch())).toThrow(IllegalStateException);
    const expired = metadata({ producerEpoch: 3, state: 'CompleteCommit' });
    expect(() => expired.completeTransitionTo(expired.prepareDead())).toThrow(
      /trying to complete a transition to Dead/,
    );
  });

  it('does not bump the epoch again after a fence whose write failed', () => {
    const m = metadata({ producerEpoch: 3, state: 'Ongoing' });
    expect(m.prepareFenceProducerEpoch().producerEpoch).toBe(4);
    m.pendingState = null;
    m.hasFailedEpochFence = true;
    expect(m.prepareFenceProducerEpoch().producerEpoch).toBe(3);
  });
});
