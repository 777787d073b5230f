/**
 * Reading a zip without trusting it. The central directory (at the end of the file) lists every
 * entry with its sizes, so names and declared sizes can be checked before a single byte is
 * inflated; an entry is then inflated in small slices and stopped the moment it produces more
 * than its directory entry declared, so a lying directory (a zip bomb) costs at most one slice.
 *
 * The layout is PKWARE's APPNOTE.TXT: end of central directory record (signature 0x06054b50),
 * central directory headers (0x02014b50), local file headers (0x04034b50). ZIP64 and encrypted
 * entries are refused: nothing glassbox exports needs them.
 */
import { Inflate } from 'fflate';
import { KafkaError } from '../index';

/** One entry as the central directory declares it. */
export interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflated. */
  method: number;
  compressedSize: number;
  /** The size the directory declares; inflation is held to it. */
  declaredSize: number;
  localHeaderOffset: number;
}

const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;
const EOCD_SIZE = 22;
const MAX_COMMENT = 0xffff;
/** Compressed bytes handed to the inflater at a time: deflate expands at most ~1032x, so 4 MiB out. */
const INFLATE_SLICE = 4096;

function invalid(fileName: string, why: string): KafkaError {
  return new KafkaError('INVALID_REQUEST', `${fileName} is not a readable zip file (${why})`, { file: fileName });
}

/** The central directory's entries, from the end of central directory record; nothing is inflated. */
export function readZipDirectory(zip: Uint8Array, fileName: string, maxEntries: number): ZipEntry[] {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  let eocd = -1;
  for (let i = zip.length - EOCD_SIZE; i >= Math.max(0, zip.length - EOCD_SIZE - MAX_COMMENT); i--) {
    if (view.getUint32(i, true) === EOCD_SIGNATURE) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw invalid(fileName, 'no end of central directory record');
  const count = view.getUint16(eocd + 10, true);
  const directorySize = view.getUint32(eocd + 12, true);
  const directoryOffset = view.getUint32(eocd + 16, true);
  if (count === 0xffff || directoryOffset === 0xffffffff) throw invalid(fileName, 'ZIP64 archives are not supported');
  if (count > maxEntries) {
    throw new KafkaError('INVALID_REQUEST', `${fileName} lists ${count} files, more than the ${maxEntries} accepted`, {
      file: fileName,
      entries: count,
      limit: maxEntries,
    });
  }
  if (directoryOffset + directorySize > eocd) throw invalid(fileName, 'the central directory lies outside the file');
  const entries: ZipEntry[] = [];
  let at = directoryOffset;
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  for (let n = 0; n < count; n++) {
    if (at + 46 > eocd || view.getUint32(at, true) !== CENTRAL_SIGNATURE)
      throw invalid(fileName, `central directory entry ${n} is damaged`);
    const flags = view.getUint16(at + 8, true);
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    if (at + 46 + nameLength > eocd) throw invalid(fileName, `central directory entry ${n} is damaged`);
    let name: string;
    try {
      name = utf8.decode(zip.subarray(at + 46, at + 46 + nameLength));
    } catch {
      throw invalid(fileName, `entry ${n} has a name that is not UTF-8`);
    }
    if (flags & 1) throw invalid(fileName, `${name} is encrypted`);
    entries.push({
      name,
      method: view.getUint16(at + 10, true),
      compressedSize: view.getUint32(at + 20, true),
      declaredSize: view.getUint32(at + 24, true),
      localHeaderOffset: view.getUint32(at + 42, true),
    });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/**
 * The entry's bytes, inflated a slice at a time and never beyond `declaredSize`: an entry that
 * produces more (or fewer) bytes than its directory entry declared is CORRUPT_MESSAGE.
 */
export function inflateEntry(zip: Uint8Array, entry: ZipEntry, fileName: string): Uint8Array {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const at = entry.localHeaderOffset;
  if (at + 30 > zip.length || view.getUint32(at, true) !== LOCAL_SIGNATURE)
    throw invalid(fileName, `the local header of ${entry.name} is missing`);
  const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
  const end = start + entry.compressedSize;
  if (end > zip.length) throw invalid(fileName, `${entry.name} runs past the end of the file`);
  const compressed = zip.subarray(start, end);
  const lying = (produced: string) =>
    new KafkaError(
      'CORRUPT_MESSAGE',
      `${entry.name} in ${fileName} inflates to ${produced} bytes, but the zip's directory declares ${entry.declaredSize}`,
      { file: entry.name, declaredSize: entry.declaredSize },
    );
  if (entry.method === 0) {
    if (entry.compressedSize !== entry.declaredSize) throw lying(String(entry.compressedSize));
    return compressed.slice();
  }
  if (entry.method !== 8)
    throw invalid(fileName, `${entry.name} uses compression method ${entry.method} (only stored and deflated)`);
  const out = new Uint8Array(entry.declaredSize);
  let produced = 0;
  let overflow = false;
  const inflater = new Inflate((chunk) => {
    if (overflow) return;
    if (produced + chunk.length > entry.declaredSize) {
      overflow = true;
      return;
    }
    out.set(chunk, produced);
    produced += chunk.length;
  });
  try {
    for (let p = 0; p < compressed.length && !overflow; p += INFLATE_SLICE) {
      const slice = compressed.subarray(p, Math.min(p + INFLATE_SLICE, compressed.length));
      inflater.push(slice, p + INFLATE_SLICE >= compressed.length);
    }
    if (compressed.length === 0) inflater.push(new Uint8Array(0), true);
  } catch (e) {
    if (overflow) throw lying(`more than ${entry.declaredSize}`);
    throw new KafkaError('CORRUPT_MESSAGE', `${entry.name} in ${fileName} cannot be inflated (${String(e)})`, {
      file: entry.name,
    });
  }
  if (overflow) throw lying(`more than ${entry.declaredSize}`);
  if (produced !== entry.declaredSize) throw lying(String(produced));
  return out;
}
