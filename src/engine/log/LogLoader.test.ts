import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../Clock';
import type { Store } from '../Store';
import { UnifiedLog } from './UnifiedLog';
import { StoreWriter } from './StoreWriter';
import { MapStore, makeBatch, makeRecords } from './testSupport';

const T0 = 1_700_000_000_000;
const DIR = 'payments-3';

function openLog(store: Store, config: Record<string, number | string> = {}, clock = new ManualClock(T0)) {
  const writer = new StoreWriter(store);
  return { log: new UnifiedLog({ dir: DIR, config, clock, writer }), writer, clock };
}

/** The segment files of `dir` as they are in memory right now. */
function memoryFiles(log: UnifiedLog): Map<string, Uint8Array> {
  const m = new Map<string, Uint8Array>();
  for (const s of log.logSegments) {
    m.set(`${log.dir}/${s.logFileName}`, s.log.copy());
    m.set(`${log.dir}/${s.indexFileName}`, s.offsetIndex.toBytes());
    m.set(`${log.dir}/${s.timeIndexFileName}`, s.timeIndex.toBytes());
  }
  return m;
}

function storedSegmentFiles(store: MapStore): Map<string, Uint8Array> {
  return new Map([...store.files].filter(([k]) => /\.(log|index|timeindex)$/.test(k)));
}

describe('write-behind flushing', () => {
  it("with Kafka's default (never flush) appended bytes stay in memory until a roll or an explicit flush", async () => {
    const store = new MapStore();
    const { log, writer } = openLog(store);
    log.appendAsLeader(makeBatch(makeRecords(5, 50)));
    await writer.settled();
    expect(store.files.get(`${DIR}/00000000000000000000.log`)?.length).toBe(0); // created, nothing flushed
    const [info] = log.segmentInfos();
    expect(info).toMatchObject({ flushedBytes: 0, active: true });
    expect(info?.unflushedBytes).toBe(log.size);
    expect(log.recoveryPoint).toBe(0);
    log.flush();
    await writer.settled();
    expect(storedSegmentFiles(store)).toEqual(memoryFiles(log));
    expect(log.recoveryPoint).toBe(5);
    expect(log.segmentInfos()[0]?.unflushedBytes).toBe(0);
  });

  it('flush.messages flushes once that many messages are unflushed', () => {
    const store = new MapStore();
    const { log } = openLog(store, { 'flush.messages': 4 });
    expect(log.appendAsLeader(makeBatch(makeRecords(3))).flushed).toBe(false);
    expect(log.unflushedMessages).toBe(3);
    expect(log.appendAsLeader(makeBatch(makeRecords(1))).flushed).toBe(true);
    expect(log.unflushedMessages).toBe(0);
  });

  it('flush.ms flushes when that long has passed since the last flush (maybeFlush from the engine tick)', () => {
    const store = new MapStore();
    const { log, clock } = openLog(store, { 'flush.ms': 1000 });
    log.appendAsLeader(makeBatch(makeRecords(2)));
    clock.advance(999);
    expect(log.maybeFlush()).toBe(false);
    clock.advance(1);
    expect(log.maybeFlush()).toBe(true);
    expect(log.unflushedBytes()).toBe(0);
  });

  it('a roll hands the rolled segment to the Store (Kafka schedules that flush on roll)', async () => {
    const store = new MapStore();
    const { log, writer } = openLog(store, { 'segment.bytes': 500 });
    for (let i = 0; i < 6; i++) log.appendAsLeader(makeBatch(makeRecords(2, 60)));
    await writer.settled();
    const [first, ...rest] = log.segmentInfos();
    expect(first?.unflushedBytes).toBe(0);
    expect(store.files.get(`${DIR}/${first?.logFileName}`)?.length).toBe(first?.sizeInBytes);
    expect(rest.at(-1)?.unflushedBytes).toBeGreaterThan(0);
    // The recovery point follows (Kafka's flushUptoOffsetExclusive): offsets below it are in the Store.
    expect(log.recoveryPoint).toBe(log.activeSegment.baseOffset);
  });

  it('never awaits the Store: operations are issued in order and complete behind the log', async () => {
    // A Store whose operations complete only when the test says so.
    const release: (() => void)[] = [];
    const later = () => new Promise<void>((r) => release.push(r));
    const slow: Store = {
      list: async () => [],
      read: async () => null,
      write: later,
      append: later,
      truncate: later,
      delete: later,
    };
    const { log, writer } = openLog(slow, { 'flush.messages': 1 });
    log.appendAsLeader(makeBatch(makeRecords(1)));
    expect(writer.inFlight).toBe(5); // the append returned before the Store finished anything
    for (const r of release) r();
    await writer.settled();
    expect(writer.inFlight).toBe(0);
    // 3 file creations, the leader-epoch-checkpoint (epoch 0 starts at 0), 1 append of the .log
    expect(writer.operationsIssued).toBe(5);
  });

  it('records Store failures instead of throwing into the log', async () => {
    const failing: Store = {
      list: async () => [],
      read: async () => null,
      write: async () => {
        throw new Error('quota exceeded');
      },
      append: async () => {
        throw new Error('quota exceeded');
      },
      truncate: async () => {},
      delete: async () => {},
    };
    const { log, writer } = openLog(failing);
    log.appendAsLeader(makeBatch(makeRecords(1)));
    await writer.settled();
    // 3 file creations (empty appends) and the epoch checkpoint (a write)
    expect(writer.failures.map((f) => f.operation.op)).toEqual(['append', 'append', 'append', 'write']);
    expect(writer.isPathDurable(`${log.dir}/${log.activeSegment.logFileName}`)).toBe(false);
  });
});

