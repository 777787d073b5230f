/**
 * One encoder and one decoder for every message schema (`schema.ts`), over the engine's one byte
 * codec (`codec/bytes.ts`). What a version changes is read from the schema:
 * - a field exists only in its versions; a reader of an older version gets the field's default;
 * - flexible versions (KIP-482) write strings, bytes and arrays "compact" (unsigned varint length
 *   + 1, 0 for null) and end every struct with a tagged-field section: a count, then per field its
 *   tag, its size and its bytes, tags ascending. Unknown tags are skipped, as Kafka's readers do.
 * Whatever the bytes, decoding ends in a value or an INVALID_REQUEST error (`WireFormatError`).
 */
import { ByteReader, ByteWriter } from '../codec/bytes';
import { KafkaError } from '../errors';
import type { WireMessage, WireMessageToEncode } from './messageTypes';
import { type Field, type FieldType, inRange, type MessageSchema, type PrimitiveType, type WireValue } from './schema';

/** A message Kafka would refuse to parse (InvalidRequestException on the broker's side). */
export class WireFormatError extends KafkaError {
  constructor(message: string, details: Record<string, unknown> = {}) {
    super('INVALID_REQUEST', message, details);
    this.name = 'WireFormatError';
  }
}

/** More elements than this in one array is taken as a corrupt length, not an allocation to try. */
const MAX_ARRAY_LENGTH = 1 << 24;

export function encodeMessage<S extends MessageSchema>(
  schema: S,
  version: number,
  value: WireMessageToEncode<S>,
): Uint8Array {
  const w = new ByteWriter(256);
  writeMessage(w, schema, version, value);
  return w.toBytes();
}

export function writeMessage(w: ByteWriter, schema: MessageSchema, version: number, value: WireValue): void {
  if (!inRange(schema.valid, version)) throw new KafkaError('UNSUPPORTED_VERSION', `${schema.name} v${version}`);
  writeStruct(w, schema.fields, version, inRange(schema.flexible, version), value, schema.name);
}

/**
 * The message in `bytes`. Its `records` fields are views of `bytes` (not copies), so `bytes` must
 * not change while they are in use: the gateway decodes each request from its own copy.
 *
 * Bytes left after the last field are ignored, as Kafka's broker ignores them
 * (RequestContext.parseRequest hands the buffer to AbstractRequest.parseRequest, which reads the
 * message's fields and never asks what remains): librdkafka 2.12's "all topics" Metadata v12
 * request carries 3 (librdkafka issue #5049) and Kafka answers it. A body that ends before its
 * last field is still refused (WireFormatError).
 */
export function decodeMessage<S extends MessageSchema>(schema: S, version: number, bytes: Uint8Array): WireMessage<S>;
// The one place a walked value becomes its schema's type: readStruct sets every field of the table.
export function decodeMessage(schema: MessageSchema, version: number, bytes: Uint8Array): WireValue {
  return readMessage(new ByteReader(bytes), schema, version);
}

/** Reads one message from `r` (which may go on past it), or throws WireFormatError. */
export function readMessage(r: ByteReader, schema: MessageSchema, version: number): WireValue {
  if (!inRange(schema.valid, version)) throw new KafkaError('UNSUPPORTED_VERSION', `${schema.name} v${version}`);
  return guard(`${schema.name} v${version}`, () =>
    readStruct(r, schema.fields, version, inRange(schema.flexible, version)),
  );
}

