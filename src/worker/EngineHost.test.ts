/**
 * The worker host over a real (fake-indexeddb) IndexedDB: a scenario replaces the stored cluster
 * only after it replayed whole, says what replacing would discard, and a cluster with no user
 * topics still sends the page its (empty) partition views.
 */
import { createStore, entries } from 'idb-keyval';
import { describe, expect, it } from 'vitest';
import { lostPartitions } from '../engine/apps/lostPartitions';
import type { EngineHost } from './EngineHost';
import { call, openHost, slowedHostClock, withFreshIndexedDb } from './hostTesting';
import type { ScenarioSpec } from '../engine/apps/types';
import type { CommandResult } from './protocol';

withFreshIndexedDb();

/** Every IndexedDB entry of the cluster, read behind the store's back (key -> bytes as base64). */
async function storedEntries(): Promise<Record<string, string>> {
  const rows = await entries<string, Uint8Array | object>(createStore('glassbox', 'files'));
  // File chunks are bytes; the owner entry (`#owner`, the fencing epoch) is an object.
  return Object.fromEntries(
    rows.map(([k, v]) => [k, v instanceof Uint8Array ? Buffer.from(v).toString('base64') : JSON.stringify(v)]),
  );
}

/** Sends records from the panel, lets them be acknowledged and flushed (flush.ms 1000), and waits for the store. */
async function produceAndFlush(host: EngineHost, count: number): Promise<void> {
  for (let i = 0; i < count; i++)
    await call(host, 'produceRecord', { topic: 'orders', key: `user-${i}`, value: `v${i}`, headers: [] });
  await call(host, 'runUntilIdle', null);
  await call(host, 'advanceClock', { ms: 2000 });
  await call(host, 'frame', { advanceMs: 0, windows: [], run: 0, have: {} });
  await host.settled();
}

const leos = (v: CommandResult<'snapshot'>) => v.partitions.map((p) => `${p.topic}-${p.partition}:${p.logEndOffset}`);

const emptyFour: ScenarioSpec = { seed: 1, preset: 'empty4', actions: [], untilMs: 0 };

const killMissingBroker: ScenarioSpec = {
  seed: 1,
  preset: 'demo',
  actions: [
    { at: 500, action: { op: 'addGroup', group: 'audit', assignor: 'range' } },
    { at: 1000, action: { op: 'killBroker', broker: 99 } },
  ],
  untilMs: 2000,
};

