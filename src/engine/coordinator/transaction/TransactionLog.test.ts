import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CorruptRecordError, IllegalStateException } from '../../errors';
import {
  decodeTransactionLogValue,
  formatRecordKeyAndValue,
  keyToBytes,
  readTxnRecordKey,
  readTxnRecordValue,
  valueToBytes,
} from './TransactionLog';
import { TransactionMetadata, type TxnTransitMetadata, txnPartitionSet } from './TransactionMetadata';
import { ALL_TRANSACTION_STATES, type TransactionState } from './TransactionState';
import { decodeOrCorrupt, truncateOrFlip } from '../../codec/corruptBytes.testing';
import { hex } from '../../codec/hexLayout.testing';

const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0).toString(16).padStart(2, '0')).join('');

// TransactionLogTest's fixtures.
const producerEpoch = 0;
const transactionTimeoutMs = 1000;
const topicPartitions = [
  { topic: 'topic1', partition: 0 },
  { topic: 'topic1', partition: 1 },
  { topic: 'topic2', partition: 0 },
  { topic: 'topic2', partition: 1 },
  { topic: 'topic2', partition: 2 },
];

/** TransactionLogTest's `new TransactionMetadata(...)`: producer epoch 0, timeout 1000 ms, both timestamps 0. */
function metadata(transactionalId: string, producerId: number, state: TransactionState): TransactionMetadata {
  return new TransactionMetadata({
    transactionalId,
    producerId,
    producerEpoch,
    txnTimeoutMs: transactionTimeoutMs,
    state,
    txnStartTimestamp: 0,
    txnLastUpdateTimestamp: 0,
  });
}

function transit(over: Partial<TxnTransitMetadata>): TxnTransitMetadata {
  return {
    producerId: 1,
    lastProducerId: 1,
    producerEpoch: 1,
    lastProducerEpoch: 1,
    txnTimeoutMs: 1000,
    txnState: 'CompleteCommit',
    topicPartitions: new Map(),
    txnStartTimestamp: 500,
    txnLastUpdateTimestamp: 500,
    ...over,
  };
}

describe('__transaction_state byte layouts (TransactionLogKey.json, TransactionLogValue.json)', () => {
  it('key v0: int16 version 0, then the transactional id as a STRING (int16 length + UTF-8)', () => {
    expect(keyToBytes('txnlId')).toEqual(hex(`0000 0006 ${ascii('txnlId')}`));
  });

  const ongoing = transit({
    producerId: 23423,
    producerEpoch: 5,
    txnTimeoutMs: 60000,
    txnState: 'Ongoing',
    topicPartitions: txnPartitionSet([
      { topic: 'in', partition: 0 },
      { topic: 'in', partition: 3 },
      { topic: 'out', partition: 1 },
    ]),
    txnStartTimestamp: 1700000000000,
    txnLastUpdateTimestamp: 1700000000042,
  });

  it('value v0 (what 3.9 writes in ZooKeeper mode): fixed-width fields, ARRAY with int32 counts', () => {
    expect(valueToBytes(ongoing, false)).toEqual(
      hex(`
        0000                 # version 0
        0000000000005b7f     # producerId 23423
        0005                 # producerEpoch
        0000ea60             # transactionTimeoutMs 60000
        01                   # transactionStatus Ongoing
        00000002             # transactionPartitions: 2 topics
          0002 ${ascii('in')}   00000002 00000000 00000003
          0003 ${ascii('out')}  00000001 00000001
        0000018bcfe5682a     # transactionLastUpdateTimestampMs 1700000000042
        0000018bcfe56800     # transactionStartTimestampMs 1700000000000
      `),
    );
  });

  it('value v1 (flexible): compact strings and arrays (length + 1), a tagged-field section per struct', () => {
    expect(valueToBytes(ongoing, true)).toEqual(
      hex(`
        0001 0000000000005b7f 0005 0000ea60 01
        03                                     # 2 topics, compact: 2 + 1
          03 ${ascii('in')}  03 00000000 00000003  00   # topic, partitionIds, no tagged fields
          04 ${ascii('out')} 02 00000001           00
        0000018bcfe5682a 0000018bcfe56800
        00                                     # no tagged fields
      `),
    );
  });

  it('an Empty transaction writes null partitions: int32 -1 in v0, compact 0 in v1', () => {
    const empty = transit({ txnState: 'Empty', txnStartTimestamp: -1 });
    expect(valueToBytes(empty, false)).toEqual(
      hex('0000 0000000000000001 0001 000003e8 00 ffffffff 00000000000001f4 ffffffffffffffff'),
    );
    expect(valueToBytes(empty, true)).toEqual(
      hex('0001 0000000000000001 0001 000003e8 00 00 00000000000001f4 ffffffffffffffff 00'),
    );
  });

  it('testSerializeTransactionLogValueToHighestNonFlexibleVersion / ToFlexibleVersion', () => {
    const t = transit({});
    expect(new DataView(valueToBytes(t, false).buffer).getInt16(0)).toBe(0);
    expect(new DataView(valueToBytes(t, true).buffer).getInt16(0)).toBe(1);
    // 3.9 in ZooKeeper mode never finalizes transaction.version: the default is version 0.
    expect(valueToBytes(t)).toEqual(valueToBytes(t, false));
  });
});

