/**
 * The page's one back-pressure policy for engine frames. The worker keeps no pacing: it answers
 * each frame with the views the page asked for whose version moved (FrameArgs.have). This file
 * decides
 *  - which views to ask for in a frame (`ask`): the partition logs and the board every
 *    VIEW_EVERY_MS, every BUSY_VIEW_EVERY_MS while a bulk job runs, the board of a cluster drawn
 *    at scale every LARGE_BOARD_EVERY_MS (its logs every BUSY_VIEW_EVERY_MS); the accumulator
 *    every frame while it is shown (its events then stream too); the metrics and the event log
 *    like the logs, while their tab is open;
 *  - which of the views received to draw in a frame (`coalesce`): a partition log scrolled out of
 *    view at most every HIDDEN_REDRAW_MS; while a bulk job runs, the big pictures (one
 *    partition's log with its record window, the board) take turns.
 * The clock, jobs and events arrive every frame regardless.
 */
import type { BoardView } from '../engine/apps/types';
import type {
  ClusterView,
  FrameArgs,
  FrameResult,
  JobView,
  PartitionView,
  RecordWindow,
  ViewName,
  ViewVersions,
} from '../worker/protocol';
import { partitionKey } from './store';

/** Real ms between two asks for a view: numbers that change 60 times a second cannot be read. */
export const VIEW_EVERY_MS = 100;
/**
 * While a bulk produce runs, each big picture is redrawn at most this often, and at most one of
 * them per frame (round robin, the one waiting longest first). A redraw restyles and relayouts
 * what it shows; all of them in one frame made that frame several frames long at thousands of
 * records per second, so the pictures take turns instead.
 */
export const BUSY_VIEW_EVERY_MS = 250;
/** A board of more brokers than this is drawn at scale: its view is big (every replica, every znode). */
const LARGE_BOARD_BROKERS = 12;
const LARGE_BOARD_EVERY_MS = 10 * VIEW_EVERY_MS;
/** A picture waiting this long is drawn even if another one was drawn in the same frame. */
const OVERDUE_MS = 2 * BUSY_VIEW_EVERY_MS;
/**
 * A partition log scrolled out of view is redrawn at most this often (always: a cluster at scale
 * shows a hundred logs, nearly all below the fold, and each redraw of each was the page's largest
 * cost there); while a bulk job runs, the board too. Scrolled into view, a
 * picture is drawn on its next turn. (The cluster strip at the top reads the board's view too:
 * that is drawn at once whenever what the strip shows changes.)
 */
const HIDDEN_REDRAW_MS = 2000;
/**
 * On a cluster drawn at scale, a worker frame that took longer than this is the engine falling
 * behind real time: the next frame is asked for only as long again after its answer, so the worker
 * takes at most half the time and the page's drawing is not starved of CPU (on a 2-core machine
 * the worker ran flat out and the page drew 25-40 frames a second; paused, 48-54). The engine then
 * advances by the real time that passed (up to the longest gap), a bigger step less often. A small
 * cluster keeps asking at once: its frames are short, and a slow one is the machine's load.
 */
export const LONG_WORKER_FRAME_MS = 16;

/**
 * When the page may ask for its next frame, the last one sent at `sentAt` and answered at
 * `answeredAt`, with `brokers` in the board drawn.
 */
export function nextAskAt(sentAt: number, answeredAt: number, brokers: number): number {
  const took = answeredAt - sentAt;
  return brokers > LARGE_BOARD_BROKERS && took > LONG_WORKER_FRAME_MS ? answeredAt + took : answeredAt;
}

/** The board's turn in the round robin. */
export const BOARD = '\u0000board';

/** What the page is showing, as `ask` and `coalesce` need it. */
export interface PacingState {
  /** Long jobs known so far (with this frame's, in coalesce). */
  jobs: Record<number, JobView>;
  /** Whether the accumulator tab is open. */
  accumulator: boolean;
  /** Whether the metrics tab, or the event log's, is open (each view is asked for only then). */
  metrics: boolean;
  eventLog: boolean;
  /** The partitions drawn now. */
  shown: ClusterView | null;
  /** Brokers of the board drawn now (0 before the first board view). */
  brokers: number;
}

/** A frame's pictures, as the session draws them: only the ones due now. */
export interface Pictures {
  view: ClusterView | null;
  windows: RecordWindow[];
  board: BoardView | null;
}

export class FramePacing {
  private run = 0;
  private readonly versions = new Map<ViewName, number>();
  private readonly askedAt = new Map<ViewName, number>();
  /**
   * Big pictures not drawn yet (the newest of each): the cluster view's partitions and the record
   * windows by `<topic>-<partition>`, the view's partition set when it changed, and the board's view.
   */
  private held: {
    partitions: Map<string, PartitionView>;
    windows: Map<string, RecordWindow>;
    view: ClusterView | null;
    board: BoardView | null;
  } = { partitions: new Map(), windows: new Map(), view: null, board: null };
  /** When each picture (partition key, or BOARD) was last drawn. */
  private readonly drawnAt = new Map<string, number>();
  /** Pictures scrolled out of view (partition keys, BOARD), as the views report. */
  private readonly offScreen = new Set<string>();
  /** What the cluster strip shows of the last board view drawn (stripDigest). */
  private shownStrip = '';

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** The run and the views (with the versions held) to ask for in the next frame. */
  ask(state: PacingState): Pick<FrameArgs, 'run' | 'have'> {
    const now = this.now();
    const busy = running(state.jobs);
    const have: ViewVersions = {};
    const due = (name: ViewName, every: number) => {
      if (now - (this.askedAt.get(name) ?? -Infinity) < every) return;
      this.askedAt.set(name, now);
      have[name] = this.versions.get(name) ?? -1;
    };
    const large = state.brokers > LARGE_BOARD_BROKERS ? LARGE_BOARD_EVERY_MS : VIEW_EVERY_MS;
    // At scale the cluster view holds a thousand partitions: copying it across ten times a second
    // cost the page more than drawing it. Every BUSY_VIEW_EVERY_MS there, as during a bulk job.
    due('cluster', busy || state.brokers > LARGE_BOARD_BROKERS ? BUSY_VIEW_EVERY_MS : VIEW_EVERY_MS);
    due('board', Math.max(large, busy ? BUSY_VIEW_EVERY_MS : 0));
    if (state.accumulator) due('accumulator', 0);
    if (state.metrics) due('metrics', busy ? BUSY_VIEW_EVERY_MS : VIEW_EVERY_MS);
    if (state.eventLog) due('eventLog', busy ? BUSY_VIEW_EVERY_MS : VIEW_EVERY_MS);
    return { run: this.run, have };
  }

