/**
 * The message protocol between the page and the engine's Web Worker.
 *
 * Three kinds of message cross the boundary:
 *   page -> worker   WorkerRequest  {messageId, type, data}   one per call, `type` picks the command
 *   worker -> page   WorkerReply    {requestId, ok, data | error}   exactly one per request
 *   worker -> page   WorkerNotice   {notice, ...}   unsolicited: job progress, a failure at start-up
 *
 * Every command, its argument and its result are listed once, in `Commands`; both sides are typed
 * from that table, so a command cannot be sent with the wrong data or read with the wrong result.
 * Errors cross as {name, code, message} (a KafkaError keeps its Kafka error name in `code`).
 * Byte arrays travel in the transfer list, never copied twice.
 *
 * Engine events do not stream freely: the page pulls them once per animation frame with `frame`,
 * which also advances the engine clock by the time the page's clock says has passed. So at most
 * one batch per frame reaches the page, and a page that cannot keep up simply pulls less often.
 */

import type { LookupStep } from '../engine/log/LookupTrace';
import type { RetentionReason } from '../engine/log/PartitionLog';
import type { ProducerEvent } from '../engine/producer/events';
import type { PartitionChoice, PartitionerStrategy } from '../engine/producer/Partitioner';

export type { LookupStep, PartitionChoice, ProducerEvent };

// The control plane (brokers, controller, znodes, groups): types in ./plane/types.
import type {
  PlacementPreview,
  PlacementPreviewArgs,
  PlaneAction,
  PlaneFrame,
  PlaneView,
  ScenarioSpec,
} from './plane/types';

/** The commands the worker serves: name -> [argument, result]. */
export interface Commands {
  /** Opens the cluster: takes ownership, loads or recovers it from IndexedDB, or creates the demo. */
  open: [OpenArgs, OpenResult];
  /** Advances the clock (if playing) and returns what happened since the last frame. */
  frame: [FrameArgs, FrameResult];
  /** The whole picture now, regardless of what has been pulled. */
  snapshot: [null, ClusterView];
  /** An offset (or timestamp) lookup with the engine's step-by-step trace. */
  lookup: [LookupArgs, LookupView];
  /** Sends one record through the producer (partitioner, accumulator, sender). */
  produce: [ProduceArgs, ProduceResult];
  /** Starts a long "send N records" job; its progress comes with each frame, and it can be cancelled. */
  produceMany: [ProduceManyArgs, { jobId: number }];
  cancelJob: [{ jobId: number }, null];
  /** Changes the demo producer's settings (Kafka's keys); answers with the settings now in force. */
  setProducerSettings: [Partial<ProducerSettings>, ProducerSettings];
  /** Runs the engine clock until nothing is pending (accumulator drained, requests answered). */
  runUntilIdle: [null, { advancedMs: number }];
  /** Wipes IndexedDB and starts again from the demo cluster. */
  reset: [null, OpenResult];
  /**
   * After the database was deleted elsewhere: creates it again and writes every file from the
   * engine's memory (segments, indexes, checkpoints, the cluster's metadata).
   */
  repersist: [null, StorageStatus];
  /** One segment's files decoded like kafka-dump-log, with raw bytes for the hex view. */
  segment: [SegmentArgs, SegmentDump];
  /** The partition's real files as a zip (`<topic>-<partition>/<base>.log|.index|.timeindex`). */
  exportPartition: [{ topic: string; partition: number }, { fileName: string; zip: Uint8Array }];
  /** Validates a zip of segment files and loads it as a partition; a bad file changes nothing. */
  importPartition: [{ zip: Uint8Array; fileName: string }, { topic: string; partition: number; records: number }];
  /** Creates the seeds' example partition (segments 0, 170410, 239430) for the lookup stepper. */
  seedsLookupPreset: [null, { topic: string; partition: number; offset: number }];
  /** Control plane: one action (kill a broker, move a consumer...), applied now and recorded. */
  planeAction: [PlaneAction, PlaneView];
  /**
   * Control plane: starts over from a scenario (seed, preset, timed actions); null keeps the
   * running cluster. The scenario is replayed in memory first: if an action fails, the KafkaError
   * names it and neither the running cluster nor its stored files change.
   */
  planeScenario: [ScenarioSpec | null, PlaneView];
  /**
   * Control plane: what starting over from a scenario would discard, asked before planeScenario
   * (the page confirms first). Replays the scenario in memory, so a link that cannot be replayed
   * is refused here with the failing action's KafkaError, before anyone is asked.
   */
  planeScenarioCheck: [ScenarioSpec, DiscardView];
  /** Control plane: where assignReplicasToBrokers would put a new topic's replicas, step by step. */
  planePlacement: [PlacementPreviewArgs, PlacementPreview];
  /** Control plane: fast-forwards its clock by `ms` (to watch a session time out without waiting). */
  planeAdvance: [{ ms: number }, PlaneView];
}

