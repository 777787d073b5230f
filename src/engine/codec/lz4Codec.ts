/**
 * Kafka's lz4 records section for magic 2: the LZ4 frame format as Lz4BlockOutputStream writes it
 * (magic 0x184D2204 little-endian; FLG version 1 with independent blocks and no checksums; BD 64 KiB
 * blocks; the descriptor checksum, byte 1 of xxHash32 over FLG and BD; blocks of a little-endian
 * int32 size, the high bit meaning "stored uncompressed"; an end mark of 0) and as
 * Lz4BlockInputStream reads it: reserved bits 0, independent blocks only, version 1, block sizes
 * 4..7, the descriptor checksum checked, an optional content size skipped, block checksums checked
 * when flagged, a block never larger than the frame's maximum.
 *
 * Blocks are compressed by lz4js (its fast compressor, one hash table per block so blocks stay
 * independent). They are decompressed here with every bound checked, as lz4-java's safe
 * decompressor does: lz4js's own decoder trusts its input.
 */
import { compressBlock } from 'lz4js';
import { hash as xxh32 } from 'lz4js/xxh32.js';
import { CorruptRecordError } from '../errors';
import { concatBytes } from './bytes';

const MAGIC = 0x184d2204;
const INCOMPRESSIBLE = 0x80000000;
/** Lz4BlockOutputStream.BLOCKSIZE_64KB. */
const BLOCKSIZE_64KB = 4;
/** FLG: version 1 (bits 6-7), block independence (bit 5). */
const FLG_V1_INDEPENDENT = 0x60;

const blockMaximumSize = (bd: number) => 1 << (2 * bd + 8);

export function lz4Frame(raw: Uint8Array): Uint8Array {
  const maxBlock = blockMaximumSize(BLOCKSIZE_64KB);
  const scratch = new Uint8Array(maxBlock + (maxBlock >>> 7) + 64);
  const table = new Uint32Array(1 << 16);
  const parts: Uint8Array[] = [];
  const header = new Uint8Array(7);
  new DataView(header.buffer).setUint32(0, MAGIC, true);
  header[4] = FLG_V1_INDEPENDENT;
  header[5] = BLOCKSIZE_64KB << 4;
  header[6] = (xxh32(0, header, 4, 2) >>> 8) & 0xff;
  parts.push(header);
  for (let at = 0; at < raw.length; at += maxBlock) {
    const block = raw.subarray(at, Math.min(raw.length, at + maxBlock));
    table.fill(0);
    const size = compressBlock(block, scratch, 0, block.length, table);
    const stored = size === 0 || size >= block.length;
    const out = new Uint8Array(4 + (stored ? block.length : size));
    new DataView(out.buffer).setUint32(0, stored ? (block.length | INCOMPRESSIBLE) >>> 0 : size, true);
    out.set(stored ? block : scratch.subarray(0, size), 4);
    parts.push(out);
  }
  parts.push(new Uint8Array(4)); // the end mark
  return concatBytes(parts);
}

/** Inflates one frame, at most `limit` bytes. */
export function lz4Unframe(bytes: Uint8Array, limit: number, position: number): Uint8Array {
  const corrupt = (why: string) =>
    new CorruptRecordError(`lz4 records section at position ${position}: ${why}`, { position, reason: 'compression' });
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 7 || view.getUint32(0, true) !== MAGIC) throw corrupt('no LZ4 frame magic');
  const flg = bytes[4] as number;
  const bd = bytes[5] as number;
  if ((flg & 3) !== 0) throw corrupt('reserved bits must be 0');
  if ((flg & 0x20) === 0) throw corrupt('dependent block stream is unsupported');
  if (flg >>> 6 !== 1) throw corrupt(`version ${flg >>> 6} is unsupported`);
  if ((bd & 0x8f) !== 0 || bd >>> 4 < 4) throw corrupt('invalid block size descriptor');
  const maxBlock = blockMaximumSize(bd >>> 4);
  const blockChecksum = (flg & 0x10) !== 0;
  let at = 6 + ((flg & 0x08) !== 0 ? 8 : 0); // content size: present but unused, as in Kafka
  if (at >= bytes.length) throw corrupt('frame descriptor cut short');
  if (((xxh32(0, bytes, 4, at - 4) >>> 8) & 0xff) !== bytes[at]) throw corrupt('stream frame descriptor corrupted');
  at++;
  const parts: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    if (bytes.length - at < 4) throw corrupt('stream ended prematurely');
    const word = view.getUint32(at, true);
    at += 4;
    if (word === 0) break; // end mark; a content checksum after it is not verified, as in Kafka
    const stored = (word & INCOMPRESSIBLE) !== 0;
    const size = word & ~INCOMPRESSIBLE;
    if (size > maxBlock) throw corrupt(`block size ${size} exceeded max: ${maxBlock}`);
    if (bytes.length - at < size + (blockChecksum ? 4 : 0)) throw corrupt('stream ended prematurely');
    const block = bytes.subarray(at, at + size);
    at += size;
    if (blockChecksum) {
      if (xxh32(0, block, 0, size) >>> 0 !== view.getUint32(at, true)) throw corrupt('block checksum mismatch');
      at += 4;
    }
    const part = stored ? block : decompressBlock(block, Math.min(maxBlock, limit - total), corrupt);
    total += part.length;
    if (total > limit) throw corrupt(`inflates past ${limit} bytes`);
    parts.push(part);
  }
  return concatBytes(parts);
}

/** One LZ4 block, every length and offset checked against its input and its output room. */
function decompressBlock(src: Uint8Array, room: number, corrupt: (why: string) => Error): Uint8Array {
  const dst = new Uint8Array(Math.max(0, room));
  let s = 0;
  let d = 0;
  const length = (n: number): number => {
    if (n !== 15) return n;
    for (;;) {
      if (s >= src.length) throw corrupt('a length runs past the block');
      const b = src[s++] as number;
      n += b;
      if (b !== 255) return n;
    }
  };
  for (;;) {
    if (s >= src.length) throw corrupt('an empty block');
    const token = src[s++] as number;
    const literals = length(token >>> 4);
    if (s + literals > src.length) throw corrupt('literals run past the block');
    if (d + literals > dst.length) throw corrupt('literals run past the output');
    dst.set(src.subarray(s, s + literals), d);
    s += literals;
    d += literals;
    if (s === src.length) return dst.subarray(0, d); // the last sequence has no match
    if (s + 2 > src.length) throw corrupt('a match offset runs past the block');
    const offset = (src[s] as number) | ((src[s + 1] as number) << 8);
    s += 2;
    if (offset === 0 || offset > d) throw corrupt(`match offset ${offset} points outside the output`);
    const matchLength = length(token & 15) + 4;
    if (d + matchLength > dst.length) throw corrupt('a match runs past the output');
    for (let i = 0; i < matchLength; i++, d++) dst[d] = dst[d - offset] as number;
  }
}
