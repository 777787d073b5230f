/**
 * A batch of records for one partition, being filled by the application and later sent by the
 * Sender (Kafka's ProducerBatch over a MemoryRecordsBuilder). Each record is written in its v2
 * DefaultRecord form the moment it is appended (offset and timestamp deltas against the batch's
 * base offset 0 and first timestamp), after room for the 61-byte header; `encode()` fills in the
 * header (lastOffsetDelta, timestamps, producerId, producerEpoch, baseSequence, count) and the
 * CRC, so a batch leaves as one RecordBatch v2 without a second pass over its records.
 *
 * Size accounting is exact: `sizeInBytes` is the encoded size (header plus each record's
 * varint-framed body, DefaultRecord.sizeInBytes), so "full" means what it means on the wire.
 * A batch stays open for appends until it is closed (drained, or a record did not fit); a batch
 * that was sent keeps its bytes and sequence for retries. Only the send id and timestamp of each
 * record are kept besides the bytes: that is all its delivery report needs.
 */
import {
  decodeBatchRecords,
  NO_PARTITION_LEADER_EPOCH,
  NO_PRODUCER_EPOCH,
  NO_PRODUCER_ID,
  NO_SEQUENCE,
  RECORD_BATCH_OVERHEAD,
  readBatchHeader,
  writeBatchHeader,
  writeRecordHeaders,
} from '../codec/recordBatch';
import { writeNullableBytes } from '../codec/bytes';
import { utf8Length } from '../codec/utf8';
import { sizeOfVarint, sizeOfVarlong, writeVarint, writeVarlong } from '../codec/varint';
import type { BufferPool } from './BufferPool';
import type { RecordHeader } from './ProducerRecord';

export { NO_SEQUENCE };

