import type { Clock } from '../Clock';
import {
  CLEAN_SHUTDOWN_FILENAME,
  LOG_START_OFFSET_CHECKPOINT_FILENAME,
  RECOVERY_POINT_CHECKPOINT_FILENAME,
} from '../log/LogFileUtils';
import type { LoadParams, LogRecoveryReport } from '../log/LogLoader';
import { UnifiedLog } from '../log/UnifiedLog';
import type { StoreWriter } from '../log/StoreWriter';
import type { Store } from '../Store';
import { parseOffsetCheckpoint, parseReplicationOffsetCheckpoint } from './checkpoint';
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
/** A log dir's own files: its recovery points, log start offsets and clean-shutdown marker. */
const LOG_DIR_FILE =
  /^(broker-\d+\/.*)\/(recovery-point-offset-checkpoint|log-start-offset-checkpoint|\.kafka_cleanshutdown)$/;

/**
 * Partition directories loaded at once (Kafka's num.recovery.threads.per.data.dir, default 1, runs
 * a thread pool per log dir; here the Store's reads overlap while the engine's own work is one
 * thread's).
 */
const LOAD_CONCURRENCY = 32;

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
  const dirs = new Map<string, { topic: string; logDir: string; name: string; files: string[] }>();
  const checkpoints: string[] = [];
  const cleanerCheckpointPaths: string[] = [];
  const logDirFiles: [string, string][] = [];
  for (const path of await store.list('broker-')) {
    const m = REPLICA_FILE.exec(path);
    if (m) {
      const dir = m[1] as string;
      const logDir = m[2] as string;
      const known = dirs.get(dir);
      if (known) known.files.push(path);
      else dirs.set(dir, { topic: m[3] as string, logDir, name: dir.slice(logDir.length + 1), files: [path] });
    }
    if (CHECKPOINT.test(path)) checkpoints.push(path);
    if (CLEANER_CHECKPOINT.test(path)) cleanerCheckpointPaths.push(path);
    const own = LOG_DIR_FILE.exec(path);
    if (own) logDirFiles.push([own[1] as string, own[2] as string]);
  }
  const logDirs = await readLogDirFiles(store, logDirFiles);
  const sorted = [...dirs].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const loaded: { log: UnifiedLog; report: LogRecoveryReport }[] = new Array(sorted.length);
  let next = 0;
  const loadNext = async (): Promise<void> => {
    while (next < sorted.length) {
      const i = next++;
      const [dir, { topic, logDir, name, files: dirFiles }] = sorted[i] as (typeof sorted)[number];
      const config = logConfigOf(createTopicConfig(overrides.get(topic) ?? {}, options.topicDefaults ?? {}));
      const files = logDirs.get(logDir);
      const params: LoadParams = {
        hadCleanShutdown: files?.cleanShutdown ?? false,
        recoveryPoint: files?.recoveryPoints.get(name) ?? 0,
        logStartOffset: files?.logStartOffsets.get(name) ?? 0,
        files: dirFiles,
      };
      loaded[i] = await UnifiedLog.load(store, dir, config, options.clock, options.writer, params);
    }
  };
  await Promise.all(Array.from({ length: Math.min(LOAD_CONCURRENCY, sorted.length) }, loadNext));
  const logs = new Map<string, UnifiedLog>();
  const reports: StoredCluster['reports'] = [];
  sorted.forEach(([dir], i) => {
    const { log, report } = loaded[i] as { log: UnifiedLog; report: LogRecoveryReport };
    logs.set(dir, log);
    reports.push({ dir, report });
  });
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

/** What a log dir's own files say: a clean shutdown, each log's recovery point and log start offset. */
interface LogDirFiles {
  cleanShutdown: boolean;
  recoveryPoints: Map<string, number>;
  logStartOffsets: Map<string, number>;
}

async function readLogDirFiles(store: Store, files: [string, string][]): Promise<Map<string, LogDirFiles>> {
  const out = new Map<string, LogDirFiles>();
  const of = (logDir: string): LogDirFiles => {
    let f = out.get(logDir);
    if (!f) {
      f = { cleanShutdown: false, recoveryPoints: new Map(), logStartOffsets: new Map() };
      out.set(logDir, f);
    }
    return f;
  };
  await Promise.all(
    files.map(async ([logDir, name]) => {
      const f = of(logDir);
      if (name === CLEAN_SHUTDOWN_FILENAME) {
        f.cleanShutdown = true;
        return;
      }
      const text = new TextDecoder().decode((await store.read(`${logDir}/${name}`)) ?? new Uint8Array());
      const offsets = parseOffsetCheckpoint(text);
      if (name === RECOVERY_POINT_CHECKPOINT_FILENAME) f.recoveryPoints = offsets;
      else if (name === LOG_START_OFFSET_CHECKPOINT_FILENAME) f.logStartOffsets = offsets;
    }),
  );
  return out;
}
