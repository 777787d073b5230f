import { describe, expect, it } from 'vitest';
import { DataPath } from '../../index';
import { MapStore } from '../../log/testSupport';
import { ClusterApps } from '../ClusterApps';
import type { BoardView } from '../types';
import { nextMoment } from './moments';
import { TimeMachine } from './TimeMachine';

/**
 * Time travel must show the cluster exactly as it was: a seek to t gives the views the live run
 * had at t (brokers, leaders, ISRs, groups, znodes, each partition's log), whichever replica it
 * starts from, and however the live run's clock was ticked.
 */
function live(): ClusterApps {
  return new ClusterApps(7, 'demo', { store: new MapStore(), panelProducer: true });
}

function snapshot(apps: ClusterApps): { board: BoardView; logs: unknown } {
  const data = new DataPath(apps.engine, new Map());
  return {
    board: { ...apps.view(), version: 0 },
    logs: data.views().map((v) => [v.topic, v.partition, v.logEndOffset, v.highWatermark, v.segments.length]),
  };
}

function machine(run: ClusterApps, everyMs = 5_000, maxCheckpoints = 32): TimeMachine {
  return new TimeMachine(() => run, { newStore: () => new MapStore(), everyMs, maxCheckpoints });
}

/** Drives a live run the way the page does (many short frames), with actions, keeping snapshots. */
function drive(run: ClusterApps, untilMs: number, at: number[]): Map<number, ReturnType<typeof snapshot>> {
  const seen = new Map<number, ReturnType<typeof snapshot>>();
  while (run.nowMs < untilMs) {
    run.tick(100);
    if (run.nowMs === 4_000) run.apply({ op: 'killBroker', broker: 1 });
    if (run.nowMs === 12_000) run.apply({ op: 'produceRecord', topic: 'orders', key: 'k', value: 'v', headers: [] });
    if (run.nowMs === 20_000) run.apply({ op: 'restartBroker', broker: 1 });
    if (at.includes(run.nowMs)) seen.set(run.nowMs, snapshot(run));
  }
  return seen;
}

describe('TimeMachine: a seek shows the run exactly as it was', () => {
  const times = [3_000, 4_000, 6_100, 12_000, 19_900, 25_000, 31_000];

  it('gives the live views at each earlier time, seeking backwards, forwards and from checkpoints', () => {
    const run = live();
    const seen = drive(run, 35_000, times);
    const tm = machine(run);
    // Backwards first (each seek starts from scratch or a parked viewer), then forwards.
    for (const t of [...times].reverse()) expect(snapshot(tm.seek(t)), `at ${t}`).toEqual(seen.get(t));
    for (const t of times) expect(snapshot(tm.seek(t)), `at ${t}`).toEqual(seen.get(t));
    // With checkpoints built in the background, in small budgets.
    const built = machine(run);
    let slices = 0;
    expect(built.complete(run.nowMs)).toBe(false);
    while (built.work(run.nowMs, 700)) slices++;
    expect(built.complete(run.nowMs)).toBe(true);
    expect(slices).toBeGreaterThan(5);
    const cps = built.checkpointTimes();
    expect(cps.length).toBeGreaterThanOrEqual(6);
    for (let i = 1; i < cps.length; i++) expect(cps[i]! - cps[i - 1]!).toBeLessThanOrEqual(5_000);
    for (const t of [...times].reverse()) expect(snapshot(built.seek(t)), `at ${t}`).toEqual(seen.get(t));
  });

  it('the broker killed at 4 s is alive before it and the partitions it led have another leader after', () => {
    const run = live();
    drive(run, 16_000, []);
    const tm = machine(run);
    const orders = (v: BoardView) => v.topics.find((t) => t.name === 'orders')?.partitions ?? [];
    const before = tm.seek(3_900).view();
    expect(before.brokers.find((b) => b.id === 1)?.alive).toBe(true);
    const led = orders(before).filter((p) => p.leader === 1);
    expect(led.length).toBeGreaterThan(0);
    // A killed broker is gone once its ZooKeeper session expires; the controller then elects.
    const after = tm.seek(15_000).view();
    expect(after.brokers.find((b) => b.id === 1)?.alive).toBe(false);
    for (const p of led) expect(orders(after)[p.partition]?.leader).not.toBe(1);
    // And back again: alive, the old leaders.
    const again = tm.seek(3_900).view();
    expect(orders(again).map((p) => p.leader)).toEqual(orders(before).map((p) => p.leader));
  });

  it('keeps at most maxCheckpoints, doubling the spacing as the run grows', () => {
    const run = live();
    drive(run, 30_000, []);
    const tm = machine(run, 1_000, 8);
    while (tm.work(run.nowMs, 5_000));
    expect(tm.checkpointTimes().length).toBeLessThanOrEqual(8);
    expect(tm.everyMs).toBe(4_000);
  });

  it('a fork forgets every replica after it', () => {
    const run = live();
    drive(run, 20_000, []);
    const tm = machine(run);
    while (tm.work(run.nowMs, 5_000));
    tm.seek(12_500);
    tm.forgetAfter(9_000);
    expect(tm.viewing).toBeNull();
    expect(Math.max(...tm.checkpointTimes())).toBeLessThanOrEqual(9_000);
  });

  it('steps to the next election after a time, from the live run', () => {
    const run = live();
    drive(run, 16_000, []);
    const at = nextMoment(run, 'election', 3_000);
    expect(at).not.toBeNull();
    expect(at).toBeGreaterThanOrEqual(4_000);
    expect(at).toBeLessThan(16_000);
    expect(nextMoment(run, 'election', 16_000)).toBeNull();
  });
});

/** A MapStore that says how many bytes it holds, as the host's MemoryStore does. */
class SizedStore extends MapStore {
  get sizeBytes(): number {
    let n = 0;
    for (const f of this.files.values()) n += f.length;
    return n;
  }
}

describe('TimeMachine: memory', () => {
  it('keeps its replicas within maxBytes; past the horizon a seek stops at it', () => {
    const live = new ClusterApps(1, 'demo', { store: new SizedStore(), panelProducer: true });
    live.apply({ op: 'createTopic', name: 'bulk', partitions: 1, replicationFactor: 1, startIndex: null });
    const maxBytes = 2 * 1024 * 1024;
    const machine = new TimeMachine(() => live, { newStore: () => new SizedStore(), everyMs: 1000, maxBytes });
    // About 1 MB a second into bulk: a replay of 2 s already takes half the budget.
    for (let s = 0; s < 60; s++) {
      live.apply({ op: 'produceRecords', topic: 'bulk', from: s * 100, count: 100, keyPrefix: null, valueBytes: 1000 });
      live.tick(100);
      for (let i = 0; i < 20 && machine.work(live.nowMs, 500); i++);
      expect(machine.bytes).toBeLessThanOrEqual(maxBytes);
    }
    const horizon = machine.horizonMs;
    expect(horizon).not.toBeNull();
    expect(horizon).toBeLessThan(live.nowMs);
    expect(machine.seek(live.nowMs - 1).nowMs).toBe(horizon);
    expect(machine.bytes).toBeLessThanOrEqual(maxBytes);
  });
});
