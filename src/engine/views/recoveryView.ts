import type { LogRecoveryReport } from '../log/LogLoader';
import type { RecoveryView } from './types';

/**
 * What recovery did to one log, in the page's terms: what Kafka's LogLoader would do after this
 * shutdown (nothing recovered after a clean one; after a crash, the segments from the recovery
 * point on, and any whose index was missing or corrupt), and what that found.
 */
export function recoveryView(dir: string, report: LogRecoveryReport): RecoveryView {
  const segmentsLoaded = report.segments.length;
  const recovered = report.segments.filter((s) => s.recovered);
  const batchesValidated = report.segments.reduce((n, s) => n + s.batchesValidated, 0);
  const truncatedBytes = report.segments.reduce((n, s) => n + s.bytesTruncated, 0);
  const indexesRebuilt = report.segments.reduce(
    (n, s) => n + (s.offsetIndex.rebuilt ? 1 : 0) + (s.timeIndex.rebuilt ? 1 : 0),
    0,
  );
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const parts: string[] = [];
  if (report.hadCleanShutdown) {
    parts.push(`clean shutdown (.kafka_cleanshutdown): ${plural(segmentsLoaded, 'segment')} opened, none recovered`);
  } else {
    // Besides the recovery point, a segment below it is recovered when its index is missing or corrupt.
    const other = recovered.filter((s) => !s.recoveryReason.includes('the recovery point'));
    const why = other.map((s) => `${s.logFileName}: ${s.recoveryReason.replace(/^recovered: /, '')}`);
    parts.push(
      `no clean shutdown: ${recovered.length} of ${plural(segmentsLoaded, 'segment')} recovered from the recovery point ${report.recoveryPointCheckpoint} on${why.length > 0 ? ` (also ${why.join('; ')})` : ''}, ${batchesValidated} batches valid`,
    );
  }
  for (const s of report.segments) {
    if (s.bytesTruncated > 0) {
      parts.push(
        `${s.logFileName} truncated by ${s.bytesTruncated} bytes at position ${s.truncatedAtPosition} (${s.truncationReason})`,
      );
    }
  }
  if (report.deletedSegments.length > 0) parts.push(`${report.deletedSegments.length} later segments deleted`);
  if (indexesRebuilt > 0) parts.push(`${indexesRebuilt} index files rebuilt`);
  parts.push(`offsets ${report.logStartOffset} to ${report.logEndOffset}`);
  return {
    dir,
    segmentsLoaded,
    batchesValidated,
    truncatedBytes,
    indexesRebuilt,
    segmentsRecovered: recovered.length,
    hadCleanShutdown: report.hadCleanShutdown,
    recoveryPointCheckpoint: report.recoveryPointCheckpoint,
    segments: report.segments.map((s) => ({
      logFileName: s.logFileName,
      recovered: s.recovered,
      reason: s.recoveryReason,
    })),
    summary: `${parts.join('; ')}.`,
  };
}
