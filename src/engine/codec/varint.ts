/**
 * Variable-length integers as Kafka writes them (org.apache.kafka.common.utils.ByteUtils).
 *
 * - unsigned varint: 7 bits per byte, least significant group first, high bit = "more follows";
 *   a 32-bit value takes 1..5 bytes. Used for compact lengths in newer protocol versions.
 * - varint (int32) and varlong (int64): the zigzag-encoded value `(n << 1) ^ (n >> 31|63)` written
 *   as an unsigned varint, so small negative numbers stay short. RecordBatch v2 records use these
 *   for every length, delta and count.
 *
 * 64-bit values travel as JS numbers and must be safe integers (|n| <= 2^53 - 1): offsets and
 * millisecond timestamps never come near that bound. A varlong that decodes outside the safe
 * range is reported as CORRUPT_MESSAGE rather than silently rounded; `readVarlongBigInt` /
 * `writeVarlongBigInt` cover the full int64 range where it is truly needed.
 *
 * Readers take (bytes, position) and return `{ value, next }`; writers take (value, out,
 * position) and return the position after the last byte written. Callers size `out` with the
 * `sizeOf*` functions first. Readers never read past `bytes.length` and throw CorruptRecordError
 * for a truncated or over-long encoding, like Kafka's "illegal varint" errors.
 */
import { CorruptRecordError } from '../errors';

/** A decoded value and the position just after its last byte. */
export interface VarintRead<T = number> {
  value: T;
  next: number;
}

const TWO_POW_32 = 4294967296;

// ---------------------------------------------------------------------------------------------
// Sizes

/** Bytes needed for `value` (treated as an unsigned 32-bit int) as an unsigned varint. */
export function sizeOfUnsignedVarint(value: number): number {
  const v = value >>> 0;
  if (v < 0x80) return 1;
  if (v < 0x4000) return 2;
  if (v < 0x200000) return 3;
  if (v < 0x10000000) return 4;
  return 5;
}

/** Bytes needed for the int32 `value` as a zigzag varint. */
export function sizeOfVarint(value: number): number {
  return sizeOfUnsignedVarint((value << 1) ^ (value >> 31));
}

/** Bytes needed for the int64 `value` (a safe integer) as a zigzag varlong. */
export function sizeOfVarlong(value: number): number {
  if (value >= -0x40000000 && value < 0x40000000) return sizeOfVarint(value);
  // zigzag magnitude: 2v for v >= 0, -2v - 1 for v < 0; count 7-bit groups on the magnitude.
  // Dividing keeps precision: the magnitude is below 2^54 and we only compare against powers of 2.
  let zz = value >= 0 ? value * 2 : -value * 2 - 1;
  let size = 1;
  while (zz >= 128) {
    zz = Math.floor(zz / 128);
    size++;
  }
  return size;
}

// ---------------------------------------------------------------------------------------------
// Unsigned varint (32-bit)

/** Writes `value` (as unsigned 32-bit) and returns the position after it. */
export function writeUnsignedVarint(value: number, out: Uint8Array, position: number): number {
  let v = value >>> 0;
  let p = position;
  while (v >= 0x80) {
    out[p++] = (v & 0x7f) | 0x80;
    v >>>= 7;
  }
  out[p++] = v;
  return p;
}

/** Reads an unsigned varint of at most 5 bytes; the value is returned as a signed int32, as Java does. */
export function readUnsignedVarint(bytes: Uint8Array, position: number): VarintRead {
  let value = 0;
  let p = position;
  for (let shift = 0; shift < 35; shift += 7) {
    if (p >= bytes.length) throw truncated(position);
    const b = bytes[p++] as number;
    value |= (b & 0x7f) << shift;
    if ((b & 0x80) === 0) return { value, next: p };
  }
  throw new CorruptRecordError(`varint at position ${position} is longer than 5 bytes`, {
    position,
    reason: 'varint',
  });
}

// ---------------------------------------------------------------------------------------------
// Zigzag varint (int32)

/** Writes the int32 `value` zigzag-encoded and returns the position after it. */
export function writeVarint(value: number, out: Uint8Array, position: number): number {
  return writeUnsignedVarint((value << 1) ^ (value >> 31), out, position);
}

/** Reads a zigzag varint (int32). */
export function readVarint(bytes: Uint8Array, position: number): VarintRead {
  const raw = readUnsignedVarint(bytes, position);
  raw.value = (raw.value >>> 1) ^ -(raw.value & 1);
  return raw;
}

