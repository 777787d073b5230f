import type { LogConfig } from './LogConfig';
import { isDeleteEnabled } from './LogConfig';
import type { LogSegment } from './LogSegment';
import type { LogSegments } from './LogSegments';

/**
 * Why retention deleted a segment: the limit it broke, 'log-start-offset' (DeleteRecords moved the
 * log start past it: Kafka's deleteLogStartOffsetBreachedSegments), or 'lost-with-store' (not Kafka's: the
 * segment's bytes were only in the Store, paged out of memory, when the Store lost every file,
 * so rewriting the log from memory had to start past it; see rewriteStoreFiles).
 */
export type RetentionReason = 'retention.bytes' | 'retention.ms' | 'log-start-offset' | 'lost-with-store';

/** A segment the retention check deleted. */
export interface DeletedSegment {
  baseOffset: number;
  logFileName: string;
  sizeInBytes: number;
  reason: RetentionReason;
}

export interface RetentionResult {
  deleted: DeletedSegment[];
  logStartOffset: number;
}

/** What retention reads and changes of a UnifiedLog. */
export interface RetentionLog {
  readonly config: Readonly<LogConfig>;
  // Read live: deleting segments changes them.
  size(): number;
  logEndOffset(): number;
  highWatermark(): number;
  logStartOffset(): number;
  readonly segments: LogSegments;
  roll(): LogSegment;
  removeAndDeleteSegments(segments: LogSegment[]): void;
  logStartMovedTo(offset: number): void;
}

/**
 * Kafka's UnifiedLog.deleteOldSegments for cleanup.policy=delete: first by retention.bytes
 * (delete the oldest segments while the log stays at or above the limit without them), then by
 * retention.ms (delete the oldest segments whose newest record is older than the limit).
 * Whole segments only, oldest first, never a segment holding offsets at or above the high
 * watermark (the active segment's upper bound is the log end offset), never an empty active
 * segment (deletableSegments). When every segment goes, a new empty segment is rolled at the
 * log end first (deleteSegments: a log always has one). Moves logStartOffset to the first
 * remaining segment.
 */
export function deleteOldSegments(log: RetentionLog, now: number): RetentionResult {
  const deleted: RetentionResult['deleted'] = [];
  // deleteLogStartOffsetBreachedSegments, whatever the cleanup policy: a segment wholly below the
  // log start offset (DeleteRecords moved it) holds nothing readable.
  deleteSegmentsWhile(log, deleted, 'log-start-offset', (seg) => {
    const next = log.segments.higherSegment(seg);
    return next !== undefined && next.baseOffset <= log.logStartOffset();
  });
  if (!isDeleteEnabled(log.config)) return { deleted, logStartOffset: log.logStartOffset() };
  const cfg = log.config;
  if (cfg['retention.bytes'] >= 0 && log.size() >= cfg['retention.bytes']) {
    let diff = log.size() - cfg['retention.bytes'];
    deleteSegmentsWhile(log, deleted, 'retention.bytes', (seg) => {
      if (diff - seg.size < 0) return false;
      diff -= seg.size;
      return true;
    });
  }
  if (cfg['retention.ms'] >= 0) {
    deleteSegmentsWhile(log, deleted, 'retention.ms', (seg) => now - seg.largestTimestamp > cfg['retention.ms']);
  }
  return { deleted, logStartOffset: log.logStartOffset() };
}

/** Kafka's deletableSegments + deleteSegments for one retention predicate. */
function deleteSegmentsWhile(
  log: RetentionLog,
  deleted: DeletedSegment[],
  reason: RetentionReason,
  predicate: (seg: LogSegment) => boolean,
): void {
  const deletable: LogSegment[] = [];
  const segments = log.segments;
  for (const seg of segments.values) {
    const next = segments.higherSegment(seg);
    const upperBound = next ? next.baseOffset : log.logEndOffset();
    if (next === undefined && seg.size === 0) break;
    if (!(log.highWatermark() >= upperBound && predicate(seg))) break;
    deletable.push(seg);
  }
  if (deletable.length === 0) return;
  // The active segment itself is expired: roll first so the log keeps one (empty) segment.
  if (deletable.length === segments.count) log.roll();
  for (const seg of deletable)
    deleted.push({ baseOffset: seg.baseOffset, logFileName: seg.logFileName, sizeInBytes: seg.size, reason });
  log.removeAndDeleteSegments(deletable);
  log.logStartMovedTo((segments.first as LogSegment).baseOffset);
}
