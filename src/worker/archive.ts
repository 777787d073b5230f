/**
 * A partition's files in and out of the browser as a zip: `<topic>-<partition>/` holding each
 * segment's `<base>.log`, `.index` and `.timeindex`, byte for byte what the log holds, so the
 * files open with `npm run dump-log` and with Kafka's own `kafka-dump-log.sh`.
 *
 * Import is all-or-nothing: every `.log` is walked batch by batch (length, magic, CRC, records,
 * increasing offsets) before anything is written; the first problem is reported with its file,
 * byte position and offset, and the cluster is left exactly as it was.
 */
import { strToU8, unzipSync, zipSync } from 'fflate';
import { decodeBatchRecords, LOG_OVERHEAD, readBatchHeader, validateBatchCrc } from '../engine/codec';
import { isKafkaError, KafkaError } from '../engine/errors';
import { parseSegmentFileName } from '../engine/log/LogFileUtils';
import { PartitionLog } from '../engine/log/PartitionLog';
import type { ManualClock } from '../engine/Clock';
import type { StoreWriter } from '../engine/log/StoreWriter';
import type { Store } from '../engine/Store';
import { DataPath } from './DataPath';

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
      const why = e instanceof Error ? e.message.replace(/^CORRUPT_MESSAGE: /, '') : String(e);
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
      const why = e instanceof Error ? e.message.replace(/^CORRUPT_MESSAGE: /, '') : String(e);
      throw corrupt(`${where}: records cannot be read: ${why}`, { file: path, position, offset: h.baseOffset });
    }
    next = h.lastOffset + 1;
    position += h.sizeInBytes;
  }
  return next;
}

/** The directory of an export: `<topic>-<partition>`, topic in Kafka's legal characters. */
function parseDir(dir: string): { topic: string; partition: number } | null {
  const m = /^([a-zA-Z0-9._-]+)-(\d+)$/.exec(dir);
  if (!m) return null;
  return { topic: m[1] as string, partition: Number(m[2]) };
}

export async function importPartitionZip(
  data: DataPath,
  store: Store,
  clock: ManualClock,
  writer: StoreWriter,
  zip: Uint8Array,
  fileName: string,
): Promise<{ topic: string; partition: number; records: number }> {
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(zip);
  } catch (e) {
    throw new KafkaError('INVALID_REQUEST', `${fileName} is not a readable zip file (${String(e)})`, {
      file: fileName,
    });
  }
  const segments = new Map<number, { log?: Uint8Array; index?: Uint8Array; timeindex?: Uint8Array }>();
  let dir: string | null = null;
  for (const [path, bytes] of Object.entries(entries)) {
    const parts = path.split('/').filter(Boolean);
    const name = parts[parts.length - 1] ?? '';
    const parsed = parseSegmentFileName(name);
    if (!parsed) continue;
    const d = parts[parts.length - 2] ?? '';
    if (dir !== null && d !== dir) {
      throw new KafkaError(
        'INVALID_REQUEST',
        `${fileName} holds more than one partition (${dir} and ${d}); export one at a time`,
      );
    }
    dir = d;
    const s = segments.get(parsed.baseOffset) ?? {};
    if (parsed.suffix === '.log') s.log = bytes;
    else if (parsed.suffix === '.index') s.index = bytes;
    else s.timeindex = bytes;
    segments.set(parsed.baseOffset, s);
  }
  const where = dir === null ? null : parseDir(dir);
  if (dir === null || where === null) {
    throw new KafkaError(
      'INVALID_REQUEST',
      `${fileName} has no <topic>-<partition>/ directory of segment files (<20-digit base offset>.log, .index, .timeindex)`,
      { file: fileName },
    );
  }
  const bases = [...segments.keys()].sort((a, b) => a - b);
  let next = 0;
  for (const base of bases) {
    const s = segments.get(base);
    if (!s?.log) {
      throw new KafkaError(
        'INVALID_REQUEST',
        `${dir}/${String(base).padStart(20, '0')}.log is missing (its index files are there)`,
      );
    }
    next = validateLogFile(`${dir}/${String(base).padStart(20, '0')}.log`, s.log, base, next);
  }

  // Valid: pick a free topic name, write the files where a broker keeps them, and load them the
  // way a broker does at start-up; the engine then opens them as the new topic's replica.
  const taken = new Set(data.cluster.topicNames());
  let topic = where.topic;
  for (let n = 2; taken.has(topic); n++) topic = `${where.topic}-imported${n === 2 ? '' : `-${n}`}`;
  const broker = data.adoptBroker();
  const newDir = DataPath.adoptDir(broker, topic, where.partition);
  for (const base of bases) {
    const s = segments.get(base) as { log: Uint8Array; index?: Uint8Array; timeindex?: Uint8Array };
    const stem = `${newDir}/${String(base).padStart(20, '0')}`;
    writer.submit({ op: 'write', path: `${stem}.log`, bytes: s.log });
    writer.submit({ op: 'write', path: `${stem}.index`, bytes: s.index ?? new Uint8Array(0) });
    writer.submit({ op: 'write', path: `${stem}.timeindex`, bytes: s.timeindex ?? new Uint8Array(0) });
  }
  await writer.settled();
  const configs = { 'segment.bytes': 1073741824 };
  const { log } = await PartitionLog.load(store, newDir, configs, clock, writer);
  data.adoptLog(topic, where.partition, configs, log, broker);
  return { topic, partition: where.partition, records: log.logEndOffset - log.logStartOffset };
}
