/**
 * Big-endian byte buffers for Kafka's other binary schemas (the `__consumer_offsets` key and
 * value, control records, snapshots): the types of Kafka's protocol guide — int8/16/32/64,
 * unsigned and zigzag varints, STRING (int16 length + UTF-8), NULLABLE_STRING (-1 = null),
 * BYTES (int32 length), COMPACT_STRING (unsigned varint length + 1).
 *
 * ByteWriter grows as needed (doubling); ByteReader checks every read against the bytes left
 * and throws CorruptRecordError, so a hostile length can never read out of bounds or allocate.
 * 64-bit values are safe-integer numbers, as everywhere in the codec.
 */
import { CorruptRecordError } from '../errors';
import { readUtf8, utf8Length, writeUtf8 } from './utf8';
import {
  readUnsignedVarint,
  readVarint,
  readVarlong,
  sizeOfUnsignedVarint,
  sizeOfVarint,
  sizeOfVarlong,
  writeUnsignedVarint,
  writeVarint,
  writeVarlong,
} from './varint';

const TWO_POW_32 = 4294967296;

// ---------------------------------------------------------------------------------------------
// Big-endian fields at a fixed position of a byte array (a batch header being filled in or read),
// without a DataView: the record batch codec and the producer's in-place batch use these.

export function readInt16At(b: Uint8Array, p: number): number {
  return (((b[p] as number) << 24) | ((b[p + 1] as number) << 16)) >> 16;
}

export function readInt32At(b: Uint8Array, p: number): number {
  return ((b[p] as number) << 24) | ((b[p + 1] as number) << 16) | ((b[p + 2] as number) << 8) | (b[p + 3] as number);
}

export function writeInt32At(b: Uint8Array, p: number, v: number): void {
  b[p] = v >>> 24;
  b[p + 1] = v >>> 16;
  b[p + 2] = v >>> 8;
  b[p + 3] = v;
}

/** int64 from a safe integer (the caller checks the range). */
export function writeInt64At(b: Uint8Array, p: number, v: number): void {
  const hi = Math.floor(v / TWO_POW_32);
  writeInt32At(b, p, hi);
  writeInt32At(b, p + 4, v - hi * TWO_POW_32);
}

/** The parts joined into one new array (always a copy with a buffer of its own). */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  let length = 0;
  for (const part of parts) length += part.length;
  const out = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

const SHORT_COPY_BYTES = 16;

/**
 * Copies `src` into `out` at `p` and returns the position after it. TypedArray.set has a fixed
 * cost of a few dozen nanoseconds, more than a plain loop over a short key or header value.
 */
export function copyInto(src: Uint8Array, out: Uint8Array, p: number): number {
  const n = src.length;
  if (n > SHORT_COPY_BYTES) out.set(src, p);
  else for (let i = 0; i < n; i++) out[p + i] = src[i] as number;
  return p + n;
}

/** Writes a nullable byte field (varint length, -1 for null, then the bytes); returns the next position. */
export function writeNullableBytes(src: Uint8Array | null, out: Uint8Array, p: number): number {
  if (src === null) {
    out[p] = 1; // zigzag(-1)
    return p + 1;
  }
  return copyInto(src, out, writeVarint(src.length, out, p));
}

// ---------------------------------------------------------------------------------------------
// Growing writer and bounds-checked reader

export class ByteWriter {
  private buf: Uint8Array;
  private view: DataView;
  /** Bytes written so far. */
  length = 0;

  constructor(initialCapacity = 64) {
    this.buf = new Uint8Array(Math.max(8, initialCapacity));
    this.view = new DataView(this.buf.buffer);
  }

