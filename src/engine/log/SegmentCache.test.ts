import { describe, expect, it } from 'vitest';
import { writeProducerSnapshot } from '../codec/producerSnapshot';
import { PartitionLogReplica } from '../cluster/PartitionLogReplica';
import { ManualClock } from '../Clock';
import type { Store } from '../Store';
import { Rng } from '../Rng';
import { UnifiedLog } from './UnifiedLog';
import { SegmentCache, SegmentNotLoadedError } from './SegmentCache';
import { StoreWriter } from './StoreWriter';
import { MapStore, makeBatch, makeRecords, text } from './testSupport';

const T0 = 1_700_000_000_000;
/** Small segments so that a few hundred records make many closed ones (the app uses 64 KiB). */
const CONFIG = { 'segment.bytes': 1200, 'index.interval.bytes': 200, 'flush.messages': 1_000_000 };

interface Pair {
  clock: ManualClock;
  store: MapStore;
  cache: SegmentCache;
  /** Pages segments out. */
  paged: UnifiedLog;
  /** Never pages anything out: the reference. */
  reference: UnifiedLog;
}

function pair(budget: number): Pair {
  const clock = new ManualClock(T0);
  const store = new MapStore();
  const cache = new SegmentCache(budget);
  const paged = new UnifiedLog({ dir: 'orders-0', config: CONFIG, clock, writer: new StoreWriter(store), cache });
  const reference = new UnifiedLog({ dir: 'orders-0', config: CONFIG, clock });
  return { clock, store, cache, paged, reference };
}

/** The same seeded producer batch appended to both logs, committed (high watermark = LEO). */
function appendBoth(p: Pair, rng: Rng, i: number): void {
  const n = 1 + rng.nextInt(5);
  const records = makeRecords(n, 5 + rng.nextInt(60), p.clock.now(), `k${i}-`).map((r, j) => ({
    ...r,
    key: rng.nextInt(4) === 0 ? null : `key-${(i + j) % 7}`,
  }));
  const batch = makeBatch(records, { baseTimestamp: p.clock.now() });
  p.paged.appendAsLeader(batch, 0);
  p.reference.appendAsLeader(batch, 0);
  p.paged.updateHighWatermark(p.paged.logEndOffset);
  p.reference.updateHighWatermark(p.reference.logEndOffset);
  p.clock.advance(1 + rng.nextInt(50));
}

/** What a tick does once the Store has caught up: flush, let writes complete, page out. */
/** A pair of budget `budget` after `appends` random appends (from seed `seed`) to both logs. */
function pairAppended(budget: number, seed: number, appends: number): Pair {
  const p = pair(budget);
  const rng = new Rng(seed);
  for (let i = 0; i < appends; i++) appendBoth(p, rng, i);
  return p;
}

async function settleAndEnforce(p: Pair): Promise<void> {
  p.paged.flush();
  await p.paged.writer.settled();
  p.cache.enforce();
}

/** A host's read (EngineHost.paged): on SegmentNotLoadedError, load that segment and ask again. */
async function hostRead<T>(p: Pair, read: () => T): Promise<{ value: T; loads: number }> {
  for (let loads = 0; ; loads++) {
    try {
      return { value: read(), loads };
    } catch (e) {
      if (!(e instanceof SegmentNotLoadedError) || loads > 50) throw e;
      await p.cache.load(p.store, [e.segment]);
    }
  }
}

function fetchShape(log: UnifiedLog, offset: number, maxBytes: number) {
  const f = log.fetch(offset, maxBytes);
  return {
    bytes: [...f.records],
    batches: f.batches.map((b) => [b.baseOffset, b.lastOffset, b.sizeInBytes]),
    nextOffset: f.nextOffset,
    segment: f.fetchOffsetMetadata.segmentBaseOffset,
    position: f.fetchOffsetMetadata.relativePositionInSegment,
  };
}

