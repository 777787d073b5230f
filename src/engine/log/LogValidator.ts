import type { RecordBatchHeader } from '../codec';
import {
  COMPRESSION_CODEC_MASK,
  CONTROL_FLAG_MASK,
  type CompressionType,
  compressionId,
  concatBytes,
  decodeBatchAt,
  decodeBatchRecords,
  encodeRecordBatch,
  maxRecordTimestamp,
  readBatchHeader,
  recordTimestamp,
  TIMESTAMP_TYPE_MASK,
  validateBatchCrc,
} from '../codec';
import { CorruptRecordError, KafkaError } from '../errors';
import type { BrokerCompressionType, LogConfig } from './LogConfig';
import { isCompacted } from './LogConfig';

/** What the append checks read of the log they append to. */
export interface ValidatedLog {
  readonly dir: string;
  readonly config: Readonly<LogConfig>;
  readonly logEndOffset: number;
}

/** Kafka's analyzeAndValidateRecords + LogValidator checks. Throws before any state changes. */
export function analyzeAndValidateRecords(
  log: ValidatedLog,
  records: Uint8Array,
  asLeader: boolean,
): RecordBatchHeader[] {
  if (!(records instanceof Uint8Array) || records.length === 0) {
    throw new KafkaError('INVALID_RECORD', `empty append to ${log.dir}: no record batches`, { dir: log.dir });
  }
  const cfg = log.config;
  const out: RecordBatchHeader[] = [];
  const compacted = isCompacted(cfg);
  let expectedNext = log.logEndOffset;
  let position = 0;
  while (position < records.length) {
    const header = readBatchHeader(records, position);
    if (header.magic !== 2) {
      throw new KafkaError('INVALID_RECORD', `glassbox stores only RecordBatch v2, got magic ${header.magic}`, {
        position,
        magic: header.magic,
      });
    }
    if (position + header.sizeInBytes > records.length) {
      throw new CorruptRecordError(
        `batch at byte ${position} needs ${header.sizeInBytes} bytes but only ${records.length - position} were sent`,
        { position, sizeInBytes: header.sizeInBytes },
      );
    }
    if (asLeader && header.baseOffset !== 0) {
      throw new KafkaError(
        'INVALID_RECORD',
        `The baseOffset of the record batch in the append to ${log.dir} should be 0, but it is ${header.baseOffset}`,
        { position, baseOffset: header.baseOffset },
      );
    }
    if (header.sizeInBytes > cfg['max.message.bytes']) {
      throw new KafkaError(
        'MESSAGE_TOO_LARGE',
        `The record batch size in the append to ${log.dir} is ${header.sizeInBytes} bytes which exceeds the maximum configured value of ${cfg['max.message.bytes']}.`,
        { sizeInBytes: header.sizeInBytes, maxMessageBytes: cfg['max.message.bytes'] },
      );
    }
    if (!validateBatchCrc(records, header)) {
      throw new CorruptRecordError(`Record is corrupt (stored crc = ${header.crc}) in topic partition ${log.dir}.`, {
        position,
        crc: header.crc,
      });
    }
    // A follower copies the leader's log, which may hold batches the cleaner emptied (RETAIN_EMPTY).
    if (header.recordCount < 0 || (asLeader && header.recordCount === 0)) {
      throw new KafkaError('INVALID_RECORD', 'Batches must contain at least one record', { position });
    }
    if (asLeader && header.lastOffsetDelta !== header.recordCount - 1) {
      throw new KafkaError(
        'INVALID_RECORD',
        `Inner record offsets are not consecutive: ${header.recordCount} records but last offset delta ${header.lastOffsetDelta}`,
        { position, recordCount: header.recordCount, lastOffsetDelta: header.lastOffsetDelta },
      );
    }
    if (!asLeader) {
      if (header.baseOffset < expectedNext) {
        throw new KafkaError(
          'INVALID_RECORD',
          `Out of order offsets in the append to ${log.dir}: batch at ${header.baseOffset} but the log is at ${expectedNext}`,
          { baseOffset: header.baseOffset, expectedNext },
        );
      }
      expectedNext = header.lastOffset + 1;
    }
    if (compacted && asLeader) checkKeysForCompaction(log.dir, records, header);
    out.push(header);
    position += header.sizeInBytes;
  }
  if (records.length > cfg['segment.bytes']) {
    // UnifiedLog.append: RecordBatchTooLargeException, whose Errors name is RECORD_LIST_TOO_LARGE.
    throw new KafkaError(
      'RECORD_LIST_TOO_LARGE',
      `Message batch size is ${records.length} bytes in append to partition ${log.dir}, which exceeds the maximum configured segment size of ${cfg['segment.bytes']}.`,
      { sizeInBytes: records.length, segmentBytes: cfg['segment.bytes'] },
    );
  }
  return out;
}

function checkKeysForCompaction(dir: string, records: Uint8Array, header: RecordBatchHeader): void {
  for (const r of decodeBatchRecords(records, header)) {
    if (r.key === null) {
      throw new KafkaError(
        'INVALID_RECORD',
        `Compacted topic cannot accept message without key in topic partition ${dir}.`,
        { position: header.position, offsetDelta: r.offsetDelta },
      );
    }
  }
}

