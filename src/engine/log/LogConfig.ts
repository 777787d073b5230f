import { COMPRESSION_LEVELS } from '../codec/compression';
import { murmur2, toPositive } from '../codec/murmur2';
import { encodeUtf8 } from '../codec/utf8';
import { KafkaError } from '../errors';

/**
 * A partition log's configuration, keyed exactly as Kafka's topic configs are
 * (org.apache.kafka.common.config.TopicConfig / storage's LogConfig), with Kafka's defaults and
 * Kafka's validation rules. Broker-level names (`log.segment.bytes`, `log.flush.interval.ms`, ...)
 * are accepted as defaults for their topic-level twins, as a broker's server.properties would be;
 * a topic-level key always wins over its broker-level alias.
 *
 * `flush.messages` and `flush.ms` default to "never" (Long.MAX_VALUE in Kafka, Infinity here):
 * like Kafka, the log leaves flushing to the page cache and relies on replication for safety.
 * In glassbox the page cache is the tab's memory and the disk is IndexedDB, so a demo that wants
 * its data to survive a reload picks a small `flush.ms` — see GLASSBOX_DEMO_LOG_CONFIG.
 */
export interface LogConfig {
  'segment.bytes': number;
  'segment.ms': number;
  'segment.index.bytes': number;
  'index.interval.bytes': number;
  'retention.ms': number;
  'retention.bytes': number;
  'cleanup.policy': readonly CleanupPolicy[];
  'delete.retention.ms': number;
  'max.message.bytes': number;
  'min.compaction.lag.ms': number;
  'flush.messages': number;
  'flush.ms': number;
  'segment.jitter.ms': number;
  'min.cleanable.dirty.ratio': number;
  'max.compaction.lag.ms': number;
  'message.timestamp.type': MessageTimestampType;
  'compression.type': BrokerCompressionType;
  /** KIP-390 (Kafka 3.8+): the level a leader recompresses with when compression.type names the codec. */
  'compression.gzip.level': number;
  'compression.lz4.level': number;
  'compression.zstd.level': number;
}

export type CleanupPolicy = 'delete' | 'compact';
export type MessageTimestampType = 'CreateTime' | 'LogAppendTime';
/** Kafka's BrokerCompressionType names, in its enum order. */
export const BROKER_COMPRESSION_TYPES = ['uncompressed', 'zstd', 'lz4', 'snappy', 'gzip', 'producer'] as const;
export type BrokerCompressionType = (typeof BROKER_COMPRESSION_TYPES)[number];
const MESSAGE_TIMESTAMP_TYPES: readonly MessageTimestampType[] = ['CreateTime', 'LogAppendTime'];

/** What a caller may pass: Kafka's topic keys (or broker aliases), values as numbers or strings. */
export type LogConfigInput = Readonly<Record<string, string | number | readonly string[] | undefined>>;

/** Kafka's own defaults (Kafka 3.x TopicConfig / ServerLogConfigs). */
export const KAFKA_DEFAULT_LOG_CONFIG: Readonly<LogConfig> = Object.freeze({
  'segment.bytes': 1024 * 1024 * 1024,
  'segment.ms': 7 * 24 * 60 * 60 * 1000,
  'segment.index.bytes': 10 * 1024 * 1024,
  'index.interval.bytes': 4096,
  'retention.ms': 7 * 24 * 60 * 60 * 1000,
  'retention.bytes': -1,
  'cleanup.policy': Object.freeze(['delete'] as CleanupPolicy[]),
  'delete.retention.ms': 24 * 60 * 60 * 1000,
  // 1 MiB + Records.LOG_OVERHEAD (12): Kafka's DEFAULT_MAX_MESSAGE_BYTES.
  'max.message.bytes': 1024 * 1024 + 12,
  'min.compaction.lag.ms': 0,
  'flush.messages': Number.POSITIVE_INFINITY,
  'flush.ms': Number.POSITIVE_INFINITY,
  'segment.jitter.ms': 0,
  'min.cleanable.dirty.ratio': 0.5,
  // Long.MAX_VALUE: no maximum lag.
  'max.compaction.lag.ms': Number.POSITIVE_INFINITY,
  'message.timestamp.type': 'CreateTime',
  'compression.type': 'producer',
  'compression.gzip.level': COMPRESSION_LEVELS.gzip.default,
  'compression.lz4.level': COMPRESSION_LEVELS.lz4.default,
  'compression.zstd.level': COMPRESSION_LEVELS.zstd.default,
});

/** The level keys, by codec (TopicConfig.COMPRESSION_*_LEVEL_CONFIG). */
const LEVEL_KEYS = {
  'compression.gzip.level': 'gzip',
  'compression.lz4.level': 'lz4',
  'compression.zstd.level': 'zstd',
} as const;
type LevelKey = keyof typeof LEVEL_KEYS;
const isLevelKey = (key: string): key is LevelKey => key in LEVEL_KEYS;