function lookupShape(log: UnifiedLog, offset: number) {
  const { answer, trace } = log.lookup(offset);
  return {
    segment: answer.segment.baseOffset,
    position: answer.position,
    batchesScanned: answer.batchesScanned,
    offset: answer.record.offset,
    key: text(answer.record.key),
    value: text(answer.record.value),
    trace: trace.map((s) => s.kind),
  };
}

describe('SegmentCache', () => {
  it('pages out closed durable segments and reads back the very same bytes', async () => {
    const p = pairAppended(2000, 7, 200);
    const before = new Map(p.paged.logSegments.map((s) => [s.baseOffset, s.log.copy()]));
    const indexes = new Map(
      p.paged.logSegments.map((s) => [s.baseOffset, [[...s.offsetIndex.toBytes()], [...s.timeIndex.toBytes()]]]),
    );
    await settleAndEnforce(p);
    const out = p.paged.logSegments.filter((s) => !s.resident);
    expect(out.length).toBeGreaterThan(5);
    expect(p.cache.pageOuts).toBe(out.length);
    // Paged out: the bytes and index objects are gone from memory; size, offsets, entry counts stay.
    for (const seg of out) {
      expect(() => seg.log).toThrow(SegmentNotLoadedError);
      expect(() => seg.offsetIndex).toThrow(SegmentNotLoadedError);
      expect(seg.size).toBe(before.get(seg.baseOffset)?.length);
      expect(seg.offsetIndexEntries).toBeGreaterThan(0);
    }
    expect(p.paged.activeSegment.resident).toBe(true);
    expect(p.paged.size).toBe(p.reference.size);
    await p.cache.load(p.store, out);
    for (const seg of out) {
      expect([...seg.log.view()]).toEqual([...(before.get(seg.baseOffset) as Uint8Array)]);
      // The indexes rebuilt from the bytes are the ones the appends built.
      expect([[...seg.offsetIndex.toBytes()], [...seg.timeIndex.toBytes()]]).toEqual(indexes.get(seg.baseOffset));
    }
    expect(p.cache.reloads).toBe(out.length);
  });

  it('fetches and lookups across paged-out segments answer like a log that keeps everything (seeded)', async () => {
    for (const seed of [1, 2, 3, 4]) {
      const p = pair(1500);
      const rng = new Rng(seed);
      let loads = 0;
      for (let step = 0; step < 400; step++) {
        appendBoth(p, rng, step);
        if (rng.nextInt(10) === 0) await settleAndEnforce(p);
        if (rng.nextInt(4) !== 0) continue;
        const start = p.reference.logStartOffset;
        const offset = start + rng.nextInt(p.reference.logEndOffset - start);
        const maxBytes = 1 + rng.nextInt(900);
        const fetched = await hostRead(p, () => fetchShape(p.paged, offset, maxBytes));
        expect(fetched.value).toEqual(fetchShape(p.reference, offset, maxBytes));
        const looked = await hostRead(p, () => lookupShape(p.paged, offset));
        expect(looked.value).toEqual(lookupShape(p.reference, offset));
        const ts = T0 + rng.nextInt(p.clock.now() - T0 + 1);
        const byTime = await hostRead(p, () => p.paged.lookupByTimestamp(ts).answer);
        expect(byTime.value).toEqual(p.reference.lookupByTimestamp(ts).answer);
        loads += fetched.loads + looked.loads + byTime.loads;
        // The budget holds once the reads' segments are given back.
        p.cache.enforce();
        expect(p.cache.residentBytes).toBeLessThanOrEqual(p.cache.budgetBytes);
      }
      // Reads really went to the Store.
      expect(loads).toBeGreaterThan(10);
      expect(p.cache.pageOuts).toBeGreaterThan(20);
    }
  });

  it('keeps the resident bytes of closed segments within the budget after every enforce', async () => {
    for (const budget of [0, 1000, 4000]) {
      const p = pair(budget);
      const rng = new Rng(budget + 11);
      for (let i = 0; i < 300; i++) {
        appendBoth(p, rng, i);
        await settleAndEnforce(p);
        expect(p.cache.residentBytes).toBeLessThanOrEqual(budget);
        const closedResident = p.paged.logSegments
          .filter((s) => s !== p.paged.activeSegment && s.resident)
          .reduce((n, s) => n + s.size, 0);
        expect(closedResident).toBe(p.cache.residentBytes);
      }
    }
  });

  it('never pages out what the Store does not hold yet, nor above the high watermark, nor a compacted log', async () => {
    const clock = new ManualClock(T0);
    // A Store whose writes never complete (IndexedDB still busy).
    const stuck: Store = {
      list: async () => [],
      read: async () => null,
      write: () => new Promise(() => {}),
      append: () => new Promise(() => {}),
      truncate: () => new Promise(() => {}),
      delete: () => new Promise(() => {}),
    };
    const cache = new SegmentCache(0);
    const slow = new UnifiedLog({ dir: 'a-0', config: CONFIG, clock, writer: new StoreWriter(stuck), cache });
    const store = new MapStore();
    const uncommitted = new UnifiedLog({ dir: 'b-0', config: CONFIG, clock, writer: new StoreWriter(store), cache });
    const compacted = new UnifiedLog({
      dir: 'c-0',
      config: { ...CONFIG, 'cleanup.policy': 'compact' },
      clock,
      writer: new StoreWriter(store),
      cache,
    });
    for (let i = 0; i < 60; i++) {
      const batch = makeBatch([{ key: `k${i % 5}`, value: 'x'.repeat(40) }], { baseTimestamp: clock.now() });
      for (const log of [slow, uncommitted, compacted]) log.appendAsLeader(batch, 0);
    }
    slow.updateHighWatermark(slow.logEndOffset);
    compacted.updateHighWatermark(compacted.logEndOffset);
    for (const log of [slow, uncommitted, compacted]) log.flush();
    await store.read('');
    cache.enforce();
    expect(cache.pageOuts).toBe(0);
    // Once the high watermark passes them, the committed, durable segments go.
    uncommitted.updateHighWatermark(uncommitted.logEndOffset);
    cache.enforce();
    expect(cache.pageOuts).toBe(uncommitted.logSegments.length - 1);
    expect(slow.logSegments.every((s) => s.resident)).toBe(true);
    expect(compacted.logSegments.every((s) => s.resident)).toBe(true);
  });

  it('a replica fetch from a paged-out segment returns nothing yet and asks for the load', async () => {
    const p = pairAppended(0, 5, 100);
    await settleAndEnforce(p);
    const replica = new PartitionLogReplica(p.paged);
    const first = p.paged.logSegments[0];
    expect(first?.resident).toBe(false);
    expect(replica.read(0, 10_000, p.paged.logEndOffset).length).toBe(0);
    expect(p.cache.pendingLoads().map((l) => l.path)).toEqual([`orders-0/${first?.logFileName}`]);
    expect(await p.cache.load(p.store)).toBe(1);
    expect(p.cache.pendingLoads()).toEqual([]);
    expect([...replica.read(0, 10_000, p.paged.logEndOffset)]).toEqual([...p.reference.fetch(0, 10_000).records]);
  });

  it('truncation into a paged-out segment drops it whole and the log continues from its base offset', async () => {
    const p = pairAppended(0, 9, 100);
    await settleAndEnforce(p);
    const victim = p.paged.logSegments[2];
    if (!victim || victim.resident) throw new Error('expected a paged-out third segment');
    expect(p.paged.truncateTo(victim.baseOffset + 1)).toBe(true);
    expect(p.paged.logEndOffset).toBe(victim.baseOffset);
    expect(p.paged.activeSegment.baseOffset).toBe(victim.baseOffset);
    expect(p.paged.activeSegment.size).toBe(0);
    // The follower fetches the rest again: the same bytes land at the same offsets.
    p.reference.truncateTo(victim.baseOffset);
    const more = makeBatch(makeRecords(3), { baseOffset: victim.baseOffset, partitionLeaderEpoch: 0 });
    p.paged.appendAsFollower(more);
    p.reference.appendAsFollower(more);
    p.paged.updateHighWatermark(p.paged.logEndOffset);
    p.reference.updateHighWatermark(p.reference.logEndOffset);
    const all = await hostRead(p, () => fetchShape(p.paged, victim.baseOffset, 100_000));
    expect(all.value).toEqual(fetchShape(p.reference, victim.baseOffset, 100_000));
    p.paged.flush();
    await p.paged.writer.settled();
    expect(p.store.files.get(`orders-0/${victim.logFileName}`)?.length).toBe(p.paged.activeSegment.size);
  });

  it("a follower's segment read back keeps the index its multi-batch appends wrote (LogSegment.append indexes per append)", async () => {
    const p = pairAppended(0, 21, 100);
    // A follower takes the reference log in fetches of several batches each.
    const follower = new UnifiedLog({
      dir: 'orders-1',
      config: CONFIG,
      clock: p.clock,
      writer: new StoreWriter(p.store),
      cache: p.cache,
    });
    while (follower.logEndOffset < p.reference.logEndOffset) {
      follower.appendAsFollower(p.reference.fetch(follower.logEndOffset, 700).records);
    }
    follower.updateHighWatermark(follower.logEndOffset);
    const before = follower.logSegments.map((s) => s.offsetIndex.toBytes());
    // Rebuilding from the bytes (per batch) would give other entries than the appends wrote.
    expect(follower.logSegments.some((s) => !s.rebuiltIndexes().offsetIndex.sameEntriesAs(s.offsetIndex))).toBe(true);
    follower.flush();
    await follower.writer.settled();
    p.cache.enforce();
    const closed = follower.logSegments.slice(0, -1);
    expect(closed.every((s) => !s.resident)).toBe(true);
    for (let o = 0; o < follower.logEndOffset; o += 7) {
      const got = await hostRead(p, () => follower.lookup(o).answer.record?.offset);
      expect(got.value).toBe(o);
    }
    expect(follower.logSegments.map((s) => s.offsetIndex.toBytes())).toEqual(before);
  });

  it('refuses bytes that are not the file paged out (CORRUPT_MESSAGE) and stays paged out', async () => {
    const p = pairAppended(0, 12, 60);
    await settleAndEnforce(p);
    const seg = p.paged.logSegments[0];
    if (!seg || seg.resident) throw new Error('expected a paged-out first segment');
    const good = (await p.store.read(`orders-0/${seg.logFileName}`)) as Uint8Array;
    expect(() => seg.reload(good.subarray(0, good.length - 1))).toThrow(/CORRUPT_MESSAGE/);
    const flipped = good.slice();
    flipped[flipped.length - 1] = (flipped[flipped.length - 1] as number) ^ 0xff;
    expect(() => seg.reload(flipped)).toThrow(/CORRUPT_MESSAGE/);
    expect(seg.resident).toBe(false);
    seg.reload(good);
    expect(seg.resident).toBe(true);
  });

  it('forgets segments retention deletes, and a load of one that went is dropped', async () => {
    const p = pairAppended(0, 3, 100);
    await settleAndEnforce(p);
    const first = p.paged.logSegments[0];
    if (!first) throw new Error('no segment');
    expect(() => p.paged.fetch(first.baseOffset, 100)).toThrow(SegmentNotLoadedError);
    expect(p.cache.pendingLoads()).toHaveLength(1);
    p.paged.updateConfig({ 'retention.bytes': 0 });
    p.paged.deleteOldSegments();
    expect(p.cache.pendingLoads()).toEqual([]);
    expect(p.cache.pagedOutSegments).toBe(0);
    expect(await p.cache.load(p.store, [first])).toBe(0);
  });
});

