/**
 * The plain views a host sends to its page: data only, built from engine state by the builders
 * beside this file (and the facade's queries), so the worker and a Node host send the same shapes.
 */
import type { ConsumerGroupDescribeRow } from '../consumerApps/ConsumerGroups';
import type { LookupStep } from '../log/LookupTrace';
import type { RetentionReason } from '../log/UnifiedLog';

/** An error as it crosses the boundary. `code` is Kafka's error name when there is one. */
export interface SerializedError {
  name: string;
  code: string | null;
  message: string;
  details?: Record<string, unknown>;
}

/** One partition log's recovery on load, as Kafka's LogLoader reports it. */
export interface RecoveryView {
  dir: string;
  segmentsLoaded: number;
  batchesValidated: number;
  /** Bytes cut from the tail of the last segment (a torn or corrupt write). */
  truncatedBytes: number;
  indexesRebuilt: number;
  /** Segments LogSegment.recover went through (the others were only opened, their indexes as stored). */
  segmentsRecovered: number;
  /** Whether the log dir held `.kafka_cleanshutdown`: then no segment is recovered. */
  hadCleanShutdown: boolean;
  /** The log's recovery-point-offset-checkpoint entry (0 when none). */
  recoveryPointCheckpoint: number;
  /** Each segment: recovered or only opened, and why, in Kafka's terms. */
  segments: { logFileName: string; recovered: boolean; reason: string }[];
  /** Plain-words summary, one sentence. */
  summary: string;
}

/** A run of records of one partition that the page shows as cells. */
export interface RecordWindowRequest {
  topic: string;
  partition: number;
  /** First offset wanted, or 'end' for the newest `count` records (the view follows the log end). */
  from: number | 'end';
  count: number;
}

export interface RecordWindow {
  topic: string;
  partition: number;
  /** The request this answers, so the page can match it. */
  request: RecordWindowRequest;
  /** First offset in `records` (records may have gaps after compaction). */
  from: number;
  records: RecordCell[];
}

/** One record as a cell: offsets and times as numbers, key and value already decoded to text. */
export interface RecordCell {
  offset: number;
  timestamp: number;
  /** UTF-8 text of the key, or null for a null key. Shown as text, never as HTML. */
  key: string | null;
  value: string | null;
  /** The batch the record sits in (its base offset and byte position in the segment). */
  batchBaseOffset: number;
  batchPosition: number;
  segmentBaseOffset: number;
}

export interface SegmentDump {
  topic: string;
  partition: number;
  baseOffset: number;
  files: { name: string; bytes: number }[];
  /** Bytes of the `.log` handed to the Store's write queue so far (flushed); the rest are only in memory. */
  flushedBytes: number;
  /** Bytes of the `.log` whose IndexedDB transactions completed (saved, <= flushedBytes): they survive closing the tab. */
  durableBytes: number;
  logBytes: number;
  active: boolean;
  batches: BatchDump[];
  /** `.index` entries: absolute offset and byte position in the `.log`. */
  index: { offset: number; position: number }[];
  /** `.timeindex` entries. */
  timeIndex: { timestamp: number; offset: number }[];
  /** The batches were cut after this many (the inspector shows the first ones only). */
  truncated: boolean;
}

export interface BatchDump {
  position: number;
  /** Bytes of the whole batch (batchLength + 12). */
  size: number;
  baseOffset: number;
  lastOffset: number;
  count: number;
  /** kafka-dump-log's line for this batch. */
  line: string;
  /** The 61-byte header, field by field, for the labelled hex view. */
  fields: { name: string; start: number; size: number; value: string }[];
  /** The batch's bytes (at most the first 1 KiB), for the hex view. */
  bytes: Uint8Array;
  records: {
    offset: number;
    timestamp: number;
    key: string | null;
    value: string | null;
    /** The key's and value's length in bytes as stored (kafka-dump-log's keySize / valueSize), -1 for null. */
    keySize: number;
    valueSize: number;
    headers: string;
  }[];
}

export interface LookupView {
  topic: string;
  partition: number;
  target: { kind: 'offset' | 'timestamp'; value: number };
  steps: LookupStep[];
  /** Where the lookup landed; null when it failed (then `error` says why, e.g. OFFSET_OUT_OF_RANGE). */
  answer: LookupAnswerView | null;
  error: SerializedError | null;
  /** The partition's segment base offsets at the time of the lookup, for drawing the floor search. */
  segmentBaseOffsets: number[];
}

export interface LookupAnswerView {
  segmentBaseOffset: number;
  /** The `.log` file the record is in. */
  fileName: string;
  /** Byte position of the batch holding the record, in that `.log`. */
  position: number;
  offset: number;
  timestamp: number;
  key: string | null;
  value: string | null;
}

