/**
 * The text Kafka's `kafka-dump-log.sh --files <file>` prints (kafka.tools.DumpLogSegments), for a
 * segment's `.log`, `.index` and `.timeindex`, a producer-state `.snapshot` (and KRaft `.checkpoint`
 * snapshots, which are in the log format). Pure: it takes bytes and returns lines, so the CLI (src/cli/dumpLog.ts) and the
 * UI's segment inspector print the same thing.
 *
 * Kafka's formats, line for line:
 *   Dumping <file>
 *   Log starting offset: <base offset from the file name>
 *   baseOffset: 0 lastOffset: 0 count: 1 baseSequence: -1 lastSequence: -1 producerId: -1
 *     producerEpoch: -1 partitionLeaderEpoch: 0 isTransactional: false isControl: false
 *     deleteHorizonMs: OptionalLong.empty position: 0 CreateTime: 1769791662955 size: 1780
 *     magic: 2 compresscodec: none crc: 3425803576 isvalid: true          (one line per batch)
 *   | offset: 0 CreateTime: 1769791662955 keySize: 15 valueSize: 1695 sequence: -1 headerKeys: []
 *     key: ... payload: ...                      (per record, with --print-data or --deep-iteration)
 *   Found <n> invalid bytes at the end of <file name>
 *   offset: <base + relative offset> position: <position>                 (per .index entry)
 *   timestamp: <timestamp> offset: <base + relative offset>              (per .timeindex entry)
 *
 * Like Kafka, an index dump stops at the first entry after the first whose relative offset is 0
 * (the zero-filled tail of a preallocated index), and cross-checks the entries against the
 * sibling `.log` when it is given, reporting mismatches in Kafka's words on stderr.
 *
 * Beyond Kafka: anything wrong (a CRC mismatch, a torn tail, a corrupt header, an index entry
 * that does not match the log) is also reported on stderr as `<file>: position <n>: <what>` and
 * makes `ok` false, so the CLI can exit non-zero instead of printing a stack trace.
 */
import { CorruptRecordError, isKafkaError } from '../errors';
import {
  CorruptSnapshotError,
  formatProducerSnapshotEntry,
  PRODUCER_SNAPSHOT_FILE_SUFFIX,
  readProducerSnapshot,
} from './producerSnapshot';
import {
  computeBatchCrc,
  compressionType,
  decodeBatchRecords,
  hasDeleteHorizon,
  incrementSequence,
  isControlBatch,
  isTransactional,
  lastSequence,
  type RecordBatchHeader,
  readBatchHeader,
  recordTimestamp,
  timestampType,
} from './recordBatch';
import { readUtf8 } from './utf8';
import { controlRecordTypeFromId } from './controlRecordType';

export type SegmentFileKind = 'log' | 'index' | 'timeindex' | 'snapshot' | 'producerSnapshot';

export interface DumpOptions {
  /** --print-data: print each record with its key and payload (decoded as UTF-8 strings). */
  printData?: boolean;
  /** --deep-iteration: print each record's metadata without key and payload. */
  deepIteration?: boolean;
}

/** Sibling files an index dump cross-checks against (Kafka opens them next to the index). */
export interface DumpSiblings {
  log?: Uint8Array | null;
  index?: Uint8Array | null;
}

export interface DumpOutput {
  /** What Kafka prints on stdout. */
  stdout: string[];
  /** Kafka's verification reports plus glassbox's `<file>: position <n>: <what>` problems. */
  stderr: string[];
  /** False when anything was invalid or could not be read. */
  ok: boolean;
}

const OFFSET_INDEX_ENTRY = 8;
const TIME_INDEX_ENTRY = 12;

/** The kind of segment file, from its suffix, or null for a file Kafka would ignore. */
export function segmentFileKind(path: string): SegmentFileKind | null {
  if (path.endsWith('.log')) return 'log';
  if (path.endsWith('.index')) return 'index';
  if (path.endsWith('.timeindex')) return 'timeindex';
  if (path.endsWith('.checkpoint')) return 'snapshot';
  if (path.endsWith(PRODUCER_SNAPSHOT_FILE_SUFFIX)) return 'producerSnapshot';
  return null;
}

