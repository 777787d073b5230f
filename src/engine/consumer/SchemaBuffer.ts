import { CorruptRecordError } from '../errors';

/**
 * Big-endian readers and writers for Kafka's non-flexible message schemas (the generated
 * `*Key`/`*Value` classes of group-coordinator and the consumer protocol): int16/int32/int64,
 * STRING (int16 length + UTF-8, -1 = null), BYTES (int32 length, -1 = null), ARRAY (int32 count).
 *
 * The reader throws only CorruptRecordError, whatever the bytes: a truncated field, a negative
 * length where null is not allowed, invalid UTF-8 or trailing garbage all mean a corrupt record.
 */
export class SchemaReader {
  private pos = 0;
  private readonly view: DataView;
  private static readonly utf8 = new TextDecoder('utf-8', { fatal: true });

  constructor(
    private readonly bytes: Uint8Array,
    private readonly what: string,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  private need(n: number, field: string): void {
    if (this.pos + n > this.bytes.length) {
      throw new CorruptRecordError(
        `${this.what}: ${field} needs ${n} bytes at ${this.pos}, only ${this.remaining()} left`,
        {
          position: this.pos,
        },
      );
    }
  }

  remaining(): number {
    return this.bytes.length - this.pos;
  }

  int16(field: string): number {
    this.need(2, field);
    const v = this.view.getInt16(this.pos);
    this.pos += 2;
    return v;
  }

  int32(field: string): number {
    this.need(4, field);
    const v = this.view.getInt32(this.pos);
    this.pos += 4;
    return v;
  }

  /** int64 as a JS number: offsets and timestamps stay far below 2^53. */
  int64(field: string): number {
    this.need(8, field);
    const v = this.view.getBigInt64(this.pos);
    this.pos += 8;
    if (v > BigInt(Number.MAX_SAFE_INTEGER) || v < BigInt(Number.MIN_SAFE_INTEGER)) {
      throw new CorruptRecordError(`${this.what}: ${field} ${v} is outside the safe integer range`);
    }
    return Number(v);
  }

  nullableString(field: string): string | null {
    const len = this.int16(field);
    if (len === -1) return null;
    if (len < 0) throw new CorruptRecordError(`${this.what}: ${field} has length ${len}`);
    this.need(len, field);
    const slice = this.bytes.subarray(this.pos, this.pos + len);
    this.pos += len;
    try {
      return SchemaReader.utf8.decode(slice);
    } catch {
      throw new CorruptRecordError(`${this.what}: ${field} is not valid UTF-8`);
    }
  }

  string(field: string): string {
    const s = this.nullableString(field);
    if (s === null) throw new CorruptRecordError(`${this.what}: ${field} is null but not nullable`);
    return s;
  }

  nullableBytes(field: string): Uint8Array | null {
    const len = this.int32(field);
    if (len === -1) return null;
    if (len < 0) throw new CorruptRecordError(`${this.what}: ${field} has length ${len}`);
    this.need(len, field);
    const out = this.bytes.slice(this.pos, this.pos + len);
    this.pos += len;
    return out;
  }

  bytesField(field: string): Uint8Array {
    const b = this.nullableBytes(field);
    if (b === null) throw new CorruptRecordError(`${this.what}: ${field} is null but not nullable`);
    return b;
  }

  /** An ARRAY: int32 count, then `count` items. Each item is at least `minItemBytes` long. */
  array<T>(field: string, minItemBytes: number, item: () => T): T[] {
    const n = this.int32(field);
    if (n < 0) throw new CorruptRecordError(`${this.what}: ${field} has count ${n}`);
    if (n * minItemBytes > this.remaining()) {
      throw new CorruptRecordError(`${this.what}: ${field} claims ${n} items, more than the bytes left`);
    }
    const out: T[] = [];
    for (let i = 0; i < n; i++) out.push(item());
    return out;
  }

  /** Non-flexible schemas end exactly: trailing bytes mean the record is not what it claims. */
  end(): void {
    if (this.pos !== this.bytes.length) {
      throw new CorruptRecordError(`${this.what}: ${this.bytes.length - this.pos} trailing bytes`);
    }
  }
}

export class SchemaWriter {
  private buf = new Uint8Array(64);
  private view = new DataView(this.buf.buffer);
  private pos = 0;
  private static readonly utf8 = new TextEncoder();

  private ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  int16(v: number): this {
    this.ensure(2);
    this.view.setInt16(this.pos, v);
    this.pos += 2;
    return this;
  }

  int32(v: number): this {
    this.ensure(4);
    this.view.setInt32(this.pos, v);
    this.pos += 4;
    return this;
  }

  int64(v: number): this {
    this.ensure(8);
    this.view.setBigInt64(this.pos, BigInt(v));
    this.pos += 8;
    return this;
  }

  nullableString(s: string | null): this {
    if (s === null) return this.int16(-1);
    const b = SchemaWriter.utf8.encode(s);
    if (b.length > 0x7fff) throw new RangeError(`string of ${b.length} bytes is too long for a STRING field`);
    this.int16(b.length);
    return this.raw(b);
  }

  string(s: string): this {
    return this.nullableString(s);
  }

  nullableBytes(b: Uint8Array | null): this {
    if (b === null) return this.int32(-1);
    this.int32(b.length);
    return this.raw(b);
  }

  array<T>(items: readonly T[], item: (t: T) => void): this {
    this.int32(items.length);
    for (const t of items) item(t);
    return this;
  }

  raw(b: Uint8Array): this {
    this.ensure(b.length);
    this.buf.set(b, this.pos);
    this.pos += b.length;
    return this;
  }

  toBytes(): Uint8Array {
    return this.buf.slice(0, this.pos);
  }
}
