import { describe, expect, it } from 'vitest';
import { ManualClock } from '../engine/Clock';
import { UnifiedLog } from '../engine/log/UnifiedLog';
import { StoreWriter } from '../engine/log/StoreWriter';
import { SegmentCache, SegmentNotLoadedError } from '../engine/log/SegmentCache';
import { DeferredStore, drain, MapStore, makeBatch } from '../engine/log/testSupport';
import type { LogConfigInput } from '../engine/log/LogConfig';
import type { Store } from '../engine/Store';
import { appendRecords } from '../engine/apps/demo';
import { lookupView, MAX_DRAWN_SEGMENTS, partitionView, recordWindow } from '../engine';

/** orders-0 on `store` (its clock at 1_700_000_000_000), with `config` and, if given, a segment cache. */
function ordersLog(store: Store, config: LogConfigInput, cache?: SegmentCache) {
  const clock = new ManualClock(1_700_000_000_000);
  const log = new UnifiedLog({
    dir: 'orders-0',
    config,
    clock,
    writer: new StoreWriter(store),
    ...(cache ? { cache } : {}),
  });
  return { log, clock };
}

describe('a million-record partition stays cheap to draw', () => {
  const clock = new ManualClock(1_700_000_000_000);
  const log = new UnifiedLog({ dir: 'big-0', config: { 'segment.bytes': 24 * 1024 }, clock });
  const enc = new TextEncoder();
  for (let b = 0; b < 1000; b++) {
    appendRecords(
      log,
      Array.from({ length: 1000 }, (_, i) => ({ key: enc.encode(`k${(b * 1000 + i) % 97}`), value: null })),
      clock.now(),
    );
  }

  it('sends a bounded sample of its segments, with the true count', () => {
    expect(log.logEndOffset).toBe(1_000_000);
    const view = partitionView('big', 0, log);
    expect(view.segmentCount).toBe(log.logSegments.length);
    expect(view.segmentCount).toBeGreaterThan(MAX_DRAWN_SEGMENTS);
    expect(view.segments.length).toBe(MAX_DRAWN_SEGMENTS);
    // First and last (active) segments are always there, in offset order.
    expect(view.segments[0]?.baseOffset).toBe(0);
    expect(view.segments.at(-1)?.active).toBe(true);
    const bases = view.segments.map((s) => s.baseOffset);
    expect([...bases].sort((a, b) => a - b)).toEqual(bases);
  });

  it('reads only the window the page shows: the newest records when following, any offset when panned', () => {
    const end = recordWindow('big', 0, log, { topic: 'big', partition: 0, from: 'end', count: 20 });
    expect(end.records.map((r) => r.offset)).toEqual(Array.from({ length: 20 }, (_, i) => 999_980 + i));
    const middle = recordWindow('big', 0, log, { topic: 'big', partition: 0, from: 500_123, count: 5 });
    expect(middle.records.map((r) => [r.offset, r.key])).toEqual(
      [500_123, 500_124, 500_125, 500_126, 500_127].map((o) => [o, `k${o % 97}`]),
    );
    const start = performance.now();
    for (let i = 0; i < 100; i++)
      recordWindow('big', 0, log, { topic: 'big', partition: 0, from: i * 9_999, count: 30 });
    // A window costs a lookup and one batch decode, not a scan of the log.
    expect((performance.now() - start) / 100).toBeLessThan(20);
  });
});

describe('a partition view says what is saved, what is still writing and what is only in memory', () => {
  it('durableOffset trails the recovery point until the Store completes; unsaved and writing bytes add up', async () => {
    const store = new DeferredStore();
    const { log } = ordersLog(store, { 'flush.messages': 2 });
    log.appendAsLeader(makeBatch([{ key: 'k0', value: 'v' }]));
    log.appendAsLeader(makeBatch([{ key: 'k1', value: 'v' }])); // flushed here (flush.messages=2)
    log.appendAsLeader(makeBatch([{ key: 'k2', value: 'v' }])); // only in memory
    const seg = log.activeSegment;
    let view = partitionView('orders', 0, log);
    expect(view.recoveryPoint).toBe(2);
    expect(view.durableOffset).toBe(0);
    expect(view.unflushedBytes).toBe(seg.size);
    expect(view.writingBytes).toBe(seg.flushedBytes);
    expect(view.segments[0]?.durableBytes).toBe(0);
    await drain();
    store.complete();
    await drain();
    view = partitionView('orders', 0, log);
    expect(view.durableOffset).toBe(2);
    expect(view.writingBytes).toBe(0);
    expect(view.unflushedBytes).toBe(seg.size - seg.flushedBytes);
    expect(view.segments[0]?.durableBytes).toBe(seg.flushedBytes);
    // A topic the saved metadata does not name yet would not come back after a reload: nothing is saved.
    const unsaved = partitionView('orders', 0, log, log.highWatermark, false);
    expect(unsaved.durableOffset).toBe(0);
    expect(unsaved.unflushedBytes).toBe(seg.size);
    expect(unsaved.segments[0]?.durableBytes).toBe(0);
  });
});

describe('views of a log whose old segments are paged out', () => {
  it('a lookup into a paged-out segment is not answered with an error: the host loads it and asks again', async () => {
    const store = new MapStore();
    const cache = new SegmentCache(0);
    const { log, clock } = ordersLog(store, { 'segment.bytes': 2000 }, cache);
    const enc = new TextEncoder();
    for (let b = 0; b < 40; b++) {
      appendRecords(log, [{ key: enc.encode(`k${b}`), value: enc.encode('v'.repeat(100)) }], clock.now());
    }
    log.updateHighWatermark(log.logEndOffset);
    log.flush();
    await log.writer.settled();
    cache.enforce();
    expect(log.logSegments[0]?.resident).toBe(false);
    const target = { kind: 'offset' as const, value: 1 };
    expect(() => lookupView('orders', 0, log, target)).toThrow(SegmentNotLoadedError);
    expect(() => recordWindow('orders', 0, log, { topic: 'orders', partition: 0, from: 0, count: 5 })).toThrow(
      SegmentNotLoadedError,
    );
    await cache.load(store);
    const view = lookupView('orders', 0, log, target);
    expect(view.error).toBeNull();
    expect(view.answer?.key).toBe('k1');
  });
});
