import { describe, expect, it } from 'vitest';
import { batchAttributes, NO_PARTITION_LEADER_EPOCH } from '../../codec/batchLayout';
import { concatBytes } from '../../codec/bytes';
import { endTransactionMarker, withEndTransactionMarker } from '../../codec/endTransactionMarker';
import { decodeRecordBatches, encodeRecordBatch } from '../../codec/recordBatch';
import { type AbortedTransaction, completedFetchRecords, type IsolationLevel } from './CompletedFetch';

const utf8 = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array | null) => (b === null ? null : new TextDecoder().decode(b));

/** FetcherTest.appendTransactionalRecords: one transactional batch of `keys` at `baseOffset`. */
function transactional(producerId: number, baseOffset: number, ...keys: string[]): Uint8Array {
  return encodeRecordBatch({
    baseOffset,
    partitionLeaderEpoch: NO_PARTITION_LEADER_EPOCH,
    attributes: batchAttributes({ transactional: true }),
    lastOffsetDelta: keys.length - 1,
    baseTimestamp: 0,
    maxTimestamp: 0,
    producerId,
    producerEpoch: 0,
    baseSequence: baseOffset,
    records: keys.map((k, i) => ({
      attributes: 0,
      timestampDelta: 0,
      offsetDelta: i,
      key: utf8(k),
      value: utf8('value'),
      headers: [],
    })),
  });
}

/** FetcherTest.commitTransaction / abortTransaction: a marker batch at `offset`. */
function marker(type: 'COMMIT' | 'ABORT', producerId: number, offset: number): Uint8Array {
  return withEndTransactionMarker({
    initialOffset: offset,
    timestamp: 0,
    partitionLeaderEpoch: NO_PARTITION_LEADER_EPOCH,
    producerId,
    producerEpoch: 0,
    marker: endTransactionMarker(type, 0),
  });
}

function fetch(
  parts: Uint8Array[],
  level: IsolationLevel,
  aborted: AbortedTransaction[] | null,
  fetchOffset = 0,
): { keys: (string | null)[]; offsets: number[]; next: number } {
  const result = completedFetchRecords(decodeRecordBatches(concatBytes(parts)), fetchOffset, level, aborted);
  return {
    keys: result.records.map((r) => text(r.record.key)),
    offsets: result.records.map((r) => r.offset),
    next: result.nextFetchOffset,
  };
}

describe('CompletedFetch (Kafka 3.9 CompletedFetchTest, FetcherTest)', () => {
  it('CompletedFetchTest.testAbortedTransactionRecordsRemoved: read_committed drops them, read_uncommitted keeps them', () => {
    const keys = Array.from({ length: 10 }, () => 'key');
    const parts = [transactional(1, 0, ...keys), marker('ABORT', 1, 10)];
    const aborted = [{ producerId: 1, firstOffset: 0 }];
    expect(fetch(parts, 'READ_COMMITTED', aborted).keys).toHaveLength(0);
    expect(fetch(parts, 'READ_UNCOMMITTED', aborted).keys).toHaveLength(10);
    // The aborted batch and its marker are still passed: the next fetch starts after them.
    expect(fetch(parts, 'READ_COMMITTED', aborted).next).toBe(11);
  });

  it('CompletedFetchTest.testCommittedTransactionRecordsIncluded', () => {
    const keys = Array.from({ length: 10 }, () => 'key');
    expect(fetch([transactional(1, 0, ...keys), marker('COMMIT', 1, 10)], 'READ_COMMITTED', null).keys).toHaveLength(
      10,
    );
  });

  it('FetcherTest.testReadCommittedWithCommittedAndAbortedTransactions', () => {
    const parts = [
      transactional(1, 0, 'commit1-1', 'commit1-2'),
      transactional(2, 2, 'abort2-1'),
      marker('COMMIT', 1, 3),
      transactional(2, 4, 'abort2-2'),
      marker('ABORT', 2, 5),
      transactional(1, 6, 'abort1-1'),
      transactional(2, 7, 'commit2-1'),
      transactional(1, 8, 'abort1-2'),
      marker('ABORT', 1, 9),
      marker('COMMIT', 2, 10),
    ];
    const aborted = [
      { producerId: 2, firstOffset: 2 },
      { producerId: 1, firstOffset: 6 },
    ];
    expect(fetch(parts, 'READ_COMMITTED', aborted).keys).toEqual(['commit1-1', 'commit1-2', 'commit2-1']);
    expect(fetch(parts, 'READ_UNCOMMITTED', aborted).keys).toEqual([
      'commit1-1',
      'commit1-2',
      'abort2-1',
      'abort2-2',
      'abort1-1',
      'commit2-1',
      'abort1-2',
    ]);
  });

  it('FetcherTest.testMultipleAbortMarkers: a duplicate ABORT marker is ignored', () => {
    const parts = [
      transactional(1, 0, 'abort1-1', 'abort1-2'),
      marker('ABORT', 1, 2),
      marker('ABORT', 1, 3),
      transactional(1, 4, 'commit1-1', 'commit1-2'),
      marker('COMMIT', 1, 6),
    ];
    expect(fetch(parts, 'READ_COMMITTED', [{ producerId: 1, firstOffset: 0 }]).keys).toEqual([
      'commit1-1',
      'commit1-2',
    ]);
  });

  it('FetcherTest.testReadCommittedAbortMarkerWithNoData: an abort whose data is gone from the log', () => {
    const parts = [marker('ABORT', 1, 5), transactional(1, 6, '6', '7', '8'), marker('COMMIT', 1, 9)];
    const result = fetch(parts, 'READ_COMMITTED', [{ producerId: 1, firstOffset: 0 }]);
    expect(result.offsets).toEqual([6, 7, 8]);
    expect(result.next).toBe(10);
  });

  it('skips records before the fetch offset inside the first batch, and never returns control records', () => {
    const parts = [transactional(3, 0, 'a', 'b', 'c'), marker('COMMIT', 3, 3)];
    const result = fetch(parts, 'READ_UNCOMMITTED', null, 1);
    expect(result.keys).toEqual(['b', 'c']);
    expect(result.next).toBe(4);
  });
});