/**
 * Overrides the demo uses so that rolls, sparse index entries and flushes happen at a scale a
 * person can watch: 64 KiB segments, an index entry every 1 KiB, and a flush to IndexedDB at
 * least every second (so a reload loses at most about a second of unreplicated writes).
 */
export const GLASSBOX_DEMO_LOG_CONFIG: LogConfigInput = Object.freeze({
  'segment.bytes': 64 * 1024,
  'index.interval.bytes': 1024,
  'flush.ms': 1000,
});

/** Broker-level default name -> topic-level key (Kafka's LogConfig "ServerDefaultHeaderName"s). */
export const BROKER_ALIASES: Readonly<Record<string, keyof LogConfig>> = {
  'log.segment.bytes': 'segment.bytes',
  'log.roll.ms': 'segment.ms',
  'log.index.size.max.bytes': 'segment.index.bytes',
  'log.index.interval.bytes': 'index.interval.bytes',
  'log.retention.ms': 'retention.ms',
  'log.retention.bytes': 'retention.bytes',
  'log.cleanup.policy': 'cleanup.policy',
  'log.cleaner.delete.retention.ms': 'delete.retention.ms',
  'message.max.bytes': 'max.message.bytes',
  'log.cleaner.min.compaction.lag.ms': 'min.compaction.lag.ms',
  'log.flush.interval.messages': 'flush.messages',
  'log.flush.interval.ms': 'flush.ms',
  'log.roll.jitter.ms': 'segment.jitter.ms',
  'log.cleaner.min.cleanable.ratio': 'min.cleanable.dirty.ratio',
  'log.cleaner.max.compaction.lag.ms': 'max.compaction.lag.ms',
  'log.message.timestamp.type': 'message.timestamp.type',
};

/** Lower bounds from Kafka's ConfigDef (`atLeast(...)`). Kafka 3.x: segment.bytes >= 14 (LegacyRecord.RECORD_OVERHEAD_V0). */
type NumericKey = Exclude<
  keyof LogConfig,
  'cleanup.policy' | 'min.cleanable.dirty.ratio' | 'message.timestamp.type' | 'compression.type' | LevelKey
>;
const AT_LEAST: Readonly<Record<NumericKey, number>> = {
  'segment.bytes': 14,
  'segment.ms': 1,
  'segment.index.bytes': 4,
  'index.interval.bytes': 0,
  'retention.ms': -1,
  'retention.bytes': Number.NEGATIVE_INFINITY,
  'delete.retention.ms': 0,
  'max.message.bytes': 0,
  'min.compaction.lag.ms': 0,
  'flush.messages': 1,
  'flush.ms': 0,
  'segment.jitter.ms': 0,
  'max.compaction.lag.ms': 1,
};

/** Keys whose Java type is int: larger values are INVALID_CONFIG, as in Kafka. */
const INT_KEYS = new Set<keyof LogConfig>([
  'segment.bytes',
  'segment.index.bytes',
  'index.interval.bytes',
  'max.message.bytes',
]);
const INT_MAX = 2147483647;

function invalid(key: string, value: unknown, reason: string): KafkaError {
  return new KafkaError(
    'INVALID_CONFIG',
    `Invalid value ${JSON.stringify(value)} for configuration ${key}: ${reason}`,
    {
      key,
      value,
    },
  );
}

function parseNumber(key: string, raw: unknown): number {
  let n: number;
  if (typeof raw === 'number') n = raw;
  else if (typeof raw === 'string' && /^-?\d+$/.test(raw.trim())) n = Number(raw.trim());
  else throw invalid(key, raw, 'Not a number of type LONG');
  if (Number.isNaN(n) || (!Number.isInteger(n) && Number.isFinite(n))) throw invalid(key, raw, 'must be an integer');
  return n;
}

/** ConfigDef.ValidString.in: case-sensitive, the message lists the values in definition order. */
function parseString<T extends string>(key: string, raw: unknown, valid: readonly T[]): T {
  const v = typeof raw === 'string' ? raw.trim() : raw;
  if (typeof v !== 'string' || !(valid as readonly string[]).includes(v))
    throw invalid(key, raw, `String must be one of: ${valid.join(', ')}`);
  return v as T;
}

/**
 * A compression level: Range.between(min, max) for lz4 and zstd; gzip's LevelValidator also
 * takes Deflater.DEFAULT_COMPRESSION (-1), and says so in its message.
 */
function parseLevel(key: string, raw: unknown, codec: keyof typeof COMPRESSION_LEVELS): number {
  const n = parseNumber(key, raw);
  const { min, max, default: dflt } = COMPRESSION_LEVELS[codec];
  if (codec === 'gzip') {
    if (n === dflt || (n >= min && n <= max)) return n;
    throw invalid(key, raw, `Value must be between ${min} and ${max} or equal to ${dflt}`);
  }
  if (n < min) throw invalid(key, raw, `Value must be at least ${min}`);
  if (n > max) throw invalid(key, raw, `Value must be no more than ${max}`);
  return n;
}

