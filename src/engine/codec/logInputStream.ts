import { LENGTH_OFFSET, LOG_OVERHEAD, RECORD_BATCH_OVERHEAD } from './batchLayout';
import { readInt32At } from './bytes';

/**
 * How many leading bytes of `records` are whole batches: Kafka's ByteBufferLogInputStream.nextBatch
 * stops at a batch the buffer does not hold whole. A fetch response may end with the first bytes of
 * a batch that did not fit max_bytes or partition_max_bytes (LogSegment.read slices bytes, not
 * batches); every reader of fetched records (consumer, follower) ignores that tail. A length below
 * the v2 minimum is not a tail but corruption: the bytes are kept so the decoder reports it.
 */
export function wholeBatchesSize(records: Uint8Array): number {
  let position = 0;
  while (records.length - position >= LOG_OVERHEAD) {
    const batchLength = readInt32At(records, position + LENGTH_OFFSET);
    if (batchLength < RECORD_BATCH_OVERHEAD - LOG_OVERHEAD) return records.length;
    const size = batchLength + LOG_OVERHEAD;
    if (records.length - position < size) break;
    position += size;
  }
  return position;
}

/** The whole batches of `records` (a view, no copy): the truncated tail of a fetch left out. */
export function wholeBatches(records: Uint8Array): Uint8Array {
  const size = wholeBatchesSize(records);
  return size === records.length ? records : records.subarray(0, size);
}
