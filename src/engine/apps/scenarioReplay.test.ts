import { describe, expect, it } from 'vitest';
import { DataPath, isKafkaError, recordWindow } from '../index';
import { MapStore } from '../log/testSupport';
import { ClusterApps } from './ClusterApps';
import type { ScenarioSpec } from './types';
import { TimeMachine } from './travel/TimeMachine';

/**
 * A scenario link must replay what the panel's producer did: the records land where Kafka's
 * producer puts them (KafkaProducer.send -> BuiltInPartitioner: murmur2 for keys, sticky or
 * round-robin otherwise; RecordAccumulator batching by linger.ms and batch.size) and the leader
 * gives them offsets (UnifiedLog.appendAsLeader). All of that is deterministic given the seed
 * and the command times, so replaying the recorded commands in a fresh engine must give the same
 * log end offsets, high watermarks and records.
 */
function fresh(seed = 3): ClusterApps {
  return new ClusterApps(seed, 'demo', { store: new MapStore(), panelProducer: true });
}

function logs(apps: ClusterApps) {
  const data = new DataPath(apps.engine, new Map());
  const views = data.views().map((v) => ({
    topic: v.topic,
    partition: v.partition,
    leo: v.logEndOffset,
    hw: v.highWatermark,
    logStart: v.logStartOffset,
    segments: v.segments.map((s) => s.baseOffset),
  }));
  const windows = data.topics().flatMap((t) =>
    Array.from({ length: data.partitionCount(t) }, (_, p) => {
      const w = recordWindow(t, p, data.log(t, p), { topic: t, partition: p, from: 0, count: 500 });
      return w.records.map((r) => [r.offset, r.key, r.value]);
    }),
  );
  return { views, windows };
}

/** Drives the panel the way the page does: one record, settings, a Send N job in slices, configs. */
function drive(apps: ClusterApps): void {
  apps.apply({ op: 'createTopic', name: 'clicks', partitions: 3, replicationFactor: 2, startIndex: null });
  apps.tick(300);
  apps.apply({ op: 'produceRecord', topic: 'clicks', key: 'alice', value: 'hello', headers: [] });
  apps.apply({ op: 'produceRecord', topic: 'clicks', key: null, value: 'no key', headers: [{ key: 'h', value: 'v' }] });
  apps.tick(40);
  apps.apply({ op: 'configureProducer', settings: { 'linger.ms': 20, partitioner: 'round-robin' } });
  apps.tick(10);
  // A Send N job: a few slices per engine instant, engine time passing between instants.
  for (let slice = 0; slice < 12; slice++) {
    const from = slice * 25;
    apps.apply({ op: 'produceRecords', topic: 'clicks', from, count: 25, keyPrefix: null, valueBytes: 40 });
    if (slice % 3 === 2) apps.tick(5 + slice);
  }
  apps.apply({ op: 'alterTopicConfig', topic: 'clicks', configs: { 'retention.ms': '600000' } });
  apps.tick(700);
  apps.apply({ op: 'produceRecords', topic: 'clicks', from: 0, count: 30, keyPrefix: 'k', valueBytes: 8 });
  apps.tick(1500);
}

