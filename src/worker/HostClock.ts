/**
 * The host's real time: what EngineHost reads to slice long jobs and schedules the next slice
 * with. The engine's own time is its ManualClock (engine ms, advanced by frames); this is the
 * wall clock around it, injected so a test can drive the host with a manual one.
 */
/** A timer id: a number in a browser, a Timeout object in Node. */
export type TimerHandle = ReturnType<typeof setTimeout> | number;

export interface HostClock {
  /** Milliseconds on a monotonic clock (performance.now in a browser). */
  now(): number;
  setTimeout(fn: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

/** The browser's clock and timers (the worker entry passes this). */
export const realHostClock: HostClock = {
  now: () => performance.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle),
};
