/**
 * Kafka's zstd records section: standard Zstandard frames (ZstdCompression, zstd-jni's
 * ZstdOutputStream at `compression.zstd.level`, 3 by default). Decompression is fzstd's (pure
 * JavaScript); compression is zstd's own C library built to WebAssembly (@bokuweb/zstd-wasm),
 * which loads asynchronously: a host calls loadZstdEncoder once before its engine runs, and until
 * then writing zstd is refused with UNSUPPORTED_COMPRESSION_TYPE (reading needs no loading).
 *
 * fzstd allocates a frame's content size, or its window when no size is given, before it decodes:
 * so every frame's header and block headers are walked first, and a section whose frames could
 * inflate past the limit is corrupt before anything is allocated. Each frame is then decoded with
 * its header rewritten in a copy (withoutContentSize): no match can reach further back than the
 * frame's own output, so a smaller window decodes the same.
 */
import { decompress as fzstdDecompress } from 'fzstd';
import { CorruptRecordError, KafkaError } from '../errors';
import { concatBytes } from './bytes';

const ZSTD_MAGIC = 0xfd2fb528;
const SKIPPABLE_MASK = 0xfffffff0;
const SKIPPABLE_MAGIC = 0x184d2a50;
const MAX_BLOCK = 128 * 1024;
/** zstd's ZSTD_WINDOWLOG_LIMIT_DEFAULT: a decoder refuses frames needing a larger window. */
const MAX_WINDOW_LOG = 27;

type ZstdEncoder = (raw: Uint8Array, level: number) => Uint8Array;
let encoder: ZstdEncoder | null = null;

/** Loads zstd's WebAssembly encoder; every host awaits this once before it runs an engine. */
export async function loadZstdEncoder(): Promise<void> {
  if (encoder) return;
  const zstd = await import('@bokuweb/zstd-wasm');
  await zstd.init();
  encoder = (raw, level) => zstd.compress(raw, level);
}

export function zstdCompress(raw: Uint8Array, level: number): Uint8Array {
  if (!encoder) {
    throw new KafkaError('UNSUPPORTED_COMPRESSION_TYPE', 'the zstd encoder is not loaded (loadZstdEncoder)', {
      compressionType: 'zstd',
    });
  }
  return encoder(raw, level);
}

/** Inflates every frame of the section, at most `limit` bytes in all. */
export function zstdDecompress(bytes: Uint8Array, limit: number, position: number): Uint8Array {
  const corrupt = (why: string) =>
    new CorruptRecordError(`zstd records section at position ${position}: ${why}`, { position, reason: 'compression' });
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const parts: Uint8Array[] = [];
  let total = 0;
  let at = 0;
  if (bytes.length === 0) throw corrupt('no frame');
  while (at < bytes.length) {
    if (bytes.length - at < 8) throw corrupt('a frame header is cut short');
    const magic = view.getUint32(at, true);
    if ((magic & SKIPPABLE_MASK) >>> 0 === SKIPPABLE_MAGIC) {
      const size = view.getUint32(at + 4, true);
      if (size > bytes.length - at - 8) throw corrupt('a skippable frame runs past the section');
      at += 8 + size;
      continue;
    }
    if (magic !== ZSTD_MAGIC) throw corrupt('no zstd frame magic');
    const frame = walkFrame(bytes, at, corrupt);
    if (total + frame.bound > limit) throw corrupt(`its frames could inflate past ${limit} bytes`);
    const input = withoutContentSize(bytes, at, frame);
    let part: Uint8Array;
    try {
      part = fzstdDecompress(input);
    } catch (e) {
      throw corrupt(String(e));
    }
    if (frame.contentSize !== null && part.length !== frame.contentSize) throw corrupt('frame content size mismatch');
    total += part.length;
    parts.push(part);
    at = frame.end;
  }
  return concatBytes(parts);
}

interface FrameWalk {
  end: number;
  /** Where the frame's blocks start. */
  blocks: number;
  /** The most this frame can produce. */
  bound: number;
  contentSize: number | null;
  windowSize: number;
}

