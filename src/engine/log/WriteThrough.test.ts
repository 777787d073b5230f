/**
 * The Node host's files (StoreWriter.writeThrough): Kafka's LogSegment.append writes each append
 * to the segment's FileChannel at once (FileRecords.append; the OS page cache, which outlives the
 * broker's process) and moves nothing else; LocalLog.flush (flush.messages / flush.ms, and the
 * flush a roll schedules, UnifiedLog.roll -> flushUptoOffsetExclusive) forces the segments from
 * the recovery point on (LogSegment.flush: log, offset index, time index) and only then moves the
 * recovery point.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../Clock';
import type { Store } from '../Store';
import { StoreWriter } from './StoreWriter';
import { DeferredStore, drain, MapStore, makeBatch, makeRecords } from './testSupport';
import { UnifiedLog } from './UnifiedLog';

const T0 = 1_700_000_000_000;

/** A MapStore that also records every fsync, in call order with the writes. */
class SyncingStore extends MapStore implements Store {
  readonly synced: string[] = [];
  fsync(path: string): Promise<void> {
    this.synced.push(path);
    return Promise.resolve();
  }
}

function setup(config: Record<string, number>, writeThrough = true) {
  const store = new SyncingStore();
  const writer = new StoreWriter(store, { writeThrough });
  const clock = new ManualClock(T0);
  const log = new UnifiedLog({ dir: 'orders-0', config, clock, writer });
  return { store, writer, log, clock };
}

describe('write-through (FileRecords.append) and flush as fsync (LogSegment.flush)', () => {
  it('every append is in the .log at once; the recovery point stays until a flush', async () => {
    const { store, writer, log } = setup({});
    log.appendAsLeader(makeBatch(makeRecords(3)));
    log.appendAsLeader(makeBatch(makeRecords(2)));
    await writer.settled();
    expect(store.files.get('orders-0/00000000000000000000.log')?.length).toBe(log.localLog.activeSegment.size);
    expect(log.recoveryPoint).toBe(0);
    expect(log.unflushedMessages).toBe(5);
    expect(store.synced).toEqual([]);
  });

  it('without write-through (the page) the bytes wait in memory for the flush', async () => {
    const { store, writer, log } = setup({}, false);
    log.appendAsLeader(makeBatch(makeRecords(3)));
    await writer.settled();
    expect(store.files.get('orders-0/00000000000000000000.log')?.length).toBe(0);
  });

  it('flush.messages=2: the second append fsyncs the segment files, then the recovery point moves', async () => {
    const { store, writer, log } = setup({ 'flush.messages': 2 });
    log.appendAsLeader(makeBatch(makeRecords(1)));
    expect(store.synced).toEqual([]);
    log.appendAsLeader(makeBatch(makeRecords(1)));
    await writer.settled();
    expect(store.synced).toEqual([
      'orders-0/00000000000000000000.log',
      'orders-0/00000000000000000000.index',
      'orders-0/00000000000000000000.timeindex',
    ]);
    expect(log.recoveryPoint).toBe(2);
  });

  it('flush.ms: the log flusher fsyncs what was written through since the last flush', async () => {
    const { store, writer, log, clock } = setup({ 'flush.ms': 1000 });
    log.appendAsLeader(makeBatch(makeRecords(4)));
    expect(log.maybeFlush()).toBe(false);
    clock.advance(1000);
    expect(log.maybeFlush()).toBe(true);
    await writer.settled();
    expect(store.synced).toHaveLength(3);
    expect(log.recoveryPoint).toBe(4);
    // Nothing new since: the next pass forces nothing.
    clock.advance(1000);
    expect(log.maybeFlush()).toBe(false);
  });

  it('a roll forces the rolled segment (flushUptoOffsetExclusive) and the recovery point moves to its end', async () => {
    const { store, writer, log } = setup({ 'segment.bytes': 300 });
    while (log.localLog.segments.count < 2) log.appendAsLeader(makeBatch(makeRecords(2, 40)));
    await writer.settled();
    const rolled = log.localLog.segments.first;
    expect(store.synced).toContain('orders-0/00000000000000000000.log');
    expect(log.recoveryPoint).toBe(rolled?.nextOffset);
  });
});

describe('StoreWriter.whenDurable: what an acknowledgement waits for', () => {
  it('resolves true once every operation up to the mark is in the Store, false when one failed', async () => {
    const store = new DeferredStore();
    const writer = new StoreWriter(store, { writeThrough: true });
    writer.submit({ op: 'append', path: 'a', bytes: new Uint8Array(1) });
    const first = writer.whenDurable(writer.operationsIssued);
    writer.submit({ op: 'append', path: 'b', bytes: new Uint8Array(1) });
    const second = writer.whenDurable(writer.operationsIssued);
    let firstDone = false;
    void first.then(() => {
      firstDone = true;
    });
    await drain();
    expect(firstDone).toBe(false);
    store.complete(1);
    await expect(first).resolves.toBe(true);
    store.failNext(new Error('EIO'));
    store.complete();
    await expect(second).resolves.toBe(false);
  });
});

describe('DurableOffset under write-through', () => {
  it('moves with every append once the Store has it, and keeps no more marks than writes in flight', async () => {
    const store = new DeferredStore();
    const writer = new StoreWriter(store, { writeThrough: true });
    const log = new UnifiedLog({ dir: 'orders-0', config: {}, clock: new ManualClock(T0), writer });
    for (let i = 0; i < 500; i++) log.appendAsLeader(makeBatch(makeRecords(1)));
    await drain();
    store.complete();
    await writer.settled();
    for (let i = 0; i < 500; i++) log.appendAsLeader(makeBatch(makeRecords(1)));
    // The first round's 500 confirmed marks were dropped without anyone reading the durable offset.
    const marks = (log.localLog as unknown as { durable: { marks: unknown[] } }).durable.marks;
    expect(marks.length).toBeLessThanOrEqual(500);
    await drain();
    store.complete();
    await writer.settled();
    expect(log.durableOffset).toBe(1000);
  });
});
