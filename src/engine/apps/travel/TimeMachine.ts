/**
 * Seeking in a run: the cluster exactly as it was at any earlier engine time, by deterministic
 * replay (Replica), made fast by checkpoints.
 *
 * A replay of the demo runs about 150 engine seconds per real second (Node), so replaying ten
 * minutes from the start takes seconds. A seek instead starts from the nearest earlier replica
 * it keeps: the one being viewed, a checkpoint, or the follower, and replays at most `everyMs`.
 *
 * Engines cannot be copied, so each checkpoint is its own replay from the start. They are built
 * in the background (`work`, a bounded slice at a time): the follower replays from the start to
 * the first gap wider than `everyMs` and is parked there as a checkpoint. A seek takes the
 * replica it starts from (it moves on to the seek's time); the gap it leaves is rebuilt later.
 * At most `maxCheckpoints` are kept: past that, the spacing doubles and every other one goes,
 * so memory stays bounded however long the run.
 */
import type { Store } from '../../index';
import type { ClusterApps } from '../ClusterApps';
import { Replica, type ReplaySource } from './Replica';

export interface TimeMachineOptions {
  /**
   * A fresh store for each replica (the host passes a MemoryStore): a replay never writes the live
   * run's files. A store that says its `sizeBytes` counts toward `maxBytes`.
   */
  newStore: () => Store & { readonly sizeBytes?: number };
  /** The most memory all replicas together may hold (TRAVEL_MAX_BYTES). */
  maxBytes?: number;
  /** The widest gap between checkpoints, engine ms (doubles when there would be too many). */
  everyMs?: number;
  maxCheckpoints?: number;
}

/** 20 engine s of the demo replay in about 130 ms (Node, unloaded): a seek stays near 200 ms. */
export const CHECKPOINT_EVERY_MS = 20_000;
/**
 * 30 cover 10 minutes at 20 s. Memory: the 14 checkpoints of a 5-minute demo run hold 87 MB of
 * heap (6 MB each, growing with the run), so 10 minutes' hold a few hundred MB.
 */
export const MAX_CHECKPOINTS = 30;
/**
 * The memory time travel may hold, over all its replicas. Each replica holds every file of the
 * run up to its moment (a 5,000 records/s run adds about 10 MB a minute per replica), so past some
 * point of a busy run even one replay would not fit: that point is the horizon, and the past
 * shown reaches no further (TravelView.horizonMs). Checkpoints that do not fit are dropped, the
 * latest first.
 */
export const TRAVEL_MAX_BYTES = 64 * 1024 * 1024;

export class TimeMachine {
  everyMs: number;
  private readonly maxCheckpoints: number;
  /** Parked replicas, by engine time. */
  private checkpoints: Replica[] = [];
  /** The replica replaying toward the next checkpoint. */
  private follower: Replica | null = null;
  /** The replica the page is looking at (null: the live run). */
  private viewer: Replica | null = null;
  private readonly maxBytes: number;
  /** Past this engine time one replay would hold more than half of maxBytes: no replay goes further. */
  private horizon: number | null = null;

  constructor(
    /** The live run's seed, preset and recorded actions (read anew each time: the run goes on). */
    private readonly source: () => ReplaySource,
    private readonly options: TimeMachineOptions,
  ) {
    this.everyMs = options.everyMs ?? CHECKPOINT_EVERY_MS;
    this.maxCheckpoints = options.maxCheckpoints ?? MAX_CHECKPOINTS;
    this.maxBytes = options.maxBytes ?? TRAVEL_MAX_BYTES;
  }

  /** The latest moment a replay may reach (null: any before the live now). */
  get horizonMs(): number | null {
    return this.horizon;
  }

  /** The memory all replicas hold now. */
  get bytes(): number {
    let n = 0;
    for (const r of [this.viewer, this.follower, ...this.checkpoints]) if (r) n += r.bytes;
    return n;
  }

  /** The engine times of the checkpoints kept (for tests and the benchmark). */
  checkpointTimes(): number[] {
    return this.checkpoints.map((c) => c.nowMs);
  }

  /** The replica being viewed, if any. */
  get viewing(): ClusterApps | null {
    return this.viewer?.apps ?? null;
  }

