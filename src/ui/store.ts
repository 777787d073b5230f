/**
 * The page's one store (zustand, vanilla), composed of slices: everything the views draw, fed by
 * the worker's frames (Session.apply, the one consumer). The data path's state sits at the top;
 * each slice is declared in its own file, which never imports this one:
 *  - `board`: the cluster's board (cluster/boardSlice.ts: its view, stories, tab);
 *  - `replication`: replication in lock-step with its tokens (cluster/replicationSlice.ts, driven
 *    by cluster/replicationHold.ts);
 *  - `phases`: the group cards' rebalance phases (groups/phaseSlice.ts, driven by groups/phaseBoard.ts);
 *  - `slow`: the auto slow-down (time/slowSlice.ts, time/autoSlow.ts);
 *  - `welcome`: the first screen's welcome (welcome/welcomeSlice.ts);
 *  - `flights`: the flying tokens (producer/flightSlice.ts);
 *  - `discard`: the question before a scenario discards the stored cluster (scenarios/discardSlice.ts);
 *  - `lessons`: the lesson being walked through (lessons/lessonSlice.ts, driven by lessons/lessonStore.ts).
 * Components read with narrow selectors, `useUi(selector)` (or `useBoard`); code outside React
 * reads and writes a slice through `sliceOf(key)`. Per-frame motion subscribes to the store
 * directly (`uiStore.subscribe`) and writes styles, so a frame does not re-render React.
 */
import { createStore } from 'zustand/vanilla';
import { useStore } from 'zustand';
import { initialBoardState, type BoardState } from './cluster/boardSlice';
import type { Flight } from './producer/flightSlice';
import type { DiscardQuestion } from './scenarios/discardSlice';
import type { LessonState } from './lessons/lessonSlice';
import { initialReplicationState, type ReplicationState } from './cluster/replicationSlice';
import { initialPhaseBoardState, type PhaseBoardState } from './groups/phaseSlice';
import { initialSlowState, type SlowState } from './time/slowSlice';
import { initialWelcomeState, type WelcomeState } from './welcome/welcomeSlice';
import type { PageRole } from '../link/hostFrames';
import type {
  TravelView,
  AccumulatorView,
  ClusterView,
  JobView,
  PartitionChoice,
  LookupView,
  RecordWindow,
  RecordWindowRequest,
  RecoveryView,
  StorageStatus,
} from '../worker/protocol';

export type Phase =
  /** Waiting for the worker to open the cluster. */
  | 'starting'
  /** The cluster is open and running in this tab. */
  | 'ready'
  /** Another tab owns the cluster. */
  | 'locked'
  /** This tab owned the cluster until another tab took it over. */
  | 'taken-over'
  /** The worker could not start. */
  | 'failed';

export const SPEEDS = [0.25, 0.5, 1, 2, 4, 8, 16] as const;
export type Speed = (typeof SPEEDS)[number];

export interface UiState {
  phase: Phase;
  /** Why the page is 'failed', in words. */
  failure: string | null;
  storage: StorageStatus | null;
  /** IndexedDB was deleted under the page (e.g. "Clear site data"): offer to save again from memory. */
  storageLost: boolean;
  /** What recovery did on load (empty when the cluster was created now). */
  recovery: RecoveryView[];
  /** True when the cluster was created on this open (first visit or after a reset). */
  created: boolean;
  /** False when the browser lacks Web Locks, so another tab could write the same cluster. */
  exclusive: boolean;
  /**
   * Attached to the Node host's engine (`npm run broker`) instead of a worker: whether this page
   * controls it or watches; null for the page's own worker.
   */
  host: PageRole | null;
  view: ClusterView | null;
  /** Engine clock: ms since the scenario started (the one time base; formatClock shows it). */
  nowMs: number;
  /** Frames the worker has answered since the page opened: a state to wait on instead of a sleep. */
  frames: number;
  playing: boolean;
  speed: Speed;
  /** Time travel: the moment shown, the live run's now, the last fork (each frame brings it). */
  travel: TravelView | null;
  /** The fork whose notice the learner dismissed (ForkView.n). */
  forkSeen: number;
  /** What each partition view wants to show, by `<topic>-<partition>`; sent with every frame. */
  windowRequests: Record<string, RecordWindowRequest>;
  /** The record windows last received, by `<topic>-<partition>`. */
  windows: Record<string, RecordWindow>;
  selectedTopic: string | null;
  /** The segment (and batch) open in the segment inspector. */
  inspect: InspectTarget | null;
  sideTab: SideTab;
  /** The lookup being stepped through, and the index of the step shown. */
  lookup: { view: LookupView; step: number } | null;
  /** The partitioner's reasoning for the last record sent from the producer panel. */
  lastChoice: PartitionChoice | null;
  /** Long jobs in the worker (bulk produce), by id. */
  jobs: Record<number, JobView>;
  /** The producer panel's record accumulator (sent while the accumulator tab is open). */
  accumulator: AccumulatorView | null;
  /** The outcome of the last import, shown until dismissed. */
  importMessage: { ok: boolean; text: string } | null;
  /**
   * Bumps each time the cluster is replaced (reset, a scenario, a preset): what a view keeps of
   * the old cluster on its own (the last record's journey) is dropped then.
   */
  clusterRun: number;
  /** The board's slice: the cluster's board view and what the page tells of it. */
  board: BoardState;
  /** Replication drawn in step with its tokens. */
  replication: ReplicationState;
  /** Each group's rebalance phases as its card plays them. */
  phases: PhaseBoardState;
  /** The auto slow-down. */
  slow: SlowState;
  /** The first screen's welcome. */
  welcome: WelcomeState;
  /** Tokens flying across the page. */
  flights: Flight[];
  /** The question open before a scenario discards the stored cluster, if any. */
  discard: DiscardQuestion | null;
  /** The lesson slice: the catalog and the lesson being walked through. */
  lessons: LessonState;
  /** The producer panel's record as typed, which the P shortcut sends. */
  producerDraft: ProducerDraft | null;
  /** What the last one-key shortcut did, in words. */
  shortcutSaid: string | null;
}

