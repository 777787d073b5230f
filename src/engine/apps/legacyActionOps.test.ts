import { describe, expect, it } from 'vitest';
import { MapStore } from '../log/testSupport';
import { StoreWriter } from '../index';
import { ClusterApps } from './ClusterApps';
import { readClusterMeta, writeClusterMeta } from './clusterMeta';
import { currentTimedAction } from './legacyActionOps';
import type { ScenarioSpec, TimedAction } from './types';

/** A run recorded before the actions took the engine's words (the link in scenarioLink.test.ts). */
const OLD_ACTIONS = [
  { at: 1000, action: { op: 'produce', topic: 'orders', count: 20 } },
  { at: 2000, action: { op: 'reassign', topic: 'orders', partition: 0, replicas: [3, 2, 1] } },
  { at: 9000, action: { op: 'preferredElection' } },
] as unknown as TimedAction[];

describe('actions recorded in the old words', () => {
  it('replay as they did: the orders produced, the partition reassigned, its preferred leader elected', () => {
    const spec: ScenarioSpec = {
      seed: 3,
      preset: 'demo',
      actions: OLD_ACTIONS.map(currentTimedAction),
      untilMs: 12_000,
    };
    expect(spec.actions.map((t) => t.action.op)).toEqual([
      'produceDemoRecords',
      'reassignPartitions',
      'electPreferredLeaders',
    ]);
    const apps = ClusterApps.fromScenario(spec, { store: new MapStore() });
    const orders0 = apps.view().topics.find((t) => t.name === 'orders')?.partitions[0];
    expect(orders0?.replicas).toEqual([3, 2, 1]);
    expect(orders0?.leader).toBe(3);
    expect(apps.producer.acked).toBeGreaterThanOrEqual(20);
    expect(apps.actions).toEqual(spec.actions);
  });

  it('come back from a stored run (meta/cluster.json) in today’s words', async () => {
    const store = new MapStore();
    const writer = new StoreWriter(store);
    writeClusterMeta(writer, { version: 2, seed: 3, preset: 'demo', actions: OLD_ACTIONS, nowMs: 0 });
    await writer.settled();
    const meta = await readClusterMeta(store);
    expect(meta?.actions.map((t) => t.action.op)).toEqual([
      'produceDemoRecords',
      'reassignPartitions',
      'electPreferredLeaders',
    ]);
  });
});
