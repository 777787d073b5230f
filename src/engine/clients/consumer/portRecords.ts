import { wholeBatches } from '../../codec/logInputStream';
import { decodeRecordBatches } from '../../codec/recordBatch';
import type { PortRecord } from './ClusterPort';

/**
 * Whole record batches as the records a consumer hands its application: control batches (transaction
 * markers) left out, each record's size its share of its batch (for fetch size limits).
 */
export function toPortRecords(bytes: Uint8Array): PortRecord[] {
  if (bytes.length === 0) return [];
  const out: PortRecord[] = [];
  // A fetch may end with the first bytes of a batch that did not fit: skipped, as Kafka's
  // CompletedFetch does (its batch iterator stops at an incomplete batch).
  for (const batch of decodeRecordBatches(wholeBatches(bytes))) {
    // Control batches (transaction markers) are never handed to applications.
    if ((batch.attributes & 0x20) !== 0) continue;
    const per = Math.max(1, Math.floor((batch.batchLength + 12) / Math.max(1, batch.records.length)));
    for (const r of batch.records) {
      out.push({
        offset: batch.baseOffset + r.offsetDelta,
        timestamp: batch.baseTimestamp + r.timestampDelta,
        key: r.key,
        value: r.value,
        sizeInBytes: per,
        batchBaseOffset: batch.baseOffset,
        ...(batch.partitionLeaderEpoch >= 0 ? { leaderEpoch: batch.partitionLeaderEpoch } : {}),
      });
    }
  }
  return out;
}
