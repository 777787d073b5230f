import { describe, expect, it } from 'vitest';
import { MapStore } from '../log/testSupport';
import { ClusterApps } from './ClusterApps';
import { SCENARIO_EPOCH_MS, toEngineMs, toScenarioMs } from './scenarioTime';

describe('the scenario time base', () => {
  it('converts the engine clock to ms since the scenario started and back', () => {
    expect(toScenarioMs(SCENARIO_EPOCH_MS)).toBe(0);
    expect(toScenarioMs(toEngineMs(12_345))).toBe(12_345);
    expect(toEngineMs(0)).toBe(SCENARIO_EPOCH_MS);
  });

  it('is the time a cluster reports: its view and nowMs are the engine clock converted here', () => {
    const apps = new ClusterApps(1, 'demo', { store: new MapStore() });
    const start = apps.nowMs;
    // The preset's setup runs a few hundred engine ms on a clock that started at the epoch.
    expect(start).toBeGreaterThanOrEqual(0);
    expect(start).toBeLessThan(5_000);
    apps.tick(1_500);
    expect(apps.view().nowMs).toBe(start + 1_500);
    expect(apps.nowMs).toBe(toScenarioMs(apps.engine.now()));
    expect(apps.engine.now()).toBe(toEngineMs(start + 1_500));
    apps.dispose();
  });
});