export type CommandName = keyof Commands;
export type CommandArgs<K extends CommandName> = Commands[K][0];
export type CommandResult<K extends CommandName> = Commands[K][1];

export type WorkerRequest = {
  [K in CommandName]: { messageId: number; type: K; data: CommandArgs<K> };
}[CommandName];

/** An error as it crosses the boundary. `code` is Kafka's error name when there is one. */
export interface SerializedError {
  name: string;
  code: string | null;
  message: string;
  details?: Record<string, unknown>;
}

export type WorkerReply =
  | { requestId: number; ok: true; data: unknown }
  | { requestId: number; ok: false; error: SerializedError };

export type WorkerNotice =
  | { notice: 'fatal'; error: SerializedError }
  /** Another tab took the cluster over: this worker has stopped writing. */
  | { notice: 'ownership-lost' }
  /** IndexedDB failed while running: the cluster continues in memory and nothing more is saved. */
  | { notice: 'storage-failed'; error: SerializedError }
  /**
   * The IndexedDB database was deleted (or upgraded) elsewhere, e.g. "Clear site data": the worker
   * closed its connection and runs on in memory; `repersist` saves everything again.
   */
  | { notice: 'storage-lost'; error: SerializedError };

export type WorkerMessage = WorkerReply | WorkerNotice;

/** What replacing the running cluster by a scenario would throw away. */
export interface DiscardView {
  /** False when the scenario is the one already running (a reload of its own link): nothing is replaced. */
  replaces: boolean;
  /**
   * True when the running cluster holds nothing its preset would not rebuild: no actions taken,
   * no topic added, no record sent from the producer panel. Replacing it then loses nothing.
   */
  onlyPreset: boolean;
  /** The user topics stored now, with their partitions and records (log end minus log start, summed). */
  topics: { name: string; partitions: number; records: number }[];
  /** The actions recorded in the running scenario. */
  actions: number;
}

export interface OpenArgs {
  /** The storage backend: IndexedDB normally, memory when the page asks for a throwaway cluster. */
  storage: 'indexeddb' | 'memory';
  /** Take the cluster from the tab that owns it (that tab's engine stops at once). */
  takeOver: boolean;
}

export type OpenResult =
  | ({ status: 'opened' } & OpenedCluster)
  /** Another tab owns the cluster: nothing was loaded; ask again with takeOver to take it. */
  | { status: 'locked' };

export interface OpenedCluster {
  /** Where the segment files live, and if IndexedDB failed, why nothing is being saved. */
  storage: StorageStatus;
  /** True when the cluster was created now (first open); false when recovered from storage. */
  created: boolean;
  /** What recovery did to each partition log on load (empty when the cluster was created). */
  recovery: RecoveryView[];
  /** False when the browser has no Web Locks: two tabs could then write the same cluster. */
  exclusive: boolean;
  view: ClusterView;
}

/** One partition log's recovery on load, as Kafka's LogLoader reports it. */
export interface RecoveryView {
  dir: string;
  segmentsLoaded: number;
  batchesValidated: number;
  /** Bytes cut from the tail of the last segment (a torn or corrupt write). */
  truncatedBytes: number;
  indexesRebuilt: number;
  /** Plain-words summary, one sentence. */
  summary: string;
}