describe('EngineHost scenarios', () => {
  it('a scenario whose action fails is refused by name and leaves the cluster and its stored files as they were', async () => {
    const host = await openHost();
    await produceAndFlush(host, 5);
    const files = await storedEntries();
    const before = await call(host, 'snapshot', null);
    const board = await call(host, 'loadScenario', null);
    expect(Object.keys(files).some((k) => k.includes('/orders-'))).toBe(true);

    for (const command of ['checkScenario', 'loadScenario'] as const) {
      const refused = await call(host, command, killMissingBroker).then(
        () => null,
        (e: unknown) => e as { code?: string; message: string },
      );
      // Cluster.broker(99): BROKER_NOT_AVAILABLE, named with the action that asked for it.
      expect(refused?.code).toBe('BROKER_NOT_AVAILABLE');
      expect(refused?.message).toContain('action 2 of 2 (killBroker at 1.0 s) failed');
      expect(refused?.message).toContain('no broker 99');
    }

    await host.settled();
    expect(await storedEntries()).toEqual(files);
    const after = await call(host, 'snapshot', null);
    expect(leos(after)).toEqual(leos(before));
    const boardAfter = await call(host, 'loadScenario', null);
    expect(boardAfter.actions).toEqual(board.actions);
    expect(boardAfter.groups.map((g) => g.groupId)).toEqual(board.groups.map((g) => g.groupId));

    // A reload (a new worker on the same IndexedDB) recovers orders and the panel's records in it
    // (the trickle's last unflushed records aside: flush.ms is 1000).
    const reloaded = await openHost();
    const recovered = (await call(reloaded, 'snapshot', null)).partitions.filter((p) => p.topic === 'orders');
    expect(recovered).toHaveLength(6);
    expect(recovered.reduce((n, p) => n + p.logEndOffset, 0)).toBeGreaterThanOrEqual(5);
    expect((await call(reloaded, 'checkScenario', emptyFour)).onlyPreset).toBe(false);
  });

  it('says what replacing would discard, and that a cluster holding only its preset loses nothing', async () => {
    const host = await openHost();
    const fresh = await call(host, 'checkScenario', emptyFour);
    expect(fresh).toMatchObject({ replaces: true, onlyPreset: true, actions: 0 });
    // The running scenario's own link replaces nothing.
    const same = await call(host, 'checkScenario', { seed: 1, preset: 'demo', actions: [], untilMs: 9000 });
    expect(same.replaces).toBe(false);
    // Nor does it after an action, whatever order the link's decoder gives the action's keys.
    await call(host, 'applyAction', {
      op: 'createTopic',
      name: 'events',
      partitions: 1,
      replicationFactor: 2,
      rackAware: true,
      startIndex: null,
    });
    const { actions } = await call(host, 'loadScenario', null);
    const reordered = actions.map(({ at, action }) => ({
      at,
      action: Object.fromEntries(Object.entries(action).reverse()) as typeof action,
    }));
    const own = await call(host, 'checkScenario', { seed: 1, preset: 'demo', actions: reordered, untilMs: 9000 });
    expect(own.replaces).toBe(false);
    expect((await call(host, 'checkScenario', emptyFour)).onlyPreset).toBe(false);

    await produceAndFlush(host, 3);
    const check = await call(host, 'checkScenario', emptyFour);
    const snapshot = await call(host, 'snapshot', null);
    const records = snapshot.partitions
      .filter((p) => p.topic === 'orders')
      .reduce((n, p) => n + p.logEndOffset - p.logStartOffset, 0);
    expect(check.onlyPreset).toBe(false);
    expect(check.topics).toHaveLength(2);
    expect(check.topics).toContainEqual({ name: 'orders', partitions: 6, records });
    expect(check.topics).toContainEqual({ name: 'events', partitions: 1, records: 0 });
    // The createTopic and the panel's three records: produce is part of the scenario (issue 15).
    expect(check.actions).toBe(4);

    // The panel's records are remembered across a reload: still not only the preset.
    const reloaded = await openHost();
    expect((await call(reloaded, 'checkScenario', emptyFour)).onlyPreset).toBe(false);
  });

  it('sends the event log and the metrics only when asked and only when their version moved', async () => {
    const host = await openHost();
    const first = await call(host, 'frame', { advanceMs: 0, windows: [], run: 0, have: { eventLog: -1, metrics: -1 } });
    expect(first.views.eventLog?.entries.some((e) => e.type === 'brokerStarted')).toBe(true);
    expect(first.views.metrics?.metrics.find((m) => m.name === 'ActiveControllerCount')?.value).toBe(1);
    const held = { eventLog: first.views.eventLog?.version ?? -1, metrics: first.views.metrics?.version ?? -1 };
    const same = await call(host, 'frame', { advanceMs: 0, windows: [], run: first.run, have: held });
    expect(same.views).toEqual({});
    await call(host, 'applyAction', { op: 'killBroker', broker: 2 });
    const after = await call(host, 'frame', { advanceMs: 0, windows: [], run: first.run, have: held });
    expect(after.views.eventLog?.entries.at(-1)?.type).toBe('brokerDown');
    expect(after.views.metrics?.sinceAction?.label).toBe('you killed broker 2');
    const unasked = await call(host, 'frame', { advanceMs: 0, windows: [], run: first.run, have: {} });
    expect(unasked.views).toEqual({});
  });

  it('a cluster with no user topics still sends its empty partition view, and the panel refuses the old topic', async () => {
    const host = await openHost();
    const first = await call(host, 'frame', { advanceMs: 0, windows: [], run: 0, have: { cluster: -1 } });
    expect(first.views.cluster?.partitions.some((p) => p.topic === 'orders')).toBe(true);

    // The page holds the old run's cluster view; the replaced cluster is a new run, whose view comes whole.
    await call(host, 'loadScenario', emptyFour);
    const held = { cluster: first.views.cluster?.version ?? -1 };
    const next = await call(host, 'frame', { advanceMs: 0, windows: [], run: first.run, have: held });
    expect(next.run).not.toBe(first.run);
    expect(next.views.cluster?.partitions).toEqual([]);

    const refused = await call(host, 'produceRecord', { topic: 'orders', key: null, value: 'x', headers: [] }).then(
      () => null,
      (e: unknown) => e as { code?: string },
    );
    expect(refused?.code).toBe('UNKNOWN_TOPIC_OR_PARTITION');
  });
});

describe('lostPartitions: what "Save again from memory" says each partition lost with the database', () => {
  const lost = (broker: number, partition: number, logStartOffset: number) => ({
    broker,
    topic: 'orders',
    partition,
    fromOffset: 0,
    logStartOffset,
    segments: 1,
  });

  it("names the leader's loss (what consumers can no longer read), else the follower that lost most", () => {
    const leaders = new Map([
      [0, 2],
      [1, 3],
    ]);
    const views = lostPartitions(
      [lost(1, 0, 900), lost(2, 0, 400), lost(3, 0, 700), lost(1, 1, 300), lost(2, 1, 500)],
      (_, p) => leaders.get(p),
    );
    expect(views).toEqual([
      { topic: 'orders', partition: 0, fromOffset: 0, logStartOffset: 400 },
      { topic: 'orders', partition: 1, fromOffset: 0, logStartOffset: 500 },
    ]);
  });

  it('lists nothing when no replica lost anything', () => {
    expect(lostPartitions([], () => 1)).toEqual([]);
  });
});

