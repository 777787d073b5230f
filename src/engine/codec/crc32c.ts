/**
 * CRC-32C (Castagnoli, reflected polynomial 0x82F63B78), the checksum RecordBatch v2 stores in
 * its `crc` field over every byte from `attributes` to the end of the batch
 * (org.apache.kafka.common.utils.Crc32C). Initial value 0xFFFFFFFF, final XOR 0xFFFFFFFF; the
 * result is returned unsigned, as Kafka prints it in `kafka-dump-log.sh` (`crc: 3425803576`).
 *
 * Every batch a producer encodes and every batch the leader validates on append or a broker
 * validates on recovery goes through here, so it is the hottest loop of the write path.
 *
 * Slicing-by-16: sixteen 256-entry tables let each step fold 16 input bytes with independent
 * lookups, so only 4 of the 16 lookups wait on the running CRC. On a little-endian platform
 * (every one a browser runs on, checked at load time) the 16 bytes are read as four int32 words
 * through an Int32Array over the 4-byte-aligned part of the input, instead of 16 byte loads and
 * shifts. Short inputs, the unaligned head and the tail go byte by byte through table 0.
 */

const POLY = 0x82f63b78;

/** TABLE[k * 256 + b]: the CRC of byte b followed by k zero bytes (k = 0..15). */
const TABLE = buildTables(16);

/** Whether an Int32Array reads memory little-endian, so word k holds bytes 4k..4k+3 low byte first. */
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** Below this many bytes the word loop is not worth creating an Int32Array view for. */
const WORD_PATH_MIN_BYTES = 128;

function buildTables(slices: number): Int32Array {
  const t = new Int32Array(slices * 256);
  for (let b = 0; b < 256; b++) {
    let c = b;
    for (let i = 0; i < 8; i++) c = c & 1 ? (c >>> 1) ^ POLY : c >>> 1;
    t[b] = c;
  }
  for (let b = 0; b < 256; b++) {
    let c = t[b] as number;
    for (let k = 1; k < slices; k++) {
      c = (t[c & 0xff] as number) ^ (c >>> 8);
      t[k * 256 + b] = c;
    }
  }
  return t;
}

/** CRC-32C of `bytes[start, end)`, unsigned. */
export function crc32c(bytes: Uint8Array, start = 0, end: number = bytes.length): number {
  return crc32cUpdate(0, bytes, start, end);
}

/**
 * Continues a CRC-32C: `crc32cUpdate(crc32c(a), b)` equals the CRC of `a` followed by `b`.
 * `crc` is a previous (finalized, unsigned) result, 0 to start.
 */
export function crc32cUpdate(crc: number, bytes: Uint8Array, start = 0, end: number = bytes.length): number {
  if (start < 0 || end > bytes.length || start > end) {
    throw new RangeError(`crc32c range [${start}, ${end}) outside a buffer of ${bytes.length} bytes`);
  }
  const t = TABLE;
  let c = ~crc;
  let i = start;
  if (LITTLE_ENDIAN && end - start >= WORD_PATH_MIN_BYTES) {
    // Byte steps up to a 4-byte boundary of the underlying buffer, then 16 bytes per step.
    while (((bytes.byteOffset + i) & 3) !== 0) {
      c = (t[(c ^ (bytes[i] as number)) & 0xff] as number) ^ (c >>> 8);
      i++;
    }
    const words = ((end - i) >>> 4) << 2;
    const w = new Int32Array(bytes.buffer, bytes.byteOffset + i, words);
    for (let k = 0; k < words; k += 4) {
      c ^= w[k] as number;
      const d = w[k + 1] as number;
      const e = w[k + 2] as number;
      const f = w[k + 3] as number;
      c =
        (t[3840 + (c & 0xff)] as number) ^
        (t[3584 + ((c >>> 8) & 0xff)] as number) ^
        (t[3328 + ((c >>> 16) & 0xff)] as number) ^
        (t[3072 + (c >>> 24)] as number) ^
        (t[2816 + (d & 0xff)] as number) ^
        (t[2560 + ((d >>> 8) & 0xff)] as number) ^
        (t[2304 + ((d >>> 16) & 0xff)] as number) ^
        (t[2048 + (d >>> 24)] as number) ^
        (t[1792 + (e & 0xff)] as number) ^
        (t[1536 + ((e >>> 8) & 0xff)] as number) ^
        (t[1280 + ((e >>> 16) & 0xff)] as number) ^
        (t[1024 + (e >>> 24)] as number) ^
        (t[768 + (f & 0xff)] as number) ^
        (t[512 + ((f >>> 8) & 0xff)] as number) ^
        (t[256 + ((f >>> 16) & 0xff)] as number) ^
        (t[f >>> 24] as number);
    }
    i += words << 2;
  } else {
    // Slicing-by-8 over bytes (short inputs, or a big-endian platform).
    const end8 = end - 8;
    while (i <= end8) {
      c ^=
        (bytes[i] as number) |
        ((bytes[i + 1] as number) << 8) |
        ((bytes[i + 2] as number) << 16) |
        ((bytes[i + 3] as number) << 24);
      c =
        (t[1792 + (c & 0xff)] as number) ^
        (t[1536 + ((c >>> 8) & 0xff)] as number) ^
        (t[1280 + ((c >>> 16) & 0xff)] as number) ^
        (t[1024 + (c >>> 24)] as number) ^
        (t[768 + (bytes[i + 4] as number)] as number) ^
        (t[512 + (bytes[i + 5] as number)] as number) ^
        (t[256 + (bytes[i + 6] as number)] as number) ^
        (t[bytes[i + 7] as number] as number);
      i += 8;
    }
  }
  while (i < end) {
    c = (t[(c ^ (bytes[i] as number)) & 0xff] as number) ^ (c >>> 8);
    i++;
  }
  return ~c >>> 0;
}
