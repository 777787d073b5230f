/**
 * Replication in lock-step with its tokens: the page's partition timelines (partitionTimeline.ts)
 * and the token schedule every token layer shares (tokenSchedule.ts). Each view from the worker
 * is an engine snapshot; for every partition whose tokens are drawn, the states it went through
 * since the last view are queued and drawn one by one as the tokens that caused them land — a
 * Produce token lands on the leader and the leader's LEO moves, a Fetch response carries the
 * record to a follower, the follower's next Fetch lands and the HW moves. A component draws a
 * partition with `useDrawnPartition`: the whole state of one instant (roles, ISR, LEO and HW of
 * every replica), never a number held back beside another moved on. One timer wakes the store at
 * the next landing.
 *
 * Nothing is queued, and the partitions draw the view's state, whenever the tokens are not played
 * in step: paused, faster than MAX_HOLD_SPEED, a bulk job running, the past shown (time travel),
 * the tab hidden, reduced motion asked for (no token moves), or a topic whose tokens no layer
 * draws (the partition rows draw the shown topic's, the brokers board all of them while it is
 * open); a token too late to start in step (tokenSchedule's MAX_LAG_MS) draws its state at once.
 */
import { useEffect } from 'react';
import type { EngineEvent, BoardMessageView, BoardPartitionView, BoardView } from '../../engine/apps/types';
import type { Session } from '../session';
import { sliceOf, type UiState, uiStore, useUi } from '../store';
import { advance, type Landings, land, newTimeline, nextLanding, type Timeline, tpKey } from './partitionTimeline';
import { initialReplicationState } from './replicationSlice';
import { schedule, type TokenSchedule } from './tokenSchedule';
import { toScenarioMs } from '../../worker/client';

/** Above this speed the tokens cannot keep up with the state: nothing is queued. */
export const MAX_HOLD_SPEED = 4;
/** More partitions than this in the drawn topics: drawn as the views come, without timelines. */
const MAX_TIMELINES = 240;
/** A wake that finds a partition's next states already landed draws one, then the next this many ms later. */
const CATCH_UP_STEP_MS = 20;
const MAX_LEADER_AND_ISR = 200;

/** The store's `replication` slice. */
const hold = sliceOf('replication');

/** The one token schedule (the board's and the rows' tokens and the timelines read it). */
export function tokenSchedule(): TokenSchedule {
  return hold.getState().tokens;
}

/** Whether the tokens play in step with the state at this moment of the page. */
export function playsInStep(s: Pick<UiState, 'playing' | 'speed' | 'travel' | 'jobs'>): boolean {
  if (!s.playing || s.speed > MAX_HOLD_SPEED) return false;
  // A bulk job (Send N) sends thousands of records a second: no token could be followed.
  for (const id in s.jobs) if (s.jobs[id]?.state === 'running') return false;
  if (s.travel !== null && !s.travel.live) return false;
  if (typeof document === 'undefined') return true;
  // Reduced motion draws no tokens: nothing to wait for.
  return !document.hidden && !window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
}

function holds(topic: string): boolean {
  const s = hold.getState();
  return s.inStep && (s.drawing || s.rowTopic === topic);
}

const landings: Landings = {
  landsAt(id) {
    const slot = hold.getState().tokens.slots.get(id);
    return slot?.inStep ? slot.landsAt : null;
  },
  leaderAndIsrLands(broker, sinceMs) {
    // Only the board draws the controller's requests: without it a new leader is drawn at once.
    const { drawing, leaderAndIsr, tokens } = hold.getState();
    if (!drawing) return Number.NEGATIVE_INFINITY;
    let best: number | null = null;
    for (const l of leaderAndIsr) {
      if (l.to !== broker || l.sentAtMs < sinceMs) continue;
      // Its landing even when it started late (a burst of the controller's requests): the token flies all the same.
      const at = tokens.slots.get(l.id)?.landsAt ?? Number.NEGATIVE_INFINITY;
      if (best === null || at < best) best = at;
    }
    return best;
  },
};

