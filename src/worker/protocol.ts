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

/** The commands the worker serves: name -> [argument, result]. */
export interface Commands {
  /** Opens the cluster: takes ownership, loads or recovers it from IndexedDB, or creates the demo. */
  open: [OpenArgs, OpenResult];
  /** Advances the clock (if playing) and returns what happened since the last frame. */
  frame: [FrameArgs, FrameResult];
  /** The whole picture now, regardless of what has been pulled. */
  snapshot: [null, ClusterView];
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

export type WorkerNotice = { notice: 'fatal'; error: SerializedError };

export type WorkerMessage = WorkerReply | WorkerNotice;

export interface OpenArgs {
  /** The storage backend: IndexedDB normally, memory when the page asks for a throwaway cluster. */
  storage: 'indexeddb' | 'memory';
}

export interface OpenResult {
  /** Where the segment files live, and if IndexedDB failed, why nothing is being saved. */
  storage: StorageStatus;
  /** True when the cluster was created now (first open); false when recovered from storage. */
  created: boolean;
  view: ClusterView;
}

export interface StorageStatus {
  kind: 'indexeddb' | 'memory';
  /** Set when IndexedDB was wanted but failed: the cluster runs in memory only. */
  error: SerializedError | null;
}

export interface FrameArgs {
  /** Milliseconds of engine time to advance before answering (0 when paused). */
  advanceMs: number;
}

export interface FrameResult {
  /** The engine clock after the frame. */
  nowMs: number;
  /** The picture, when anything changed since the last frame; null when nothing did. */
  view: ClusterView | null;
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
  segments: SegmentView[];
}

export interface SegmentView {
  baseOffset: number;
  /** The segment's files by their real names: `<20-digit base offset>.log`, `.index`, `.timeindex`. */
  files: { name: string; bytes: number }[];
  /** First offset after this segment (the next segment's base, or the LEO for the active one). */
  nextOffset: number;
  active: boolean;
}
