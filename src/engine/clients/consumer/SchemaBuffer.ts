import { ByteReader, ByteWriter } from '../../codec/bytes';
import { CorruptRecordError } from '../../errors';

/**
 * Field-by-field readers and writers for Kafka's non-flexible message schemas (the generated
 * `*Key`/`*Value` classes of group-coordinator and the consumer protocol): int16/int32/int64,
 * STRING (int16 length + UTF-8, -1 = null), BYTES (int32 length, -1 = null), ARRAY (int32 count).
 * The bytes themselves go through the codec's one ByteReader / ByteWriter; this layer adds what a
 * schema knows: field names in errors, non-nullable fields, arrays and the exact end.
 *
 * The reader throws only CorruptRecordError, whatever the bytes: a truncated field, a negative
 * length where null is not allowed, invalid UTF-8 or trailing garbage all mean a corrupt record.
 */
export class SchemaReader {
  private readonly in: ByteReader;
  private static readonly utf8 = new TextDecoder('utf-8', { fatal: true });

  constructor(
    bytes: Uint8Array,
    private readonly what: string,
  ) {
    this.in = new ByteReader(bytes);
  }

  private need(n: number, field: string): void {
    if (n > this.in.remaining) {
      throw new CorruptRecordError(
        `${this.what}: ${field} needs ${n} bytes at ${this.in.position}, only ${this.remaining()} left`,
        {
          position: this.in.position,
        },
      );
    }
  }

  remaining(): number {
    return this.in.remaining;
  }

  int16(field: string): number {
    this.need(2, field);
    return this.in.readInt16();
  }

  int32(field: string): number {
    this.need(4, field);
    return this.in.readInt32();
  }

  /** int64 as a JS number: offsets and timestamps stay far below 2^53. */
  int64(field: string): number {
    this.need(8, field);
    const position = this.in.position;
    try {
      return this.in.readInt64();
    } catch (e) {
      if (!(e instanceof CorruptRecordError)) throw e;
      throw new CorruptRecordError(`${this.what}: ${field} is outside the safe integer range`, { position });
    }
  }

  nullableString(field: string): string | null {
    const len = this.int16(field);
    if (len === -1) return null;
    if (len < 0) throw new CorruptRecordError(`${this.what}: ${field} has length ${len}`);
    this.need(len, field);
    const slice = this.in.readRaw(len);
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
    return this.in.readRaw(len);
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
    if (this.in.remaining !== 0) {
      throw new CorruptRecordError(`${this.what}: ${this.in.remaining} trailing bytes`);
    }
  }
}

export class SchemaWriter {
  private readonly out = new ByteWriter();

  int16(v: number): this {
    this.out.writeInt16(v);
    return this;
  }

  int32(v: number): this {
    this.out.writeInt32(v);
    return this;
  }

  int64(v: number): this {
    this.out.writeInt64(v);
    return this;
  }

  nullableString(s: string | null): this {
    this.out.writeString(s);
    return this;
  }

  string(s: string): this {
    return this.nullableString(s);
  }

  nullableBytes(b: Uint8Array | null): this {
    this.out.writeBytes(b);
    return this;
  }

  array<T>(items: readonly T[], item: (t: T) => void): this {
    this.int32(items.length);
    for (const t of items) item(t);
    return this;
  }

  raw(b: Uint8Array): this {
    this.out.writeRaw(b);
    return this;
  }

  toBytes(): Uint8Array {
    return this.out.toBytes();
  }
}