/** The drawn states as the store should hold them, from the timelines (an empty patch when none moved). */
function published(): { drawn?: Record<string, BoardPartitionView> } {
  const { drawn: before, timelines } = hold.getState();
  let changed = Object.keys(before).length !== timelines.size;
  const drawn: Record<string, BoardPartitionView> = {};
  for (const [k, t] of timelines) {
    drawn[k] = t.shown;
    if (before[k] !== t.shown) changed = true;
  }
  return changed ? { drawn } : {};
}

/**
 * Draws what has landed by `now`, at most one state per partition per wake (a late wake draws
 * the states it finds passed one after the other, CATCH_UP_STEP_MS apart, so a HW never appears in
 * the same frame as the follower LEO it waited for), and wakes at the next landing.
 */
function refresh(now: number): void {
  const { timer, timelines } = hold.getState();
  if (timer !== null) clearTimeout(timer);
  let next: number | null = null;
  for (const t of timelines.values()) {
    const first = nextLanding(t, landings);
    if (first !== null && first <= now) land(t, first, landings);
    const after = nextLanding(t, landings);
    if (after !== null && (next === null || after < next)) next = after;
  }
  const drawn = published();
  if (next === null) {
    if (timer !== null || drawn.drawn) hold.setState({ ...drawn, timer: null });
    return;
  }
  const wait = next <= now ? CATCH_UP_STEP_MS : next - now + 1;
  // One write a wake: the drawn states and the next wake together.
  hold.setState({ ...drawn, timer: setTimeout(() => refresh(performance.now()), wait) });
}

/** A view arrived: its new messages get their slots, and each drawn partition queues the states it went through. */
export function takeView(view: BoardView, now: number): void {
  const before = hold.getState();
  schedule(before.tokens, view.messages, now, view.nowMs);
  const messages = withUnlanded(view.messages, before.messages, before.tokens, now);
  const fresh: BoardMessageView[] = [];
  const arrived = new Set<number>();
  let leaderAndIsr = before.leaderAndIsr;
  for (const m of view.messages) {
    if (m.arriveAtMs > view.nowMs) continue;
    arrived.add(m.id);
    if (before.taken.has(m.id)) continue;
    fresh.push(m);
    if (m.api === 'LeaderAndIsr' && m.kind === 'request' && m.to !== null)
      leaderAndIsr = [...leaderAndIsr, { id: m.id, to: m.to, sentAtMs: m.sentAtMs }];
  }
  if (leaderAndIsr.length > MAX_LEADER_AND_ISR) leaderAndIsr = leaderAndIsr.slice(-MAX_LEADER_AND_ISR);
  const prevNowMs = before.lastNowMs ?? view.nowMs;
  const kept = new Map<string, Timeline>();
  for (const topic of view.topics) {
    if (topic.internal || !holds(topic.name)) continue;
    for (const p of topic.partitions) {
      if (kept.size >= MAX_TIMELINES) break;
      const k = tpKey(p.topic, p.partition);
      const t = before.timelines.get(k);
      if (t) advance(t, p, fresh, now, prevNowMs);
      kept.set(k, t ?? newTimeline(p));
    }
  }
  hold.setState({ messages, taken: arrived, leaderAndIsr, lastNowMs: view.nowMs, timelines: kept });
  refresh(now);
}

/** `view`, plus the messages of `before` gone from it whose tokens are still to land, in engine order. */
function withUnlanded(
  view: readonly BoardMessageView[],
  before: readonly BoardMessageView[],
  tokens: TokenSchedule,
  now: number,
): readonly BoardMessageView[] {
  let kept: BoardMessageView[] | null = null;
  const ids = new Set(view.map((m) => m.id));
  for (const m of before) {
    if (ids.has(m.id)) continue;
    const slot = tokens.slots.get(m.id);
    if (!slot || slot.landsAt <= now) continue;
    (kept ??= []).push(m);
  }
  if (!kept) return view;
  return [...kept, ...view].sort((a, b) => a.sentAtMs - b.sentAtMs || a.id - b.id);
}

