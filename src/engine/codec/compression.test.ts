/**
 * The snappy, lz4 and zstd records-section codecs, judged by Kafka 3.9's own tests of its streams
 * (org.apache.kafka.common.compress.Lz4CompressionTest, SnappyCompressionTest,
 * ZstdCompressionTest) and by the stream formats its input streams accept.
 */
import { compress as rawSnappy } from 'snappyjs';
import { hash as xxh32 } from 'lz4js/xxh32.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { CorruptRecordError } from '../errors';
import { Rng } from '../Rng';
import { type CompressionType, compressRecords, decompressRecords } from './compression';
import { loadZstdEncoder } from './zstdCodec';

beforeAll(loadZstdEncoder);

function randomBytes(seed: number, n: number): Uint8Array {
  const rng = new Rng(seed);
  return Uint8Array.from({ length: n }, () => rng.nextInt(256));
}
const ones = (n: number) => new Uint8Array(n).fill(1);
const data = new TextEncoder().encode('data'.repeat(256));
// Lz4CompressionTest.Lz4ArgumentsProvider's payloads: empty, one byte, random and ones of 1000, 64 KiB, 96 KiB.
const PAYLOADS: [string, Uint8Array][] = [
  ['empty', new Uint8Array(0)],
  ['onebyte', Uint8Array.of(1)],
  ...[1000, 1 << 16, 96 * 1024].flatMap((n): [string, Uint8Array][] => [
    [`random ${n}`, randomBytes(n, n)],
    [`ones ${n}`, ones(n)],
  ]),
];

/** Byte equality without a deep comparison of 96 Ki elements. */
const same = (a: Uint8Array, b: Uint8Array) => Buffer.compare(a, b) === 0;
const corrupt = (type: CompressionType, bytes: Uint8Array) => () => decompressRecords(type, bytes);

describe('every codec round-trips (Lz4CompressionTest/SnappyCompressionTest/ZstdCompressionTest.testCompressionDecompression)', () => {
  it.each(['snappy', 'lz4', 'zstd'] as const)('%s', (type) => {
    for (const [, payload] of [...PAYLOADS, ['data', data] as [string, Uint8Array]]) {
      expect(same(decompressRecords(type, compressRecords(type, payload)), payload)).toBe(true);
    }
  });

  it('writes the same bytes for the same records (determinism)', () => {
    for (const type of ['snappy', 'lz4', 'zstd'] as const) {
      expect(compressRecords(type, data)).toEqual(compressRecords(type, data));
    }
  });
});

describe('lz4: the frame Lz4BlockOutputStream writes for magic 2 (Lz4CompressionTest)', () => {
  it('testCompression: magic, FLG version 1 with independent blocks, BD 64 KiB, descriptor checksum, end mark', () => {
    for (const [, payload] of PAYLOADS) {
      const c = compressRecords('lz4', payload);
      expect([...c.subarray(0, 4)]).toEqual([0x04, 0x22, 0x4d, 0x18]);
      expect(c[4]).toBe(0x60); // version 01, block independence, no checksums, no content size
      expect(c[5]).toBe(0x40); // BLOCKSIZE_64KB
      expect(c[6]).toBe((xxh32(0, c, 4, 2) >>> 8) & 0xff);
      expect([...c.subarray(c.length - 4)]).toEqual([0, 0, 0, 0]);
    }
  });

  it('splits input into 64 KiB blocks, an incompressible one stored with the high bit set', () => {
    const c = compressRecords('lz4', randomBytes(7, 96 * 1024));
    const view = new DataView(c.buffer, c.byteOffset);
    const first = view.getUint32(7, true);
    expect(first >>> 31).toBe(1);
    expect(first & 0x7fffffff).toBe(64 * 1024);
    const second = view.getUint32(7 + 4 + 64 * 1024, true);
    expect(second & 0x7fffffff).toBe(32 * 1024);
  });

  it('testHeaderPrematureEnd: two bytes are corrupt', () => {
    expect(corrupt('lz4', Uint8Array.of(0x04, 0x22))).toThrow(CorruptRecordError);
  });

  it('testNotSupported: a bad magic is corrupt', () => {
    const c = compressRecords('lz4', data);
    c[0] = 0;
    expect(corrupt('lz4', c)).toThrow(/no LZ4 frame magic/);
  });

  it('testBadFrameChecksum: a wrong descriptor checksum is corrupt', () => {
    const c = compressRecords('lz4', data);
    c[6] = 0xff;
    expect(corrupt('lz4', c)).toThrow(/descriptor corrupted/);
  });

  it('testBadBlockSize: a block larger than the frame maximum is corrupt', () => {
    const c = compressRecords('lz4', data);
    const view = new DataView(c.buffer, c.byteOffset);
    view.setUint32(7, ((view.getUint32(7, true) & 0x80000000) | (1 << 24)) >>> 0, true);
    expect(corrupt('lz4', c)).toThrow(/exceeded max/);
  });

  it('testArrayBackedBuffer with close=false: a frame without its end mark ends prematurely', () => {
    const c = compressRecords('lz4', data);
    expect(corrupt('lz4', c.subarray(0, c.length - 4))).toThrow(/prematurely/);
  });

  it('Lz4BlockInputStream: dependent blocks are unsupported; flagged block checksums are checked', () => {
    const dependent = compressRecords('lz4', data);
    dependent[4] = 0x40;
    dependent[6] = (xxh32(0, dependent, 4, 2) >>> 8) & 0xff;
    expect(corrupt('lz4', dependent)).toThrow(/dependent block/);
    // A stored block with a block checksum, as Lz4BlockOutputStream(blockChecksum = true) writes it.
    const payload = Uint8Array.of(1, 2, 3);
    const frame = new Uint8Array(7 + 4 + 3 + 4 + 4);
    const view = new DataView(frame.buffer);
    view.setUint32(0, 0x184d2204, true);
    frame[4] = 0x70;
    frame[5] = 0x40;
    frame[6] = (xxh32(0, frame, 4, 2) >>> 8) & 0xff;
    view.setUint32(7, (0x80000000 | 3) >>> 0, true);
    frame.set(payload, 11);
    view.setUint32(14, xxh32(0, payload, 0, 3) >>> 0, true);
    expect(decompressRecords('lz4', frame)).toEqual(payload);
    frame[15] = (frame[15] as number) ^ 1;
    expect(corrupt('lz4', frame)).toThrow(/block checksum/);
  });

  it('a match reaching before the block is corrupt, not garbage (lz4-java safe decompressor)', () => {
    const frame = compressRecords('lz4', Uint8Array.of());
    const block = Uint8Array.of(0x10, 0x41, 0x05, 0x00, 0x00); // 1 literal, then a match 5 back
    const out = new Uint8Array(7 + 4 + block.length + 4);
    out.set(frame.subarray(0, 7));
    new DataView(out.buffer).setUint32(7, block.length, true);
    out.set(block, 11);
    expect(corrupt('lz4', out)).toThrow(/points outside the output/);
  });
});