/** The file name without directories. */
function fileName(path: string): string {
  const slash = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  return path.slice(slash + 1);
}

/** The base offset a segment file is named by (`00000000000000170410.index` -> 170410), or null. */
export function baseOffsetOfFile(path: string): number | null {
  const stem = fileName(path).split('.')[0] ?? '';
  if (!/^\d+$/.test(stem)) return null;
  const n = Number(stem);
  return Number.isSafeInteger(n) ? n : null;
}

/** Dumps any supported segment file, choosing the format by suffix. */
export function dumpSegmentFile(
  path: string,
  bytes: Uint8Array,
  options: DumpOptions = {},
  siblings: DumpSiblings = {},
): DumpOutput {
  switch (segmentFileKind(path)) {
    case 'log':
    case 'snapshot':
      return dumpLog(path, bytes, options);
    case 'index':
      return dumpOffsetIndex(path, bytes, siblings.log ?? null);
    case 'timeindex':
      return dumpTimeIndex(path, bytes, siblings.index ?? null, siblings.log ?? null);
    case 'producerSnapshot':
      return dumpProducerSnapshot(path, bytes);
    default:
      return { stdout: [], stderr: [`Ignoring unknown file ${path}`], ok: false };
  }
}

/**
 * A producer-state `.snapshot` (DumpLogSegments.dumpProducerIdSnapshot): one line per producer;
 * a corrupt file prints CorruptSnapshotException's message on stderr instead.
 */
