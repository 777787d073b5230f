import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type DefaultRecord, decodeBatchRecords, encodeRecordBatch, readBatchHeader } from '../codec';
import { CorruptRecordError } from '../errors';
import { locateRecord } from './RecordLocator';
import { text } from './testSupport';

const T0 = 1_700_000_000_000;
const enc = new TextEncoder();

function batch(offsetDeltas: number[], attributes = 0, baseOffset = 500): Uint8Array {
  const records: DefaultRecord[] = offsetDeltas.map((d) => ({
    attributes: 0,
    timestampDelta: d * 10,
    offsetDelta: d,
    key: enc.encode(`k${d}`),
    value: enc.encode(`value at delta ${d}`.padEnd(40 + d, '.')),
    headers: [],
  }));
  return encodeRecordBatch({
    baseOffset,
    partitionLeaderEpoch: 0,
    attributes,
    lastOffsetDelta: Math.max(...offsetDeltas),
    baseTimestamp: T0,
    maxTimestamp: T0 + Math.max(...offsetDeltas) * 10,
    producerId: -1,
    producerEpoch: -1,
    baseSequence: -1,
    records,
  });
}

describe('locateRecord', () => {
  it('picks the n-th record of a dense batch, decoding only that one', () => {
    const b = batch([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const h = readBatchHeader(b, 0);
    for (let d = 0; d < 10; d++) {
      const hit = locateRecord(b, h, 500 + d);
      expect(hit?.offset).toBe(500 + d);
      expect(hit?.timestamp).toBe(T0 + d * 10);
      expect(text(hit?.record.value)?.startsWith(`value at delta ${d}`)).toBe(true);
    }
    expect(locateRecord(b, h, 400)?.offset).toBe(500);
    expect(locateRecord(b, h, 510)).toBeNull();
  });

  it('walks offset deltas in a compacted (gapped) batch and returns the next record for a removed offset', () => {
    const b = batch([1, 4, 5, 9]);
    const h = readBatchHeader(b, 0);
    expect(h.recordCount).toBe(4);
    expect(locateRecord(b, h, 504)?.offset).toBe(504);
    expect(locateRecord(b, h, 502)?.offset).toBe(504);
    expect(locateRecord(b, h, 506)?.offset).toBe(509);
    expect(locateRecord(b, h, 500)?.offset).toBe(501);
  });

  it('decodes a gzip batch whole and still finds the record', () => {
    const b = batch([0, 1, 2, 3], 1);
    const h = readBatchHeader(b, 0);
    expect(h.attributes & 7).toBe(1);
    expect(text(locateRecord(b, h, 502)?.record.key)).toBe('k2');
  });

  it('works on a batch in the middle of a larger buffer', () => {
    const a = batch([0, 1, 2], 0, 0);
    const c = batch([0, 1, 2], 0, 3);
    const buf = new Uint8Array(a.length + c.length);
    buf.set(a);
    buf.set(c, a.length);
    const h = readBatchHeader(buf, a.length);
    expect(text(locateRecord(buf, h, 4)?.record.key)).toBe('k1');
  });

  it('agrees with decoding the whole batch for any deltas, timestamps and target (property)', () => {
    // Reference: the first record of the fully decoded batch at or after the target offset.
    const batchArb = fc
      .record({
        deltas: fc.uniqueArray(fc.integer({ min: 0, max: 300 }), { minLength: 1, maxLength: 40 }),
        timestampDeltas: fc.array(
          fc.oneof(fc.integer({ min: -5, max: 5 }), fc.integer({ min: -(2 ** 40), max: 2 ** 40 })),
          {
            minLength: 40,
            maxLength: 40,
          },
        ),
        valueLengths: fc.array(fc.integer({ min: 0, max: 300 }), { minLength: 40, maxLength: 40 }),
        lead: fc.nat(100),
      })
      .map(({ deltas, timestampDeltas, valueLengths, lead }) => {
        const sorted = [...deltas].sort((a, b) => a - b);
        const records: DefaultRecord[] = sorted.map((d, i) => ({
          attributes: 0,
          timestampDelta: timestampDeltas[i] as number,
          offsetDelta: d,
          key: i % 3 === 0 ? null : enc.encode(`k${d}`),
          value: new Uint8Array(valueLengths[i] as number).fill(d & 0xff),
          headers: i % 4 === 0 ? [{ key: 'h', value: null }] : [],
        }));
        const encoded = encodeRecordBatch({
          baseOffset: 1000,
          partitionLeaderEpoch: 0,
          attributes: 0,
          lastOffsetDelta: sorted[sorted.length - 1] as number,
          baseTimestamp: T0,
          maxTimestamp: T0,
          producerId: -1,
          producerEpoch: -1,
          baseSequence: -1,
          records,
        });
        const bytes = new Uint8Array(lead + encoded.length);
        bytes.set(encoded, lead);
        return { bytes, header: readBatchHeader(bytes, lead) };
      });
    fc.assert(
      fc.property(batchArb, fc.integer({ min: 990, max: 1310 }), ({ bytes, header }, target) => {
        const expected = decodeBatchRecords(bytes, header).find((r) => 1000 + r.offsetDelta >= target) ?? null;
        const hit = locateRecord(bytes, header, target);
        if (expected === null) {
          expect(hit).toBeNull();
        } else {
          expect(hit?.offset).toBe(1000 + expected.offsetDelta);
          expect(hit?.timestamp).toBe(T0 + expected.timestampDelta);
          expect(hit?.record).toEqual(expected);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('returns a record that stays intact when the segment bytes are later overwritten', () => {
    const b = batch([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const h = readBatchHeader(b, 0);
    const hit = locateRecord(b, h, 507);
    b.fill(0);
    expect(text(hit?.record.key)).toBe('k7');
    expect(text(hit?.record.value)?.startsWith('value at delta 7')).toBe(true);
  });

  it('reports a length prefix running past the batch as CORRUPT_MESSAGE', () => {
    const b = batch([0, 1, 2, 3]);
    const h = readBatchHeader(b, 0);
    // The first record's size prefix (at byte 61) becomes 0xfe 0x7f: 8191 bytes, past the end of the batch.
    b[61] = 0xfe;
    b[62] = 0x7f;
    expect(() => locateRecord(b, h, 502)).toThrow(CorruptRecordError);
  });

  it('falls back to decoding the whole batch when a batch looks dense but its deltas are not 0..n-1', () => {
    // lastOffsetDelta = recordCount - 1 = 3, but the deltas are 0, 2, 2, 3: the n-th record is not offset n.
    const records: DefaultRecord[] = [0, 2, 2, 3].map((d, i) => ({
      attributes: 0,
      timestampDelta: i,
      offsetDelta: d,
      key: enc.encode(`r${i}`),
      value: null,
      headers: [],
    }));
    const b = encodeRecordBatch({
      baseOffset: 500,
      partitionLeaderEpoch: 0,
      attributes: 0,
      lastOffsetDelta: 3,
      baseTimestamp: T0,
      maxTimestamp: T0 + 3,
      producerId: -1,
      producerEpoch: -1,
      baseSequence: -1,
      records,
    });
    const h = readBatchHeader(b, 0);
    expect(text(locateRecord(b, h, 501)?.record.key)).toBe('r1');
    expect(locateRecord(b, h, 501)?.offset).toBe(502);
    expect(text(locateRecord(b, h, 503)?.record.key)).toBe('r3');
  });
});
