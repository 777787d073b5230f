/**
 * CRC-32C (Castagnoli, reflected polynomial 0x82F63B78), the checksum RecordBatch v2 stores in
 * its `crc` field over every byte from `attributes` to the end of the batch
 * (org.apache.kafka.common.utils.Crc32C). Initial value 0xFFFFFFFF, final XOR 0xFFFFFFFF; the
 * result is returned unsigned, as Kafka prints it in `kafka-dump-log.sh` (`crc: 3425803576`).
 *
 * Slicing-by-8: eight 256-entry tables let the inner loop fold 8 input bytes per step with
 * independent lookups instead of one byte at a time; every appended batch and every batch read
 * on recovery goes through here, so it is on the hot path.
 */

const POLY = 0x82f63b78;

/** TABLE[k * 256 + b]: the CRC of byte b followed by k zero bytes. */
const TABLE = buildTables();

function buildTables(): Int32Array {
  const t = new Int32Array(8 * 256);
  for (let b = 0; b < 256; b++) {
    let c = b;
    for (let i = 0; i < 8; i++) c = c & 1 ? (c >>> 1) ^ POLY : c >>> 1;
    t[b] = c;
  }
  for (let b = 0; b < 256; b++) {
    let c = t[b] as number;
    for (let k = 1; k < 8; k++) {
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
  while (i < end) {
    c = (t[(c ^ (bytes[i] as number)) & 0xff] as number) ^ (c >>> 8);
    i++;
  }
  return ~c >>> 0;
}
