/**
 * File names in a partition directory, as Kafka spells them (LogFileUtils): a segment's files are
 * named by its base offset, zero-padded to 20 digits, e.g. `00000000000000170410.log`, `.index`,
 * `.timeindex`; the directory is `<topic>-<partition>`.
 */
export const LOG_FILE_SUFFIX = '.log';
export const INDEX_FILE_SUFFIX = '.index';
export const TIME_INDEX_FILE_SUFFIX = '.timeindex';
export const LEADER_EPOCH_CHECKPOINT_FILENAME = 'leader-epoch-checkpoint';
/** A log dir's recovery points, one per log (LogManager.RecoveryPointCheckpointFile). */
export const RECOVERY_POINT_CHECKPOINT_FILENAME = 'recovery-point-offset-checkpoint';
/** A log dir's log start offsets above their first segment (LogManager.LogStartOffsetCheckpointFile). */
export const LOG_START_OFFSET_CHECKPOINT_FILENAME = 'log-start-offset-checkpoint';
/** Written in each log dir when its broker shut down cleanly (LogLoader.CleanShutdownFileName). */
export const CLEAN_SHUTDOWN_FILENAME = '.kafka_cleanshutdown';

/** Kafka's `filenamePrefixFromOffset`: the offset as 20 zero-padded decimal digits. */
export function filenamePrefixFromOffset(offset: number): string {
  return String(offset).padStart(20, '0');
}

export function logFileName(baseOffset: number): string {
  return filenamePrefixFromOffset(baseOffset) + LOG_FILE_SUFFIX;
}

export function indexFileName(baseOffset: number): string {
  return filenamePrefixFromOffset(baseOffset) + INDEX_FILE_SUFFIX;
}

export function timeIndexFileName(baseOffset: number): string {
  return filenamePrefixFromOffset(baseOffset) + TIME_INDEX_FILE_SUFFIX;
}

/** `<topic>-<partition>`, the partition's directory name. */
export function partitionDirName(topic: string, partition: number): string {
  return `${topic}-${partition}`;
}

/** Parses `00000000000000170410.log` (or `.index`/`.timeindex`) into its base offset and kind. */
export function parseSegmentFileName(
  name: string,
): { baseOffset: number; suffix: '.log' | '.index' | '.timeindex' } | null {
  const m = /^(\d{20})(\.log|\.index|\.timeindex)$/.exec(name);
  if (!m) return null;
  const baseOffset = Number(m[1]);
  if (!Number.isSafeInteger(baseOffset)) return null;
  return { baseOffset, suffix: m[2] as '.log' | '.index' | '.timeindex' };
}
