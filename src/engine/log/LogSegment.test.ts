import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readBatchHeader } from '../codec';
import { FileRecords } from './FileRecords';
import { LeaderEpochFileCache } from './LeaderEpochFileCache';
import { LogSegment } from './LogSegment';
import type { LookupStep } from './LookupTrace';
import { makeBatch, makeRecords } from './testSupport';

const REAL = join(import.meta.dirname, '..', 'codec', 'fixtures', 'kafka-3.7.0', '__consumer_offsets-6');
const realLog = () => new Uint8Array(readFileSync(join(REAL, '00000000000000000000.log')));
const realIndex = () => new Uint8Array(readFileSync(join(REAL, '00000000000000000000.index')));
const realTimeIndex = () => new Uint8Array(readFileSync(join(REAL, '00000000000000000000.timeindex')));

/** Appends the batches of `bytes` to `seg` as Kafka's LogSegment.append does, batch by batch. */
function appendAll(seg: LogSegment, bytes: Uint8Array): void {
  let pos = 0;
  while (pos < bytes.length) {
    const h = readBatchHeader(bytes, pos);
    seg.appendBatch(bytes, pos, h.sizeInBytes, h.baseOffset, h.lastOffset, h.maxTimestamp, null, 0);
    pos += h.sizeInBytes;
  }
}

describe('LogSegment against a real Kafka 3.7.0 segment (__consumer_offsets-6, index.interval.bytes 4096)', () => {
  it('appending its batches writes the same .index bytes Kafka wrote: (3 -> 4730), (7 -> 9571)', () => {
    const seg = new LogSegment(0, 4096, 10485760, 0);
    appendAll(seg, realLog());
    expect(seg.offsetIndex.toBytes()).toEqual(realIndex());
    expect(seg.offsetIndex.entryInfo(0)).toMatchObject({ offset: 3, position: 4730 });
    expect(seg.offsetIndex.entryInfo(1)).toMatchObject({ offset: 7, position: 9571 });
    // The time index gets the closing entry (max timestamp, offset 12) when the segment is closed.
    expect(seg.timeIndex.entries).toBe(2);
    seg.onBecomeInactiveSegment();
    expect(seg.timeIndex.toBytes()).toEqual(realTimeIndex());
    expect(seg.nextOffset).toBe(13);
  });

  it('recover() rebuilds both index files byte for byte from the .log alone', () => {
    const seg = new LogSegment(0, 4096, 10485760, 0, FileRecords.of(realLog()));
    const cache = new LeaderEpochFileCache();
    const r = seg.recover(cache);
    expect(r).toMatchObject({ batchesValidated: 13, recordsValidated: 13, validBytes: 13751, bytesTruncated: 0 });
    expect(seg.offsetIndex.toBytes()).toEqual(realIndex());
    expect(seg.timeIndex.toBytes()).toEqual(realTimeIndex());
    // The broker's leader-epoch-checkpoint for this partition is "0\n1\n0 0\n".
    expect(cache.serialize()).toBe('0\n1\n0 0\n');
  });

  it('translateOffset uses the index then scans batch headers forward, as Kafka does', () => {
    const seg = new LogSegment(0, 4096, 10485760, 0, FileRecords.of(realLog()));
    seg.recover();
    const trace: LookupStep[] = [];
    const hit = seg.translateOffset(9, 0, trace);
    expect(hit).toMatchObject({ offset: 9, position: 13225, size: 136 });
    const kinds = trace.map((s) => s.kind);
    expect(kinds).toContain('index-result');
    const headers = trace.filter((s) => s.kind === 'batch-header');
    // From the entry (7 -> 9571): batches at 9571, 13095, then 13225 matches.
    expect(headers.map((s) => (s.kind === 'batch-header' ? s.position : -1))).toEqual([9571, 13095, 13225]);
    expect(seg.translateOffset(13)).toBeNull();
  });
});

