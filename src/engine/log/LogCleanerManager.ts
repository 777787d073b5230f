import type { LogConfig } from './LogConfig';

/** One segment as the cleaner manager weighs it. */
export interface CleanerSegmentView {
  baseOffset: number;
  size: number;
  /** Kafka's LogSegment.largestTimestamp (min.compaction.lag.ms). */
  largestTimestamp: number;
  /** Kafka's LogSegment.getFirstBatchTimestamp (max.compaction.lag.ms). */
  firstBatchTimestamp: number;
}

/** What LogCleanerManager reads of a log; the last segment is the active one. */
export interface CleanerLogView {
  config: Pick<LogConfig, 'min.cleanable.dirty.ratio' | 'min.compaction.lag.ms' | 'max.compaction.lag.ms'>;
  logStartOffset: number;
  logEndOffset: number;
  /** Kafka's lastStableOffset (= the high watermark: glassbox has no transactions). */
  lastStableOffset: number;
  segments: readonly CleanerSegmentView[];
}

/** Kafka's OffsetsToClean. */
export interface OffsetsToClean {
  firstDirtyOffset: number;
  firstUncleanableDirtyOffset: number;
  /** The checkpointed offset was outside [log start, log end]: it is reset to firstDirtyOffset. */
  forceUpdateCheckpoint: boolean;
}

/** Kafka's LogToClean: the clean and cleanable byte counts of a log and their ratio. */
export interface LogToClean<K = string> {
  key: K;
  firstDirtyOffset: number;
  firstUncleanableOffset: number;
  cleanBytes: number;
  cleanableBytes: number;
  totalBytes: number;
  cleanableRatio: number;
  /** max.compaction.lag.ms has passed for the oldest dirty record. */
  needCompactionNow: boolean;
  /** Kafka's maxCompactionDelay: how far past max.compaction.lag.ms the oldest dirty segment is. */
  compactionDelayMs: number;
}

/** LocalLog.nonActiveLogSegmentsFrom: from the segment holding `from` (floor) up to the active one. */
function nonActiveSegmentsFrom(log: CleanerLogView, from: number): CleanerSegmentView[] {
  const segs = log.segments;
  const active = segs.length - 1;
  let start = 0;
  for (let i = 0; i < active; i++) if ((segs[i] as CleanerSegmentView).baseOffset <= from) start = i;
  if (active <= 0 || from >= (segs[active] as CleanerSegmentView).baseOffset) return [];
  return segs.slice(start, active);
}

/** LocalLog.logSegments(from, to): the segments overlapping [from, to). */
function segmentsBetween(log: CleanerLogView, from: number, to: number): CleanerSegmentView[] {
  const segs = log.segments;
  return segs.filter((s, i) => {
    const next = segs[i + 1];
    return s.baseOffset < to && (next === undefined || next.baseOffset > from);
  });
}

/**
 * LogCleanerManager.cleanableOffsets: the dirty section starts at the checkpointed offset (reset
 * to the log start when it lies outside the log) and ends at the first of the last stable offset,
 * the active segment and the first dirty segment younger than min.compaction.lag.ms.
 */
export function cleanableOffsets(
  log: CleanerLogView,
  lastCleanOffset: number | undefined,
  now: number,
): OffsetsToClean {
  const checkpointDirtyOffset = lastCleanOffset ?? log.logStartOffset;
  const invalid = checkpointDirtyOffset < log.logStartOffset || checkpointDirtyOffset > log.logEndOffset;
  const firstDirtyOffset = invalid ? log.logStartOffset : checkpointDirtyOffset;
  const active = log.segments[log.segments.length - 1];
  const candidates = [log.lastStableOffset, active ? active.baseOffset : log.logEndOffset];
  const lag = Math.max(log.config['min.compaction.lag.ms'], 0);
  if (lag > 0) {
    const young = nonActiveSegmentsFrom(log, firstDirtyOffset).find((s) => s.largestTimestamp > now - lag);
    if (young) candidates.push(young.baseOffset);
  }
  return {
    firstDirtyOffset,
    firstUncleanableDirtyOffset: Math.max(firstDirtyOffset, Math.min(...candidates)),
    forceUpdateCheckpoint: invalid,
  };
}

