/**
 * RecordBatch v2 (magic 2), the unit Kafka appends to a `.log` file and sends on the wire
 * (org.apache.kafka.common.record.DefaultRecordBatch / DefaultRecord). Big-endian:
 *
 *   offset  size  field
 *        0     8  baseOffset            first offset in the batch
 *        8     4  batchLength           bytes after this field (= sizeInBytes - 12)
 *       12     4  partitionLeaderEpoch
 *       16     1  magic                 2
 *       17     4  crc                   CRC-32C (unsigned) of bytes [21, end)
 *       21     2  attributes            bits 0-2 codec, 3 timestamp type (1 = LogAppendTime),
 *                                       4 transactional, 5 control, 6 delete horizon set
 *       23     4  lastOffsetDelta
 *       27     8  baseTimestamp
 *       35     8  maxTimestamp
 *       43     8  producerId
 *       51     2  producerEpoch
 *       53     4  baseSequence
 *       57     4  record count
 *       61     …  records (the whole section compressed when the codec is not none)
 *
 * Each record: length varint (bytes that follow), attributes int8, timestampDelta varlong,
 * offsetDelta varint, key length varint (-1 = null) + key, value length varint (-1 = null) +
 * value, header count varint, then per header: key length varint + UTF-8 key, value length
 * varint (-1 = null) + value.
 *
 * 64-bit fields (baseOffset, timestamps, producerId) are JS numbers and must be safe integers;
 * a decoded int64 outside ±(2^53 - 1) is reported as CORRUPT_MESSAGE, never rounded.
 *
 * Errors: the decoder throws only CorruptRecordError (CORRUPT_MESSAGE) — with `details.position`
 * and `details.reason` ('truncated' | 'length' | 'magic' | 'crc' | 'record' | 'compression' | ...),
 * in every codec. The CRC is checked before anything inside the batch is trusted,
 * and every length is checked against the bytes remaining before anything is allocated.
 *
 * Decoded keys, values and header values are views into one private copy of the batch's
 * records section, never into the caller's buffer: one allocation per batch, not per field.
 */
import { CorruptRecordError, KafkaError } from '../errors';
import {
  ATTRIBUTES_OFFSET,
  BASE_OFFSET_OFFSET,
  BASE_SEQUENCE_OFFSET,
  BASE_TIMESTAMP_OFFSET,
  COMPRESSION_CODEC_MASK,
  CRC_OFFSET,
  LAST_OFFSET_DELTA_OFFSET,
  LENGTH_OFFSET,
  LOG_OVERHEAD,
  MAGIC_OFFSET,
  MAGIC_VALUE_V2,
  MAX_TIMESTAMP_OFFSET,
  NO_TIMESTAMP,
  PARTITION_LEADER_EPOCH_OFFSET,
  PRODUCER_EPOCH_OFFSET,
  PRODUCER_ID_OFFSET,
  RECORDS_COUNT_OFFSET,
  RECORDS_OFFSET,
  RECORD_BATCH_OVERHEAD,
  TIMESTAMP_TYPE_MASK,
  compressionType,
} from './batchLayout';
import { readInt16At, writeNullableBytes, readInt32At, writeInt32At, writeInt64At } from './bytes';
import { COMPRESSION_TYPES, compressRecords, decompressRecords } from './compression';
import { crc32c } from './crc32c';
import { readUtf8, utf8Length, writeUtf8 } from './utf8';
import { readVarlong, sizeOfVarint, sizeOfVarlong, writeVarint, writeVarlong } from './varint';

export * from './batchLayout';

export interface RecordHeader {
  key: string;
  value: Uint8Array | null;
}

export interface DefaultRecord {
  /** Record-level attributes (unused by Kafka today, always 0). */
  attributes: number;
  /** timestamp - baseTimestamp (CreateTime). */
  timestampDelta: number;
  /** offset - baseOffset. */
  offsetDelta: number;
  key: Uint8Array | null;
  value: Uint8Array | null;
  headers: RecordHeader[];
}