export interface PartitionView {
  topic: string;
  partition: number;
  /** The log directory name, `<topic>-<partition>`. */
  dir: string;
  logStartOffset: number;
  logEndOffset: number;
  highWatermark: number;
  recordCount: number;
  /** Every offset below it has been handed to the Store's write queue (Kafka's recovery point: flushed). */
  recoveryPoint: number;
  /**
   * Every offset below it is saved: its IndexedDB transactions completed, so closing the tab now
   * keeps it (UnifiedLog.durableOffset; for a topic whose /brokers/topics znode is not saved
   * yet, the log start offset, since a reload would not recreate the topic).
   */
  durableOffset: number;
  /** Bytes not yet saved to IndexedDB: only in memory, or handed to the write queue and still writing. */
  unflushedBytes: number;
  /** Of those, the bytes handed to the write queue whose transactions have not completed yet. */
  writingBytes: number;
  /** The topic's `flush.ms` (log.flush.interval.ms); null when flushing is left to segment rolls. */
  flushMs: number | null;
  /** The broker whose replica is shown (the leader), and the in-sync replicas. */
  leader?: number;
  isr?: number[];
  /**
   * The segments, oldest first. A log with more than MAX_DRAWN_SEGMENTS sends its first and last
   * ones and an even sample of the rest (the overview cannot draw more); `segmentCount` is the total.
   */
  segments: SegmentView[];
  segmentCount: number;
  /** The latest retention or compaction pass that changed the shown replica's log (null: none yet). */
  lastCleanup?: CleanupView | null;
}

/**
 * What the broker's retention check or log cleaner last did to a replica's log, from its
 * logRetention / logCompacted event. `id` grows with every pass, so the page animates each once.
 */
export type CleanupView =
  | {
      kind: 'retention';
      id: number;
      broker: number;
      atMs: number;
      /** The deleted segments, oldest first: the .log file's name, offsets [baseOffset, nextOffset), size, limit broken. */
      deleted: {
        name: string;
        baseOffset: number;
        nextOffset: number;
        bytes: number;
        reason: RetentionReason;
      }[];
      logStartOffset: number;
    }
  | {
      kind: 'compaction';
      id: number;
      broker: number;
      atMs: number;
      recordsSuperseded: number;
      tombstonesRemoved: number;
      bytesBefore: number;
      bytesAfter: number;
      /** Base offsets of the segments the cleaner rewrote. */
      segments: number[];
      /** The log's dirty ratio when the cleaner chose it (null: not told). */
      dirtyRatio: number | null;
    };

export interface SegmentView {
  baseOffset: number;
  /** The segment's files by their real names: `<20-digit base offset>.log`, `.index`, `.timeindex`. */
  files: { name: string; bytes: number }[];
  /** First offset after this segment (the next segment's base, or the LEO for the active one). */
  nextOffset: number;
  active: boolean;
  /** Bytes of the `.log` handed to the write queue (flushed). */
  flushedBytes: number;
  /** Bytes of the `.log` saved (transactions completed); <= flushedBytes. */
  durableBytes: number;
}

export interface BoardBrokerView {
  id: number;
  rack: string | null;
  /** The broker process: running, shutting down (controlled shutdown) or down. */
  state: 'running' | 'shuttingDown' | 'down';
  /** Registered in the coordination store (`/brokers/ids/<id>` exists): what Kafka calls alive. */
  alive: boolean;
  isolated: boolean;
  controller: boolean;
  /** The broker's ZooKeeper session and when it was last heard from (relative ms). */
  sessionId: number;
  lastHeartbeatMs: number | null;
  leaderCount: number;
}

export interface BoardReplicaView {
  broker: number;
  role: 'leader' | 'follower' | 'offline';
  inIsr: boolean;
  logEndOffset: number;
  highWatermark: number;
  /** For a follower seen by its leader: ms since it was last caught up (ISR lag timer). */
  lagMs: number | null;
}

export interface BoardPartitionView {
  topic: string;
  partition: number;
  /** Assigned replicas, preferred leader first. */
  replicas: number[];
  leader: number;
  leaderEpoch: number;
  isr: number[];
  offline: boolean;
  replicaStates: BoardReplicaView[];
  /** Highest high watermark any leader reached: what was committed. */
  committed: number;
}

export interface BoardTopicView {
  name: string;
  internal: boolean;
  minInsyncReplicas: number;
  uncleanLeaderElection: boolean;
  /** The topic's retention.ms, retention.bytes and cleanup.policy (comma-joined), as in effect. */
  retentionMs: number;
  retentionBytes: number;
  cleanupPolicy: string;
  partitions: BoardPartitionView[];
}

export interface ZnodeView {
  path: string;
  /** The node's JSON, shortened. Shown as text. */
  data: string;
  ephemeral: boolean;
  owner: string | null;
  version: number;
  /** Watches registered on this node (data) or its children. */
  dataWatches: number;
  childWatches: number;
  /** Relative ms of the last change (create or set). */
  mtimeMs: number;
}

/** A `kafka-consumer-groups --describe` row as the page shows it (without host and client id). */
export type DescribeRowView = Pick<
  ConsumerGroupDescribeRow,
  'group' | 'topic' | 'partition' | 'currentOffset' | 'logEndOffset' | 'lag' | 'consumerId'
>;
