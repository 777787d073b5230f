/**
 * Back-pressure from the Store: a Send N job waits while IndexedDB is behind (writes handed over
 * and not settled past the host's budget), instead of piling the backlog up in memory, and goes
 * on once the Store catches up. A DeferredStore stands in for an IndexedDB that is slow to commit.
 */
import { describe, expect, it } from 'vitest';
import { DeferredStore } from '../engine/log/testSupport';
import { EngineHost } from './EngineHost';
import { demoWithPanel } from './demoWithPanel.testing';
import { call } from './hostTesting';
import { ManualHostClock } from './ManualHostClock';

describe('a Send N job and a Store that falls behind', () => {
  it('stops sending past the write backlog budget and resumes once the Store catches up', async () => {
    const store = new DeferredStore();
    const { clock, writer, apps } = demoWithPanel(store);
    const hosted = { apps, store, writer, clock, takeEvents: () => [], durable: true };
    const hostClock = new ManualHostClock();
    const budget = 256 * 1024;
    const host = new EngineHost(() => undefined, hostClock, hosted, budget);
    await call(host, 'open', { storage: 'memory', takeOver: false });
    const frame = () => call(host, 'frame', { advanceMs: 0, windows: [], run: 0, have: {} });
    const { jobId } = await call(host, 'produceRecords', {
      topic: 'orders',
      count: 200_000,
      ratePerSecond: 0,
      keyPrefix: null,
      valueBytes: 100,
    });
    let done = 0;
    const progress = async () => {
      hostClock.advance(200);
      for (const j of (await frame()).jobs) if (j.jobId === jobId) done = j.done;
      return done;
    };
    // Nothing settles: the backlog passes the budget and the job stops.
    for (let i = 0; i < 30 && writer.bytesInFlight <= budget; i++) await progress();
    expect(writer.bytesInFlight).toBeGreaterThan(budget);
    const stalled = await progress();
    expect(await progress()).toBe(stalled);
    expect(await progress()).toBe(stalled);
    expect(stalled).toBeLessThan(200_000);
    // The Store catches up: the job goes on.
    store.complete();
    for (let i = 0; i < 4; i++) await Promise.resolve();
    expect(writer.bytesInFlight).toBe(0);
    expect(await progress()).toBeGreaterThan(stalled);
  });
});