export interface ProducerDraft {
  topic: string;
  key: string | null;
  value: string;
  headers: { key: string; value: string }[];
}

export type SideTab = 'producer' | 'accumulator' | 'inspector' | 'lookup' | 'metrics' | 'events';

export interface InspectTarget {
  topic: string;
  partition: number;
  baseOffset: number;
  /** The batch to highlight, by its byte position in the `.log`. */
  batchPosition: number | null;
}

export const initialUiState: UiState = {
  phase: 'starting',
  failure: null,
  storage: null,
  storageLost: false,
  recovery: [],
  created: false,
  exclusive: true,
  host: null,
  view: null,
  nowMs: 0,
  frames: 0,
  playing: true,
  speed: 1,
  travel: null,
  forkSeen: 0,
  windowRequests: {},
  windows: {},
  selectedTopic: null,
  inspect: null,
  sideTab: 'producer',
  lookup: null,
  lastChoice: null,
  jobs: {},
  importMessage: null,
  accumulator: null,
  clusterRun: 0,
  board: initialBoardState,
  replication: initialReplicationState(),
  phases: initialPhaseBoardState,
  slow: initialSlowState,
  welcome: initialWelcomeState(),
  flights: [],
  discard: null,
  lessons: { catalog: null, active: null },
  producerDraft: null,
  shortcutSaid: null,
};

export function partitionKey(topic: string, partition: number): string {
  return `${topic}-${partition}`;
}

export type UiStore = ReturnType<typeof createUiStore>;

export function createUiStore(init: Partial<UiState> = {}) {
  // A store of its own gets its own replication working state (the schedule and timelines are mutated in place).
  return createStore<UiState>()(() => ({ ...initialUiState, replication: initialReplicationState(), ...init }));
}

/** The page's store. Tests of pure helpers build their own with createUiStore. */
export const uiStore = createUiStore();

export function useUi<T>(selector: (s: UiState) => T): T {
  return useStore(uiStore, selector);
}

/** The slices: the parts of the state that code outside React reads and writes as a whole. */
export type SliceKey = 'board' | 'replication' | 'phases' | 'slow' | 'welcome' | 'lessons';

/** One slice's read and write, as zustand's getState/setState over `s[key]`. */
export interface SliceApi<T> {
  getState(): T;
  setState(patch: Partial<T> | ((s: T) => Partial<T>)): void;
}

/** The slice `key` of `store` (the page's by default). */
export function sliceOf<K extends SliceKey>(key: K, store: UiStore = uiStore): SliceApi<UiState[K]> {
  return {
    getState: () => store.getState()[key],
    setState: (patch) =>
      store.setState((s) => ({
        [key]: { ...s[key], ...(typeof patch === 'function' ? patch(s[key]) : patch) },
      })),
  };
}

/** Reads the board's slice in a component. */
export function useBoard<T>(selector: (s: BoardState) => T): T {
  return useStore(uiStore, (s) => selector(s.board));
}

/** The board's slice now (outside React). */
export function getBoard(): BoardState {
  return uiStore.getState().board;
}

/** Merges `patch` (or what `update` makes of the slice) into the board's slice. */
export function setBoard(patch: Partial<BoardState> | ((s: BoardState) => Partial<BoardState>)): void {
  sliceOf('board').setState(patch);
}

/**
 * What the lookup stepper points at in a partition's drawing, as a string so selecting it does not
 * re-render on unrelated changes: `<segment base offset or ''>:<found offset or ''>`, or '' when
 * the lookup is about another partition (or there is none).
 */
export function lookupFocus(s: UiState, topic: string, partition: number): string {
  const l = s.lookup;
  if (!l || l.view.topic !== topic || l.view.partition !== partition) return '';
  let segment: number | null = null;
  let offset: number | null = null;
  for (const step of l.view.steps.slice(0, l.step + 1)) {
    if (step.kind === 'segment-probe' || step.kind === 'segment-chosen') segment = step.baseOffset;
    if (step.kind === 'record-found') offset = step.offset;
  }
  return `${segment ?? ''}:${offset ?? ''}`;
}