export interface RecordBatch {
  baseOffset: number;
  batchLength: number;
  partitionLeaderEpoch: number;
  magic: number;
  /** CRC-32C as an unsigned 32-bit number. */
  crc: number;
  attributes: number;
  lastOffsetDelta: number;
  baseTimestamp: number;
  maxTimestamp: number;
  producerId: number;
  producerEpoch: number;
  baseSequence: number;
  records: DefaultRecord[];
}

/** What encodeRecordBatch takes: batchLength, crc and magic are computed (magic must be 2 if given). */
export type RecordBatchInput = Omit<RecordBatch, 'batchLength' | 'crc' | 'magic'> &
  Partial<Pick<RecordBatch, 'batchLength' | 'crc' | 'magic'>>;

/** A batch header read without decoding its records: what a log's forward scan and recovery need. */
export interface RecordBatchHeader {
  /** Byte position of the batch in the buffer it was read from. */
  position: number;
  baseOffset: number;
  batchLength: number;
  /** batchLength + 12: the bytes the batch occupies in the log. */
  sizeInBytes: number;
  partitionLeaderEpoch: number;
  magic: number;
  crc: number;
  attributes: number;
  lastOffsetDelta: number;
  /** baseOffset + lastOffsetDelta. */
  lastOffset: number;
  baseTimestamp: number;
  maxTimestamp: number;
  producerId: number;
  producerEpoch: number;
  baseSequence: number;
  recordCount: number;
}

/** The absolute offset of a record. */
export function recordOffset(batch: Pick<RecordBatch, 'baseOffset'>, record: DefaultRecord): number {
  return batch.baseOffset + record.offsetDelta;
}

/** A record's timestamp: the batch's maxTimestamp under LogAppendTime, else baseTimestamp + delta. */
export function recordTimestamp(
  batch: Pick<RecordBatch, 'attributes' | 'baseTimestamp' | 'maxTimestamp'>,
  record: DefaultRecord,
): number {
  return batch.attributes & TIMESTAMP_TYPE_MASK ? batch.maxTimestamp : batch.baseTimestamp + record.timestampDelta;
}

// ---------------------------------------------------------------------------------------------
// Big-endian helpers

const TWO_POW_32 = 4294967296;

function readInt64(b: Uint8Array, p: number, field: string, position: number): number {
  const hi = readInt32At(b, p);
  const lo = readInt32At(b, p + 4) >>> 0;
  const value = hi * TWO_POW_32 + lo;
  if (hi > 0x1fffff || hi < -0x200000 || !Number.isSafeInteger(value)) {
    throw new CorruptRecordError(`${field} of the batch at position ${position} is outside the safe integer range`, {
      position,
      reason: 'unsafe-int64',
      field,
    });
  }
  return value;
}

// ---------------------------------------------------------------------------------------------
// Encoding

/** Per-record body sizes from the sizing pass, reused across calls to avoid allocation. */
let sizeScratch = new Int32Array(1024);

function invalid(message: string, details: Record<string, unknown> = {}): KafkaError {
  return new KafkaError('INVALID_RECORD', message, details);
}

function checkInt(value: number, bits: 16 | 32, field: string): void {
  const limit = bits === 16 ? 0x8000 : 0x80000000;
  if (!Number.isInteger(value) || value < -limit || value >= limit) {
    throw invalid(`${field} must be an int${bits}, got ${value}`, { field, value });
  }
}

function checkInt64(value: number, field: string): void {
  if (!Number.isSafeInteger(value)) throw invalid(`${field} must be a safe integer, got ${value}`, { field, value });
}

/**
 * Encodes one RecordBatch v2, computing batchLength and crc. The records are written exactly as
 * given (deltas, attributes, null keys/values), so for an uncompressed batch
 * `encodeRecordBatch(decodeRecordBatches(bytes)[0])` reproduces `bytes`. A compressed batch is
 * compressed at `level` (the codec's default when omitted). Throws KafkaError INVALID_RECORD for
 * out-of-range fields, UNSUPPORTED_COMPRESSION_TYPE for zstd before its encoder is loaded.
 */
