/**
 * Fuzzing the RecordBatch decoder: whatever the bytes, it returns batches or throws
 * CorruptRecordError, in every codec (none, gzip, snappy, lz4, zstd). It never hangs and never
 * allocates from a hostile length field. Every case is seeded and the seed is in the test name; set
 * GLASSBOX_FUZZ_SEEDS=N for a longer run.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { CorruptRecordError } from '../errors';
import { Rng } from '../Rng';
import type { CompressionType } from './compression';
import { crc32c } from './crc32c';
import {
  batchAttributes,
  decodeRecordBatches,
  type DefaultRecord,
  encodeRecordBatch,
  RECORD_BATCH_OVERHEAD,
} from './recordBatch';
import { loadZstdEncoder } from './zstdCodec';

const SEED_COUNT = Number(process.env.GLASSBOX_FUZZ_SEEDS ?? 24);
const SEEDS = Array.from({ length: SEED_COUNT }, (_, i) => 1000 + i);

/** Decodes and classifies the outcome; anything but the allowed errors fails the test. */
function decodeOutcome(bytes: Uint8Array): 'ok' | 'corrupt' {
  try {
    decodeRecordBatches(bytes);
    return 'ok';
  } catch (e) {
    if (e instanceof CorruptRecordError) return 'corrupt';
    throw e;
  }
}

const CODECS = ['none', 'gzip', 'snappy', 'lz4', 'zstd'] as const;
beforeAll(loadZstdEncoder);

function randomBytes(rng: Rng, length: number): Uint8Array {
  const b = new Uint8Array(length);
  for (let i = 0; i < length; i++) b[i] = rng.nextInt(256);
  return b;
}

function randomRecords(rng: Rng): DefaultRecord[] {
  const n = 1 + rng.nextInt(5);
  return Array.from({ length: n }, (_, i) => ({
    attributes: 0,
    timestampDelta: rng.nextInt(2000),
    offsetDelta: i,
    key: rng.next() < 0.3 ? null : randomBytes(rng, rng.nextInt(12)),
    value: rng.next() < 0.1 ? null : randomBytes(rng, rng.nextInt(40)),
    headers: rng.next() < 0.5 ? [] : [{ key: `h${rng.nextInt(100)}`, value: randomBytes(rng, rng.nextInt(6)) }],
  }));
}

function validBatch(rng: Rng, compression: CompressionType): Uint8Array {
  const records = randomRecords(rng);
  return encodeRecordBatch({
    baseOffset: rng.nextInt(1_000_000),
    partitionLeaderEpoch: rng.nextInt(10),
    attributes: batchAttributes({ compression }),
    lastOffsetDelta: records.length - 1,
    baseTimestamp: 1_700_000_000_000 + rng.nextInt(1_000_000),
    maxTimestamp: 1_700_000_000_000 + rng.nextInt(1_000_000),
    producerId: -1,
    producerEpoch: -1,
    baseSequence: -1,
    records,
  });
}

describe('decoder fuzz: random bytes', () => {
  it.each(SEEDS)('seed %d', (seed) => {
    const rng = new Rng(seed);
    for (let i = 0; i < 200; i++) decodeOutcome(randomBytes(rng, rng.nextInt(300)));
  });
});

describe('decoder fuzz: random records section under a valid header and CRC', () => {
  it.each(SEEDS)('seed %d', (seed) => {
    const rng = new Rng(seed);
    for (let i = 0; i < 200; i++) {
      const bytes = randomBytes(rng, RECORD_BATCH_OVERHEAD + rng.nextInt(200));
      const view = new DataView(bytes.buffer);
      view.setBigInt64(0, BigInt(rng.nextInt(1000)));
      view.setInt32(8, bytes.length - 12);
      bytes[16] = 2;
      view.setBigInt64(27, 0n);
      view.setBigInt64(35, 0n);
      view.setBigInt64(43, -1n);
      view.setInt32(57, rng.next() < 0.8 ? rng.nextInt(8) : rng.nextInt(2 ** 31));
      bytes[21] = 0;
      bytes[22] = rng.nextInt(0x40);
      view.setUint32(17, crc32c(bytes, 21));
      decodeOutcome(bytes);
    }
  });
});

describe('decoder fuzz: every truncation of a valid batch', () => {
  it.each(SEEDS.slice(0, Math.max(8, Math.floor(SEED_COUNT / 3))))('seed %d', (seed) => {
    const rng = new Rng(seed);
    for (const compression of CODECS) {
      const bytes = validBatch(rng, compression);
      for (let cut = 1; cut < bytes.length; cut++) {
        expect(decodeOutcome(bytes.subarray(0, cut))).toBe('corrupt');
      }
      expect(decodeOutcome(bytes)).toBe('ok');
    }
  });
});

