/**
 * Time, injected. The engine never reads a wall clock: every timestamp and timeout comes from
 * a Clock, so a run is reproducible and tests can advance time by hand (Kafka's own tests use
 * MockTime the same way).
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

/** A clock that moves only when told to. `tick(ms)` on the engine advances it. */
export class ManualClock implements Clock {
  private ms: number;
  constructor(startMs = 1_700_000_000_000) {
    this.ms = startMs;
  }
  now(): number {
    return this.ms;
  }
  advance(ms: number): void {
    if (!(ms >= 0)) throw new RangeError(`cannot move time backwards by ${ms}`);
    this.ms += ms;
  }
  set(ms: number): void {
    this.ms = ms;
  }
}
