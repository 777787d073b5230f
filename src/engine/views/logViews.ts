/**
 * Engine state -> the plain views of ./types.ts. Reading only: nothing here changes a log.
 * Pure functions of engine state, so any host (the worker, a Node process) builds the same views.
 */
import {
  ATTRIBUTES_OFFSET,
  BASE_OFFSET_OFFSET,
  BASE_SEQUENCE_OFFSET,
  BASE_TIMESTAMP_OFFSET,
  CRC_OFFSET,
  compressionType,
  decodeBatchRecords,
  LAST_OFFSET_DELTA_OFFSET,
  LENGTH_OFFSET,
  MAGIC_OFFSET,
  MAX_TIMESTAMP_OFFSET,
  PARTITION_LEADER_EPOCH_OFFSET,
  PRODUCER_EPOCH_OFFSET,
  PRODUCER_ID_OFFSET,
  RECORDS_COUNT_OFFSET,
  type RecordBatchHeader,
  timestampType,
  validateBatchCrc,
} from '../codec';
import { formatBatchLine } from '../codec/dumpLog';
import { isKafkaError } from '../errors';
import type { LogSegment } from '../log/LogSegment';
import type { LookupStep } from '../log/LookupTrace';
import type { UnifiedLog } from '../log/UnifiedLog';
import { SegmentNotLoadedError } from '../log/SegmentCache';
import type { ClusterEvent } from '../cluster/events';
import type {
  BatchDump,
  CleanupView,
  LookupView,
  PartitionView,
  RecordCell,
  RecordWindow,
  RecordWindowRequest,
  SegmentDump,
} from './types';
import { serializeError } from './serializeError';

const textDecoder = new TextDecoder('utf-8', { fatal: false });

