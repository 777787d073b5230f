/**
 * A batch of plain records, as Kafka's `MemoryRecords.withRecords(CompressionType.NONE,
 * SimpleRecord...)` builds one: RecordBatch v2 at base offset 0 (the leader assigns offsets),
 * no producer id, epoch or sequence (not idempotent), every record at the batch's one timestamp.
 * The group coordinator writes `__consumer_offsets` this way, and so do hand-made demo logs.
 */
import {
  encodeRecordBatch,
  NO_PARTITION_LEADER_EPOCH,
  NO_PRODUCER_EPOCH,
  NO_PRODUCER_ID,
  NO_SEQUENCE,
} from './recordBatch';

/** A record with only a key and a value (Kafka's SimpleRecord, without headers). */
export interface SimpleRecord {
  key: Uint8Array | null;
  value: Uint8Array | null;
}

export function withRecords(records: readonly SimpleRecord[], timestamp: number): Uint8Array {
  return encodeRecordBatch({
    baseOffset: 0,
    partitionLeaderEpoch: NO_PARTITION_LEADER_EPOCH,
    attributes: 0,
    lastOffsetDelta: records.length - 1,
    baseTimestamp: timestamp,
    maxTimestamp: timestamp,
    producerId: NO_PRODUCER_ID,
    producerEpoch: NO_PRODUCER_EPOCH,
    baseSequence: NO_SEQUENCE,
    records: records.map((r, i) => ({
      attributes: 0,
      timestampDelta: 0,
      offsetDelta: i,
      key: r.key,
      value: r.value,
      headers: [],
    })),
  });
}