/** What a person sees of the cluster: topics with their configs and partition states, and the board. */
function clusterShown(board: CommandResult<'loadScenario'>) {
  return {
    topics: board.topics.map((t) => ({
      name: t.name,
      retentionMs: t.retentionMs,
      retentionBytes: t.retentionBytes,
      cleanupPolicy: t.cleanupPolicy,
      minInsyncReplicas: t.minInsyncReplicas,
      partitions: t.partitions.map((p) => ({ p: p.partition, replicas: p.replicas, leader: p.leader, isr: p.isr })),
    })),
    consumers: board.consumers.map((c) => ({ name: c.name, group: c.group, partitions: c.partitions })),
    groups: board.groups.map((g) => ({
      groupId: g.groupId,
      assignor: g.assignor,
      members: g.members
        .map((m) => ({ name: m.name, partitions: m.partitions }))
        .sort((a, b) => (a.name < b.name ? -1 : 1)),
    })),
  };
}

describe('EngineHost reload', () => {
  it('a reload restarts from the saved znodes, logs and checkpoints: the same topics, configs, replicas, board and records', async () => {
    const host = await openHost();
    await call(host, 'applyAction', {
      op: 'createTopic',
      name: 'audit',
      partitions: 2,
      replicationFactor: 2,
      startIndex: 0,
    });
    await call(host, 'applyAction', {
      op: 'alterTopicConfig',
      topic: 'audit',
      configs: { 'retention.ms': '600000', 'cleanup.policy': 'compact,delete' },
    });
    await call(host, 'applyAction', {
      op: 'alterTopicConfig',
      topic: 'orders',
      configs: { 'retention.bytes': '900000' },
    });
    await call(host, 'applyAction', { op: 'moveConsumer', name: 'c3', group: 'analytics' });
    await call(host, 'applyAction', { op: 'reassignPartitions', topic: 'orders', partition: 0, replicas: [3, 2, 1] });
    for (let i = 0; i < 5; i++)
      await call(host, 'produceRecord', { topic: 'audit', key: `k${i}`, value: `v${i}`, headers: [] });
    await call(host, 'runUntilIdle', null);
    await call(host, 'advanceClock', { ms: 8000 });
    await call(host, 'frame', { advanceMs: 0, windows: [], run: 0, have: {} });
    await host.settled();
    const before = clusterShown(await call(host, 'loadScenario', null));
    const logs = leos(await call(host, 'snapshot', null));
    expect(before.topics.find((t) => t.name === 'audit')?.cleanupPolicy).toBe('compact,delete');
    expect(before.consumers.find((c) => c.name === 'c3')?.group).toBe('analytics');

    const again = await openHost();
    await call(again, 'advanceClock', { ms: 8000 });
    const after = clusterShown(await call(again, 'loadScenario', null));
    expect(after).toEqual(before);
    // audit's records come back at the same offsets; orders has the preset's trickle producer, which
    // starts again with the restart and appends after what was saved.
    const afterLogs = leos(await call(again, 'snapshot', null));
    const audit = (l: string[]) => l.filter((x) => x.startsWith('audit-'));
    expect(audit(afterLogs)).toEqual(audit(logs));
    expect(audit(logs).some((l) => !l.endsWith(':0'))).toBe(true);
    const end = (l: string) => Number(l.slice(l.indexOf(':') + 1));
    for (const [i, l] of logs.entries()) expect(end(afterLogs[i] as string)).toBeGreaterThanOrEqual(end(l));
  });
});