describe('a scenario replays the panel producer (ClusterApps.apply records produceRecord, produceRecords, configureProducer)', () => {
  it('replays to the same offsets, high watermarks, records and board in a fresh engine', () => {
    const live = fresh();
    drive(live);
    const spec = live.scenario();
    expect(spec.actions.map((a) => a.action.op)).toContain('produceRecord');
    const before = logs(live);
    // The records did arrive: 2 + 300 + 30 on clicks (the demo's own producer writes to orders).
    const total = before.views.filter((v) => v.topic === 'clicks').reduce((n, v) => n + v.leo, 0);
    expect(total).toBe(332);
    // Through a link: the JSON round trip a URL gives it.
    const replayed = ClusterApps.fromScenario(JSON.parse(JSON.stringify(spec)) as ScenarioSpec, {
      store: new MapStore(),
      panelProducer: true,
    });
    expect(logs(replayed)).toEqual(before);
    const strip = <T extends { version: number }>(v: T) => ({ ...v, version: 0 });
    expect(strip(replayed.view())).toEqual(strip(live.view()));
  });

  it('a Send N job is recorded as one command, its slices (engine instants and records) folded into it', () => {
    const apps = fresh();
    apps.tick(300);
    const at = apps.nowMs;
    for (let i = 0; i < 4; i++)
      apps.apply({ op: 'produceRecords', topic: 'orders', from: i * 10, count: 10, keyPrefix: null, valueBytes: 1 });
    apps.tick(5);
    apps.apply({ op: 'produceRecords', topic: 'orders', from: 40, count: 10, keyPrefix: null, valueBytes: 1 });
    const sends = apps.actions.filter((a) => a.action.op === 'produceRecords');
    expect(sends).toEqual([
      {
        at,
        action: { op: 'produceRecords', topic: 'orders', from: 0, count: 50, keyPrefix: null, valueBytes: 1 },
        slices: [0, 40, 5, 10],
      },
    ]);
  });

  it('a long Send N job replays slice by slice, through a link and through time travel, to the same records', () => {
    const live = fresh();
    live.apply({ op: 'createTopic', name: 'bulk', partitions: 2, replicationFactor: 2, startIndex: null });
    live.tick(300);
    // 600 slices at 600 engine instants (a 10 s job at 60 frames a second), a broker killed midway.
    // Time travel builds its replicas while the job's action still grows (the live run records on).
    const machine = new TimeMachine(() => live, { newStore: () => new MapStore(), everyMs: 2000 });
    let midJob: { atMs: number; logs: ReturnType<typeof logs> } | null = null;
    for (let slice = 0; slice < 600; slice++) {
      live.apply({ op: 'produceRecords', topic: 'bulk', from: slice * 8, count: 8, keyPrefix: 'k', valueBytes: 20 });
      if (slice === 300) live.apply({ op: 'killBroker', broker: 2 });
      if (slice === 450) midJob = { atMs: live.nowMs, logs: logs(live) };
      live.tick(16);
      machine.work(live.nowMs, 50);
    }
    live.tick(2000);
    // Two actions for the job (the kill split it), not 600: the scenario is never capped.
    expect(live.actions.map((a) => [a.action.op, a.slices?.length ?? 0])).toEqual([
      ['createTopic', 0],
      ['produceRecords', 602],
      ['killBroker', 0],
      ['produceRecords', 598],
    ]);
    const replayed = ClusterApps.fromScenario(JSON.parse(JSON.stringify(live.scenario())) as ScenarioSpec, {
      store: new MapStore(),
      panelProducer: true,
    });
    expect(logs(replayed)).toEqual(logs(live));
    const past = machine.seek(midJob?.atMs ?? 0);
    expect(logs(past)).toEqual(midJob?.logs);
  });

  it('refuses a produce to a missing topic and a bad acks, recording nothing', () => {
    const apps = fresh();
    const refused = (f: () => void) => {
      try {
        f();
      } catch (e) {
        return isKafkaError(e) ? e.code : 'not a KafkaError';
      }
      return 'accepted';
    };
    expect(refused(() => apps.apply({ op: 'produceRecord', topic: 'nope', key: null, value: 'x', headers: [] }))).toBe(
      'UNKNOWN_TOPIC_OR_PARTITION',
    );
    expect(refused(() => apps.apply({ op: 'configureProducer', settings: { acks: '2' as '1' } }))).toBe(
      'INVALID_CONFIG',
    );
    // Settings the panel already has change nothing and are not recorded.
    apps.apply({ op: 'configureProducer', settings: { acks: 'all' } });
    expect(apps.actions).toEqual([]);
  });
});
