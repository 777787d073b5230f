/**
 * Which records of a fetched partition a consumer hands its application (Kafka 3.9's
 * CompletedFetch.nextFetchedRecord and fetchRecords), by isolation level:
 * - control batches (transaction markers) are never handed out, at either level;
 * - READ_COMMITTED also drops the batches of aborted transactions. The fetch answer lists each
 *   aborted transaction as (producerId, firstOffset); walking the batches in offset order, a
 *   producer becomes "aborted" once a batch reaches its first offset, its transactional batches are
 *   skipped until its ABORT marker, which clears it again.
 * `nextFetchOffset` is where the next fetch starts: past the last batch, so a batch emptied by
 * compaction or skipped as aborted is not fetched again.
 *
 * Not yet wired: the consumer's Fetcher does not call it until Fetch carries isolation levels.
 */
import { CONTROL_FLAG_MASK, NO_PRODUCER_ID, TRANSACTIONAL_FLAG_MASK } from '../../codec/batchLayout';
import { parseControlRecordType } from '../../codec/controlRecordType';
import type { DefaultRecord, RecordBatch } from '../../codec/recordBatch';

export type IsolationLevel = 'READ_UNCOMMITTED' | 'READ_COMMITTED';

/** FetchResponseData.AbortedTransaction. */
export interface AbortedTransaction {
  readonly producerId: number;
  readonly firstOffset: number;
}

export interface FetchedRecord {
  readonly offset: number;
  readonly batch: RecordBatch;
  readonly record: DefaultRecord;
}

export interface CompletedFetchRecords {
  readonly records: FetchedRecord[];
  readonly nextFetchOffset: number;
}

const lastOffset = (batch: RecordBatch): number => batch.baseOffset + batch.lastOffsetDelta;

/** CompletedFetch.containsAbortMarker: a control batch whose first record's key is ABORT. */
function containsAbortMarker(batch: RecordBatch): boolean {
  if ((batch.attributes & CONTROL_FLAG_MASK) === 0) return false;
  const first = batch.records[0];
  return first !== undefined && parseControlRecordType(first.key) === 'ABORT';
}

export function completedFetchRecords(
  batches: readonly RecordBatch[],
  fetchOffset: number,
  isolationLevel: IsolationLevel,
  abortedTransactions: readonly AbortedTransaction[] | null,
): CompletedFetchRecords {
  // Kafka's PriorityQueue by first offset; equal first offsets keep no particular order there either.
  const queue = [...(abortedTransactions ?? [])].sort((a, b) => a.firstOffset - b.firstOffset);
  const abortedProducerIds = new Set<number>();
  const records: FetchedRecord[] = [];
  let nextFetchOffset = fetchOffset;
  for (const batch of batches) {
    if (isolationLevel === 'READ_COMMITTED' && batch.producerId !== NO_PRODUCER_ID) {
      // Every aborted transaction begun by this batch's last offset: its producer's batches are aborted.
      while (queue.length > 0 && (queue[0] as AbortedTransaction).firstOffset <= lastOffset(batch)) {
        abortedProducerIds.add((queue.shift() as AbortedTransaction).producerId);
      }
      if (containsAbortMarker(batch)) {
        abortedProducerIds.delete(batch.producerId);
      } else if ((batch.attributes & TRANSACTIONAL_FLAG_MASK) !== 0 && abortedProducerIds.has(batch.producerId)) {
        nextFetchOffset = lastOffset(batch) + 1;
        continue;
      }
    }
    const control = (batch.attributes & CONTROL_FLAG_MASK) !== 0;
    for (const record of batch.records) {
      const offset = batch.baseOffset + record.offsetDelta;
      // Records before the fetch offset (the batch began earlier) are skipped.
      if (offset < nextFetchOffset) continue;
      if (!control) records.push({ offset, batch, record });
      nextFetchOffset = offset + 1;
    }
  }
  // Message format v2 keeps the last offset of a batch whose last records were compacted away:
  // the next fetch starts after it, not inside it again.
  const last = batches[batches.length - 1];
  if (last !== undefined) nextFetchOffset = lastOffset(last) + 1;
  return { records, nextFetchOffset };
}