export function encodeRecordBatch(batch: RecordBatchInput, level?: number): Uint8Array {
  if (batch.magic !== undefined && batch.magic !== MAGIC_VALUE_V2) {
    throw invalid(`only magic 2 batches can be written, got magic ${batch.magic}`, { magic: batch.magic });
  }
  checkInt64(batch.baseOffset, 'baseOffset');
  checkInt(batch.partitionLeaderEpoch, 32, 'partitionLeaderEpoch');
  checkInt(batch.attributes, 16, 'attributes');
  checkInt(batch.lastOffsetDelta, 32, 'lastOffsetDelta');
  checkInt64(batch.baseTimestamp, 'baseTimestamp');
  checkInt64(batch.maxTimestamp, 'maxTimestamp');
  checkInt64(batch.producerId, 'producerId');
  checkInt(batch.producerEpoch, 16, 'producerEpoch');
  checkInt(batch.baseSequence, 32, 'baseSequence');
  const codec = COMPRESSION_TYPES[batch.attributes & COMPRESSION_CODEC_MASK];
  if (codec === undefined) throw invalid(`attributes name no compression codec: ${batch.attributes}`);

  const records = batch.records;
  const count = records.length;
  if (sizeScratch.length < count) sizeScratch = new Int32Array(Math.max(count, sizeScratch.length * 2));
  const sizes = sizeScratch;

  // Sizing pass: the exact size of every record, so the output is allocated once.
  let recordsSize = 0;
  for (let i = 0; i < count; i++) {
    const r = records[i] as DefaultRecord;
    const td = r.timestampDelta;
    const od = r.offsetDelta;
    if (!Number.isSafeInteger(td)) throw invalid(`record ${i}: timestampDelta must be a safe integer`, { index: i });
    if ((od | 0) !== od) throw invalid(`record ${i}: offsetDelta must be an int32`, { index: i });
    if ((r.attributes << 24) >> 24 !== r.attributes)
      throw invalid(`record ${i}: attributes must be an int8`, { index: i });
    let body = 1 + sizeOfVarlong(td) + sizeOfVarint(od);
    const key = r.key;
    body += key === null ? 1 : sizeOfVarint(key.length) + key.length;
    const value = r.value;
    body += value === null ? 1 : sizeOfVarint(value.length) + value.length;
    const headers = r.headers;
    body += sizeOfVarint(headers.length);
    for (let h = 0; h < headers.length; h++) {
      const header = headers[h] as RecordHeader;
      const keyLen = utf8Length(header.key);
      body += sizeOfVarint(keyLen) + keyLen;
      const hv = header.value;
      body += hv === null ? 1 : sizeOfVarint(hv.length) + hv.length;
    }
    sizes[i] = body;
    recordsSize += sizeOfVarint(body) + body;
  }

  let out: Uint8Array;
  if (codec === 'none') {
    out = new Uint8Array(RECORD_BATCH_OVERHEAD + recordsSize);
    writeRecords(records, sizes, out, RECORD_BATCH_OVERHEAD);
  } else {
    const raw = new Uint8Array(recordsSize);
    writeRecords(records, sizes, raw, 0);
    const compressed = compressRecords(codec, raw, level);
    out = new Uint8Array(RECORD_BATCH_OVERHEAD + compressed.length);
    out.set(compressed, RECORD_BATCH_OVERHEAD);
  }

  writeBatchHeader(out, batch, count);
  return out;
}

/** The header fields a writer supplies (length, magic and CRC follow from the bytes). */
export type BatchHeaderFields = Pick<
  RecordBatch,
  | 'baseOffset'
  | 'partitionLeaderEpoch'
  | 'attributes'
  | 'lastOffsetDelta'
  | 'baseTimestamp'
  | 'maxTimestamp'
  | 'producerId'
  | 'producerEpoch'
  | 'baseSequence'
