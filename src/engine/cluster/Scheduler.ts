import type { ManualClock } from '../Clock';

/**
 * Simulated time's task queue (Kafka's KafkaScheduler, made discrete). Everything that happens
 * later — a message arriving, a follower's next fetch, a session expiring, a linger.ms timer —
 * is a task at a due time. `runUntil(t)` runs due tasks in (time, insertion) order, setting the
 * clock to each task's time first, so a task always sees `clock.now()` equal to its due time.
 * Same tasks in, same order out: this is what makes the engine deterministic.
 */
export type TaskId = number;

interface Task {
  id: TaskId;
  at: number;
  seq: number;
  fn: (arg: unknown) => void;
  arg: unknown;
}

export class Scheduler {
  private heap: Task[] = [];
  private nextSeq = 0;
  private readonly cancelled = new Set<TaskId>();
  private readonly live = new Set<TaskId>();

  constructor(readonly clock: ManualClock) {}

  now(): number {
    return this.clock.now();
  }

  /** Runs fn `delayMs` from now (0: after everything already due now). */
  schedule(delayMs: number, fn: () => void): TaskId {
    return this.scheduleAt(this.clock.now() + Math.max(0, delayMs), fn);
  }

  scheduleAt(atMs: number, fn: () => void): TaskId {
    return this.scheduleCall(atMs, fn as (arg: unknown) => void, undefined);
  }

  /**
   * Runs fn(arg) at atMs. Hot paths pass one long-lived fn and vary the argument, instead of
   * allocating a closure per task.
   */
  scheduleCall<T>(atMs: number, fn: (arg: T) => void, arg: T): TaskId {
    const seq = this.nextSeq++;
    const task: Task = { id: seq, at: Math.max(atMs, this.clock.now()), seq, fn: fn as (arg: unknown) => void, arg };
    this.push(task);
    return task.id;
  }

  /** A task that reschedules itself every periodMs until cancel() is called on the returned handle. */
  schedulePeriodic(initialDelayMs: number, periodMs: number, fn: () => void): { cancel(): void } {
    let current: TaskId = -1;
    let stopped = false;
    const run = () => {
      if (stopped) return;
      current = this.schedule(periodMs, run);
      fn();
    };
    current = this.schedule(initialDelayMs, run);
    return {
      cancel: () => {
        stopped = true;
        this.cancel(current);
      },
    };
  }

  cancel(id: TaskId): void {
    if (!this.live.has(id)) return;
    this.cancelled.add(id);
    // A cancelled task stays in the heap until its time comes; timeouts cancelled by the
    // thousand (request and purgatory timeouts) would otherwise pile up, holding what their
    // closures hold. Sweep them out once they are half the heap.
    if (this.cancelled.size > 256 && this.cancelled.size * 2 > this.heap.length) this.sweepCancelled();
  }

  /** Drops cancelled tasks from the heap and restores heap order (the run order is unchanged: it is (time, seq)). */
  private sweepCancelled(): void {
    const kept: Task[] = [];
    for (const t of this.heap) {
      if (this.cancelled.has(t.id)) this.live.delete(t.id);
      else kept.push(t);
    }
    this.cancelled.clear();
    this.heap = kept;
    for (let i = (kept.length >> 1) - 1; i >= 0; i--) this.siftDown(i);
  }

  /** The due time of the next pending task, or null. */
  nextDueMs(): number | null {
    while (this.heap.length > 0) {
      const top = this.heap[0] as Task;
      if (!this.cancelled.has(top.id)) return top.at;
      this.pop();
      this.cancelled.delete(top.id);
    }
    return null;
  }

  /** Runs every task due at or before targetMs, then leaves the clock at targetMs. */
  runUntil(targetMs: number): number {
    let ran = 0;
    for (;;) {
      const due = this.nextDueMs();
      if (due === null || due > targetMs) break;
      const task = this.pop() as Task;
      if (task.at > this.clock.now()) this.clock.set(task.at);
      task.fn(task.arg);
      ran++;
    }
    if (targetMs > this.clock.now()) this.clock.set(targetMs);
    return ran;
  }

  get pending(): number {
    return this.heap.length - this.cancelled.size;
  }

  private less(a: Task, b: Task): boolean {
    return a.at < b.at || (a.at === b.at && a.seq < b.seq);
  }

  private push(task: Task): void {
    const h = this.heap;
    this.live.add(task.id);
    h.push(task);
    let i = h.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(h[i] as Task, h[parent] as Task)) break;
      const t = h[i] as Task;
      h[i] = h[parent] as Task;
      h[parent] = t;
      i = parent;
    }
  }

  private pop(): Task | undefined {
    const h = this.heap;
    if (h.length === 0) return undefined;
    const top = h[0] as Task;
    this.live.delete(top.id);
    const last = h.pop() as Task;
    if (h.length > 0) {
      h[0] = last;
      this.siftDown(0);
    }
    return top;
  }

  private siftDown(start: number): void {
    const h = this.heap;
    let i = start;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < h.length && this.less(h[l] as Task, h[m] as Task)) m = l;
      if (r < h.length && this.less(h[r] as Task, h[m] as Task)) m = r;
      if (m === i) break;
      const t = h[i] as Task;
      h[i] = h[m] as Task;
      h[m] = t;
      i = m;
    }
  }
}
