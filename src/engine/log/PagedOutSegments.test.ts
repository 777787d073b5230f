import { describe, expect, it } from 'vitest';
import { ManualClock } from '../Clock';
import { Rng } from '../Rng';
import { retainedBytesMeter } from '../retainedMemory.testing';
import type { LogSegment } from './LogSegment';
import { PAGED_OUT_ROW_BYTES, PagedOutSegments } from './PagedOutSegments';
import { SegmentCache, SegmentNotLoadedError } from './SegmentCache';
import { StoreWriter } from './StoreWriter';
import { UnifiedLog } from './UnifiedLog';
import { MapStore, makeBatch, makeRecords } from './testSupport';

const T0 = 1_700_000_000_000;
const CONFIG = { 'segment.bytes': 1200, 'index.interval.bytes': 200, 'flush.messages': 1_000_000 };

/** What a paged-out segment must still answer (the reference never flushes: flush marks apart). */
function fields(seg: LogSegment) {
  return {
    base: seg.baseOffset,
    size: seg.size,
    nextOffset: seg.nextOffset,
    maxTimestamp: seg.maxTimestampSoFar,
    offsetOfMax: seg.offsetOfMaxTimestampSoFar,
    largest: seg.largestTimestamp,
    first: seg.firstBatchTimestamp,
    created: seg.createdMs,
    modified: seg.lastModifiedMs,
    indexEntries: [seg.offsetIndexEntries, seg.timeIndexEntries],
    interval: seg.indexIntervalBytes,
    names: [seg.logFileName, seg.indexFileName, seg.timeIndexFileName],
  };
}

/** A paged log beside a reference that keeps everything, fed the same seeded batches. */
async function pagedPair(seed: number, appends: number) {
  const clock = new ManualClock(T0);
  const store = new MapStore();
  const cache = new SegmentCache(0);
  const paged = new UnifiedLog({ dir: 'orders-0', config: CONFIG, clock, writer: new StoreWriter(store), cache });
  const reference = new UnifiedLog({ dir: 'orders-0', config: CONFIG, clock });
  const rng = new Rng(seed);
  for (let i = 0; i < appends; i++) {
    const records = makeRecords(1 + rng.nextInt(4), 5 + rng.nextInt(60), clock.now() - rng.nextInt(5000), `k${i}-`);
    const batch = makeBatch(records, { baseTimestamp: clock.now() - rng.nextInt(5000) });
    for (const log of [paged, reference]) {
      log.appendAsLeader(batch, 0);
      log.updateHighWatermark(log.logEndOffset);
    }
    clock.advance(1 + rng.nextInt(400));
  }
  paged.flush();
  await paged.writer.settled();
  cache.enforce();
  return { clock, store, cache, paged, reference };
}

describe('PagedOutSegments', () => {
  it('stores, reads back and reuses rows; growing keeps every row; a null first-batch timestamp stays null', () => {
    const t = new PagedOutSegments<string>();
    const row = (i: number) => ({
      size: 100 + i,
      nextOffset: 2 ** 40 + i,
      maxTimestampSoFar: T0 + i,
      offsetOfMaxTimestampSoFar: i,
      createdMs: T0 - i,
      lastModifiedMs: T0 + 2 * i,
      rollingBasedTimestamp: i % 2 === 0 ? null : T0 + 3 * i,
      offsetIndexEntries: i,
      timeIndexEntries: i + 1,
      maxIndexSize: 10_485_760,
      indexIntervalBytes: 4096,
    });
    const rows = Array.from({ length: 9 }, (_, i) => t.add(row(i), `log-${i}`));
    expect(rows).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    rows.forEach((r, i) => {
      expect(t.fields(r)).toEqual(row(i));
      expect(t.owner(r)).toBe(`log-${i}`);
    });
    t.release(3);
    expect(t.rows).toBe(8);
    expect(t.owner(3)).toBeNull();
    expect(t.add(row(42), 'again')).toBe(3);
    expect(t.fields(3)).toEqual(row(42));
    expect(t.columnBytes).toBe(1024 * PAGED_OUT_ROW_BYTES);
    // A table of one row per chunk (a segment's own once it left its log) keeps rows apart too.
    const own = new PagedOutSegments(true);
    expect([own.add(row(1), null), own.add(row(2), null)]).toEqual([0, 1]);
    expect([own.fields(0), own.fields(1)]).toEqual([row(1), row(2)]);
    expect(own.columnBytes).toBe(2 * PAGED_OUT_ROW_BYTES);
  });
});