>;

/**
 * Fills in the 61-byte header of the batch that is all of `out`, records already in place
 * (Kafka's DefaultRecordBatch.writeHeader): batchLength from the size, magic 2, and the CRC-32C
 * last, over the finished bytes from attributes to the end. The caller checked the ranges.
 */
export function writeBatchHeader(out: Uint8Array, header: BatchHeaderFields, recordCount: number): void {
  const total = out.length;
  writeInt64At(out, BASE_OFFSET_OFFSET, header.baseOffset);
  writeInt32At(out, LENGTH_OFFSET, total - LOG_OVERHEAD);
  writeInt32At(out, PARTITION_LEADER_EPOCH_OFFSET, header.partitionLeaderEpoch);
  out[MAGIC_OFFSET] = MAGIC_VALUE_V2;
  out[ATTRIBUTES_OFFSET] = header.attributes >>> 8;
  out[ATTRIBUTES_OFFSET + 1] = header.attributes;
  writeInt32At(out, LAST_OFFSET_DELTA_OFFSET, header.lastOffsetDelta);
  writeInt64At(out, BASE_TIMESTAMP_OFFSET, header.baseTimestamp);
  writeInt64At(out, MAX_TIMESTAMP_OFFSET, header.maxTimestamp);
  writeInt64At(out, PRODUCER_ID_OFFSET, header.producerId);
  out[PRODUCER_EPOCH_OFFSET] = header.producerEpoch >>> 8;
  out[PRODUCER_EPOCH_OFFSET + 1] = header.producerEpoch;
  writeInt32At(out, BASE_SEQUENCE_OFFSET, header.baseSequence);
  writeInt32At(out, RECORDS_COUNT_OFFSET, recordCount);
  writeInt32At(out, CRC_OFFSET, crc32c(out, ATTRIBUTES_OFFSET, total));
}

function writeRecords(records: readonly DefaultRecord[], sizes: Int32Array, out: Uint8Array, start: number): void {
  let p = start;
  for (let i = 0; i < records.length; i++) {
    const r = records[i] as DefaultRecord;
    p = writeVarint(sizes[i] as number, out, p);
    out[p++] = r.attributes;
    p = writeVarlong(r.timestampDelta, out, p);
    p = writeVarint(r.offsetDelta, out, p);
    p = writeNullableBytes(r.key, out, p);
    p = writeNullableBytes(r.value, out, p);
    p = writeRecordHeaders(r.headers, out, p);
  }
}

/** A record's headers as DefaultRecord writes them: the count, then each key (UTF-8) and nullable value. */
export function writeRecordHeaders(headers: readonly RecordHeader[], out: Uint8Array, start: number): number {
  let p = writeVarint(headers.length, out, start);
  for (let h = 0; h < headers.length; h++) {
    const header = headers[h] as RecordHeader;
    const keyStart = p + sizeOfVarint(utf8Length(header.key));
    const keyEnd = writeUtf8(header.key, out, keyStart);
    writeVarint(keyEnd - keyStart, out, p);
    p = writeNullableBytes(header.value, out, keyEnd);
  }
  return p;
}

// ---------------------------------------------------------------------------------------------
// Decoding

function corrupt(message: string, position: number, reason: string, extra: Record<string, unknown> = {}) {
  return new CorruptRecordError(message, { position, reason, ...extra });
}

/**
 * Reads the 61-byte header of the batch starting at `position`, checking that the whole batch
 * is present. Throws CorruptRecordError with reason 'truncated' (fewer bytes than the header or
 * batchLength promise: a torn tail), 'length' (batchLength below the v2 minimum), 'magic' (not 2)
 * or 'unsafe-int64'. Does not check the CRC: see validateBatchCrc.
 */