  private ensure(extra: number): void {
    const need = this.length + extra;
    if (need <= this.buf.length) return;
    const next = new Uint8Array(Math.max(need, this.buf.length * 2));
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  /**
   * Makes room for `size` bytes and returns where they go (the writer's length moves past them).
   * Read `buf`/`view` after calling it: making room may replace them.
   */
  private claim(size: number): number {
    this.ensure(size);
    const at = this.length;
    this.length += size;
    return at;
  }

  writeInt8(v: number): this {
    const at = this.claim(1);
    this.view.setInt8(at, v);
    return this;
  }

  writeInt16(v: number): this {
    const at = this.claim(2);
    this.view.setInt16(at, v);
    return this;
  }

  writeInt32(v: number): this {
    const at = this.claim(4);
    this.view.setInt32(at, v);
    return this;
  }

  writeUInt32(v: number): this {
    const at = this.claim(4);
    this.view.setUint32(at, v);
    return this;
  }

  /** int64 from a safe integer. */
  writeInt64(v: number): this {
    if (!Number.isSafeInteger(v)) throw new RangeError(`int64 value ${v} is not a safe integer`);
    const at = this.claim(8);
    const hi = Math.floor(v / TWO_POW_32);
    this.view.setInt32(at, hi);
    this.view.setUint32(at + 4, v - hi * TWO_POW_32);
    return this;
  }

  writeUnsignedVarint(v: number): this {
    this.ensure(sizeOfUnsignedVarint(v));
    this.length = writeUnsignedVarint(v, this.buf, this.length);
    return this;
  }

  writeVarint(v: number): this {
    this.ensure(sizeOfVarint(v));
    this.length = writeVarint(v, this.buf, this.length);
    return this;
  }

  writeVarlong(v: number): this {
    this.ensure(sizeOfVarlong(v));
    this.length = writeVarlong(v, this.buf, this.length);
    return this;
  }

  /** Raw bytes, no length prefix. */
  writeRaw(bytes: Uint8Array): this {
    const at = this.claim(bytes.length);
    this.buf.set(bytes, at);
    return this;
  }

  /** STRING / NULLABLE_STRING: int16 length (-1 for null) + UTF-8. */
  writeString(s: string | null): this {
    if (s === null) return this.writeInt16(-1);
    const n = utf8Length(s);
    if (n > 0x7fff) throw new RangeError(`string of ${n} bytes does not fit an int16 length`);
    this.writeInt16(n);
    this.ensure(n);
    this.length = writeUtf8(s, this.buf, this.length);
    return this;
  }

  /** COMPACT_STRING / COMPACT_NULLABLE_STRING: unsigned varint length + 1 (0 for null) + UTF-8. */
  writeCompactString(s: string | null): this {
    if (s === null) return this.writeUnsignedVarint(0);
    const n = utf8Length(s);
    this.writeUnsignedVarint(n + 1);
    this.ensure(n);
    this.length = writeUtf8(s, this.buf, this.length);
    return this;
  }

  /** BYTES / NULLABLE_BYTES: int32 length (-1 for null) + bytes. */
  writeBytes(bytes: Uint8Array | null): this {
    if (bytes === null) return this.writeInt32(-1);
    return this.writeInt32(bytes.length).writeRaw(bytes);
  }

  /** A copy of the bytes written. */
  toBytes(): Uint8Array {
    return this.buf.slice(0, this.length);
  }
}

export class ByteReader {
  private readonly view: DataView;
  /** Position of the next byte to read. */
  position: number;

  constructor(
    readonly bytes: Uint8Array,
    start = 0,
    readonly end: number = bytes.length,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.position = start;
  }

  get remaining(): number {
    return this.end - this.position;
  }

  private need(n: number, what: string): number {
    if (n < 0 || n > this.end - this.position) {
      throw new CorruptRecordError(
        `${what} at position ${this.position} needs ${n} bytes, ${this.end - this.position} left`,
        { position: this.position, reason: 'truncated' },
      );
    }
    const p = this.position;
    this.position += n;
    return p;
  }

  readInt8(): number {
    return this.view.getInt8(this.need(1, 'int8'));
  }

  readInt16(): number {
    return this.view.getInt16(this.need(2, 'int16'));
  }

  readInt32(): number {
    return this.view.getInt32(this.need(4, 'int32'));
  }

  readUInt32(): number {
    return this.view.getUint32(this.need(4, 'uint32'));
  }

  /** int64 as a safe integer; CorruptRecordError outside ±(2^53 - 1). */
  readInt64(): number {
    const p = this.need(8, 'int64');
    const hi = this.view.getInt32(p);
    const value = hi * TWO_POW_32 + this.view.getUint32(p + 4);
    if (hi > 0x1fffff || hi < -0x200000 || !Number.isSafeInteger(value)) {
      throw new CorruptRecordError(`int64 at position ${p} is outside the safe integer range`, {
        position: p,
        reason: 'unsafe-int64',
      });
    }
    return value;
  }

  readUnsignedVarint(): number {
    const r = readUnsignedVarint(this.bytes.subarray(0, this.end), this.position);
    this.position = r.next;
    return r.value;
  }

  readVarint(): number {
    const r = readVarint(this.bytes.subarray(0, this.end), this.position);
    this.position = r.next;
    return r.value;
  }

  readVarlong(): number {
    const r = readVarlong(this.bytes.subarray(0, this.end), this.position);
    this.position = r.next;
    return r.value;
  }

  /** `n` raw bytes, as a copy. */
  readRaw(n: number): Uint8Array {
    const p = this.need(n, 'bytes');
    return this.bytes.slice(p, p + n);
  }

  /** STRING / NULLABLE_STRING. */
  readString(): string | null {
    const n = this.readInt16();
    if (n < 0) return null;
    const p = this.need(n, 'string');
    return readUtf8(this.bytes, p, p + n);
  }

  /** COMPACT_STRING / COMPACT_NULLABLE_STRING. */
  readCompactString(): string | null {
    const n = this.readUnsignedVarint() - 1;
    if (n < 0) return null;
    const p = this.need(n, 'compact string');
    return readUtf8(this.bytes, p, p + n);
  }

  /** BYTES / NULLABLE_BYTES. */
  readBytes(): Uint8Array | null {
    const n = this.readInt32();
    if (n < 0) return null;
    return this.readRaw(n);
  }
}
