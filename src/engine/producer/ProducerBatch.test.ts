import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeRecordBatches, encodeRecordBatch } from '../codec/recordBatch';
import {
  estimateSizeInBytesUpperBound,
  headerlessSizeUpperBound,
  type PendingRecord,
  ProducerBatch,
} from './ProducerBatch';

const bytesArb = fc.option(fc.uint8Array({ maxLength: 40 }), { nil: null });
const recordArb = fc.record({
  key: bytesArb,
  value: bytesArb,
  headers: fc.array(fc.record({ key: fc.string({ maxLength: 8 }), value: bytesArb }), { maxLength: 3 }),
  timestampStep: fc.integer({ min: -5, max: 100_000 }),
});

/** What the producer did before it wrote records as they arrived: one encodeRecordBatch at send time. */
function encodeAtOnce(batch: ProducerBatch, records: PendingRecord[]): Uint8Array {
  const base = records[0]?.timestamp ?? 0;
  return encodeRecordBatch({
    baseOffset: 0,
    partitionLeaderEpoch: -1,
    attributes: 0,
    lastOffsetDelta: records.length - 1,
    baseTimestamp: base,
    maxTimestamp: Math.max(...records.map((r) => r.timestamp)),
    producerId: batch.producerId,
    producerEpoch: batch.producerEpoch,
    baseSequence: batch.baseSequence,
    records: records.map((r, i) => ({
      attributes: 0,
      timestampDelta: r.timestamp - base,
      offsetDelta: i,
      key: r.key,
      value: r.value,
      headers: r.headers,
    })),
  });
}

describe('ProducerBatch (records written as they are appended, like MemoryRecordsBuilder)', () => {
  it('encodes byte for byte what the codec encodes from the same records, with the size it counted', () => {
    fc.assert(
      fc.property(
        fc.array(recordArb, { minLength: 1, maxLength: 30 }),
        fc.integer({ min: 1, max: 4000 }),
        (rs, limit) => {
          const b = new ProducerBatch(1, 't', 0, 0, limit);
          const appended: PendingRecord[] = [];
          let ts = 1_700_000_000_000;
          rs.forEach((r, i) => {
            ts += r.timestampStep;
            const rec: PendingRecord = {
              sendId: 100 + i,
              key: r.key,
              value: r.value,
              headers: r.headers,
              timestamp: ts,
            };
            const expected = b.sizeOf(rec);
            const fits = b.hasRoomFor(rec);
            const added = b.tryAppend(rec);
            expect(added > 0).toBe(fits);
            if (added > 0) {
              expect(added).toBe(expected);
              appended.push(rec);
            }
          });
          b.producerId = 7;
          b.producerEpoch = 2;
          b.baseSequence = 41;
          const bytes = b.encode();
          expect(bytes.length).toBe(b.sizeInBytes);
          expect(bytes).toEqual(encodeAtOnce(b, appended));
          expect(b.sendIds).toEqual(appended.map((r) => r.sendId));
          expect(b.pendingRecords()).toEqual(appended);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('a retry with a new producer id re-encodes into a copy: the bytes of the first attempt never change', () => {
    const b = new ProducerBatch(1, 't', 0, 0, 16384);
    for (let i = 0; i < 20; i++) {
      b.tryAppend({ sendId: i, key: null, value: new Uint8Array(100).fill(i), headers: [], timestamp: 1000 + i });
    }
    const first = b.encode();
    const firstCopy = first.slice();
    b.producerId = 9;
    b.producerEpoch = 0;
    b.baseSequence = 0;
    const second = b.encode();
    expect(first).toEqual(firstCopy);
    const [decoded] = decodeRecordBatches(second);
    expect(decoded).toMatchObject({ producerId: 9, producerEpoch: 0, baseSequence: 0, lastOffsetDelta: 19 });
    expect(decoded?.records.map((r) => r.value?.[0])).toEqual([...Array(20).keys()]);
  });

  it("remembers each record's send id and CreateTime, whether or not they run on from the previous record", () => {
    const b = new ProducerBatch(1, 't', 0, 0, 16384);
    const ids = [5, 6, 9, 10, 11, 20, 21];
    const times = [100, 100, 101, 101, 100, 105, 105];
    for (const [i, sendId] of ids.entries()) {
      b.tryAppend({ sendId, key: null, value: new Uint8Array([i]), headers: [], timestamp: times[i] as number });
    }
    const seen: [number, number, number][] = [];
    b.forEachRecord((sendId, timestamp, i) => seen.push([sendId, timestamp, i]));
    expect(seen).toEqual(ids.map((id, i) => [id, times[i], i]));
    expect(b.sendIds).toEqual(ids);
    expect(b.recordCount).toBe(7);
    expect(b.pendingRecords().map((r) => [r.sendId, r.timestamp])).toEqual(ids.map((id, i) => [id, times[i]]));
  });

  it('the quick bound send() checks first never undercuts the exact upper bound', () => {
    for (const k of [null, 0, 1, 63, 64, 8191, 8192, 1 << 20]) {
      for (const v of [null, 0, 1, 63, 64, 100, 8192, 1 << 21]) {
        const key = k === null ? null : new Uint8Array(k);
        const value = v === null ? null : new Uint8Array(v);
        expect(headerlessSizeUpperBound(key, value)).toBeGreaterThanOrEqual(
          estimateSizeInBytesUpperBound(key, value, []),
        );
      }
    }
  });
});

// apache/kafka 3.9 ProducerBatchTest.testWithLeaderChangesAcrossRetries (ProducerBatch.maybeUpdateLeaderEpoch,
// hasLeaderChangedForTheOngoingRetry).
describe('ProducerBatch: the leader epoch across retries', () => {
  it('testWithLeaderChangesAcrossRetries', () => {
    const batch = new ProducerBatch(1, 'topic', 1, 0, 16384);
    expect([batch.currentLeaderEpoch, batch.attemptsWhenLeaderLastChanged]).toEqual([null, 0]);
    batch.maybeUpdateLeaderEpoch(null);
    expect(batch.hasLeaderChangedForTheOngoingRetry()).toBe(false);
    // The first attempt is no retry: a first leader is no change.
    batch.maybeUpdateLeaderEpoch(100);
    expect(batch.hasLeaderChangedForTheOngoingRetry()).toBe(false);
    expect([batch.currentLeaderEpoch, batch.attemptsWhenLeaderLastChanged]).toEqual([100, 0]);
    // The first retry, to a new leader: a change, and still one until that retry is made.
    batch.attempts++;
    batch.maybeUpdateLeaderEpoch(101);
    expect(batch.hasLeaderChangedForTheOngoingRetry()).toBe(true);
    batch.maybeUpdateLeaderEpoch(101);
    expect(batch.hasLeaderChangedForTheOngoingRetry()).toBe(true);
    expect([batch.currentLeaderEpoch, batch.attemptsWhenLeaderLastChanged]).toEqual([101, 1]);
    // The second retry, same leader: no change; an older or unknown epoch changes nothing.
    batch.attempts++;
    batch.maybeUpdateLeaderEpoch(101);
    expect(batch.hasLeaderChangedForTheOngoingRetry()).toBe(false);
    batch.maybeUpdateLeaderEpoch(100);
    batch.maybeUpdateLeaderEpoch(null);
    expect(batch.hasLeaderChangedForTheOngoingRetry()).toBe(false);
    expect([batch.currentLeaderEpoch, batch.attemptsWhenLeaderLastChanged]).toEqual([101, 1]);
  });
});
