/**
 * The page's link to the engine: starts the worker, opens the cluster and runs the frame loop.
 *
 * The frame loop is driven by requestAnimationFrame. Each frame, if the previous pull has been
 * answered, it asks the worker for one `frame`, passing how much engine time should pass (real
 * time since the last frame times the speed, or 0 when paused). So the page receives at most one
 * batch per animation frame, and a busy page slows the pulls down instead of queueing them.
 */
import { EngineClient, WorkerError } from '../worker/client';
import type { EngineEvent, BoardView } from '../engine/apps/types';
import type {
  ClusterView,
  CommandArgs,
  CommandName,
  CommandResult,
  FrameResult,
  MomentKind,
  TravelView,
  UiEvent,
} from '../worker/protocol';
import { boardFramePatch } from './cluster/boardSlice';
import { FramePacing, nextAskAt, BOARD, type PacingState } from './FramePacing';
import { sendForking } from './scenarios/forkQuestion';
import { effectiveSpeed } from './time/autoSlow';
import { partitionKey, type Speed, type UiState, type UiStore, uiStore } from './store';

/** The longest real-time gap one frame may turn into engine time (a hidden tab resumes calmly). */
const MAX_FRAME_GAP_MS = 250;
/** How much engine time one press of "step" moves: one tick of the producer's sender loop. */
export const STEP_MS = 10;

export class Session {
  readonly client: EngineClient;
  private readonly store: UiStore;
  private inFlight = false;
  /** No frame is asked for before this (performance.now ms): FramePacing.nextAskAt. */
  private notBefore = 0;
  private lastFrameAt: number | null = null;
  private rafId = 0;
  private stopped = false;
  private eventListeners: ((events: UiEvent[]) => void)[] = [];
  private boardListeners: ((events: EngineEvent[]) => void)[] = [];
  /** Engine time a "step" asked for, added to the next frame whether playing or paused. */
  private pendingStepMs = 0;
  private carryMs = 0;
  /** The record window requests last sent (the store's object: a change makes a new one). */
  private windowsSent: UiState['windowRequests'] | null = null;
  /** Which views each frame asks for, and which of those received are drawn when (the one pacing policy). */
  private readonly pacing = new FramePacing();

  constructor(store: UiStore = uiStore, client: EngineClient = new EngineClient()) {
    this.store = store;
    this.client = client;
    client.onFatal((e) => this.store.setState({ phase: 'failed', failure: e.message }));
    client.onNotice((n) => {
      if (n.notice === 'ownership-lost') {
        this.stopLoop();
        // The worker cancelled its jobs when it stopped: none is running here any more.
        this.store.setState({ phase: 'taken-over', view: null, windows: {}, jobs: {} });
      } else if (n.notice === 'storage-lost') {
        this.store.setState({ storage: { kind: 'memory', error: n.error }, storageLost: true });
      } else if (n.notice === 'storage-failed') {
        this.store.setState({ storage: { kind: 'memory', error: n.error } });
      }
    });
  }

  /** Opens the cluster; with takeOver, takes it from the tab that owns it. */
  async start(takeOver = false): Promise<void> {
    this.store.setState({ phase: 'starting' });
    try {
      const opened = await this.client.call('open', { storage: 'indexeddb', takeOver });
      if (opened.status === 'locked') {
        this.store.setState({ phase: 'locked' });
        return;
      }
      this.store.setState({
        phase: 'ready',
        storage: opened.storage,
        recovery: opened.recovery,
        created: opened.created,
        exclusive: opened.exclusive,
        view: opened.view,
        nowMs: opened.view.nowMs,
      });
      this.stopped = false;
      this.loop();
    } catch (e) {
      this.store.setState({ phase: 'failed', failure: e instanceof Error ? e.message : String(e) });
    }
  }

  /** Wipes IndexedDB and opens the demo cluster again. */
  async reset(): Promise<void> {
    const opened = await this.client.call('reset', null);
    if (opened.status !== 'opened') return;
    this.store.setState({ storage: opened.storage, recovery: [], created: true });
    this.showNewCluster(opened.view);
  }

  /** After the worker replaced the cluster (a scenario, a preset, a lesson): draws the new one from scratch. */
  async replaced(): Promise<void> {
    this.showNewCluster(await this.client.call('snapshot', null));
  }

  /** Drops everything shown or held back of the old cluster and shows `view`. */
  private showNewCluster(view: ClusterView): void {
    this.pacing.forget();
    this.store.setState((s) => ({
      view,
      windows: {},
      jobs: {},
      lookup: null,
      lastChoice: null,
      inspect: null,
      selectedTopic: null,
      accumulator: null,
      clusterRun: s.clusterRun + 1,
    }));
  }

