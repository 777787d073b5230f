import { describe, expect, it } from 'vitest';
import { ManualClock } from '../Clock';
import { UnifiedLog } from './UnifiedLog';
import { StoreWriter } from './StoreWriter';
import { DeferredStore, drain, MapStore, makeBatch } from './testSupport';

const T0 = 1_700_000_000_000;

function setup(config: Record<string, number> = { 'flush.messages': 1 }) {
  const store = new DeferredStore();
  const writer = new StoreWriter(store);
  const clock = new ManualClock(T0);
  const log = new UnifiedLog({ dir: 'orders-0', config, clock, writer });
  return { store, writer, log, clock };
}

describe('StoreWriter: durable means the Store completed the operation', () => {
  it('numbers operations and moves durableSequence only over a contiguous run of completions', async () => {
    const store = new DeferredStore();
    const writer = new StoreWriter(store);
    const seqs = ['a', 'b', 'c'].map((p) => writer.submit({ op: 'write', path: p, bytes: new Uint8Array(1) }));
    expect(seqs).toEqual([1, 2, 3]);
    await drain();
    expect(writer.durableSequence).toBe(0);
    store.completeOnly(1); // "b" completes before "a": not yet durable in order
    await drain();
    expect(writer.durableSequence).toBe(0);
    store.complete(1); // "a"
    await drain();
    expect(writer.durableSequence).toBe(2);
    expect(writer.isDurable(2)).toBe(true);
    expect(writer.isDurable(3)).toBe(false);
    store.complete();
    await drain();
    expect(writer.durableSequence).toBe(3);
  });

  it('never moves past a failed operation (the store is offline: nothing after it is saved)', async () => {
    const store = new DeferredStore();
    const writer = new StoreWriter(store);
    writer.submit({ op: 'write', path: 'a', bytes: new Uint8Array(1) });
    writer.submit({ op: 'write', path: 'b', bytes: new Uint8Array(1) });
    writer.submit({ op: 'write', path: 'c', bytes: new Uint8Array(1) });
    await drain();
    store.complete(1);
    store.failNext(new Error('QuotaExceededError'));
    store.complete();
    await drain();
    expect(writer.durableSequence).toBe(1);
    expect(writer.failures).toHaveLength(1);
  });

  it('a memory-only writer (no Store) counts everything as done at once', () => {
    const writer = new StoreWriter(null);
    writer.submit({ op: 'write', path: 'a', bytes: new Uint8Array(1) });
    expect(writer.durableSequence).toBe(1);
  });
});

describe('UnifiedLog.durableOffset: the recovery point the Store has confirmed', () => {
  it('lags the recovery point until the flush’s transactions complete, then catches up', async () => {
    const { store, log } = setup();
    log.appendAsLeader(makeBatch([{ key: 'k0', value: 'v' }]));
    log.appendAsLeader(makeBatch([{ key: 'k1', value: 'v' }]));
    // flush.messages=1: each append flushed, so Kafka's recovery point is the log end already.
    expect(log.recoveryPoint).toBe(2);
    expect(log.durableOffset).toBe(0);
    expect(log.isDurableUpTo(1)).toBe(false);
    const seg = log.activeSegment;
    expect(log.durableBytes(seg)).toBe(0);
    expect(seg.flushedBytes).toBe(seg.size);
    // First come the segment's three files, created empty; then the flushes' appends.
    await drain();
    store.complete(3); // only the empty files are saved: no record is durable yet
    await drain();
    expect(log.durableOffset).toBe(0);
    store.complete();
    await drain();
    expect(log.durableOffset).toBe(2);
    expect(log.isDurableUpTo(2)).toBe(true);
    expect(log.durableBytes(seg)).toBe(seg.size);
    expect(log.segmentInfos()[0]?.durableBytes).toBe(seg.size);
    // What the Store confirmed reads back as the same records at the same offsets.
    const { log: reloaded } = await UnifiedLog.load(store.files, 'orders-0', {}, new ManualClock(T0));
    expect(reloaded.logEndOffset).toBe(2);
    expect(reloaded.durableOffset).toBe(2);
  });

  it('moves flush by flush: a completed earlier flush is durable while a later one is still pending', async () => {
    const { store, log } = setup();
    log.appendAsLeader(makeBatch([{ key: 'k0', value: 'v' }]));
    await drain();
    const afterFirst = store.pending;
    log.appendAsLeader(makeBatch([{ key: 'k1', value: 'v' }, { key: 'k2' }]));
    await drain();
    store.complete(afterFirst);
    await drain();
    expect(log.recoveryPoint).toBe(3);
    expect(log.durableOffset).toBe(1);
    const seg = log.activeSegment;
    expect(log.durableBytes(seg)).toBeGreaterThan(0);
    expect(log.durableBytes(seg)).toBeLessThan(seg.size);
    store.complete();
    await drain();
    expect(log.durableOffset).toBe(3);
  });

  it('records appended but not flushed are neither flushed nor durable', async () => {
    const { store, log } = setup({ 'flush.messages': 1000 });
    log.appendAsLeader(makeBatch([{ key: 'k0' }]));
    store.complete();
    await drain();
    expect(log.recoveryPoint).toBe(0);
    expect(log.durableOffset).toBe(0);
    log.flush();
    await drain();
    expect(log.recoveryPoint).toBe(1);
    expect(log.durableOffset).toBe(0);
    store.complete();
    await drain();
    expect(log.durableOffset).toBe(1);
  });

  it('a truncation pulls the durable offset down at once, and a pending flush cannot claim the cut records', async () => {
    const { store, log } = setup();
    log.appendAsLeader(makeBatch([{ key: 'k0' }]));
    log.appendAsLeader(makeBatch([{ key: 'k1' }]));
    log.appendAsLeader(makeBatch([{ key: 'k2' }]));
    await drain();
    store.complete();
    await drain();
    expect(log.durableOffset).toBe(3);
    log.truncateTo(1);
    expect(log.durableOffset).toBe(1);
    // New records at the cut offsets: durable only once their own writes complete.
    log.appendAsLeader(makeBatch([{ key: 'x1' }]));
    expect(log.recoveryPoint).toBe(2);
    expect(log.durableOffset).toBe(1);
    await drain();
    store.complete();
    await drain();
    expect(log.durableOffset).toBe(2);
  });

  it('a log recovered from the Store is durable up to its log end', async () => {
    const store = new MapStore();
    const first = new UnifiedLog({
      dir: 'orders-0',
      config: { 'flush.messages': 1 },
      clock: new ManualClock(T0),
      writer: new StoreWriter(store),
    });
    first.appendAsLeader(makeBatch([{ key: 'k0' }, { key: 'k1' }]));
    const { log } = await UnifiedLog.load(store, 'orders-0', {}, new ManualClock(T0));
    expect(log.durableOffset).toBe(2);
    // LogLoader.recoverLog after a crash: the recovery point stays at the checkpoint's (none: 0).
    expect(log.recoveryPoint).toBe(0);
  });

  it('a memory-only log is durable as soon as it flushes (there is no Store to wait for)', () => {
    const log = new UnifiedLog({ dir: 'orders-0', config: { 'flush.messages': 1 }, clock: new ManualClock(T0) });
    log.appendAsLeader(makeBatch([{ key: 'k0' }]));
    expect(log.durableOffset).toBe(1);
  });
});