/** Runs a read and turns anything it throws (a truncated buffer, a bad length) into WireFormatError. */
export function guard<T>(what: string, read: () => T): T {
  try {
    return read();
  } catch (e) {
    if (e instanceof WireFormatError) throw e;
    const reason = e instanceof Error ? e.message : String(e);
    throw new WireFormatError(`${what}: ${reason}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Writing

function isTagged(f: Field, version: number, flexible: boolean): boolean {
  return flexible && f.tag !== undefined && f.taggedVersions !== undefined && inRange(f.taggedVersions, version);
}

function writeStruct(
  w: ByteWriter,
  fields: readonly Field[],
  version: number,
  flexible: boolean,
  value: WireValue,
  path: string,
): void {
  const tagged: Field[] = [];
  for (const f of fields) {
    if (!inRange(f.versions, version)) continue;
    if (isTagged(f, version, flexible)) {
      tagged.push(f);
      continue;
    }
    writeField(w, f, version, flexible, fieldValue(f, value), `${path}.${f.name}`);
  }
  if (!flexible) return;
  // A tagged field is written only when it differs from its default (Kafka's generated writers).
  const present = tagged
    .filter((f) => {
      const v = value[f.name];
      return v !== undefined && !sameAsDefault(f, v);
    })
    .sort((a, b) => (a.tag ?? 0) - (b.tag ?? 0));
  w.writeUnsignedVarint(present.length);
  for (const f of present) {
    const inner = new ByteWriter(32);
    writeField(inner, f, version, true, value[f.name], `${path}.${f.name}`);
    w.writeUnsignedVarint(f.tag ?? 0);
    w.writeUnsignedVarint(inner.length);
    w.writeRaw(inner.toBytes());
  }
}

function sameAsDefault(f: Field, v: unknown): boolean {
  const d = defaultOf(f);
  if (Array.isArray(v)) return Array.isArray(d) && v.length === 0 && d.length === 0;
  return v === d;
}

function fieldValue(f: Field, value: WireValue): unknown {
  const v = value[f.name];
  return v === undefined ? defaultOf(f) : v;
}

/** The field's declared default, else Kafka's zero value for its type. */
export function defaultOf(f: Field): unknown {
  if (f.default !== undefined) return f.default;
  return zeroOf(f.type);
}

function zeroOf(type: FieldType): unknown {
  if (typeof type !== 'string') return 'arrayOf' in type ? [] : {};
  switch (type) {
    case 'bool':
      return false;
    case 'string':
      return '';
    case 'bytes':
      return new Uint8Array(0);
    case 'records':
      return null;
    case 'uuid':
      return ZERO_UUID;
    default:
      return 0;
  }
}

export const ZERO_UUID = '00000000000000000000000000000000';

function writeField(w: ByteWriter, f: Field, version: number, flexible: boolean, v: unknown, path: string): void {
  if (v === null) {
    if (!inRange(f.nullable, version) && f.type !== 'records') {
      throw new WireFormatError(`${path} is not nullable in version ${version}`);
    }
    writeNull(w, f.type, flexible);
    return;
  }
  const type = f.type;
  if (typeof type === 'string') {
    writePrimitive(w, type, flexible, v, path);
    return;
  }
  if ('struct' in type) {
    writeStruct(w, type.struct, version, flexible, v as WireValue, path);
    return;
  }
  const items = v as readonly unknown[];
  if (flexible) w.writeUnsignedVarint(items.length + 1);
  else w.writeInt32(items.length);
  const of = type.arrayOf;
  if (typeof of === 'string') for (const item of items) writePrimitive(w, of, flexible, item, path);
  else for (const item of items) writeStruct(w, of, version, flexible, item as WireValue, path);
}

function writeNull(w: ByteWriter, type: FieldType, flexible: boolean): void {
  if (typeof type !== 'string' && 'struct' in type) {
    // A nullable struct is prefixed by an int8: -1 null, 1 present.
    w.writeInt8(-1);
    return;
  }
  if (type === 'string') {
    if (flexible) w.writeUnsignedVarint(0);
    else w.writeInt16(-1);
    return;
  }
  if (flexible) w.writeUnsignedVarint(0);
  else w.writeInt32(-1);
}

/** The fixed-width integers, each with its writer (a uint16 goes out in an int16's bits). */
const INTEGER_WRITERS: Readonly<Partial<Record<PrimitiveType, (w: ByteWriter, n: number) => void>>> = {
  int8: (w, n) => w.writeInt8(n),
  int16: (w, n) => w.writeInt16(n),
  uint16: (w, n) => w.writeInt16((n << 16) >> 16),
  int32: (w, n) => w.writeInt32(n),
  uint32: (w, n) => w.writeUInt32(n),
  int64: (w, n) => w.writeInt64(n),
};

function writePrimitive(w: ByteWriter, type: PrimitiveType, flexible: boolean, v: unknown, path: string): void {
  const writeInteger = INTEGER_WRITERS[type];
  if (writeInteger) {
    writeInteger(w, Number(v));
    return;
  }
  switch (type) {
    case 'bool':
      w.writeInt8(v ? 1 : 0);
      return;
    case 'float64': {
      const b = new Uint8Array(8);
      new DataView(b.buffer).setFloat64(0, Number(v));
      w.writeRaw(b);
      return;
    }
    case 'string':
      if (flexible) w.writeCompactString(String(v));
      else w.writeString(String(v));
      return;
    case 'bytes':
    case 'records': {
      const bytes = v as Uint8Array;
      if (flexible) w.writeUnsignedVarint(bytes.length + 1).writeRaw(bytes);
      else w.writeBytes(bytes);
      return;
    }
    case 'uuid':
      w.writeRaw(uuidBytes(String(v), path));
      return;
  }
}

function uuidBytes(hex: string, path: string): Uint8Array {
  if (!/^[0-9a-f]{32}$/i.test(hex)) throw new WireFormatError(`${path}: "${hex}" is not 32 hex digits`);
  const out = new Uint8Array(16);
  for (let i = 0; i < 16; i++) out[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Reading

function readStruct(r: ByteReader, fields: readonly Field[], version: number, flexible: boolean): WireValue {
  const out: WireValue = {};
  const tagged = new Map<number, Field>();
  for (const f of fields) {
    if (!inRange(f.versions, version)) {
      out[f.name] = defaultOf(f);
      continue;
    }
    if (isTagged(f, version, flexible)) {
      out[f.name] = defaultOf(f);
      tagged.set(f.tag ?? 0, f);
      continue;
    }
    out[f.name] = readField(r, f, version, flexible);
  }
  if (!flexible) return out;
  const count = readLength(r, 'tagged fields');
  let lastTag = -1;
  for (let i = 0; i < count; i++) {
    const tag = r.readUnsignedVarint();
    if (tag <= lastTag) throw new WireFormatError(`tagged field ${tag} after ${lastTag}: tags must ascend`);
    lastTag = tag;
    const size = readLength(r, 'tagged field size');
    const f = tagged.get(tag);
    if (!f) {
      r.readRaw(size); // an unknown tag: a newer writer's field, skipped
      continue;
    }
    const inner = new ByteReader(r.readRaw(size));
    out[f.name] = readField(inner, f, version, true);
    if (inner.remaining !== 0) throw new WireFormatError(`tagged field ${f.name} is longer than its value`);
  }
  return out;
}

/** An unsigned varint used as a count or size, bounded by what is left to read. */
function readLength(r: ByteReader, what: string): number {
  const n = r.readUnsignedVarint();
  if (n > r.remaining) throw new WireFormatError(`${what} of ${n} is more than the ${r.remaining} bytes left`);
  return n;
}

function readField(r: ByteReader, f: Field, version: number, flexible: boolean): unknown {
  const type = f.type;
  const nullable = inRange(f.nullable, version);
  if (typeof type === 'string') return readPrimitive(r, type, flexible, nullable, f.name);
  if ('struct' in type) {
    if (nullable && r.readInt8() < 0) return null;
    return readStruct(r, type.struct, version, flexible);
  }
  let n: number;
  if (flexible) n = r.readUnsignedVarint() - 1;
  else n = r.readInt32();
  if (n < 0) {
    if (!nullable) throw new WireFormatError(`${f.name} is null but not nullable in version ${version}`);
    return null;
  }
  // Every element takes at least one byte, so a count past the bytes left is corrupt.
  if (n > MAX_ARRAY_LENGTH || n > r.remaining) {
    throw new WireFormatError(`${f.name} claims ${n} elements with ${r.remaining} bytes left`);
  }
  const out: unknown[] = new Array(n);
  const of = type.arrayOf;
  for (let i = 0; i < n; i++) {
    out[i] =
      typeof of === 'string' ? readPrimitive(r, of, flexible, false, f.name) : readStruct(r, of, version, flexible);
  }
  return out;
}

function readPrimitive(
  r: ByteReader,
  type: PrimitiveType,
  flexible: boolean,
  nullable: boolean,
  name: string,
): unknown {
  switch (type) {
    case 'bool':
      return r.readInt8() !== 0;
    case 'int8':
      return r.readInt8();
    case 'int16':
      return r.readInt16();
    case 'uint16':
      return r.readInt16() & 0xffff;
    case 'int32':
      return r.readInt32();
    case 'uint32':
      return r.readUInt32();
    case 'int64':
      return r.readInt64();
    case 'float64':
      return new DataView(r.readRaw(8).buffer).getFloat64(0);
    case 'string': {
      const s = flexible ? r.readCompactString() : r.readString();
      if (s === null && !nullable) throw new WireFormatError(`${name} is null but not nullable`);
      return s;
    }
    case 'bytes':
    case 'records': {
      const n = flexible ? r.readUnsignedVarint() - 1 : r.readInt32();
      if (n < 0) {
        if (!nullable && type === 'bytes') throw new WireFormatError(`${name} is null but not nullable`);
        return null;
      }
      if (type === 'records') {
        // A view, not a copy (a produce request's batches are most of its bytes): the bytes a
        // message is decoded from are its caller's own and never change (decodeMessage).
        if (n > r.end - r.position)
          throw new WireFormatError(`${name}: ${n} bytes of records, ${r.end - r.position} left`);
        r.position += n;
        return r.bytes.subarray(r.position - n, r.position);
      }
      return r.readRaw(n);
    }
    case 'uuid': {
      const b = r.readRaw(16);
      let hex = '';
      for (const x of b) hex += x.toString(16).padStart(2, '0');
      return hex;
    }
  }
}
