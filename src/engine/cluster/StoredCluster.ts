import type { Clock } from '../Clock';
import type { LogRecoveryReport } from '../log/LogLoader';
import { UnifiedLog } from '../log/UnifiedLog';
import type { StoreWriter } from '../log/StoreWriter';
import type { Store } from '../Store';
import { parseReplicationOffsetCheckpoint } from './checkpoint';
import type { ZnodeSnapshot } from './CoordinationStore';
import { logConfigOf } from './PartitionLogReplica';
import { createTopicConfig, type TopicConfigOverrides } from './TopicConfig';
import { readStoredZnodes } from './ZnodeFiles';

/**
 * What a ZooKeeper-mode cluster finds on its disks when it restarts: the persistent znodes
 * (topics and assignments, /config/topics, partition states, /controller_epoch,
 * /admin/reassign_partitions, /latest_producer_id_block) and every broker's log dirs (segments,
 * leader-epoch-checkpoint, replication-offset-checkpoint). Committed consumer offsets are records
 * of `__consumer_offsets`, so they come back with its logs.
 */
export interface StoredCluster {
  znodes: ZnodeSnapshot[];
  /** Recovered replica logs by replica directory (`broker-<id><log.dir>/<topic>-<partition>`). */
  logs: Map<string, UnifiedLog>;
  /** Each log dir's replication-offset-checkpoint (`broker-<id><log.dir>` -> `<topic>-<p>` -> HW). */
  highWatermarks: Map<string, Map<string, number>>;
  /** Each log dir's cleaner-offset-checkpoint text (`broker-<id><log.dir>` -> file text). */
  cleanerCheckpoints: Map<string, string>;
  /** What recovery did to each replica directory, in directory order. */
  reports: { dir: string; report: LogRecoveryReport }[];
}

/** A replica directory: `broker-<id>/<log dir...>/<topic>-<partition>`, and the file in it. */
const REPLICA_FILE = /^((broker-\d+\/.*)\/([A-Za-z0-9._-]+)-(\d+))\/[^/]+$/;
const CHECKPOINT = /^(broker-\d+\/.*)\/replication-offset-checkpoint$/;
const CLEANER_CHECKPOINT = /^(broker-\d+\/.*)\/cleaner-offset-checkpoint$/;

/**
 * Reads the znodes, then recovers every replica directory the way a broker's LogManager does at
 * startup (UnifiedLog.load: CRC and length checks, a torn tail truncated, indexes rebuilt), each
 * with its topic's log config as /config/topics says over `topicDefaults`, then the high-watermark
 * checkpoints. Nothing is rewritten but what recovery itself repairs.
 */
export async function readStoredCluster(
  store: Store,
  options: { clock: Clock; writer: StoreWriter; topicDefaults?: TopicConfigOverrides },
): Promise<StoredCluster> {
  const znodes = await readStoredZnodes(store);
  const overrides = new Map<string, TopicConfigOverrides>();
  for (const n of znodes) {
    if (!n.path.startsWith('/config/topics/')) continue;
    const config = (n.data as { config?: TopicConfigOverrides } | null)?.config ?? {};
    overrides.set(n.path.slice('/config/topics/'.length), config);
  }
  const dirs = new Map<string, string>();
  const checkpoints: string[] = [];
  const cleanerCheckpointPaths: string[] = [];
  for (const path of await store.list('broker-')) {
    const m = REPLICA_FILE.exec(path);
    if (m) dirs.set(m[1] as string, m[3] as string);
    if (CHECKPOINT.test(path)) checkpoints.push(path);
    if (CLEANER_CHECKPOINT.test(path)) cleanerCheckpointPaths.push(path);
  }
  const logs = new Map<string, UnifiedLog>();
  const reports: StoredCluster['reports'] = [];
  for (const [dir, topic] of [...dirs].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const config = logConfigOf(createTopicConfig(overrides.get(topic) ?? {}, options.topicDefaults ?? {}));
    const { log, report } = await UnifiedLog.load(store, dir, config, options.clock, options.writer);
    logs.set(dir, log);
    reports.push({ dir, report });
  }
  const highWatermarks = new Map<string, Map<string, number>>();
  for (const path of checkpoints) {
    const bytes = await store.read(path);
    const logDir = (CHECKPOINT.exec(path) as RegExpExecArray)[1] as string;
    highWatermarks.set(logDir, parseReplicationOffsetCheckpoint(new TextDecoder().decode(bytes ?? new Uint8Array())));
  }
  const cleanerCheckpoints = new Map<string, string>();
  for (const path of cleanerCheckpointPaths) {
    const bytes = await store.read(path);
    if (bytes)
      cleanerCheckpoints.set(
        (CLEANER_CHECKPOINT.exec(path) as RegExpExecArray)[1] as string,
        new TextDecoder().decode(bytes),
      );
  }
  return { znodes, logs, highWatermarks, cleanerCheckpoints, reports };
}
