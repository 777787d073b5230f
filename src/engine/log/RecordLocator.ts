import type { DefaultRecord, RecordBatchHeader } from '../codec';
import { decodeBatchRecords, RECORD_BATCH_OVERHEAD, readVarint, readVarlong } from '../codec';

/** A record picked out of a batch, with its absolute offset and timestamp. */
export interface LocatedRecord {
  record: DefaultRecord;
  offset: number;
  timestamp: number;
}

/**
 * Reads only the record at `offset` — or, when compaction removed it, the first one after it —
 * from the batch `header` describes inside `bytes`. An uncompressed batch is walked by the
 * records' length prefixes (each record starts with its size as a varint), so only the wanted
 * record is decoded, by the codec itself, through a header narrowed to that record. This keeps
 * a lookup O(records skipped) in cheap varint reads instead of materializing a whole batch.
 * A compressed batch has to be inflated whole, so it is decoded whole.
 */
export function locateRecord(bytes: Uint8Array, header: RecordBatchHeader, offset: number): LocatedRecord | null {
  if ((header.attributes & 0x07) !== 0) return slowLocate(bytes, header, offset);
  const end = header.position + header.sizeInBytes;
  // Offsets are dense (the usual case, never compacted): the wanted record is simply the n-th.
  const dense = header.lastOffsetDelta === header.recordCount - 1;
  const wantedIndex = Math.max(0, offset - header.baseOffset);
  let pos = header.position + RECORD_BATCH_OVERHEAD;
  for (let i = 0; i < header.recordCount && pos < end; i++) {
    // The record's size prefix: a zigzag varint, read inline (this loop is the hot part of a lookup).
    let raw = 0;
    let shift = 0;
    let p = pos;
    let b: number;
    do {
      if (p >= end || shift > 28) return slowLocate(bytes, header, offset);
      b = bytes[p++] as number;
      raw |= (b & 0x7f) << shift;
      shift += 7;
    } while (b & 0x80);
    const bodyStart = p;
    const bodyEnd = bodyStart + ((raw >>> 1) ^ -(raw & 1));
    if (bodyEnd <= bodyStart || bodyEnd > end) return slowLocate(bytes, header, offset);
    let hit: boolean;
    if (dense) {
      hit = i >= wantedIndex;
    } else {
      const timestampDelta = readVarlong(bytes, bodyStart + 1); // after the attributes byte
      hit = header.baseOffset + readVarint(bytes, timestampDelta.next).value >= offset;
    }
    if (hit) {
      const one: RecordBatchHeader = {
        ...header,
        position: pos - RECORD_BATCH_OVERHEAD,
        sizeInBytes: RECORD_BATCH_OVERHEAD + (bodyEnd - pos),
        recordCount: 1,
      };
      const [r] = decodeBatchRecords(bytes, one);
      if (!r) return null;
      if (dense && header.baseOffset + r.offsetDelta < offset) break; // not dense after all: walk slowly
      return located(header, r);
    }
    pos = bodyEnd;
  }
  if (!dense) return null;
  return slowLocate(bytes, header, offset);
}

/** Decodes the whole batch (which also reports any corruption as the codec does). */
function slowLocate(bytes: Uint8Array, header: RecordBatchHeader, offset: number): LocatedRecord | null {
  for (const r of decodeBatchRecords(bytes, header))
    if (header.baseOffset + r.offsetDelta >= offset) return located(header, r);
  return null;
}

function located(header: RecordBatchHeader, r: DefaultRecord): LocatedRecord {
  const logAppendTime = (header.attributes & 0x08) !== 0;
  return {
    record: r,
    offset: header.baseOffset + r.offsetDelta,
    timestamp: logAppendTime ? header.maxTimestamp : header.baseTimestamp + r.timestampDelta,
  };
}