export interface PendingRecord {
  sendId: number;
  key: Uint8Array | null;
  value: Uint8Array | null;
  headers: RecordHeader[];
  timestamp: number;
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

/** DefaultRecord.MAX_RECORD_OVERHEAD: body length, attributes, timestamp and offset deltas at their widest. */
const MAX_RECORD_OVERHEAD = 21;

/**
 * AbstractRecords.estimateSizeInBytesUpperBound for magic 2 without compression
 * (DefaultRecordBatch.estimateBatchSizeUpperBound): the batch header, MAX_RECORD_OVERHEAD, then
 * the key, value and headers with their lengths (DefaultRecord.recordSizeUpperBound).
 */
export function estimateSizeInBytesUpperBound(
  key: Uint8Array | null,
  value: Uint8Array | null,
  headers: readonly RecordHeader[],
): number {
  let size = key === null ? 1 : sizeOfVarint(key.length) + key.length;
  size += value === null ? 1 : sizeOfVarint(value.length) + value.length;
  size += sizeOfVarint(headers.length);
  for (const h of headers) {
    const kl = utf8Length(h.key);
    size += sizeOfVarint(kl) + kl;
    size += h.value === null ? 1 : sizeOfVarint(h.value.length) + h.value.length;
  }
  return RECORD_BATCH_OVERHEAD + MAX_RECORD_OVERHEAD + size;
}

/**
 * A bound on estimateSizeInBytesUpperBound for a record without headers that needs no varint
 * sizing: the batch header, MAX_RECORD_OVERHEAD, key and value lengths at their widest (5 + 5)
 * and the header count (1).
 */
export function headerlessSizeUpperBound(key: Uint8Array | null, value: Uint8Array | null): number {
  return (
    RECORD_BATCH_OVERHEAD +
    MAX_RECORD_OVERHEAD +
    11 +
    (key === null ? 0 : key.length) +
    (value === null ? 0 : value.length)
  );
}

export type BatchState = 'open' | 'closed' | 'in-flight' | 'done';

/**
 * The first buffer of a batch: batch.size itself up to this (Kafka's BufferPool hands out
 * batch.size buffers), so a batch of the default size is one allocation; larger ones double.
 */
const INITIAL_BUFFER_BYTES = 16384;

/** The size of a batch's first buffer for a batch.size (the BufferPool's poolable size). */
export function firstBufferSize(batchSize: number): number {
  return Math.min(INITIAL_BUFFER_BYTES, Math.max(batchSize, RECORD_BATCH_OVERHEAD));
}

/** What a batch holds after giving its buffer back (it is done; nothing reads it). */
const RELEASED = new Uint8Array(0);
export class ProducerBatch {
  readonly id: number;
  readonly topic: string;
  readonly partition: number;
  readonly createdMs: number;
  /**
   * Each record's send id (the key of its delivery report) and CreateTime, in offset-delta order,
   * kept as runs: [first send id, count, ...] (consecutive ids) and [timestamp, count, ...]
   * (equal times). A batch's records usually are one run of each, so an append stores nothing.
   */
  private readonly idRuns: number[] = [];
  private readonly timeRuns: number[] = [];
  private count = 0;
  /** Encoded size in bytes, header included; also where the next record is written. */
  sizeInBytes = RECORD_BATCH_OVERHEAD;
  /**
   * MemoryRecordsBuilder's writeLimit, the capacity of the buffer RecordAccumulator.append
   * allocated: max(batch.size, the first record's estimateSizeInBytesUpperBound).
   */
  readonly writeLimit: number;
  state: BatchState = 'open';
  attempts = 0;
  /** When the batch was last sent or created: retry.backoff.ms and linger.ms count from here. */
  lastAttemptMs: number;
  /** This retry's backoff before jitter (KIP-580), for the retry event; each readiness check draws its own jitter. */
  retryBackoffMs = 0;
  producerId = NO_PRODUCER_ID;
  producerEpoch = NO_PRODUCER_EPOCH;
  baseSequence = NO_SEQUENCE;
  /** Renumbered by an epoch bump (ProducerBatch.sequenceHasBeenReset): an old-epoch refusal is retried. */
  sequenceHasBeenReset = false;
  /** The leader epoch this batch is bound for (currentLeaderEpoch), null until metadata names one. */
  currentLeaderEpoch: number | null = null;
  /** The attempt at which the leader epoch last moved (attemptsWhenLeaderLastChanged). */
  attemptsWhenLeaderLastChanged = 0;
  /** Header space, then the records written so far; bytes past sizeInBytes are unused. */
  private buffer: Uint8Array;
  private maxTimestampSeen = -1;
  /** How often encode() ran: after the first (which hands out the buffer) a retry writes into a copy. */
  private encodes = 0;

  constructor(
    id: number,
    topic: string,
    partition: number,
    createdMs: number,
    writeLimit: number,
    pool: BufferPool | null = null,
  ) {
    this.id = id;
    this.topic = topic;
    this.partition = partition;
    this.createdMs = createdMs;
    this.lastAttemptMs = createdMs;
    this.writeLimit = writeLimit;
    const size = firstBufferSize(writeLimit);
    this.buffer = pool ? pool.allocate(size) : new Uint8Array(size);
  }

  get recordCount(): number {
    return this.count;
  }

  get baseTimestamp(): number {
    return this.count > 0 ? (this.timeRuns[0] as number) : this.createdMs;
  }

  /** Each record's send id, in offset-delta order. */
  get sendIds(): number[] {
    const out: number[] = [];
    this.forEachRecord((sendId) => out.push(sendId));
    return out;
  }

  /** Calls fn with each record's send id, CreateTime and index, in offset-delta order. */
  forEachRecord(fn: (sendId: number, timestamp: number, index: number) => void): void {
    const ids = this.idRuns;
    const times = this.timeRuns;
    let t = 0;
    let timeLeft = times[1] ?? 0;
    let i = 0;
    for (let r = 0; r < ids.length; r += 2) {
      const first = ids[r] as number;
      const n = ids[r + 1] as number;
      for (let k = 0; k < n; k++) {
        if (timeLeft === 0) {
          t += 2;
          timeLeft = times[t + 1] as number;
        }
        timeLeft--;
        fn(first + k, times[t] as number, i++);
      }
    }
  }

