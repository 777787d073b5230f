import { describe, expect, it } from 'vitest';
import { CorruptRecordError, IllegalArgumentException, KafkaError } from '../errors';
import {
  ABORTED_TXN_CURRENT_VERSION,
  ABORTED_TXN_TOTAL_SIZE,
  abortedTxn,
  asAbortedTransaction,
  encodeAbortedTxn,
  readAbortedTxn,
} from './AbortedTxn';
import {
  CorruptIndexException,
  collectAbortedTransactions,
  dumpTxnIndex,
  TransactionIndex,
  txnIndexFileName,
} from './TransactionIndex';
import { hex } from '../codec/hexLayout.testing';

// TransactionIndexTest's four aborted transactions.
const abortedTxns = [
  abortedTxn(0, 0, 10, 11),
  abortedTxn(1, 5, 15, 13),
  abortedTxn(2, 18, 35, 25),
  abortedTxn(3, 32, 50, 40),
];

function indexWith(txns: typeof abortedTxns, startOffset = 0): TransactionIndex {
  const index = new TransactionIndex(startOffset);
  for (const t of txns) index.append(t);
  return index;
}

describe('the .txnindex entry layout (AbortedTxn)', () => {
  it('is 34 bytes: version INT16, producerId, firstOffset, lastOffset, lastStableOffset INT64', () => {
    expect(ABORTED_TXN_TOTAL_SIZE).toBe(34);
    expect(encodeAbortedTxn(abortedTxn(983493, 137, 299, 200))).toEqual(
      hex(`
        0000               # version 0
        00000000000f01c5   # producerId 983493
        0000000000000089   # firstOffset 137
        000000000000012b   # lastOffset 299
        00000000000000c8   # lastStableOffset 200
      `),
    );
    expect(txnIndexFileName(170418)).toBe('00000000000000170418.txnindex');
  });

  it('testAbortedTxnSerde', () => {
    const txn = readAbortedTxn(encodeAbortedTxn(abortedTxn(983493, 137, 299, 200)), 0);
    expect(txn).toEqual({
      version: ABORTED_TXN_CURRENT_VERSION,
      producerId: 983493,
      firstOffset: 137,
      lastOffset: 299,
      lastStableOffset: 200,
    });
    expect(asAbortedTransaction(txn)).toEqual({ producerId: 983493, firstOffset: 137 });
  });

  it('reads the version from the first byte only, as AbortedTxn.version() does', () => {
    const bytes = encodeAbortedTxn(abortedTxn(1, 2, 3, 4));
    bytes[1] = 7; // version short 0x0007: its first byte is still 0
    expect(readAbortedTxn(bytes, 0).version).toBe(0);
    bytes[0] = 1;
    expect(() => new TransactionIndex(0, bytes).allAbortedTxns()).toThrow(KafkaError);
  });
});

describe('TransactionIndex (Kafka 3.9 TransactionIndexTest)', () => {
  it('testPositionSetCorrectlyWhenOpened: a reopened index appends after its entries', () => {
    const stored = indexWith(abortedTxns).toBytes();
    expect(stored.length).toBe(4 * 34);
    const reopened = new TransactionIndex(0, stored);
    const another = abortedTxn(3, 50, 60, 55);
    reopened.append(another);
    expect(reopened.allAbortedTxns()).toEqual([...abortedTxns, another]);
  });

  it('testSanityCheck: an entry before the start offset is corrupt', () => {
    const stored = indexWith(abortedTxns).toBytes();
    expect(() => new TransactionIndex(0, stored).sanityCheck()).not.toThrow();
    // Opened with a different start offset to fake invalid data.
    expect(() => new TransactionIndex(100, stored).sanityCheck()).toThrow(CorruptIndexException);
  });

  it('testLastOffsetMustIncrease', () => {
    const index = indexWith([abortedTxn(1, 5, 15, 13)]);
    expect(() => index.append(abortedTxn(0, 0, 15, 11))).toThrow(IllegalArgumentException);
  });

  it('testLastOffsetCannotDecrease', () => {
    const index = indexWith([abortedTxn(1, 5, 15, 13)]);
    expect(() => index.append(abortedTxn(0, 0, 10, 11))).toThrow(IllegalArgumentException);
  });

  it('testCollectAbortedTransactions', () => {
    const index = indexWith(abortedTxns);
    const cases: [number, number, typeof abortedTxns, boolean][] = [
      [0, 100, abortedTxns, false],
      [0, 32, abortedTxns.slice(0, 3), true],
      [0, 35, abortedTxns, true],
      [10, 35, abortedTxns, true],
      [11, 35, abortedTxns.slice(1, 4), true],
      [20, 41, abortedTxns.slice(2, 4), false],
    ];
    for (const [fetchOffset, upperBound, expected, isComplete] of cases) {
      expect(index.collectAbortedTxns(fetchOffset, upperBound)).toEqual({ abortedTransactions: expected, isComplete });
    }
  });

  it('testTruncate', () => {
    const txns = [
      abortedTxn(0, 0, 10, 2),
      abortedTxn(1, 5, 15, 16),
      abortedTxn(2, 18, 35, 25),
      abortedTxn(3, 32, 50, 40),
    ];
    const index = indexWith(txns);
    index.truncateTo(51);
    expect(index.collectAbortedTxns(0, 100).abortedTransactions).toEqual(txns);
    index.truncateTo(50);
    expect(index.collectAbortedTxns(0, 100).abortedTransactions).toEqual(txns.slice(0, 3));
    expect(index.sizeInBytes).toBe(3 * 34);
    index.reset();
    expect(index.collectAbortedTxns(0, 100).abortedTransactions).toEqual([]);
    expect(index.toBytes().length).toBe(0);
  });

  it('testFlush: the file exists only once an entry is appended', () => {
    const index = new TransactionIndex(0);
    expect(index.exists).toBe(false);
    index.append(abortedTxn(0, 0, 10, 2));
    expect(index.exists).toBe(true);
    expect(index.toBytes().length).not.toBe(0);
  });

  // testRenameIndex, testUpdateParentDir and testDeleteIfExists are about the file on disk, which the
  // log's Store will own once the index is wired; they have nothing to test here yet.
});

