/**
 * `meta/cluster.json`: the one file the worker writes itself. It links the stored cluster to the
 * scenario it came from (seed, preset, the actions taken so far: the page's link) and keeps the
 * engine clock. The cluster itself (topics, configs, partition states, reassignments, records,
 * committed offsets) is in the znodes under `zookeeper/` and the brokers' log dirs, which a reload
 * restarts from (readStoredCluster); nothing in this file is replayed as cluster state.
 */
import type { StoreWriter, Store } from '../index';
import { currentTimedAction } from './legacyActionOps';
import type { TimedAction } from './types';

export const CLUSTER_META_PATH = 'meta/cluster.json';

export interface ClusterMeta {
  /** 2 since the cluster is kept in znodes; a version-1 file also listed user topics (ignored). */
  version: 1 | 2;
  seed: number;
  preset: string;
  /** The board's actions so far (already reflected in the files; kept for the page's link). */
  actions: TimedAction[];
  /** Engine clock when last saved. */
  nowMs: number;
  /**
   * Records sent from the producer panel so far: data no scenario replay brings back, so
   * replacing the cluster asks first. Absent in files written before it was counted (unknown).
   */
  userRecords?: number;
}

export async function readClusterMeta(store: Store): Promise<ClusterMeta | null> {
  const raw = await store.read(CLUSTER_META_PATH);
  if (!raw) return null;
  const meta = JSON.parse(new TextDecoder().decode(raw)) as ClusterMeta;
  if ((meta.version !== 1 && meta.version !== 2) || typeof meta.seed !== 'number')
    throw new Error(`${CLUSTER_META_PATH} is not a glassbox cluster file`);
  // Written before the actions took the engine's words: read in today's.
  if (Array.isArray(meta.actions)) meta.actions = meta.actions.map(currentTimedAction);
  return meta;
}

export function writeClusterMeta(writer: StoreWriter, meta: ClusterMeta): void {
  writer.submit({ op: 'write', path: CLUSTER_META_PATH, bytes: new TextEncoder().encode(JSON.stringify(meta)) });
}
