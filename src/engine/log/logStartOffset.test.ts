/**
 * DeleteRecords on a log: Kafka's UnifiedLog.maybeIncrementLogStartOffset and
 * deleteLogStartOffsetBreachedSegments (core's UnifiedLogTest "testLogStartOffsetAfterDeleteRecords"
 * style: the start moves inside a segment, reads below it are out of range, and the next
 * retention check deletes the segments wholly below it, whatever the cleanup policy, without
 * moving the start back to a segment boundary).
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../Clock';
import { isKafkaError } from '../errors';
import { UnifiedLog } from './UnifiedLog';
import { makeBatch, makeRecords } from './testSupport';

function filledLog(config: Record<string, number | string> = {}) {
  const log = new UnifiedLog({
    dir: 'orders-0',
    config: { 'segment.bytes': 600, ...config },
    clock: new ManualClock(1_700_000_000_000),
  });
  // Keyed records, so a compacted log takes them too.
  for (let i = 0; i < 20; i++)
    log.appendAsLeader(makeBatch(makeRecords(2, 40).map((r, j) => ({ ...r, key: `k${i}-${j}` }))), 1);
  log.updateHighWatermark(30);
  return log;
}

describe('UnifiedLog.maybeIncrementLogStartOffset (DeleteRecords)', () => {
  it('moves the start inside a segment; reads below it are OFFSET_OUT_OF_RANGE; the start never moves back', () => {
    const log = filledLog();
    const segments = log.logSegments.map((s) => s.baseOffset);
    expect(segments.length).toBeGreaterThan(3);
    const inside = (segments[2] as number) + 1;
    expect(log.maybeIncrementLogStartOffset(inside)).toBe(true);
    expect(log.logStartOffset).toBe(inside);
    expect(log.maybeIncrementLogStartOffset(inside - 1)).toBe(false);
    expect(log.logStartOffset).toBe(inside);
    expect(() => log.fetch(inside - 1, 1 << 20)).toThrow(/OFFSET_OUT_OF_RANGE/);
    expect(log.fetch(inside, 1 << 20).records.length).toBeGreaterThan(0);
  });

  it('refuses a start past the high watermark with OFFSET_OUT_OF_RANGE and changes nothing', () => {
    const log = filledLog();
    let code = '';
    try {
      log.maybeIncrementLogStartOffset(31);
    } catch (e) {
      if (isKafkaError(e)) code = e.code;
    }
    expect(code).toBe('OFFSET_OUT_OF_RANGE');
    expect(log.logStartOffset).toBe(0);
  });

  it('the next retention check deletes the segments wholly below the start, even on a compacted log', () => {
    const log = filledLog({ 'cleanup.policy': 'compact', 'retention.ms': -1 });
    const segments = log.logSegments.map((s) => s.baseOffset);
    const inside = (segments[2] as number) + 1;
    log.maybeIncrementLogStartOffset(inside);
    const result = log.deleteOldSegments();
    expect(result.deleted.map((d) => [d.baseOffset, d.reason])).toEqual([
      [segments[0], 'log-start-offset'],
      [segments[1], 'log-start-offset'],
    ]);
    expect(log.logSegments[0]?.baseOffset).toBe(segments[2]);
    // Deleting the segments did not bring the records below the start back.
    expect(log.logStartOffset).toBe(inside);
  });
});
