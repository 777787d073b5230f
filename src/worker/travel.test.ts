/**
 * Time travel through the worker host, over a real (fake-indexeddb) IndexedDB: the past is shown
 * from a replay in memory (IndexedDB is not written while it is shown, the live run waits), and an
 * action taken in the past forks the run there, on the store, with the later actions discarded.
 */
import { createStore, entries } from 'idb-keyval';
import { describe, expect, it } from 'vitest';
import { zipSync } from 'fflate';
import { makeBatch, makeRecords } from '../engine/log/testSupport';
import { call, openHost, withFreshIndexedDb } from './hostTesting';
import type { FrameArgs } from './protocol';

withFreshIndexedDb();

async function stored(): Promise<string[]> {
  const rows = await entries<string, Uint8Array | object>(createStore('glassbox', 'files'));
  return rows.map(
    ([k, v]) => `${k}:${v instanceof Uint8Array ? Buffer.from(v).toString('base64') : JSON.stringify(v)}`,
  );
}

const frame = (run: number, advanceMs = 0): FrameArgs => ({ advanceMs, windows: [], run, have: { board: -1 } });

describe('time travel in the worker', () => {
  it('shows the past from memory: IndexedDB is untouched and the live run waits until it is back', async () => {
    const host = await openHost();
    await call(host, 'advanceClock', { ms: 2000 });
    await call(host, 'applyAction', { op: 'killBroker', broker: 2 });
    await call(host, 'advanceClock', { ms: 10_000 });
    const live = await call(host, 'frame', frame(0));
    const liveMs = live.nowMs;
    const leaderNow = live.views.board?.topics.find((t) => t.name === 'orders')?.partitions[1]?.leader;
    expect(leaderNow).not.toBe(2);
    await host.settled();
    const before = await stored();

    const travel = await call(host, 'travelSeek', { atMs: 1500 });
    expect(travel).toMatchObject({ viewMs: 1500, liveMs, live: false, fork: null });
    // The page asks with the old run's versions: the past is a new picture, sent whole.
    const past = await call(host, 'frame', frame(live.run, 500));
    expect(past.run).not.toBe(live.run);
    expect(past.nowMs).toBe(1500);
    expect(past.travel.live).toBe(false);
    expect(past.views.board?.brokers.find((b) => b.id === 2)?.alive).toBe(true);
    expect(past.views.board?.topics.find((t) => t.name === 'orders')?.partitions[1]?.leader).toBe(2);
    expect(past.events.board).toEqual([]);
    // Time asked for while the past is shown does not move the live run, and nothing is written.
    expect(past.travel.liveMs).toBe(liveMs);
    await host.settled();
    expect(await stored()).toEqual(before);

    const back = await call(host, 'travelSeek', { atMs: liveMs });
    expect(back).toMatchObject({ viewMs: liveMs, live: true });
    const again = await call(host, 'frame', frame(past.run));
    expect(again.views.board?.topics.find((t) => t.name === 'orders')?.partitions[1]?.leader).toBe(leaderNow);
  });

  it('steps to the next election after the moment shown', async () => {
    const host = await openHost();
    await call(host, 'advanceClock', { ms: 1000 });
    await call(host, 'applyAction', { op: 'killBroker', broker: 2 });
    await call(host, 'advanceClock', { ms: 10_000 });
    const killedAt = (await call(host, 'frame', frame(0))).travel.liveMs - 10_000;
    await call(host, 'travelSeek', { atMs: killedAt - 100 });
    const next = await call(host, 'travelNext', { kind: 'election' });
    // Broker 2's ZooKeeper session expires after the kill; the controller then elects.
    expect(next.atMs).toBeGreaterThan(killedAt);
    expect(next.travel).toMatchObject({ viewMs: next.atMs, live: false });
    const shown = await call(host, 'frame', frame(0));
    expect(shown.views.board?.brokers.find((b) => b.id === 2)?.alive).toBe(false);
    expect(shown.views.board?.topics.find((t) => t.name === 'orders')?.partitions[1]?.leader).not.toBe(2);
  });

  it('an action in the past forks the run there: later actions discarded, the store holds the fork', async () => {
    const host = await openHost();
    await call(host, 'advanceClock', { ms: 3000 });
    await call(host, 'applyAction', { op: 'killBroker', broker: 3 });
    await call(host, 'advanceClock', { ms: 5000 });
    const liveMs = (await call(host, 'frame', frame(0))).nowMs;
    await call(host, 'travelSeek', { atMs: 2000 });
    const view = await call(host, 'applyAction', { op: 'isolateBroker', broker: 1 });
    expect(view.nowMs).toBe(2000);
    expect(view.actions.map((a) => `${a.action.op}@${a.at}`)).toEqual(['isolateBroker@2000']);
    expect(view.brokers.find((b) => b.id === 3)?.state).toBe('running');
    const f = await call(host, 'frame', frame(0));
    expect(f.travel).toMatchObject({
      live: true,
      liveMs: 2000,
      fork: { n: 1, atMs: 2000, discardedActions: 1, discardedMs: liveMs - 2000 },
    });
    // The stored link is the forked run's.
    await host.settled();
    const meta = (await stored()).find((e) => e.startsWith('meta/cluster.json'));
    expect(meta).toBeDefined();
    const json = Buffer.from(meta?.split(':').slice(1).join(':') ?? '', 'base64').toString();
    expect(json).toContain('isolateBroker');
    expect(json).not.toContain('killBroker');
  });
});

describe('time travel: a fork never deletes an import without asking', () => {
  it('an action in the past after an import is refused with what the fork would delete; confirmed, the run forks', async () => {
    const host = await openHost();
    await call(host, 'advanceClock', { ms: 2000 });
    const zip = zipSync({ 'okimp-0/00000000000000000000.log': makeBatch(makeRecords(4), { baseOffset: 0 }) });
    const imported = await call(host, 'importPartition', { zip, fileName: 'ok.zip' });
    expect(imported.topic).toBe('okimp');
    await call(host, 'advanceClock', { ms: 3000 });
    const topics = async () => (await call(host, 'snapshot', null)).partitions.map((p) => p.topic);
    await call(host, 'travelSeek', { atMs: 3900 });

    const refused = await call(host, 'produceRecord', { topic: 'orders', key: 'k', value: 'v', headers: [] }).then(
      () => null,
      (e: { code?: string; details?: Record<string, unknown> }) => e,
    );
    expect(refused?.code).toBe('INVALID_REQUEST');
    expect(JSON.parse(String(refused?.details?.forkDrops))).toEqual([{ name: 'okimp', partitions: 1, records: 4 }]);
    // Nothing changed: still the past shown, the import still in the live run.
    expect((await call(host, 'frame', frame(0))).travel.live).toBe(false);
    await call(host, 'travelSeek', { atMs: 1_000_000 });
    expect(await topics()).toContain('okimp');

    // Asked and confirmed at that moment: the fork goes ahead and says so.
    await call(host, 'travelSeek', { atMs: 3900 });
    await call(host, 'travelConfirmFork', { atMs: 3900 });
    await call(host, 'produceRecord', { topic: 'orders', key: 'k', value: 'v', headers: [] });
    const after = await call(host, 'frame', frame(0));
    expect(after.travel.fork?.atMs).toBe(3900);
    expect(await topics()).not.toContain('okimp');
  });
});
