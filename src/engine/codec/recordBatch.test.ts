import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CorruptRecordError, isKafkaError } from '../errors';
import type { CompressionType } from './compression';
import { crc32c } from './crc32c';
import { loadZstdEncoder } from './zstdCodec';
import { REAL_PARTITIONS } from './fixtures/kafka-3.7.0/expected';
import {
  batchAttributes,
  compressionType,
  decodeBatchRecords,
  decodeRecordAt,
  decodeRecordBatches,
  type DefaultRecord,
  encodeRecordBatch,
  isControlBatch,
  isTransactional,
  lastSequence,
  RECORD_BATCH_OVERHEAD,
  type RecordBatchInput,
  readBatchHeader,
  type RecordBatchHeader,
  recordTimestamp,
  timestampType,
  validateBatchCrc,
} from './recordBatch';

const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);

const int32 = fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 });
const int16 = fc.integer({ min: -(2 ** 15), max: 2 ** 15 - 1 });
const bytesOrNull = fc.option(fc.uint8Array({ maxLength: 40 }), { nil: null });

const recordArb: fc.Arbitrary<DefaultRecord> = fc.record({
  attributes: fc.constant(0),
  timestampDelta: fc.oneof(fc.integer({ min: -1000, max: 100_000 }), fc.maxSafeInteger()),
  offsetDelta: int32,
  key: bytesOrNull,
  value: bytesOrNull,
  headers: fc.array(fc.record({ key: fc.string({ maxLength: 12, unit: 'grapheme' }), value: bytesOrNull }), {
    maxLength: 3,
  }),
});

const batchArb = (compression: CompressionType = 'none'): fc.Arbitrary<RecordBatchInput> =>
  fc.record({
    baseOffset: fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER - 2 ** 31 }),
    partitionLeaderEpoch: int32,
    attributes: fc
      .record({ logAppendTime: fc.boolean(), transactional: fc.boolean(), control: fc.boolean() })
      .map((a) =>
        batchAttributes({
          compression,
          timestampType: a.logAppendTime ? 'LogAppendTime' : 'CreateTime',
          transactional: a.transactional,
          control: a.control,
        }),
      ),
    lastOffsetDelta: int32,
    baseTimestamp: fc.maxSafeInteger(),
    maxTimestamp: fc.maxSafeInteger(),
    producerId: fc.oneof(fc.constant(-1), fc.maxSafeInteger()),
    producerEpoch: int16,
    baseSequence: int32,
    records: fc.array(recordArb, { maxLength: 6 }),
  });

const FIXTURES = join(import.meta.dirname, 'fixtures', 'kafka-3.7.0');
const readFixture = (path: string) => new Uint8Array(readFileSync(join(FIXTURES, path)));

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (e) {
    return e;
  }
  throw new Error('expected a throw');
}

// tulios/kafkajs src/protocol/recordBatch/fixtures/v0_recordbatch.json, decoded in
// src/protocol/recordBatch/v0/decoder.spec.js: a gzip batch with LogAppendTime (attributes 9).
const KAFKAJS_GZIP_BATCH = Uint8Array.from([
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 113, 0, 0, 0, 0, 2, 228, 195, 36, 165, 0, 9, 0, 0, 0, 0, 0, 0, 1, 115, 237, 245, 255,
  167, 0, 0, 1, 115, 237, 245, 255, 201, 255, 255, 255, 255, 255, 255, 255, 255, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 31, 139,
  8, 0, 0, 0, 0, 0, 0, 19, 11, 99, 96, 96, 224, 202, 78, 173, 212, 53, 112, 40, 75, 204, 41, 77, 213, 53, 208, 53, 50,
  48, 50, 208, 53, 176, 208, 53, 52, 9, 49, 52, 183, 50, 52, 182, 50, 176, 208, 51, 179, 48, 138, 98, 0, 0, 181, 227,
  241, 167, 44, 0, 0, 0,
]);