describe('TransactionIndex beyond the Kafka tests', () => {
  it('forgets the last offset on open, as Kafka does: lastOffset is only checked since the open', () => {
    const reopened = new TransactionIndex(0, indexWith(abortedTxns).toBytes());
    expect(() => reopened.append(abortedTxn(9, 1, 2, 3))).not.toThrow();
  });

  it('ignores a trailing partial entry, as the file iterator does', () => {
    const stored = indexWith(abortedTxns.slice(0, 2)).toBytes();
    const torn = new Uint8Array(stored.length + 20);
    torn.set(stored);
    expect(new TransactionIndex(0, torn).allAbortedTxns()).toEqual(abortedTxns.slice(0, 2));
  });

  it('truncating after a reopen restores the last offset of the entries it keeps', () => {
    const index = new TransactionIndex(0, indexWith(abortedTxns).toBytes());
    index.truncateTo(40);
    expect(index.allAbortedTxns()).toEqual(abortedTxns.slice(0, 3));
    expect(() => index.append(abortedTxn(7, 30, 35, 36))).toThrow(IllegalArgumentException);
    index.append(abortedTxn(7, 30, 36, 37));
  });

  it('an offset beyond 2^53 is CORRUPT_MESSAGE', () => {
    const bytes = encodeAbortedTxn(abortedTxn(1, 2, 3, 4));
    bytes[2] = 0x7f;
    expect(() => new TransactionIndex(0, bytes).allAbortedTxns()).toThrow(CorruptRecordError);
  });
});

describe('the .txnindex across segments and in kafka-dump-log', () => {
  it('prints each entry as DumpLogSegments.dumpTxnIndex does', () => {
    expect(dumpTxnIndex(indexWith(abortedTxns.slice(0, 2)))).toEqual([
      'version: 0 producerId: 0 firstOffset: 0 lastOffset: 10 lastStableOffset: 11',
      'version: 0 producerId: 1 firstOffset: 5 lastOffset: 15 lastStableOffset: 13',
    ]);
  });

  it('collects from the starting segment on until a search is complete (LocalLog.collectAbortedTransactions)', () => {
    // Segments at 0, 20 and 60: each holds the transactions whose ABORT marker it contains.
    const segments = [
      { baseOffset: 0, txnIndex: indexWith([abortedTxn(1, 2, 12, 13)]) },
      { baseOffset: 20, txnIndex: indexWith([abortedTxn(2, 5, 25, 26), abortedTxn(3, 30, 40, 45)], 20) },
      { baseOffset: 60, txnIndex: indexWith([abortedTxn(4, 41, 61, 62)], 60) },
    ];
    // A fetch of [22, 50) starting in the second segment: producer 2's transaction began in the
    // first segment but its marker is in the second; the LSO 45 < 50 leaves the search open, so
    // the third segment is read too (producer 4 began at 41, inside the range).
    expect(collectAbortedTransactions(segments, 20, 22, 50).map((t) => t.producerId)).toEqual([2, 3, 4]);
    // [22, 30): producer 3's entry has LSO 45 >= 30, so the search stops in the second segment.
    expect(collectAbortedTransactions(segments, 20, 22, 30).map((t) => t.producerId)).toEqual([2]);
    // [0, 14): producer 2's transaction began at 5, inside the range, though its marker is in the
    // next segment; that entry's LSO 26 >= 14 completes the search.
    expect(collectAbortedTransactions(segments, 0, 0, 14).map((t) => t.producerId)).toEqual([1, 2]);
  });
});
