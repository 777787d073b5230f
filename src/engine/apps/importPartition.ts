/**
 * The Kafka half of a partition import (the worker reads the zip; this checks and adopts what it
 * holds): the folder named as Kafka names a partition directory, every `.log` walked batch by
 * batch (length, magic, CRC, records, increasing offsets, segments in order without overlap),
 * and only then the files written where a broker keeps them and loaded the way a broker loads
 * them at start-up. The first problem is a KafkaError with its file, byte position and offset;
 * the Store and the cluster are left as they were.
 */
import {
  DataPath,
  decodeBatchRecords,
  hasCollision,
  indexFileName,
  isKafkaError,
  KafkaError,
  LOG_OVERHEAD,
  logFileName,
  type ManualClock,
  UnifiedLog,
  readBatchHeader,
  type Store,
  type StoreWriter,
  timeIndexFileName,
  validateBatchCrc,
} from '../index';
import { MAX_TOPIC_PARTITIONS } from './types';
import { validateUserTopicName } from './userTopicName';

/** One segment's files in an import, each read (inflated) only when its turn comes. */
export interface ImportedSegment {
  log?: () => Uint8Array;
  index?: () => Uint8Array;
  timeindex?: () => Uint8Array;
}

export interface ImportPlan {
  /** The folder in the archive, `<topic>-<partition>`. */
  dir: string;
  topic: string;
  partition: number;
  segments: ReadonlyMap<number, ImportedSegment>;
}

/**
 * The last offset an imported log may hold. Kafka's offsets are int64; glassbox's are JavaScript
 * numbers, exact up to 2^53 - 1 (Number.MAX_SAFE_INTEGER). A log imported near that edge would
 * pass it after a few appends and its offsets would stop being exact, so an import leaves room for
 * one segment's whole offset range (Integer.MAX_VALUE, the int32 relative offsets of its index)
 * and is refused past that, with OFFSET_OUT_OF_RANGE, before anything is written.
 */
export const MAX_IMPORTED_OFFSET = Number.MAX_SAFE_INTEGER - (2 ** 31 - 1);

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
    // A v2 batch's offsets run from baseOffset to baseOffset + lastOffsetDelta and hold at most
    // that many records (compaction may leave fewer, even none). A negative lastOffsetDelta, or
    // more records than offsets, is a batch no broker wrote: Kafka's LogValidator.validateBatch
    // refuses it ("Batch has an invalid offset range", "Inconsistent batch offset range"), and
    // its records would otherwise land below the offsets the log says it holds.
    if (h.lastOffset < h.baseOffset || h.recordCount > h.lastOffset - h.baseOffset + 1) {
      throw corrupt(
        `${where}: invalid offset range [${h.baseOffset}, ${h.lastOffset}] for ${h.recordCount} records (lastOffsetDelta ${h.lastOffset - h.baseOffset})`,
        { file: path, position, offset: h.baseOffset },
      );
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
    if (h.lastOffset > MAX_IMPORTED_OFFSET) {
      throw new KafkaError(
        'OFFSET_OUT_OF_RANGE',
        `${where}: offset ${h.lastOffset} is past ${MAX_IMPORTED_OFFSET}, the last offset an imported log may hold: glassbox keeps offsets as JavaScript numbers, exact only up to 2^53 - 1, and the log must keep room to grow`,
        { file: path, position, offset: h.baseOffset, limit: MAX_IMPORTED_OFFSET },
      );
    }
    next = h.lastOffset + 1;
    position += h.sizeInBytes;
  }
  return next;
}

export function importRefused(message: string, details: Record<string, unknown> = {}): KafkaError {
  return new KafkaError('INVALID_REQUEST', message, details);
}

export /**
 * The folder of an export, `<topic>-<partition>` as Kafka names a partition directory
 * (UnifiedLog.parseTopicPartitionName: the partition after the last '-'), the partition a plain
 * decimal number below MAX_TOPIC_PARTITIONS (INVALID_PARTITIONS otherwise, the create-topic limit).
 */
function parsePartitionDir(dir: string, fileName: string): { topic: string; partition: number } {
  const m = /^(.+)-(\d+)$/.exec(dir);
  if (!m) {
    throw importRefused(`${fileName}: the folder ${dir}/ is not named <topic>-<partition>`, { file: fileName, dir });
  }
  const digits = m[2] as string;
  const partition = Number(digits);
  if (digits.length > 1 && digits.startsWith('0')) {
    throw importRefused(`${fileName}: the partition in ${dir}/ is not a plain number`, { file: fileName, dir });
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

/** A free name for the imported topic: its own, else `<topic>-imported`, `-imported-3`, ... (no collision). */
function freeTopicName(wanted: string, existing: readonly string[]): string {
  const taken = (name: string) => existing.some((t) => hasCollision(t, name));
  let topic = wanted;
  for (let n = 2; taken(topic); n++) topic = `${wanted}-imported${n === 2 ? '' : `-${n}`}`;
  return topic;
}

/** Steps 2 and 3 of an import (step 1, the archive's directory, is the host's): checks, then adopts. */
export async function importPartitionFiles(
  data: DataPath,
  store: Store,
  clock: ManualClock,
  writer: StoreWriter,
  plan: ImportPlan,
): Promise<{ topic: string; partition: number; records: number }> {
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
    const s = plan.segments.get(base) as ImportedSegment;
    const logPath = `${dir}/${logFileName(base)}`;
    if (!s.log) throw importRefused(`${logPath} is missing (its index files are there)`, { file: logPath });
    if (base > MAX_IMPORTED_OFFSET) {
      throw new KafkaError(
        'OFFSET_OUT_OF_RANGE',
        `${logPath}: base offset ${logPath.slice(-24, -4)} is past ${MAX_IMPORTED_OFFSET}, the last offset an imported log may hold`,
        { file: logPath, limit: MAX_IMPORTED_OFFSET },
      );
    }
    if (previous !== null && base < next) {
      throw corrupt(
        `${logPath} overlaps segment ${logFileName(previous)}, which holds offsets up to ${next - 1}; a segment's base offset must be at least ${next}`,
        { file: logPath, offset: base },
      );
    }
    const log = s.log();
    next = validateLogFile(logPath, log, base, Math.max(next, base));
    files.push({
      base,
      log,
      index: s.index ? s.index() : new Uint8Array(0),
      timeindex: s.timeindex ? s.timeindex() : new Uint8Array(0),
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
    const { log } = await UnifiedLog.load(store, newDir, configs, clock, writer);
    data.adoptLog(topic, plan.partition, configs, log, broker);
    return { topic, partition: plan.partition, records: log.logEndOffset - log.logStartOffset };
  } catch (e) {
    const leftovers = new Set([...written, ...(await store.list(`${newDir}/`).catch(() => []))]);
    for (const path of leftovers) writer.submit({ op: 'delete', path });
    await writer.settled().catch(() => undefined);
    throw e;
  }
}