  /** After IndexedDB was deleted elsewhere: saves the whole cluster again from the worker's memory. */
  async repersist(): Promise<void> {
    const storage = await this.client.call('repersist', null);
    this.store.setState({ storage, storageLost: false });
  }

  /** Runs the engine until nothing is pending. */
  async runUntilIdle(): Promise<void> {
    await this.client.call('runUntilIdle', null);
  }

  private stopLoop(): void {
    this.stopped = true;
    cancelAnimationFrame(this.rafId);
  }

  /** A command from a view. Errors come back as WorkerError with Kafka's error name in `code`. */
  call<K extends CommandName>(type: K, data: CommandArgs<K>): Promise<CommandResult<K>> {
    // An action in the past that would fork away an import asks first (scenarios/discard.ts).
    return sendForking(this.client, () => this.client.call(type, data));
  }

  private scenarioListeners: ((view: BoardView) => void)[] = [];

  /** Called when a frame's board view records new actions (the page's address follows them). */
  onScenarioMoved(listener: (view: BoardView) => void): () => void {
    this.scenarioListeners.push(listener);
    return () => {
      this.scenarioListeners = this.scenarioListeners.filter((l) => l !== listener);
    };
  }

  /** Transient subscription to engine events (animations): called once per frame with that frame's events. */
  onEvents(listener: (events: UiEvent[]) => void): () => void {
    this.eventListeners.push(listener);
    return () => {
      this.eventListeners = this.eventListeners.filter((l) => l !== listener);
    };
  }

  /** Subscription to the board's events (the rebalance phases, elections): called once per frame that has some. */
  onBoardEvents(listener: (events: EngineEvent[]) => void): () => void {
    this.boardListeners.push(listener);
    return () => {
      this.boardListeners = this.boardListeners.filter((l) => l !== listener);
    };
  }

  /** Told by the page whether the board is on screen. */
  setBoardOnScreen(onScreen: boolean): void {
    this.pacing.setOnScreen(BOARD, onScreen);
  }

  /** Told by a partition's view (by `<topic>-<partition>`) whether it is on screen. */
  setOnScreen(key: string, onScreen: boolean): void {
    this.pacing.setOnScreen(key, onScreen);
  }

  togglePlay(): void {
    // Play while the past is shown plays the live run: back to it first.
    const travel = this.store.getState().travel;
    if (travel && !travel.live && !this.store.getState().playing) void this.seek(travel.liveMs);
    this.store.setState((s) => ({ playing: !s.playing }));
  }

  /**
   * Time travel: shows the run as it was at `atMs` (the worker replays it in memory), or the live
   * run at or past its now. The clock pauses in the past: the live run waits there.
   */
  async seek(atMs: number): Promise<TravelView> {
    if (atMs < (this.store.getState().travel?.liveMs ?? 0)) this.store.setState({ playing: false });
    return this.showTravel(await this.client.call('travelSeek', { atMs }));
  }

  /** Time travel: the next moment of `kind` after the one shown; null when there is none. */
  async nextMoment(kind: MomentKind): Promise<number | null> {
    this.store.setState({ playing: false });
    const next = await this.client.call('travelNext', { kind });
    this.showTravel(next.travel);
    return next.atMs;
  }

  /** Another moment is shown: every view is asked for at once, nothing held of the last one drawn. */
  private showTravel(travel: TravelView): TravelView {
    this.pacing.forget();
    this.store.setState({ travel, nowMs: travel.viewMs });
    return travel;
  }

  setSpeed(speed: Speed): void {
    this.store.setState({ speed });
  }

  /** Pauses and advances the engine clock by one step. */
  step(): void {
    this.store.setState({ playing: false });
    this.pendingStepMs += STEP_MS;
  }

  stop(): void {
    this.stopLoop();
  }

  /** The page is going away: stop the worker now, so its Web Lock (the cluster) is released. */
  shutdown(): void {
    this.stopLoop();
    this.client.terminate();
  }

  private loop(): void {
    if (this.stopped) return;
    this.rafId = requestAnimationFrame((t) => {
      this.onFrame(t);
      this.loop();
    });
  }

  /** What the pacing reads of the page: jobs (with `frame`'s), the accumulator tab, what is drawn. */
  private pacingState(frame?: FrameResult): PacingState {
    const s = this.store.getState();
    const jobs = { ...s.jobs };
    for (const j of frame?.jobs ?? []) jobs[j.jobId] = j;
    const brokers = s.board.view?.brokers.length ?? 0;
    return {
      jobs,
      accumulator: s.sideTab === 'accumulator',
      metrics: s.sideTab === 'metrics',
      eventLog: s.sideTab === 'events',
      shown: s.view,
      brokers,
    };
  }