/**
 * Kafka's ProducerStateManager keeps its snapshots as files (`snapshots`, a map of SnapshotFile)
 * and reads the latest one on load (latestSnapshotFile, readSnapshot): a paged-out segment's
 * `.snapshot` must not keep its bytes in memory either, or every roll leaves a few hundred bytes.
 */
describe('producer snapshots of paged-out segments', () => {
  /** A real snapshot file (it must pass readSnapshot's checks on load), different per offset. */
  function snapshotBytes(offset: number): Uint8Array {
    return writeProducerSnapshot([
      {
        producerId: 1000 + offset,
        producerEpoch: 0,
        lastSequence: offset,
        lastOffset: offset - 1,
        offsetDelta: 0,
        timestamp: T0,
        coordinatorEpoch: -1,
        currentTxnFirstOffset: -1,
      },
    ]);
  }

  /** A pair whose paged log takes a producer snapshot (its log end offset's bytes) at every roll. */
  function pairWithSnapshots(budget: number): Pair {
    const p = pair(budget);
    p.paged.attachProducerSnapshots(() => snapshotBytes(p.paged.logEndOffset));
    return p;
  }

  it('leave memory with their segment: memory holds O(resident segments) snapshots, the Store all of them', async () => {
    const p = pairWithSnapshots(0);
    const rng = new Rng(11);
    for (let i = 0; i < 400; i++) {
      appendBoth(p, rng, i);
      if (i % 20 === 0) await settleAndEnforce(p);
    }
    await settleAndEnforce(p);
    const segments = p.paged.logSegments;
    const inMemory = segments.filter((s) => s.resident).length;
    expect(segments.length).toBeGreaterThan(30);
    expect(p.cache.pagedOutSegments).toBeGreaterThan(20);
    // One snapshot per roll, each named by the base offset of the segment the roll began.
    const offsets = p.paged.producerSnapshotOffsets;
    expect(offsets).toEqual(segments.slice(1).map((s) => s.baseOffset));
    expect(p.paged.producerSnapshots.inMemory).toBeLessThanOrEqual(inMemory);
    // The latest still serves a broker's start (Partition.loadProducerState), bytes and all ...
    const newest = offsets.at(-1) as number;
    expect(p.paged.latestProducerSnapshot()).toEqual({ offset: newest, bytes: snapshotBytes(newest) });
    // ... and the Store holds every file, which a restart reads back (LogLoader).
    for (const o of offsets)
      expect(p.store.files.get(`orders-0/${String(o).padStart(20, '0')}.snapshot`)).toEqual(snapshotBytes(o));
    const { log } = await UnifiedLog.load(p.store, 'orders-0', CONFIG, p.clock);
    expect(log.producerSnapshotOffsets).toEqual(offsets);
    expect(log.latestProducerSnapshot()).toEqual({ offset: newest, bytes: snapshotBytes(newest) });
  });

  it('"save again from memory" writes the snapshots it still holds and drops those that were only in the Store', async () => {
    const p = pairWithSnapshots(3000);
    const rng = new Rng(13);
    for (let i = 0; i < 300; i++) appendBoth(p, rng, i);
    await settleAndEnforce(p);
    const held = p.paged.producerSnapshotOffsets.filter(
      (o) => p.paged.logSegments.find((s) => s.baseOffset === o)?.resident !== false,
    );
    expect(held.length).toBeLessThan(p.paged.producerSnapshotOffsets.length);
    p.store.files.clear();
    const r = p.paged.rewriteStoreFiles();
    await p.paged.writer.settled();
    expect(p.paged.producerSnapshotOffsets).toEqual(held);
    expect(held.every((o) => o >= r.logStartOffset)).toBe(true);
    const written = [...p.store.files.keys()].filter((k) => k.endsWith('.snapshot')).sort();
    expect(written).toEqual(held.map((o) => `orders-0/${String(o).padStart(20, '0')}.snapshot`));
  });

  it('a paged-out segment read back serves fetches as before; the log rolls on without sorting its snapshots', async () => {
    const p = pairWithSnapshots(0);
    const rng = new Rng(12);
    for (let i = 0; i < 200; i++) appendBoth(p, rng, i);
    await settleAndEnforce(p);
    const first = p.paged.logSegments[0];
    if (!first || first.resident) throw new Error('expected a paged-out first segment');
    const read = await hostRead(p, () => fetchShape(p.paged, first.baseOffset, 5000));
    expect(read.loads).toBe(1);
    expect(read.value).toEqual(fetchShape(p.reference, first.baseOffset, 5000));
    const before = p.paged.producerSnapshotOffsets.length;
    for (let i = 200; i < 260; i++) appendBoth(p, rng, i);
    expect(p.paged.producerSnapshotOffsets.length).toBeGreaterThan(before);
    expect(p.paged.producerSnapshotOffsets).toEqual(p.paged.logSegments.slice(1).map((s) => s.baseOffset));
  });
});

