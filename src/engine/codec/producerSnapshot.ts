import { CorruptRecordError } from '../errors';
import { ByteReader, ByteWriter, writeInt32At } from './bytes';
import { crc32c } from './crc32c';

/**
 * The producer-state snapshot file, `<20-digit offset>.snapshot` in a partition directory
 * (Kafka's ProducerStateManager.writeSnapshot / readSnapshot, PID_SNAPSHOT_MAP_SCHEMA v1), big-endian:
 *
 *   version int16 (1) | crc uint32 | producer_entries: int32 count, then per entry
 *   producer_id int64 | epoch int16 | last_sequence int32 | last_offset int64 | offset_delta int32
 *   | timestamp int64 | coordinator_epoch int32 | current_txn_first_offset int64
 *
 * The CRC-32C covers everything after the crc field (from the entry count on). The file holds the
 * state of every producer after all offsets below the offset it is named by.
 */
export const PRODUCER_SNAPSHOT_VERSION = 1;
export const PRODUCER_SNAPSHOT_FILE_SUFFIX = '.snapshot';
/** Where the entry array starts: after version (2) and crc (4); the CRC covers from here on. */
export const PRODUCER_ENTRIES_OFFSET = 6;
export const PRODUCER_SNAPSHOT_ENTRY_SIZE = 8 + 2 + 4 + 8 + 4 + 8 + 4 + 8;

/** One producer's entry: its epoch and its last batch (Kafka keeps only the last one in a snapshot). */
export interface ProducerSnapshotEntry {
  producerId: number;
  producerEpoch: number;
  lastSequence: number;
  lastOffset: number;
  /** The last batch's lastOffsetDelta (= last sequence - first sequence). */
  offsetDelta: number;
  timestamp: number;
  /** -1: no transaction coordinator ever wrote a marker (glassbox has no transactions). */
  coordinatorEpoch: number;
  /** -1: no ongoing transaction. */
  currentTxnFirstOffset: number;
}

/** Kafka's CorruptSnapshotException: the file fails its version, size or CRC check. */
export class CorruptSnapshotError extends CorruptRecordError {
  constructor(message: string) {
    super(message);
    this.name = 'CorruptSnapshotException';
  }
}

/** ProducerStateManager.writeSnapshot: the file's bytes, entries in the order given. */
export function writeProducerSnapshot(entries: readonly ProducerSnapshotEntry[]): Uint8Array {
  const w = new ByteWriter(PRODUCER_ENTRIES_OFFSET + 4 + entries.length * PRODUCER_SNAPSHOT_ENTRY_SIZE);
  // The CRC is filled in once the entries are written.
  w.writeInt16(PRODUCER_SNAPSHOT_VERSION).writeUInt32(0).writeInt32(entries.length);
  for (const e of entries) {
    w.writeInt64(e.producerId)
      .writeInt16(e.producerEpoch)
      .writeInt32(e.lastSequence)
      .writeInt64(e.lastOffset)
      .writeInt32(e.offsetDelta)
      .writeInt64(e.timestamp)
      .writeInt32(e.coordinatorEpoch)
      .writeInt64(e.currentTxnFirstOffset);
  }
  const bytes = w.toBytes();
  writeInt32At(bytes, 2, crc32c(bytes, PRODUCER_ENTRIES_OFFSET, bytes.length) | 0);
  return bytes;
}

/** ProducerStateManager.readSnapshot: the entries, or CorruptSnapshotException. */
export function readProducerSnapshot(bytes: Uint8Array): ProducerSnapshotEntry[] {
  if (bytes.length < PRODUCER_ENTRIES_OFFSET + 4)
    throw new CorruptSnapshotError('Snapshot failed schema validation: too short');
  const r = new ByteReader(bytes);
  const version = r.readInt16();
  if (version !== PRODUCER_SNAPSHOT_VERSION)
    throw new CorruptSnapshotError(`Snapshot contained an unknown file version ${version}`);
  const crc = r.readUInt32();
  const computed = crc32c(bytes, PRODUCER_ENTRIES_OFFSET, bytes.length);
  if (crc !== computed)
    throw new CorruptSnapshotError(
      `Snapshot is corrupt (CRC is no longer valid). Stored crc: ${crc}. Computed crc: ${computed}`,
    );
  const count = r.readInt32();
  if (count < 0 || bytes.length !== PRODUCER_ENTRIES_OFFSET + 4 + count * PRODUCER_SNAPSHOT_ENTRY_SIZE)
    throw new CorruptSnapshotError(`Snapshot failed schema validation: ${count} entries in ${bytes.length} bytes`);
  const entries: ProducerSnapshotEntry[] = [];
  try {
    for (let i = 0; i < count; i++) {
      entries.push({
        producerId: r.readInt64(),
        producerEpoch: r.readInt16(),
        lastSequence: r.readInt32(),
        lastOffset: r.readInt64(),
        offsetDelta: r.readInt32(),
        timestamp: r.readInt64(),
        coordinatorEpoch: r.readInt32(),
        currentTxnFirstOffset: r.readInt64(),
      });
    }
  } catch (e) {
    // An int64 beyond the engine's safe range: as unreadable as a schema failure.
    if (e instanceof CorruptRecordError)
      throw new CorruptSnapshotError(`Snapshot failed schema validation: ${e.reason}`);
    throw e;
  }
  return entries;
}

/** `<20-digit offset>.snapshot` (LogFileUtils.producerSnapshotFile). */
export function producerSnapshotFileName(offset: number): string {
  return String(offset).padStart(20, '0') + PRODUCER_SNAPSHOT_FILE_SUFFIX;
}

/** The offset a snapshot file is named by, or null when the name is not a snapshot's. */
export function parseProducerSnapshotFileName(name: string): number | null {
  const m = /^(\d{20})\.snapshot$/.exec(name);
  if (!m) return null;
  const n = Number(m[1]);
  return Number.isSafeInteger(n) ? n : null;
}

/**
 * kafka-dump-log's line per entry (DumpLogSegments.dumpProducerIdSnapshot), with the entry's
 * batch metadata as ProducerStateManager.readSnapshot rebuilds it (none when last_offset < 0).
 */
export function formatProducerSnapshotEntry(e: ProducerSnapshotEntry): string {
  const txn = e.currentTxnFirstOffset >= 0 ? `OptionalLong[${e.currentTxnFirstOffset}]` : 'OptionalLong.empty';
  let line =
    `producerId: ${e.producerId} producerEpoch: ${e.producerEpoch} coordinatorEpoch: ${e.coordinatorEpoch} ` +
    `currentTxnFirstOffset: ${txn} lastTimestamp: ${e.timestamp} `;
  if (e.lastOffset >= 0) {
    // BatchMetadata.firstSeq: DefaultRecordBatch.decrementSequence(lastSeq, offsetDelta), wrapping at int32.
    const firstSeq =
      e.lastSequence - e.offsetDelta < 0 ? e.lastSequence - e.offsetDelta + 2147483648 : e.lastSequence - e.offsetDelta;
    line +=
      `firstSequence: ${firstSeq} lastSequence: ${e.lastSequence} lastOffset: ${e.lastOffset} ` +
      `offsetDelta: ${e.offsetDelta} timestamp: ${e.timestamp}`;
  }
  return line;
}
