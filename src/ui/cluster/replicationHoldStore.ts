/**
 * The page's replication hold (replicationHold.ts): the token schedule every token layer shares
 * (tokenSchedule.ts), fed by each plane view as it arrives, and what each replica draws instead
 * of the engine's LEO and HW until the token carrying the change lands. One timer wakes the store
 * at the next landing; components read one replica's held value (a number, so a view that
 * changes nothing else re-renders nothing).
 *
 * Nothing is held, and the replicas show the engine's state, whenever the tokens are not played
 * in step: paused, faster than MAX_HOLD_SPEED, a bulk job running, the past shown (time travel), the tab hidden,
 * reduced motion asked for (no token moves), or a
 * topic whose tokens no layer draws (the partition rows draw the shown topic's, the brokers board
 * all of them while it is open); a token that would start too late (tokenSchedule's MAX_LAG_MS)
 * holds nothing either.
 */
import { useEffect } from 'react';
import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import type { PlaneMessageView } from '../../engine/apps/types';
import { type UiState, uiStore } from '../store';
import { leaderHoldStore } from './leaderHoldStore';
import {
  type Held,
  type HeldChange,
  heldChanges,
  heldValues,
  nextLanding,
  replicaKey,
  shownValue,
} from './replicationHold';
import { newSchedule, schedule, type TokenSchedule } from './tokenSchedule';

/** Above this speed the tokens cannot keep up with the state: nothing is held. */
export const MAX_HOLD_SPEED = 4;

interface HoldState {
  /** By replicaKey: the values drawn instead of the engine's. */
  held: Record<string, Held>;
  /** Whether changes are held now (the tokens play in step). */
  inStep: boolean;
  /** The topic the partition rows draw (their tokens), or null. */
  rowTopic: string | null;
  /**
   * The messages whose tokens are drawn: the last view's, plus those gone from it (their linger
   * over) whose tokens have not landed yet, in engine order. A token leaves the screen when it
   * lands, not when the worker stops listing its message.
   */
  messages: readonly PlaneMessageView[];
}

export const replicationHoldStore = createStore<HoldState>()(() => ({
  held: {},
  inStep: false,
  rowTopic: null,
  messages: [],
}));

/** The one token schedule (module state: the board's and the rows' tokens and the hold read it). */
let tokens: TokenSchedule = newSchedule();
let changes: HeldChange[] = [];
let messages: readonly PlaneMessageView[] = [];
let timer: ReturnType<typeof setTimeout> | null = null;
/** The wall ms up to which landed changes are drawn (a late wake draws them one step at a time). */
let drawnUpTo = Number.NEGATIVE_INFINITY;
/** A wake that finds several landings passed draws the next one this many ms later, never two at once. */
const CATCH_UP_STEP_MS = 20;

export function tokenSchedule(): TokenSchedule {
  return tokens;
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
  return leaderHoldStore.getState().drawing || replicationHoldStore.getState().rowTopic === topic;
}

function sameHeld(a: Record<string, Held>, b: Record<string, Held>): boolean {
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) if (a[k]?.leo !== b[k]?.leo || a[k]?.hw !== b[k]?.hw) return false;
  return true;
}

/**
 * Draws what has landed by `now` and wakes at the next landing. A wake that comes late (a busy
 * main thread) and finds several landings passed draws them in order, one per CATCH_UP_STEP_MS,
 * so a HW never appears in the same frame as the follower LEO it waited for.
 */
function refresh(now: number): void {
  if (timer !== null) clearTimeout(timer);
  timer = null;
  const inStep = replicationHoldStore.getState().inStep;
  let upTo = now;
  if (inStep) {
    const first = nextLanding(changes, drawnUpTo);
    const second = first === null ? null : nextLanding(changes, first);
    if (first !== null && second !== null && second <= now) upTo = first;
  }
  drawnUpTo = upTo;
  const held = inStep ? heldValues(changes, upTo) : {};
  const before = replicationHoldStore.getState().held;
  if (!sameHeld(before, held)) replicationHoldStore.setState({ held });
  const next = !inStep ? null : upTo < now ? now + CATCH_UP_STEP_MS : nextLanding(changes, now);
  if (next !== null) timer = setTimeout(() => refresh(performance.now()), Math.max(0, next - now) + 1);
}