// tulios/kafkajs src/protocol/recordBatch/fixtures/v0_record.json: one record body (attributes 0,
// deltas 0, key "key-0", value "some-value-0", header "header-key-0" -> "header-value-0"),
// without the leading length varint.
const KAFKAJS_RECORD_BODY = [
  0, 0, 0, 10, 107, 101, 121, 45, 48, 24, 115, 111, 109, 101, 45, 118, 97, 108, 117, 101, 45, 48, 2, 24, 104, 101, 97,
  100, 101, 114, 45, 107, 101, 121, 45, 48, 28, 104, 101, 97, 100, 101, 114, 45, 118, 97, 108, 117, 101, 45, 48,
];

const simpleBatch = (records: DefaultRecord[], attributes = 0): RecordBatchInput => ({
  baseOffset: 100,
  partitionLeaderEpoch: 3,
  attributes,
  lastOffsetDelta: records.length - 1,
  baseTimestamp: 1_700_000_000_000,
  maxTimestamp: 1_700_000_000_009,
  producerId: -1,
  producerEpoch: -1,
  baseSequence: -1,
  records,
});

const rec = (i: number, key: string | null = `k${i}`, value: string | null = `v${i}`): DefaultRecord => ({
  attributes: 0,
  timestampDelta: i,
  offsetDelta: i,
  key: key === null ? null : utf8(key),
  value: value === null ? null : utf8(value),
  headers: [],
});

describe('RecordBatch v2 against kafkajs fixtures', () => {
  it('decodes the kafkajs gzip golden batch', () => {
    const [batch, ...rest] = decodeRecordBatches(KAFKAJS_GZIP_BATCH);
    expect(rest).toEqual([]);
    // Values from kafkajs v0/decoder.spec.js 'decodes'.
    expect(batch).toMatchObject({
      baseOffset: 0,
      batchLength: 113,
      partitionLeaderEpoch: 0,
      magic: 2,
      lastOffsetDelta: 0,
      baseTimestamp: 1597425188775,
      maxTimestamp: 1597425188809,
      producerId: -1,
      producerEpoch: 0,
      baseSequence: 0,
    });
    if (!batch) throw new Error('no batch');
    expect(compressionType(batch.attributes)).toBe('gzip');
    expect(timestampType(batch.attributes)).toBe('LogAppendTime');
    expect(isTransactional(batch.attributes)).toBe(false);
    expect(isControlBatch(batch.attributes)).toBe(false);
    expect(batch.records).toHaveLength(1);
    const [r] = batch.records;
    if (!r) throw new Error('no record');
    expect(new TextDecoder().decode(r.key ?? new Uint8Array())).toBe('key-0');
    expect(new TextDecoder().decode(r.value ?? new Uint8Array())).toBe('value-0-2020-08-14T17:13:08.682Z');
    // LogAppendTime: every record carries the batch's maxTimestamp (kafkajs record decoder spec).
    expect(recordTimestamp(batch, r)).toBe(1597425188809);
  });

  it('re-encodes the kafkajs gzip batch to a batch that decodes to the same records', () => {
    const [batch] = decodeRecordBatches(KAFKAJS_GZIP_BATCH);
    if (!batch) throw new Error('no batch');
    const again = decodeRecordBatches(encodeRecordBatch(batch));
    expect(again.map((b) => b.records)).toEqual([batch.records]);
  });

  it('encodes a record exactly like the kafkajs record fixture', () => {
    const record: DefaultRecord = {
      attributes: 0,
      timestampDelta: 0,
      offsetDelta: 0,
      key: utf8('key-0'),
      value: utf8('some-value-0'),
      headers: [{ key: 'header-key-0', value: utf8('header-value-0') }],
    };
    const bytes = encodeRecordBatch(simpleBatch([record]));
    // length varint (zigzag of 51 = 102), then the body.
    expect([...bytes.subarray(RECORD_BATCH_OVERHEAD)]).toEqual([102, ...KAFKAJS_RECORD_BODY]);
  });
});

