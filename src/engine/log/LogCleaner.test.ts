import { describe, expect, it } from 'vitest';
import { ManualClock } from '../Clock';
import {
  ByteWriter,
  type DefaultRecord,
  decodeRecordBatches,
  encodeRecordBatch,
  hasDeleteHorizon,
  recordTimestamp,
} from '../codec';
import { UnifiedLog } from './UnifiedLog';
import { StoreWriter } from './StoreWriter';
import { MapStore, makeBatch, text } from './testSupport';

const T0 = 1_700_000_000_000;
const DAY = 86_400_000;

function compactedLog(config: Record<string, number | string> = {}) {
  const clock = new ManualClock(T0);
  const store = new MapStore();
  const writer = new StoreWriter(store);
  const log = new UnifiedLog({
    dir: '__consumer_offsets-7',
    config: { 'cleanup.policy': 'compact', 'segment.bytes': 400, ...config },
    clock,
    writer,
  });
  return { log, clock, store, writer };
}

/** Every (offset, key, value) in the log, in order. */
function contents(log: UnifiedLog): [number, string | null, string | null][] {
  const out: [number, string | null, string | null][] = [];
  for (const b of decodeRecordBatches(fetchAll(log))) {
    for (const r of b.records) out.push([b.baseOffset + r.offsetDelta, text(r.key), text(r.value)]);
  }
  return out;
}

/** The whole log as one byte array, fetched segment by segment. */
function fetchAll(log: UnifiedLog): Uint8Array {
  const all = new ByteWriter();
  let offset = log.logStartOffset;
  while (offset < log.logEndOffset) {
    const f = log.fetch(offset, 1 << 20);
    if (f.batches.length === 0) break;
    all.writeRaw(f.records);
    offset = f.nextOffset;
  }
  return all.toBytes();
}

/** An idempotent producer's batch of keyed records (key = value = the number), base offset 0. */
function idempotentBatch(producerId: number, baseSequence: number, keys: number[]): Uint8Array {
  return makeBatch(
    keys.map((k) => ({ key: String(k), value: String(k) })),
    { baseTimestamp: T0, producerId, producerEpoch: 0, baseSequence },
  );
}

