/**
 * The page <-> host protocol (worker/protocol.ts) carried over a WebSocket, where nothing is
 * structured-cloned: a message without byte arrays is a text frame of JSON; one with byte arrays
 * (segment dumps, zips, a lag history's typed arrays) is a binary frame, whose JSON header names
 * each array by index and whose arrays follow as raw bytes, never as numbers in JSON.
 *
 * Binary frame: u32 header length, the header (UTF-8 JSON), then per array u32 length + bytes
 * (big-endian lengths). In the header an array is {"$bytes": i, "type": "Uint8Array"}, and a
 * number JSON cannot hold (NaN, ±Infinity) is {"$number": "NaN"}.
 */

const TYPED = {
  Uint8Array,
  Int8Array,
  Uint16Array,
  Int16Array,
  Uint32Array,
  Int32Array,
  Float32Array,
  Float64Array,
} as const;
type TypedName = keyof typeof TYPED;
type Typed = InstanceType<(typeof TYPED)[TypedName]>;

/** What crosses the link: the protocol's own messages, or the link's word on this page's role. */
export type LinkMessage<M> = { host: M } | { role: PageRole };

/**
 * Several pages may watch one Node engine; one at a time controls it. A watching page's commands
 * that would change the cluster are refused (the host says why).
 */
export interface PageRole {
  role: 'controls' | 'watching';
  /** How many pages are attached now, this one included. */
  pages: number;
}

export class LinkFormatError extends Error {
  override name = 'LinkFormatError';
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The typed array's kind (a Node Buffer is a Uint8Array); null for anything else. */
function typedName(v: unknown): TypedName | null {
  if (!ArrayBuffer.isView(v)) return null;
  for (const name of Object.keys(TYPED) as TypedName[]) if (v instanceof TYPED[name]) return name;
  return null;
}

/** A message as one WebSocket frame: a string (text frame) or bytes (binary frame). */
export function encodeFrame(message: unknown): string | Uint8Array<ArrayBuffer> {
  const blobs: Uint8Array[] = [];
  const header = JSON.stringify(message, function replacer(this: Record<string, unknown>, key, value: unknown) {
    if (typeof value === 'number' && !Number.isFinite(value)) return { $number: String(value) };
    // The value before toJSON (a Buffer's toJSON would spell its bytes out as numbers).
    const raw = this[key];
    const type = typedName(raw);
    if (type) {
      const v = raw as Typed;
      blobs.push(new Uint8Array(v.buffer, v.byteOffset, v.byteLength));
      return { $bytes: blobs.length - 1, type };
    }
    return value;
  });
  if (blobs.length === 0) return header;
  const head = encoder.encode(header);
  const size = 4 + head.length + blobs.reduce((n, b) => n + 4 + b.length, 0);
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  view.setUint32(0, head.length);
  out.set(head, 4);
  let at = 4 + head.length;
  for (const b of blobs) {
    view.setUint32(at, b.length);
    out.set(b, at + 4);
    at += 4 + b.length;
  }
  return out;
}

/** The message in one frame; a frame that does not follow the format throws LinkFormatError. */
export function decodeFrame(frame: string | Uint8Array): unknown {
  if (typeof frame === 'string') return revive(frame, []);
  const view = new DataView(frame.buffer, frame.byteOffset, frame.byteLength);
  const need = (at: number, n: number) => {
    if (at + n > frame.length) throw new LinkFormatError('a binary frame ends inside its data');
  };
  need(0, 4);
  const headLength = view.getUint32(0);
  need(4, headLength);
  const header = decoder.decode(frame.subarray(4, 4 + headLength));
  const blobs: ArrayBuffer[] = [];
  let at = 4 + headLength;
  while (at < frame.length) {
    need(at, 4);
    const n = view.getUint32(at);
    need(at + 4, n);
    // A copy of its own: aligned for any typed array, and transferable on the page.
    blobs.push(frame.slice(at + 4, at + 4 + n).buffer);
    at += 4 + n;
  }
  return revive(header, blobs);
}

function revive(text: string, blobs: readonly ArrayBuffer[]): unknown {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text, (_key, value: unknown) => {
      if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
      const v = value as Record<string, unknown>;
      if (typeof v.$number === 'string' && Object.keys(v).length === 1) return Number(v.$number);
      if (typeof v.$bytes === 'number' && typeof v.type === 'string' && Object.keys(v).length === 2) {
        const blob = blobs[v.$bytes];
        const ctor = (TYPED as Record<string, (typeof TYPED)[TypedName]>)[v.type];
        if (!blob || !ctor || blob.byteLength % ctor.BYTES_PER_ELEMENT !== 0)
          throw new LinkFormatError(`array ${v.$bytes} (${v.type}) is missing or of the wrong length`);
        return new ctor(blob);
      }
      return value;
    });
  } catch (e) {
    if (e instanceof LinkFormatError) throw e;
    throw new LinkFormatError(`a frame is not JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
  return parsed;
}
