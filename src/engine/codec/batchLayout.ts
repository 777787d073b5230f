/**
 * RecordBatch v2's fixed layout and attribute bits (DefaultRecordBatch's *_OFFSET constants,
 * RecordBatch's NO_* sentinels, the attribute masks) and its sequence arithmetic: what a reader
 * of batch headers needs without the record codec. The layout is drawn in recordBatch.ts.
 */
import { CorruptRecordError } from '../errors';
import { COMPRESSION_TYPES, type CompressionType } from './compression';

// Layout (DefaultRecordBatch's *_OFFSET constants).
export const BASE_OFFSET_OFFSET = 0;
export const LENGTH_OFFSET = 8;
export const PARTITION_LEADER_EPOCH_OFFSET = 12;
export const MAGIC_OFFSET = 16;
export const CRC_OFFSET = 17;
export const ATTRIBUTES_OFFSET = 21;
export const LAST_OFFSET_DELTA_OFFSET = 23;
export const BASE_TIMESTAMP_OFFSET = 27;
export const MAX_TIMESTAMP_OFFSET = 35;
export const PRODUCER_ID_OFFSET = 43;
export const PRODUCER_EPOCH_OFFSET = 51;
export const BASE_SEQUENCE_OFFSET = 53;
export const RECORDS_COUNT_OFFSET = 57;
export const RECORDS_OFFSET = 61;
/** Header bytes of a v2 batch (DefaultRecordBatch.RECORD_BATCH_OVERHEAD). */
export const RECORD_BATCH_OVERHEAD = 61;
/** baseOffset + batchLength: the bytes not counted in batchLength (Records.LOG_OVERHEAD). */
export const LOG_OVERHEAD = 12;
export const MAGIC_VALUE_V2 = 2;

export const NO_PRODUCER_ID = -1;
export const NO_PRODUCER_EPOCH = -1;
export const NO_SEQUENCE = -1;
export const NO_PARTITION_LEADER_EPOCH = -1;
export const NO_TIMESTAMP = -1;

// Attribute bits (DefaultRecordBatch).
export const COMPRESSION_CODEC_MASK = 0x07;
export const TIMESTAMP_TYPE_MASK = 0x08;
export const TRANSACTIONAL_FLAG_MASK = 0x10;
export const CONTROL_FLAG_MASK = 0x20;
export const DELETE_HORIZON_FLAG_MASK = 0x40;

export type TimestampType = 'CreateTime' | 'LogAppendTime';

// ---------------------------------------------------------------------------------------------
// Attributes

/** The codec named by attributes bits 0-2; ids 5-7 are no codec, so the batch is corrupt. */
export function compressionType(attributes: number): CompressionType {
  const type = COMPRESSION_TYPES[attributes & COMPRESSION_CODEC_MASK];
  if (type === undefined) {
    throw new CorruptRecordError(`unknown compression type id ${attributes & COMPRESSION_CODEC_MASK}`, {
      reason: 'compression',
      attributes,
    });
  }
  return type;
}

export function timestampType(attributes: number): TimestampType {
  return attributes & TIMESTAMP_TYPE_MASK ? 'LogAppendTime' : 'CreateTime';
}

export function isTransactional(attributes: number): boolean {
  return (attributes & TRANSACTIONAL_FLAG_MASK) !== 0;
}

export function isControlBatch(attributes: number): boolean {
  return (attributes & CONTROL_FLAG_MASK) !== 0;
}

/** Set by the log cleaner once tombstones in the batch have a delete horizon (baseTimestamp). */
export function hasDeleteHorizon(attributes: number): boolean {
  return (attributes & DELETE_HORIZON_FLAG_MASK) !== 0;
}

/** Builds an attributes value. */
export function batchAttributes(options: {
  compression?: CompressionType;
  timestampType?: TimestampType;
  transactional?: boolean;
  control?: boolean;
}): number {
  let a = COMPRESSION_TYPES.indexOf(options.compression ?? 'none');
  if (options.timestampType === 'LogAppendTime') a |= TIMESTAMP_TYPE_MASK;
  if (options.transactional) a |= TRANSACTIONAL_FLAG_MASK;
  if (options.control) a |= CONTROL_FLAG_MASK;
  return a;
}

/** DefaultRecordBatch.lastSequence: baseSequence + lastOffsetDelta, wrapping past Integer.MAX_VALUE. */
export function lastSequence(baseSequence: number, lastOffsetDelta: number): number {
  if (baseSequence === NO_SEQUENCE) return NO_SEQUENCE;
  return incrementSequence(baseSequence, lastOffsetDelta);
}

/** DefaultRecordBatch.incrementSequence: sequence numbers wrap from 2^31 - 1 to 0. */
export function incrementSequence(sequence: number, increment: number): number {
  if (sequence > 0x7fffffff - increment) return increment - (0x7fffffff - sequence) - 1;
  return sequence + increment;
}