describe('snappy: the xerial stream of SnappyOutputStream (SnappyCompressionTest)', () => {
  it('writes the magic header, version 1, compatible version 1, then 32 KiB chunks', () => {
    const c = compressRecords('snappy', ones(40 * 1024));
    expect([...c.subarray(0, 16)]).toEqual([0x82, 0x53, 0x4e, 0x41, 0x50, 0x50, 0x59, 0, 0, 0, 0, 1, 0, 0, 0, 1]);
    const view = new DataView(c.buffer, c.byteOffset);
    const first = view.getInt32(16);
    expect(same(decompressRecords('snappy', c), ones(40 * 1024))).toBe(true);
    // The first chunk alone is 32 KiB of input (SnappyOutputStream.DEFAULT_BLOCK_SIZE).
    const firstOnly = new Uint8Array(16 + 4 + first);
    firstOnly.set(c.subarray(0, 20 + first));
    expect(decompressRecords('snappy', firstOnly).length).toBe(32 * 1024);
  });

  it('SnappyInputStream reads raw snappy without the header, and a concatenated stream', () => {
    expect(decompressRecords('snappy', rawSnappy(data))).toEqual(data);
    const a = compressRecords('snappy', data);
    const both = new Uint8Array(a.length * 2);
    both.set(a);
    both.set(a, a.length);
    expect(decompressRecords('snappy', both)).toEqual(new Uint8Array([...data, ...data]));
  });

  it('a chunk length past the section, or a bad bitstream, is corrupt', () => {
    const c = compressRecords('snappy', data);
    new DataView(c.buffer, c.byteOffset).setInt32(16, 1 << 30);
    expect(corrupt('snappy', c)).toThrow(CorruptRecordError);
    expect(corrupt('snappy', Uint8Array.of(0xff, 0xff, 0xff, 0xff, 0x0f))).toThrow(CorruptRecordError);
  });
});

describe('zstd: standard frames at compression.zstd.level (ZstdCompressionTest)', () => {
  it('writes a zstd frame; levels change the bytes, not the records', () => {
    const payload = new TextEncoder().encode(Array.from({ length: 2000 }, (_, i) => `record-${i % 97}`).join(','));
    const l1 = compressRecords('zstd', payload, 1);
    const l19 = compressRecords('zstd', payload, 19);
    expect([...l1.subarray(0, 4)]).toEqual([0x28, 0xb5, 0x2f, 0xfd]);
    expect(l19.length).toBeLessThan(l1.length);
    expect(decompressRecords('zstd', l1)).toEqual(payload);
    expect(decompressRecords('zstd', l19)).toEqual(payload);
  });

  it('a frame whose content size is not what its blocks decode to is corrupt (fzstd would pad with zeros)', () => {
    const c = compressRecords('zstd', data);
    // Single-segment frame with a 2-byte content size: make it claim 65535 + 256 bytes.
    const fhd = c[4] as number;
    expect(fhd >>> 6).toBe(1);
    expect((fhd >> 5) & 1).toBe(1);
    c[5] = 0xff;
    c[6] = 0xff;
    expect(corrupt('zstd', c)).toThrow(/content size/);
  });

  it('a frame needing a window past zstd’s default limit (2^27) is refused, as ZSTD_WINDOWLOG_LIMIT_DEFAULT', () => {
    // magic, FHD without single segment or content size, window descriptor 2^28, one empty raw last block.
    const frame = Uint8Array.of(0x28, 0xb5, 0x2f, 0xfd, 0x00, (28 - 10) << 3, 0x01, 0x00, 0x00);
    expect(corrupt('zstd', frame)).toThrow(/too much memory/);
    // The same with a 2^20 window decodes to nothing, allocating no window beyond its output.
    frame[5] = (20 - 10) << 3;
    expect(decompressRecords('zstd', frame)).toEqual(new Uint8Array(0));
  });
});
