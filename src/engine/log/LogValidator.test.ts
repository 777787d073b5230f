import { beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../Clock';
import {
  COMPRESSION_CODEC_MASK,
  type CompressionType,
  compressionId,
  compressRecords,
  decodeRecordBatches,
  decompressRecords,
  encodeRecordBatch,
  RECORD_BATCH_OVERHEAD,
} from '../codec';
import { loadZstdEncoder } from '../codec/zstdCodec';
import { UnifiedLog } from './UnifiedLog';

const T0 = 1_700_000_000_000;
beforeAll(loadZstdEncoder);
const enc = new TextEncoder();

/** A producer's batch of two records (the second 5 ms later), compressed with `codec`. */
function batch(codec: CompressionType, baseTimestamp = T0, level?: number): Uint8Array {
  return encodeRecordBatch(
    {
      baseOffset: 0,
      partitionLeaderEpoch: -1,
      attributes: compressionId(codec),
      lastOffsetDelta: 1,
      baseTimestamp,
      maxTimestamp: T0 + 5,
      producerId: 7,
      producerEpoch: 0,
      baseSequence: 0,
      records: ['some'.repeat(256), 'data'.repeat(256)].map((v, i) => ({
        attributes: 0,
        timestampDelta: T0 + 5 * i - baseTimestamp,
        offsetDelta: i,
        key: enc.encode(`k${i}`),
        value: enc.encode(v),
        headers: [],
      })),
    },
    level,
  );
}

/** A log with topic config `config` after a leader append of `records` (leader epoch 3 unless told). */
function appended(config: ConstructorParameters<typeof UnifiedLog>[0]['config'], records: Uint8Array, leaderEpoch = 3) {
  const log = new UnifiedLog({ dir: 't-0', config, clock: new ManualClock(T0) });
  log.appendAsLeader(records, leaderEpoch);
  return log;
}

function stored(compression: string, records: Uint8Array) {
  const log = appended({ 'compression.type': compression }, records);
  const [b] = UnifiedLog.decode(log.fetch(0, 1 << 20));
  if (!b) throw new Error('nothing stored');
  return { log, b, bytes: log.fetch(0, 1 << 20).records };
}

/** What a consumer sees of a batch: offsets, timestamps, keys, values, producer fields. */
function seen(b: ReturnType<typeof decodeRecordBatches>[number]) {
  return {
    producer: [b.producerId, b.producerEpoch, b.baseSequence],
    records: b.records.map((r) => [
      b.baseOffset + r.offsetDelta,
      b.baseTimestamp + r.timestampDelta,
      new TextDecoder().decode(r.key as Uint8Array),
      (r.value as Uint8Array).length,
    ]),
  };
}

describe('LogValidator recompression (compression.type other than producer)', () => {
  it('a batch in another codec is rebuilt in the topic codec, the same records at the same offsets (LogValidatorTest.testDifferentCodecCausesRecompression)', () => {
    const sent = batch('gzip');
    const { b } = stored('uncompressed', sent);
    expect(b.attributes & COMPRESSION_CODEC_MASK).toBe(compressionId('none'));
    expect(seen(b)).toEqual(seen(decodeRecordBatches(sent)[0] as never));
    expect(b.partitionLeaderEpoch).toBe(3);

    const { b: g, log } = stored('gzip', batch('none'));
    expect(g.attributes & COMPRESSION_CODEC_MASK).toBe(compressionId('gzip'));
    expect(seen(g)).toEqual(seen(decodeRecordBatches(batch('none'))[0] as never));
    // The gzip batch is smaller than the producer's uncompressed one: the log holds the rebuilt bytes.
    expect(log.size).toBeLessThan(batch('none').length);
  });

  it('rebuilds with the base timestamp of the first record (LogValidator.buildRecordsAndAssignOffsets, MemoryRecordsBuilder)', () => {
    const { b } = stored('gzip', batch('none', T0 - 1000));
    expect(b.baseTimestamp).toBe(T0);
    expect(b.records.map((r) => r.timestampDelta)).toEqual([0, 5]);
    expect(b.maxTimestamp).toBe(T0 + 5);
  });

  it('a batch already in the topic codec is kept as sent (LogValidatorTest.testDifferentLevelDoesNotCauseRecompression: in-place assignment)', () => {
    const sent = batch('gzip');
    const { bytes } = stored('gzip', sent);
    // Only the base offset (0) and the partition leader epoch (bytes 12-15) differ.
    expect(bytes.subarray(16)).toEqual(sent.subarray(16));
  });

  it('gzip at its max level into a topic of lz4 at its min level is rebuilt in lz4 (LogValidatorTest.testDifferentCodecCausesRecompression)', () => {
    const sent = batch('gzip', T0, 9);
    const log = appended({ 'compression.type': 'lz4', 'compression.lz4.level': 1 }, sent);
    const [b] = UnifiedLog.decode(log.fetch(0, 1 << 20));
    expect((b?.attributes ?? 0) & COMPRESSION_CODEC_MASK).toBe(compressionId('lz4'));
    expect(seen(b as never)).toEqual(seen(decodeRecordBatches(sent)[0] as never));
  });

  it.each(['snappy', 'lz4', 'zstd'] as const)(
    'a topic of %s rebuilds a gzip batch in its codec, the same records at the same offsets',
    (codec) => {
      const sent = batch('gzip');
      const { b } = stored(codec, sent);
      expect(b.attributes & COMPRESSION_CODEC_MASK).toBe(compressionId(codec));
      expect(seen(b)).toEqual(seen(decodeRecordBatches(sent)[0] as never));
    },
  );

  it('rebuilds at the topic level compression.zstd.level (LogConfig.compression, KIP-390)', () => {
    const log = appended({ 'compression.type': 'zstd', 'compression.zstd.level': 19 }, batch('none'), 0);
    const section = log.fetch(0, 1 << 20).records.subarray(RECORD_BATCH_OVERHEAD);
    const raw = decompressRecords('zstd', section);
    expect(section).toEqual(compressRecords('zstd', raw, 19));
    expect(section).not.toEqual(compressRecords('zstd', raw, 1));
  });

  it('zstd written at another level stays as sent (LogValidatorTest.testDifferentLevelDoesNotCauseRecompression)', () => {
    const sent = batch('zstd', T0, 1);
    const log = appended({ 'compression.type': 'zstd', 'compression.zstd.level': 19 }, sent);
    expect(log.fetch(0, 1 << 20).records.subarray(16)).toEqual(sent.subarray(16));
  });
});