export interface StorageStatus {
  kind: 'indexeddb' | 'memory';
  /** Set when IndexedDB was wanted but failed: the cluster runs in memory only. */
  error: SerializedError | null;
  /**
   * After "Save again from memory": the partitions whose oldest records were paged out of memory
   * and so went with the deleted database (the leader's log now starts at `logStartOffset`).
   */
  lostWithStore?: LostPartitionView[];
}

/** Offsets [fromOffset, logStartOffset) of a partition, only ever in IndexedDB, gone with it. */
export interface LostPartitionView {
  topic: string;
  partition: number;
  fromOffset: number;
  logStartOffset: number;
}

export interface FrameArgs {
  /** Milliseconds of engine time to advance before answering (0 when paused). */
  advanceMs: number;
  /** The record windows the page is showing; each comes back when its content changed. */
  windows: RecordWindowRequest[];
  /** Whether the page shows the record accumulator (then every frame carries it). */
  accumulator?: boolean;
}

export interface FrameResult {
  /** The engine clock after the frame. */
  nowMs: number;
  /** The picture, when anything changed since the last frame; null when nothing did. */
  view: ClusterView | null;
  /** The requested windows whose content changed since they were last sent. */
  windows: RecordWindow[];
  /** What happened since the last frame, oldest first (capped: `droppedEvents` says how many were not kept). */
  events: UiEvent[];
  droppedEvents: number;
  /** Long jobs that are running or finished since the last frame. */
  jobs: JobView[];
  /** The producer panel's accumulator, when the page shows it (FrameArgs.accumulator). */
  accumulator?: AccumulatorView | null;
  /** The control plane's view (when it changed) and its events since the last frame. */
  plane?: PlaneFrame;
}

/** Engine events the page animates. */
export type UiEvent = ProducerEvent;

/** The producer panel's record accumulator: per-partition queues of batches. */
export interface AccumulatorView {
  producer: string;
  settings: ProducerSettings;
  queues: {
    topic: string;
    partition: number;
    batches: { id: number; records: number; bytes: number; state: string }[];
  }[];
  acked: number;
  failed: number;
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

export interface ProduceArgs {
  topic: string;
  /** Text keys and values are sent as UTF-8; null is a null key (or a tombstone value). */
  key: string | null;
  value: string | null;
  headers: { key: string; value: string | null }[];
}

export interface ProduceResult {
  sendId: number;
  /** The producer that sent it (its events carry this name). */
  producer: string;
  /**
   * Why the record goes to its partition: the partitioner's own numbers. Null when the producer
   * has no metadata for the topic yet: the choice then arrives as a `record-partitioned` event.
   */
  choice: PartitionChoice | null;
}

/** The most records one Send N job may produce; the page's form and the worker hold to the same number. */
export const MAX_PRODUCE_MANY_RECORDS = 1_000_000;

/** The largest zip an import accepts, and the most its files may inflate to together. */
export const MAX_IMPORT_BYTES = 256 * 1024 * 1024;

export interface ProduceManyArgs {
  topic: string;
  count: number;
  /** Keys are `<keyPrefix><i>`; null sends null keys (round-robin or sticky). */
  keyPrefix: string | null;
  valueBytes: number;
  /** Records per second of engine time; 0 = as fast as the worker can. */
  ratePerSecond: number;
}

export interface ProducerSettings {
  acks: 'all' | '1' | '0';
  'linger.ms': number;
  'batch.size': number;
  partitioner: PartitionerStrategy;
}

/** A long job running in the worker. */
export interface JobView {
  jobId: number;
  label: string;
  done: number;
  total: number;
  state: 'running' | 'finished' | 'cancelled' | 'failed';
  error: SerializedError | null;
}

export interface SegmentArgs {
  topic: string;
  partition: number;
  baseOffset: number;
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

export interface LookupArgs {
  topic: string;
  partition: number;
  /** Exactly one of offset and timestamp. */
  offset?: number;
  timestamp?: number;
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

/** What the page draws: plain data, built by the worker from engine state. */
export interface ClusterView {
  /** Bumps whenever anything in the view changed. */
  version: number;
  nowMs: number;
  partitions: PartitionView[];
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
   * keeps it (PartitionLog.durableOffset; for a topic the saved meta/cluster.json does not name
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
