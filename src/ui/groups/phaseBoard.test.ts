import { describe, expect, it } from 'vitest';
import { createStore, type StoreApi } from 'zustand/vanilla';
import { PAINT_SLACK_MS, PhaseBoard, type PhaseBoardState, type PhaseClock } from './phaseBoard';
import { PHASE_MIN_MS } from './phaseQueue';
import { leaveRebalance } from './rebalanceEvents.testdata';

/** A wall clock the test moves, with the timers it fires when their time comes. */
class ManualClock implements PhaseClock {
  t = 0;
  speedNow = 1;
  private timers = new Map<number, { at: number; f: () => void }>();
  private nextId = 1;
  now = () => this.t;
  speed = () => this.speedNow;
  setTimeout = (f: () => void, ms: number) => {
    const id = this.nextId++;
    this.timers.set(id, { at: this.t + ms, f });
    return id;
  };
  clearTimeout = (id: number) => {
    this.timers.delete(id);
  };
  /** Moves the clock to `to`, firing each timer at its time. */
  runTo(to: number) {
    for (;;) {
      const due = [...this.timers.entries()].filter(([, x]) => x.at <= to).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.timers.delete(due[0]);
      this.t = due[1].at;
      due[1].f();
    }
    this.t = to;
  }
}

function watch(store: StoreApi<PhaseBoardState>, clock: ManualClock) {
  const seen: { phase: string; at: number }[] = [];
  store.subscribe((s, prev) => {
    const now = s.queues.billing?.shown.phase;
    if (now && now !== (prev.queues.billing?.shown.phase ?? 'stable')) seen.push({ phase: now, at: clock.t });
  });
  return seen;
}

describe('the phase board', () => {
  it('wakes itself on timers and plays a one-frame rebalance in order at 1x, each phase >= 600 ms', () => {
    const clock = new ManualClock();
    const store = createStore<PhaseBoardState>()(() => ({ queues: {} }));
    const seen = watch(store, clock);
    const board = new PhaseBoard(clock, store);
    clock.t = 1000;
    board.take(leaveRebalance);
    clock.runTo(10_000);
    expect(seen.map((s) => s.phase)).toEqual(['leave', 'join', 'compute', 'sync', 'assign', 'stable']);
    for (let i = 1; i < seen.length; i++)
      expect((seen[i]?.at ?? 0) - (seen[i - 1]?.at ?? 0)).toBeGreaterThanOrEqual(PHASE_MIN_MS);
    expect((seen.at(-1)?.at ?? 0) - (seen[0]?.at ?? 0)).toBeLessThan(5 * (PHASE_MIN_MS + PAINT_SLACK_MS) + 10);
  });

  it('holds a phase PHASE_MIN_MS / speed at a faster clock, and forgets everything for a new cluster', () => {
    const clock = new ManualClock();
    clock.speedNow = 16;
    const store = createStore<PhaseBoardState>()(() => ({ queues: {} }));
    const seen = watch(store, clock);
    const board = new PhaseBoard(clock, store);
    board.take(leaveRebalance);
    clock.runTo(1000);
    expect(seen.length).toBe(6);
    expect((seen.at(-1)?.at ?? 0) - (seen[0]?.at ?? 0)).toBeLessThan(5 * (PHASE_MIN_MS / 16 + PAINT_SLACK_MS) + 10);
    board.forget();
    expect(store.getState().queues).toEqual({});
  });
});
