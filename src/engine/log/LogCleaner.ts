import type { DefaultRecord, RecordBatch } from '../codec';
import {
  CONTROL_FLAG_MASK,
  DELETE_HORIZON_FLAG_MASK,
  NO_TIMESTAMP,
  TIMESTAMP_TYPE_MASK,
  TRANSACTIONAL_FLAG_MASK,
  decodeRecordBatches,
  encodeRecordBatch,
  hasDeleteHorizon,
  readBatchHeader,
  recordTimestamp,
} from '../codec';
import { KafkaError } from '../errors';
import type { LocalLog } from './LocalLog';
import type { LogConfig } from './LogConfig';
import { isCompacted } from './LogConfig';
import { LogSegment } from './LogSegment';

const INT32_MAX = 2147483647;
/**
 * Cleaner's read (and write) buffer: log.cleaner.io.buffer.size (Kafka's default 512 KiB) / log.cleaner.threads
 * (1) / 2.
 */
const CLEANER_READ_BUFFER_BYTES = (512 * 1024) / 1 / 2;

/** What the cleaner needs from a log (UnifiedLog hands itself in through this). */
export interface CleanableLog {
  config: Readonly<LogConfig>;
  segments: readonly LogSegment[];
  activeSegment: LogSegment;
  /** Kafka's lastStableOffset (= the high watermark: glassbox has no transactions). */
  highWatermark: number;
  /**
   * Kafka's lastRecordsOfActiveProducers: producer id -> offset of its last data record. The
   * batch ending there keeps its header even when cleaning empties it (BatchRetention.RETAIN_EMPTY),
   * so the producer's last sequence and epoch survive for deduplication.
   */
  lastRecordsOfActiveProducers?: ReadonlyMap<number, number>;
  /** Swaps consecutive segments for their cleaned replacement (and persists it). */
  replace(old: readonly LogSegment[], cleaned: LogSegment | null): void;
}

/** What one cleaning pass did (Kafka's CleanerStats, for the UI). */
export interface CleanerResult {
  /** Offsets [from, to) that were cleanable; to is the first uncleanable offset. */
  cleanableRange: { from: number; to: number } | null;
  /** Each group of segments merged into one cleaned segment. */
  groups: { sourceBaseOffsets: number[]; cleanedBaseOffset: number; bytesBefore: number; bytesAfter: number }[];
  distinctKeys: number;
  recordsRead: number;
  recordsRetained: number;
  /** Records removed because a later record has the same key. */
  recordsSuperseded: number;
  tombstonesRemoved: number;
  /** Records without a key (cannot be compacted; Kafka's cleaner drops them as invalid). */
  keylessRemoved: number;
  bytesBefore: number;
  bytesAfter: number;
}

function keyString(key: Uint8Array): string {
  let s = '';
  for (let i = 0; i < key.length; i++) s += String.fromCharCode(key[i] as number);
  return s;
}

/**
 * The retained records of a batch as a new batch (MemoryRecords.buildRetainedRecordsInto): same
 * base offset, last offset delta, producer fields, leader epoch and attributes; its base timestamp
 * is the delete horizon when there is one (flagged in the attributes), else the first retained
 * record's timestamp, and the timestamp deltas are rewritten against it.
 */
function rebuildBatch(batch: RecordBatch, kept: readonly DefaultRecord[], deleteHorizonMs: number | null): Uint8Array {
  const logAppendTime = (batch.attributes & TIMESTAMP_TYPE_MASK) !== 0;
  const first = kept[0] as DefaultRecord;
  const baseTimestamp = deleteHorizonMs ?? recordTimestamp(batch, first);
  let maxTimestamp = -1;
  for (const r of kept) maxTimestamp = Math.max(maxTimestamp, recordTimestamp(batch, r));
  if (logAppendTime) maxTimestamp = batch.maxTimestamp;
  const attributes =
    deleteHorizonMs === null
      ? batch.attributes & ~DELETE_HORIZON_FLAG_MASK
      : batch.attributes | DELETE_HORIZON_FLAG_MASK;
  return encodeRecordBatch({
    baseOffset: batch.baseOffset,
    partitionLeaderEpoch: batch.partitionLeaderEpoch,
    attributes,
    lastOffsetDelta: batch.lastOffsetDelta,
    baseTimestamp,
    maxTimestamp,
    producerId: batch.producerId,
    producerEpoch: batch.producerEpoch,
    baseSequence: batch.baseSequence,
    records: kept.map((r) => ({ ...r, timestampDelta: recordTimestamp(batch, r) - baseTimestamp })),
  });
}