describe('UnifiedLog.load (recovery)', () => {
  async function writtenLog(
    config: Record<string, number | string> = { 'segment.bytes': 700, 'index.interval.bytes': 100 },
  ) {
    const store = new MapStore();
    const { log, writer } = openLog(store, config);
    for (let i = 0; i < 25; i++) log.appendAsLeader(makeBatch(makeRecords(3, 30, T0 + i)), i < 12 ? 0 : 1);
    log.flush();
    await writer.settled();
    return { store, log };
  }

  /** Loads DIR back from `store` with writtenLog's config, through `writer` when given. */
  const reload = (store: MapStore, writer?: StoreWriter) =>
    UnifiedLog.load(store, DIR, { 'segment.bytes': 700, 'index.interval.bytes': 100 }, new ManualClock(T0), writer);

  it('reloads exactly what was flushed: same segments, same indexes, nothing rebuilt', async () => {
    const { store, log } = await writtenLog();
    const { log: loaded, report } = await reload(store);
    expect(report.segments.length).toBe(log.logSegments.length);
    for (const s of report.segments) {
      expect(s.bytesTruncated).toBe(0);
      expect(s.offsetIndex.rebuilt).toBe(false);
      expect(s.batchesValidated).toBeGreaterThan(0);
    }
    // Only the active segment's time index differs: recovery adds the closing entry, as Kafka's does.
    expect(report.segments.filter((s) => s.timeIndex.rebuilt).length).toBeLessThanOrEqual(1);
    expect(report).toMatchObject({ logStartOffset: 0, logEndOffset: 75, leaderEpochCheckpoint: 'loaded' });
    expect(report.leaderEpochs).toEqual([
      { epoch: 0, startOffset: 0 },
      { epoch: 1, startOffset: 36 },
    ]);
    for (let o = 0; o < 75; o += 7) expect(loaded.lookup(o, { trace: false }).answer.record?.offset).toBe(o);
    expect(loaded.appendAsLeader(makeBatch(makeRecords(1)), 1).firstOffset).toBe(75);
  });

  it('a power failure loses exactly the offsets at and above the recovery point', async () => {
    const store = new MapStore();
    const { log, writer } = openLog(store, { 'segment.bytes': 400 });
    for (let i = 0; i < 9; i++) log.appendAsLeader(makeBatch(makeRecords(2, 50)));
    expect(log.logSegments.length).toBeGreaterThan(2);
    expect(log.recoveryPoint).toBeLessThan(log.logEndOffset);
    await writer.settled();
    const { log: loaded } = await UnifiedLog.load(store, DIR, { 'segment.bytes': 400 }, new ManualClock(T0));
    expect(loaded.logEndOffset).toBe(log.recoveryPoint);
  });

  it('a power failure loses only what was never flushed', async () => {
    const store = new MapStore();
    const { log, writer } = openLog(store, { 'flush.messages': 10 });
    for (let i = 0; i < 4; i++) log.appendAsLeader(makeBatch(makeRecords(3)));
    expect(log.recoveryPoint).toBe(12);
    log.appendAsLeader(makeBatch(makeRecords(3))); // 3 unflushed messages, lost on power failure
    await writer.settled();
    const { log: loaded } = await UnifiedLog.load(store, DIR, {}, new ManualClock(T0));
    expect(loaded.logEndOffset).toBe(12);
  });

  it('truncates a torn tail, deletes the segments after it, and fixes the Store', async () => {
    const { store, log } = await writtenLog();
    const second = log.logSegments[1];
    const path = `${DIR}/${second?.logFileName}`;
    const bytes = store.files.get(path) as Uint8Array;
    store.files.set(path, bytes.slice(0, bytes.length - 7));
    const writer = new StoreWriter(store);
    const { log: loaded, report } = await reload(store, writer);
    const seg = report.segments[1];
    expect(seg?.bytesTruncated).toBeGreaterThan(0);
    expect(seg?.truncationReason).toMatch(/truncated/);
    expect(report.deletedSegments.length).toBe(log.logSegments.length - 2);
    expect(loaded.logSegments.length).toBe(2);
    expect(loaded.logEndOffset).toBe(second?.nextOffset ? second.nextOffset - 3 : -1);
    await writer.settled();
    expect(store.files.get(path)?.length).toBe(seg?.validBytes);
    expect([...store.files.keys()].filter((k) => k.endsWith('.log')).length).toBe(2);
    // A second load finds nothing left to repair.
    const again = await reload(store);
    expect(again.report.segments.every((s) => s.bytesTruncated === 0 && !s.offsetIndex.rebuilt)).toBe(true);
    expect(again.log.logEndOffset).toBe(loaded.logEndOffset);
  });

  it('rebuilds an index file full of garbage and writes the repaired one back', async () => {
    const { store, log } = await writtenLog();
    const first = log.logSegments[0];
    const indexPath = `${DIR}/${first?.indexFileName}`;
    const good = store.files.get(indexPath) as Uint8Array;
    expect(good.length).toBeGreaterThan(0);
    store.files.set(indexPath, new Uint8Array(good.length + 8).fill(0x7f));
    const writer = new StoreWriter(store);
    const { report } = await reload(store, writer);
    expect(report.segments[0]?.offsetIndex).toMatchObject({ rebuilt: true, rebuiltEntries: good.length / 8 });
    await writer.settled();
    expect(store.files.get(indexPath)).toEqual(good);
  });

  it('rebuilds missing index files and deletes index files that have no .log', async () => {
    const { store, log } = await writtenLog();
    const first = log.logSegments[0];
    const indexPath = `${DIR}/${first?.indexFileName}`;
    const timeIndexPath = `${DIR}/${first?.timeIndexFileName}`;
    const good = store.files.get(indexPath) as Uint8Array;
    store.files.delete(indexPath);
    store.files.delete(timeIndexPath);
    store.files.set(`${DIR}/00000000000099999999.index`, new Uint8Array(16));
    const writer = new StoreWriter(store);
    const { report } = await reload(store, writer);
    expect(report.segments[0]?.offsetIndex).toMatchObject({ storedEntries: null, rebuilt: true });
    expect(report.segments[0]?.timeIndex).toMatchObject({ storedEntries: null, rebuilt: true });
    expect(report.strayFiles).toEqual([`${DIR}/00000000000099999999.index`]);
    await writer.settled();
    expect(store.files.get(indexPath)).toEqual(good);
    expect(store.files.has(timeIndexPath)).toBe(true);
    expect(store.files.has(`${DIR}/00000000000099999999.index`)).toBe(false);
  });

  it('loads a real Kafka 3.7.0 partition directory and finds its index files already correct', async () => {
    const dir = join(import.meta.dirname, '..', 'codec', 'fixtures', 'kafka-3.7.0', '__consumer_offsets-6');
    const store = new MapStore();
    for (const f of ['00000000000000000000.log', '00000000000000000000.index', '00000000000000000000.timeindex']) {
      await store.write(`__consumer_offsets-6/${f}`, new Uint8Array(readFileSync(join(dir, f))));
    }
    // The broker's leader-epoch-checkpoint for this partition (real_segments.json).
    await store.write('__consumer_offsets-6/leader-epoch-checkpoint', new TextEncoder().encode('0\n1\n0 0\n'));
    const writer = new StoreWriter(store);
    const { log, report } = await UnifiedLog.load(store, '__consumer_offsets-6', {}, new ManualClock(T0), writer);
    expect(report.segments).toEqual([
      expect.objectContaining({
        baseOffset: 0,
        bytesRead: 13751,
        batchesValidated: 13,
        bytesTruncated: 0,
        offsetIndex: { storedEntries: 2, rebuiltEntries: 2, rebuilt: false },
        timeIndex: { storedEntries: 3, rebuiltEntries: 3, rebuilt: false },
      }),
    ]);
    expect(report.leaderEpochs).toEqual([{ epoch: 0, startOffset: 0 }]);
    expect(log.logEndOffset).toBe(13);
    await writer.settled();
    expect(writer.operationsIssued).toBe(0); // nothing needed repair
    const { answer } = log.lookup(9);
    expect(answer.indexEntry).toMatchObject({ offset: 7, position: 9571 });
    expect(answer.position).toBe(13225);
  });

  it('persists truncation so a reload sees the truncated log', async () => {
    const { store, log } = await writtenLog();
    const writer = log.writer;
    log.truncateTo(40);
    log.appendAsLeader(makeBatch(makeRecords(2, 30, T0 + 99)), 2);
    log.flush();
    await writer.settled();
    const { log: loaded } = await reload(store);
    expect(loaded.logEndOffset).toBe(log.logEndOffset);
    expect(loaded.leaderEpochCache.entries).toEqual(log.leaderEpochCache.entries);
    expect(loaded.fetch(0, 1 << 24).records.length).toBe(log.fetch(0, 1 << 24).records.length);
  });

  it('an empty directory loads as an empty log at offset 0', async () => {
    const { log, report } = await UnifiedLog.load(new MapStore(), 'fresh-0', {}, new ManualClock(T0));
    expect([log.logStartOffset, log.logEndOffset, report.segments.length]).toEqual([0, 0, 0]);
  });
});