describe('segments paged out into the table', () => {
  it('a paged-out segment keeps only its base offset and a row: one row per paged-out segment, tens of bytes each', async () => {
    const p = await pagedPair(5, 300);
    const out = p.paged.logSegments.filter((s) => !s.resident);
    expect(out.length).toBeGreaterThan(20);
    expect(p.cache.pagedOut.rows).toBe(out.length);
    expect(p.cache.pagedOutSegments).toBe(out.length);
    for (const seg of out) {
      // baseOffset, the (null) resident state, the table and the row: no field per number.
      expect(Object.keys(seg).length).toBeLessThanOrEqual(4);
      expect(seg.pagedOutIn).toBe(p.cache.pagedOut);
      expect(seg.pagedOutOwner).toBe(p.paged);
    }
    expect(PAGED_OUT_ROW_BYTES).toBeLessThanOrEqual(72);
  });

  it('memory per retained paged-out segment (JS heap and typed-array buffers) is under 160 bytes', async () => {
    const used = retainedBytesMeter();
    const clock = new ManualClock(T0);
    const store = new MapStore();
    const cache = new SegmentCache(0);
    // One small batch per segment: the count of segments, not their bytes, is what grows.
    const config = { 'segment.bytes': 300, 'index.interval.bytes': 200, 'flush.messages': 1_000_000 };
    const log = new UnifiedLog({ dir: 'orders-0', config, clock, writer: new StoreWriter(store), cache });
    const batch = makeBatch(makeRecords(3, 50, T0, 'k'), { baseTimestamp: T0 });
    const run = async (n: number) => {
      for (let i = 0; i < n; i++) {
        log.appendAsLeader(batch, 0);
        log.updateHighWatermark(log.logEndOffset);
        clock.advance(7);
        if (i % 500 === 499 || i === n - 1) {
          log.flush();
          await log.writer.settled();
          cache.enforce();
          store.files.clear(); // the Store's bytes are not the engine's memory
        }
      }
    };
    await run(2_000);
    const before = used();
    const segmentsBefore = log.logSegments.length;
    await run(20_000);
    const perSegment = (used() - before) / (log.logSegments.length - segmentsBefore);
    expect(cache.pagedOutSegments).toBe(log.logSegments.length - 1);
    // Before the table: about 310 bytes (an object of boxed numbers, a Map entry in the cache).
    expect(perSegment).toBeLessThan(160);
  }, 60_000);

  it('read back, every segment has the numbers of the log that kept everything; a forgotten one keeps its own', async () => {
    for (const seed of [1, 2, 3]) {
      const p = await pagedPair(seed, 250);
      const out = p.paged.logSegments.filter((s) => !s.resident);
      expect(out.length).toBeGreaterThan(10);
      // Paged out (read from the table) and read back (resident again): the reference's numbers.
      expect(p.paged.logSegments.map(fields)).toEqual(p.reference.logSegments.map(fields));
      await p.cache.load(p.store, out);
      expect(p.cache.pagedOut.rows).toBe(0);
      expect(p.paged.logSegments.map(fields)).toEqual(p.reference.logSegments.map(fields));
      // Paged out again (once no longer fresh): the rows freed by the read-back are reused.
      for (let i = 0; i < 60; i++) p.cache.enforce();
      expect(p.cache.pagedOut.rows).toBe(out.length);
      expect(p.cache.pagedOut.columnBytes).toBe(1024 * PAGED_OUT_ROW_BYTES);
      // A segment retention deletes leaves the table and keeps its numbers (a reader may hold it).
      const first = p.paged.logSegments[0] as LogSegment;
      const kept = fields(first);
      p.paged.updateConfig({ 'retention.bytes': 0 });
      p.reference.updateConfig({ 'retention.bytes': 0 });
      const deleted = p.paged.deleteOldSegments();
      expect(deleted).toEqual(p.reference.deleteOldSegments());
      expect(fields(first)).toEqual(kept);
      expect(first.pagedOutIn).not.toBe(p.cache.pagedOut);
      expect(p.cache.pagedOut.rows).toBe(0);
      expect(() => first.log).toThrow(SegmentNotLoadedError);
    }
  });

  it('retention by time over paged-out segments deletes what it deletes over resident ones', async () => {
    const p = await pagedPair(9, 300);
    p.clock.advance(10_000);
    for (const log of [p.paged, p.reference]) log.updateConfig({ 'retention.ms': 30_000 });
    const a = p.paged.deleteOldSegments();
    const b = p.reference.deleteOldSegments();
    expect(a).toEqual(b);
    expect(p.paged.logStartOffset).toBe(p.reference.logStartOffset);
    expect(p.paged.logSegments.map(fields)).toEqual(p.reference.logSegments.map(fields));
  });
});