/**
 * DefaultRecordBatch.writeEmptyHeader: a batch of no records that keeps the offsets, producer
 * id, epoch, base sequence, leader epoch, timestamp type and transactional/control flags of the
 * original, uncompressed, with both timestamps set to its max timestamp.
 */
function emptyBatch(batch: RecordBatch): Uint8Array {
  return encodeRecordBatch({
    baseOffset: batch.baseOffset,
    partitionLeaderEpoch: batch.partitionLeaderEpoch,
    attributes: batch.attributes & (TIMESTAMP_TYPE_MASK | TRANSACTIONAL_FLAG_MASK | CONTROL_FLAG_MASK),
    lastOffsetDelta: batch.lastOffsetDelta,
    baseTimestamp: batch.maxTimestamp,
    maxTimestamp: batch.maxTimestamp,
    producerId: batch.producerId,
    producerEpoch: batch.producerEpoch,
    baseSequence: batch.baseSequence,
    records: [],
  });
}

/** A pass that cleaned nothing (also what a log answers while its segments are being read back). */
export function emptyCleanerResult(): CleanerResult {
  return {
    cleanableRange: null,
    groups: [],
    distinctKeys: 0,
    recordsRead: 0,
    recordsRetained: 0,
    recordsSuperseded: 0,
    tombstonesRemoved: 0,
    keylessRemoved: 0,
    bytesBefore: 0,
    bytesAfter: 0,
  };
}

/**
 * One pass of the cleaner over a replica's log (UnifiedLog.compact): refused unless
 * cleanup.policy=compact; it waits for closed segments paged out (a log paged out before it
 * became compacted) and cleans on its next pass.
 */
export function cleanLocalLog(
  local: LocalLog,
  highWatermark: number,
  now: number,
  lastRecordsOfActiveProducers: ReadonlyMap<number, number> | undefined,
  firstDirtyOffset: number,
): CleanerResult {
  if (!isCompacted(local.config)) {
    throw new KafkaError(
      'INVALID_CONFIG',
      `${local.dir} has cleanup.policy=${local.config['cleanup.policy'].join(',')}, not compact`,
    );
  }
  const active = local.activeSegment;
  if (!local.requestResident(local.segments.values.filter((seg) => seg !== active))) return emptyCleanerResult();
  return cleanLog(
    {
      config: local.config,
      segments: local.segments.values,
      activeSegment: active,
      highWatermark,
      ...(lastRecordsOfActiveProducers ? { lastRecordsOfActiveProducers } : {}),
      replace: (old, cleaned) => local.replaceSegments(old, cleaned),
    },
    now,
    firstDirtyOffset,
  );
}

/**
 * One pass of Kafka's log cleaner over a compacted log (LogCleaner's Cleaner.clean):
 *
 *  1. The cleanable range runs from the log start to the first uncleanable offset
 *     (LogCleanerManager.cleanableOffsets): the lowest of the active segment's base offset, the
 *     last stable offset (the high watermark) and the base of the first segment holding a record
 *     younger than `min.compaction.lag.ms`, rounded down to a segment start
 *     (calculateCleanableBytes), so only whole segments entirely below the high watermark are cleaned.
 *  2. An offset map is built over the dirty section only (Cleaner.buildOffsetMap from the
 *     cleaner checkpoint, `firstDirtyOffset`, up): key -> offset of its latest record there. The
 *     clean section below is cleaned against it: a record whose key the dirty section holds again
 *     goes, one whose key it does not hold stays (it was already its key's latest).
 *  3. Segments are grouped so each group fits one segment (Kafka's groupSegmentsBySize: total
 *     size <= segment.bytes, index entries fit, relative offsets fit in an int32), and each group
 *     is rewritten as one segment named by the group's first base offset. A record survives if it
 *     is its key's latest; a tombstone (null value) survives until its batch's delete horizon
 *     (KIP-534): the first pass that keeps a tombstone stamps the horizon now + delete.retention.ms
 *     into the batch (base timestamp + attribute bit 6), and a later pass at or past it drops the
 *     tombstone. A batch that loses no record and needs no horizon is copied byte for byte; any
 *     other is re-encoded keeping its base offset, last offset delta, producer fields and leader
 *     epoch; an emptied batch disappears, unless it is an active idempotent producer's last batch
 *     (BatchRetention.RETAIN_EMPTY), which stays as a header without records. Offsets never change.
 *  4. The cleaned segment's indexes are built by the ordinary append path, one append per
 *     read-buffer chunk of a source segment (Cleaner.cleanInto), so they hold Kafka's entries
 *     (at most one per chunk), not those of a per-batch rebuild.
 */