describe('LogSegment recovery', () => {
  function segmentWithBatches(n: number, interval = 100): LogSegment {
    const seg = new LogSegment(40, interval, 10485760, 0);
    let next = 40;
    for (let i = 0; i < n; i++) {
      const b = makeBatch(makeRecords(3, 20, 1_700_000_000_000 + i * 10), { baseOffset: next });
      const h = readBatchHeader(b, 0);
      seg.appendBatch(b, 0, h.sizeInBytes, next, next + 2, h.maxTimestamp, null, 0);
      next += 3;
    }
    return seg;
  }

  it('repairs an index overwritten with garbage (Kafka LogSegmentTest.testRecoveryFixesCorruptIndex)', () => {
    const seg = segmentWithBatches(30);
    const good = seg.offsetIndex.toBytes();
    const goodTime = seg.timeIndex.toBytes();
    expect(seg.offsetIndex.entries).toBeGreaterThan(5);
    // Write garbage over the index: random entries via fromBytes on junk, then swap the content in.
    const junk = new Uint8Array(good.length).map((_, i) => (i * 97 + 13) & 0xff);
    seg.offsetIndex.reset();
    seg.offsetIndex.truncateToEntries(0);
    for (let i = 0; i + 8 <= junk.length; i += 8) {
      try {
        seg.offsetIndex.append(40 + i, junk[i] as number);
      } catch {
        break;
      }
    }
    expect(seg.offsetIndex.toBytes()).not.toEqual(good);
    const r = seg.recover();
    expect(r.bytesTruncated).toBe(0);
    expect(seg.offsetIndex.toBytes()).toEqual(good);
    // Recovery also writes the closing time index entry a clean close would have.
    const closed = segmentWithBatches(30);
    closed.onBecomeInactiveSegment();
    expect(seg.timeIndex.toBytes()).toEqual(closed.timeIndex.toBytes());
    expect(goodTime.length).toBeLessThanOrEqual(seg.timeIndex.toBytes().length);
  });

  it('truncates a torn tail at the start of the incomplete batch', () => {
    const seg = segmentWithBatches(10);
    const full = seg.log.copy();
    const lastStart = [...seg.batches()].at(-1)?.position as number;
    const torn = new LogSegment(40, 100, 10485760, 0, FileRecords.of(full.slice(0, full.length - 5)));
    const r = torn.recover();
    expect(r.validBytes).toBe(lastStart);
    expect(r.bytesTruncated).toBe(full.length - 5 - lastStart);
    expect(r.truncationReason).toMatch(/truncated/);
    expect(torn.nextOffset).toBe(40 + 27);
    expect(torn.size).toBe(lastStart);
  });

  it('truncates at the first batch whose CRC does not match, dropping everything after it', () => {
    const seg = segmentWithBatches(10);
    const bytes = seg.log.copy();
    const third = [...seg.batches()][2]?.position as number;
    bytes[third + 70] = (bytes[third + 70] as number) ^ 0x01; // a bit inside the records
    const bad = new LogSegment(40, 100, 10485760, 0, FileRecords.of(bytes));
    const r = bad.recover();
    expect(r.validBytes).toBe(third);
    expect(r.batchesValidated).toBe(2);
    expect(r.truncationReason).toMatch(/CRC/);
    expect(bad.nextOffset).toBe(46);
  });

  it('truncateTo keeps the index consistent with what an index rebuilt from the bytes would hold', () => {
    const seg = segmentWithBatches(30);
    seg.onBecomeInactiveSegment();
    seg.truncateTo(40 + 3 * 17 + 1); // mid-batch: the whole batch holding it goes
    expect(seg.nextOffset).toBe(40 + 3 * 17);
    const rebuilt = seg.rebuiltIndexes();
    expect(seg.offsetIndex.sameEntriesAs(rebuilt.offsetIndex)).toBe(true);
    for (let s = 0; s < seg.offsetIndex.entries; s++) {
      expect(seg.offsetIndex.positionAt(s)).toBeLessThan(seg.size);
    }
  });
});

describe('LogSegment.shouldRoll (Kafka RollParams rules)', () => {
  const params = { maxSegmentBytes: 1000, maxSegmentMs: 60_000, messagesSize: 100, maxOffsetInMessages: 10, now: 0 };
  it('rolls when the append would pass segment.bytes, on segment.ms by record time, on a full index', () => {
    const seg = new LogSegment(0, 4096, 10485760, 0);
    expect(seg.shouldRoll({ ...params, maxTimestampInMessages: 5 })).toBeNull();
    const b = makeBatch(makeRecords(5, 150, 1_000_000));
    seg.appendBatch(b, 0, b.length, 0, 4, 1_000_000, null, 0);
    expect(seg.size).toBeGreaterThan(800);
    // Rolls exactly when size + incoming bytes would exceed segment.bytes.
    const room = 1000 - seg.size;
    expect(seg.shouldRoll({ ...params, messagesSize: room, maxTimestampInMessages: 1_000_000 })).toBeNull();
    expect(seg.shouldRoll({ ...params, messagesSize: room + 1, maxTimestampInMessages: 1_000_000 })).toBe(
      'segment.bytes',
    );
    expect(seg.shouldRoll({ ...params, messagesSize: 10, maxTimestampInMessages: 1_060_001 })).toBe('segment.ms');
    expect(seg.shouldRoll({ ...params, messagesSize: 10, maxTimestampInMessages: 1_060_000 })).toBeNull();
    const tiny = new LogSegment(0, 0, 8, 0); // one index entry fits; the time index keeps its last slot
    expect(tiny.shouldRoll({ ...params, maxTimestampInMessages: 5 })).toBe('timeindex-full');
    expect(
      seg.shouldRoll({ ...params, messagesSize: 10, maxTimestampInMessages: 1_000_000, maxOffsetInMessages: 2 ** 31 }),
    ).toBe('relative-offset-overflow');
  });
});

