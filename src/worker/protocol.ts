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
 * A frame carries the views the page asked for only when their version moved (FrameArgs.have);
 * how often the page asks for which view is the page's one pacing policy (ui/FramePacing.ts).
 */

// The data views are built beside the engine (src/engine/views); the protocol carries them.
export type {
  BatchDump,
  CleanupView,
  LookupAnswerView,
  LookupStep,
  LookupView,
  PartitionChoice,
  PartitionView,
  ProducerEvent,
  RecordCell,
  RecordWindow,
  RecordWindowRequest,
  RecoveryView,
  SegmentDump,
  SegmentView,
  SerializedError,
} from '../engine';
import type {
  LookupView,
  ProducerEvent,
  RecordWindow,
  RecordWindowRequest,
  RecoveryView,
  SegmentDump,
  SerializedError,
} from '../engine';

// The applications around the engine (brokers, controller, znodes, groups, the page's producer):
// types in engine/apps.
import type {
  SendOutcome as ProduceResult,
  MomentKind,
  TravelView,
  AccumulatorView,
  EventLogView,
  MetricsView,
  ClusterView,
  LookupArgs,
  SegmentArgs,
  DiscardView,
  JobView,
  ProduceManyArgs,
  LostPartitionView,
  ProducerSettings,
  PlacementPreview,
  PlacementPreviewArgs,
  ScenarioAction,
  EngineEvent,
  BoardView,
  ScenarioSpec,
  LessonProbe,
  LessonSummary,
} from '../engine/apps';
/** What a panel produce answers (ClusterApps.apply's SendOutcome). */
export type { SendOutcome as ProduceResult } from '../engine/apps';
export type { ForkView, MomentKind, TravelView } from '../engine/apps';
export type {
  AccumulatorView,
  ClusterView,
  DiscardView,
  JobView,
  LookupArgs,
  SegmentArgs,
  LostPartitionView,
  ProduceManyArgs,
  ProducerSettings,
};
export { MAX_IMPORT_BYTES, MAX_PRODUCE_MANY_RECORDS } from '../engine/apps';

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
  produceRecord: [ProduceArgs, ProduceResult];
  /** Starts a long "send N records" job; its progress comes with each frame, and it can be cancelled. */
  produceRecords: [ProduceManyArgs, { jobId: number }];
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
  /** Board: one action (kill a broker, move a consumer...), applied now and recorded. */
  applyAction: [ScenarioAction, BoardView];
  /**
   * Board: starts over from a scenario (seed, preset, timed actions); null keeps the
   * running cluster. The scenario is replayed in memory first: if an action fails, the KafkaError
   * names it and neither the running cluster nor its stored files change.
   */
  loadScenario: [ScenarioSpec | null, BoardView];
  /**
   * Board: what starting over from a scenario would discard, asked before loadScenario
   * (the page confirms first). Replays the scenario in memory, so a link that cannot be replayed
   * is refused here with the failing action's KafkaError, before anyone is asked.
   */
  checkScenario: [ScenarioSpec, DiscardView];
  /**
   * Board: a long scenario (DiscardView.replay.sliced) as a job, a bounded slice between
   * frames with progress and Cancel: replayed in memory first, then on the wiped store (or, on the
   * scenario already running, the running cluster run on to the link's time).
   */
  startScenarioJob: [ScenarioSpec, { jobId: number }];
  /**
   * Time travel: the page confirmed that an action at the past moment `atMs` may fork the run even
   * though the fork deletes topics no replay brings back (an acting command refused with
   * details.forkDrops says which); the action is then sent again.
   */
  travelConfirmFork: [{ atMs: number }, null];
  /** Board: where assignReplicasToBrokers would put a new topic's replicas, step by step. */
  previewPlacement: [PlacementPreviewArgs, PlacementPreview];
  /** Board: fast-forwards its clock by `ms` (to watch a session time out without waiting). */
  advanceClock: [{ ms: number }, BoardView];
  /** The lessons (texts, actions, questions; their conditions stay in the worker). */
  lessons: [null, LessonSummary[]];
  /** Judges a lesson's step against the running cluster: its condition, what it shows, the question's answer. */
  lessonProbe: [{ id: string; step: number; startedAtMs: number }, LessonProbe];
  /**
   * Time travel: shows the cluster as it was at `atMs` (engine ms since the scenario started),
   * replayed from the scenario in memory; the live run is paused meanwhile and its files untouched.
   * `atMs` at or past the live run's now returns to it. Any action taken while the past is shown
   * forks the run there (what came after is discarded; `TravelView.fork` says so).
   */
  travelSeek: [{ atMs: number }, TravelView];
  /** Time travel: the next moment of `kind` (election, ISR change, rebalance, roll) after the time shown, then shown; null when there is none. */
  travelNext: [{ kind: MomentKind }, { travel: TravelView; atMs: number | null }];
}