export function cleanLog(log: CleanableLog, now: number, firstDirtyOffset = 0): CleanerResult {
  const cfg = log.config;
  const result = emptyCleanerResult();
  const lag = cfg['min.compaction.lag.ms'];
  const cleanable: LogSegment[] = [];
  for (const seg of log.segments) {
    if (seg === log.activeSegment) break;
    const next = log.segments[log.segments.indexOf(seg) + 1];
    // The segment holding the high watermark is uncleanable: replicas may still truncate above it.
    if (next === undefined || next.baseOffset > log.highWatermark) break;
    if (lag > 0 && seg.largestTimestamp > now - lag) break;
    cleanable.push(seg);
  }
  const firstSeg = cleanable[0];
  if (!firstSeg) return result;
  const lastSeg = cleanable[cleanable.length - 1] as LogSegment;
  const nextAfter = log.segments[log.segments.indexOf(lastSeg) + 1];
  result.cleanableRange = { from: firstSeg.baseOffset, to: nextAfter ? nextAfter.baseOffset : lastSeg.nextOffset };

  // 2. The offset map, over the dirty section (buildOffsetMapForSegment keeps offsets >= start).
  const decoded = new Map<LogSegment, RecordBatch[]>();
  const latest = new Map<string, number>();
  for (const seg of cleanable) {
    const batches = decodeRecordBatches(seg.log.view());
    decoded.set(seg, batches);
    if (seg.nextOffset <= firstDirtyOffset) continue;
    for (const b of batches) {
      for (const r of b.records) {
        const offset = b.baseOffset + r.offsetDelta;
        if (r.key !== null && offset >= firstDirtyOffset) latest.set(keyString(r.key), offset);
      }
    }
  }
  result.distinctKeys = latest.size;

  // 3. Groups (Kafka's groupSegmentsBySize).
  const groups: LogSegment[][] = [];
  let i = 0;
  while (i < cleanable.length) {
    const group = [cleanable[i] as LogSegment];
    let size = group[0]?.size ?? 0;
    let indexBytes = group[0]?.offsetIndex.sizeInBytes ?? 0;
    let timeIndexBytes = group[0]?.timeIndex.sizeInBytes ?? 0;
    i++;
    while (i < cleanable.length) {
      const s = cleanable[i] as LogSegment;
      if (
        size + s.size > cfg['segment.bytes'] ||
        indexBytes + s.offsetIndex.sizeInBytes > cfg['segment.index.bytes'] ||
        timeIndexBytes + s.timeIndex.sizeInBytes > cfg['segment.index.bytes'] ||
        s.nextOffset - 1 - (group[0] as LogSegment).baseOffset > INT32_MAX
      ) {
        break;
      }
      group.push(s);
      size += s.size;
      indexBytes += s.offsetIndex.sizeInBytes;
      timeIndexBytes += s.timeIndex.sizeInBytes;
      i++;
    }
    groups.push(group);
  }

  // 3-4. Rewrite each group.
  const deleteRetention = cfg['delete.retention.ms'];
  for (const group of groups) {
    const first = group[0] as LogSegment;
    const cleaned = new LogSegment(
      first.baseOffset,
      cfg['index.interval.bytes'],
      cfg['segment.index.bytes'],
      first.createdMs,
    );
    let bytesBefore = 0;
    let lastModified = first.lastModifiedMs;
    for (const seg of group) {
      bytesBefore += seg.size;
      lastModified = Math.max(lastModified, seg.lastModifiedMs);
      const batches = decoded.get(seg) ?? [];
      // Cleaner.cleanInto: one read-buffer chunk of whole batches at a time, its retained batches
      // written as one LogSegment.append (at most one index entry per chunk). A batch larger than
      // the buffer grows it (growBuffersOrFail), for the rest of this segment.
      let capacity = CLEANER_READ_BUFFER_BYTES;
      let position = 0;
      let next = 0;
      while (next < batches.length) {
        const first = batches[next] as RecordBatch;
        if (first.batchLength + 12 > capacity) {
          capacity = Math.max(Math.min(capacity * 2, cfg['max.message.bytes']), capacity + 1);
          continue;
        }
        let read = 0;
        let end = next;
        while (end < batches.length && read + (batches[end] as RecordBatch).batchLength + 12 <= capacity)
          read += (batches[end++] as RecordBatch).batchLength + 12;
        const chunk = {
          start: cleaned.size,
          maxOffset: -1,
          maxTimestamp: NO_TIMESTAMP,
          shallowOffsetOfMaxTimestamp: -1,
        };
        // MemoryRecords.FilterResult.updateRetainedBatchMetadata, per retained batch.
        const retained = (lastOffset: number, maxTimestamp: number) => {
          if (maxTimestamp > chunk.maxTimestamp) {
            chunk.maxTimestamp = maxTimestamp;
            chunk.shallowOffsetOfMaxTimestamp = lastOffset;
          }
          chunk.maxOffset = Math.max(chunk.maxOffset, lastOffset);
        };
        for (const batch of batches.slice(next, end)) {
          const size = batch.batchLength + 12;
          const lastOffset = batch.baseOffset + batch.lastOffsetDelta;
          // KIP-534: a batch's tombstones may go once the cleaner's stamped delete horizon has passed.
          const horizon = hasDeleteHorizon(batch.attributes) ? batch.baseTimestamp : null;
          const kept: DefaultRecord[] = [];
          for (const r of batch.records) {
            result.recordsRead++;
            const offset = batch.baseOffset + r.offsetDelta;
            if (r.key === null) {
              result.keylessRemoved++;
              continue;
            }
            // Cleaner.shouldRetainRecord: kept unless the map holds a later offset for its key.
            const found = latest.get(keyString(r.key));
            if (found !== undefined && offset < found) {
              result.recordsSuperseded++;
              continue;
            }
            if (r.value === null && horizon !== null && now >= horizon) {
              result.tombstonesRemoved++;
              continue;
            }
            kept.push(r);
          }
          result.recordsRetained += kept.length;
          // MemoryRecords.filterTo: the first pass that keeps a tombstone stamps the horizon.
          const stampHorizon = horizon === null && kept.some((r) => r.value === null);
          if (kept.length === batch.records.length && !stampHorizon) {
            cleaned.writeBatch(seg.log.view(), position, size, batch.baseOffset, null);
            retained(lastOffset, batch.maxTimestamp);
          } else if (kept.length === 0) {
            if (batch.producerId >= 0 && log.lastRecordsOfActiveProducers?.get(batch.producerId) === lastOffset) {
              const bytes = emptyBatch(batch);
              cleaned.writeBatch(bytes, 0, bytes.length, batch.baseOffset, null);
              retained(lastOffset, batch.maxTimestamp);
            }
          } else {
            const bytes = rebuildBatch(batch, kept, stampHorizon ? now + deleteRetention : horizon);
            cleaned.writeBatch(bytes, 0, bytes.length, batch.baseOffset, null);
            retained(lastOffset, readBatchHeader(bytes, 0).maxTimestamp);
          }
          position += size;
        }
        const written = cleaned.size - chunk.start;
        if (written > 0)
          cleaned.recordAppend(
            chunk.start,
            written,
            chunk.maxOffset,
            chunk.maxTimestamp,
            chunk.shallowOffsetOfMaxTimestamp,
            lastModified,
          );
        next = end;
      }
    }
    cleaned.onBecomeInactiveSegment();
    cleaned.lastModifiedMs = lastModified;
    result.bytesBefore += bytesBefore;
    result.bytesAfter += cleaned.size;
    result.groups.push({
      sourceBaseOffsets: group.map((s) => s.baseOffset),
      cleanedBaseOffset: cleaned.baseOffset,
      bytesBefore,
      bytesAfter: cleaned.size,
    });
    log.replace(group, cleaned);
  }
  return result;
}
