import type { DefaultRecord, RecordBatchHeader } from '../codec';
import { decodeBatchRecords } from '../codec';
import type { LeaderEpochFileCache } from './LeaderEpochFileCache';
import type { LocalLog } from './LocalLog';
import type { LogOffsetPosition, LogSegment } from './LogSegment';
import { batchHeaderStep, type LookupStep, type OffsetIndexEntryInfo } from './LookupTrace';
import { type LocatedRecord, locateRecord } from './RecordLocator';

/**
 * The traced lookups of a partition log: Kafka's read path for one offset (UnifiedLog.read down
 * to FileRecords.searchForOffsetWithSize) and its ListOffsets path for a timestamp
 * (UnifiedLog.fetchOffsetByTimestamp), each returning the answer and, step by step, what was
 * read and compared (LookupTrace) for the UI to animate.
 */

/** Kafka's ListOffsets special timestamps. */
export const EARLIEST_TIMESTAMP = -2;
export const LATEST_TIMESTAMP = -1;
export const MAX_TIMESTAMP = -3;

/** A record as a lookup shows it. */
export interface LookupRecord {
  offset: number;
  timestamp: number;
  key: Uint8Array | null;
  value: Uint8Array | null;
  headers: DefaultRecord['headers'];
}

export interface OffsetLookupAnswer {
  offset: number;
  segment: { baseOffset: number; logFileName: string; indexFileName: string };
  /** The `.index` entry the scan started from, or null when it started at byte 0. */
  indexEntry: OffsetIndexEntryInfo | null;
  /** Byte position of the batch holding the record. */
  position: number;
  batch: RecordBatchHeader;
  /** Batch headers read during the forward scan (including the matching one). */
  batchesScanned: number;
  /** The record at `offset`; when compaction removed it, the next one in the batch. */
  record: LookupRecord;
  exact: boolean;
}

export interface TimestampLookupAnswer {
  timestamp: number;
  offset: number;
  leaderEpoch: number | null;
  segmentBaseOffset: number;
  position: number;
}

export interface LookupOptions {
  /** Record every step (default true). Off, the lookup allocates nothing for the trace. */
  trace?: boolean;
}

/** What a lookup reads of a log: its segments (LocalLog), its start offset and its epochs. */
export interface LookupTarget {
  readonly localLog: LocalLog;
  readonly logStartOffset: number;
  readonly leaderEpochCache: LeaderEpochFileCache;
}

/**
 * Finds the record at `offset` the way Kafka's read path does and explains every step: the range
 * check, the floor search over segment base offsets, the binary search of the sparse `.index`,
 * the forward scan of batch headers in the `.log`, and the record. Throws OFFSET_OUT_OF_RANGE
 * (details: offset, logStartOffset, logEndOffset, trace) outside [logStartOffset, logEndOffset).
 */
