/**
 * Compression of a RecordBatch's records section (attributes bits 0-2): 0 none, 1 gzip,
 * 2 snappy, 3 lz4, 4 zstd (org.apache.kafka.common.record.CompressionType). Ids 5-7 are not
 * codecs at all, so they mean a corrupt batch. Each codec writes the stream Kafka 3.9 writes
 * (GzipCompression, SnappyCompression, Lz4Compression, ZstdCompression) and reads what Kafka's
 * input streams read; the compressed bytes may differ from Java's libraries, which Kafka allows:
 * only the records inside must match.
 *
 * Gzip output is deterministic (mtime 0, OS byte 0, as Java's GZIPOutputStream writes the
 * header). Inflation is bounded before any allocation: the gzip trailer's ISIZE must be reachable
 * by deflate (at most ~1032:1) and below MAX_INFLATED_BYTES; snappy's, lz4's and zstd's readers
 * are bounded by MAX_INFLATED_BYTES the same way, so a hostile length cannot make us allocate
 * gigabytes. Every malformed section is a CorruptRecordError (CORRUPT_MESSAGE).
 */
import { gunzipSync, gzipSync } from 'fflate';
import { CorruptRecordError } from '../errors';
import { lz4Frame, lz4Unframe } from './lz4Codec';
import { snappyFrame, snappyUnframe } from './snappyCodec';
import { zstdCompress, zstdDecompress } from './zstdCodec';

export type CompressionType = 'none' | 'gzip' | 'snappy' | 'lz4' | 'zstd';

/** Kafka's codec names, indexed by the id in attributes bits 0-2. */
export const COMPRESSION_TYPES: readonly CompressionType[] = ['none', 'gzip', 'snappy', 'lz4', 'zstd'];

/** The largest records section glassbox will inflate from one batch. */
export const MAX_INFLATED_BYTES = 64 * 1024 * 1024;

/** Deflate's best case is about 1032:1; an ISIZE claiming more than this is a lie. */
const MAX_DEFLATE_RATIO = 1032;

/**
 * KIP-390's levels (Kafka 3.8+: `compression.gzip.level`, `compression.lz4.level`,
 * `compression.zstd.level`), with Kafka's defaults and ranges (GzipCompression, Lz4Compression,
 * ZstdCompression). Gzip's -1 is Deflater.DEFAULT_COMPRESSION, zlib's level 6.
 */
export const COMPRESSION_LEVELS = {
  gzip: { default: -1, min: 1, max: 9 },
  lz4: { default: 9, min: 1, max: 17 },
  zstd: { default: 3, min: -131072, max: 22 },
} as const;

/** The codec id for a name. */
export function compressionId(type: CompressionType): number {
  return COMPRESSION_TYPES.indexOf(type);
}

/**
 * Compresses a records section with the batch's codec at `level` (the codec's default when
 * omitted). lz4 has one level here: lz4js has only the fast compressor that Kafka uses at the
 * default level 9, so another level changes the bytes Kafka writes but not the records.
 */
export function compressRecords(type: CompressionType, raw: Uint8Array, level?: number): Uint8Array {
  switch (type) {
    case 'none':
      return raw;
    case 'gzip': {
      const l = level === undefined || level === -1 ? 6 : level;
      const out = gzipSync(raw, { mtime: 0, level: l as 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 });
      out[9] = 0; // OS byte: Java writes 0, fflate writes 3 (Unix)
      return out;
    }
    case 'snappy':
      return snappyFrame(raw);
    case 'lz4':
      return lz4Frame(raw);
    case 'zstd':
      return zstdCompress(raw, level ?? COMPRESSION_LEVELS.zstd.default);
  }
}

/** Inflates a records section; throws CorruptRecordError for data that is malformed or claims an absurd size. */
export function decompressRecords(type: CompressionType, compressed: Uint8Array, position = 0): Uint8Array {
  switch (type) {
    case 'none':
      return compressed;
    case 'gzip':
      return gunzip(compressed, position);
    case 'snappy':
      return snappyUnframe(compressed, MAX_INFLATED_BYTES, position);
    case 'lz4':
      return lz4Unframe(compressed, MAX_INFLATED_BYTES, position);
    case 'zstd':
      return zstdDecompress(compressed, MAX_INFLATED_BYTES, position);
  }
}

function gunzip(compressed: Uint8Array, position: number): Uint8Array {
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