describe('TransactionLog (Kafka 3.9 TransactionLogTest)', () => {
  it('shouldThrowExceptionWriteInvalidTxn: Empty with partitions cannot be written', () => {
    const m = metadata('transactionalId', 23423, 'Empty');
    m.addPartitions(topicPartitions);
    expect(() => valueToBytes(m.prepareNoTransit(), true)).toThrow(IllegalStateException);
  });

  it('shouldReadWriteMessages', () => {
    const states: [string, number, TransactionState][] = [
      ['zero', 0, 'Empty'],
      ['one', 1, 'Ongoing'],
      ['two', 2, 'PrepareCommit'],
      ['three', 3, 'CompleteCommit'],
      ['four', 4, 'PrepareAbort'],
      ['five', 5, 'CompleteAbort'],
    ];
    for (const flexible of [false, true]) {
      for (const [transactionalId, producerId, state] of states) {
        const m = metadata(transactionalId, producerId, state);
        if (state !== 'Empty') m.addPartitions(topicPartitions);
        const key = readTxnRecordKey(keyToBytes(transactionalId));
        expect(key).toEqual({ type: 'TxnKey', version: 0, transactionalId });
        const read = readTxnRecordValue(transactionalId, valueToBytes(m.prepareNoTransit(), flexible));
        expect(read?.producerId).toBe(producerId);
        expect(read?.producerEpoch).toBe(producerEpoch);
        expect(read?.txnTimeoutMs).toBe(transactionTimeoutMs);
        expect(read?.state).toBe(state);
        expect(new Set(read?.topicPartitions.keys())).toEqual(
          new Set(state === 'Empty' ? [] : ['topic1-0', 'topic1-1', 'topic2-0', 'topic2-1', 'topic2-2']),
        );
      }
    }
  });

  it('testTransactionMetadataParsing: what kafka-dump-log prints', () => {
    const m = metadata('id', 1334, 'Ongoing');
    m.addPartitions([{ topic: 'topic', partition: 0 }]);
    expect(formatRecordKeyAndValue(keyToBytes('id'), valueToBytes(m.prepareNoTransit(), true))).toEqual([
      'transaction_metadata::transactionalId=id',
      'producerId:1334,producerEpoch:0,state=Ongoing,partitions=[topic-0],txnLastUpdateTimestamp=0,txnTimeoutMs=1000',
    ]);
  });

  it('testTransactionMetadataTombstoneParsing', () => {
    expect(formatRecordKeyAndValue(keyToBytes('id'), null)).toEqual([
      'transaction_metadata::transactionalId=id',
      '<DELETE>',
    ]);
    expect(readTxnRecordValue('id', null)).toBe(null);
  });

  it('testDeserializeHighestSupportedTransactionLogValue', () => {
    const bytes = valueToBytes(
      transit({
        producerId: 100,
        producerEpoch: 50,
        txnState: 'CompleteCommit',
        txnStartTimestamp: 750,
        txnLastUpdateTimestamp: 1000,
        txnTimeoutMs: 500,
        topicPartitions: txnPartitionSet([{ topic: 'topic', partition: 0 }]),
      }),
      true,
    );
    const m = readTxnRecordValue('transactionId', bytes);
    expect(m?.producerId).toBe(100);
    expect(m?.producerEpoch).toBe(50);
    expect(m?.state).toBe('CompleteCommit');
    expect(m?.txnStartTimestamp).toBe(750);
    expect(m?.txnLastUpdateTimestamp).toBe(1000);
    expect(m?.txnTimeoutMs).toBe(500);
    expect([...(m?.topicPartitions.keys() ?? [])]).toEqual(['topic-0']);
  });

  it('testDeserializeFutureTransactionLogValue: unknown tagged fields are read and skipped', () => {
    // SCHEMA_1 with tagged fields 0 (STRING "foo") and 1 (INT32 4000) in the partition and the value.
    const tagged = `02  00 05 0003${ascii('foo')}  01 04 00000fa0`;
    const bytes = hex(`
      0001 00000000000003e8 0064 000003e8 04
      02  06 ${ascii('topic')} 02 00000001 ${tagged}
      00000000000007d0 0000000000000bb8
      ${tagged}
    `);
    const m = readTxnRecordValue('transaction-id', bytes);
    expect(m?.producerId).toBe(1000);
    expect(m?.producerEpoch).toBe(100);
    expect(m?.txnTimeoutMs).toBe(1000);
    expect(m?.state).toBe('CompleteCommit');
    expect([...(m?.topicPartitions.keys() ?? [])]).toEqual(['topic-1']);
    expect(m?.txnLastUpdateTimestamp).toBe(2000);
    expect(m?.txnStartTimestamp).toBe(3000);
  });

  it('testReadTxnRecordKeyCanReadUnknownMessage', () => {
    expect(readTxnRecordKey(hex('7fff'))).toEqual({ type: 'UnknownKey', version: 32767 });
    expect(formatRecordKeyAndValue(hex('7fff'), null)).toEqual(['unknown::version=32767', undefined]);
  });
});