export function lookupOffset(
  log: LookupTarget,
  offset: number,
  options: LookupOptions = {},
): { answer: OffsetLookupAnswer; trace: LookupStep[] } {
  const local = log.localLog;
  const trace: LookupStep[] | undefined = options.trace === false ? undefined : [];
  const lso = log.logStartOffset;
  const leo = local.logEndOffset;
  const inRange = Number.isSafeInteger(offset) && offset >= lso && offset < leo;
  trace?.push({
    kind: 'range-check',
    target: offset,
    logStartOffset: lso,
    logEndOffset: leo,
    inRange,
    explanation: inRange
      ? `Offset ${offset} is within the log: logStartOffset ${lso} <= ${offset} < logEndOffset ${leo}.`
      : `Offset ${offset} is outside the log [${lso}, ${leo}): the broker answers OFFSET_OUT_OF_RANGE.`,
  });
  if (!inRange) throw local.outOfRange(offset, log.logStartOffset, trace);
  let seg = local.readable(local.segments.floorSegment(offset, trace) as LogSegment);
  let idx = seg.offsetIndex.lookup(offset, trace);
  let from = idx.position;
  let scanned = 0;
  let found: LogOffsetPosition | null = null;
  let hit: LocatedRecord | null = null;
  // Usually one pass. Compaction can leave the batch that reaches the offset without any record
  // at or after it, or a whole segment without it: then the scan continues after it.
  for (;;) {
    found = seg.searchForOffset(offset, from, trace);
    if (found) {
      scanned += found.headersRead;
      hit = locateRecord(seg.log.view(), found.header, offset);
      if (hit) break;
      const h = found.header;
      trace?.push(
        batchHeaderStep(
          found.position,
          h,
          false,
          `Inside, the batch at byte ${found.position} has no record at or after ${offset}: compaction removed them (the batch keeps its last offset ${h.lastOffset}), so skip its ${h.sizeInBytes} bytes and read on.`,
        ),
      );
      from = found.position + found.size;
      continue;
    }
    const nextSeg = local.segments.higherSegment(seg);
    if (!nextSeg) break;
    seg = local.readable(nextSeg);
    trace?.push({
      kind: 'segment-chosen',
      baseOffset: seg.baseOffset,
      fileName: seg.logFileName,
      explanation: `No batch left in the previous segment holds offset ${offset} or later (compaction removed them), so the scan continues in ${seg.logFileName}.`,
    });
    idx = seg.offsetIndex.lookup(offset, trace);
    from = idx.position;
  }
  if (!found || !hit) {
    trace?.push({ kind: 'not-found', explanation: `No batch holds offset ${offset} or any later offset.` });
    throw local.outOfRange(offset, log.logStartOffset, trace);
  }
  const record: LookupRecord = {
    offset: hit.offset,
    timestamp: hit.timestamp,
    key: hit.record.key,
    value: hit.record.value,
    headers: hit.record.headers,
  };
  const exact = hit?.offset === offset;
  trace?.push({
    kind: 'record-found',
    offset: record.offset,
    timestamp: record.timestamp,
    position: found.position,
    exact,
    explanation: exact
      ? `Read the batch at byte ${found.position} of ${seg.logFileName} and take record ${offset} (offset delta ${offset - found.offset}).`
      : `Offset ${offset} was removed by compaction; the next record is ${record.offset}.`,
  });
  return {
    answer: {
      offset,
      segment: { baseOffset: seg.baseOffset, logFileName: seg.logFileName, indexFileName: seg.indexFileName },
      indexEntry: idx.slot >= 0 ? seg.offsetIndex.entryInfo(idx.slot) : null,
      position: found.position,
      batch: found.header,
      batchesScanned: scanned,
      record,
      exact,
    },
    trace: trace ?? [],
  };
}

/**
 * Kafka's fetchOffsetByTimestamp: the first offset whose timestamp is >= `timestamp`. Skips
 * segments whose largest timestamp is older, searches `.timeindex`, maps its offset through
 * `.index`, scans batch headers by max timestamp, then picks the record. Answer null when no
 * record is that recent. EARLIEST_TIMESTAMP (-2) / LATEST_TIMESTAMP (-1) give the log start /
 * end offset; MAX_TIMESTAMP (-3) the offset of the largest timestamp.
 */
