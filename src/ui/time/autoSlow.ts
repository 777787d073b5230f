/**
 * The auto slow-down: while an election or a rebalance plays, the clock runs at most at 1x, so
 * the learner sees them at the pace the phases are drawn at, whatever the speed chosen (a slower
 * choice stays). The learner can switch it off (`auto-slow`); a lesson paces itself and is left
 * alone. The engine clock is never bent: only how fast the page asks it to advance.
 *
 * An election is "playing" from a broker's death until the controller has moved the leaders, and
 * ELECTION_TAIL_MS of engine time after each leader change, so the LeaderAndIsr that follows is
 * seen too. A rebalance plays while any group card still shows a phase (phaseBoard.ts).
 */
import type { EngineEvent } from '../../engine/apps/types';
import { anyRebalanceShown } from '../groups/phaseBoard';
import { sliceOf, useUi } from '../store';
import type { SlowState } from './slowSlice';
import { toScenarioMs } from '../../worker/client';

export type { SlowState };

/** The fastest the clock runs while an election or rebalance plays. */
export const SLOW_SPEED = 1;
/** Engine ms the slow-down lasts after a leader change. */
export const ELECTION_TAIL_MS = 2_000;
/** Engine ms a broker's death keeps the clock slow while the election it causes is awaited (a session times out first). */
export const ELECTION_WAIT_MS = 20_000;

/** The store's `slow` slice. */
export const slowSlice = sliceOf('slow');

/** The speed the clock runs at: the chosen one, or at most SLOW_SPEED while something plays. */
export function slowedSpeed(speed: number, on: boolean, playing: boolean): number {
  return on && playing ? Math.min(speed, SLOW_SPEED) : speed;
}

/** Until when an election plays, after `events` (pure: engine ms since the scenario started). */
export function electionUntil(untilMs: number, events: readonly EngineEvent[]): number {
  let until = untilMs;
  for (const e of events) {
    if (!('atMs' in e) || typeof e.atMs !== 'number') continue;
    const at = toScenarioMs(e.atMs);
    if (e.type === 'brokerDown' && e.how !== 'stopped') until = Math.max(until, at + ELECTION_WAIT_MS);
    else if (e.type === 'controllerElected' || e.type === 'uncleanLeaderElection') until = at + ELECTION_TAIL_MS;
    else if (e.type === 'partitionStateChanged' && !e.topic.startsWith('__') && e.old?.leader !== e.new.leader)
      until = e.new.leader < 0 ? Math.max(until, at + ELECTION_WAIT_MS) : at + ELECTION_TAIL_MS;
  }
  return until;
}

/** What is playing now, if anything, that slows the clock. */
export function slowingFor(nowMs: number): 'election' | 'rebalance' | null {
  const s = slowSlice.getState();
  if (!s.on || s.lesson) return null;
  if (nowMs < s.electionUntilMs) return 'election';
  if (anyRebalanceShown(performance.now())) return 'rebalance';
  return null;
}

/** The speed the session advances the engine at now. */
export function effectiveSpeed(ui: { speed: number; nowMs: number }): number {
  return slowedSpeed(ui.speed, true, slowingFor(ui.nowMs) !== null);
}

/** A frame's board events move the election window. */
export function takeElectionEvents(events: readonly EngineEvent[]): void {
  const s = slowSlice.getState();
  const until = electionUntil(s.electionUntilMs, events);
  if (until !== s.electionUntilMs) slowSlice.setState({ electionUntilMs: until });
}

/** What slows the clock, re-rendered only when that changes. */
export function useSlowingFor(): 'election' | 'rebalance' | null {
  useUi((u) => Object.values(u.phases.queues).some((q) => q.pending.length > 0 || q.shown.phase !== 'stable'));
  useUi((u) => u.slow);
  return useUi((u) => slowingFor(u.nowMs));
}