describe('RecordBatch v2 against real Kafka 3.7.0 segments', () => {
  for (const partition of REAL_PARTITIONS) {
    it(`decodes ${partition.dir}/00000000000000000000.log with valid CRCs and Kafka's values`, () => {
      const bytes = readFixture(`${partition.dir}/00000000000000000000.log`);
      expect(bytes.length).toBe(partition.logSize);
      const batches = decodeRecordBatches(bytes);
      expect(batches).toHaveLength(partition.batches.length);
      batches.forEach((batch, i) => {
        const want = partition.batches[i];
        if (!want) throw new Error('missing expectation');
        const header = readBatchHeader(bytes, want.position);
        expect(validateBatchCrc(bytes, header)).toBe(true);
        expect(header.lastOffset).toBe(want.lastOffset);
        expect(header.sizeInBytes).toBe(want.sizeInBytes);
        expect(batch).toMatchObject({
          baseOffset: want.baseOffset,
          batchLength: want.batchLength,
          partitionLeaderEpoch: want.partitionLeaderEpoch,
          magic: 2,
          crc: want.crc,
          attributes: want.attributes,
          baseTimestamp: want.baseTimestamp,
          maxTimestamp: want.maxTimestamp,
          producerId: want.producerId,
          producerEpoch: want.producerEpoch,
          baseSequence: want.baseSequence,
        });
        expect(batch.records).toHaveLength(want.recordsCount);
        batch.records.forEach((r, j) => {
          const wr = want.records[j];
          if (!wr) throw new Error('missing record expectation');
          expect(batch.baseOffset + r.offsetDelta).toBe(wr.offset);
          expect(recordTimestamp(batch, r)).toBe(wr.timestamp);
          expect(r.key === null ? -1 : r.key.length).toBe(wr.keyLength);
          expect(r.value === null ? -1 : r.value.length).toBe(wr.valueLength);
          expect(r.headers).toHaveLength(wr.headers);
        });
      });
    });

    it(`re-encodes every batch of ${partition.dir} byte for byte`, () => {
      const bytes = readFixture(`${partition.dir}/00000000000000000000.log`);
      const batches = decodeRecordBatches(bytes);
      let position = 0;
      for (const batch of batches) {
        const encoded = encodeRecordBatch(batch);
        expect(encoded).toEqual(bytes.subarray(position, position + encoded.length));
        position += encoded.length;
      }
      expect(position).toBe(bytes.length);
    });
  }

  it('round-trips the KRaft bootstrap.checkpoint, whose first and last batches are control batches', () => {
    const bytes = readFixture('bootstrap.checkpoint');
    const batches = decodeRecordBatches(bytes);
    expect(batches.map((b) => isControlBatch(b.attributes))).toEqual([true, false, true]);
    const reencoded = batches.map((b) => encodeRecordBatch(b));
    expect(Buffer.concat(reencoded)).toEqual(Buffer.from(bytes));
  });

  it('places the group of __consumer_offsets-6 where the fixture notes say (keys are exact)', () => {
    // Offset 1 is an OffsetCommitKey v1 for group DEVSmileCDR: int16 version, then the group string.
    const [, second] = decodeRecordBatches(readFixture('__consumer_offsets-6/00000000000000000000.log'));
    const key = second?.records[0]?.key;
    if (!key) throw new Error('no key');
    expect([...key.subarray(0, 2)]).toEqual([0, 1]);
    expect(new TextDecoder().decode(key.subarray(4, 4 + 11))).toBe('DEVSmileCDR');
  });
});

