/**
 * Compression of a RecordBatch's records section (attributes bits 0-2): 0 none, 1 gzip,
 * 2 snappy, 3 lz4, 4 zstd (org.apache.kafka.common.record.CompressionType). glassbox
 * implements none and gzip; the other three are recognised but refused with Kafka's
 * UNSUPPORTED_COMPRESSION_TYPE. Ids 5-7 are not codecs at all, so they mean a corrupt batch.
 *
 * Gzip output is deterministic (mtime 0, OS byte 0, as Java's GZIPOutputStream writes the
 * header); the deflate stream itself differs from Java's zlib, which Kafka allows — only the
 * records inside must match. Inflation is bounded before any allocation: the gzip trailer's
 * ISIZE must be reachable by deflate (at most ~1032:1) and below MAX_INFLATED_BYTES, so a
 * hostile trailer cannot make us allocate gigabytes.
 */
import { gunzipSync, gzipSync } from 'fflate';
import { CorruptRecordError, KafkaError } from '../errors';

export type CompressionType = 'none' | 'gzip' | 'snappy' | 'lz4' | 'zstd';

/** Kafka's codec names, indexed by the id in attributes bits 0-2. */
export const COMPRESSION_TYPES: readonly CompressionType[] = ['none', 'gzip', 'snappy', 'lz4', 'zstd'];

/** The largest records section glassbox will inflate from one batch. */
export const MAX_INFLATED_BYTES = 64 * 1024 * 1024;

/** Deflate's best case is about 1032:1; an ISIZE claiming more than this is a lie. */
const MAX_DEFLATE_RATIO = 1032;

/** The codec id for a name. */
export function compressionId(type: CompressionType): number {
  return COMPRESSION_TYPES.indexOf(type);
}

/** Compresses a records section with the batch's codec; throws UNSUPPORTED_COMPRESSION_TYPE beyond gzip. */
export function compressRecords(type: CompressionType, raw: Uint8Array): Uint8Array {
  if (type === 'none') return raw;
  if (type === 'gzip') {
    const out = gzipSync(raw, { mtime: 0 });
    out[9] = 0; // OS byte: Java writes 0, fflate writes 3 (Unix)
    return out;
  }
  throw unsupported(type);
}

/**
 * Inflates a records section. Throws UNSUPPORTED_COMPRESSION_TYPE for snappy/lz4/zstd and
 * CorruptRecordError for gzip data that is malformed or claims an absurd size.
 */
export function decompressRecords(type: CompressionType, compressed: Uint8Array, position = 0): Uint8Array {
  if (type === 'none') return compressed;
  if (type !== 'gzip') throw unsupported(type);
  const n = compressed.length;
  if (n < 18 || compressed[0] !== 0x1f || compressed[1] !== 0x8b || compressed[2] !== 8) {
    throw new CorruptRecordError(`gzip records section at position ${position} has no valid gzip header`, {
      position,
      reason: 'compression',
    });
  }
  const isize =
    ((compressed[n - 4] as number) |
      ((compressed[n - 3] as number) << 8) |
      ((compressed[n - 2] as number) << 16) |
      ((compressed[n - 1] as number) << 24)) >>>
    0;
  if (isize > MAX_INFLATED_BYTES || isize > n * MAX_DEFLATE_RATIO) {
    throw new CorruptRecordError(
      `gzip records section at position ${position} claims ${isize} inflated bytes from ${n} compressed bytes`,
      { position, reason: 'compression', inflatedSize: isize },
    );
  }
  try {
    return gunzipSync(compressed);
  } catch (e) {
    throw new CorruptRecordError(`gzip records section at position ${position} does not inflate: ${String(e)}`, {
      position,
      reason: 'compression',
    });
  }
}

function unsupported(type: CompressionType): KafkaError {
  return new KafkaError('UNSUPPORTED_COMPRESSION_TYPE', `compression type ${type} is not supported by glassbox`, {
    compressionType: type,
  });
}