/** A plane view arrived: its new messages get their slots, and their changes are held until they land. */
export function takeMessages(view: readonly PlaneMessageView[], now: number, engineNowMs: number): void {
  schedule(tokens, view, now, engineNowMs);
  messages = withUnlanded(view, messages, now);
  replicationHoldStore.setState({ messages });
  recompute(now);
}

/** `view`, plus the messages of `before` gone from it whose tokens are still to land, in engine order. */
function withUnlanded(
  view: readonly PlaneMessageView[],
  before: readonly PlaneMessageView[],
  now: number,
): readonly PlaneMessageView[] {
  let kept: PlaneMessageView[] | null = null;
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

function recompute(now: number): void {
  // Changes not drawn yet stay, even if their landing has passed: refresh draws them in order.
  const from = Math.min(now, drawnUpTo);
  changes = replicationHoldStore.getState().inStep ? heldChanges(messages, tokens, from, holds) : [];
  refresh(now);
}

/** A layer drew tokens late (tokenSchedule's drawnLate moved their slots): the hold follows. */
export function slotsMoved(now: number): void {
  recompute(now);
}

/** The page stopped or started playing the tokens in step: a stop shows the engine's state at once. */
export function setInStep(inStep: boolean, now: number): void {
  if (replicationHoldStore.getState().inStep === inStep) return;
  drawnUpTo = now;
  replicationHoldStore.setState({ inStep });
  recompute(now);
}

/** The partition rows draw this topic's tokens (null: none). */
export function setRowTopic(topic: string | null): void {
  if (replicationHoldStore.getState().rowTopic === topic) return;
  replicationHoldStore.setState({ rowTopic: topic });
  recompute(performance.now());
}

/** A replaced cluster (or another moment shown) holds nothing and starts a new schedule. */
export function forgetReplication(): void {
  tokens = newSchedule();
  changes = [];
  messages = [];
  replicationHoldStore.setState({ messages });
  drawnUpTo = Number.NEGATIVE_INFINITY;
  refresh(0);
}

/** A replica's LEO and HW as drawn: the engine's, or the values from before a change whose token is still in flight. */
export function useShownOffsets(
  topic: string,
  partition: number,
  broker: number,
  leo: number,
  hw: number,
): { leo: number; hw: number } {
  const key = replicaKey(topic, partition, broker);
  const heldLeo = useStore(replicationHoldStore, (s) => s.held[key]?.leo);
  const heldHw = useStore(replicationHoldStore, (s) => s.held[key]?.hw);
  return { leo: shownValue(leo, heldLeo), hw: shownValue(hw, heldHw) };
}

/** Feeds the hold from the plane views as they arrive, and follows play, speed, time travel and the tab's visibility. */
export function useReplicationHold(): void {
  useEffect(() => {
    const now = () => performance.now();
    setInStep(playsInStep(uiStore.getState()), now());
    const stop = uiStore.subscribe((s, prev) => {
      if (s.clusterRun !== prev.clusterRun || s.travel?.viewMs !== prev.travel?.viewMs) {
        if (s.travel?.live === false || s.clusterRun !== prev.clusterRun) forgetReplication();
      }
      if (s.playing !== prev.playing || s.speed !== prev.speed || s.travel !== prev.travel || s.jobs !== prev.jobs)
        setInStep(playsInStep(s), now());
      const view = s.plane.view;
      if (view && view !== prev.plane.view && view.messages !== prev.plane.view?.messages)
        takeMessages(view.messages, now(), view.nowMs);
    });
    const stopDrawing = leaderHoldStore.subscribe((s, prev) => {
      if (s.drawing !== prev.drawing) recompute(now());
    });
    const onVisibility = () => setInStep(playsInStep(uiStore.getState()), now());
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      stop();
      stopDrawing();
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, []);
}