describe('encodeRecordBatch', () => {
  it('writes the 61-byte header in Kafka layout with a CRC-32C over attributes..end', () => {
    const bytes = encodeRecordBatch(simpleBatch([rec(0), rec(1, null, null)]));
    const header = readBatchHeader(bytes, 0);
    expect(header).toMatchObject({
      position: 0,
      baseOffset: 100,
      batchLength: bytes.length - 12,
      sizeInBytes: bytes.length,
      partitionLeaderEpoch: 3,
      magic: 2,
      attributes: 0,
      lastOffsetDelta: 1,
      lastOffset: 101,
      baseTimestamp: 1_700_000_000_000,
      maxTimestamp: 1_700_000_000_009,
      producerId: -1,
      producerEpoch: -1,
      baseSequence: -1,
      recordCount: 2,
    });
    expect(header.crc).toBe(crc32c(bytes, 21));
    const [decoded] = decodeRecordBatches(bytes);
    expect(decoded?.records[1]).toEqual(rec(1, null, null));
  });

  it('is deterministic for gzip (no wall-clock mtime in the gzip header)', () => {
    const input = simpleBatch([rec(0), rec(1)], batchAttributes({ compression: 'gzip' }));
    const a = encodeRecordBatch(input);
    const b = encodeRecordBatch(input);
    expect(a).toEqual(b);
    expect([...a.subarray(61, 71)]).toEqual([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0]);
  });

  // DefaultRecordBatch with CompressionType SNAPPY/LZ4/ZSTD (MemoryRecordsBuilderTest's codecs):
  // a batch written with each codec names it in attributes bits 0-2 and reads back the same records.
  it.each([
    ['snappy', 2],
    ['lz4', 3],
    ['zstd', 4],
  ] as const)('writes %s batches with codec id %d that read back', async (codec, id) => {
    await loadZstdEncoder();
    const input = simpleBatch([rec(0), rec(1, null, null)], batchAttributes({ compression: codec }));
    const bytes = encodeRecordBatch(input);
    expect((bytes[22] as number) & 7).toBe(id);
    expect(decodeRecordBatches(bytes)[0]?.records).toEqual(input.records);
  });

  it('rejects out-of-range fields with INVALID_RECORD and writes nothing', () => {
    const bad: Array<Partial<RecordBatchInput>> = [
      { baseOffset: 2 ** 60 },
      { producerEpoch: 40000 },
      { baseSequence: 1.5 },
      { records: [{ ...rec(0), offsetDelta: 2 ** 31 }] },
      { records: [{ ...rec(0), timestampDelta: Number.NaN }] },
      { records: [{ ...rec(0), attributes: 300 }] },
    ];
    for (const patch of bad) {
      const e = thrown(() => encodeRecordBatch({ ...simpleBatch([rec(0)]), ...patch }));
      expect(isKafkaError(e, 'INVALID_RECORD')).toBe(true);
    }
    expect(
      isKafkaError(
        thrown(() => encodeRecordBatch({ ...simpleBatch([]), magic: 1 })),
        'INVALID_RECORD',
      ),
    ).toBe(true);
  });

  it('encodes an empty batch (the log cleaner keeps those)', () => {
    const bytes = encodeRecordBatch(simpleBatch([]));
    expect(bytes.length).toBe(RECORD_BATCH_OVERHEAD);
    expect(decodeRecordBatches(bytes)[0]?.records).toEqual([]);
  });

  it('round-trips arbitrary batches in every codec (property)', async () => {
    await loadZstdEncoder();
    for (const codec of ['none', 'gzip', 'snappy', 'lz4', 'zstd'] as const) {
      fc.assert(
        fc.property(batchArb(codec), (input) => {
          const bytes = encodeRecordBatch(input);
          const [decoded, ...rest] = decodeRecordBatches(bytes);
          expect(rest).toEqual([]);
          expect(decoded).toEqual({ ...input, magic: 2, batchLength: bytes.length - 12, crc: crc32c(bytes, 21) });
          if (codec === 'none' && decoded) expect(encodeRecordBatch(decoded)).toEqual(bytes);
        }),
        { numRuns: codec === 'none' || codec === 'gzip' ? 200 : 60 },
      );
    }
  });
});

