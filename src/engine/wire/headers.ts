/**
 * Request and response headers. Request header v0: api key, api version, correlation id; v1 adds
 * the client id (a nullable int16-length string, never compact: its flexibleVersions is "none");
 * v2 adds a tagged-field section. Response header v0: correlation id; v1 adds a tagged-field
 * section. Which version a message uses follows from whether its API version is flexible
 * (`ApiMessageType.requestHeaderVersion` / `responseHeaderVersion`), with one exception that
 * KIP-511 keeps: an ApiVersions response always uses header v0, so a client that sent a version
 * the broker does not know can still read the answer.
 */
import { type ByteReader, ByteWriter } from '../codec/bytes';
import { guard, WireFormatError } from './wireCodec';

export interface RequestHeader {
  readonly apiKey: number;
  readonly apiVersion: number;
  readonly correlationId: number;
  readonly clientId: string | null;
}

export const API_VERSIONS_KEY = 18;
const CONTROLLED_SHUTDOWN_KEY = 7;

export function requestHeaderVersion(apiKey: number, apiVersion: number, flexible: boolean): number {
  if (flexible) return 2;
  // ControlledShutdown v0 predates the client id.
  return apiKey === CONTROLLED_SHUTDOWN_KEY && apiVersion === 0 ? 0 : 1;
}

export function responseHeaderVersion(apiKey: number, flexible: boolean): number {
  if (apiKey === API_VERSIONS_KEY) return 0;
  return flexible ? 1 : 0;
}

/** Reads the api key, version and correlation id every header version starts with. */
export function peekRequestHeader(r: ByteReader): { apiKey: number; apiVersion: number; correlationId: number } {
  return guard('request header', () => ({
    apiKey: r.readInt16(),
    apiVersion: r.readInt16(),
    correlationId: r.readInt32(),
  }));
}

/** The rest of a request header of `headerVersion`, after `peekRequestHeader`. */
export function readRequestHeaderRest(
  r: ByteReader,
  start: { apiKey: number; apiVersion: number; correlationId: number },
  headerVersion: number,
): RequestHeader {
  return guard('request header', () => {
    const clientId = headerVersion >= 1 ? r.readString() : null;
    if (headerVersion >= 2) skipTaggedFields(r);
    return { ...start, clientId };
  });
}

export function writeRequestHeader(w: ByteWriter, h: RequestHeader, headerVersion: number): void {
  w.writeInt16(h.apiKey).writeInt16(h.apiVersion).writeInt32(h.correlationId);
  if (headerVersion >= 1) w.writeString(h.clientId);
  if (headerVersion >= 2) w.writeUnsignedVarint(0);
}

export function writeResponseHeader(w: ByteWriter, correlationId: number, headerVersion: number): void {
  w.writeInt32(correlationId);
  if (headerVersion >= 1) w.writeUnsignedVarint(0);
}

export function readResponseHeader(r: ByteReader, headerVersion: number): number {
  return guard('response header', () => {
    const correlationId = r.readInt32();
    if (headerVersion >= 1) skipTaggedFields(r);
    return correlationId;
  });
}

/** A header's tagged fields: none are defined for these versions, so each is skipped. */
function skipTaggedFields(r: ByteReader): void {
  const n = r.readUnsignedVarint();
  if (n > r.remaining) throw new WireFormatError(`${n} tagged fields with ${r.remaining} bytes left`);
  for (let i = 0; i < n; i++) {
    r.readUnsignedVarint();
    const size = r.readUnsignedVarint();
    r.readRaw(size);
  }
}

/** Frames a message as Kafka does on a socket: an int32 size, then the bytes. */
export function frame(parts: readonly Uint8Array[]): Uint8Array {
  const w = new ByteWriter(4 + parts.reduce((n, p) => n + p.length, 0));
  w.writeInt32(parts.reduce((n, p) => n + p.length, 0));
  for (const p of parts) w.writeRaw(p);
  return w.toBytes();
}