// ---------------------------------------------------------------------------------------------
// Zigzag varlong (int64 as a safe-integer number)

/** Writes the int64 `value` (a safe integer) zigzag-encoded and returns the position after it. */
export function writeVarlong(value: number, out: Uint8Array, position: number): number {
  if (value >= -0x40000000 && value < 0x40000000) return writeVarint(value, out, position);
  // Split into two's-complement 32-bit halves, zigzag across the pair, then emit 7-bit groups.
  const hi = Math.floor(value / TWO_POW_32);
  const lo = value - hi * TWO_POW_32;
  const sign = hi >> 31;
  let zzHi = ((hi << 1) | (lo >>> 31)) ^ sign;
  let zzLo = ((lo << 1) ^ sign) >>> 0;
  let p = position;
  while (zzHi !== 0 || zzLo >= 0x80) {
    out[p++] = (zzLo & 0x7f) | 0x80;
    zzLo = ((zzLo >>> 7) | (zzHi << 25)) >>> 0;
    zzHi = zzHi >>> 7;
  }
  out[p++] = zzLo;
  return p;
}

/**
 * Reads a zigzag varlong of at most 10 bytes. Throws CorruptRecordError if the encoding is longer
 * or the value is not a safe integer (it would lose precision as a JS number).
 */
export function readVarlong(bytes: Uint8Array, position: number): VarintRead {
  let p = position;
  // Fast path: up to 4 bytes fit in 28 bits, well inside int32 arithmetic.
  let lo = 0;
  for (let shift = 0; shift < 28; shift += 7) {
    if (p >= bytes.length) throw truncated(position);
    const b = bytes[p++] as number;
    lo |= (b & 0x7f) << shift;
    if ((b & 0x80) === 0) return { value: (lo >>> 1) ^ -(lo & 1), next: p };
  }
  // Slow path: accumulate the remaining groups into a 64-bit (hi, lo) pair.
  let hi = 0;
  for (let shift = 28; shift < 70; shift += 7) {
    if (p >= bytes.length) throw truncated(position);
    const b = bytes[p++] as number;
    const group = b & 0x7f;
    if (shift === 28) {
      lo |= group << 28;
      hi |= group >>> 4;
    } else {
      hi |= group << (shift - 32);
    }
    if ((b & 0x80) === 0) {
      const sign = -(lo & 1);
      const uLo = (((lo >>> 1) | (hi << 31)) ^ sign) >>> 0;
      const sHi = (hi >>> 1) ^ sign;
      const value = sHi * TWO_POW_32 + uLo;
      if (sHi > 0x1fffff || sHi < -0x200000 || !Number.isSafeInteger(value)) {
        throw new CorruptRecordError(`varlong at position ${position} is outside the safe integer range`, {
          position,
          reason: 'unsafe-int64',
        });
      }
      return { value, next: p };
    }
  }
  throw new CorruptRecordError(`varlong at position ${position} is longer than 10 bytes`, {
    position,
    reason: 'varint',
  });
}

// ---------------------------------------------------------------------------------------------
// Zigzag varlong, full int64 range as bigint (for the rare value beyond 2^53)

/** Writes the int64 `value` zigzag-encoded and returns the position after it. */
export function writeVarlongBigInt(value: bigint, out: Uint8Array, position: number): number {
  let v = BigInt.asUintN(64, (value << 1n) ^ (value >> 63n));
  let p = position;
  while (v >= 0x80n) {
    out[p++] = Number(v & 0x7fn) | 0x80;
    v >>= 7n;
  }
  out[p++] = Number(v);
  return p;
}

/** Reads a zigzag varlong of at most 10 bytes as a bigint. */
export function readVarlongBigInt(bytes: Uint8Array, position: number): VarintRead<bigint> {
  let raw = 0n;
  let p = position;
  for (let shift = 0n; shift < 70n; shift += 7n) {
    if (p >= bytes.length) throw truncated(position);
    const b = bytes[p++] as number;
    raw |= BigInt(b & 0x7f) << shift;
    if ((b & 0x80) === 0) {
      raw = BigInt.asUintN(64, raw);
      return { value: BigInt.asIntN(64, (raw >> 1n) ^ -(raw & 1n)), next: p };
    }
  }
  throw new CorruptRecordError(`varlong at position ${position} is longer than 10 bytes`, {
    position,
    reason: 'varint',
  });
}

function truncated(position: number): CorruptRecordError {
  return new CorruptRecordError(`varint at position ${position} runs past the end of the buffer`, {
    position,
    reason: 'truncated',
  });
}