describe('decodeRecordBatches', () => {
  it('decodes concatenated batches in order', () => {
    const a = encodeRecordBatch(simpleBatch([rec(0)]));
    const b = encodeRecordBatch({ ...simpleBatch([rec(0), rec(1)]), baseOffset: 101 });
    const all = new Uint8Array(a.length + b.length);
    all.set(a);
    all.set(b, a.length);
    expect(decodeRecordBatches(all).map((x) => x.baseOffset)).toEqual([100, 101]);
    expect(decodeRecordBatches(new Uint8Array(0))).toEqual([]);
  });

  it.each([
    ['snappy', 2],
    ['lz4', 3],
    ['zstd', 4],
  ])('a valid-CRC %s batch whose records section is not that codec is CORRUPT_MESSAGE', (_name, id) => {
    const bytes = encodeRecordBatch(simpleBatch([rec(0)]));
    bytes[22] = id;
    new DataView(bytes.buffer).setUint32(17, crc32c(bytes, 21));
    expect(thrown(() => decodeRecordBatches(bytes))).toBeInstanceOf(CorruptRecordError);
  });

  it('treats compression ids 5-7 as corruption', () => {
    const bytes = encodeRecordBatch(simpleBatch([rec(0)]));
    bytes[22] = 6;
    new DataView(bytes.buffer).setUint32(17, crc32c(bytes, 21));
    expect(thrown(() => decodeRecordBatches(bytes))).toBeInstanceOf(CorruptRecordError);
  });

  it('reports a CRC mismatch with stored and computed values', () => {
    const bytes = encodeRecordBatch(simpleBatch([rec(0)]));
    bytes[bytes.length - 1] = (bytes[bytes.length - 1] as number) ^ 1;
    const e = thrown(() => decodeRecordBatches(bytes)) as CorruptRecordError;
    expect(e).toBeInstanceOf(CorruptRecordError);
    expect(e.code).toBe('CORRUPT_MESSAGE');
    expect(e.details).toMatchObject({ position: 0, reason: 'crc', storedCrc: readBatchHeader(bytes, 0).crc });
  });

  it('names a torn tail "truncated" at the position of the torn batch', () => {
    const a = encodeRecordBatch(simpleBatch([rec(0)]));
    const torn = new Uint8Array(a.length * 2 - 5);
    torn.set(a);
    torn.set(a.subarray(0, a.length - 5), a.length);
    const e = thrown(() => decodeRecordBatches(torn)) as CorruptRecordError;
    expect(e.details).toMatchObject({ position: a.length, reason: 'truncated' });
  });

  it('rejects a bad magic and a too-small batchLength', () => {
    const bytes = encodeRecordBatch(simpleBatch([rec(0)]));
    const m = bytes.slice();
    m[16] = 1;
    expect((thrown(() => readBatchHeader(m, 0)) as CorruptRecordError).details.reason).toBe('magic');
    const l = bytes.slice();
    new DataView(l.buffer).setInt32(8, 10);
    expect((thrown(() => readBatchHeader(l, 0)) as CorruptRecordError).details.reason).toBe('length');
  });

  it('reports an int64 beyond the safe integer range as CORRUPT_MESSAGE', () => {
    const bytes = encodeRecordBatch(simpleBatch([rec(0)]));
    new DataView(bytes.buffer).setBigInt64(0, 2n ** 62n);
    const e = thrown(() => readBatchHeader(bytes, 0)) as CorruptRecordError;
    expect(e).toBeInstanceOf(CorruptRecordError);
    expect(e.details.reason).toBe('unsafe-int64');
  });
});

/** Positions of each record's length prefix in an uncompressed batch at `header.position`. */
function recordPositions(bytes: Uint8Array, header: RecordBatchHeader): number[] {
  const out: number[] = [];
  let p = header.position + RECORD_BATCH_OVERHEAD;
  for (let i = 0; i < header.recordCount; i++) {
    out.push(p);
    let raw = 0;
    let shift = 0;
    let b: number;
    do {
      b = bytes[p++] as number;
      raw |= (b & 0x7f) << shift;
      shift += 7;
    } while (b & 0x80);
    p += (raw >>> 1) ^ -(raw & 1);
  }
  return out;
}