/** Reads a frame's header and its blocks' headers (RFC 8878 3.1.1). */
function walkFrame(bytes: Uint8Array, start: number, corrupt: (why: string) => Error): FrameWalk {
  const fhd = bytes[start + 4] as number;
  if (fhd & 0x08) throw corrupt('reserved frame header bit set');
  const singleSegment = (fhd & 0x20) !== 0;
  const fcsBytes = [singleSegment ? 1 : 0, 2, 4, 8][fhd >>> 6] as number;
  const didBytes = [0, 1, 2, 4][fhd & 3] as number;
  let at = start + 5;
  let windowSize = 0;
  if (!singleSegment) {
    const wd = bytes[at++] as number;
    const windowLog = 10 + (wd >>> 3);
    if (windowLog > MAX_WINDOW_LOG) throw corrupt('frame requires too much memory for decoding');
    const base = 2 ** windowLog;
    windowSize = base + (base / 8) * (wd & 7);
  }
  at += didBytes;
  let contentSize: number | null = null;
  if (fcsBytes > 0) {
    if (at + fcsBytes > bytes.length) throw corrupt('a frame header is cut short');
    let v = 0;
    for (let i = fcsBytes - 1; i >= 0; i--) v = v * 256 + (bytes[at + i] as number);
    contentSize = fcsBytes === 2 ? v + 256 : v;
    at += fcsBytes;
  }
  if (singleSegment) windowSize = contentSize ?? 0;
  const blocks = at;
  let bound = 0;
  for (;;) {
    if (at + 3 > bytes.length) throw corrupt('a block header is cut short');
    const header = (bytes[at] as number) | ((bytes[at + 1] as number) << 8) | ((bytes[at + 2] as number) << 16);
    at += 3;
    const type = (header >>> 1) & 3;
    const size = header >>> 3;
    if (type === 3) throw corrupt('reserved block type');
    if (size > MAX_BLOCK) throw corrupt(`block size ${size} exceeds 128 KiB`);
    const stored = type === 1 ? 1 : size;
    if (at + stored > bytes.length) throw corrupt('a block runs past the section');
    at += stored;
    bound += type === 2 ? MAX_BLOCK : size;
    if (header & 1) break;
  }
  if (fhd & 0x04) {
    if (at + 4 > bytes.length) throw corrupt('the frame checksum is cut short');
    at += 4;
  }
  if (contentSize !== null) {
    if (contentSize > bound) throw corrupt(`frame content size ${contentSize} exceeds what its blocks can hold`);
    bound = contentSize;
  }
  return { end: at, blocks, bound, contentSize, windowSize };
}

/**
 * The frame with its header rewritten: no content size, and a window no larger than all the frame
 * can produce. fzstd trusts a content size (it hands back that many bytes, zeros past what the
 * blocks wrote) and allocates a whole window up front; without either it returns exactly what the
 * blocks decode, which is then checked against the content size the frame claimed.
 */
function withoutContentSize(bytes: Uint8Array, start: number, frame: FrameWalk): Uint8Array {
  const fhd = bytes[start + 4] as number;
  const didBytes = [0, 1, 2, 4][fhd & 3] as number;
  const didAt = start + 5 + ((fhd & 0x20) === 0 ? 1 : 0);
  const body = bytes.subarray(frame.blocks, frame.end);
  const out = new Uint8Array(6 + didBytes + body.length);
  out.set(bytes.subarray(start, start + 4));
  out[4] = fhd & 0x07; // keep the checksum and dictionary flags; no content size, not single segment
  const window = Math.min(frame.windowSize || frame.bound, frame.bound);
  out[5] = windowDescriptorFor(window);
  out.set(bytes.subarray(didAt, didAt + didBytes), 6);
  out.set(body, 6 + didBytes);
  return out;
}

/** The smallest window descriptor (exponent only) whose window holds `bytes`. */
function windowDescriptorFor(bytes: number): number {
  let log = 10;
  while (2 ** log < bytes) log++;
  return (log - 10) << 3;
}