describe('rewriteStoreFiles after the Store lost every file, with segments paged out', () => {
  it('writes what memory holds and starts the log past the last segment that was only in the Store', async () => {
    const p = pairAppended(3000, 7, 300);
    await settleAndEnforce(p);
    const segments = [...p.paged.logSegments];
    const lastPagedOut = segments.reduce((at, s, i) => (s.resident ? at : i), -1);
    expect(lastPagedOut).toBeGreaterThan(0); // several segments left memory
    const keep = segments.slice(lastPagedOut + 1);
    expect(keep.length).toBeGreaterThan(0);
    const lostBelow = (keep[0] as (typeof keep)[number]).baseOffset;
    const endBefore = p.paged.logEndOffset;

    p.store.files.clear(); // IndexedDB deleted under the page
    const r = p.paged.rewriteStoreFiles();
    await p.paged.writer.settled();

    // Retention-like: every segment up to the last lost one goes, oldest first, with the reason.
    expect(r.deleted.map((d) => d.baseOffset)).toEqual(segments.slice(0, lastPagedOut + 1).map((s) => s.baseOffset));
    expect(r.deleted.every((d) => d.reason === 'lost-with-store')).toBe(true);
    expect(r.logStartOffset).toBe(lostBelow);
    expect(p.paged.logStartOffset).toBe(lostBelow);
    expect(p.paged.logEndOffset).toBe(endBefore);
    expect(p.paged.logSegments.map((s) => s.baseOffset)).toEqual(keep.map((s) => s.baseOffset));
    expect(p.cache.pagedOutSegments).toBe(0);

    // The Store holds exactly the kept segments' files, byte for byte what the reference log has.
    const logs = [...p.store.files.keys()].filter((k) => k.endsWith('.log')).sort();
    expect(logs).toEqual(keep.map((s) => `orders-0/${s.logFileName}`));
    for (const seg of keep) {
      const ref = p.reference.logSegments.find((s) => s.baseOffset === seg.baseOffset);
      expect(p.store.files.get(`orders-0/${seg.logFileName}`)).toEqual(ref?.log.copy(0, ref.size));
    }
    // Reads below the new log start are out of range; at it they answer as the reference does.
    expect(() => p.paged.fetch(lostBelow - 1, 1000)).toThrow(/OFFSET_OUT_OF_RANGE/);
    expect(fetchShape(p.paged, lostBelow, 1000)).toEqual(fetchShape(p.reference, lostBelow, 1000));
  });

  it('drops nothing when every segment is in memory', async () => {
    const p = pair(10_000_000);
    const rng = new Rng(8);
    for (let i = 0; i < 200; i++) appendBoth(p, rng, i);
    await settleAndEnforce(p);
    p.store.files.clear();
    const r = p.paged.rewriteStoreFiles();
    expect(r.deleted).toEqual([]);
    expect(p.paged.logStartOffset).toBe(0);
    expect(p.paged.logSegments.length).toBe(p.reference.logSegments.length);
  });
});