describe('FileRecords', () => {
  it('grows past its capacity hint without losing bytes (segment.bytes raised later)', () => {
    const fr = new FileRecords(64, 100);
    const chunk = new Uint8Array(60).map((_, i) => i);
    for (let i = 0; i < 10; i++) expect(fr.append(chunk)).toBe(i * 60);
    expect(fr.sizeInBytes).toBe(600);
    expect(fr.view(540, 600)).toEqual(chunk);
    expect(fr.truncateTo(120)).toBe(480);
    expect(fr.copy()).toEqual(new Uint8Array([...chunk, ...chunk]));
  });

  it('never changes bytes it has shown: a truncation followed by appends writes to a new array', () => {
    const fr = new FileRecords(64, 1 << 20);
    fr.append(new Uint8Array(40).fill(1));
    const shown = fr.view(0, 40);
    fr.truncateTo(10);
    fr.append(new Uint8Array(30).fill(2));
    expect(shown).toEqual(new Uint8Array(40).fill(1));
    expect(fr.copy()).toEqual(new Uint8Array([...new Uint8Array(10).fill(1), ...new Uint8Array(30).fill(2)]));
  });

  it('adopts immutable pieces without copying, joining pieces that continue each other', () => {
    const leader = new Uint8Array(100).map((_, i) => i);
    const fr = new FileRecords(64, 1 << 20);
    expect(fr.adopt(leader.subarray(0, 30))).toBe(0);
    expect(fr.adopt(leader.subarray(30, 70))).toBe(30);
    expect(fr.sizeInBytes).toBe(70);
    const whole = fr.view();
    expect(whole.buffer).toBe(leader.buffer); // one piece, shown as it is
    expect(whole).toEqual(leader.subarray(0, 70));
    expect(fr.truncateTo(50)).toBe(20);
    expect(fr.view()).toEqual(leader.subarray(0, 50));
    // A copied append after adopted pieces keeps file order (the pieces are copied in first).
    expect(fr.append(new Uint8Array([200, 201]))).toBe(50);
    expect(fr.copy()).toEqual(new Uint8Array([...leader.subarray(0, 50), 200, 201]));
    const other = new Uint8Array([7, 8, 9]);
    expect(fr.adopt(other)).toBe(52);
    expect(fr.view(52, 55).buffer).toBe(other.buffer);
    expect(fr.copy(48, 55)).toEqual(new Uint8Array([48, 49, 200, 201, 7, 8, 9]));
  });
});

/**
 * Issue 25, log recovery items 1 and 2: Kafka's LogSegment keeps `bytesSinceLastIndexEntry` as a
 * field that starts at 0 (the constructor: a segment opened from its files after a restart);
 * `recover()` counts in a local (`lastIndexEntry`) and leaves the field alone; `truncateTo` sets
 * it to 0. So the first append after a restart or a truncation gets an index entry only once
 * `index.interval.bytes` more bytes have been appended since.
 */
describe('LogSegment.bytesSinceLastIndexEntry across a restart and a truncation (Kafka 3.9)', () => {
  const batch = (offset: number) => makeBatch(makeRecords(1, 40), { baseOffset: offset });
  const size = batch(0).length;
  /** index.interval.bytes below two batches: the third append of an unbroken run is indexed. */
  const interval = size + 1;
  const append = (seg: LogSegment, offset: number) => {
    const b = batch(offset);
    seg.appendBatch(b, 0, b.length, offset, offset, 1_700_000_000_000, null, 0);
  };

  it('unbroken: batches at 0 and 1 leave 2*size bytes since the (absent) entry, so batch 2 is indexed', () => {
    const seg = new LogSegment(0, interval, 10485760, 0);
    for (const o of [0, 1, 2]) append(seg, o);
    expect(seg.offsetIndex.entries).toBe(1);
  });

  it('LogSegment constructor + recover(): the segment reopened after a restart starts counting at 0', () => {
    const before = new LogSegment(0, interval, 10485760, 0);
    for (const o of [0, 1]) append(before, o);
    const reopened = new LogSegment(0, interval, 10485760, 0, FileRecords.of(before.log.copy()));
    reopened.recover();
    expect(reopened.offsetIndex.entries).toBe(0);
    append(reopened, 2);
    // Kafka: 0 bytes since the restart, so no entry for batch 2 (glassbox used to re-derive 2*size).
    expect(reopened.offsetIndex.entries).toBe(0);
    append(reopened, 3);
    append(reopened, 4);
    expect(reopened.offsetIndex.entries).toBe(1);
    expect(reopened.offsetIndex.entryInfo(0)).toMatchObject({ offset: 4, position: 4 * size });
  });

  it('LogSegment.truncateTo: the counter is 0 after a truncation', () => {
    const seg = new LogSegment(0, interval, 10485760, 0);
    for (const o of [0, 1]) append(seg, o);
    expect(seg.truncateTo(1)).toBe(size);
    append(seg, 1);
    // After the cut: size bytes remain, but the counter starts again from 0, so batch 1 is not indexed...
    append(seg, 2);
    // ...nor batch 2 (size bytes since the cut, not above the interval); batch 3 is.
    expect(seg.offsetIndex.entries).toBe(0);
    append(seg, 3);
    expect(seg.offsetIndex.entries).toBe(1);
  });
});
