import { describe, expect, it } from 'vitest';
import { ManualClock } from '../Clock';
import { decodeRecordBatches, recordTimestamp, timestampType, validateBatchCrc, readBatchHeader } from '../codec';
import { isKafkaError } from '../errors';
import { createLogConfig, KAFKA_DEFAULT_LOG_CONFIG } from './LogConfig';
import { UnifiedLog } from './UnifiedLog';
import { makeBatch, makeRecords } from './testSupport';

const T0 = 1_700_000_000_000;

function rejects(overrides: Record<string, string | number>, message: RegExp): void {
  try {
    createLogConfig(overrides);
    expect.unreachable();
  } catch (e) {
    expect(isKafkaError(e, 'INVALID_CONFIG')).toBe(true);
    expect((e as Error).message).toMatch(message);
  }
}

describe('LogConfig: the topic configs Kafka 3.9 defines (storage LogConfig.CONFIG)', () => {
  it('has Kafka 3.9 defaults for segment.jitter.ms, min.cleanable.dirty.ratio, max.compaction.lag.ms, message.timestamp.type, compression.type', () => {
    expect(KAFKA_DEFAULT_LOG_CONFIG['segment.jitter.ms']).toBe(0);
    expect(KAFKA_DEFAULT_LOG_CONFIG['min.cleanable.dirty.ratio']).toBe(0.5);
    expect(KAFKA_DEFAULT_LOG_CONFIG['max.compaction.lag.ms']).toBe(Number.POSITIVE_INFINITY);
    expect(KAFKA_DEFAULT_LOG_CONFIG['message.timestamp.type']).toBe('CreateTime');
    expect(KAFKA_DEFAULT_LOG_CONFIG['compression.type']).toBe('producer');
  });

  it('accepts the values Kafka accepts, as numbers or strings, and broker-level synonyms', () => {
    const c = createLogConfig({
      'segment.jitter.ms': '1000',
      'min.cleanable.dirty.ratio': '0.1',
      'max.compaction.lag.ms': 60_000,
      'message.timestamp.type': 'LogAppendTime',
      'compression.type': 'gzip',
    });
    expect(c).toMatchObject({
      'segment.jitter.ms': 1000,
      'min.cleanable.dirty.ratio': 0.1,
      'max.compaction.lag.ms': 60_000,
      'message.timestamp.type': 'LogAppendTime',
      'compression.type': 'gzip',
    });
    for (const t of ['uncompressed', 'zstd', 'lz4', 'snappy', 'gzip', 'producer'])
      expect(createLogConfig({ 'compression.type': t })['compression.type']).toBe(t);
    expect(createLogConfig({ 'min.cleanable.dirty.ratio': 0 })['min.cleanable.dirty.ratio']).toBe(0);
    expect(createLogConfig({ 'min.cleanable.dirty.ratio': 1 })['min.cleanable.dirty.ratio']).toBe(1);
    // ServerTopicConfigSynonyms: log.roll.jitter.ms, log.cleaner.min.cleanable.ratio, ...
    expect(
      createLogConfig({
        'log.roll.jitter.ms': 5,
        'log.cleaner.min.cleanable.ratio': 0.25,
        'log.cleaner.max.compaction.lag.ms': 9,
        'log.message.timestamp.type': 'LogAppendTime',
      }),
    ).toMatchObject({
      'segment.jitter.ms': 5,
      'min.cleanable.dirty.ratio': 0.25,
      'max.compaction.lag.ms': 9,
      'message.timestamp.type': 'LogAppendTime',
    });
  });

  it('KIP-390 levels: compression.gzip/lz4/zstd.level with Kafka 3.9 defaults and validators (GzipCompression.LevelValidator, CompressionType.levelValidator)', () => {
    expect(KAFKA_DEFAULT_LOG_CONFIG).toMatchObject({
      'compression.gzip.level': -1,
      'compression.lz4.level': 9,
      'compression.zstd.level': 3,
    });
    expect(
      createLogConfig({
        'compression.gzip.level': '9',
        'compression.lz4.level': 17,
        'compression.zstd.level': -131072,
      }),
    ).toMatchObject({ 'compression.gzip.level': 9, 'compression.lz4.level': 17, 'compression.zstd.level': -131072 });
    rejects({ 'compression.gzip.level': 0 }, /Value must be between 1 and 9 or equal to -1/);
    rejects({ 'compression.gzip.level': 10 }, /Value must be between 1 and 9 or equal to -1/);
    rejects({ 'compression.lz4.level': 0 }, /compression\.lz4\.level: Value must be at least 1/);
    rejects({ 'compression.lz4.level': 18 }, /Value must be no more than 17/);
    rejects({ 'compression.zstd.level': 23 }, /Value must be no more than 22/);
  });

  it('rejects what ConfigDef rejects, with INVALID_CONFIG (atLeast, between(0, 1), ValidString.in)', () => {
    rejects({ 'segment.jitter.ms': -1 }, /segment\.jitter\.ms: Value must be at least 0/);
    rejects({ 'max.compaction.lag.ms': 0 }, /max\.compaction\.lag\.ms: Value must be at least 1/);
    rejects({ 'min.cleanable.dirty.ratio': 1.5 }, /Value must be no more than 1/);
    rejects({ 'min.cleanable.dirty.ratio': -0.1 }, /Value must be at least 0/);
    rejects({ 'min.cleanable.dirty.ratio': 'half' }, /DOUBLE/);
    rejects({ 'message.timestamp.type': 'createtime' }, /String must be one of: CreateTime, LogAppendTime/);
    rejects({ 'compression.type': 'brotli' }, /String must be one of: uncompressed, zstd, lz4, snappy, gzip, producer/);
    rejects({ 'compression.type': 'none' }, /compression\.type/);
    // LogConfig.validateValues
    rejects(
      { 'min.compaction.lag.ms': 10, 'max.compaction.lag.ms': 5 },
      /conflict topic config setting min\.compaction\.lag\.ms \(10\) > max\.compaction\.lag\.ms \(5\)/,
    );
  });

  it('a bad value changes nothing on a live log (updateConfig)', () => {
    const log = new UnifiedLog({ dir: 't-0', clock: new ManualClock(T0) });
    expect(() => log.updateConfig({ 'message.timestamp.type': 'LogAppendTime', 'compression.type': 'x' })).toThrow(
      /INVALID_CONFIG/,
    );
    expect(log.config['message.timestamp.type']).toBe('CreateTime');
  });
});