  /** Remembers a newer leader epoch and the attempt it came at (maybeUpdateLeaderEpoch); older or unknown ones change nothing. */
  maybeUpdateLeaderEpoch(latestLeaderEpoch: number | null): void {
    if (latestLeaderEpoch === null) return;
    if (this.currentLeaderEpoch !== null && this.currentLeaderEpoch >= latestLeaderEpoch) return;
    this.attemptsWhenLeaderLastChanged = this.attempts;
    this.currentLeaderEpoch = latestLeaderEpoch;
  }

  /**
   * Whether this retry goes to a newer leader than the last attempt did
   * (hasLeaderChangedForTheOngoingRetry): such a retry skips its backoff.
   */
  hasLeaderChangedForTheOngoingRetry(): boolean {
    return this.attempts >= 1 && this.attempts === this.attemptsWhenLeaderLastChanged;
  }

  hasSequence(): boolean {
    return this.baseSequence !== NO_SEQUENCE;
  }

  /** The encoded size of `record` if appended now. */
  sizeOf(record: PendingRecord): number {
    const n = this.count;
    const base = n === 0 ? record.timestamp : this.baseTimestamp;
    return recordSizeInBytes(n, record.timestamp - base, record.key, record.value, record.headers);
  }

  hasRoomFor(record: PendingRecord): boolean {
    if (this.state !== 'open') return false;
    return this.count === 0 || this.sizeInBytes + this.sizeOf(record) <= this.writeLimit;
  }

  /**
   * Appends if there is room (MemoryRecordsBuilder.hasRoomFor, then DefaultRecord.writeTo);
   * returns the bytes added, or 0 if it did not fit.
   */
  tryAppend(record: PendingRecord): number {
    if (this.state !== 'open') return 0;
    const offsetDelta = this.count;
    const timestampDelta = offsetDelta === 0 ? 0 : record.timestamp - this.baseTimestamp;
    const { key, value, headers } = record;
    let body = 1 + sizeOfVarlong(timestampDelta) + sizeOfVarint(offsetDelta);
    body += key === null ? 1 : sizeOfVarint(key.length) + key.length;
    body += value === null ? 1 : sizeOfVarint(value.length) + value.length;
    body += sizeOfVarint(headers.length);
    for (let h = 0; h < headers.length; h++) {
      const header = headers[h] as RecordHeader;
      const kl = utf8Length(header.key);
      body += sizeOfVarint(kl) + kl;
      body += header.value === null ? 1 : sizeOfVarint(header.value.length) + header.value.length;
    }
    const size = sizeOfVarint(body) + body;
    if (offsetDelta > 0 && this.sizeInBytes + size > this.writeLimit) return 0;
    let p = this.ensureCapacity(size);
    p = writeVarint(body, this.buffer, p);
    const out = this.buffer;
    out[p++] = 0; // attributes
    p = writeVarlong(timestampDelta, out, p);
    p = writeVarint(offsetDelta, out, p);
    p = writeNullableBytes(key, out, p);
    p = writeNullableBytes(value, out, p);
    p = writeRecordHeaders(headers, out, p);
    this.sizeInBytes = p;
    const ids = this.idRuns;
    const lastId = ids.length - 2;
    if (lastId >= 0 && (ids[lastId] as number) + (ids[lastId + 1] as number) === record.sendId)
      ids[lastId + 1] = (ids[lastId + 1] as number) + 1;
    else ids.push(record.sendId, 1);
    const times = this.timeRuns;
    const lastTime = times.length - 2;
    if (lastTime >= 0 && times[lastTime] === record.timestamp)
      times[lastTime + 1] = (times[lastTime + 1] as number) + 1;
    else times.push(record.timestamp, 1);
    this.count++;
    if (record.timestamp > this.maxTimestampSeen) this.maxTimestampSeen = record.timestamp;
    return size;
  }

