import { describe, expect, it } from 'vitest';
import { ManualClock } from '../Clock';
import {
  type CleanerLogView,
  cleanableOffsets,
  grabFilthiestCompactedLog,
  logToClean,
  maxCompactionDelay,
} from './LogCleanerManager';
import { UnifiedLog } from './UnifiedLog';
import { makeBatch } from './testSupport';

const T0 = 1_700_000_000_000;
const HOUR = 3_600_000;

/**
 * LogCleanerManagerTest.setupIncreasinglyFilthyLogs: a compacted log of `batches` one-record
 * batches, each its own segment (segment.bytes below two batches), high watermark at the end.
 */
function filthyLog(batches: number, config: Record<string, number | string> = {}, clock = new ManualClock(T0)) {
  const log = new UnifiedLog({
    dir: `wishing-well-${batches}`,
    config: { 'cleanup.policy': 'compact', 'segment.bytes': 100, ...config },
    clock,
  });
  for (let i = 0; i < batches; i++)
    log.appendAsLeader(makeBatch([{ key: `k${i}`, value: `v${i}`, timestamp: clock.now() }]));
  log.updateHighWatermark(log.logEndOffset);
  return log;
}

describe('LogCleanerManager (which compacted log the cleaner takes, and how far)', () => {
  it('a test log has one segment per batch', () => {
    const log = filthyLog(5);
    expect(log.logSegments.map((s) => s.baseOffset)).toEqual([0, 1, 2, 3, 4]);
  });

  it('takes the log with the highest dirty ratio (LogCleanerManagerTest.testGrabFilthiestCompactedLogReturnsLogWithDirtiestRatio)', () => {
    const logs: [string, CleanerLogView][] = [20, 25, 30].map((n, i) => [
      `wishing-well-${i}`,
      filthyLog(n, { 'min.cleanable.dirty.ratio': 0 }).cleanerView(),
    ]);
    const checkpoints = new Map(logs.map(([k]) => [k, 20]));
    // Dirty sections [20, 20), [20, 24), [20, 29): the active segment never counts.
    expect(grabFilthiestCompactedLog(logs, checkpoints, T0)?.key).toBe('wishing-well-2');
  });

  it('cleans only above min.cleanable.dirty.ratio, strictly (LogCleanerManager.grabFilthiestCompactedLog)', () => {
    // 10 closed segments, 5 of them dirty: ratio 0.5 does not exceed the default 0.5.
    const view = filthyLog(11).cleanerView();
    const ltc = logToClean('p', view, 5, T0);
    expect(ltc.cleanBytes).toBe(ltc.cleanableBytes);
    expect(ltc.cleanableRatio).toBe(0.5);
    expect(grabFilthiestCompactedLog([['p', view]], new Map([['p', 5]]), T0)).toBeNull();
    expect(grabFilthiestCompactedLog([['p', view]], new Map([['p', 4]]), T0)?.cleanableRatio).toBe(0.6);
    const lenient = filthyLog(11, { 'min.cleanable.dirty.ratio': 0.1 }).cleanerView();
    expect(grabFilthiestCompactedLog([['p', lenient]], new Map([['p', 8]]), T0)?.firstDirtyOffset).toBe(8);
    // No checkpoint: the whole log is dirty.
    expect(grabFilthiestCompactedLog([['p', view]], new Map(), T0)?.cleanableRatio).toBe(1);
  });

  it('resets a checkpoint past the log end to the log start (testDirtyOffsetResetIfLargerThanEndOffset)', () => {
    const view = filthyLog(20).cleanerView();
    const forced: [string, number][] = [];
    const ltc = grabFilthiestCompactedLog([['foo-0', view]], new Map([['foo-0', 200]]), T0, (k, o) =>
      forced.push([k, o]),
    );
    expect(ltc?.firstDirtyOffset).toBe(0);
    expect(forced).toEqual([['foo-0', 0]]);
  });

  it('resets a checkpoint below the log start to the log start (testDirtyOffsetResetIfSmallerThanStartOffset, testCleanableOffsetsNeedsCheckpointReset)', () => {
    const view: CleanerLogView = {
      ...filthyLog(20, { 'min.cleanable.dirty.ratio': 0 }).cleanerView(),
      logStartOffset: 10,
    };
    expect(grabFilthiestCompactedLog([['foo-0', view]], new Map([['foo-0', 0]]), T0)?.firstDirtyOffset).toBe(10);
    expect(cleanableOffsets(view, 15, T0).forceUpdateCheckpoint).toBe(false);
    expect(cleanableOffsets({ ...view, logStartOffset: 20 }, 15, T0).forceUpdateCheckpoint).toBe(true);
    expect(cleanableOffsets(view, 25, T0).forceUpdateCheckpoint).toBe(true);
  });

  it('an invalid checkpoint is reset even when the log is not taken (testCheckpointUpdatedForInvalidOffsetNoCleaning)', () => {
    const log = filthyLog(20);
    const view: CleanerLogView = { ...log.cleanerView(), logStartOffset: 19 };
    const forced: [string, number][] = [];
    expect(
      grabFilthiestCompactedLog([['foo-0', view]], new Map([['foo-0', 15]]), T0, (k, o) => forced.push([k, o])),
    ).toBeNull();
    expect(forced).toEqual([['foo-0', 19]]);
  });

  it('the active segment is never dirty (testDirtyOffsetLargerThanActiveSegmentBaseOffset)', () => {
    const log = new UnifiedLog({ dir: 'foo-0', config: { 'cleanup.policy': 'compact' }, clock: new ManualClock(T0) });
    for (let i = 0; i < 2; i++) log.appendAsLeader(makeBatch([0, 1, 2].map((k) => ({ key: `k${k}`, value: 'v' }))));
    log.updateHighWatermark(log.logEndOffset);
    expect(log.logSegments).toHaveLength(1);
    expect(grabFilthiestCompactedLog([['foo-0', log.cleanerView()]], new Map([['foo-0', 3]]), T0)).toBeNull();
    expect(grabFilthiestCompactedLog([['foo-0', log.cleanerView()]], new Map(), T0)).toBeNull();
  });

  it('stops at the first dirty segment younger than min.compaction.lag.ms (testCleanableOffsetsForTime, testCleanableOffsetsForShortTime)', () => {
    const clock = new ManualClock(T0);
    const log = filthyLog(4, { 'min.compaction.lag.ms': HOUR }, clock);
    // Segment 3 (active at T0) is full with its T0 batch, so the first young segment is the next one.
    const firstYoung = log.activeSegment.baseOffset + 1;
    clock.advance(HOUR + 1);
    for (let i = 0; i < 4; i++)
      log.appendAsLeader(makeBatch([{ key: `late${i}`, value: 'v', timestamp: clock.now() }]));
    log.updateHighWatermark(log.logEndOffset);
    const offsets = cleanableOffsets(log.cleanerView(), 0, clock.now());
    expect(offsets.firstDirtyOffset).toBe(0);
    expect(offsets.firstUncleanableDirtyOffset).toBe(firstYoung);
    // All old enough: the active segment bounds it.
    clock.advance(HOUR + 1);
    expect(cleanableOffsets(log.cleanerView(), 0, clock.now()).firstUncleanableDirtyOffset).toBe(
      log.activeSegment.baseOffset,
    );
  });

  it('never past the last stable offset (the high watermark; LogCleanerManager.cleanableOffsets)', () => {
    const log = filthyLog(10);
    log.truncateTo(log.logEndOffset); // no-op, the HW stays at the end
    const view: CleanerLogView = { ...log.cleanerView(), lastStableOffset: 4 };
    expect(cleanableOffsets(view, 0, T0).firstUncleanableDirtyOffset).toBe(4);
    expect(logToClean('p', view, 0, T0).firstUncleanableOffset).toBe(4);
  });

  it('max.compaction.lag.ms makes a log due whatever its dirty ratio (LogCleanerManager.maxCompactionDelay, needCompactionNow)', () => {
    const clock = new ManualClock(T0);
    const log = filthyLog(11, { 'max.compaction.lag.ms': HOUR }, clock);
    clock.advance(HOUR + 500);
    const view = log.cleanerView();
    // Dirty from offset 9: 1 of 10 closed segments, ratio 0.1, yet its first batch is past the lag.
    expect(maxCompactionDelay(view, 9, clock.now())).toBe(500);
    const ltc = grabFilthiestCompactedLog([['p', view]], new Map([['p', 9]]), clock.now());
    expect(ltc?.needCompactionNow).toBe(true);
    expect(ltc?.cleanableRatio).toBeCloseTo(0.1);
    expect(maxCompactionDelay(view, 9, T0 + HOUR)).toBe(0);
    expect(grabFilthiestCompactedLog([['p', view]], new Map([['p', 9]]), T0 + HOUR)).toBeNull();
  });
});