  /** Records the run and the versions a frame brought (a new run holds none of the old one's). */
  received(frame: FrameResult): void {
    if (frame.run !== this.run) {
      this.run = frame.run;
      this.versions.clear();
    }
    for (const [name, view] of Object.entries(frame.views)) this.versions.set(name as ViewName, view.version);
  }

  /** The cluster was replaced: nothing held back of the old one is drawn, and every view is asked for at once. */
  forget(): void {
    this.held = { partitions: new Map(), windows: new Map(), view: null, board: null };
    this.askedAt.clear();
    this.versions.clear();
  }

  /** Told by a picture (partition key, or BOARD) whether it is on screen. */
  setOnScreen(key: string, onScreen: boolean): void {
    if (onScreen) this.offScreen.delete(key);
    else this.offScreen.add(key);
  }

  /**
   * Holds the frame's big pictures back and returns the ones to draw: with no bulk job running,
   * everything held (newest wins) but the partitions scrolled out of view drawn less than
   * HIDDEN_REDRAW_MS ago; while one runs, at most one picture per frame whose last
   * redraw is BUSY_VIEW_EVERY_MS old (plus any overdue), the one waiting longest first.
   */
  coalesce(r: FrameResult, state: PacingState): Pictures {
    const h = this.held;
    const incoming = r.views.cluster;
    if (incoming) {
      for (const p of incoming.partitions) h.partitions.set(partitionKey(p.topic, p.partition), p);
      h.view = incoming;
    }
    for (const w of r.windows) h.windows.set(partitionKey(w.topic, w.partition), w);
    if (r.views.board) h.board = r.views.board;
    const busy = running(state.jobs);
    const shown = state.shown;
    const now = this.now();

    // Which pictures are due: all of them when idle, or when the partition set itself changed (a
    // topic created or deleted is drawn whole); else the longest-waiting one of those whose last
    // redraw is old enough, and any overdue.
    const waiting = new Set<string>([...h.partitions.keys(), ...h.windows.keys()]);
    if (h.board) {
      const wanted =
        !busy ||
        !this.offScreen.has(BOARD) ||
        stripDigest(h.board) !== this.shownStrip ||
        now - (this.drawnAt.get(BOARD) ?? -Infinity) >= HIDDEN_REDRAW_MS;
      if (wanted) waiting.add(BOARD);
    }
    let due: string[];
    const age = (k: string) => now - (this.drawnAt.get(k) ?? -Infinity);
    if (!shown || (h.view && !samePartitionSet(shown, h.view))) due = [...waiting];
    else if (!busy)
      due = [...waiting].filter((k) => k === BOARD || !this.offScreen.has(k) || age(k) >= HIDDEN_REDRAW_MS);
    else {
      const wait = (k: string) => (k !== BOARD && this.offScreen.has(k) ? HIDDEN_REDRAW_MS : BUSY_VIEW_EVERY_MS);
      const ready = [...waiting].filter((k) => age(k) >= wait(k)).sort((a, b) => age(b) - age(a));
      due = ready.filter((k, i) => i === 0 || age(k) >= OVERDUE_MS);
    }

    let view: ClusterView | null = null;
    const windows: RecordWindow[] = [];
    let board: BoardView | null = null;
    const drawn = new Set(due);
    if (h.view && shown && samePartitionSet(shown, h.view) && !due.every((k) => k === BOARD || !h.partitions.has(k))) {
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
      if (k === BOARD) {
        board = h.board;
        h.board = null;
        if (board) this.shownStrip = stripDigest(board);
      } else {
        const w = h.windows.get(k);
        if (w) windows.push(w);
        h.windows.delete(k);
        h.partitions.delete(k);
      }
      this.drawnAt.set(k, now);
    }
    if (h.partitions.size === 0) h.view = null;
    return { view, windows, board };
  }
}

function running(jobs: Record<number, JobView>): boolean {
  return Object.values(jobs).some((j) => j.state === 'running');
}

/** True when both views list the same partitions in the same order. */
function samePartitionSet(a: ClusterView, b: ClusterView): boolean {
  if (a.partitions.length !== b.partitions.length) return false;
  return a.partitions.every((p, i) => p.dir === b.partitions[i]?.dir);
}

/** What the cluster strip (chrome/ClusterStrip) draws from a board view. */
function stripDigest(v: BoardView): string {
  const brokers = v.brokers.map((b) => `${b.id}|${b.alive}|${b.isolated}|${b.controller}|${b.leaderCount}|${b.rack}`);
  const groups = v.groups.map((g) => `${g.groupId}|${g.state}|${g.generation}`);
  return `${v.controllerEpoch};${brokers.join(',')};${groups.join(',')}`;
}