export function readBatchHeader(bytes: Uint8Array, position: number): RecordBatchHeader {
  const remaining = bytes.length - position;
  if (position < 0 || remaining < LOG_OVERHEAD) {
    throw corrupt(
      `batch at position ${position} is truncated: ${Math.max(remaining, 0)} bytes left`,
      position,
      'truncated',
    );
  }
  const batchLength = readInt32At(bytes, position + LENGTH_OFFSET);
  if (batchLength < RECORD_BATCH_OVERHEAD - LOG_OVERHEAD) {
    throw corrupt(
      `batch at position ${position} has batchLength ${batchLength}, below the minimum ${RECORD_BATCH_OVERHEAD - LOG_OVERHEAD}`,
      position,
      'length',
      { batchLength },
    );
  }
  if (remaining > MAGIC_OFFSET) {
    const magic = bytes[position + MAGIC_OFFSET] as number;
    if (magic !== MAGIC_VALUE_V2) {
      throw corrupt(`batch at position ${position} has magic ${magic}; only magic 2 is supported`, position, 'magic', {
        magic,
      });
    }
  }
  const sizeInBytes = batchLength + LOG_OVERHEAD;
  if (sizeInBytes > remaining) {
    throw corrupt(
      `batch at position ${position} is truncated: batchLength ${batchLength} needs ${sizeInBytes} bytes, ${remaining} left`,
      position,
      'truncated',
      { batchLength },
    );
  }
  const p = position;
  const baseOffset = readInt64(bytes, p + BASE_OFFSET_OFFSET, 'baseOffset', position);
  const lastOffsetDelta = readInt32At(bytes, p + LAST_OFFSET_DELTA_OFFSET);
  const lastOffset = baseOffset + lastOffsetDelta;
  if (!Number.isSafeInteger(lastOffset)) {
    throw corrupt(
      `lastOffset of the batch at position ${position} is outside the safe range`,
      position,
      'unsafe-int64',
    );
  }
  const recordCount = readInt32At(bytes, p + RECORDS_COUNT_OFFSET);
  if (recordCount < 0) {
    throw corrupt(`batch at position ${position} has a negative record count ${recordCount}`, position, 'record');
  }
  return {
    position,
    baseOffset,
    batchLength,
    sizeInBytes,
    partitionLeaderEpoch: readInt32At(bytes, p + PARTITION_LEADER_EPOCH_OFFSET),
    magic: bytes[p + MAGIC_OFFSET] as number,
    crc: readInt32At(bytes, p + CRC_OFFSET) >>> 0,
    attributes: readInt16At(bytes, p + ATTRIBUTES_OFFSET),
    lastOffsetDelta,
    lastOffset,
    baseTimestamp: readInt64(bytes, p + BASE_TIMESTAMP_OFFSET, 'baseTimestamp', position),
    maxTimestamp: readInt64(bytes, p + MAX_TIMESTAMP_OFFSET, 'maxTimestamp', position),
    producerId: readInt64(bytes, p + PRODUCER_ID_OFFSET, 'producerId', position),
    producerEpoch: readInt16At(bytes, p + PRODUCER_EPOCH_OFFSET),
    baseSequence: readInt32At(bytes, p + BASE_SEQUENCE_OFFSET),
    recordCount,
  };
}

/** Computes the CRC-32C of the batch (attributes to end) and compares it with the stored crc. */
export function validateBatchCrc(bytes: Uint8Array, header: RecordBatchHeader): boolean {
  return computeBatchCrc(bytes, header) === header.crc;
}

/** The CRC-32C the batch should carry, computed over its bytes. */
export function computeBatchCrc(bytes: Uint8Array, header: RecordBatchHeader): number {
  return crc32c(bytes, header.position + ATTRIBUTES_OFFSET, header.position + header.sizeInBytes);
}

/**
 * Decodes every batch in `bytes` (a `.log` file or a fetch response's records), in order.
 * Throws CorruptRecordError at the first problem, including a torn tail; callers that need to
 * recover a log scan with readBatchHeader/validateBatchCrc and truncate instead.
 */