/**
 * Issue 25, log recovery item 4: Kafka's LogLoader recovers (LogSegment.recover: CRCs, indexes
 * rebuilt) only the segments from the one holding the recovery point on
 * (`segments.values(recoveryPointCheckpoint, Long.MaxValue)` in LogLoader.recoverLog), none after
 * a clean shutdown, and a segment below whose index is missing or corrupt
 * (LogLoader.loadSegmentFiles, sanityCheck); the report says which and why.
 */
describe('LogLoader recovery points and clean shutdown (LogLoaderTest)', () => {
  /** Five or more segments of single-record batches, every file flushed to the store. */
  async function segmentedLog() {
    const store = new MapStore();
    const { log, writer } = openLog(store, { 'segment.bytes': 640 });
    for (let i = 0; i <= 100; i++) log.appendAsLeader(makeBatch([{ value: String(i), timestamp: T0 + i }]), 0);
    log.flush();
    await writer.settled();
    return { store, log };
  }
  const load = (store: Store, params: { hadCleanShutdown: boolean; recoveryPoint: number }) =>
    UnifiedLog.load(store, DIR, { 'segment.bytes': 640 }, new ManualClock(T0), new StoreWriter(store), {
      ...params,
      logStartOffset: 0,
    });

  it('testProducerSnapshotsRecoveryAfterUncleanShutdown: only the segments from the recovery point on are recovered', async () => {
    const { store, log } = await segmentedLog();
    const bases = log.logSegments.map((s) => s.baseOffset);
    expect(bases.length).toBeGreaterThanOrEqual(5);
    const recoveryPointSegment = bases[bases.length - 4] as number;
    const { log: loaded, report } = await load(store, {
      hadCleanShutdown: false,
      recoveryPoint: recoveryPointSegment + 1,
    });
    const recovered = report.segments.filter((s) => s.recovered).map((s) => s.baseOffset);
    expect(recovered).toEqual(bases.filter((b) => b >= recoveryPointSegment));
    expect(report.segments.find((s) => !s.recovered)?.recoveryReason).toMatch(/below the recovery point/);
    expect(loaded.logEndOffset).toBe(101);
    // After a crash the recovery point stays where the checkpoint had it (LogLoader.recoverLog).
    expect(loaded.recoveryPoint).toBe(recoveryPointSegment + 1);
    expect(loaded.fetch(0, 1 << 24).records).toEqual(log.fetch(0, 1 << 24).records);
  });

  it('testCleanShutdownFile: after a clean shutdown nothing is recovered, even with the recovery point at 0', async () => {
    const { store, log } = await segmentedLog();
    const { log: loaded, report } = await load(store, { hadCleanShutdown: true, recoveryPoint: 0 });
    expect(report.segments.every((s) => !s.recovered)).toBe(true);
    expect(report.segments[0]?.recoveryReason).toMatch(/kafka_cleanshutdown/);
    expect(loaded.logEndOffset).toBe(log.logEndOffset);
    expect(loaded.recoveryPoint).toBe(log.logEndOffset);
    // The opened segments serve lookups from their stored indexes as the written ones did.
    for (const offset of [0, 37, 64, 100]) expect(loaded.fetch(offset, 1).nextOffset).toBe(offset + 1);
  });

  it('LogSegment.readNextOffset: a segment not recovered is opened from its last index entries, reading only the batches after the last .index entry', async () => {
    const store = new MapStore();
    const config = { 'segment.bytes': 640, 'index.interval.bytes': 100 };
    const { log, writer } = openLog(store, config);
    for (let i = 0; i <= 40; i++) log.appendAsLeader(makeBatch([{ value: String(i), timestamp: T0 + i }]), 0);
    log.flush();
    await writer.settled();
    const seg = log.logSegments[1];
    if (!seg || seg.offsetIndex.entries === 0) throw new Error('no indexed segment');
    const lastIndexed = seg.offsetIndex.lastPosition;
    // A batch before the last index entry is garbage; Kafka never reads it when it opens the segment.
    const path = `${DIR}/${seg.logFileName}`;
    const bytes = (store.files.get(path) as Uint8Array).slice();
    const second = seg.log.header(0).sizeInBytes;
    expect(second).toBeLessThan(lastIndexed);
    bytes[second + 16] = 0; // its magic
    await store.write(path, bytes);
    const { log: loaded, report } = await UnifiedLog.load(
      store,
      DIR,
      config,
      new ManualClock(T0),
      new StoreWriter(store),
      {
        hadCleanShutdown: true,
        recoveryPoint: 0,
        logStartOffset: 0,
      },
    );
    expect(report.segments.every((s) => !s.recovered && s.bytesTruncated === 0)).toBe(true);
    expect(loaded.logEndOffset).toBe(log.logEndOffset);
    const opened = loaded.logSegments[1];
    expect(opened?.nextOffset).toBe(seg.nextOffset);
    // The max timestamp comes from the .timeindex's last entry (maxTimestampAndOffsetSoFar).
    expect(opened?.largestTimestamp).toBe(seg.timeIndex.lastEntry().timestamp);
    expect(opened?.largestTimestamp).toBe(seg.largestTimestamp);
  });

  it('testRecoverOnlyLastSegment: a segment below the recovery point whose .index is missing is recovered too', async () => {
    const { store, log } = await segmentedLog();
    const bases = log.logSegments.map((s) => s.baseOffset);
    const last = bases[bases.length - 1] as number;
    const second = bases[1] as number;
    await store.delete(`${DIR}/${String(second).padStart(20, '0')}.index`);
    const { report } = await load(store, { hadCleanShutdown: false, recoveryPoint: last });
    const recovered = report.segments.filter((s) => s.recovered);
    expect(recovered.map((s) => s.baseOffset)).toEqual([second, last]);
    expect(recovered[0]?.recoveryReason).toMatch(/index is missing/);
  });
});
