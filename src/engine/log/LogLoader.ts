import type { Clock } from '../Clock';
import { CorruptSnapshotError, parseProducerSnapshotFileName, readProducerSnapshot } from '../codec/producerSnapshot';
import { KafkaError } from '../errors';
import type { Store } from '../Store';
import { FileRecords } from './FileRecords';
import { LeaderEpochFileCache } from './LeaderEpochFileCache';
import type { LogConfig } from './LogConfig';
import { LEADER_EPOCH_CHECKPOINT_FILENAME, logFileName, parseSegmentFileName } from './LogFileUtils';
import { LogSegment, type SegmentRecoveryResult } from './LogSegment';
import type { StoreWriter } from './StoreWriter';

/** How a stored index compared with the one rebuilt from the `.log`. */
export interface IndexRecoveryInfo {
  /** Entries in the stored file, or null when the file was missing. */
  storedEntries: number | null;
  rebuiltEntries: number;
  /** True when the stored file differed (or was missing) and was replaced by the rebuilt one. */
  rebuilt: boolean;
}

/** What loading did to one segment. */
export interface SegmentLoadReport extends SegmentRecoveryResult {
  baseOffset: number;
  logFileName: string;
  bytesRead: number;
  /** Whether Kafka's LogLoader recovers this segment (LogSegment.recover), or only opens it. */
  recovered: boolean;
  /** Why, in Kafka's terms: the clean shutdown, the recovery point, a missing or corrupt index. */
  recoveryReason: string;
  offsetIndex: IndexRecoveryInfo;
  timeIndex: IndexRecoveryInfo;
}

/** What loading a partition directory found and did — the UI shows this after a reload. */
export interface LogRecoveryReport {
  dir: string;
  segments: SegmentLoadReport[];
  /** Segments removed because an earlier segment had a corrupt tail (Kafka deletes everything after it). */
  deletedSegments: { baseOffset: number; logFileName: string; reason: string }[];
  /** Index files with no `.log` beside them, deleted. */
  strayFiles: string[];
  leaderEpochCheckpoint: 'loaded' | 'missing' | 'malformed';
  leaderEpochs: { epoch: number; startOffset: number }[];
  logStartOffset: number;
  logEndOffset: number;
  /** Whether the log dir held `.kafka_cleanshutdown` (no segment is recovered then). */
  hadCleanShutdown: boolean;
  /** The log's recovery-point-offset-checkpoint entry (0 when none), and the recovery point after loading. */
  recoveryPointCheckpoint: number;
  recoveryPoint: number;
}

/**
 * What a log dir tells a log's loading (Kafka's LogManager.loadLog): whether the broker shut down
 * cleanly, and the log's recovery point and log start offset from the dir's checkpoints.
 */
export interface LoadParams {
  hadCleanShutdown: boolean;
  /** recovery-point-offset-checkpoint's entry (0 when none): segments wholly below it are not recovered. */
  recoveryPoint: number;
  /** log-start-offset-checkpoint's entry (0 when none). */
  logStartOffset: number;
  /**
   * The directory's file paths when the caller already listed them (a restart lists every log dir
   * once, as Kafka's LogManager walks each dir once); absent, the loader lists the directory.
   */
  files?: readonly string[];
}

/** What a segment that is only opened reports: no batch validated, nothing cut. */
const NOTHING_RECOVERED: SegmentRecoveryResult = {
  batchesValidated: 0,
  recordsValidated: 0,
  validBytes: 0,
  bytesTruncated: 0,
  truncationReason: null,
  truncatedAtPosition: null,
};

/** Nothing known of a clean shutdown or a recovery point: every segment is recovered. */
export const RECOVER_EVERYTHING: LoadParams = { hadCleanShutdown: false, recoveryPoint: 0, logStartOffset: 0 };

interface SegmentFiles {
  log?: string;
  index?: string;
  timeindex?: string;
}

/**
 * Loads `<dir>/` from the Store as Kafka's LogLoader does. Without a clean shutdown, the segments
 * from the one holding the recovery point on are recovered (LogLoader.recoverLog, LogSegment.recover):
 * each batch's length and CRC validated, the file truncated at a torn or corrupt batch, `.index`
 * and `.timeindex` rebuilt from the valid batches (replacing the stored ones where they differ),
 * and, once a segment had to be truncated, every later segment deleted. The others (all of them
 * after a clean shutdown) are only opened (LogSegment.sanityCheck): their stored indexes are used
 * as they are, unless one is missing or corrupt, which recovers that segment too.
 * Leader epochs come from `leader-epoch-checkpoint`, completed from the recovered batches' epochs
 * and cut to the log end offset.
 */