/** LogCleanerManager.calculateCleanableBytes: rounded down to the start of the segment holding the uncleanable offset. */
export function calculateCleanableBytes(
  log: CleanerLogView,
  firstDirtyOffset: number,
  uncleanableOffset: number,
): { firstUncleanableOffset: number; cleanableBytes: number } {
  const first = nonActiveSegmentsFrom(log, uncleanableOffset)[0] ?? log.segments[log.segments.length - 1];
  const firstUncleanableOffset = first ? first.baseOffset : log.logEndOffset;
  const cleanableBytes = segmentsBetween(
    log,
    Math.min(firstDirtyOffset, firstUncleanableOffset),
    firstUncleanableOffset,
  ).reduce((n, s) => n + s.size, 0);
  return { firstUncleanableOffset, cleanableBytes };
}

/** LogCleanerManager.maxCompactionDelay: 0 unless the oldest dirty batch is older than max.compaction.lag.ms. */
export function maxCompactionDelay(log: CleanerLogView, firstDirtyOffset: number, now: number): number {
  const stamps = nonActiveSegmentsFrom(log, firstDirtyOffset)
    .map((s) => s.firstBatchTimestamp)
    .filter((t) => t > 0);
  const earliest = stamps.length > 0 ? Math.min(...stamps) : Number.MAX_SAFE_INTEGER;
  const cleanUntilTime = now - Math.max(log.config['max.compaction.lag.ms'], 0);
  return earliest < cleanUntilTime ? cleanUntilTime - earliest : 0;
}

/** Kafka's LogToClean for one log. */
export function logToClean<K>(
  key: K,
  log: CleanerLogView,
  lastCleanOffset: number | undefined,
  now: number,
): LogToClean<K> & { forceUpdateCheckpoint: boolean } {
  const offsets = cleanableOffsets(log, lastCleanOffset, now);
  const compactionDelayMs = maxCompactionDelay(log, offsets.firstDirtyOffset, now);
  const cleanBytes = segmentsBetween(log, -1, offsets.firstDirtyOffset).reduce((n, s) => n + s.size, 0);
  const { firstUncleanableOffset, cleanableBytes } = calculateCleanableBytes(
    log,
    offsets.firstDirtyOffset,
    offsets.firstUncleanableDirtyOffset,
  );
  const totalBytes = cleanBytes + cleanableBytes;
  return {
    key,
    firstDirtyOffset: offsets.firstDirtyOffset,
    firstUncleanableOffset,
    cleanBytes,
    cleanableBytes,
    totalBytes,
    cleanableRatio: totalBytes > 0 ? cleanableBytes / totalBytes : 0,
    needCompactionNow: compactionDelayMs > 0,
    compactionDelayMs,
    forceUpdateCheckpoint: offsets.forceUpdateCheckpoint,
  };
}

/**
 * LogCleanerManager.grabFilthiestCompactedLog over the compacted logs given (minus those in
 * `skip`): each log's LogToClean against its cleaner checkpoint; empty logs are skipped; a log
 * qualifies when its dirty ratio exceeds min.cleanable.dirty.ratio, or when max.compaction.lag.ms
 * has passed and it has cleanable bytes; the one with the highest dirty ratio wins (the first of
 * equals). `onForceCheckpoint` is told of each checkpoint found outside its log.
 */
export function grabFilthiestCompactedLog<K>(
  logs: Iterable<[K, CleanerLogView]>,
  checkpoints: ReadonlyMap<K, number>,
  now: number,
  onForceCheckpoint: (key: K, firstDirtyOffset: number) => void = () => {},
): LogToClean<K> | null {
  let filthiest: LogToClean<K> | null = null;
  for (const [key, log] of logs) {
    const ltc = logToClean(key, log, checkpoints.get(key), now);
    if (ltc.forceUpdateCheckpoint) onForceCheckpoint(key, ltc.firstDirtyOffset);
    if (ltc.totalBytes <= 0) continue;
    const cleanable =
      (ltc.needCompactionNow && ltc.cleanableBytes > 0) || ltc.cleanableRatio > log.config['min.cleanable.dirty.ratio'];
    if (!cleanable) continue;
    if (filthiest === null || ltc.cleanableRatio > filthiest.cleanableRatio) {
      const { forceUpdateCheckpoint: _, ...rest } = ltc;
      filthiest = rest;
    }
  }
  return filthiest;
}
