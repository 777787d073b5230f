import { describe, expect, it } from 'vitest';
import { ManualClock } from '../Clock';
import { isKafkaError } from '../errors';
import { UnifiedLog } from './UnifiedLog';
import { StoreWriter } from './StoreWriter';
import { MapStore, makeBatch, makeRecords } from './testSupport';

const T0 = 1_700_000_000_000;

/** 12 segments of 3 batches each (segment.bytes fits exactly 3 of these batches). */
function filledLog(config: Record<string, number | string> = {}) {
  const clock = new ManualClock(T0);
  const store = new MapStore();
  const writer = new StoreWriter(store);
  const batchSize = makeBatch(makeRecords(4, 40)).length;
  const log = new UnifiedLog({
    dir: 'clicks-0',
    config: { 'segment.bytes': batchSize * 3, ...config },
    clock,
    writer,
  });
  for (let i = 0; i < 36; i++) {
    log.appendAsLeader(makeBatch(makeRecords(4, 40, T0 + i * 1000)), i < 18 ? 0 : 1);
  }
  log.updateHighWatermark(log.logEndOffset);
  return { log, clock, store, writer, batchSize };
}

describe('retention (cleanup.policy=delete)', () => {
  it('retention.bytes deletes the oldest whole segments while the rest still reaches the limit', async () => {
    const { log, store, writer, batchSize } = filledLog({ 'retention.bytes': 0 });
    expect(log.logSegments.length).toBe(12);
    log.updateConfig({ 'retention.bytes': batchSize * 3 * 4 + 5 });
    const r = log.deleteOldSegments();
    // Total 12 segments; keeping 4 full segments (+5 bytes) means deleting 7 and keeping 5.
    expect(r.deleted.map((d) => d.reason)).toEqual(Array(7).fill('retention.bytes'));
    expect(r.deleted[0]?.logFileName).toBe('00000000000000000000.log');
    expect(log.logStartOffset).toBe(7 * 12);
    expect(r.logStartOffset).toBe(84);
    expect(log.size).toBeGreaterThanOrEqual(batchSize * 3 * 4 + 5);
    await writer.settled();
    expect(store.files.has('clicks-0/00000000000000000000.log')).toBe(false);
    expect(store.files.has('clicks-0/00000000000000000084.log')).toBe(true);
    try {
      log.lookup(10);
      expect.unreachable();
    } catch (e) {
      expect(isKafkaError(e, 'OFFSET_OUT_OF_RANGE')).toBe(true);
    }
    expect(log.lookup(84).answer.record?.offset).toBe(84);
    // The leader epoch cache forgets what is gone (epoch 1 started at offset 72 < 84).
    expect(log.leaderEpochCache.entries).toEqual([{ epoch: 1, startOffset: 84 }]);
  });

  it('retention.ms deletes segments whose newest record is older than the limit, stopping at the first young one', () => {
    const { log, clock } = filledLog();
    log.updateConfig({ 'retention.ms': 10_000 });
    clock.set(T0 + 20_500); // segments end at T0+2000, +5000, ... ; older than T0+10500 go
    const r = log.deleteOldSegments();
    expect(r.deleted.every((d) => d.reason === 'retention.ms')).toBe(true);
    expect(r.deleted.map((d) => d.baseOffset)).toEqual([0, 12, 24]);
    expect(log.logStartOffset).toBe(36);
  });

  it('never deletes past the high watermark (UnifiedLogTest.testDeleteOldSegments)', () => {
    const hwLog = filledLog({ 'retention.ms': 1 });
    hwLog.log.updateHighWatermark(30);
    hwLog.clock.set(T0 + 10_000_000);
    expect(hwLog.log.deleteOldSegments().deleted.map((d) => d.baseOffset)).toEqual([0, 12]);
    expect(hwLog.log.logSegments.length).toBe(10);
  });

  it('deletes an expired active segment once HW = LEO, rolling an empty one first (UnifiedLog.deleteSegments, UnifiedLogTest.testDeleteOldSegments)', async () => {
    const { log, clock, store, writer } = filledLog({ 'retention.ms': 1 });
    clock.set(T0 + 10_000_000);
    const leo = log.logEndOffset;
    const r = log.deleteOldSegments();
    expect(r.deleted.length).toBe(12);
    expect(r.deleted.at(-1)?.baseOffset).toBe(132);
    expect(log.logSegments.length).toBe(1);
    expect(log.activeSegment.size).toBe(0);
    expect(log.activeSegment.baseOffset).toBe(leo);
    expect(log.logStartOffset).toBe(leo);
    expect(log.logEndOffset).toBe(leo);
    expect(log.highWatermark).toBe(leo);
    // Only the latest epoch remains, starting at the log end (epoch 1 at 144).
    expect(log.leaderEpochCache.entries).toEqual([{ epoch: 1, startOffset: leo }]);
    // The empty active segment is never deleted: a second pass is a no-op.
    expect(log.deleteOldSegments().deleted).toEqual([]);
    await writer.settled();
    expect(store.files.has('clicks-0/00000000000000000132.log')).toBe(false);
    expect(store.files.has('clicks-0/00000000000000000144.log')).toBe(true);
    log.appendAsLeader(makeBatch(makeRecords(1, 10, T0 + 10_000_000)), 1);
    expect(log.lookup(leo).answer.offset).toBe(leo);
  });

  it('keeps the active segment while offsets in it are above the high watermark (LocalLog.deletableSegments upper bound = LEO)', () => {
    const { log, clock } = filledLog({ 'retention.ms': 1 });
    log.updateHighWatermark(log.logEndOffset - 1);
    clock.set(T0 + 10_000_000);
    expect(log.deleteOldSegments().deleted.length).toBe(11);
    expect(log.logSegments.length).toBe(1);
    expect(log.activeSegment.size).toBeGreaterThan(0);
  });

  it('retention.bytes=0 deletes every segment (UnifiedLog.deleteRetentionSizeBreachedSegments)', () => {
    const { log } = filledLog();
    log.updateConfig({ 'retention.bytes': 0 });
    const r = log.deleteOldSegments();
    expect(r.deleted.map((d) => d.reason)).toEqual(Array(12).fill('retention.bytes'));
    expect(log.size).toBe(0);
    expect(log.logStartOffset).toBe(144);
    expect(log.logSegments.map((s) => s.baseOffset)).toEqual([144]);
  });

  it('does nothing for cleanup.policy=compact', () => {
    const { log, clock } = filledLog({ 'retention.ms': 1 });
    log.updateConfig({ 'cleanup.policy': 'compact' });
    clock.set(T0 + 10_000_000);
    expect(log.deleteOldSegments().deleted).toEqual([]);
  });
});
