/**
 * Kafka's default partitioner hash: MurmurHash2, 32-bit, seed 0x9747b28c, exactly as
 * org.apache.kafka.common.utils.Utils.murmur2 computes it — little-endian 4-byte blocks, the
 * tail folded in, Java's signed 32-bit int as the result. A keyed record goes to partition
 * `toPositive(murmur2(keyBytes)) % numPartitions` (BuiltInPartitioner.partitionForKey), so the
 * same key lands in the same partition here as on a real cluster.
 */
import { KafkaError } from '../errors';

const SEED = 0x9747b28c;
const M = 0x5bd1e995;
const R = 24;

/** Kafka's Utils.murmur2: signed 32-bit result, the same int Java returns. */
export function murmur2(bytes: Uint8Array): number {
  const length = bytes.length;
  let h = SEED ^ length;
  const blocks = length & ~3;
  for (let i = 0; i < blocks; i += 4) {
    let k =
      (bytes[i] as number) |
      ((bytes[i + 1] as number) << 8) |
      ((bytes[i + 2] as number) << 16) |
      ((bytes[i + 3] as number) << 24);
    k = Math.imul(k, M);
    k ^= k >>> R;
    k = Math.imul(k, M);
    h = Math.imul(h, M);
    h ^= k;
  }
  // The tail: Java's switch falls through from case 3 down to case 1.
  const tail = length & 3;
  if (tail >= 3) h ^= (bytes[blocks + 2] as number) << 16;
  if (tail >= 2) h ^= (bytes[blocks + 1] as number) << 8;
  if (tail >= 1) {
    h ^= bytes[blocks] as number;
    h = Math.imul(h, M);
  }
  h ^= h >>> 13;
  h = Math.imul(h, M);
  h ^= h >>> 15;
  return h | 0;
}

/** Kafka's Utils.toPositive: clears the sign bit (not Math.abs: abs(MIN_VALUE) would stay negative). */
export function toPositive(n: number): number {
  return n & 0x7fffffff;
}

/** The partition Kafka's default partitioner picks for a non-null key. */
export function defaultPartition(keyBytes: Uint8Array, numPartitions: number): number {
  if (!Number.isInteger(numPartitions) || numPartitions < 1) {
    throw new KafkaError(
      'INVALID_PARTITIONS',
      `number of partitions must be a positive integer, got ${numPartitions}`,
      {
        numPartitions,
      },
    );
  }
  return toPositive(murmur2(keyBytes)) % numPartitions;
}