export async function loadSegments(
  store: Store,
  dir: string,
  config: LogConfig,
  clock: Clock,
  writer: StoreWriter,
  params: LoadParams = RECOVER_EVERYTHING,
): Promise<{
  segments: LogSegment[];
  epochs: LeaderEpochFileCache;
  report: LogRecoveryReport;
  checkpointText: string | null;
}> {
  const prefix = `${dir}/`;
  const paths = params.files ?? (await store.list(prefix));
  const byBase = new Map<number, SegmentFiles>();
  let checkpointPath: string | null = null;
  for (const path of paths) {
    const name = path.slice(prefix.length);
    if (name === LEADER_EPOCH_CHECKPOINT_FILENAME) checkpointPath = path;
    const parsed = parseSegmentFileName(name);
    if (!parsed) continue; // other files (snapshots, partition.metadata) are not the log's
    const files = byBase.get(parsed.baseOffset) ?? {};
    if (parsed.suffix === '.log') files.log = path;
    else if (parsed.suffix === '.index') files.index = path;
    else files.timeindex = path;
    byBase.set(parsed.baseOffset, files);
  }

  let epochs = new LeaderEpochFileCache();
  let checkpointState: LogRecoveryReport['leaderEpochCheckpoint'] = 'missing';
  if (checkpointPath) {
    const bytes = await store.read(checkpointPath);
    try {
      epochs = LeaderEpochFileCache.parse(new TextDecoder().decode(bytes ?? new Uint8Array(0)));
      checkpointState = 'loaded';
    } catch (e) {
      if (!(e instanceof KafkaError)) throw e;
      checkpointState = 'malformed';
    }
  }
  const checkpointText = checkpointState === 'loaded' ? epochs.serialize() : null;

  const report: LogRecoveryReport = {
    dir,
    segments: [],
    deletedSegments: [],
    strayFiles: [],
    leaderEpochCheckpoint: checkpointState,
    leaderEpochs: [],
    logStartOffset: 0,
    logEndOffset: 0,
    hadCleanShutdown: params.hadCleanShutdown,
    recoveryPointCheckpoint: params.recoveryPoint,
    recoveryPoint: params.recoveryPoint,
  };
  const segments: LogSegment[] = [];
  const now = clock.now();
  const bases = [...byBase.keys()].sort((a, b) => a - b);
  // LogSegments.values(recoveryPoint, ...): from the segment holding the recovery point on.
  let firstUnflushed = bases[0] ?? 0;
  for (const b of bases) if (b <= params.recoveryPoint && byBase.get(b)?.log) firstUnflushed = b;
  let corruptFrom: number | null = null;
  for (const base of bases) {
    const files = byBase.get(base) as SegmentFiles;
    if (!files.log) {
      for (const p of [files.index, files.timeindex]) {
        if (p) {
          report.strayFiles.push(p);
          writer.submit({ op: 'delete', path: p });
        }
      }
      continue;
    }
    if (corruptFrom !== null) {
      report.deletedSegments.push({
        baseOffset: base,
        logFileName: logFileName(base),
        reason: `segment ${logFileName(corruptFrom)} had a corrupt tail, so every later segment is deleted`,
      });
      for (const p of [files.log, files.index, files.timeindex]) if (p) writer.submit({ op: 'delete', path: p });
      continue;
    }
    const [logBytes, storedIndex, storedTimeIndex] = await Promise.all([
      store.read(files.log).then((b) => b ?? new Uint8Array(0)),
      files.index ? store.read(files.index) : null,
      files.timeindex ? store.read(files.timeindex) : null,
    ]);
    const seg = new LogSegment(
      base,
      config['index.interval.bytes'],
      config['segment.index.bytes'],
      now,
      FileRecords.of(logBytes),
    );
    let recoveryReason = params.hadCleanShutdown
      ? 'not recovered: the log dir held .kafka_cleanshutdown (a clean shutdown)'
      : base < firstUnflushed
        ? `not recovered: wholly below the recovery point ${params.recoveryPoint}`
        : `recovered: no clean shutdown, and it holds offsets at or past the recovery point ${params.recoveryPoint}`;
    // Opened as it is when nothing calls for recovery (and its indexes pass the sanity checks).
    const notOpen = recoveryReason.startsWith('recovered')
      ? recoveryReason
      : seg.openWithoutRecovery({ index: storedIndex, timeIndex: storedTimeIndex });
    let outcome: Pick<SegmentLoadReport, keyof SegmentRecoveryResult | 'offsetIndex' | 'timeIndex'>;
    if (notOpen === null) {
      outcome = {
        ...NOTHING_RECOVERED,
        validBytes: seg.size,
        offsetIndex: {
          storedEntries: seg.offsetIndex.entries,
          rebuiltEntries: seg.offsetIndex.entries,
          rebuilt: false,
        },
        timeIndex: {
          storedEntries: storedTimeIndex ? seg.timeIndex.entries : null,
          rebuiltEntries: seg.timeIndex.entries,
          rebuilt: false,
        },
      };
    } else {
      if (!recoveryReason.startsWith('recovered')) recoveryReason = `recovered: ${notOpen}`;
      const recovery = seg.recover(epochs);
      const offsetIndexSame = storedIndex !== null && seg.offsetIndex.equalsBytes(storedIndex);
      const timeIndexSame = storedTimeIndex !== null && seg.timeIndex.equalsBytes(storedTimeIndex);
      if (recovery.bytesTruncated > 0) {
        writer.submit({ op: 'truncate', path: files.log, size: recovery.validBytes });
        corruptFrom = base;
      }
      const indexPath = files.log.replace(/\.log$/, '.index');
      const timeIndexPath = files.log.replace(/\.log$/, '.timeindex');
      if (!offsetIndexSame) writer.submit({ op: 'write', path: indexPath, bytes: seg.offsetIndex.toBytes() });
      if (!timeIndexSame) writer.submit({ op: 'write', path: timeIndexPath, bytes: seg.timeIndex.toBytes() });
      outcome = {
        ...recovery,
        offsetIndex: {
          storedEntries: storedIndex ? Math.floor(storedIndex.length / 8) : null,
          rebuiltEntries: seg.offsetIndex.entries,
          rebuilt: !offsetIndexSame,
        },
        timeIndex: {
          storedEntries: storedTimeIndex ? Math.floor(storedTimeIndex.length / 12) : null,
          rebuiltEntries: seg.timeIndex.entries,
          rebuilt: !timeIndexSame,
        },
      };
    }
    seg.flushedBytes = seg.size;
    seg.flushedOffsetIndexEntries = seg.offsetIndex.entries;
    seg.flushedTimeIndexEntries = seg.timeIndex.entries;
    segments.push(seg);
    report.segments.push({
      baseOffset: base,
      logFileName: logFileName(base),
      bytesRead: logBytes.length,
      recovered: notOpen !== null,
      recoveryReason,
      ...outcome,
    });
  }

  return { segments, epochs, report, checkpointText };
}

