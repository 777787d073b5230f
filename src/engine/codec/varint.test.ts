import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CorruptRecordError } from '../errors';
import * as varint from './varint';

// Vectors from apache/kafka clients/src/test/java/org/apache/kafka/common/utils/ByteUtilsTest.java
// (testUnsignedVarintSerde, testVarintSerde, testVarlongSerde, testInvalidVarint, testInvalidVarlong).
const UNSIGNED_VARINT: Array<[number, number[]]> = [
  [0, [0x00]],
  [-1, [0xff, 0xff, 0xff, 0xff, 0x0f]],
  [1, [0x01]],
  [63, [0x3f]],
  [-64, [0xc0, 0xff, 0xff, 0xff, 0x0f]],
  [64, [0x40]],
  [8191, [0xff, 0x3f]],
  [-8192, [0x80, 0xc0, 0xff, 0xff, 0x0f]],
  [8192, [0x80, 0x40]],
  [-8193, [0xff, 0xbf, 0xff, 0xff, 0x0f]],
  [1048575, [0xff, 0xff, 0x3f]],
  [1048576, [0x80, 0x80, 0x40]],
  [2147483647, [0xff, 0xff, 0xff, 0xff, 0x07]],
  [-2147483648, [0x80, 0x80, 0x80, 0x80, 0x08]],
];

const VARINT: Array<[number, number[]]> = [
  [0, [0x00]],
  [-1, [0x01]],
  [1, [0x02]],
  [63, [0x7e]],
  [-64, [0x7f]],
  [64, [0x80, 0x01]],
  [-65, [0x81, 0x01]],
  [8191, [0xfe, 0x7f]],
  [-8192, [0xff, 0x7f]],
  [8192, [0x80, 0x80, 0x01]],
  [-8193, [0x81, 0x80, 0x01]],
  [1048575, [0xfe, 0xff, 0x7f]],
  [-1048576, [0xff, 0xff, 0x7f]],
  [1048576, [0x80, 0x80, 0x80, 0x01]],
  [-1048577, [0x81, 0x80, 0x80, 0x01]],
  [134217727, [0xfe, 0xff, 0xff, 0x7f]],
  [-134217728, [0xff, 0xff, 0xff, 0x7f]],
  [134217728, [0x80, 0x80, 0x80, 0x80, 0x01]],
  [-134217729, [0x81, 0x80, 0x80, 0x80, 0x01]],
  [2147483647, [0xfe, 0xff, 0xff, 0xff, 0x0f]],
  [-2147483648, [0xff, 0xff, 0xff, 0xff, 0x0f]],
];

// testVarlongSerde: the int32 rows above plus these 64-bit rows (those beyond 2^53 go to the bigint API).
const VARLONG_EXTRA: Array<[bigint, number[]]> = [
  [17179869183n, [0xfe, 0xff, 0xff, 0xff, 0x7f]],
  [-17179869184n, [0xff, 0xff, 0xff, 0xff, 0x7f]],
  [17179869184n, [0x80, 0x80, 0x80, 0x80, 0x80, 0x01]],
  [-17179869185n, [0x81, 0x80, 0x80, 0x80, 0x80, 0x01]],
  [2199023255551n, [0xfe, 0xff, 0xff, 0xff, 0xff, 0x7f]],
  [-2199023255552n, [0xff, 0xff, 0xff, 0xff, 0xff, 0x7f]],
  [2199023255552n, [0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01]],
  [-2199023255553n, [0x81, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01]],
  [281474976710655n, [0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f]],
  [-281474976710656n, [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f]],
  [281474976710656n, [0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01]],
  [-281474976710657n, [0x81, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01]],
  [36028797018963967n, [0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f]],
  [-36028797018963968n, [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f]],
  [36028797018963968n, [0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01]],
  [-36028797018963969n, [0x81, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01]],
  [4611686018427387903n, [0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f]],
  [-4611686018427387904n, [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f]],
  [4611686018427387904n, [0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01]],
  [-4611686018427387905n, [0x81, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01]],
  [9223372036854775807n, [0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]],
  [-9223372036854775808n, [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]],
];

function encoded(write: (v: number, out: Uint8Array, p: number) => number, value: number): number[] {
  const out = new Uint8Array(16);
  const end = write(value, out, 0);
  return [...out.subarray(0, end)];
}

describe('unsigned varint (ByteUtilsTest.testUnsignedVarintSerde)', () => {
  it.each(UNSIGNED_VARINT)('%d', (value, bytes) => {
    expect(encoded(varint.writeUnsignedVarint, value)).toEqual(bytes);
    expect(varint.sizeOfUnsignedVarint(value)).toBe(bytes.length);
    expect(varint.readUnsignedVarint(Uint8Array.from(bytes), 0)).toEqual({ value, next: bytes.length });
  });
});