export function decodeRecordBatches(bytes: Uint8Array): RecordBatch[] {
  const batches: RecordBatch[] = [];
  let position = 0;
  while (position < bytes.length) {
    const header = readBatchHeader(bytes, position);
    batches.push(decodeBatchAt(bytes, header));
    position += header.sizeInBytes;
  }
  return batches;
}

/** Decodes the single batch whose header was read by readBatchHeader, checking its CRC first. */
export function decodeBatchAt(bytes: Uint8Array, header: RecordBatchHeader): RecordBatch {
  const crc = computeBatchCrc(bytes, header);
  if (crc !== header.crc) {
    throw corrupt(
      `batch at position ${header.position} failed its CRC check: stored ${header.crc}, computed ${crc}`,
      header.position,
      'crc',
      { storedCrc: header.crc, computedCrc: crc },
    );
  }
  return {
    baseOffset: header.baseOffset,
    batchLength: header.batchLength,
    partitionLeaderEpoch: header.partitionLeaderEpoch,
    magic: header.magic,
    crc: header.crc,
    attributes: header.attributes,
    lastOffsetDelta: header.lastOffsetDelta,
    baseTimestamp: header.baseTimestamp,
    maxTimestamp: header.maxTimestamp,
    producerId: header.producerId,
    producerEpoch: header.producerEpoch,
    baseSequence: header.baseSequence,
    records: decodeBatchRecords(bytes, header),
  };
}

/** Decodes (and inflates) the records of a batch. Does not check the CRC. */
export function decodeBatchRecords(bytes: Uint8Array, header: RecordBatchHeader): DefaultRecord[] {
  const codec = compressionType(header.attributes);
  const sectionStart = header.position + RECORDS_OFFSET;
  const sectionEnd = header.position + header.sizeInBytes;
  // Keys, values and header values are views into one private copy of the records section, so
  // they stay valid whatever later happens to `bytes` (a segment truncated and rewritten).
  const raw =
    codec === 'none'
      ? bytes.slice(sectionStart, sectionEnd)
      : decompressRecords(codec, bytes.subarray(sectionStart, sectionEnd), header.position);
  return readRecords(raw, 0, raw.length, header.recordCount, header.position);
}

/**
 * The largest record timestamp of a CreateTime batch, read from its records (baseTimestamp +
 * timestampDelta), as Kafka's LogValidator computes maxBatchTimestamp before it rewrites the batch's
 * MaxTimestamp (MutableRecordBatch.setMaxTimestamp): NO_TIMESTAMP (-1) when no record has one. A
 * client's own MaxTimestamp field is not trusted (librdkafka writes 0 for records with timestamp -1).
 * Only the length, attributes and timestamp delta of each record are read. Does not check the CRC.
 */
export function maxRecordTimestamp(bytes: Uint8Array, header: RecordBatchHeader): number {
  const codec = compressionType(header.attributes);
  const sectionStart = header.position + RECORDS_OFFSET;
  const sectionEnd = header.position + header.sizeInBytes;
  const raw =
    codec === 'none' ? bytes : decompressRecords(codec, bytes.subarray(sectionStart, sectionEnd), header.position);
  const start = codec === 'none' ? sectionStart : 0;
  const end = codec === 'none' ? sectionEnd : raw.length;
  const c = new RecordsCursor(raw, start, end, header.position);
  let max = NO_TIMESTAMP;
  for (let i = 0; i < header.recordCount; i++) {
    const size = c.varint();
    const recordEnd = c.pos + size;
    if (size < 0 || recordEnd > end) throw invalidRecordSize(i, size, header.position);
    c.pos++; // attributes
    const timestamp = header.baseTimestamp + c.varlong();
    if (timestamp > max) max = timestamp;
    c.pos = recordEnd;
  }
  return max;
}

/**
 * A bounds-checked cursor over a records section. Varints are read inline (no result objects),
 * which is what makes decoding fast; every read past `end` throws CorruptRecordError.
 */