describe('decodeRecordAt', () => {
  it('decodes any single record exactly as decodeBatchRecords does (property)', () => {
    fc.assert(
      fc.property(batchArb('none'), fc.nat(64), (batch, lead) => {
        const encoded = encodeRecordBatch(batch);
        const bytes = new Uint8Array(lead + encoded.length);
        bytes.set(encoded, lead);
        const header = readBatchHeader(bytes, lead);
        const whole = decodeBatchRecords(bytes, header);
        recordPositions(bytes, header).forEach((position, i) => {
          expect(decodeRecordAt(bytes, header, position, i)).toEqual(whole[i]);
        });
      }),
      { numRuns: 200 },
    );
  });

  it('returns copies that survive the source being overwritten, across arena chunks and for large records', () => {
    // 120 records of 1-6 KiB: more than one 64 KiB arena chunk, and some past the 4 KiB arena limit.
    const records: DefaultRecord[] = Array.from({ length: 120 }, (_, i) => ({
      attributes: 0,
      timestampDelta: i,
      offsetDelta: i,
      key: utf8(`key-${i}`),
      value: new Uint8Array(1024 + (i % 6) * 1024).fill(i),
      headers: [{ key: `h${i}`, value: Uint8Array.of(i, i + 1) }],
    }));
    const bytes = encodeRecordBatch({
      baseOffset: 0,
      partitionLeaderEpoch: 0,
      attributes: 0,
      lastOffsetDelta: 119,
      baseTimestamp: 1_700_000_000_000,
      maxTimestamp: 1_700_000_000_119,
      producerId: -1,
      producerEpoch: -1,
      baseSequence: -1,
      records,
    });
    const header = readBatchHeader(bytes, 0);
    const decoded = recordPositions(bytes, header).map((p, i) => decodeRecordAt(bytes, header, p, i));
    bytes.fill(0xee);
    decoded.forEach((r, i) => {
      expect(r.offsetDelta).toBe(i);
      expect(new TextDecoder().decode(r.key as Uint8Array)).toBe(`key-${i}`);
      const value = r.value as Uint8Array;
      expect(value.length).toBe(1024 + (i % 6) * 1024);
      expect(value.every((b) => b === i)).toBe(true);
      expect(r.headers).toEqual([{ key: `h${i}`, value: Uint8Array.of(i, i + 1) }]);
    });
  });

  it('throws CorruptRecordError for a record running past its batch or malformed inside', () => {
    const bytes = encodeRecordBatch({
      baseOffset: 0,
      partitionLeaderEpoch: 0,
      attributes: 0,
      lastOffsetDelta: 1,
      baseTimestamp: 0,
      maxTimestamp: 1,
      producerId: -1,
      producerEpoch: -1,
      baseSequence: -1,
      records: [0, 1].map((i) => ({
        attributes: 0,
        timestampDelta: i,
        offsetDelta: i,
        key: null,
        value: utf8('v'),
        headers: [],
      })),
    });
    const header = readBatchHeader(bytes, 0);
    const [first, second] = recordPositions(bytes, header) as [number, number];
    const tooLong = bytes.slice();
    tooLong[second] = 0x7e; // size 63: past the end of the batch
    expect(() => decodeRecordAt(tooLong, header, second, 1)).toThrow(CorruptRecordError);
    const badKey = bytes.slice();
    badKey[first + 4] = 0x20; // key length 16 inside a 6-byte record
    expect(() => decodeRecordAt(badKey, header, first, 0)).toThrow(CorruptRecordError);
  });
});

describe('lastSequence', () => {
  it('follows DefaultRecordBatch.lastSequence, wrapping past Integer.MAX_VALUE', () => {
    expect(lastSequence(-1, 5)).toBe(-1);
    expect(lastSequence(0, 0)).toBe(0);
    expect(lastSequence(10, 4)).toBe(14);
    expect(lastSequence(2147483647, 1)).toBe(0);
    expect(lastSequence(2147483646, 3)).toBe(1);
  });
});
