import { describe, expect, it } from 'vitest';
import type { LookupStep } from './LookupTrace';
import { OffsetIndex } from './OffsetIndex';
import { TimeIndex } from './TimeIndex';

// Behaviour modelled on apache/kafka storage/src/test/java/org/apache/kafka/storage/internals/log/
// OffsetIndexTest.java (lookupExtremeCases, appendTooMany, truncate) and TimeIndexTest.java.

describe('OffsetIndex', () => {
  it('stores 8-byte big-endian entries (relative offset int32, position int32)', () => {
    const idx = new OffsetIndex(170410, 10485760);
    idx.append(170413, 348);
    idx.append(170418, 1325);
    expect([...idx.toBytes()]).toEqual([0, 0, 0, 3, 0, 0, 1, 0x5c, 0, 0, 0, 8, 0, 0, 5, 0x2d]);
    expect(idx.entryInfo(1)).toEqual({ slot: 1, relativeOffset: 8, offset: 170418, position: 1325 });
    expect(OffsetIndex.fromBytes(170410, 10485760, idx.toBytes()).sameEntriesAs(idx)).toBe(true);
  });

  it('finds the largest entry <= target, or (baseOffset, 0) below the first entry', () => {
    const idx = new OffsetIndex(45, 30 * 8);
    for (let i = 1; i <= 20; i++) idx.append(45 + i * 3, i * 100);
    expect(idx.lookup(44)).toMatchObject({ slot: -1, offset: 45, position: 0 });
    expect(idx.lookup(47)).toMatchObject({ slot: -1, offset: 45, position: 0 });
    expect(idx.lookup(48)).toMatchObject({ slot: 0, offset: 48, position: 100 });
    expect(idx.lookup(50)).toMatchObject({ slot: 0, offset: 48, position: 100 });
    expect(idx.lookup(51)).toMatchObject({ slot: 1, offset: 51, position: 200 });
    expect(idx.lookup(10_000)).toMatchObject({ slot: 19, offset: 105, position: 2000 });
  });

  it('agrees with a linear search everywhere, including the warm-section split past 1024 entries', () => {
    const idx = new OffsetIndex(0, 3000 * 8);
    for (let i = 0; i < 2500; i++) idx.append(i * 7 + 3, i * 50);
    for (let t = 0; t < 2500 * 7 + 10; t += 3) {
      let expected = -1;
      for (let s = 0; s < idx.entries; s++) if (s * 7 + 3 <= t) expected = s;
      expect(idx.largestLowerBoundSlotFor(t)).toBe(expected);
    }
  });

  it('traces every probe of the binary search with lo/hi, slot, entry and comparison', () => {
    const idx = new OffsetIndex(0, 1000);
    for (let i = 0; i < 16; i++) idx.append(i * 10, i * 4096);
    const trace: LookupStep[] = [];
    const slot = idx.largestLowerBoundSlotFor(75, trace);
    expect(slot).toBe(7);
    expect(trace[0]?.kind).toBe('index-warm-check');
    const probes = trace.filter((s) => s.kind === 'index-probe');
    expect(probes.length).toBeGreaterThan(0);
    expect(probes.length).toBeLessThanOrEqual(4); // log2(16)
    for (const p of probes) {
      if (p.kind !== 'index-probe') continue;
      expect(p.slot).toBeGreaterThanOrEqual(p.lo);
      expect(p.slot).toBeLessThanOrEqual(p.hi);
      expect(p.explanation.length).toBeGreaterThan(20);
    }
  });

  it('refuses offsets that do not increase and appends past its maximum size', () => {
    const idx = new OffsetIndex(0, 17); // rounds down to 2 entries
    expect(idx.maxEntries).toBe(2);
    idx.append(5, 0);
    expect(() => idx.append(5, 10)).toThrow(/no larger than the last offset/);
    idx.append(9, 100);
    expect(idx.isFull()).toBe(true);
    expect(() => idx.append(12, 200)).toThrow(/full/);
  });

  it('truncateTo(offset) removes entries with offset >= offset', () => {
    const idx = new OffsetIndex(100, 1000);
    for (const o of [110, 120, 130]) idx.append(o, o);
    idx.truncateTo(121);
    expect(idx.entries).toBe(2);
    idx.truncateTo(120);
    expect(idx.entries).toBe(1);
    idx.truncateTo(50);
    expect(idx.entries).toBe(0);
  });
});

describe('TimeIndex', () => {
  it('stores 12-byte entries (timestamp int64, relative offset int32) and only growing timestamps', () => {
    const idx = new TimeIndex(0, 10485760);
    expect(idx.maybeAppend(1769791783399, 3)).toBe(true);
    expect(idx.maybeAppend(1769791783399, 4)).toBe(false);
    expect(idx.maybeAppend(1769792518093, 7)).toBe(true);
    expect(idx.maybeAppend(1769793578176, 12)).toBe(true);
    // Same bytes as the real Kafka 3.7 __consumer_offsets-6 .timeindex (see LogSegment.test.ts).
    const b = idx.toBytes();
    expect(b.length).toBe(36);
    expect(TimeIndex.fromBytes(0, 10485760, b).entryInfo(2)).toEqual({
      slot: 2,
      timestamp: 1769793578176,
      relativeOffset: 12,
      offset: 12,
    });
  });

  it('keeps the last slot for the entry written on roll (isFull = entries >= maxEntries - 1)', () => {
    const idx = new TimeIndex(0, 36);
    idx.maybeAppend(10, 1);
    expect(idx.isFull()).toBe(false);
    idx.maybeAppend(20, 2);
    expect(idx.isFull()).toBe(true);
    expect(() => idx.maybeAppend(30, 3)).toThrow(/full/);
    expect(idx.maybeAppend(30, 3, true)).toBe(true);
    expect(idx.entries).toBe(3);
  });

  it('lookup returns the largest timestamp <= target, or (-1, baseOffset)', () => {
    const idx = new TimeIndex(50, 1200);
    idx.maybeAppend(1000, 55);
    idx.maybeAppend(2000, 60);
    expect(idx.lookup(999)).toMatchObject({ slot: -1, timestamp: -1, offset: 50 });
    expect(idx.lookup(1500)).toMatchObject({ slot: 0, timestamp: 1000, offset: 55 });
    expect(idx.lookup(2000)).toMatchObject({ slot: 1, timestamp: 2000, offset: 60 });
  });
});
