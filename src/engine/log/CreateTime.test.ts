/**
 * Issue 29 item 4: the leader recomputes a CreateTime batch's MaxTimestamp from its records
 * (LogValidator.assignOffsetsNonCompressed: maxBatchTimestamp over record.timestamp(), then
 * MutableRecordBatch.setMaxTimestamp, which rewrites the CRC), so a client's MaxTimestamp field is
 * not trusted. librdkafka sends records with timestamp -1 as BaseTimestamp -1, deltas 0 and
 * MaxTimestamp 0: Kafka stores MaxTimestamp -1 (none), and retention measures such a segment by its
 * modification time (LogSegment.largestTimestamp), where a kept 0 made it 56 years old.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../Clock';
import { decodeRecordBatches, encodeRecordBatch, validateBatchCrc, readBatchHeader } from '../codec';
import { UnifiedLog } from './UnifiedLog';

const NOW = 1_700_000_000_000;

function batch(timestamps: number[], baseTimestamp: number, maxTimestamp: number): Uint8Array {
  return encodeRecordBatch({
    baseOffset: 0,
    partitionLeaderEpoch: -1,
    attributes: 0,
    lastOffsetDelta: timestamps.length - 1,
    baseTimestamp,
    maxTimestamp,
    producerId: -1,
    producerEpoch: -1,
    baseSequence: -1,
    records: timestamps.map((ts, i) => ({
      attributes: 0,
      timestampDelta: ts - baseTimestamp,
      offsetDelta: i,
      key: null,
      value: new TextEncoder().encode(`v${i}`),
      headers: [],
    })),
  });
}

describe("CreateTime: the max timestamp is the records' (LogValidator)", () => {
  it('LogValidatorTest.checkNonCompressed (testNonCompressedV2): max timestamp = the largest record timestamp, CRC valid', () => {
    const log = new UnifiedLog({ dir: 't-0', config: {}, clock: new ManualClock(NOW) });
    // Records at now-1, now+1, now; the client wrote a wrong MaxTimestamp (0).
    const info = log.appendAsLeader(batch([NOW - 1, NOW + 1, NOW], NOW - 1, 0));
    expect(info.maxTimestamp).toBe(NOW + 1);
    const stored = log.fetch(0, 1 << 20).records;
    expect(decodeRecordBatches(stored)[0]?.maxTimestamp).toBe(NOW + 1);
    expect(validateBatchCrc(stored, readBatchHeader(stored, 0))).toBe(true);
  });

  it('librdkafka timestamp -1 (BaseTimestamp -1, MaxTimestamp 0): stored as -1, and retention goes by the segment modification time', () => {
    const clock = new ManualClock(NOW);
    const log = new UnifiedLog({
      dir: 't-0',
      config: { 'retention.ms': 60_000, 'segment.bytes': 200 },
      clock,
    });
    while (log.localLog.segments.count < 2) log.appendAsLeader(batch([-1, -1, -1], -1, 0));
    const stored = log.fetch(0, 1 << 20).records;
    expect(decodeRecordBatches(stored)[0]?.maxTimestamp).toBe(-1);
    expect(validateBatchCrc(stored, readBatchHeader(stored, 0))).toBe(true);
    const closed = log.localLog.segments.first;
    expect(closed?.largestTimestamp).toBe(NOW);
    log.updateHighWatermark(log.logEndOffset);
    // Two seconds on: the closed segment was modified two seconds ago, within retention.ms.
    clock.advance(2000);
    expect(log.deleteOldSegments(clock.now()).deleted).toEqual([]);
    // Past retention.ms since their modification, the segments go.
    clock.advance(60_000);
    expect(log.deleteOldSegments(clock.now()).deleted.length).toBeGreaterThan(0);
  });
});
