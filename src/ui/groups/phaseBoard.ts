/**
 * Drives every group's phase queue (phaseQueue.ts) on the wall clock: each frame's board events
 * become marks (rebalancePhases.ts), each group's queue takes its own, and one timer wakes the
 * board when the next held phase has been on screen long enough. The hold is PHASE_MIN_MS at 1x,
 * scaled by the speed the clock runs at now (the auto slow-down brings it to 1x while a
 * rebalance plays). Group cards read the shown phase with `useRebalancePhase`.
 */
import type { EngineEvent } from '../../engine/apps/types';
import { comparePartitions } from '../../worker/client';
import {
  type PhaseQueue,
  PHASE_MIN_MS,
  advance,
  busy,
  drawnPartitions,
  dueAt,
  offer,
  restingQueue,
  shownGeneration,
  shownGroupState,
} from './phaseQueue';
import { phaseMarks } from './rebalancePhases';
import type { PhaseBoardState } from './phaseSlice';
import { type SliceApi, sliceOf, useUi } from '../store';

export type { PhaseBoardState };

/**
 * A phase reaches the screen up to a frame after the store changes (React commits, the browser
 * paints), and that frame's delay differs from one phase to the next: each is held one frame
 * longer so what is on screen lasts the full minimum.
 */
export const PAINT_SLACK_MS = 20;

const REST = restingQueue();

/** The queue of a group, as shown now (a resting one for a group with no rebalance seen). */
export function useRebalanceQueue(groupId: string): PhaseQueue {
  return useUi((s) => s.phases.queues[groupId] ?? REST);
}

/**
 * The partitions a consumer's chip draws at the phase its group's card shows (drawnPartitions),
 * sorted. Selected as one string, so 500 chips re-render only when their own partitions move.
 */
export function useDrawnPartitions(groupId: string | null, consumer: string, engine: readonly string[]): string[] {
  const joined = engine.join(',');
  const key = useUi((s) => {
    const q = groupId === null ? undefined : s.phases.queues[groupId];
    if (!q?.pending.some((p) => p.deltas.some((d) => d.consumer === consumer))) return joined;
    return drawnPartitions(q, consumer, engine).sort(comparePartitions).join(',');
  });
  return key === '' ? [] : key.split(',');
}

/** The phase a group's card draws, with the state and generation drawn with it (one string selected). */
export function useDrawnPhase(
  groupId: string,
  state: string,
  generation: number,
): { phase: string; state: string; generation: number } {
  const key = useUi((s) => {
    const q = s.phases.queues[groupId] ?? REST;
    return `${q.shown.phase}|${shownGroupState(q, state)}|${shownGeneration(q, generation)}`;
  });
  const [phase = 'stable', shown = state, gen = String(generation)] = key.split('|');
  return { phase, state: shown, generation: Number(gen) };
}

/** True while any group's rebalance is still being played at wall time `now`. */
export function anyRebalanceShown(now: number): boolean {
  return Object.values(sliceOf('phases').getState().queues).some((q) => busy(q, now));
}

export interface PhaseClock {
  now: () => number;
  /** Engine ms per wall ms the clock runs at now. */
  speed: () => number;
  setTimeout: (f: () => void, ms: number) => number;
  clearTimeout: (id: number) => void;
}

export class PhaseBoard {
  private timer: number | null = null;

  constructor(
    private readonly clock: PhaseClock,
    private readonly store: Pick<SliceApi<PhaseBoardState>, 'getState' | 'setState'> = sliceOf('phases'),
  ) {}

  private minMs(): number {
    return PHASE_MIN_MS / Math.max(this.clock.speed(), 0.001) + PAINT_SLACK_MS;
  }

  /** A frame's board events: their marks join each group's queue. */
  take(events: readonly EngineEvent[]): void {
    const marks = phaseMarks(events);
    if (marks.length === 0) return;
    const now = this.clock.now();
    const queues = { ...this.store.getState().queues };
    const byGroup = new Map<string, typeof marks>();
    for (const m of marks) byGroup.set(m.groupId, [...(byGroup.get(m.groupId) ?? []), m]);
    for (const [groupId, ms] of byGroup) queues[groupId] = offer(queues[groupId] ?? restingQueue(), ms, now);
    this.store.setState({ queues });
    this.wake();
  }

  /** A new cluster: every card rests. */
  forget(): void {
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
    this.store.setState({ queues: {} });
  }

  /** Moves every queue that is due, then sleeps until the next one is. */
  private wake(): void {
    const now = this.clock.now();
    const minMs = this.minMs();
    const before = this.store.getState().queues;
    let changed = false;
    const queues: Record<string, PhaseQueue> = {};
    let next: number | null = null;
    for (const [g, q] of Object.entries(before)) {
      const moved = advance(q, now, minMs);
      if (moved !== q) changed = true;
      queues[g] = moved;
      const due = dueAt(moved, minMs);
      if (due !== null && (next === null || due < next)) next = due;
    }
    if (changed) this.store.setState({ queues });
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
    if (next !== null)
      this.timer = this.clock.setTimeout(
        () => {
          this.timer = null;
          this.wake();
        },
        Math.max(0, next - now) + 1,
      );
  }
}