/** Draws every partition as the last view has it, and queues nothing until the next view. */
function dropTimelines(): void {
  hold.setState({ timelines: new Map() });
  const drawn = published();
  if (drawn.drawn) hold.setState(drawn);
}

/** The page stopped or started playing the tokens in step: a stop draws the engine's state at once. */
export function setInStep(inStep: boolean, now: number): void {
  if (hold.getState().inStep === inStep) return;
  hold.setState({ inStep });
  if (!inStep) dropTimelines();
  refresh(now);
}

/** The partition rows draw this topic's tokens (null: none). */
export function setRowTopic(topic: string | null): void {
  if (hold.getState().rowTopic === topic) return;
  hold.setState({ rowTopic: topic });
}

/** The brokers board is (or is no longer) on the page drawing the messages. */
export function setDrawingTokens(drawing: boolean): void {
  if (hold.getState().drawing !== drawing) hold.setState({ drawing });
}

/** A replaced cluster (or another moment shown) queues nothing and starts a new schedule. */
export function forgetReplication(): void {
  const { timer, inStep, rowTopic, drawing } = hold.getState();
  if (timer !== null) clearTimeout(timer);
  // What the page is (playing in step, which tokens are drawn) stays; what the old run queued goes.
  hold.setState({ ...initialReplicationState(), inStep, rowTopic, drawing });
}

/** A frame's board events: when each partition's ISR changed (the controller's or the leader's write). */
export function takeIsrChanges(events: readonly EngineEvent[]): void {
  let changed: Record<string, number> | null = null;
  for (const e of events) {
    if (e.type !== 'partitionStateChanged' || e.topic.startsWith('__')) continue;
    if (e.old && e.old.isr.join() === e.new.isr.join()) continue;
    changed ??= { ...hold.getState().isrChangedAt };
    changed[tpKey(e.topic, e.partition)] = toScenarioMs(e.atMs);
  }
  if (changed) hold.setState({ isrChangedAt: changed });
}

/** When a partition's ISR last changed (engine ms), or null if not since the page opened. */
export function useIsrChangedAt(topic: string, partition: number): number | null {
  return useUi((s) => s.replication.isrChangedAt[tpKey(topic, partition)]) ?? null;
}

/** A partition as the page draws it now: the state its timeline shows, or the view's own. */
export function useDrawnPartition(p: BoardPartitionView): BoardPartitionView {
  return useUi((s) => s.replication.drawn[tpKey(p.topic, p.partition)]) ?? p;
}

/** The drawn state of one partition by name, or undefined when the page draws the view's. */
export function useDrawnPartitionByName(topic: string, partition: number): BoardPartitionView | undefined {
  return useUi((s) => s.replication.drawn[tpKey(topic, partition)]);
}

/** Feeds the timelines from the board views as they arrive, and follows play, speed, time travel and the tab's visibility. */
export function useReplicationHold(session: Session): void {
  useEffect(() => session.onBoardEvents(takeIsrChanges), [session]);
  useEffect(() => {
    const now = () => performance.now();
    setInStep(playsInStep(uiStore.getState()), now());
    const view = uiStore.getState().board.view;
    if (view) takeView(view, now());
    const stop = uiStore.subscribe((s, prev) => {
      if (s.clusterRun !== prev.clusterRun || s.travel?.viewMs !== prev.travel?.viewMs) {
        if (s.travel?.live === false || s.clusterRun !== prev.clusterRun) forgetReplication();
      }
      if (s.playing !== prev.playing || s.speed !== prev.speed || s.travel !== prev.travel || s.jobs !== prev.jobs)
        setInStep(playsInStep(s), now());
      const v = s.board.view;
      if (v && v !== prev.board.view) takeView(v, now());
    });
    const onVisibility = () => setInStep(playsInStep(uiStore.getState()), now());
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      stop();
      document.removeEventListener('visibilitychange', onVisibility);
      const { timer } = hold.getState();
      if (timer !== null) clearTimeout(timer);
      hold.setState({ timer: null });
    };
  }, []);
}