  /**
   * The cluster as it was at `atMs` (which must be before the live run's now, so every action up
   * to it is final). Starts from the latest replica at or before `atMs`; the previous viewer is
   * kept as a checkpoint when it is not the one moved.
   */
  seek(at: number): ClusterApps {
    const atMs = this.horizon === null ? at : Math.min(at, this.horizon);
    const source = this.source();
    const candidates = [this.viewer, this.follower, ...this.checkpoints].filter(
      (r): r is Replica => r !== null && r.nowMs <= atMs,
    );
    let from = candidates.reduce<Replica | null>((best, r) => (best === null || r.nowMs > best.nowMs ? r : best), null);
    if (from === this.follower) this.follower = null;
    this.checkpoints = this.checkpoints.filter((c) => c !== from);
    const previous = this.viewer;
    if (previous && previous !== from) this.park(previous);
    from ??= new Replica(source, this.options.newStore());
    from.advanceTo(atMs, source.actions);
    this.viewer = from;
    this.fitBudget();
    return from.apps;
  }

  /** Back to the live run: the replica that was viewed becomes a checkpoint. */
  leave(): void {
    if (this.viewer) this.park(this.viewer);
    this.viewer = null;
  }

  /**
   * A fork at `atMs`: the run after it is another history now, so every replica past it goes
   * (the viewer too: the live run continues from there).
   */
  forgetAfter(atMs: number): void {
    this.viewer = null;
    if (this.follower && this.follower.nowMs > atMs) this.follower = null;
    this.checkpoints = this.checkpoints.filter((c) => c.nowMs <= atMs);
  }

  /**
   * Background building: replays up to `budgetMs` engine ms toward the first gap (before
   * `liveNowMs`) wider than `everyMs`, parking the follower there. False when nothing is left to do.
   */
  work(liveNowMs: number, budgetMs: number): boolean {
    const gap = this.firstGap(liveNowMs);
    if (gap === null) return false;
    if (this.follower && this.follower.nowMs > gap) this.follower = null;
    const source = this.source();
    this.follower ??= new Replica(source, this.options.newStore());
    this.follower.advanceTo(Math.min(gap, this.follower.nowMs + budgetMs), source.actions);
    if (this.follower.bytes > this.maxBytes / 2) {
      // One replay this far would take half the budget: the past shown stops here.
      this.horizon = this.follower.nowMs;
      this.follower = null;
      this.fitBudget();
      return false;
    }
    if (this.follower.nowMs >= gap) {
      this.park(this.follower);
      this.follower = null;
      this.fitBudget();
    }
    return true;
  }

  /** True when no gap wider than `everyMs` is left before `liveNowMs`: any seek replays at most that. */
  complete(liveNowMs: number): boolean {
    return this.firstGap(liveNowMs) === null;
  }

  /** Where the next checkpoint belongs: `everyMs` past the last replica before the first wide gap. */
  private firstGap(liveNowMs: number): number | null {
    let previous = 0;
    for (const c of this.checkpoints) {
      if (c.nowMs - previous > this.everyMs) break;
      previous = c.nowMs;
    }
    const at = previous + this.everyMs;
    // Actions stamped at the live run's now may still join it: a checkpoint stays before it.
    return at < liveNowMs && (this.horizon === null || at <= this.horizon) ? at : null;
  }

  /** Drops checkpoints, the latest (largest) first, until every replica fits in maxBytes. */
  private fitBudget(): void {
    while (this.bytes > this.maxBytes && this.checkpoints.length > 0) this.checkpoints.pop();
    if (this.bytes > this.maxBytes) this.follower = null;
  }

  /**
   * Keeps a replica as a checkpoint. Too many: the one closest to its predecessor goes (a viewer
   * parked near a checkpoint adds little); when all are `everyMs` apart, the spacing doubles.
   */
  private park(r: Replica): void {
    this.checkpoints.push(r);
    this.checkpoints.sort((a, b) => a.nowMs - b.nowMs);
    while (this.checkpoints.length > this.maxCheckpoints) {
      let closest = 0;
      let closestGap = Number.POSITIVE_INFINITY;
      this.checkpoints.forEach((c, i) => {
        const gap = c.nowMs - (this.checkpoints[i - 1]?.nowMs ?? 0);
        if (gap < closestGap) [closest, closestGap] = [i, gap];
      });
      if (closestGap < this.everyMs) this.checkpoints.splice(closest, 1);
      else {
        this.everyMs *= 2;
        this.thin();
      }
    }
  }

  /** Drops each checkpoint closer than `everyMs` to the one kept before it. */
  private thin(): void {
    const kept: Replica[] = [];
    let last = Number.NEGATIVE_INFINITY;
    for (const c of this.checkpoints) {
      if (c.nowMs - last < this.everyMs) continue;
      kept.push(c);
      last = c.nowMs;
    }
    this.checkpoints = kept;
  }
}
