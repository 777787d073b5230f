import { describe, expect, it } from 'vitest';
import { type DefaultRecord, encodeRecordBatch, readBatchHeader } from '../codec';
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
});
