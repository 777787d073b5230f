/**
 * Kafka's snappy records section: snappy-java's xerial stream (SnappyOutputStream, which Kafka's
 * SnappyCompression wraps): an 8-byte magic (0x82 "SNAPPY" 0x00), version 1 and compatible
 * version 1 (int32 big-endian each), then chunks of at most 32 KiB of input, each a big-endian
 * int32 length and that many bytes of raw snappy. SnappyInputStream also reads a stream without
 * the magic as one raw snappy block, and a magic again between chunks as a concatenated stream;
 * so does this reader. Raw snappy is written by snappyjs (a port of Google's snappy) and read here
 * with every length and offset checked, as snappy-java's native decoder does: snappyjs's own
 * decoder trusts a literal's 32-bit length (a negative one walks its cursor backwards for seconds).
 */
import { compress as snappyCompress } from 'snappyjs';
import { CorruptRecordError } from '../errors';
import { concatBytes } from './bytes';

const MAGIC = [0x82, 0x53, 0x4e, 0x41, 0x50, 0x50, 0x59, 0x00];
const HEADER_SIZE = 16;
/** A snappy copy of 64 bytes takes 3: no block inflates more than this, whatever its length prefix says. */
const MAX_SNAPPY_RATIO = 22;
/** SnappyOutputStream's DEFAULT_BLOCK_SIZE. */
export const SNAPPY_BLOCK_SIZE = 32 * 1024;

export function snappyFrame(raw: Uint8Array): Uint8Array {
  const chunks: Uint8Array[] = [];
  for (let at = 0; at < raw.length; at += SNAPPY_BLOCK_SIZE) {
    chunks.push(snappyCompress(raw.subarray(at, Math.min(raw.length, at + SNAPPY_BLOCK_SIZE))));
  }
  const out = new Uint8Array(HEADER_SIZE + chunks.reduce((n, c) => n + 4 + c.length, 0));
  const view = new DataView(out.buffer);
  out.set(MAGIC, 0);
  view.setInt32(8, 1);
  view.setInt32(12, 1);
  let at = HEADER_SIZE;
  for (const c of chunks) {
    view.setInt32(at, c.length);
    out.set(c, at + 4);
    at += 4 + c.length;
  }
  return out;
}

function hasMagic(bytes: Uint8Array, at: number): boolean {
  if (bytes.length - at < MAGIC.length) return false;
  for (let i = 0; i < MAGIC.length; i++) if (bytes[at + i] !== MAGIC[i]) return false;
  return true;
}

/** Inflates a xerial stream or a raw snappy block, at most `limit` bytes in all. */
export function snappyUnframe(bytes: Uint8Array, limit: number, position: number): Uint8Array {
  const corrupt = (why: string) =>
    new CorruptRecordError(`snappy records section at position ${position}: ${why}`, {
      position,
      reason: 'compression',
    });
  const raw = (block: Uint8Array, room: number) =>
    rawSnappy(block, Math.min(room, block.length * MAX_SNAPPY_RATIO), corrupt);
  if (!hasMagic(bytes, 0)) return raw(bytes, limit);
  if (bytes.length < HEADER_SIZE) throw corrupt('the stream header is cut short');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const parts: Uint8Array[] = [];
  let total = 0;
  let at = HEADER_SIZE;
  while (at < bytes.length) {
    if (hasMagic(bytes, at)) {
      at += HEADER_SIZE; // a concatenated stream's header
      continue;
    }
    if (bytes.length - at < 4) throw corrupt('a chunk length is cut short');
    const size = view.getInt32(at);
    if (size < 0 || at + 4 + size > bytes.length) throw corrupt(`a chunk claims ${size} bytes`);
    const part = raw(bytes.subarray(at + 4, at + 4 + size), limit - total);
    total += part.length;
    parts.push(part);
    at += 4 + size;
  }
  return concatBytes(parts);
}

/** One raw snappy block: a varint length, then literals and copies (snappy's format_description.txt). */
function rawSnappy(src: Uint8Array, room: number, corrupt: (why: string) => Error): Uint8Array {
  let s = 0;
  let length = 0;
  for (let shift = 0; ; shift += 7) {
    if (s >= src.length || shift > 28) throw corrupt('a bad uncompressed length');
    const b = src[s++] as number;
    length += (b & 0x7f) * 2 ** shift;
    if (b < 0x80) break;
  }
  if (length > room) throw corrupt(`claims ${length} uncompressed bytes`);
  const out = new Uint8Array(length);
  let d = 0;
  const byteAt = (i: number) => {
    if (i >= src.length) throw corrupt('an element runs past the block');
    return src[i] as number;
  };
  while (s < src.length) {
    const tag = src[s++] as number;
    const kind = tag & 3;
    if (kind === 0) {
      let n = (tag >>> 2) + 1;
      if (n > 60) {
        const bytes = n - 60;
        n = 0;
        for (let i = 0; i < bytes; i++) n += byteAt(s + i) * 2 ** (8 * i);
        n += 1;
        s += bytes;
      }
      if (s + n > src.length) throw corrupt('a literal runs past the block');
      if (d + n > length) throw corrupt('a literal runs past the output');
      out.set(src.subarray(s, s + n), d);
      s += n;
      d += n;
      continue;
    }
    let n: number;
    let offset: number;
    if (kind === 1) {
      n = ((tag >>> 2) & 7) + 4;
      offset = ((tag >>> 5) << 8) | byteAt(s);
      s += 1;
    } else if (kind === 2) {
      n = (tag >>> 2) + 1;
      offset = byteAt(s) | (byteAt(s + 1) << 8);
      s += 2;
    } else {
      n = (tag >>> 2) + 1;
      offset = byteAt(s) + byteAt(s + 1) * 2 ** 8 + byteAt(s + 2) * 2 ** 16 + byteAt(s + 3) * 2 ** 24;
      s += 4;
    }
    if (offset === 0 || offset > d) throw corrupt(`copy offset ${offset} points outside the output`);
    if (d + n > length) throw corrupt('a copy runs past the output');
    for (let i = 0; i < n; i++, d++) out[d] = out[d - offset] as number;
  }
  if (d !== length) throw corrupt(`decodes to ${d} bytes, not the ${length} it claims`);
  return out;
}
