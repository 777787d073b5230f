/**
 * The page's link to the engine: starts the worker, opens the cluster and runs the frame loop.
 *
 * The frame loop is driven by requestAnimationFrame. Each frame, if the previous pull has been
 * answered, it asks the worker for one `frame`, passing how much engine time should pass (real
 * time since the last frame times the speed, or 0 when paused). So the page receives at most one
 * batch per animation frame, and a busy page slows the pulls down instead of queueing them.
 */
import { EngineClient, WorkerError } from '../worker/client';
import type { PlaneView } from '../engine/apps/types';
import type {
  ClusterView,
  CommandArgs,
  CommandName,
  CommandResult,
  FrameResult,
  PartitionView,
  RecordWindow,
  UiEvent,
} from '../worker/protocol';
import { partitionKey, type Speed, type UiState, type UiStore, uiStore } from './store';

/** The longest real-time gap one frame may turn into engine time (a hidden tab resumes calmly). */
const MAX_FRAME_GAP_MS = 250;
/** How much engine time one press of "step" moves: one tick of the producer's sender loop. */
export const STEP_MS = 10;
/**
 * While a bulk produce runs, each big picture (one partition's log view with its record window,
 * or the control plane's view) is redrawn at most this often, and at most one of them per frame
 * (round robin, the one waiting longest first): the clock, jobs and events still arrive every
 * frame. A redraw restyles and relayouts what it shows; all of them in one frame made that frame
 * several frames long at thousands of records per second, so the pictures take turns instead.
 */
export const BUSY_REDRAW_MS = 250;
/** A picture waiting this long is drawn even if another one was drawn in the same frame. */
const OVERDUE_MS = 2 * BUSY_REDRAW_MS;
/** The control plane's turn in the round robin. */
const PLANE = '\u0000plane';
/**
 * While a bulk job runs, a picture scrolled out of view (a partition below the fold, the control
 * plane's board) is redrawn at most this often; scrolled into view, it is drawn on its next turn.
 * (The cluster strip at the top reads the plane's view too: that is drawn at once whenever what
 * the strip shows changes.)
 */
const HIDDEN_REDRAW_MS = 2000;

export class Session {
  readonly client: EngineClient;
  private readonly store: UiStore;
  private inFlight = false;
  private lastFrameAt: number | null = null;
  private rafId = 0;
  private stopped = false;
  private eventListeners: ((events: UiEvent[]) => void)[] = [];
  /** Engine time a "step" asked for, added to the next frame whether playing or paused. */
  private pendingStepMs = 0;
  private carryMs = 0;
  /**
   * Big pictures not drawn yet (the newest of each): the cluster view's partitions and the record
   * windows by `<topic>-<partition>`, the view's partition set when it changed, and the plane's view.
   */
  private held: {
    partitions: Map<string, PartitionView>;
    windows: Map<string, RecordWindow>;
    view: ClusterView | null;
    plane: PlaneView | null;
  } = { partitions: new Map(), windows: new Map(), view: null, plane: null };
  /** When each picture (partition key, or PLANE) was last drawn, by performance.now(). */
  private drawnAt = new Map<string, number>();
  /** Pictures scrolled out of view (partition keys, PLANE), as the views report; see HIDDEN_REDRAW_MS. */
  private offScreen = new Set<string>();
  /** What the cluster strip shows of the last plane view drawn (stripDigest). */
  private shownStrip = '';

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

  /** After the worker replaced the cluster (a scenario, a preset, a guide): draws the new one from scratch. */
  async replaced(): Promise<void> {
    this.showNewCluster(await this.client.call('snapshot', null));
  }

  /** Drops everything shown or held back of the old cluster and shows `view`. */
  private showNewCluster(view: ClusterView): void {
    this.held = { partitions: new Map(), windows: new Map(), view: null, plane: null };
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
    return this.client.call(type, data);
  }

  private frameListeners: ((r: FrameResult) => void)[] = [];

  /** Every frame's whole result (the control plane's views read their part of it). */
  onFrameResult(listener: (r: FrameResult) => void): () => void {
    this.frameListeners.push(listener);
    return () => {
      this.frameListeners = this.frameListeners.filter((l) => l !== listener);
    };
  }

  /** Transient subscription to engine events (animations): called once per frame with that frame's events. */
  onEvents(listener: (events: UiEvent[]) => void): () => void {
    this.eventListeners.push(listener);
    return () => {
      this.eventListeners = this.eventListeners.filter((l) => l !== listener);
    };
  }

  /** Told by the page whether the control plane's board is on screen. */
  setPlaneOnScreen(onScreen: boolean): void {
    this.setOnScreen(PLANE, onScreen);
  }

  /** Told by a partition's view (by `<topic>-<partition>`) whether it is on screen. */
  setOnScreen(key: string, onScreen: boolean): void {
    if (onScreen) this.offScreen.delete(key);
    else this.offScreen.add(key);
  }

