/**
 * A HostClock that moves only when told (tests): `advance(ms)` moves time and runs, in due order,
 * every timer that falls due meanwhile (a timer a timer sets runs too, if it is due).
 */
import type { HostClock, TimerHandle } from './HostClock';

interface Timer {
  id: number;
  at: number;
  fn: () => void;
}

export class ManualHostClock implements HostClock {
  private nowMs = 0;
  private nextId = 1;
  private timers: Timer[] = [];

  now(): number {
    return this.nowMs;
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    const id = this.nextId++;
    this.timers.push({ id, at: this.nowMs + Math.max(0, ms), fn });
    return id;
  }

  clearTimeout(handle: TimerHandle): void {
    this.timers = this.timers.filter((t) => t.id !== handle);
  }

  /** Timers not yet run. */
  get pending(): number {
    return this.timers.length;
  }

  /** Moves time by `ms`, running every timer due by then (earliest first, ties in order set). */
  advance(ms: number): void {
    const until = this.nowMs + ms;
    for (;;) {
      const due = this.timers.filter((t) => t.at <= until).sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.nowMs = Math.max(this.nowMs, due.at);
      due.fn();
    }
    this.nowMs = until;
  }
}
