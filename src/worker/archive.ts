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
  decodeBatchRecords,
  LOG_OVERHEAD,
  readBatchHeader,
  validateBatchCrc,
  isKafkaError,
  KafkaError,
  hasCollision,
  indexFileName,
  logFileName,
  parseSegmentFileName,
  timeIndexFileName,
  PartitionLog,
  type ManualClock,
  type StoreWriter,
  type Store,
  DataPath,
} from '../engine';
import { MAX_TOPIC_PARTITIONS, validateUserTopicName } from '../engine/apps';
import { MAX_IMPORT_BYTES } from './protocol';
import { inflateEntry, readZipDirectory, type ZipEntry } from './zipEntries';

/** An index file's cap: Kafka's default segment.index.bytes (LogConfig), the most an index preallocates. */
export const MAX_IMPORT_INDEX_BYTES = 10 * 1024 * 1024;
/** Entries in the zip's directory: segments' three files each, for a few thousand segments. */
export const MAX_IMPORT_ENTRIES = 10_000;

/** The partition's files under `<dir>/` (its `<topic>-<partition>` name, wherever a broker keeps it). */
export function exportPartitionZip(log: PartitionLog, dir: string): { fileName: string; zip: Uint8Array } {
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

function corrupt(message: string, details: Record<string, unknown>): KafkaError {
  return new KafkaError('CORRUPT_MESSAGE', message, details);
}

/** Walks one `.log` and throws CORRUPT_MESSAGE at the first bad batch; returns the offset after it. */
export function validateLogFile(path: string, bytes: Uint8Array, baseOffset: number, minOffset: number): number {
  let position = 0;
  let next = minOffset;
  while (position < bytes.length) {
    if (bytes.length - position < LOG_OVERHEAD) {
      throw corrupt(
        `${path}: ${bytes.length - position} stray bytes at position ${position}, too few for a batch header`,
        {
          file: path,
          position,
        },
      );
    }
    let h: ReturnType<typeof readBatchHeader>;
    try {
      h = readBatchHeader(bytes, position);
    } catch (e) {
      const why = e instanceof KafkaError ? e.reason : String(e);
      throw corrupt(`${path}: bad batch at position ${position}: ${why}`, { file: path, position });
    }
    const where = `${path}: batch at position ${position} (offset ${h.baseOffset})`;
    if (!validateBatchCrc(bytes, h)) {
      throw corrupt(`${where}: CRC mismatch, the stored crc ${h.crc} does not match the bytes`, {
        file: path,
        position,
        offset: h.baseOffset,
      });
    }
    // Kafka's LogSegment.recover checks every batch with ensureOffsetInRange: an offset must be at
    // least the segment's base offset and within Integer.MAX_VALUE of it (relative offsets in the
    // index are int32), else LogSegmentOffsetOverflowException.
    if (h.lastOffset - baseOffset >= 2 ** 31 - 1) {
      throw corrupt(`${where}: offset ${h.lastOffset} is too far past the segment's base offset ${baseOffset}`, {
        file: path,
        position,
        offset: h.baseOffset,
      });
    }
    if (h.baseOffset < next || h.baseOffset < baseOffset) {
      throw corrupt(`${where}: offsets go backwards (expected at least ${Math.max(next, baseOffset)})`, {
        file: path,
        position,
        offset: h.baseOffset,
      });
    }
    try {
      decodeBatchRecords(bytes, h);
    } catch (e) {
      if (isKafkaError(e) && e.code !== 'CORRUPT_MESSAGE') throw e;
      const why = e instanceof KafkaError ? e.reason : String(e);
      throw corrupt(`${where}: records cannot be read: ${why}`, { file: path, position, offset: h.baseOffset });
    }
    next = h.lastOffset + 1;
    position += h.sizeInBytes;
  }
  return next;
}

/** What a broker keeps beside its segments, and the export's README: skipped, never inflated. */
const IGNORED_FILE = /^(README\.txt|leader-epoch-checkpoint|partition\.metadata|\d{20}\.(snapshot|txnindex))$/;

function refuse(message: string, details: Record<string, unknown> = {}): KafkaError {
  return new KafkaError('INVALID_REQUEST', message, details);
}

/**
 * The folder of an export, `<topic>-<partition>` as Kafka names a partition directory
 * (UnifiedLog.parseTopicPartitionName: the partition after the last '-'), the partition a plain
 * decimal number below MAX_TOPIC_PARTITIONS (INVALID_PARTITIONS otherwise, the create-topic limit).
 */
function parseDir(dir: string, fileName: string): { topic: string; partition: number } {
  const m = /^(.+)-(\d+)$/.exec(dir);
  if (!m) {
    throw refuse(`${fileName}: the folder ${dir}/ is not named <topic>-<partition>`, { file: fileName, dir });
  }
  const digits = m[2] as string;
  const partition = Number(digits);
  if (digits.length > 1 && digits.startsWith('0')) {
    throw refuse(`${fileName}: the partition in ${dir}/ is not a plain number`, { file: fileName, dir });
  }
  if (partition >= MAX_TOPIC_PARTITIONS) {
    throw new KafkaError(
      'INVALID_PARTITIONS',
      `${fileName}: partition ${digits} of ${dir}/ would make a topic of ${digits}+1 partitions; glassbox creates at most ${MAX_TOPIC_PARTITIONS}`,
      { file: fileName, dir, partition: digits, limit: MAX_TOPIC_PARTITIONS },
    );
  }
  return { topic: m[1] as string, partition };
}

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
    throw refuse(`${fileName} is ${zip.length} bytes, more than the ${MAX_IMPORT_BYTES} an import may hold`, {
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
      throw refuse(`${fileName}: ${entry.name} is not <topic>-<partition>/<file> (one folder, the partition's)`, {
        file: entry.name,
      });
    }
    const [d, name] = parts as [string, string];
    if (dir !== null && d !== dir) {
      throw refuse(`${fileName} holds more than one partition (${dir} and ${d}); export one at a time`, {
        file: fileName,
      });
    }
    dir = d;
    if (IGNORED_FILE.test(name)) continue;
    const parsed = parseSegmentFileName(name);
    if (!parsed) {
      throw refuse(
        `${fileName}: ${entry.name} is not a segment file (<20-digit base offset>.log, .index or .timeindex)`,
        { file: entry.name },
      );
    }
    const cap = parsed.suffix === '.log' ? MAX_IMPORT_BYTES : MAX_IMPORT_INDEX_BYTES;
    if (entry.declaredSize > cap) {
      throw refuse(`${fileName}: ${entry.name} declares ${entry.declaredSize} bytes, more than the ${cap} accepted`, {
        file: entry.name,
        declaredSize: entry.declaredSize,
        limit: cap,
      });
    }
    total += entry.declaredSize;
    if (total > MAX_IMPORT_BYTES) {
      throw refuse(`${fileName} declares more than the ${MAX_IMPORT_BYTES} bytes an import may hold`, {
        file: fileName,
        limit: MAX_IMPORT_BYTES,
      });
    }
    const s = segments.get(parsed.baseOffset) ?? {};
    const key = parsed.suffix === '.log' ? 'log' : parsed.suffix === '.index' ? 'index' : 'timeindex';
    if (s[key]) throw refuse(`${fileName} holds ${entry.name} twice`, { file: entry.name });
    s[key] = entry;
    segments.set(parsed.baseOffset, s);
  }
  if (dir === null || segments.size === 0) {
    throw refuse(
      `${fileName} has no <topic>-<partition>/ directory of segment files (<20-digit base offset>.log, .index, .timeindex)`,
      { file: fileName },
    );
  }
  return { dir, ...parseDir(dir, fileName), segments };
}