describe('zigzag varint (ByteUtilsTest.testVarintSerde)', () => {
  it.each(VARINT)('%d', (value, bytes) => {
    expect(encoded(varint.writeVarint, value)).toEqual(bytes);
    expect(varint.sizeOfVarint(value)).toBe(bytes.length);
    expect(varint.readVarint(Uint8Array.from(bytes), 0)).toEqual({ value, next: bytes.length });
  });

  it('rejects a 6-byte varint (testInvalidVarint)', () => {
    expect(() => varint.readVarint(Uint8Array.from([0xff, 0xff, 0xff, 0xff, 0xff, 0x01]), 0)).toThrow(
      CorruptRecordError,
    );
  });
});

describe('zigzag varlong (ByteUtilsTest.testVarlongSerde)', () => {
  const rows: Array<[bigint, number[]]> = [
    ...VARINT.map(([v, b]) => [BigInt(v), b] as [bigint, number[]]),
    ...VARLONG_EXTRA,
  ];
  it.each(rows)('%s', (big, bytes) => {
    const buf = Uint8Array.from(bytes);
    const out = new Uint8Array(16);
    expect([...out.subarray(0, varint.writeVarlongBigInt(big, out, 0))]).toEqual(bytes);
    expect(varint.readVarlongBigInt(buf, 0)).toEqual({ value: big, next: bytes.length });
    const n = Number(big);
    if (Number.isSafeInteger(n)) {
      expect(encoded(varint.writeVarlong, n)).toEqual(bytes);
      expect(varint.sizeOfVarlong(n)).toBe(bytes.length);
      expect(varint.readVarlong(buf, 0)).toEqual({ value: n, next: bytes.length });
    } else {
      // Documented: a number-valued varlong outside the safe range is CORRUPT_MESSAGE, never rounded.
      expect(() => varint.readVarlong(buf, 0)).toThrow(CorruptRecordError);
    }
  });

  it('rejects an 11-byte varlong (testInvalidVarlong)', () => {
    const bytes = Uint8Array.from([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]);
    expect(() => varint.readVarlong(bytes, 0)).toThrow(CorruptRecordError);
    expect(() => varint.readVarlongBigInt(bytes, 0)).toThrow(CorruptRecordError);
  });

  it('handles the safe-integer edges', () => {
    for (const n of [Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, 2 ** 31, -(2 ** 31) - 1, 2 ** 32, -(2 ** 32)]) {
      const out = new Uint8Array(16);
      const end = varint.writeVarlong(n, out, 0);
      expect(end).toBe(varint.sizeOfVarlong(n));
      expect(varint.readVarlong(out, 0)).toEqual({ value: n, next: end });
      expect(varint.readVarlongBigInt(out, 0).value).toBe(BigInt(n));
    }
  });
});

describe('truncated input', () => {
  it('throws CorruptRecordError instead of reading past the end', () => {
    const bytes = Uint8Array.from([0x80, 0x80]);
    expect(() => varint.readUnsignedVarint(bytes, 0)).toThrow(CorruptRecordError);
    expect(() => varint.readVarint(bytes, 0)).toThrow(CorruptRecordError);
    expect(() => varint.readVarlong(bytes, 0)).toThrow(CorruptRecordError);
    expect(() => varint.readVarlongBigInt(bytes, 0)).toThrow(CorruptRecordError);
    expect(() => varint.readVarint(new Uint8Array(0), 0)).toThrow(CorruptRecordError);
  });
});

describe('round trips (property)', () => {
  it('varint', () => {
    fc.assert(
      fc.property(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), fc.nat(4), (v, pad) => {
        const out = new Uint8Array(pad + 5);
        const end = varint.writeVarint(v, out, pad);
        expect(end - pad).toBe(varint.sizeOfVarint(v));
        expect(varint.readVarint(out, pad)).toEqual({ value: v, next: end });
      }),
    );
  });

  it('varlong agrees with the bigint encoding on every safe integer', () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), (v) => {
        const a = new Uint8Array(10);
        const b = new Uint8Array(10);
        const endA = varint.writeVarlong(v, a, 0);
        const endB = varint.writeVarlongBigInt(BigInt(v), b, 0);
        expect(a.subarray(0, endA)).toEqual(b.subarray(0, endB));
        expect(endA).toBe(varint.sizeOfVarlong(v));
        expect(varint.readVarlong(a, 0)).toEqual({ value: v, next: endA });
      }),
    );
  });
});