export type CommandName = keyof Commands;
export type CommandArgs<K extends CommandName> = Commands[K][0];
export type CommandResult<K extends CommandName> = Commands[K][1];

export type WorkerRequest = {
  [K in CommandName]: { messageId: number; type: K; data: CommandArgs<K> };
}[CommandName];

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

export interface StorageStatus {
  /** files: the Node host's log dirs (`npm run broker -- --data DIR`). */
  kind: 'indexeddb' | 'memory' | 'files';
  /** Set when IndexedDB was wanted but failed: the cluster runs in memory only. */
  error: SerializedError | null;
  /**
   * After "Save again from memory": the partitions whose oldest records were paged out of memory
   * and so went with the deleted database (the leader's log now starts at `logStartOffset`).
   */
  lostWithStore?: LostPartitionView[];
}

/**
 * The views a frame can carry, by name. Each view carries its `version`, which moves whenever
 * what it shows may have changed; the page says which versions it holds (FrameArgs.have) and the
 * worker sends only the views that moved. A new view is one more field here and one more source
 * in EngineHost.frame.
 */
export interface FrameViews {
  /** The data path: every partition's log, as the producer panel and log views draw it. */
  cluster?: ClusterView;
  /** The board: brokers, controller, znodes, groups, the scenario so far. */
  board?: BoardView;
  /** The producer panel's record accumulator. */
  accumulator?: Versioned<AccumulatorView>;
  /** The one event log (engine/apps/events), while the page shows it. */
  eventLog?: EventLogView;
  /** Kafka's metrics by their JMX names (engine/apps/metrics), while the page shows them. */
  metrics?: MetricsView;
}

/** A view with the version the worker gave it (ClusterView and BoardView carry their own). */
export type Versioned<T> = T & { version: number };

export type ViewName = keyof FrameViews;

/** Per view the page wants in this frame, the version it holds (-1 for none yet). */
export type ViewVersions = Partial<Record<ViewName, number>>;

export interface FrameArgs {
  /** Milliseconds of engine time to advance before answering (0 when paused). */
  advanceMs: number;
  /** The record windows the page is showing; each comes back when its content changed. */
  windows: RecordWindowRequest[];
  /**
   * The run the page's versions belong to (FrameResult.run; 0 before the first frame). Versions
   * of another run count as none held.
   */
  run: number;
  /**
   * The views the page wants this frame, each with the version it holds: a view that moved past
   * that version comes back. A view left out is not built (the page paces its views:
   * ui/FramePacing.ts); record windows come only with `cluster`.
   */
  have: ViewVersions;
}

/** One frame: what happened since the last one, and the views that moved. */
export interface FrameResult {
  /** The running cluster; a new id after a replace (reset, a scenario), whose versions start over. */
  run: number;
  /** The engine clock after the frame: ms since the scenario started (one time base, page and worker). */
  nowMs: number;
  /** What happened since the last frame, oldest first. */
  events: FrameEvents;
  /** The wanted views whose version moved past the one the page holds. */
  views: FrameViews;
  /** The requested windows whose content changed since they were last sent (with the cluster view only). */
  windows: RecordWindow[];
  /** Long jobs that are running or finished since the last frame. */
  jobs: JobView[];
  /** Time travel: the time shown, the live run's now, the last fork. */
  travel: TravelView;
}

export interface FrameEvents {
  /** The producer panel's events (the last record's journey; every one while the accumulator is shown). */
  producer: UiEvent[];
  /** How many producer events were not kept (capped per frame; the views read state, not events). */
  dropped: number;
  /** The board's events the page narrates and animates. */
  board: EngineEvent[];
}

/** Engine events the page animates. */
export type UiEvent = ProducerEvent;

export interface ProduceArgs {
  topic: string;
  /** Text keys and values are sent as UTF-8; null is a null key (or a tombstone value). */
  key: string | null;
  value: string | null;
  headers: { key: string; value: string | null }[];
}