describe('__transaction_state decoders on bad bytes', () => {
  it('refuse an unknown value version, an unknown status and null partitions outside Empty', () => {
    expect(() => decodeTransactionLogValue(hex('0002'))).toThrow(CorruptRecordError);
    expect(() =>
      readTxnRecordValue('t', hex('0000 0000000000000001 0001 000003e8 08 ffffffff 0000000000000000 0000000000000000')),
    ).toThrow(CorruptRecordError);
    expect(() =>
      readTxnRecordValue('t', hex('0000 0000000000000001 0001 000003e8 01 ffffffff 0000000000000000 0000000000000000')),
    ).toThrow(CorruptRecordError);
  });

  it('throw only CorruptRecordError on random bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 80 }), (bytes) => {
        for (const decode of [readTxnRecordKey, (b: Uint8Array) => readTxnRecordValue('t', b)]) {
          decodeOrCorrupt(decode, bytes);
        }
      }),
      { seed: 27, numRuns: 2000 },
    );
  });

  it('throw only CorruptRecordError on truncated and bit-flipped records of every state and version', () => {
    const records = ALL_TRANSACTION_STATES.filter((s) => s !== 'Dead').flatMap((state) =>
      [false, true].map((flexible) =>
        valueToBytes(
          transit({
            txnState: state,
            txnStartTimestamp: state === 'Empty' ? -1 : 500,
            topicPartitions: state === 'Empty' ? new Map() : txnPartitionSet(topicPartitions),
          }),
          flexible,
        ),
      ),
    );
    fc.assert(
      fc.property(fc.nat(records.length - 1), fc.nat(), fc.nat(255), fc.boolean(), (i, at, xor, truncate) => {
        const mutated = truncateOrFlip(records[i] as Uint8Array, at, xor, truncate);
        for (const decode of [readTxnRecordKey, (b: Uint8Array) => readTxnRecordValue('t', b)]) {
          decodeOrCorrupt(decode, mutated);
        }
      }),
      { seed: 28, numRuns: 2000 },
    );
  });
});