/** Record bytes as text for display (invalid UTF-8 shows replacement characters); null stays null. */
export function bytesToText(bytes: Uint8Array | null, max = 200): string | null {
  if (bytes === null) return null;
  const text = textDecoder.decode(bytes.length > max * 4 ? bytes.subarray(0, max * 4) : bytes);
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** The most segments a partition view carries (a million-record log has thousands). */
export const MAX_DRAWN_SEGMENTS = 240;

/** The first 20, the last 120 and an even sample in between, when there are too many to draw. */
function sampleSegments<T>(all: T[]): T[] {
  if (all.length <= MAX_DRAWN_SEGMENTS) return all;
  const head = 20;
  const tail = 120;
  const middle = all.slice(head, all.length - tail);
  const want = MAX_DRAWN_SEGMENTS - head - tail;
  const step = middle.length / want;
  const sampled = Array.from({ length: want }, (_, i) => middle[Math.floor(i * step)] as T);
  return [...all.slice(0, head), ...sampled, ...all.slice(all.length - tail)];
}

/**
 * One partition drawn from a replica's log; `highWatermark` comes from the leader's Partition.
 * `saved` false: a reload would not recreate the topic yet (its /brokers/topics znode is not
 * saved), so nothing of it counts as saved.
 */
export function partitionView(
  topic: string,
  partition: number,
  log: UnifiedLog,
  highWatermark = log.highWatermark,
  saved = true,
): PartitionView {
  const all = log.segmentInfos();
  let size = 0;
  let flushed = 0;
  let durable = 0;
  for (const s of all) {
    if (!saved) s.durableBytes = 0;
    size += s.sizeInBytes;
    flushed += s.flushedBytes;
    durable += s.durableBytes;
  }
  const infos = sampleSegments(all);
  const segmentCount = log.logSegments.length;
  return {
    topic,
    partition,
    dir: `${topic}-${partition}`,
    logStartOffset: log.logStartOffset,
    logEndOffset: log.logEndOffset,
    highWatermark,
    recordCount: log.logEndOffset - log.logStartOffset,
    recoveryPoint: log.recoveryPoint,
    durableOffset: saved ? log.durableOffset : log.logStartOffset,
    unflushedBytes: size - durable,
    writingBytes: flushed - durable,
    flushMs: Number.isFinite(log.config['flush.ms']) ? log.config['flush.ms'] : null,
    segmentCount,
    segments: infos.map((s) => {
      const stem = s.logFileName.slice(0, -'.log'.length);
      return {
        baseOffset: s.baseOffset,
        nextOffset: s.nextOffset,
        active: s.active,
        flushedBytes: s.flushedBytes,
        durableBytes: s.durableBytes,
        files: [
          { name: s.logFileName, bytes: s.sizeInBytes },
          { name: `${stem}.index`, bytes: s.offsetIndexEntries * 8 },
          { name: `${stem}.timeindex`, bytes: s.timeIndexEntries * 12 },
        ],
      };
    }),
  };
}

/** A retention or compaction event as the page shows it (null for any other event). */
export function cleanupView(e: ClusterEvent, id: number): CleanupView | null {
  if (e.type === 'logRetention') {
    const list = e.deleted ?? [];
    return {
      kind: 'retention',
      id,
      broker: e.broker,
      atMs: e.atMs,
      deleted: list.map((d, i) => ({
        name: d.logFileName,
        baseOffset: d.baseOffset,
        nextOffset: list[i + 1]?.baseOffset ?? e.logStartOffset,
        bytes: d.sizeInBytes,
        reason: d.reason,
      })),
      logStartOffset: e.logStartOffset,
    };
  }
  if (e.type === 'logCompacted') {
    return {
      kind: 'compaction',
      id,
      broker: e.broker,
      atMs: e.atMs,
      recordsSuperseded: e.recordsSuperseded,
      tombstonesRemoved: e.tombstonesRemoved,
      bytesBefore: e.bytesBefore,
      bytesAfter: e.bytesAfter,
      segments: [...(e.cleanedSegments ?? [])],
      dirtyRatio: e.dirtyRatio ?? null,
    };
  }
  return null;
}

/**
 * The records of [from, from + count) (or the newest `count` when from is 'end') as cells, read
 * through the log's own fetch path, so what the page shows is what a consumer would read.
 */
export function recordWindow(
  topic: string,
  partition: number,
  log: UnifiedLog,
  req: RecordWindowRequest,
): RecordWindow {
  const count = Math.max(0, Math.min(500, Math.floor(req.count)));
  const end = log.logEndOffset;
  let from = req.from === 'end' ? Math.max(log.logStartOffset, end - count) : req.from;
  from = Math.max(log.logStartOffset, Math.min(from, end));
  const records: RecordCell[] = [];
  let offset = from;
  while (records.length < count && offset < end) {
    const info = log.fetch(offset, 64 * 1024);
    if (info.batches.length === 0) break;
    for (const h of info.batches) {
      const start = h.position - info.fetchOffsetMetadata.relativePositionInSegment;
      const local = { ...h, position: start };
      for (const r of decodeBatchRecords(info.records, local)) {
        const o = h.baseOffset + r.offsetDelta;
        if (o < from || records.length >= count) continue;
        records.push({
          offset: o,
          timestamp: h.baseTimestamp + r.timestampDelta,
          key: bytesToText(r.key, 40),
          value: bytesToText(r.value, 120),
          batchBaseOffset: h.baseOffset,
          batchPosition: h.position,
          segmentBaseOffset: info.fetchOffsetMetadata.segmentBaseOffset,
        });
      }
    }
    offset = info.nextOffset;
  }
  return { topic, partition, request: req, from, records };
}

/** The 61-byte v2 header, field by field, with the values Kafka would print. */
export function headerFields(h: RecordBatchHeader): BatchDump['fields'] {
  const f = (name: string, start: number, size: number, value: string | number) => ({
    name,
    start,
    size,
    value: String(value),
  });
  return [
    f('baseOffset', BASE_OFFSET_OFFSET, 8, h.baseOffset),
    f('batchLength', LENGTH_OFFSET, 4, h.batchLength),
    f('partitionLeaderEpoch', PARTITION_LEADER_EPOCH_OFFSET, 4, h.partitionLeaderEpoch),
    f('magic', MAGIC_OFFSET, 1, h.magic),
    f('crc', CRC_OFFSET, 4, h.crc),
    f(
      'attributes',
      ATTRIBUTES_OFFSET,
      2,
      `${h.attributes} (compression ${compressionType(h.attributes)}, ${timestampType(h.attributes)})`,
    ),
    f('lastOffsetDelta', LAST_OFFSET_DELTA_OFFSET, 4, h.lastOffsetDelta),
    f('baseTimestamp', BASE_TIMESTAMP_OFFSET, 8, h.baseTimestamp),
    f('maxTimestamp', MAX_TIMESTAMP_OFFSET, 8, h.maxTimestamp),
    f('producerId', PRODUCER_ID_OFFSET, 8, h.producerId),
    f('producerEpoch', PRODUCER_EPOCH_OFFSET, 2, h.producerEpoch),
    f('baseSequence', BASE_SEQUENCE_OFFSET, 4, h.baseSequence),
    f('recordCount', RECORDS_COUNT_OFFSET, 4, h.recordCount),
  ];
}

const MAX_DUMP_BATCHES = 400;
const MAX_HEX_BYTES = 1024;

/** One segment read like kafka-dump-log: batches, records, index entries, flushed bytes. */
export function segmentDump(
  topic: string,
  partition: number,
  log: UnifiedLog,
  baseOffset: number,
  saved = true,
): SegmentDump {
  const seg: LogSegment | undefined = log.logSegments.find((s) => s.baseOffset === baseOffset);
  if (!seg) throw new Error(`no segment with base offset ${baseOffset} in ${log.dir}`);
  const bytes = seg.log.view();
  const batches: BatchDump[] = [];
  let position = 0;
  let truncated = false;
  while (position < seg.size) {
    if (batches.length >= MAX_DUMP_BATCHES) {
      truncated = true;
      break;
    }
    const h = seg.log.header(position);
    const valid = validateBatchCrc(bytes, h);
    batches.push({
      position,
      size: h.sizeInBytes,
      baseOffset: h.baseOffset,
      lastOffset: h.lastOffset,
      count: h.recordCount,
      line: formatBatchLine(h, position, valid),
      fields: headerFields(h),
      bytes: bytes.slice(position, position + Math.min(h.sizeInBytes, MAX_HEX_BYTES)),
      records: decodeBatchRecords(bytes, h).map((r) => ({
        offset: h.baseOffset + r.offsetDelta,
        timestamp: h.baseTimestamp + r.timestampDelta,
        key: bytesToText(r.key),
        value: bytesToText(r.value),
        keySize: r.key?.length ?? -1,
        valueSize: r.value?.length ?? -1,
        headers: r.headers.map((x) => `${x.key}:${bytesToText(x.value) ?? 'null'}`).join(','),
      })),
    });
    position += h.sizeInBytes;
  }
  const index: SegmentDump['index'] = [];
  for (let i = 0; i < seg.offsetIndex.entries; i++) {
    const e = seg.offsetIndex.entryInfo(i);
    index.push({ offset: e.offset, position: e.position });
  }
  const timeIndex: SegmentDump['timeIndex'] = [];
  for (let i = 0; i < seg.timeIndex.entries; i++) {
    const e = seg.timeIndex.entryInfo(i);
    timeIndex.push({ timestamp: e.timestamp, offset: e.offset });
  }
  return {
    topic,
    partition,
    baseOffset,
    files: [
      { name: seg.logFileName, bytes: seg.size },
      { name: seg.indexFileName, bytes: seg.offsetIndex.entries * 8 },
      { name: seg.timeIndexFileName, bytes: seg.timeIndex.entries * 12 },
    ],
    flushedBytes: seg.flushedBytes,
    durableBytes: saved ? log.durableBytes(seg) : 0,
    logBytes: seg.size,
    active: seg === log.activeSegment,
    batches,
    index,
    timeIndex,
    truncated,
  };
}

/** Runs a lookup and packages its trace; OFFSET_OUT_OF_RANGE keeps the steps taken before it failed. */
export function lookupView(
  topic: string,
  partition: number,
  log: UnifiedLog,
  target: { kind: 'offset' | 'timestamp'; value: number },
): LookupView {
  const segmentBaseOffsets = log.logSegments.map((s) => s.baseOffset);
  const base = { topic, partition, target, segmentBaseOffsets };
  try {
    if (target.kind === 'offset') {
      const { answer, trace } = log.lookup(target.value);
      return {
        ...base,
        steps: trace,
        error: null,
        answer: {
          segmentBaseOffset: answer.segment.baseOffset,
          fileName: answer.segment.logFileName,
          position: answer.position,
          offset: answer.record?.offset ?? answer.offset,
          timestamp: answer.record?.timestamp ?? answer.batch.maxTimestamp,
          key: bytesToText(answer.record?.key ?? null),
          value: bytesToText(answer.record?.value ?? null),
        },
      };
    }
    const { answer, trace } = log.lookupByTimestamp(target.value);
    if (!answer) return { ...base, steps: trace, error: null, answer: null };
    const seg = log.logSegments.find((s) => s.baseOffset === answer.segmentBaseOffset);
    return {
      ...base,
      steps: trace,
      error: null,
      answer: {
        segmentBaseOffset: answer.segmentBaseOffset,
        fileName: seg?.logFileName ?? '',
        position: answer.position,
        offset: answer.offset,
        timestamp: answer.timestamp,
        key: null,
        value: null,
      },
    };
  } catch (e) {
    // Not an answer: the segment is being read back from the store, and the host asks again.
    if (e instanceof SegmentNotLoadedError) throw e;
    const trace = isKafkaError(e) ? (e.details.trace as LookupStep[] | undefined) : undefined;
    return { ...base, steps: trace ?? [], error: serializeError(e), answer: null };
  }
}
