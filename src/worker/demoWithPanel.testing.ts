/** For worker tests: the demo preset run on a given Store, as the host starts one. */
import { ManualClock, type Store, StoreWriter } from '../engine';
import { ClusterApps } from '../engine/apps';
import { SCENARIO_EPOCH_MS } from '../engine/apps/scenarioTime';

/** The demo preset (seed 1) on `store` at the scenario's start: one writer, the panel's producer on. */
export function demoWithPanel(store: Store): { clock: ManualClock; writer: StoreWriter; apps: ClusterApps } {
  const clock = new ManualClock(SCENARIO_EPOCH_MS);
  const writer = new StoreWriter(store);
  return { clock, writer, apps: new ClusterApps(1, 'demo', { store, clock, writer, panelProducer: true }) };
}