class RecordsCursor {
  pos: number;
  constructor(
    readonly b: Uint8Array,
    start: number,
    readonly end: number,
    readonly batchPos: number,
  ) {
    this.pos = start;
  }

  /** Zigzag varint (int32), at most 5 bytes. */
  varint(): number {
    const b = this.b;
    let p = this.pos;
    let raw = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      if (p >= this.end) throw this.malformed('a varint runs past the end of the records');
      const byte = b[p++] as number;
      raw |= (byte & 0x7f) << shift;
      if (byte < 0x80) {
        this.pos = p;
        return (raw >>> 1) ^ -(raw & 1);
      }
    }
    throw this.malformed('a varint is longer than 5 bytes');
  }

  /** Zigzag varlong (safe-integer number); values of up to 4 bytes stay on the inline path. */
  varlong(): number {
    const b = this.b;
    let p = this.pos;
    let raw = 0;
    for (let shift = 0; shift < 28; shift += 7) {
      if (p >= this.end) throw this.malformed('a varlong runs past the end of the records');
      const byte = b[p++] as number;
      raw |= (byte & 0x7f) << shift;
      if (byte < 0x80) {
        this.pos = p;
        return (raw >>> 1) ^ -(raw & 1);
      }
    }
    const r = readVarlong(b.subarray(0, this.end), this.pos);
    this.pos = r.next;
    return r.value;
  }

  malformed(what: string): CorruptRecordError {
    return corrupt(`batch at position ${this.batchPos}: ${what}`, this.batchPos, 'record');
  }
}

function readRecords(b: Uint8Array, start: number, end: number, count: number, batchPos: number): DefaultRecord[] {
  // Every record takes at least 7 bytes, so a count the bytes cannot hold is corrupt — checked
  // before the loop so a hostile count cannot spin or grow the array.
  if (count * 7 > end - start) {
    throw corrupt(`batch at position ${batchPos} claims ${count} records in ${end - start} bytes`, batchPos, 'record', {
      recordCount: count,
    });
  }
  const c = new RecordsCursor(b, start, end, batchPos);
  const records: DefaultRecord[] = new Array(count);
  for (let i = 0; i < count; i++) {
    const size = c.varint();
    const recordStart = c.pos;
    const recordEnd = recordStart + size;
    if (size < 0 || recordEnd > end) throw invalidRecordSize(i, size, batchPos);
    records[i] = readRecordBody(c, i, recordEnd);
  }
  if (c.pos !== end) {
    throw corrupt(
      `batch at position ${batchPos} has ${end - c.pos} bytes left after its ${count} records`,
      batchPos,
      'record',
    );
  }
  return records;
}

/**
 * Reads the fields of record `i`, whose body (everything after its length prefix) runs from
 * `c.pos` to `recordEnd`; keys and values are views into `c.b`. Leaves `c.pos` at `recordEnd`.
 */