describe('LogCleaner (cleanup.policy=compact)', () => {
  it('keeps the latest record per key, preserves offsets, leaves the active segment alone', () => {
    const { log, clock } = compactedLog();
    for (let round = 0; round < 6; round++) {
      for (const k of ['a', 'b', 'c'])
        log.appendAsLeader(makeBatch([{ key: k, value: `${k}${round}`, timestamp: T0 + round }]));
    }
    const before = contents(log);
    const active = log.activeSegment;
    const activeBytes = active.log.copy();
    clock.advance(1000);
    log.updateHighWatermark(log.logEndOffset);
    const r = log.compact();
    expect(r.recordsRead).toBeGreaterThan(0);
    const after = contents(log);
    // Everything in the active segment is untouched.
    expect(log.activeSegment).toBe(active);
    expect(log.activeSegment.log.copy()).toEqual(activeBytes);
    // Every record kept is identical (offset, key, value) to one before: offsets never move.
    for (const rec of after) expect(before).toContainEqual(rec);
    // In the cleaned part, each key appears at most once and is its latest value there.
    const cleanedEnd = active.baseOffset;
    const cleaned = after.filter(([o]) => o < cleanedEnd);
    const keys = cleaned.map(([, k]) => k);
    expect(new Set(keys).size).toBe(keys.length);
    for (const [o, k, v] of cleaned) {
      const latest = before.filter(([bo, bk]) => bk === k && bo < cleanedEnd).at(-1);
      expect([o, k, v]).toEqual(latest);
    }
    expect(r.recordsSuperseded).toBe(before.filter(([o]) => o < cleanedEnd).length - cleaned.length);
    // Kafka groups segments by their size before cleaning, so the now-small cleaned segments are
    // merged into one on the next pass (groupSegmentsBySize), named by the first base offset.
    const segmentsAfterFirst = log.logSegments.length;
    log.updateHighWatermark(log.logEndOffset);
    const again = log.compact();
    expect(again.groups.length).toBe(1);
    expect(log.logSegments.length).toBeLessThan(segmentsAfterFirst);
    expect(log.logSegments[0]?.baseOffset).toBe(0);
    expect(contents(log)).toEqual(after);
  });

  it('the cleaned segment is indexed once per source segment read in one chunk, and lookups of removed offsets reach the next record (LogCleaner.cleanInto -> LogSegment.append)', () => {
    const { log } = compactedLog({ 'index.interval.bytes': 50, 'segment.bytes': 1500 });
    for (let i = 0; i < 60; i++) log.appendAsLeader(makeBatch([{ key: `k${i % 7}`, value: `v${i}`.padEnd(30, '.') }]));
    log.updateHighWatermark(log.logEndOffset);
    const sources = log.logSegments.filter((s) => s !== log.activeSegment).map((s) => s.baseOffset);
    const r = log.compact();
    let perBatchEntries = 0;
    let perChunkEntries = 0;
    // Every source segment (< 256 KiB) is one read-buffer chunk, appended at once: LogSegment.append
    // indexes (chunk's max offset, chunk's first byte) when more than index.interval.bytes came
    // since the last entry, so the first chunk of a cleaned segment gets none.
    for (const g of r.groups) {
      const seg = log.logSegments.find((s) => s.baseOffset === g.cleanedBaseOffset);
      if (!seg) throw new Error('no cleaned segment');
      const chunks: { start: number; size: number; maxOffset: number }[] = [];
      let position = 0;
      for (const b of decodeRecordBatches(seg.log.view())) {
        const source = [...g.sourceBaseOffsets].reverse().find((s) => s <= b.baseOffset) as number;
        const last = chunks.at(-1);
        const size = b.batchLength + 12;
        if (last && (last as { source?: number }).source === source) {
          last.size += size;
          last.maxOffset = b.baseOffset + b.lastOffsetDelta;
        } else chunks.push({ start: position, size, maxOffset: b.baseOffset + b.lastOffsetDelta, source } as never);
        position += size;
      }
      const expected: [number, number][] = [];
      let since = 0;
      for (const c of chunks) {
        if (since > 50) {
          expected.push([c.maxOffset, c.start]);
          since = 0;
        }
        since += c.size;
      }
      const actual: [number, number][] = [];
      for (let slot = 0; slot < seg.offsetIndex.entries; slot++) {
        const e = seg.offsetIndex.entryInfo(slot);
        actual.push([e.offset, e.position]);
      }
      expect(actual).toEqual(expected);
      perBatchEntries += seg.rebuiltIndexes().offsetIndex.entries;
      perChunkEntries += actual.length;
    }
    expect(sources.length).toBeGreaterThan(1);
    // A per-batch index (what recovery rebuilds, and what the cleaner wrote before) has more entries.
    expect(perBatchEntries).toBeGreaterThan(perChunkEntries);
    const kept = new Set(contents(log).map(([o]) => o));
    for (let o = 0; o < log.logEndOffset; o++) {
      const { answer } = log.lookup(o, { trace: false });
      expect(answer.exact).toBe(kept.has(o));
      expect(kept.has(answer.record?.offset as number)).toBe(true);
      expect(answer.record?.offset).toBeGreaterThanOrEqual(o);
    }
  });

  it('a source segment larger than the read buffer (log.cleaner.io.buffer.size / 2 = 256 KiB) is appended in chunks of whole batches, one index entry per chunk (Cleaner.cleanInto)', () => {
    const { log } = compactedLog({ 'index.interval.bytes': 4096, 'segment.bytes': 1 << 20 });
    for (let i = 0; i < 30; i++) log.appendAsLeader(makeBatch([{ key: `k${i}`, value: 'x'.repeat(10_000) }]));
    log.roll();
    log.appendAsLeader(makeBatch([{ key: 'last', value: 'y' }]));
    log.updateHighWatermark(log.logEndOffset);
    log.compact();
    const seg = log.logSegments[0];
    if (!seg) throw new Error('no segment');
    // The first chunk: the whole batches that fit 262,144 bytes; the second starts after them.
    let chunkEnd = 0;
    let lastOffset = -1;
    for (const b of decodeRecordBatches(seg.log.view())) {
      if (chunkEnd + b.batchLength + 12 <= 262_144) chunkEnd += b.batchLength + 12;
      lastOffset = b.baseOffset + b.lastOffsetDelta;
    }
    expect(chunkEnd).toBeLessThan(seg.size);
    const entries = Array.from({ length: seg.offsetIndex.entries }, (_, slot) => seg.offsetIndex.entryInfo(slot));
    expect(entries.map((e) => [e.offset, e.position])).toEqual([[lastOffset, chunkEnd]]);
  });

  it('keeps tombstones through the first pass, which stamps a delete horizon; a pass at or past it drops them (KIP-534, MemoryRecords.filterTo)', () => {
    const { log, clock } = compactedLog({ 'delete.retention.ms': DAY });
    log.appendAsLeader(makeBatch([{ key: 'gone', value: 'x', timestamp: T0 }]));
    log.appendAsLeader(makeBatch([{ key: 'stay', value: 'y', timestamp: T0 }]));
    log.appendAsLeader(makeBatch([{ key: 'gone', value: null, timestamp: T0 + 10 }]));
    log.roll();
    log.appendAsLeader(makeBatch([{ key: 'other', value: 'z', timestamp: T0 + 20 }]));
    clock.set(T0 + 1000);
    log.updateHighWatermark(log.logEndOffset);
    const first = log.compact();
    expect(first.tombstonesRemoved).toBe(0);
    expect(contents(log).map(([o, k, v]) => `${o}:${k}=${v}`)).toEqual(['1:stay=y', '2:gone=null', '3:other=z']);
    // The tombstone's batch now carries the horizon (now + delete.retention.ms) as its base
    // timestamp, flagged by attribute bit 6; the record keeps its own timestamp.
    const tombstoneBatch = decodeRecordBatches(fetchAll(log)).find((b) => b.baseOffset === 2);
    expect(tombstoneBatch && hasDeleteHorizon(tombstoneBatch.attributes)).toBe(true);
    expect(tombstoneBatch?.baseTimestamp).toBe(T0 + 1000 + DAY);
    expect(tombstoneBatch && recordTimestamp(tombstoneBatch, tombstoneBatch.records[0] as DefaultRecord)).toBe(T0 + 10);
    // A batch without tombstones is not stamped.
    const stay = decodeRecordBatches(fetchAll(log)).find((b) => b.baseOffset === 1);
    expect(stay && hasDeleteHorizon(stay.attributes)).toBe(false);
    // delete.retention.ms after the tombstone's own timestamp is not enough: the horizon counts
    // from the pass that stamped it.
    clock.set(T0 + 10 + DAY);
    log.updateHighWatermark(log.logEndOffset);
    expect(log.compact().tombstonesRemoved).toBe(0);
    clock.set(T0 + 1000 + DAY);
    log.updateHighWatermark(log.logEndOffset);
    const second = log.compact();
    expect(second.tombstonesRemoved).toBe(1);
    expect(contents(log).map(([o, k]) => `${o}:${k}`)).toEqual(['1:stay', '3:other']);
    expect(log.logEndOffset).toBe(4);
  });

  it('retains a tombstone whose own timestamp is long past delete.retention.ms (LogCleanerTest.testCleanTombstone)', () => {
    const { log, clock } = compactedLog({ 'delete.retention.ms': DAY });
    clock.set(T0 + 10 * DAY);
    log.appendAsLeader(makeBatch([{ key: '0', value: '0', timestamp: T0 + 12 * DAY }]));
    log.roll();
    log.appendAsLeader(makeBatch([{ key: '0', value: null, timestamp: T0 }]));
    log.roll();
    log.updateHighWatermark(log.logEndOffset);
    expect(log.compact().tombstonesRemoved).toBe(0);
    expect(contents(log)).toEqual([[1, '0', null]]);
    log.appendAsLeader(makeBatch([{ key: '1', value: '1', timestamp: T0 + 10 * DAY }]));
    log.roll();
    log.updateHighWatermark(log.logEndOffset);
    expect(log.compact().tombstonesRemoved).toBe(0);
    expect(contents(log)[0]).toEqual([1, '0', null]);
  });

  it('min.compaction.lag.ms keeps young segments out of the cleanable range', () => {
    const { log, clock } = compactedLog({ 'min.compaction.lag.ms': 100_000 });
    for (let i = 0; i < 30; i++)
      log.appendAsLeader(makeBatch([{ key: 'k', value: `${i}`, timestamp: T0 + i * 10_000 }]));
    clock.set(T0 + 30 * 10_000);
    log.updateHighWatermark(log.logEndOffset);
    const r = log.compact();
    expect(r.cleanableRange).not.toBeNull();
    const range = r.cleanableRange as { from: number; to: number };
    // Five single-record batches per segment; records 21.. are younger than now - 100 s, so the
    // segment 20..24 holding them, and everything after it, stays dirty.
    expect(range).toEqual({ from: 0, to: 20 });
    const offsets = contents(log).map(([o]) => o);
    expect(offsets).toEqual([19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29]);
  });

  it('never cleans the segment holding the high watermark, nor anything after it (LogCleanerManager.cleanableOffsets, LogCleanerManagerTest.testCleanableOffsetsForNone)', () => {
    const { log } = compactedLog();
    for (let i = 0; i < 30; i++) log.appendAsLeader(makeBatch([{ key: 'k', value: `${i}`, timestamp: T0 + i }]));
    // Five single-record batches per segment: 0..4, 5..9, 10..14, ...
    expect(log.logSegments[2]?.baseOffset).toBe(10);
    log.updateHighWatermark(0);
    expect(log.compact().cleanableRange).toBeNull();
    expect(contents(log).length).toBe(30);
    log.updateHighWatermark(12);
    const r = log.compact();
    // The first uncleanable offset is the HW (12), rounded down to its segment's base (10).
    expect(r.cleanableRange).toEqual({ from: 0, to: 10 });
    expect(contents(log).map(([o]) => o)).toEqual([9, ...Array.from({ length: 20 }, (_, i) => 10 + i)]);
    // At exactly a segment's base offset, the segment below it is cleanable.
    log.updateHighWatermark(15);
    expect(log.compact().cleanableRange).toEqual({ from: 0, to: 15 });
    expect(contents(log)[0]?.[0]).toBe(14);
  });

  it("keeps an emptied batch as a header when it is an active producer's last batch (BatchRetention.RETAIN_EMPTY, LogCleanerTest.testDuplicateCheckAfterCleaning)", async () => {
    const run = async (withProducerState: boolean) => {
      const { log, store, writer } = compactedLog({ 'segment.bytes': 2048 });
      const last = new Map<number, number>();
      const seq = new Map<number, number>();
      const append = (pid: number, keys: number[]) => {
        const baseSequence = seq.get(pid) ?? 0;
        const info = log.appendAsLeader(idempotentBatch(pid, baseSequence, keys));
        seq.set(pid, baseSequence + keys.length);
        last.set(pid, info.lastOffset);
      };
      const clean = () => {
        log.roll();
        log.updateHighWatermark(log.logEndOffset);
        log.compact(undefined, withProducerState ? last : undefined);
      };
      append(1, [1, 2, 3]);
      append(2, [3, 1, 4]);
      append(3, [1, 4]);
      clean();
      const batches = () => decodeRecordBatches(fetchAll(log));
      expect(batches().map((b) => b.baseOffset + b.lastOffsetDelta)).toEqual([2, 5, 7]);
      expect(contents(log).map(([o]) => o)).toEqual([1, 3, 6, 7]);
      append(4, [2]);
      clean();
      log.flush();
      await writer.settled();
      return { log, batches: batches(), store };
    };
    const kept = await run(true);
    // Producer 1's batch [0..2] lost every record but stays: it holds its last sequence (2).
    expect(kept.batches.map((b) => b.baseOffset + b.lastOffsetDelta)).toEqual([2, 5, 7, 8]);
    const empty = kept.batches[0];
    expect(empty).toMatchObject({
      baseOffset: 0,
      lastOffsetDelta: 2,
      producerId: 1,
      producerEpoch: 0,
      baseSequence: 0,
    });
    expect(empty?.records).toEqual([]);
    expect(contents(kept.log).map(([o, k]) => `${o}:${k}`)).toEqual(['3:3', '6:1', '7:4', '8:2']);
    // The empty batch is a valid batch: recovery reads it back without repair.
    const { log: loaded, report } = await UnifiedLog.load(
      kept.store,
      kept.log.dir,
      kept.log.config,
      new ManualClock(T0),
    );
    expect(report.segments.every((s) => s.bytesTruncated === 0)).toBe(true);
    expect(decodeRecordBatches(fetchAll(loaded)).map((b) => b.baseOffset + b.lastOffsetDelta)).toEqual([2, 5, 7, 8]);
    // Without producer state (no active producers) the emptied batch is deleted (DELETE_EMPTY).
    const dropped = await run(false);
    expect(dropped.batches.map((b) => b.baseOffset + b.lastOffsetDelta)).toEqual([5, 7, 8]);
  });

  it("a follower appends a leader's emptied batch as it is (UnifiedLog.analyzeAndValidateRecords has no record-count check)", () => {
    const { log } = compactedLog();
    const bytes = encodeRecordBatch({
      baseOffset: 0,
      partitionLeaderEpoch: 0,
      attributes: 0,
      lastOffsetDelta: 2,
      baseTimestamp: T0,
      maxTimestamp: T0,
      producerId: 1,
      producerEpoch: 0,
      baseSequence: 0,
      records: [],
    });
    const info = log.appendAsFollower(bytes);
    expect(info.lastOffset).toBe(2);
    expect(log.logEndOffset).toBe(3);
    expect(() => log.appendAsLeader(encodeRecordBatch({ ...decodeRecordBatches(bytes)[0]!, baseOffset: 0 }))).toThrow(
      /INVALID_RECORD/,
    );
    expect(log.logEndOffset).toBe(3);
  });

  it('persists the cleaned segments; a reload sees the compacted log and needs no repair', async () => {
    const { log, store, writer } = compactedLog({ 'index.interval.bytes': 64 });
    for (let i = 0; i < 40; i++) log.appendAsLeader(makeBatch([{ key: `k${i % 4}`, value: `value-${i}` }]));
    log.updateHighWatermark(log.logEndOffset);
    log.compact();
    log.flush();
    await writer.settled();
    const { log: loaded, report } = await UnifiedLog.load(store, log.dir, log.config, new ManualClock(T0));
    // Recovery rebuilds the indexes per batch (LogSegment.recover), where the cleaner indexed per chunk.
    expect(report.segments.every((s) => s.bytesTruncated === 0)).toBe(true);
    expect(contents(loaded)).toEqual(contents(log));
  });

  // Pinned from LogCleaner.fuzz seed 8: a batch [k0@0, k2@1] keeps only k0@0 (k2 is rewritten at
  // offset 2) but keeps its last offset delta, so it still "reaches" offset 1 without holding it.
  it('regression (fuzz seed 8): lookup continues past a batch that reaches the offset but lost its records', () => {
    const { log } = compactedLog();
    log.appendAsLeader(
      makeBatch([
        { key: 'k0', value: 'a' },
        { key: 'k2', value: 'b' },
      ]),
    );
    log.appendAsLeader(makeBatch([{ key: 'k2', value: 'c' }]));
    log.roll();
    log.appendAsLeader(makeBatch([{ key: 'k0', value: 'd' }]));
    log.updateHighWatermark(log.logEndOffset);
    log.compact();
    const { answer, trace } = log.lookup(1);
    expect(answer).toMatchObject({ exact: false, record: { offset: 2 } });
    expect(text(answer.record.value)).toBe('c');
    const headers = trace.filter((s) => s.kind === 'batch-header');
    expect(headers.map((s) => (s.kind === 'batch-header' ? [s.position, s.match] : null))).toEqual([
      [0, true],
      [0, false],
      [headers[2]?.kind === 'batch-header' ? headers[2].position : -1, true],
    ]);
  });

  it('refuses to compact a log whose cleanup.policy is delete', () => {
    const log = new UnifiedLog({ dir: 't-0', clock: new ManualClock(T0) });
    expect(() => log.compact()).toThrow(/INVALID_CONFIG/);
  });
});

