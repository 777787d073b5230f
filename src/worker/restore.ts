/**
 * A reload is a cluster restart. The engine's brokers keep each replica under
 * `broker-<id><log.dir>/<topic>-<partition>/` in the Store; at start-up every such directory is
 * recovered the way a broker recovers its logs (PartitionLog.load: CRC and length checks, a torn
 * tail truncated, indexes rebuilt), and the engine is started on those logs (recoveredLogs).
 *
 * Beside the segment files, `meta/cluster.json` records what the files cannot say: the scenario
 * the cluster came from (seed, preset, the actions taken so far), the topics created after the
 * preset (name and replica assignment), and the engine clock. Nothing in it is replayed as data:
 * records come back only from segment files.
 */
import {
  type ManualClock,
  type LogConfigInput,
  PartitionLog,
  type StoreWriter,
  type Store,
  recoveryView,
} from '../engine';
import type { TimedAction } from '../engine/apps';
import type { RecoveryView } from './protocol';

export const CLUSTER_META_PATH = 'meta/cluster.json';

export interface StoredTopic {
  name: string;
  assignment: number[][];
  configs: Record<string, string | number | boolean | string[] | null>;
}

export interface ClusterMeta {
  version: 1;
  seed: number;
  preset: string;
  /** The control plane's actions so far (already reflected in the files; kept for the page's link). */
  actions: TimedAction[];
  /** Topics the preset does not create (made by the user, the seeds' lookup example, imports). */
  topics: StoredTopic[];
  /** Engine clock when last saved. */
  nowMs: number;
  /**
   * Records sent from the producer panel so far: data no scenario replay brings back, so
   * replacing the cluster asks first. Absent in files written before it was counted (unknown).
   */
  userRecords?: number;
}

/** A replica directory: `broker-<id>/<log dir...>/<topic>-<partition>`. */
const REPLICA_DIR = /^(broker-\d+\/.*\/[A-Za-z0-9._-]+-\d+)\/[^/]+$/;

export async function readClusterMeta(store: Store): Promise<ClusterMeta | null> {
  const raw = await store.read(CLUSTER_META_PATH);
  if (!raw) return null;
  const meta = JSON.parse(new TextDecoder().decode(raw)) as ClusterMeta;
  if (meta.version !== 1 || typeof meta.seed !== 'number')
    throw new Error(`${CLUSTER_META_PATH} is not a glassbox cluster file`);
  return meta;
}

export function writeClusterMeta(writer: StoreWriter, meta: ClusterMeta): void {
  writer.submit({ op: 'write', path: CLUSTER_META_PATH, bytes: new TextEncoder().encode(JSON.stringify(meta)) });
}

/**
 * Recovers every replica directory in the Store. Returns the logs by directory (for the engine's
 * recoveredLogs) and one report per partition directory of a user topic.
 */
export async function recoverReplicaLogs(
  store: Store,
  clock: ManualClock,
  configFor: (topic: string) => LogConfigInput,
  writer: StoreWriter,
): Promise<{ logs: Map<string, PartitionLog>; reports: RecoveryView[] }> {
  const dirs = new Set<string>();
  for (const path of await store.list('broker-')) {
    const m = REPLICA_DIR.exec(path);
    if (m) dirs.add(m[1] as string);
  }
  const logs = new Map<string, PartitionLog>();
  const reports: RecoveryView[] = [];
  for (const dir of [...dirs].sort()) {
    const topic = (dir.slice(dir.lastIndexOf('/') + 1).match(/^(.*)-\d+$/)?.[1] ?? '') as string;
    const { log, report } = await PartitionLog.load(store, dir, configFor(topic), clock, writer);
    logs.set(dir, log);
    if (!dir.includes('/__')) reports.push(recoveryView(dir, report));
  }
  return { logs, reports };
}