/** A DOUBLE config with ConfigDef.Range.between(0, 1). */
function parseRatio(key: string, raw: unknown): number {
  const n =
    typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw.trim()) : Number.NaN;
  if (!Number.isFinite(n)) throw invalid(key, raw, 'Not a number of type DOUBLE');
  if (n < 0) throw invalid(key, raw, 'Value must be at least 0');
  if (n > 1) throw invalid(key, raw, 'Value must be no more than 1');
  return n;
}

function parsePolicy(raw: unknown): CleanupPolicy[] {
  const items = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(',') : null;
  if (!items) throw invalid('cleanup.policy', raw, 'must be a list');
  const out: CleanupPolicy[] = [];
  for (const item of items) {
    const p = String(item).trim();
    if (p !== 'delete' && p !== 'compact')
      throw invalid('cleanup.policy', raw, 'String must be one of: compact, delete');
    if (!out.includes(p)) out.push(p);
  }
  return out;
}

/**
 * Builds a validated LogConfig from overrides on top of `base` (Kafka's defaults unless given).
 * Throws INVALID_CONFIG for unknown keys, non-numbers, and values below Kafka's minimums.
 */
export function createLogConfig(
  overrides: LogConfigInput = {},
  base: Readonly<LogConfig> = KAFKA_DEFAULT_LOG_CONFIG,
): LogConfig {
  const out: LogConfig = { ...base, 'cleanup.policy': [...base['cleanup.policy']] };
  const entries = Object.entries(overrides).filter(([, v]) => v !== undefined);
  // Broker aliases first, so a topic-level key given alongside always wins.
  const ordered = [...entries.filter(([k]) => k in BROKER_ALIASES), ...entries.filter(([k]) => !(k in BROKER_ALIASES))];
  for (const [rawKey, raw] of ordered) {
    const key = (BROKER_ALIASES[rawKey] ?? rawKey) as keyof LogConfig;
    if (!(key in KAFKA_DEFAULT_LOG_CONFIG)) {
      throw new KafkaError('INVALID_CONFIG', `Unknown topic config name: ${rawKey}`, { key: rawKey });
    }
    if (key === 'cleanup.policy') {
      out['cleanup.policy'] = parsePolicy(raw);
      continue;
    }
    if (key === 'min.cleanable.dirty.ratio') {
      out[key] = parseRatio(rawKey, raw);
      continue;
    }
    if (key === 'message.timestamp.type') {
      out[key] = parseString(rawKey, raw, MESSAGE_TIMESTAMP_TYPES);
      continue;
    }
    if (key === 'compression.type') {
      out[key] = parseString(rawKey, raw, BROKER_COMPRESSION_TYPES);
      continue;
    }
    if (isLevelKey(key)) {
      out[key] = parseLevel(rawKey, raw, LEVEL_KEYS[key]);
      continue;
    }
    const n = parseNumber(rawKey, raw);
    if (n < AT_LEAST[key]) throw invalid(rawKey, raw, `Value must be at least ${AT_LEAST[key]}`);
    if (INT_KEYS.has(key) && n > INT_MAX) throw invalid(rawKey, raw, `Value must be at most ${INT_MAX}`);
    out[key] = n;
  }
  // LogConfig.validateValues.
  if (out['min.compaction.lag.ms'] > out['max.compaction.lag.ms']) {
    throw new KafkaError(
      'INVALID_CONFIG',
      `conflict topic config setting min.compaction.lag.ms (${out['min.compaction.lag.ms']}) > max.compaction.lag.ms (${out['max.compaction.lag.ms']})`,
      { key: 'min.compaction.lag.ms' },
    );
  }
  return out;
}

export function isCompacted(config: LogConfig): boolean {
  return config['cleanup.policy'].includes('compact');
}

export function isDeleteEnabled(config: LogConfig): boolean {
  return config['cleanup.policy'].includes('delete');
}

/**
 * A segment's roll jitter (LogConfig.randomSegmentJitter, drawn when the segment is created): 0
 * without segment.jitter.ms, else "random" below min(segment.jitter.ms, segment.ms). Kafka draws
 * it from ThreadLocalRandom; here it is a hash of `seed` (the log's dir and the segment's base
 * offset), the same at every replay and reload.
 */
export function segmentJitterMs(config: Readonly<LogConfig>, seed: string): number {
  const jitter = config['segment.jitter.ms'];
  if (jitter === 0) return 0;
  return toPositive(murmur2(encodeUtf8(seed))) % Math.min(jitter, config['segment.ms']);
}