/** A free name for the imported topic: its own, else `<topic>-imported`, `-imported-3`, ... (no collision). */
function freeTopicName(wanted: string, existing: readonly string[]): string {
  const taken = (name: string) => existing.some((t) => hasCollision(t, name));
  let topic = wanted;
  for (let n = 2; taken(topic); n++) topic = `${wanted}-imported${n === 2 ? '' : `-${n}`}`;
  return topic;
}

export async function importPartitionZip(
  data: DataPath,
  store: Store,
  clock: ManualClock,
  writer: StoreWriter,
  zip: Uint8Array,
  fileName: string,
): Promise<{ topic: string; partition: number; records: number }> {
  const plan = planImport(zip, fileName);
  const { dir } = plan;
  const existing = data.cluster.topicNames();
  validateUserTopicName(plan.topic, []);
  const topic = freeTopicName(plan.topic, existing);
  validateUserTopicName(topic, existing);
  const broker = data.adoptBroker();

  // Steps 2 and 3: inflate each file (held to its declared size) and walk every batch, segments
  // in base-offset order. Segments must not overlap: a segment's base offset is at least the
  // offset after the previous segment's last batch (Kafka finds an offset's segment by floor over
  // base offsets, LogSegments.floorSegment, so an overlap would answer lookups from the wrong
  // file). Gaps are legal: compaction leaves them.
  const bases = [...plan.segments.keys()].sort((a, b) => a - b);
  const files: { base: number; log: Uint8Array; index: Uint8Array; timeindex: Uint8Array }[] = [];
  let next = 0;
  let previous: number | null = null;
  for (const base of bases) {
    const s = plan.segments.get(base) as SegmentEntries;
    const logPath = `${dir}/${logFileName(base)}`;
    if (!s.log) throw refuse(`${logPath} is missing (its index files are there)`, { file: logPath });
    if (previous !== null && base < next) {
      throw corrupt(
        `${logPath} overlaps segment ${logFileName(previous)}, which holds offsets up to ${next - 1}; a segment's base offset must be at least ${next}`,
        { file: logPath, offset: base },
      );
    }
    const log = inflateEntry(zip, s.log, fileName);
    next = validateLogFile(logPath, log, base, Math.max(next, base));
    files.push({
      base,
      log,
      index: s.index ? inflateEntry(zip, s.index, fileName) : new Uint8Array(0),
      timeindex: s.timeindex ? inflateEntry(zip, s.timeindex, fileName) : new Uint8Array(0),
    });
    previous = base;
  }

  // Valid: write the files where a broker keeps them and load them the way a broker does at
  // start-up; the engine then opens them as the new topic's replica. Should that still fail, the
  // files written are deleted again, so no later recovery finds them.
  const newDir = DataPath.adoptDir(broker, topic, plan.partition);
  const written: string[] = [];
  const write = (path: string, bytes: Uint8Array) => {
    writer.submit({ op: 'write', path, bytes });
    written.push(path);
  };
  try {
    for (const f of files) {
      write(`${newDir}/${logFileName(f.base)}`, f.log);
      write(`${newDir}/${indexFileName(f.base)}`, f.index);
      write(`${newDir}/${timeIndexFileName(f.base)}`, f.timeindex);
    }
    await writer.settled();
    const configs = { 'segment.bytes': 1073741824 };
    const { log } = await PartitionLog.load(store, newDir, configs, clock, writer);
    data.adoptLog(topic, plan.partition, configs, log, broker);
    return { topic, partition: plan.partition, records: log.logEndOffset - log.logStartOffset };
  } catch (e) {
    const leftovers = new Set([...written, ...(await store.list(`${newDir}/`).catch(() => []))]);
    for (const path of leftovers) writer.submit({ op: 'delete', path });
    await writer.settled().catch(() => undefined);
    throw e;
  }
}
