/**
 * One replay of the run: a fresh ClusterApps on its own Store (never the live run's files), moved
 * forward through the scenario's recorded actions, each applied at its engine time, exactly as
 * `ClusterApps.fromScenario` replays a link. The engine is deterministic (seeded Rng, injected
 * clock), so a replica at time t is the cluster the live run was at t.
 *
 * It only moves forward: an engine holds closures and live objects and cannot be copied, so an
 * earlier moment needs another replica.
 */
import type { Store } from '../../index';
import { ClusterApps } from '../ClusterApps';
import { ActionCursor } from '../jobSlices';
import type { PresetName, TimedAction } from '../types';

export interface ReplaySource {
  seed: number;
  preset: PresetName;
  /** The run's recorded actions, in engine-time order (ClusterApps.actions). */
  actions: readonly TimedAction[];
}

export class Replica {
  readonly apps: ClusterApps;
  /** Where the replay is in the source's actions (a Send N job's slices one by one). */
  private readonly cursor = new ActionCursor();

  constructor(
    source: ReplaySource,
    private readonly store: Store & { readonly sizeBytes?: number },
  ) {
    this.apps = new ClusterApps(source.seed, source.preset, { store, panelProducer: true });
  }

  /** The memory this replay holds: its files (a MemoryStore's bytes) and the segments its engine keeps resident. */
  get bytes(): number {
    return (this.store.sizeBytes ?? 0) + this.apps.engine.segmentCache.residentBytes;
  }

  /** Engine ms since the scenario started. */
  get nowMs(): number {
    return this.apps.nowMs;
  }

  /**
   * Runs to `toMs`, applying every action stamped at or before it on the way. An action the live
   * run accepted is accepted here too (same state, same checks), so none can throw.
   */
  advanceTo(toMs: number, actions: readonly TimedAction[]): void {
    for (let t = this.cursor.next(actions, toMs); t; t = this.cursor.next(actions, toMs)) {
      this.apps.runTo(t.at);
      this.apps.apply(t.action);
    }
    this.apps.runTo(toMs);
    // Nobody animates a replay: drop what the page would have been sent.
    this.apps.takeEvents();
  }
}