  /**
   * The one consumer of frames: one store update per frame, the data path's state and the
   * board's slice together, with the pictures FramePacing says are due now.
   */
  apply(frame: FrameResult): void {
    this.pacing.received(frame);
    const state = this.pacingState(frame);
    const pictures = this.pacing.coalesce(frame, state);
    const s = this.store.getState();
    const patch: Partial<UiState> = { frames: s.frames + 1 };
    if (pictures.view) patch.view = pictures.view;
    if (frame.views.accumulator) patch.accumulator = frame.views.accumulator;
    if (frame.nowMs !== s.nowMs) patch.nowMs = frame.nowMs;
    if (!sameTravel(s.travel, frame.travel)) patch.travel = frame.travel;
    if (pictures.windows.length > 0) {
      const windows = { ...s.windows };
      for (const w of pictures.windows) windows[partitionKey(w.topic, w.partition)] = w;
      patch.windows = windows;
    }
    if (frame.jobs.length > 0) patch.jobs = state.jobs;
    const board = boardFramePatch(s.board, pictures.board, frame.events.board);
    const fork = frame.travel.fork;
    if (fork && fork.n !== s.travel?.fork?.n) {
      // The run forked: what the stories told after the fork never happened in this run.
      board.story = (board.story ?? s.board.story).filter((l) => l.atMs <= fork.atMs);
      board.groupStory = (board.groupStory ?? s.board.groupStory).filter((l) => l.atMs <= fork.atMs);
    }
    if (frame.views.metrics) board.metrics = frame.views.metrics;
    if (frame.views.eventLog) board.eventLog = frame.views.eventLog;
    if (Object.keys(board).length > 0) patch.board = { ...s.board, ...board };
    this.store.setState(patch);
    const events = frame.events.producer;
    if (events.length > 0) for (const l of this.eventListeners) l(events);
    if (frame.events.board.length > 0) for (const l of this.boardListeners) l(frame.events.board);
    const before = s.board.view;
    // The past's actions are not the run's: the address keeps naming the live run.
    if (pictures.board && before && frame.travel.live && actionsChanged(before, pictures.board))
      for (const l of this.scenarioListeners) l(pictures.board);
  }

  private onFrame(t: number): void {
    const gap = this.lastFrameAt === null ? 0 : Math.min(MAX_FRAME_GAP_MS, t - this.lastFrameAt);
    if (this.inFlight || t < this.notBefore) return;
    this.lastFrameAt = t;
    const state = this.store.getState();
    const { playing, windowRequests } = state;
    // The chosen speed, or 1x while an election or rebalance plays (time/autoSlow.ts).
    const speed = effectiveSpeed(state);
    const { run, have } = this.pacing.ask(this.pacingState());
    // The engine clock counts whole milliseconds; the fraction carries over to the next frame.
    const exact = (playing ? gap * speed : 0) + this.pendingStepMs + this.carryMs;
    const advanceMs = Math.floor(exact);
    this.carryMs = exact - advanceMs;
    this.pendingStepMs = 0;
    // The record windows wanted go with the frames that ask for the cluster view (the worker
    // answers them with it), or when one changed (a pan, a resize: answered at once). A hundred
    // logs at scale sent their requests every frame for nothing.
    const sendWindows = have.cluster !== undefined || windowRequests !== this.windowsSent;
    if (sendWindows) this.windowsSent = windowRequests;
    this.inFlight = true;
    const sentAt = performance.now();
    this.client
      .call('frame', {
        advanceMs,
        windows: sendWindows ? Object.values(windowRequests) : [],
        run,
        have,
      })
      .then((r) => this.apply(r))
      .catch((e: unknown) => {
        if (e instanceof WorkerError) console.warn(`frame failed: ${e.message}`);
      })
      .finally(() => {
        this.inFlight = false;
        this.notBefore = nextAskAt(sentAt, performance.now(), this.store.getState().board.view?.brokers.length ?? 0);
      });
  }
}

function actionsChanged(before: BoardView, after: BoardView): boolean {
  const a = before.actions;
  const b = after.actions;
  return a.length !== b.length || JSON.stringify(a[a.length - 1]) !== JSON.stringify(b[b.length - 1]);
}

function sameTravel(a: TravelView | null, b: TravelView): boolean {
  return (
    a !== null &&
    a.viewMs === b.viewMs &&
    a.liveMs === b.liveMs &&
    a.live === b.live &&
    a.fork?.n === b.fork?.n &&
    a.checkpoints === b.checkpoints &&
    a.checkpointsComplete === b.checkpointsComplete
  );
}
