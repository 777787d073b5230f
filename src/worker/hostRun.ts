/** The host's live run: the cluster and everything the worker keeps beside it. */
import { DataPath, ManualClock, type Store, type StoredCluster, StoreWriter, type UnifiedLog } from '../engine';
import { isClearable } from '../storage/openBestStore';
import { ClusterApps, type PresetName, type ProducerApp, SCENARIO_EPOCH_MS, type ScenarioSpec } from '../engine/apps';

/** The cluster a page opens when nothing is stored and no link says otherwise. */
export const DEFAULT_SEED = 1;
export const DEFAULT_PRESET: PresetName = 'demo';

export interface Running {
  store: Store;
  writer: StoreWriter;
  clock: ManualClock;
  apps: ClusterApps;
  data: DataPath;
  producer: ProducerApp;
  recovered: Map<string, UnifiedLog>;
  /** Topics the preset creates (a scenario check does not count them as the user's). */
  presetTopics: ReadonlySet<string>;
  /** Records sent from the producer panel (one by one or as jobs): no replay brings them back. */
  userRecords: number;
}

/** What a run is built from. */
export interface RunOptions {
  store: Store;
  spec: ScenarioSpec;
  /** A scenario opened anew: its actions (or its run time) are replayed from the start. */
  fresh: boolean;
  /** The run's clock; a new one at the scenario's start when absent. */
  clock?: ManualClock;
  /** The store's one writer; a new one when absent. */
  writer?: StoreWriter;
  /** What a restart found in the store (znodes, recovered logs). */
  stored?: StoredCluster;
  /** The Node host's own cluster, run as it is. */
  hostedApps?: ClusterApps;
}

/**
 * A run of `spec` on `store`: its clock, one writer for everything written to the store, and the
 * cluster (a fresh scenario replayed, the preset, the logs and znodes a restart found, or the Node
 * host's own cluster).
 */
export function newRunning({
  store,
  spec,
  fresh,
  clock,
  writer = new StoreWriter(store),
  stored,
  hostedApps,
}: RunOptions): Running {
  const c = clock ?? new ManualClock(SCENARIO_EPOCH_MS);
  const recovered = stored?.logs ?? new Map<string, UnifiedLog>();
  // One writer for everything written to this store (segments, checkpoints, znodes, metadata):
  // one sequence, so a log's durable offset also covers the metadata written before it.
  const storage = {
    store,
    recoveredLogs: recovered,
    clock: c,
    writer,
    panelProducer: true,
    // Without znodes (a store saved before they were kept) only the logs can be reused.
    ...(stored && stored.znodes.length > 0 ? { restart: { stored, actions: spec.actions } } : {}),
  };
  const apps =
    hostedApps ??
    (fresh && (spec.actions.length > 0 || spec.untilMs > 0)
      ? ClusterApps.fromScenario(spec, storage)
      : new ClusterApps(spec.seed, spec.preset as PresetName, storage));
  const data = new DataPath(apps.engine, recovered);
  const producer = apps.requirePanel();
  // A link that replayed the panel's records counts them as the page's own.
  const userRecords = spec.actions.reduce(
    (n, { action: a }) => n + (a.op === 'produceRecord' ? 1 : a.op === 'produceRecords' ? a.count : 0),
    0,
  );
  return {
    store,
    writer,
    clock: c,
    apps,
    data,
    producer,
    recovered,
    presetTopics: apps.presetTopics,
    userRecords,
  };
}

/** Deletes every file of the store (a reset, a replay on a wiped store). */
export async function wipe(store: Store): Promise<void> {
  if (isClearable(store)) await store.clear();
  else for (const path of await store.list('')) await store.delete(path);
}

/** What the page is shown: the live run, or a replay of its past (read-only, in memory). */
export type Shown = Pick<Running, 'apps' | 'data'>;