  togglePlay(): void {
    this.store.setState((s) => ({ playing: !s.playing }));
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

  /**
   * Holds the frame's big pictures back and returns the frame to draw: with no bulk job running,
   * everything held (newest wins); while one runs, at most one picture per frame whose last
   * redraw is BUSY_REDRAW_MS old (plus any overdue), the one waiting longest first.
   */
  private coalesce(r: FrameResult): FrameResult {
    const h = this.held;
    if (r.view) {
      for (const p of r.view.partitions) h.partitions.set(partitionKey(p.topic, p.partition), p);
      h.view = r.view;
    }
    for (const w of r.windows) h.windows.set(partitionKey(w.topic, w.partition), w);
    if (r.plane?.view) h.plane = r.plane.view;
    const jobs = { ...this.store.getState().jobs };
    for (const j of r.jobs) jobs[j.jobId] = j;
    const busy = Object.values(jobs).some((j) => j.state === 'running');
    const shown = this.store.getState().view;
    const now = performance.now();

    // Which pictures are due: all of them when idle, or when the partition set itself changed (a
    // topic created or deleted is drawn whole); else the longest-waiting one of those whose last
    // redraw is old enough, and any overdue.
    const waiting = new Set<string>([...h.partitions.keys(), ...h.windows.keys()]);
    if (h.plane) {
      const wanted =
        !busy ||
        !this.offScreen.has(PLANE) ||
        stripDigest(h.plane) !== this.shownStrip ||
        now - (this.drawnAt.get(PLANE) ?? -Infinity) >= HIDDEN_REDRAW_MS;
      if (wanted) waiting.add(PLANE);
    }
    let due: string[];
    if (!busy || !shown || (h.view && !samePartitionSet(shown, h.view))) due = [...waiting];
    else {
      const age = (k: string) => now - (this.drawnAt.get(k) ?? -Infinity);
      const wait = (k: string) => (k !== PLANE && this.offScreen.has(k) ? HIDDEN_REDRAW_MS : BUSY_REDRAW_MS);
      const ready = [...waiting].filter((k) => age(k) >= wait(k)).sort((a, b) => age(b) - age(a));
      due = ready.filter((k, i) => i === 0 || age(k) >= OVERDUE_MS);
    }

    let view: ClusterView | null = null;
    const windows: RecordWindow[] = [];
    let plane: PlaneView | null = null;
    const drawn = new Set(due);
    if (h.view && shown && samePartitionSet(shown, h.view) && !due.every((k) => k === PLANE || !h.partitions.has(k))) {
      // Only the due partitions get their new object; the others keep theirs, so React skips them.
      view = {
        ...h.view,
        partitions: shown.partitions.map((p) => {
          const k = partitionKey(p.topic, p.partition);
          return drawn.has(k) ? (h.partitions.get(k) ?? p) : p;
        }),
      };
    } else if (h.view && (!shown || !samePartitionSet(shown, h.view))) view = h.view;
    for (const k of due) {
      if (k === PLANE) {
        plane = h.plane;
        h.plane = null;
        if (plane) this.shownStrip = stripDigest(plane);
      } else {
        const w = h.windows.get(k);
        if (w) windows.push(w);
        h.windows.delete(k);
        h.partitions.delete(k);
      }
      this.drawnAt.set(k, now);
    }
    if (h.partitions.size === 0) h.view = null;
    return { ...r, view, windows, plane: r.plane ? { ...r.plane, view: plane } : r.plane };
  }

  private apply(frame: FrameResult): void {
    const r = this.coalesce(frame);
    const patch: Partial<UiState> = { frames: this.store.getState().frames + 1 };
    if (r.view) patch.view = r.view;
    if (r.accumulator) patch.accumulator = r.accumulator;
    if (r.nowMs !== this.store.getState().nowMs) patch.nowMs = r.nowMs;
    if (r.windows.length > 0) {
      const windows = { ...this.store.getState().windows };
      for (const w of r.windows) windows[partitionKey(w.topic, w.partition)] = w;
      patch.windows = windows;
    }
    if (r.jobs.length > 0) {
      const jobs = { ...this.store.getState().jobs };
      for (const j of r.jobs) jobs[j.jobId] = j;
      patch.jobs = jobs;
    }
    this.store.setState(patch);
    if (r.events.length > 0) for (const l of this.eventListeners) l(r.events);
    for (const l of this.frameListeners) l(r);
  }

  private onFrame(t: number): void {
    const gap = this.lastFrameAt === null ? 0 : Math.min(MAX_FRAME_GAP_MS, t - this.lastFrameAt);
    if (this.inFlight) return;
    this.lastFrameAt = t;
    const { playing, speed, windowRequests } = this.store.getState();
    // The engine clock counts whole milliseconds; the fraction carries over to the next frame.
    const exact = (playing ? gap * speed : 0) + this.pendingStepMs + this.carryMs;
    const advanceMs = Math.floor(exact);
    this.carryMs = exact - advanceMs;
    this.pendingStepMs = 0;
    this.inFlight = true;
    this.client
      .call('frame', {
        advanceMs,
        windows: Object.values(windowRequests),
        accumulator: this.store.getState().sideTab === 'accumulator',
      })
      .then((r) => this.apply(r))
      .catch((e: unknown) => {
        if (e instanceof WorkerError) console.warn(`frame failed: ${e.message}`);
      })
      .finally(() => {
        this.inFlight = false;
      });
  }
}

/** True when both views list the same partitions in the same order. */
function samePartitionSet(a: ClusterView, b: ClusterView): boolean {
  if (a.partitions.length !== b.partitions.length) return false;
  return a.partitions.every((p, i) => p.dir === b.partitions[i]?.dir);
}

/** What the cluster strip (chrome/ClusterStrip) draws from a plane view. */
function stripDigest(v: PlaneView): string {
  const brokers = v.brokers.map((b) => `${b.id}|${b.alive}|${b.isolated}|${b.controller}|${b.leaderCount}|${b.rack}`);
  const groups = v.groups.map((g) => `${g.groupId}|${g.state}|${g.generation}`);
  return `${v.controllerEpoch};${brokers.join(',')};${groups.join(',')}`;
}