describe('EngineHost: nothing recorded is dropped, and a reload offers no replayed past', () => {
  it('405 sends after a group, a consumer and a topic: all 408 actions kept, and a reload brings the group and consumer back', async () => {
    const host = await openHost();
    await call(host, 'applyAction', { op: 'addGroup', group: 'early', assignor: 'range' });
    await call(host, 'applyAction', { op: 'addConsumer', group: 'early', name: 'first' });
    await call(host, 'applyAction', {
      op: 'createTopic',
      name: 'tt',
      partitions: 1,
      replicationFactor: 1,
      startIndex: 0,
    });
    for (let i = 0; i < 405; i++) {
      await call(host, 'produceRecord', { topic: 'tt', key: null, value: `v${i}`, headers: [] });
      await call(host, 'advanceClock', { ms: 1 });
    }
    const view = await call(host, 'loadScenario', null);
    expect(view.actions).toHaveLength(408);
    expect(view.actions[0]?.action).toEqual({ op: 'addGroup', group: 'early', assignor: 'range' });
    await call(host, 'frame', { advanceMs: 0, windows: [], run: 0, have: {} });
    await host.settled();

    const again = await openHost();
    const after = await call(again, 'loadScenario', null);
    expect(after.actions).toHaveLength(408);
    expect(after.groups.map((g) => g.groupId)).toContain('early');
    expect(after.consumers.find((c) => c.name === 'first')?.group).toBe('early');
  });

  it('a run restored by a reload has no past to show or fork from: a replay would rewrite acknowledged records', async () => {
    const host = await openHost();
    await produceAndFlush(host, 3);
    const again = await openHost();
    await call(again, 'advanceClock', { ms: 2000 });
    const frame = await call(again, 'frame', { advanceMs: 0, windows: [], run: 0, have: {} });
    expect(frame.travel.restoredAtMs).not.toBeNull();
    const refused = await call(again, 'travelSeek', { atMs: 100 }).then(
      () => 'accepted',
      (e: { code?: string }) => e.code,
    );
    expect(refused).toBe('INVALID_REQUEST');
    // A new run (a reset) has a past again.
    await call(again, 'reset', null);
    const fresh = await call(again, 'frame', { advanceMs: 0, windows: [], run: 0, have: {} });
    expect(fresh.travel.restoredAtMs).toBeNull();
  });
});

describe('EngineHost: long links are estimated first and replayed as a job that answers frames', () => {
  const frame = (host: EngineHost) => call(host, 'frame', { advanceMs: 0, windows: [], run: 0, have: {} });
  /** Frames until the job ends (each frame is answered between the job's slices). */
  async function waitForJob(host: EngineHost, jobId: number) {
    const seen: number[] = [];
    for (;;) {
      const job = (await frame(host)).jobs.find((j) => j.jobId === jobId);
      if (job) seen.push(job.done);
      if (job && job.state !== 'running') return { job, seen };
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  it('a preset with no actions but an untilMs runs to it (not silently ignored)', async () => {
    const host = await openHost();
    const view = await call(host, 'loadScenario', { seed: 2, preset: 'empty4', actions: [], untilMs: 5000 });
    expect(view.seed).toBe(2);
    expect(view.nowMs).toBeGreaterThanOrEqual(5000);
  });

  it('a 24-hour link is estimated from its first seconds, refused as one call, and run as a job that can be cancelled, changing nothing', async () => {
    const host = await openHost();
    const day: ScenarioSpec = { seed: 2, preset: 'demo', actions: [], untilMs: 24 * 3600 * 1000 };
    const started = Date.now();
    const check = await call(host, 'checkScenario', day);
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(check.replay).toMatchObject({ engineMs: day.untilMs, sliced: true, ask: true });
    expect(check.replay?.estimatedMs).toBeGreaterThan(60_000);
    const refused = await call(host, 'loadScenario', day).then(
      () => 'accepted',
      (e: { code?: string }) => e.code,
    );
    expect(refused).toBe('INVALID_REQUEST');

    const { jobId } = await call(host, 'startScenarioJob', day);
    // Frames are answered while it runs, and it moves.
    let done = 0;
    for (let i = 0; i < 200 && done === 0; i++) {
      done = (await frame(host)).jobs.find((j) => j.jobId === jobId)?.done ?? done;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(done).toBeGreaterThan(0);
    await call(host, 'cancelJob', { jobId });
    const { job } = await waitForJob(host, jobId);
    expect(job.state).toBe('cancelled');
    // Cancelled while checked in memory: the stored cluster is the one it was.
    expect((await call(host, 'loadScenario', null)).seed).toBe(1);
  });

  it('a sliced replay that runs to its end replaces the cluster with the link, progress rising on the way', async () => {
    // On a fast machine two minutes replay in under a second (not sliced): time it as a slow one.
    const host = await openHost(slowedHostClock(20));
    const spec: ScenarioSpec = {
      seed: 2,
      preset: 'demo',
      actions: [{ at: 1000, action: { op: 'killBroker', broker: 2 } }],
      untilMs: 120_000,
    };
    const check = await call(host, 'checkScenario', spec);
    expect(check.replay?.sliced).toBe(true);
    const { jobId } = await call(host, 'startScenarioJob', spec);
    const { job, seen } = await waitForJob(host, jobId);
    expect(job.state).toBe('finished');
    expect(job.done).toBe(job.total);
    expect(new Set(seen).size).toBeGreaterThan(2);
    const view = await call(host, 'loadScenario', null);
    expect(view.seed).toBe(2);
    expect(view.nowMs).toBeGreaterThanOrEqual(120_000);
    expect(view.actions.map((a) => a.action.op)).toEqual(['killBroker']);
    expect(view.brokers.find((b) => b.id === 2)?.alive).toBe(false);
  }, 120_000);
});