  /** Makes room for `extra` more bytes; returns the write position. */
  private ensureCapacity(extra: number): number {
    const need = this.sizeInBytes + extra;
    if (need > this.buffer.length) {
      let cap = this.buffer.length * 2;
      while (cap < need) cap *= 2;
      // A batch never grows past batch.size unless its only record is bigger.
      if (need <= this.writeLimit) cap = Math.min(cap, this.writeLimit);
      const grown = new Uint8Array(cap);
      grown.set(this.buffer.subarray(0, this.sizeInBytes));
      this.buffer = grown;
    }
    return this.sizeInBytes;
  }

  /** No room left for even a minimal record (MemoryRecordsBuilder.isFull). */
  isFull(): boolean {
    return this.state !== 'open' || (this.count > 0 && this.sizeInBytes >= this.writeLimit);
  }

  hasReachedDeliveryTimeout(deliveryTimeoutMs: number, now: number): boolean {
    return now >= this.createdMs + deliveryTimeoutMs; // the moment nextExpiryMs names (absolute: see RecordAccumulator.ready)
  }

  maxTimestamp(): number {
    return this.maxTimestampSeen;
  }

  /**
   * The batch as it goes on the wire: RecordBatch v2, baseOffset 0, CreateTime, no compression.
   * The first call hands out the batch's own buffer (appends are over by then); a retry, whose
   * producer id or sequence may have been reset, gets a copy so bytes already sent never change.
   */
  encode(): Uint8Array {
    const total = this.sizeInBytes;
    const out = this.encodes > 0 ? this.buffer.slice(0, total) : this.buffer.subarray(0, total);
    this.encodes++;
    writeBatchHeader(
      out,
      {
        baseOffset: 0,
        partitionLeaderEpoch: NO_PARTITION_LEADER_EPOCH,
        attributes: 0,
        lastOffsetDelta: this.count - 1,
        baseTimestamp: this.baseTimestamp,
        maxTimestamp: this.maxTimestampSeen,
        producerId: this.producerId,
        producerEpoch: this.producerEpoch,
        baseSequence: this.baseSequence,
      },
      this.count,
    );
    return out;
  }

  /**
   * Gives the batch's buffer up for reuse (BufferPool.deallocate) if it was handed out by at most
   * one encode(): the caller knows that request was answered, so nobody reads it any more. A batch
   * sent more than once keeps its buffer (an earlier request may still be on its way).
   */
  releaseBuffer(): Uint8Array | null {
    if (this.encodes > 1) return null;
    const b = this.buffer;
    this.buffer = RELEASED;
    return b;
  }

  /**
   * Kafka's ProducerBatch.split(splitBatchSize): the records again, in order, in new closed
   * batches of up to `splitBatchSize` bytes each (a first record always fits), keeping this
   * batch's creation time. New batches have not been tried. An idempotent batch hands its
   * sequence range on: each part starts where the one before it ended.
   */
  split(splitBatchSize: number, nextId: () => number): ProducerBatch[] {
    const parts: ProducerBatch[] = [];
    let current: ProducerBatch | null = null;
    for (const record of this.pendingRecords()) {
      if (current === null || current.tryAppend(record) === 0) {
        current = new ProducerBatch(nextId(), this.topic, this.partition, this.createdMs, splitBatchSize);
        current.tryAppend(record);
        parts.push(current);
      }
    }
    let sequence = this.baseSequence;
    for (const b of parts) {
      b.state = 'closed';
      if (this.hasSequence()) {
        b.producerId = this.producerId;
        b.producerEpoch = this.producerEpoch;
        b.baseSequence = sequence;
        sequence = (sequence + b.recordCount) % 2147483648;
      }
    }
    return parts;
  }

  /** The records again, as the application sent them (ProducerBatch.split reads them back the same way). */
  pendingRecords(): PendingRecord[] {
    const bytes = this.encode();
    const records = decodeBatchRecords(bytes, readBatchHeader(bytes, 0));
    const base = this.baseTimestamp;
    const sendIds = this.sendIds;
    return records.map((r, i) => ({
      sendId: sendIds[i] as number,
      key: r.key,
      value: r.value,
      headers: r.headers,
      timestamp: base + r.timestampDelta,
    }));
  }
}