describe('message.timestamp.type=LogAppendTime (LogValidator, MutableRecordBatch.setMaxTimestamp)', () => {
  it('the leader stamps each batch: timestamp-type bit, max timestamp = broker time, valid CRC; records read back with it', () => {
    const clock = new ManualClock(T0 + 5000);
    const log = new UnifiedLog({ dir: 't-0', config: { 'message.timestamp.type': 'LogAppendTime' }, clock });
    const producerBytes = makeBatch(makeRecords(3, 10, T0));
    const copy = producerBytes.slice();
    const info = log.appendAsLeader(producerBytes);
    expect(producerBytes).toEqual(copy); // the caller's bytes are not modified
    expect(info.maxTimestamp).toBe(T0 + 5000);
    const stored = log.fetch(0, 1 << 20).records;
    const header = readBatchHeader(stored, 0);
    expect(timestampType(header.attributes)).toBe('LogAppendTime');
    expect(header.maxTimestamp).toBe(T0 + 5000);
    expect(header.baseTimestamp).toBe(T0);
    expect(validateBatchCrc(stored, header)).toBe(true);
    const [batch] = decodeRecordBatches(stored);
    expect(batch?.records.map((r) => recordTimestamp(batch, r))).toEqual([T0 + 5000, T0 + 5000, T0 + 5000]);
    // The time index and retention see the append time.
    expect(log.activeSegment.maxTimestampSoFar).toBe(T0 + 5000);
    // A follower keeps the leader's stamp as it is.
    const follower = new UnifiedLog({
      dir: 't-0',
      config: { 'message.timestamp.type': 'LogAppendTime' },
      clock: new ManualClock(T0 + 99_000),
    });
    follower.appendAsFollower(stored);
    expect(readBatchHeader(follower.fetch(0, 1 << 20).records, 0).maxTimestamp).toBe(T0 + 5000);
  });

  it('CreateTime (the default) keeps the producer timestamps', () => {
    const log = new UnifiedLog({ dir: 't-0', clock: new ManualClock(T0 + 5000) });
    log.appendAsLeader(makeBatch(makeRecords(2, 10, T0)));
    const header = readBatchHeader(log.fetch(0, 1 << 20).records, 0);
    expect(timestampType(header.attributes)).toBe('CreateTime');
    expect(header.maxTimestamp).toBe(T0);
  });
});