// LogCleanerTest.testBuildOffsetMap (3.9): Cleaner.buildOffsetMap(log, start, end) maps only the
// offsets from `start` (the cleaner checkpoint) on; the clean section below is cleaned against that
// map (shouldRetainRecord), so what survives is the same as with a map of the whole range.
describe('the offset map covers the dirty section only (Cleaner.buildOffsetMap)', () => {
  it('testBuildOffsetMap: keys only below the first dirty offset are not in the map, and stay', () => {
    const build = () => {
      const { log } = compactedLog({ 'segment.bytes': 120 });
      // Offsets 0-3: a, b, c, d (the clean section); 4-7: a, e, e, f (dirty).
      for (const [k, v] of [
        ['a', '1'],
        ['b', '1'],
        ['c', '1'],
        ['d', '1'],
        ['a', '2'],
        ['e', '1'],
        ['e', '2'],
        ['f', '1'],
        ['g', '1'],
      ])
        log.appendAsLeader(makeBatch([{ key: k as string, value: v as string }]));
      log.updateHighWatermark(log.logEndOffset);
      return log;
    };
    const whole = build();
    const fromZero = whole.compact(T0, undefined, 0);
    const dirtyOnly = build();
    const fromFour = dirtyOnly.compact(T0, undefined, 4);
    expect(fromZero.distinctKeys).toBe(6); // a-f (g sits in the active segment)
    expect(fromFour.distinctKeys).toBe(3); // a, e, f
    expect(contents(dirtyOnly)).toEqual(contents(whole));
    expect(contents(dirtyOnly).map(([o, k]) => `${o}${k}`)).toEqual(['1b', '2c', '3d', '4a', '6e', '7f', '8g']);
  });
});