/** Where the batches of an append land, and their timestamps (assignOffsets). */
export interface AssignedOffsets {
  bases: number[];
  lastOffset: number;
  /** Number of records (not batches). */
  numMessages: number;
  maxTimestamp: number;
  offsetOfMaxTimestamp: number;
  /** The batches (by index) whose MaxTimestamp changed to their records' largest timestamp. */
  restamped: Set<number> | null;
}

/**
 * LogValidator's offset and timestamp pass over validated headers (changed in place): a leader
 * (`leaderNextOffset` set: the log end offset) assigns offsets from the log end, a follower keeps
 * the leader's. With `logAppendTime` (message.timestamp.type=LogAppendTime) the leader stamps
 * every batch with its clock; otherwise it rewrites a CreateTime batch's MaxTimestamp to its
 * records' largest timestamp.
 */
export function assignOffsets(
  records: Uint8Array,
  validated: RecordBatchHeader[],
  leaderNextOffset: number | null,
  logAppendTime: number | null,
): AssignedOffsets {
  const asLeader = leaderNextOffset !== null;
  const bases: number[] = new Array(validated.length);
  let next = leaderNextOffset ?? 0;
  let maxTimestamp = -1;
  let offsetOfMaxTimestamp = -1;
  let numMessages = 0;
  let restamped: Set<number> | null = null;
  for (let i = 0; i < validated.length; i++) {
    const h = validated[i] as RecordBatchHeader;
    if (logAppendTime !== null) {
      h.maxTimestamp = logAppendTime;
      h.attributes |= TIMESTAMP_TYPE_MASK;
    } else if (asLeader) {
      const recordsMax = maxRecordTimestamp(records, h);
      if (recordsMax !== h.maxTimestamp) {
        h.maxTimestamp = recordsMax;
        (restamped ??= new Set()).add(i);
      }
    }
    const base = asLeader ? next : h.baseOffset;
    bases[i] = base;
    const last = base + h.lastOffsetDelta;
    next = last + 1;
    numMessages += h.recordCount;
    if (h.maxTimestamp > maxTimestamp) {
      maxTimestamp = h.maxTimestamp;
      offsetOfMaxTimestamp = last;
    }
  }
  return { bases, lastOffset: next - 1, numMessages, maxTimestamp, offsetOfMaxTimestamp, restamped };
}

/** The codec a compression.type other than `producer` names (BrokerCompressionType.targetCompression). */
const TARGETS: Partial<Record<BrokerCompressionType, CompressionType>> = {
  uncompressed: 'none',
  gzip: 'gzip',
  snappy: 'snappy',
  lz4: 'lz4',
  zstd: 'zstd',
};

/**
 * The level the topic gives its codec (LogConfig.compression: Compression.of(type).level(...),
 * KIP-390's compression.gzip.level, compression.lz4.level, compression.zstd.level).
 */
function targetLevel(config: Readonly<LogConfig>, codec: CompressionType): number | undefined {
  if (codec === 'gzip') return config['compression.gzip.level'];
  if (codec === 'lz4') return config['compression.lz4.level'];
  if (codec === 'zstd') return config['compression.zstd.level'];
  return undefined;
}

/**
 * LogValidator.validateMessagesAndAssignOffsetsCompressed for a topic whose compression.type is
 * not `producer`: a batch whose codec is not the target's (no in-place assignment) is rebuilt
 * with the target codec at the topic's level (buildRecordsAndAssignOffsets: the same records and
 * producer fields, the base timestamp the first record's, the deltas from it). A batch already in
 * the target codec, whatever level it was written at, and an uncompressed control batch, stay as
 * sent. Returns the new records, or null when no batch changes.
 */
export function recompress(
  records: Uint8Array,
  validated: readonly RecordBatchHeader[],
  config: Readonly<LogConfig>,
): Uint8Array | null {
  const codec = TARGETS[config['compression.type']];
  if (codec === undefined) return null;
  const level = targetLevel(config, codec);
  const id = compressionId(codec);
  const changes = (h: RecordBatchHeader) =>
    (h.attributes & COMPRESSION_CODEC_MASK) !== id &&
    !((h.attributes & COMPRESSION_CODEC_MASK) === 0 && h.attributes & CONTROL_FLAG_MASK);
  if (!validated.some(changes)) return null;
  const parts: Uint8Array[] = [];
  for (const h of validated) {
    if (!changes(h)) {
      parts.push(records.subarray(h.position, h.position + h.sizeInBytes));
      continue;
    }
    const batch = decodeBatchAt(records, h);
    const stamps = batch.records.map((r) => recordTimestamp(batch, r));
    const base = stamps[0] ?? batch.baseTimestamp;
    parts.push(
      encodeRecordBatch(
        {
          ...batch,
          attributes: (batch.attributes & ~COMPRESSION_CODEC_MASK) | id,
          baseTimestamp: batch.attributes & TIMESTAMP_TYPE_MASK ? batch.baseTimestamp : base,
          records: batch.records.map((r, i) =>
            batch.attributes & TIMESTAMP_TYPE_MASK ? r : { ...r, timestampDelta: (stamps[i] as number) - base },
          ),
        },
        level,
      ),
    );
  }
  return concatBytes(parts);
}
