import type { LogRecoveryReport } from '../log/LogLoader';
import type { RecoveryView } from './types';

/** What recovery did to one log, in the page's terms (Kafka's LogLoader report, summed). */
export function recoveryView(dir: string, report: LogRecoveryReport): RecoveryView {
  const segmentsLoaded = report.segments.length;
  const batchesValidated = report.segments.reduce((n, s) => n + s.batchesValidated, 0);
  const truncatedBytes = report.segments.reduce((n, s) => n + s.bytesTruncated, 0);
  const indexesRebuilt = report.segments.reduce(
    (n, s) => n + (s.offsetIndex.rebuilt ? 1 : 0) + (s.timeIndex.rebuilt ? 1 : 0),
    0,
  );
  const parts = [`${segmentsLoaded} segment${segmentsLoaded === 1 ? '' : 's'}, ${batchesValidated} batches valid`];
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
  return { dir, segmentsLoaded, batchesValidated, truncatedBytes, indexesRebuilt, summary: `${parts.join('; ')}.` };
}