function readRecordBody(c: RecordsCursor, i: number, recordEnd: number): DefaultRecord {
  const b = c.b;
  const batchPos = c.batchPos;
  const recordStart = c.pos;
  if (c.pos >= recordEnd) throw recordCorrupt(i, batchPos);
  const attributes = ((b[c.pos++] as number) << 24) >> 24;
  const timestampDelta = c.varlong();
  const offsetDelta = c.varint();
  let key: Uint8Array | null = null;
  let n = c.varint();
  if (n >= 0) {
    if (n > recordEnd - c.pos) throw recordCorrupt(i, batchPos);
    key = b.subarray(c.pos, c.pos + n);
    c.pos += n;
  }
  let value: Uint8Array | null = null;
  n = c.varint();
  if (n >= 0) {
    if (n > recordEnd - c.pos) throw recordCorrupt(i, batchPos);
    value = b.subarray(c.pos, c.pos + n);
    c.pos += n;
  }
  const headerCount = c.varint();
  // Each header takes at least 2 bytes.
  if (headerCount < 0 || headerCount * 2 > recordEnd - c.pos) throw recordCorrupt(i, batchPos);
  const headers: RecordHeader[] = [];
  for (let h = 0; h < headerCount; h++) {
    n = c.varint();
    if (n < 0 || n > recordEnd - c.pos) throw recordCorrupt(i, batchPos);
    const hKey = readUtf8(b, c.pos, c.pos + n);
    c.pos += n;
    n = c.varint();
    let hValue: Uint8Array | null = null;
    if (n >= 0) {
      if (n > recordEnd - c.pos) throw recordCorrupt(i, batchPos);
      hValue = b.subarray(c.pos, c.pos + n);
      c.pos += n;
    }
    headers.push({ key: hKey, value: hValue });
  }
  if (c.pos !== recordEnd) {
    throw corrupt(
      `record ${i} of the batch at position ${batchPos}: expected to read ${recordEnd - recordStart} bytes in record payload, but instead read ${c.pos - recordStart}`,
      batchPos,
      'record',
      { record: i },
    );
  }
  return { attributes, timestampDelta, offsetDelta, key, value, headers };
}

/**
 * Decodes the one record whose length prefix starts at `position` in the uncompressed records
 * section of the batch at `header.position` (record number `index` of that batch), without
 * decoding or copying the others: what a lookup needs once it has walked the length prefixes to
 * the record it wants. The record's bytes are copied first (into the record arena, below), so
 * its key, value and header values stay valid whatever later happens to `bytes`. Throws
 * CorruptRecordError, as decodeBatchRecords would, when the record is malformed or runs past the
 * batch. Does not check the CRC.
 */
export function decodeRecordAt(
  bytes: Uint8Array,
  header: RecordBatchHeader,
  position: number,
  index: number,
): DefaultRecord {
  const batchPos = header.position;
  const end = Math.min(bytes.length, batchPos + header.sizeInBytes);
  const prefix = new RecordsCursor(bytes, position, end, batchPos);
  const size = prefix.varint();
  const bodyStart = prefix.pos;
  if (size < 0 || bodyStart + size > end) throw invalidRecordSize(index, size, batchPos);
  let copy: Uint8Array;
  let at: number;
  if (size > ARENA_MAX_RECORD_BYTES) {
    copy = bytes.slice(bodyStart, bodyStart + size);
    at = 0;
  } else {
    if (arenaUsed + size > arena.length) {
      arena = new Uint8Array(ARENA_BYTES);
      arenaUsed = 0;
    }
    copy = arena;
    at = arenaUsed;
    for (let i = 0; i < size; i++) copy[at + i] = bytes[bodyStart + i] as number;
    arenaUsed += size;
  }
  return readRecordBody(new RecordsCursor(copy, at, at + size, batchPos), index, at + size);
}

/**
 * The record arena: decodeRecordAt copies single records into shared 64 KiB chunks instead of a
 * fresh buffer each, because a small ArrayBuffer is allocated outside the JS heap and costs more
 * than the rest of a lookup. Records never share bytes, and a full chunk is simply replaced: it is
 * reclaimed once no record copied into it is referenced. (Like every decoded record's fields,
 * these are views: `.buffer` holds more than the one record.)
 */
const ARENA_BYTES = 64 * 1024;
const ARENA_MAX_RECORD_BYTES = 4 * 1024;
let arena = new Uint8Array(ARENA_BYTES);
let arenaUsed = 0;

function invalidRecordSize(index: number, size: number, batchPos: number): CorruptRecordError {
  return corrupt(`record ${index} of the batch at position ${batchPos} has invalid size ${size}`, batchPos, 'record', {
    record: index,
  });
}

function recordCorrupt(index: number, batchPos: number): CorruptRecordError {
  return corrupt(`record ${index} of the batch at position ${batchPos} is malformed`, batchPos, 'record', {
    record: index,
  });
}