export function dumpProducerSnapshot(path: string, bytes: Uint8Array): DumpOutput {
  const out: DumpOutput = { stdout: [`Dumping ${path}`], stderr: [], ok: true };
  try {
    for (const e of readProducerSnapshot(bytes)) out.stdout.push(formatProducerSnapshotEntry(e));
  } catch (e) {
    if (!(e instanceof CorruptSnapshotError)) throw e;
    out.stderr.push(e.reason);
    out.ok = false;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// .log

/** Kafka's batch line (DumpLogSegments.printBatchLevel) for a v2 batch. */
export function formatBatchLine(h: RecordBatchHeader, position: number, isValid: boolean): string {
  const deleteHorizonMs = hasDeleteHorizon(h.attributes) ? `OptionalLong[${h.baseTimestamp}]` : 'OptionalLong.empty';
  return (
    `baseOffset: ${h.baseOffset} lastOffset: ${h.lastOffset} count: ${h.recordCount}` +
    ` baseSequence: ${h.baseSequence} lastSequence: ${lastSequence(h.baseSequence, h.lastOffsetDelta)}` +
    ` producerId: ${h.producerId} producerEpoch: ${h.producerEpoch}` +
    ` partitionLeaderEpoch: ${h.partitionLeaderEpoch} isTransactional: ${isTransactional(h.attributes)}` +
    ` isControl: ${isControlBatch(h.attributes)} deleteHorizonMs: ${deleteHorizonMs}` +
    ` position: ${position} ${timestampType(h.attributes)}: ${h.maxTimestamp} size: ${h.sizeInBytes}` +
    ` magic: ${h.magic} compresscodec: ${compressionType(h.attributes)} crc: ${h.crc} isvalid: ${isValid}`
  );
}

/** Dumps a `.log` (or `.checkpoint`) file. */
export function dumpLog(path: string, bytes: Uint8Array, options: DumpOptions = {}): DumpOutput {
  const out: DumpOutput = { stdout: [`Dumping ${path}`], stderr: [], ok: true };
  const problem = (position: number, what: string) => {
    out.stderr.push(`${path}: position ${position}: ${what}`);
    out.ok = false;
  };
  const name = fileName(path);
  if (name.endsWith('.log')) {
    const base = baseOffsetOfFile(path);
    if (base === null) problem(0, `file name ${name} does not start with a base offset`);
    else out.stdout.push(`Log starting offset: ${base}`);
  } else if (name === 'bootstrap.checkpoint') {
    out.stdout.push('KRaft bootstrap snapshot');
  } else {
    const m = /^(\d+)-(\d+)\.checkpoint$/.exec(name);
    if (m) out.stdout.push(`Snapshot end offset: ${Number(m[1])}, epoch: ${Number(m[2])}`);
  }
  const deep = options.printData === true || options.deepIteration === true;

  let position = 0;
  while (position < bytes.length) {
    let header: RecordBatchHeader;
    try {
      header = readBatchHeader(bytes, position);
      compressionType(header.attributes); // ids 5-7 are not codecs: corrupt
    } catch (e) {
      if (!(e instanceof CorruptRecordError)) throw e;
      if (e.details.reason === 'truncated') {
        // Kafka's FileLogInputStream stops at an incomplete batch and reports the rest as invalid.
        out.stdout.push(`Found ${bytes.length - position} invalid bytes at the end of ${name}`);
        problem(position, `torn tail: ${bytes.length - position} bytes do not hold a complete batch`);
      } else {
        problem(position, `corrupt batch header: ${e.message.replace(/^CORRUPT_MESSAGE: /, '')}`);
      }
      return out;
    }
    const crc = computeBatchCrc(bytes, header);
    const isValid = crc === header.crc;
    out.stdout.push(formatBatchLine(header, position, isValid));
    if (!isValid) problem(position, `CRC mismatch: stored crc ${header.crc}, computed ${crc}`);
    if (deep) {
      if (!isValid) {
        problem(position, 'records of this batch not printed: its CRC does not match');
      } else {
        try {
          out.stdout.push(...formatRecordLines(bytes, header, options.printData === true));
        } catch (e) {
          if (!(e instanceof CorruptRecordError) && !isKafkaError(e)) throw e;
          problem(position, `records not printed: ${(e as Error).message}`);
        }
      }
    }
    position += header.sizeInBytes;
  }
  return out;
}

function formatRecordLines(bytes: Uint8Array, h: RecordBatchHeader, printData: boolean): string[] {
  const records = decodeBatchRecords(bytes, h);
  const tsType = timestampType(h.attributes);
  const control = isControlBatch(h.attributes);
  const lines: string[] = [];
  for (const r of records) {
    const sequence = h.baseSequence >= 0 ? incrementSequence(h.baseSequence, r.offsetDelta) : -1;
    let line =
      `| offset: ${h.baseOffset + r.offsetDelta} ${tsType}: ${recordTimestamp(h, r)}` +
      ` keySize: ${r.key === null ? -1 : r.key.length} valueSize: ${r.value === null ? -1 : r.value.length}` +
      ` sequence: ${sequence} headerKeys: [${r.headers.map((x) => x.key).join(',')}]`;
    if (control) line += formatControlRecord(r.key, r.value);
    if (printData && !control) {
      if (r.key !== null) line += ` key: ${readUtf8(r.key)}`;
      if (r.value !== null) line += ` payload: ${readUtf8(r.value)}`;
    }
    lines.push(line);
  }
  return lines;
}

function int16(b: Uint8Array, p: number): number {
  return (((b[p] as number) << 24) | ((b[p + 1] as number) << 16)) >> 16;
}

function int32(b: Uint8Array, p: number): number {
  return ((b[p] as number) << 24) | ((b[p + 1] as number) << 16) | ((b[p + 2] as number) << 8) | (b[p + 3] as number);
}

/** How DumpLogSegments describes a control record (key: int16 version, int16 type). */
function formatControlRecord(key: Uint8Array | null, value: Uint8Array | null): string {
  if (key === null || key.length < 4) return ' controlType: UNKNOWN(-1)';
  const typeId = int16(key, 2);
  const type = controlRecordTypeFromId(typeId);
  if ((type === 'ABORT' || type === 'COMMIT') && value !== null && value.length >= 6) {
    // EndTransactionMarker value: int16 version, int32 coordinatorEpoch.
    return ` endTxnMarker: ${type} coordinatorEpoch: ${int32(value, 2)}`;
  }
  if (type === 'SNAPSHOT_HEADER' && value !== null && value.length >= 10) {
    // SnapshotHeaderRecord v0: int16 Version, int64 LastContainedLogTimestamp (+ tagged fields).
    const ts = int32(value, 2) * 4294967296 + (int32(value, 6) >>> 0);
    return ` SnapshotHeader {"version":${int16(value, 0)},"lastContainedLogTimestamp":${ts}}`;
  }
  if (type === 'SNAPSHOT_FOOTER' && value !== null && value.length >= 2) {
    return ` SnapshotFooter {"version":${int16(value, 0)}}`;
  }
  return ` controlType: ${type}(${typeId})`;
}

// ---------------------------------------------------------------------------------------------
// .index and .timeindex

interface OffsetIndexEntry {
  offset: number;
  position: number;
}

/**
 * The entries of an index file Kafka would print: up to the first relative offset 0 after the
 * first entry. `relativeAt`: where an entry holds its relative offset.
 */
function readIndexEntries<T>(
  bytes: Uint8Array,
  entrySize: number,
  relativeAt: number,
  entry: (position: number, relative: number) => T,
): T[] {
  const entries: T[] = [];
  const n = Math.floor(bytes.length / entrySize);
  for (let i = 0; i < n; i++) {
    const relative = int32(bytes, i * entrySize + relativeAt);
    if (relative === 0 && i > 0) break;
    entries.push(entry(i * entrySize, relative));
  }
  return entries;
}

/** The offset index entries Kafka would print. */
export function readOffsetIndexEntries(bytes: Uint8Array, baseOffset: number): OffsetIndexEntry[] {
  return readIndexEntries(bytes, OFFSET_INDEX_ENTRY, 0, (p, relative) => ({
    offset: baseOffset + relative,
    position: int32(bytes, p + 4),
  }));
}

interface TimeIndexEntry {
  timestamp: number;
  offset: number;
}

/** The time index entries Kafka would print, with the same stop rule. */
export function readTimeIndexEntries(bytes: Uint8Array, baseOffset: number): TimeIndexEntry[] {
  return readIndexEntries(bytes, TIME_INDEX_ENTRY, 8, (p, relative) => ({
    timestamp: int32(bytes, p) * 4294967296 + (int32(bytes, p + 4) >>> 0),
    offset: baseOffset + relative,
  }));
}

/** An index dump's first line and the base offset its file name gives (null: the dump failed there). */
function beginIndexDump(path: string): { out: DumpOutput; base: number | null } {
  const out: DumpOutput = { stdout: [`Dumping ${path}`], stderr: [], ok: true };
  const base = baseOffsetOfFile(path);
  if (base === null) {
    out.stderr.push(`${path}: position 0: file name does not start with a base offset`);
    out.ok = false;
  }
  return { out, base };
}

/** Dumps an offset index; with the sibling `.log`, checks each entry points at the batch it names. */
export function dumpOffsetIndex(path: string, bytes: Uint8Array, log: Uint8Array | null = null): DumpOutput {
  const { out, base } = beginIndexDump(path);
  if (base === null) return out;
  if (bytes.length < OFFSET_INDEX_ENTRY) {
    out.stdout.push(`${path} is empty.`);
    return out;
  }
  if (bytes.length % OFFSET_INDEX_ENTRY !== 0) {
    out.stderr.push(
      `${path}: position ${bytes.length - (bytes.length % OFFSET_INDEX_ENTRY)}: ${bytes.length % OFFSET_INDEX_ENTRY} trailing bytes are not a whole ${OFFSET_INDEX_ENTRY}-byte entry`,
    );
    out.ok = false;
  }
  const mismatches: string[] = [];
  readOffsetIndexEntries(bytes, base).forEach((entry, i) => {
    out.stdout.push(`offset: ${entry.offset} position: ${entry.position}`);
    if (log === null) return;
    try {
      const batch = readBatchHeader(log, entry.position);
      if (batch.lastOffset !== entry.offset)
        mismatches.push(`  Index offset: ${entry.offset}, log offset: ${batch.lastOffset}`);
    } catch (e) {
      if (!(e instanceof CorruptRecordError)) throw e;
      out.stderr.push(
        `${path}: position ${i * OFFSET_INDEX_ENTRY}: entry ${i} (offset ${entry.offset}) points at log position ${entry.position}, where no batch can be read: ${e.message}`,
      );
      out.ok = false;
    }
  });
  if (mismatches.length > 0) {
    // Kafka lists mismatches newest first.
    out.stderr.push(`Mismatches in :${path}`, ...mismatches.reverse());
    out.ok = false;
  }
  return out;
}

/**
 * Dumps a time index; with the sibling `.index` and `.log`, checks (as Kafka does) that each
 * entry's offset is the last offset of a batch whose largest record timestamp is the entry's.
 */
export function dumpTimeIndex(
  path: string,
  bytes: Uint8Array,
  index: Uint8Array | null = null,
  log: Uint8Array | null = null,
): DumpOutput {
  const { out, base } = beginIndexDump(path);
  if (base === null) return out;
  if (bytes.length % TIME_INDEX_ENTRY !== 0) {
    out.stderr.push(
      `${path}: position ${bytes.length - (bytes.length % TIME_INDEX_ENTRY)}: ${bytes.length % TIME_INDEX_ENTRY} trailing bytes are not a whole ${TIME_INDEX_ENTRY}-byte entry`,
    );
    out.ok = false;
  }
  const offsetEntries = index === null ? [] : readOffsetIndexEntries(index, base);
  const mismatch: string[] = [];
  const outOfOrder: string[] = [];
  const notFound: string[] = [];
  let prevTimestamp = -1;
  for (const entry of readTimeIndexEntries(bytes, base)) {
    if (log !== null) {
      // Start from the offset index's floor entry, then scan forward like Kafka.
      let position = 0;
      for (const e of offsetEntries) if (e.offset <= entry.offset) position = e.position;
      let found: RecordBatchHeader | null = null;
      try {
        while (position < log.length) {
          const h = readBatchHeader(log, position);
          if (h.lastOffset >= entry.offset) {
            found = h;
            break;
          }
          position += h.sizeInBytes;
        }
      } catch (e) {
        if (!(e instanceof CorruptRecordError)) throw e;
      }
      if (found === null) notFound.push(`Indexed offset: ${entry.offset}, found log offset: -1`);
      else if (found.lastOffset !== entry.offset) {
        notFound.push(`Indexed offset: ${entry.offset}, found log offset: ${found.lastOffset}`);
      } else {
        let maxTimestamp = -1;
        try {
          for (const r of decodeBatchRecords(log, found))
            maxTimestamp = Math.max(maxTimestamp, recordTimestamp(found, r));
        } catch (e) {
          if (!(e instanceof CorruptRecordError) && !isKafkaError(e)) throw e;
        }
        if (maxTimestamp !== entry.timestamp) {
          mismatch.push(`  Index timestamp: ${entry.timestamp}, log timestamp: ${maxTimestamp}`);
        }
        if (prevTimestamp >= entry.timestamp) {
          outOfOrder.push(`  Index timestamp: ${entry.timestamp}, Previously indexed timestamp: ${prevTimestamp}`);
        }
      }
    }
    out.stdout.push(`timestamp: ${entry.timestamp} offset: ${entry.offset}`);
    prevTimestamp = entry.timestamp;
  }
  if (mismatch.length > 0) out.stderr.push(`Found timestamp mismatch in :${path}`, ...mismatch);
  if (outOfOrder.length > 0) out.stderr.push(`Found out of order timestamp in :${path}`, ...outOfOrder);
  if (notFound.length > 0) out.stderr.push('The following indexed offsets are not found in the log.', ...notFound);
  if (mismatch.length + outOfOrder.length + notFound.length > 0) out.ok = false;
  return out;
}
