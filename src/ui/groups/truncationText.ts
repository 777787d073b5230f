import type { LogTruncationView } from '../../engine/apps/types';

/**
 * What a consumer's card says when validating its position after a leader change (KIP-320) found
 * the log truncated under it: where, at which epoch, and what the consumer did. With
 * auto.offset.reset earliest/latest it seeks back to the first offset known to diverge (or, if
 * the leader knows no such epoch, resets per auto.offset.reset); with none, poll() throws
 * LogTruncationException and the position stays.
 */
export function truncationText(t: LogTruncationView): string {
  const at = `log truncation detected on ${t.topic}-${t.partition} at offset ${t.fetchOffset}${
    t.offsetEpoch === null ? '' : ` (epoch ${t.offsetEpoch})`
  }`;
  switch (t.outcome) {
    case 'seek':
      return `${at}: reset to ${t.divergentOffset}`;
    case 'reset':
      return `${at}: the leader has no such epoch, reset per auto.offset.reset`;
    case 'LogTruncationException':
      return `${at}: LogTruncationException${t.divergentOffset === null ? '' : ` (diverges at ${t.divergentOffset})`}`;
  }
}
