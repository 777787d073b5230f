import { describe, expect, it } from 'vitest';
import { crc32c } from './crc32c';
import { dumpSegmentFile, segmentFileKind } from './dumpLog';
import {
  CorruptSnapshotError,
  type ProducerSnapshotEntry,
  parseProducerSnapshotFileName,
  producerSnapshotFileName,
  readProducerSnapshot,
  writeProducerSnapshot,
} from './producerSnapshot';

const T0 = 1_700_000_000_000;
const entry = (over: Partial<ProducerSnapshotEntry> = {}): ProducerSnapshotEntry => ({
  producerId: 1000,
  producerEpoch: 3,
  lastSequence: 41,
  lastOffset: 170_410,
  offsetDelta: 4,
  timestamp: T0,
  coordinatorEpoch: -1,
  currentTxnFirstOffset: -1,
  ...over,
});

// The schema is Kafka 3.9's ProducerStateManager.PID_SNAPSHOT_MAP_SCHEMA / PRODUCER_SNAPSHOT_ENTRY_SCHEMA.
describe('producer-state snapshot file (ProducerStateManager.writeSnapshot / readSnapshot)', () => {
  it('lays out version, CRC-32C and each entry as PID_SNAPSHOT_MAP_SCHEMA v1 does', () => {
    const bytes = writeProducerSnapshot([
      entry(),
      entry({
        producerId: 2 ** 40 + 7,
        producerEpoch: 0,
        lastSequence: 0,
        lastOffset: 9,
        offsetDelta: 0,
        timestamp: T0 + 5,
      }),
    ]);
    const v = new DataView(bytes.buffer);
    // version int16 | crc uint32 | array int32 count | 2 x 46-byte entries
    expect(bytes.length).toBe(2 + 4 + 4 + 2 * 46);
    expect(v.getInt16(0)).toBe(1);
    expect(v.getUint32(2)).toBe(crc32c(bytes, 6, bytes.length));
    expect(v.getInt32(6)).toBe(2);
    // producer_id int64, epoch int16, last_sequence int32, last_offset int64, offset_delta int32,
    // timestamp int64, coordinator_epoch int32, current_txn_first_offset int64
    expect(v.getBigInt64(10)).toBe(1000n);
    expect(v.getInt16(18)).toBe(3);
    expect(v.getInt32(20)).toBe(41);
    expect(v.getBigInt64(24)).toBe(170_410n);
    expect(v.getInt32(32)).toBe(4);
    expect(v.getBigInt64(36)).toBe(BigInt(T0));
    expect(v.getInt32(44)).toBe(-1);
    expect(v.getBigInt64(48)).toBe(-1n);
    expect(v.getBigInt64(56)).toBe(BigInt(2 ** 40 + 7));
    expect(v.getBigInt64(82)).toBe(BigInt(T0 + 5));
  });

  it('an empty state is version, CRC and a zero count (10 bytes)', () => {
    const bytes = writeProducerSnapshot([]);
    expect([...bytes.slice(0, 2)]).toEqual([0, 1]);
    expect([...bytes.slice(6)]).toEqual([0, 0, 0, 0]);
    expect(readProducerSnapshot(bytes)).toEqual([]);
  });

  it('reads back what it wrote', () => {
    const entries = [entry(), entry({ producerId: 5, producerEpoch: 32767, lastSequence: 2147483647, offsetDelta: 9 })];
    expect(readProducerSnapshot(writeProducerSnapshot(entries))).toEqual(entries);
  });

  it('refuses a flipped byte, a wrong version and a short file with CorruptSnapshotException', () => {
    const bytes = writeProducerSnapshot([entry()]);
    const flipped = bytes.slice();
    flipped[30] = (flipped[30] as number) ^ 1;
    expect(() => readProducerSnapshot(flipped)).toThrow(/CRC is no longer valid/);
    const v2 = bytes.slice();
    v2[1] = 2;
    expect(() => readProducerSnapshot(v2)).toThrow(CorruptSnapshotError);
    expect(() => readProducerSnapshot(bytes.slice(0, 20))).toThrow(CorruptSnapshotError);
  });

  it('is named by its offset in 20 digits with the .snapshot suffix (LogFileUtils.producerSnapshotFile)', () => {
    expect(producerSnapshotFileName(170_410)).toBe('00000000000000170410.snapshot');
    expect(parseProducerSnapshotFileName('00000000000000170410.snapshot')).toBe(170_410);
    expect(parseProducerSnapshotFileName('00000000000000170410.log')).toBeNull();
  });

  it('kafka-dump-log prints one line per producer (DumpLogSegments.dumpProducerIdSnapshot)', () => {
    const path = 'orders-0/00000000000000170415.snapshot';
    expect(segmentFileKind(path)).toBe('producerSnapshot');
    const out = dumpSegmentFile(path, writeProducerSnapshot([entry()]));
    expect(out.ok).toBe(true);
    expect(out.stdout).toEqual([
      `Dumping ${path}`,
      `producerId: 1000 producerEpoch: 3 coordinatorEpoch: -1 currentTxnFirstOffset: OptionalLong.empty lastTimestamp: ${T0} firstSequence: 37 lastSequence: 41 lastOffset: 170410 offsetDelta: 4 timestamp: ${T0}`,
    ]);
    const bad = writeProducerSnapshot([entry()]);
    bad[12] = 9;
    const corrupt = dumpSegmentFile(path, bad);
    expect(corrupt.ok).toBe(false);
    expect(corrupt.stderr[0]).toMatch(
      /^Snapshot is corrupt \(CRC is no longer valid\)\. Stored crc: \d+\. Computed crc: \d+$/,
    );
  });
});