export function lookupTimestamp(
  log: LookupTarget,
  timestamp: number,
  options: LookupOptions = {},
): { answer: TimestampLookupAnswer | null; trace: LookupStep[] } {
  const local = log.localLog;
  const trace: LookupStep[] | undefined = options.trace === false ? undefined : [];
  const latestEpoch = log.leaderEpochCache.latestEpoch;
  if (timestamp === EARLIEST_TIMESTAMP || timestamp === LATEST_TIMESTAMP) {
    const offset = timestamp === EARLIEST_TIMESTAMP ? log.logStartOffset : local.logEndOffset;
    const seg = local.segments.floorSegment(offset) as LogSegment;
    trace?.push({
      kind: 'record-found',
      offset,
      timestamp,
      position: -1,
      exact: true,
      explanation:
        timestamp === EARLIEST_TIMESTAMP
          ? `Timestamp -2 means "earliest": the answer is the log start offset ${offset}.`
          : `Timestamp -1 means "latest": the answer is the log end offset ${offset}.`,
    });
    return {
      answer: { timestamp: -1, offset, leaderEpoch: latestEpoch, segmentBaseOffset: seg.baseOffset, position: -1 },
      trace: trace ?? [],
    };
  }
  if (timestamp === MAX_TIMESTAMP) {
    // KIP-734: the offset of the record with the largest timestamp (the first such record).
    let best: LogSegment | null = null;
    for (const s of local.segments.values) if (!best || s.maxTimestampSoFar > best.maxTimestampSoFar) best = s;
    if (!best || best.maxTimestampSoFar < 0) return { answer: null, trace: trace ?? [] };
    const max = best.maxTimestampSoFar;
    local.readable(best);
    const found = best.searchForOffset(
      best.offsetOfMaxTimestampSoFar,
      best.offsetIndex.lookup(best.offsetOfMaxTimestampSoFar).position,
    );
    let offset = best.offsetOfMaxTimestampSoFar;
    if (found) {
      const h = found.header;
      for (const r of decodeBatchRecords(best.log.view(), h)) {
        const ts = (h.attributes & 0x08) !== 0 ? h.maxTimestamp : h.baseTimestamp + r.timestampDelta;
        if (ts === max) {
          offset = h.baseOffset + r.offsetDelta;
          break;
        }
      }
    }
    trace?.push({
      kind: 'record-found',
      offset,
      timestamp: max,
      position: found?.position ?? -1,
      exact: true,
      explanation: `Timestamp -3 means "max timestamp": record ${offset} carries the largest timestamp, ${max}.`,
    });
    return {
      answer: {
        timestamp: max,
        offset,
        leaderEpoch: found && found.header.partitionLeaderEpoch >= 0 ? found.header.partitionLeaderEpoch : null,
        segmentBaseOffset: best.baseOffset,
        position: found?.position ?? -1,
      },
      trace: trace ?? [],
    };
  }
  let target: LogSegment | undefined;
  for (const s of local.segments.values) {
    const skipped = s.largestTimestamp < timestamp;
    trace?.push({
      kind: 'segment-timestamp-check',
      baseOffset: s.baseOffset,
      fileName: s.logFileName,
      largestTimestamp: s.largestTimestamp,
      targetTimestamp: timestamp,
      skipped,
      explanation: skipped
        ? `${s.logFileName}'s newest record has timestamp ${s.largestTimestamp} < ${timestamp}: skip the whole segment.`
        : `${s.logFileName}'s newest timestamp ${s.largestTimestamp} is >= ${timestamp}: the first such record is in this segment.`,
    });
    if (!skipped) {
      target = s;
      break;
    }
  }
  if (!target) {
    trace?.push({ kind: 'not-found', explanation: `No record has a timestamp >= ${timestamp}.` });
    return { answer: null, trace: trace ?? [] };
  }
  trace?.push({
    kind: 'segment-chosen',
    baseOffset: target.baseOffset,
    fileName: target.logFileName,
    explanation: `Search ${target.logFileName} through its ${target.timeIndexFileName}.`,
  });
  const hit = local.readable(target).findBatchByTimestamp(timestamp, log.logStartOffset, trace);
  if (hit) {
    const batch = hit.header;
    const logAppendTime = (batch.attributes & 0x08) !== 0;
    for (const r of decodeBatchRecords(target.log.view(), batch)) {
      const ts = logAppendTime ? batch.maxTimestamp : batch.baseTimestamp + r.timestampDelta;
      const o = batch.baseOffset + r.offsetDelta;
      if (ts >= timestamp && o >= log.logStartOffset) {
        trace?.push({
          kind: 'record-found',
          offset: o,
          timestamp: ts,
          position: hit.position,
          exact: ts === timestamp,
          explanation: `Record ${o} (timestamp ${ts}) is the first in the batch with a timestamp >= ${timestamp}.`,
        });
        const epoch = hit.header.partitionLeaderEpoch;
        return {
          answer: {
            timestamp: ts,
            offset: o,
            leaderEpoch: epoch >= 0 ? epoch : null,
            segmentBaseOffset: target.baseOffset,
            position: hit.position,
          },
          trace: trace ?? [],
        };
      }
    }
  }
  trace?.push({
    kind: 'not-found',
    explanation: `No record in ${target.logFileName} has a timestamp >= ${timestamp}.`,
  });
  return { answer: null, trace: trace ?? [] };
}
