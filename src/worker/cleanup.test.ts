import { describe, expect, it } from 'vitest';
import { ManualClock } from '../engine/Clock';
import { isKafkaError } from '../engine/errors';
import { MemoryStore } from '../storage/MemoryStore';
import { DataPath, readStoredCluster } from '../engine';
import { StoreWriter } from '../engine/log/StoreWriter';
import { ClusterApps, DEMO_TOPIC_DEFAULTS } from '../engine/apps/ClusterApps';
import { DEMO_BROKER_CONFIG } from '../engine/apps/demoConfig';
import { buildBoardView } from '../engine/apps/boardViews';
import { SCENARIO_EPOCH_MS } from '../engine/apps/scenarioTime';

function demo() {
  const recovered = new Map();
  const clock = new ManualClock(SCENARIO_EPOCH_MS);
  const apps = new ClusterApps(1, 'demo', { store: new MemoryStore(), recoveredLogs: recovered, clock });
  const data = new DataPath(apps.engine, recovered);
  return { apps, data };
}

const orders = (apps: ClusterApps) => buildBoardView(apps).topics.find((t) => t.name === 'orders');

describe('retention and compaction reach the partition view', () => {
  it('refuses bad cleanup settings with INVALID_CONFIG and changes nothing', () => {
    const { apps } = demo();
    const before = orders(apps);
    const actions = apps.actions.length;
    const bad: Record<string, string>[] = [
      { 'retention.ms': 'soon' },
      { 'retention.bytes': '-2' },
      { 'retention.bytes': '1.5' },
      { 'cleanup.policy': 'shred' },
      { 'cleanup.policy': 'compact,compact' },
      // Only the cleanup keys: the rest of the topic's config is not the page's to change.
      { 'segment.bytes': '100' },
      { 'retention.ms': '1000', 'min.insync.replicas': '3' },
      {},
    ];
    for (const configs of bad) {
      let code: string | null = null;
      try {
        apps.apply({ op: 'alterTopicConfig', topic: 'orders', configs });
      } catch (e) {
        code = isKafkaError(e) ? e.code : 'not a KafkaError';
      }
      expect(code, JSON.stringify(configs)).toBe('INVALID_CONFIG');
    }
    expect(() => apps.apply({ op: 'alterTopicConfig', topic: 'nope', configs: { 'retention.ms': '1' } })).toThrow(
      /does not exist/,
    );
    expect(apps.actions.length).toBe(actions);
    const after = orders(apps);
    expect(after?.retentionMs).toBe(before?.retentionMs);
    expect(after?.retentionBytes).toBe(-1);
    expect(after?.cleanupPolicy).toBe('delete');
  });

  it('retention.bytes deletes the oldest segments; the view names the files, the reason and the new log start', () => {
    const { apps, data } = demo();
    // Several 64 KiB segments per partition (a produce action sends at most 10,000).
    for (let i = 0; i < 3; i++) apps.apply({ op: 'produceDemoRecords', topic: 'orders', count: 8000 });
    apps.tick(3000);
    const before = data.views().find((v) => v.partition === 0);
    expect(before?.lastCleanup).toBeNull();
    expect(before?.segmentCount).toBeGreaterThanOrEqual(2);
    const old = before?.segments ?? [];
    const signature = data.signature();

    apps.apply({ op: 'alterTopicConfig', topic: 'orders', configs: { 'retention.bytes': '1000' } });
    expect(orders(apps)?.retentionBytes).toBe(1000);
    // The retention check runs every log.retention.check.interval.ms.
    apps.tick(DEMO_BROKER_CONFIG['log.retention.check.interval.ms'] + 100);
    const v = data.views().find((x) => x.partition === 0);
    const c = v?.lastCleanup;
    if (c?.kind !== 'retention') throw new Error(`expected a retention cleanup, got ${JSON.stringify(c)}`);
    expect(c.broker).toBe(v?.leader);
    // Every closed segment below the high watermark goes (1000 bytes is less than any of them);
    // the active one stays, and the log now starts at its base offset.
    const closed = old.filter((s) => !s.active);
    expect(c.deleted.map((d) => d.name)).toEqual(closed.map((s) => s.files[0]?.name));
    expect(c.deleted[0]?.name).toBe('00000000000000000000.log');
    expect(c.deleted.map((d) => [d.baseOffset, d.nextOffset])).toEqual(closed.map((s) => [s.baseOffset, s.nextOffset]));
    expect(c.deleted.map((d) => d.bytes)).toEqual(closed.map((s) => s.files[0]?.bytes));
    expect(new Set(c.deleted.map((d) => d.reason))).toEqual(new Set(['retention.bytes']));
    expect(c.logStartOffset).toBe(v?.logStartOffset);
    expect(v?.logStartOffset).toBe(old.find((s) => s.active)?.baseOffset);
    expect(v?.segments.map((s) => s.baseOffset)).toEqual([v?.logStartOffset]);
    // The page is sent a new view because the cleanup changed.
    expect(data.signature()).not.toBe(signature);
  });

  it('retention.ms deletes segments whose newest record is older than the limit', () => {
    const { apps, data } = demo();
    // Several 64 KiB segments per partition (a produce action sends at most 10,000).
    for (let i = 0; i < 3; i++) apps.apply({ op: 'produceDemoRecords', topic: 'orders', count: 8000 });
    apps.tick(3000);
    apps.tick(20_000);
    apps.apply({ op: 'alterTopicConfig', topic: 'orders', configs: { 'retention.ms': '10000' } });
    apps.tick(2100);
    const c = data.views().find((x) => x.partition === 1)?.lastCleanup;
    if (c?.kind !== 'retention') throw new Error(`expected a retention cleanup, got ${JSON.stringify(c)}`);
    expect(c.deleted.length).toBeGreaterThan(0);
    expect(new Set(c.deleted.map((d) => d.reason))).toEqual(new Set(['retention.ms']));
  });

  it('cleanup.policy=compact: the log cleaner removes superseded records and the view says how many', () => {
    const { apps, data } = demo();
    // 24 keys (user-0 .. user-23) over 6 partitions: each key is written hundreds of times.
    // Several 64 KiB segments per partition (a produce action sends at most 10,000).
    for (let i = 0; i < 3; i++) apps.apply({ op: 'produceDemoRecords', topic: 'orders', count: 8000 });
    apps.tick(3000);
    const before = data.views().find((x) => x.partition === 2);
    apps.apply({ op: 'alterTopicConfig', topic: 'orders', configs: { 'cleanup.policy': 'compact' } });
    expect(orders(apps)?.cleanupPolicy).toBe('compact');
    apps.tick(DEMO_BROKER_CONFIG['log.cleaner.backoff.ms'] + 100);
    const v = data.views().find((x) => x.partition === 2);
    const c = v?.lastCleanup;
    if (c?.kind !== 'compaction') throw new Error(`expected a compaction, got ${JSON.stringify(c)}`);
    expect(c.broker).toBe(v?.leader);
    expect(c.recordsSuperseded).toBeGreaterThan(0);
    expect(c.bytesAfter).toBeLessThan(c.bytesBefore);
    expect(c.segments.length).toBeGreaterThan(0);
    // The cleaned segments are in the log under those base offsets; the log end did not move back.
    for (const base of c.segments) expect(v?.segments.some((s) => s.baseOffset === base)).toBe(true);
    expect(v?.logEndOffset).toBeGreaterThanOrEqual(before?.logEndOffset as number);
  });

  it('the action replays from a scenario', () => {
    const { apps } = demo();
    apps.apply({ op: 'alterTopicConfig', topic: 'orders', configs: { 'retention.bytes': ' 5000 ' } });
    expect(apps.actions.at(-1)?.action).toEqual({
      op: 'alterTopicConfig',
      topic: 'orders',
      configs: { 'retention.bytes': ' 5000 ' },
    });
    const again = ClusterApps.fromScenario(
      { seed: 1, preset: 'demo', actions: [...apps.actions], untilMs: 10 },
      { store: new MemoryStore() },
    );
    expect(orders(again)?.retentionBytes).toBe(5000);
  });

  it('a restart from the Store keeps the config changes of the preset topics (/config/topics survives, as in ZooKeeper)', async () => {
    const store = new MemoryStore();
    const writer = new StoreWriter(store);
    const clock = new ManualClock(SCENARIO_EPOCH_MS);
    const apps = new ClusterApps(1, 'demo', { store, clock, writer });
    apps.apply({ op: 'alterTopicConfig', topic: 'orders', configs: { 'retention.bytes': '4000' } });
    apps.apply({ op: 'alterTopicConfig', topic: 'orders', configs: { 'cleanup.policy': 'compact' } });
    await writer.settled();
    // A preset built afresh has the creation configs: what comes back is the Store's, not the preset's.
    expect(orders(new ClusterApps(1, 'demo', { store: new MemoryStore() }))?.retentionBytes).toBe(-1);
    const again = new ManualClock(clock.now());
    const stored = await readStoredCluster(store, {
      clock: again,
      writer: new StoreWriter(store),
      topicDefaults: DEMO_TOPIC_DEFAULTS,
    });
    const restarted = new ClusterApps(1, 'demo', { store, clock: again, restart: { stored, actions: apps.actions } });
    expect(orders(restarted)?.retentionBytes).toBe(4000);
    expect(orders(restarted)?.cleanupPolicy).toBe('compact');
  });
});