describe('decoder fuzz: every single-bit flip of a valid batch', () => {
  it.each(SEEDS.slice(0, Math.max(8, Math.floor(SEED_COUNT / 3))))('seed %d', (seed) => {
    const rng = new Rng(seed);
    for (const compression of CODECS) {
      const bytes = validBatch(rng, compression);
      for (let bit = 0; bit < bytes.length * 8; bit++) {
        const flipped = bytes.slice();
        const byte = bit >> 3;
        flipped[byte] = (flipped[byte] as number) ^ (1 << (bit & 7));
        const outcome = decodeOutcome(flipped);
        // CRC-32C detects every single-bit error in the bytes it covers, and the crc field itself;
        // batchLength and magic are checked structurally. Only baseOffset and
        // partitionLeaderEpoch lie outside every check.
        if (byte >= 8 && (byte < 12 || byte >= 16)) expect(outcome, `bit ${bit}`).toBe('corrupt');
      }
    }
  });
});

describe('decoder fuzz: a compressed section damaged under a recomputed CRC', () => {
  // The CRC no longer guards the section: every codec's reader must find the damage itself.
  it.each(SEEDS.slice(0, Math.max(8, Math.floor(SEED_COUNT / 3))))('seed %d', (seed) => {
    const rng = new Rng(seed);
    for (const compression of CODECS.slice(1)) {
      const bytes = validBatch(rng, compression);
      for (let i = 0; i < 150; i++) {
        const damaged = bytes.slice(0, RECORD_BATCH_OVERHEAD + rng.nextInt(bytes.length - RECORD_BATCH_OVERHEAD + 1));
        const hits = 1 + rng.nextInt(3);
        for (let h = 0; h < hits && damaged.length > RECORD_BATCH_OVERHEAD; h++) {
          const at = RECORD_BATCH_OVERHEAD + rng.nextInt(damaged.length - RECORD_BATCH_OVERHEAD);
          damaged[at] = rng.nextInt(256);
        }
        const view = new DataView(damaged.buffer);
        view.setInt32(8, damaged.length - 12);
        view.setUint32(17, crc32c(damaged, 21));
        decodeOutcome(damaged);
      }
    }
  });
});

describe('hostile length fields', () => {
  it('a batchLength of 2^31 - 1 over a small buffer is a truncation, not an allocation', () => {
    const bytes = encodeRecordBatch({
      baseOffset: 0,
      partitionLeaderEpoch: 0,
      attributes: 0,
      lastOffsetDelta: 0,
      baseTimestamp: 0,
      maxTimestamp: 0,
      producerId: -1,
      producerEpoch: -1,
      baseSequence: -1,
      records: [],
    });
    new DataView(bytes.buffer).setInt32(8, 0x7fffffff);
    try {
      decodeRecordBatches(bytes);
      expect.unreachable();
    } catch (e) {
      expect((e as CorruptRecordError).details.reason).toBe('truncated');
    }
  });

  it('a record count of 2^31 - 1 with a valid CRC is refused before the loop', () => {
    const rng = new Rng(7);
    const bytes = validBatch(rng, 'none');
    const view = new DataView(bytes.buffer);
    view.setInt32(57, 0x7fffffff);
    view.setUint32(17, crc32c(bytes, 21));
    expect(decodeOutcome(bytes)).toBe('corrupt');
  });

  it('a gzip trailer claiming 4 GiB inflated is refused before inflating', () => {
    const rng = new Rng(8);
    const bytes = validBatch(rng, 'gzip');
    const view = new DataView(bytes.buffer);
    view.setUint32(bytes.length - 4, 0xffffffff, true);
    view.setUint32(17, crc32c(bytes, 21));
    try {
      decodeRecordBatches(bytes);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(CorruptRecordError);
      expect((e as CorruptRecordError).details.reason).toBe('compression');
    }
  });

  it('a record length varint pointing past the batch is corrupt', () => {
    const rng = new Rng(9);
    const bytes = validBatch(rng, 'none');
    bytes[61] = 0xfe; // zigzag length 127 then continuation bits follow from the next byte
    bytes[62] = 0x7f;
    new DataView(bytes.buffer).setUint32(17, crc32c(bytes, 21));
    expect(decodeOutcome(bytes)).toBe('corrupt');
  });
});
