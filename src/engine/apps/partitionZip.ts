/**
 * A partition's files in and out of the browser as a zip: `<topic>-<partition>/` holding each
 * segment's `<base>.log`, `.index` and `.timeindex`, byte for byte what the log holds, so the
 * files open with `npm run dump-log` and with Kafka's own `kafka-dump-log.sh`.
 *
 * Import is all-or-nothing and checks everything before it writes one byte to the Store:
 *  1. the zip's central directory (nothing inflated yet): one `<topic>-<partition>/` folder, file
 *     names in Kafka's layout, the partition below MAX_TOPIC_PARTITIONS, the topic name legal and
 *     free, sizes within the caps below;
 *  2. each file inflated a slice at a time, never past the size the directory declared;
 *  3. every `.log` walked batch by batch (length, magic, CRC, records, increasing offsets), and
 *     the segments in order without overlap.
 * The first problem is reported as a KafkaError with its file, byte position and offset; the
 * Store and the cluster are left exactly as they were.
 *
 * Files accepted in the folder: `<20-digit base offset>.log`, `.index`, `.timeindex` (the
 * indexes are rebuilt from the `.log` on load anyway). Ignored, never inflated: the export's
 * `README.txt` and what a Kafka broker keeps beside its segments (`leader-epoch-checkpoint`,
 * `partition.metadata`, `<base>.snapshot`, `<base>.txnindex`). Anything else is refused.
 */
import { strToU8, zipSync } from 'fflate';
import {
  type DataPath,
  type ManualClock,
  type UnifiedLog,
  parseSegmentFileName,
  type Store,
  type StoreWriter,
} from '../index';
import { type ImportedSegment, importPartitionFiles, importRefused, parsePartitionDir } from './importPartition';
import { inflateEntry, readZipDirectory, type ZipEntry } from './zipEntries';

/** The largest zip an import accepts, and the most its files may inflate to together. */
export const MAX_IMPORT_BYTES = 256 * 1024 * 1024;
/** An index file's cap: Kafka's default segment.index.bytes (LogConfig), the most an index preallocates. */
export const MAX_IMPORT_INDEX_BYTES = 10 * 1024 * 1024;
/** Entries in the zip's directory: segments' three files each, for a few thousand segments. */
export const MAX_IMPORT_ENTRIES = 10_000;

/** The partition's files under `<dir>/` (its `<topic>-<partition>` name, wherever a broker keeps it). */
export function exportPartitionZip(log: UnifiedLog, dir: string): { fileName: string; zip: Uint8Array } {
  const files: Record<string, Uint8Array> = {};
  for (const seg of log.logSegments) {
    files[`${dir}/${seg.logFileName}`] = seg.log.copy();
    files[`${dir}/${seg.indexFileName}`] = seg.offsetIndex.bytesFrom(0);
    files[`${dir}/${seg.timeIndexFileName}`] = seg.timeIndex.bytesFrom(0);
  }
  files[`${dir}/README.txt`] = strToU8(
    `Kafka segment files exported by glassbox.\nRead them with: kafka-dump-log.sh --files ${dir}/<file> --print-data\n`,
  );
  // Stored, not deflated: segment files are what they are, and the zip opens anywhere.
  return { fileName: `${dir}.zip`, zip: zipSync(files, { level: 0 }) };
}

/** What a broker keeps beside its segments, and the export's README: skipped, never inflated. */
const IGNORED_FILE = /^(README\.txt|leader-epoch-checkpoint|partition\.metadata|\d{20}\.(snapshot|txnindex))$/;

interface SegmentEntries {
  log?: ZipEntry;
  index?: ZipEntry;
  timeindex?: ZipEntry;
}

/**
 * Step 1: the zip's directory alone. Returns the folder and each segment's entries, or throws
 * before anything is inflated.
 */
export function planImport(
  zip: Uint8Array,
  fileName: string,
): { dir: string; topic: string; partition: number; segments: Map<number, SegmentEntries> } {
  if (zip.length > MAX_IMPORT_BYTES) {
    throw importRefused(`${fileName} is ${zip.length} bytes, more than the ${MAX_IMPORT_BYTES} an import may hold`, {
      file: fileName,
      limit: MAX_IMPORT_BYTES,
    });
  }
  const entries = readZipDirectory(zip, fileName, MAX_IMPORT_ENTRIES);
  const segments = new Map<number, SegmentEntries>();
  let dir: string | null = null;
  let total = 0;
  for (const entry of entries) {
    if (entry.name.endsWith('/')) continue; // a folder entry
    const parts = entry.name.split('/');
    if (parts.length !== 2 || parts.some((p) => p === '' || p === '.' || p === '..')) {
      throw importRefused(
        `${fileName}: ${entry.name} is not <topic>-<partition>/<file> (one folder, the partition's)`,
        {
          file: entry.name,
        },
      );
    }
    const [d, name] = parts as [string, string];
    if (dir !== null && d !== dir) {
      throw importRefused(`${fileName} holds more than one partition (${dir} and ${d}); export one at a time`, {
        file: fileName,
      });
    }
    dir = d;
    if (IGNORED_FILE.test(name)) continue;
    const parsed = parseSegmentFileName(name);
    if (!parsed) {
      throw importRefused(
        `${fileName}: ${entry.name} is not a segment file (<20-digit base offset>.log, .index or .timeindex)`,
        { file: entry.name },
      );
    }
    const cap = parsed.suffix === '.log' ? MAX_IMPORT_BYTES : MAX_IMPORT_INDEX_BYTES;
    if (entry.declaredSize > cap) {
      throw importRefused(
        `${fileName}: ${entry.name} declares ${entry.declaredSize} bytes, more than the ${cap} accepted`,
        {
          file: entry.name,
          declaredSize: entry.declaredSize,
          limit: cap,
        },
      );
    }
    total += entry.declaredSize;
    if (total > MAX_IMPORT_BYTES) {
      throw importRefused(`${fileName} declares more than the ${MAX_IMPORT_BYTES} bytes an import may hold`, {
        file: fileName,
        limit: MAX_IMPORT_BYTES,
      });
    }
    const s = segments.get(parsed.baseOffset) ?? {};
    const key = parsed.suffix === '.log' ? 'log' : parsed.suffix === '.index' ? 'index' : 'timeindex';
    if (s[key]) throw importRefused(`${fileName} holds ${entry.name} twice`, { file: entry.name });
    s[key] = entry;
    segments.set(parsed.baseOffset, s);
  }
  if (dir === null || segments.size === 0) {
    throw importRefused(
      `${fileName} has no <topic>-<partition>/ directory of segment files (<20-digit base offset>.log, .index, .timeindex)`,
      { file: fileName },
    );
  }
  return { dir, ...parsePartitionDir(dir, fileName), segments };
}

/** Reads the archive (step 1, its directory, here; each file inflated only when its turn comes) and imports it. */
export async function importPartitionZip(
  data: DataPath,
  store: Store,
  clock: ManualClock,
  writer: StoreWriter,
  zip: Uint8Array,
  fileName: string,
): Promise<{ topic: string; partition: number; records: number }> {
  const plan = planImport(zip, fileName);
  const inflate = (entry: ZipEntry | undefined) => (entry ? () => inflateEntry(zip, entry, fileName) : undefined);
  const segments = new Map<number, ImportedSegment>();
  for (const [base, s] of plan.segments)
    segments.set(base, { log: inflate(s.log), index: inflate(s.index), timeindex: inflate(s.timeindex) });
  return importPartitionFiles(data, store, clock, writer, { ...plan, segments });
}
