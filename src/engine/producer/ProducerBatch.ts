/**
 * A batch of records for one partition, being filled by the application and later sent by the
 * Sender (Kafka's ProducerBatch). Once drained it is encoded as one RecordBatch v2: baseOffset 0
 * (the leader assigns real offsets), records carrying offset and timestamp deltas, and, for an
 * idempotent producer, its producerId, producerEpoch and baseSequence.
 *
 * Size accounting is exact: `sizeInBytes` is the encoded size (61-byte header plus each record's
 * varint-framed body, DefaultRecord.sizeInBytes), so "full" means what it means on the wire.
 * A batch stays open for appends until it is closed (drained, or a record did not fit); a batch
 * that was sent keeps its records and sequence for retries.
 */
import {
  encodeRecordBatch,
  NO_PARTITION_LEADER_EPOCH,
  NO_PRODUCER_EPOCH,
  NO_PRODUCER_ID,
  NO_SEQUENCE,
  RECORD_BATCH_OVERHEAD,
} from '../codec/recordBatch';
import { utf8Length } from '../codec/utf8';
import { sizeOfVarint, sizeOfVarlong } from '../codec/varint';
import type { RecordHeader } from './ProducerRecord';

export { NO_SEQUENCE };

export interface PendingRecord {
  sendId: number;
  key: Uint8Array | null;
  value: Uint8Array | null;
  headers: RecordHeader[];
  timestamp: number;
}

/**
 * A record inside a batch: already in the shape of a v2 DefaultRecord (deltas against the
 * batch's base offset and timestamp), so encoding the batch needs no copy per record.
 */
interface BatchedRecord extends PendingRecord {
  attributes: number;
  offsetDelta: number;
  timestampDelta: number;
}

/** Bytes one record takes inside a v2 batch: varint length prefix plus the body. */
export function recordSizeInBytes(
  offsetDelta: number,
  timestampDelta: number,
  key: Uint8Array | null,
  value: Uint8Array | null,
  headers: readonly RecordHeader[],
): number {
  let body = 1; // attributes
  body += sizeOfVarlong(timestampDelta);
  body += sizeOfVarint(offsetDelta);
  body += key === null ? 1 : sizeOfVarint(key.length) + key.length;
  body += value === null ? 1 : sizeOfVarint(value.length) + value.length;
  body += sizeOfVarint(headers.length);
  for (const h of headers) {
    const kl = utf8Length(h.key);
    body += sizeOfVarint(kl) + kl;
    body += h.value === null ? 1 : sizeOfVarint(h.value.length) + h.value.length;
  }
  return sizeOfVarint(body) + body;
}

/**
 * An upper bound on the size of a batch holding only this record (Kafka's
 * AbstractRecords.estimateSizeInBytesUpperBound): the number max.request.size is checked against.
 */
export function estimateSizeInBytesUpperBound(
  key: Uint8Array | null,
  value: Uint8Array | null,
  headers: readonly RecordHeader[],
): number {
  // offsetDelta 0 fits in one byte; a timestamp delta may take up to 10.
  return RECORD_BATCH_OVERHEAD + recordSizeInBytes(0, 0, key, value, headers) + 9;
}

export type BatchState = 'open' | 'closed' | 'in-flight' | 'done';

export class ProducerBatch {
  readonly id: number;
  readonly topic: string;
  readonly partition: number;
  readonly createdMs: number;
  readonly records: BatchedRecord[] = [];
  /** Encoded size in bytes, header included. */
  sizeInBytes = RECORD_BATCH_OVERHEAD;
  /** The soft limit from batch.size; a record bigger than it gets a batch of its own. */
  readonly writeLimit: number;
  state: BatchState = 'open';
  attempts = 0;
  /** When the batch was last sent or created: retry.backoff.ms and linger.ms count from here. */
  lastAttemptMs: number;
  producerId = NO_PRODUCER_ID;
  producerEpoch = NO_PRODUCER_EPOCH;
  baseSequence = NO_SEQUENCE;

  constructor(id: number, topic: string, partition: number, createdMs: number, writeLimit: number) {
    this.id = id;
    this.topic = topic;
    this.partition = partition;
    this.createdMs = createdMs;
    this.lastAttemptMs = createdMs;
    this.writeLimit = writeLimit;
  }

  get recordCount(): number {
    return this.records.length;
  }

  get baseTimestamp(): number {
    return this.records[0]?.timestamp ?? this.createdMs;
  }

  hasSequence(): boolean {
    return this.baseSequence !== NO_SEQUENCE;
  }

  /** The encoded size of `record` if appended now. */
  sizeOf(record: PendingRecord): number {
    const base = this.records.length === 0 ? record.timestamp : this.baseTimestamp;
    return recordSizeInBytes(this.records.length, record.timestamp - base, record.key, record.value, record.headers);
  }

  hasRoomFor(record: PendingRecord): boolean {
    if (this.state !== 'open') return false;
    return this.records.length === 0 || this.sizeInBytes + this.sizeOf(record) <= this.writeLimit;
  }

  /** Appends if there is room (MemoryRecordsBuilder.hasRoomFor); returns the bytes added, or 0 if it did not fit. */
  tryAppend(record: PendingRecord): number {
    if (this.state !== 'open') return 0;
    const size = this.sizeOf(record);
    if (this.records.length > 0 && this.sizeInBytes + size > this.writeLimit) return 0;
    const base = this.records.length === 0 ? record.timestamp : this.baseTimestamp;
    this.records.push({
      sendId: record.sendId,
      key: record.key,
      value: record.value,
      headers: record.headers,
      timestamp: record.timestamp,
      attributes: 0,
      offsetDelta: this.records.length,
      timestampDelta: record.timestamp - base,
    });
    this.sizeInBytes += size;
    return size;
  }

  /** No room left for even a minimal record (MemoryRecordsBuilder.isFull). */
  isFull(): boolean {
    return this.state !== 'open' || (this.records.length > 0 && this.sizeInBytes >= this.writeLimit);
  }

  hasReachedDeliveryTimeout(deliveryTimeoutMs: number, now: number): boolean {
    return deliveryTimeoutMs <= now - this.createdMs;
  }

  maxTimestamp(): number {
    let max = -1;
    for (const r of this.records) if (r.timestamp > max) max = r.timestamp;
    return max;
  }

  /** The batch as it goes on the wire: RecordBatch v2, baseOffset 0, CreateTime, no compression. */
  encode(): Uint8Array {
    return encodeRecordBatch({
      baseOffset: 0,
      partitionLeaderEpoch: NO_PARTITION_LEADER_EPOCH,
      attributes: 0,
      lastOffsetDelta: this.records.length - 1,
      baseTimestamp: this.baseTimestamp,
      maxTimestamp: this.maxTimestamp(),
      producerId: this.producerId,
      producerEpoch: this.producerEpoch,
      baseSequence: this.baseSequence,
      records: this.records,
    });
  }
}