/**
 * Completes a load once the log is built: cuts the epoch cache to the recovered log
 * [logStartOffset, logEndOffset), rewrites the checkpoint if that changed anything, and fills
 * in the report's offsets.
 */
export function finishLoad(
  dir: string,
  epochs: LeaderEpochFileCache,
  loadedCheckpoint: string | null,
  logStartOffset: number,
  logEndOffset: number,
  writer: StoreWriter,
  report: LogRecoveryReport,
): void {
  epochs.truncateFromEnd(logEndOffset);
  if (epochs.earliestEntry && epochs.earliestEntry.startOffset < logStartOffset)
    epochs.truncateFromStart(logStartOffset);
  const text = epochs.serialize();
  if (text !== loadedCheckpoint && (loadedCheckpoint !== null || epochs.entries.length > 0)) {
    writer.submit({
      op: 'write',
      path: `${dir}/${LEADER_EPOCH_CHECKPOINT_FILENAME}`,
      bytes: new TextEncoder().encode(text),
    });
  }
  report.leaderEpochs = epochs.entries.map((e) => ({ ...e }));
  report.logStartOffset = logStartOffset;
  report.logEndOffset = logEndOffset;
}

/**
 * The producer-state snapshots of `<dir>/` (ProducerStateManager.truncateAndReload on load):
 * those outside (log start, log end] are deleted, as are those failing readSnapshot's checks
 * (CorruptSnapshotException); the rest come back by offset, for the latest to seed the state.
 */
export async function loadProducerSnapshots(
  store: Store,
  dir: string,
  logStartOffset: number,
  logEndOffset: number,
  writer: StoreWriter,
  files?: readonly string[],
): Promise<Map<number, Uint8Array>> {
  const prefix = `${dir}/`;
  const out = new Map<number, Uint8Array>();
  const snapshots: { path: string; offset: number }[] = [];
  for (const path of files ?? (await store.list(prefix))) {
    const offset = parseProducerSnapshotFileName(path.slice(prefix.length));
    if (offset !== null) snapshots.push({ path, offset });
  }
  const read = await Promise.all(
    snapshots.map(({ path, offset }) => (offset > logEndOffset || offset <= logStartOffset ? null : store.read(path))),
  );
  snapshots.forEach(({ path, offset }, i) => {
    const bytes = read[i] ?? null;
    let valid = bytes !== null;
    if (bytes !== null) {
      try {
        readProducerSnapshot(bytes);
      } catch (e) {
        if (!(e instanceof CorruptSnapshotError)) throw e;
        valid = false;
      }
    }
    if (valid && bytes !== null) out.set(offset, bytes);
    else writer.submit({ op: 'delete', path });
  });
  return out;
}
