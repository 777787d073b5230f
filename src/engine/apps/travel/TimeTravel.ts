/**
 * Time travel over a live run, as a host offers it: which moment is shown (the live run or a
 * replay of its past), the checkpoints built between frames, and forks (an action taken while
 * the past is shown replaces the run by its replay up to that moment). Hosts hold one of these
 * per run; the replays themselves are the TimeMachine's.
 */
import { DataPath, KafkaError, type Store } from '../../index';
import type { ClusterApps } from '../ClusterApps';
import { actionsUntil } from '../jobSlices';
import type { ScenarioSpec } from '../types';
import { TimeMachine } from './TimeMachine';
import { type MomentKind, nextMoment } from './moments';
import type { ForkView, TravelView } from './types';

/** A moment of the past being shown: its cluster and a data path over its leaders. */
export interface ShownPast {
  apps: ClusterApps;
  data: DataPath;
}

/**
 * Background replay per frame, engine ms: about 2 ms of real time for the demo; more while the
 * past is shown, since the live run is paused meanwhile.
 */
const WORK_MS = 250;
const WORK_PAUSED_MS = 1000;
/** Above this many brokers no checkpoints are built in the background (a seek replays from the start). */
const BROKERS_MAX = 12;

export class TimeTravel {
  private machine: TimeMachine;
  private shownPast: ShownPast | null = null;
  private lastFork: ForkView | null = null;
  private forks = 0;
  /** The run was restarted from the Store at this engine time: it has no replayable past. */
  private restoredAtMs: number | null = null;

  constructor(
    /** The live run (read anew each time: a fork replaces it). */
    private readonly live: () => ClusterApps,
    private readonly newStore: () => Store,
  ) {
    this.machine = this.newMachine();
  }

  private newMachine(): TimeMachine {
    return new TimeMachine(() => this.live(), { newStore: this.newStore });
  }

  /** Another run, another past: the checkpoints and the last fork are forgotten. */
  restart(): void {
    this.machine = this.newMachine();
    this.shownPast = null;
    this.lastFork = null;
    this.restoredAtMs = null;
  }

  /**
   * The run was restarted from what the Store kept (a reload) at `atMs`. Its past is the stored
   * cluster, not the scenario's replay: the reload dropped what was not saved yet, the producers
   * started again, so replaying the recorded actions would show, and a fork would write, records
   * that differ from the acknowledged ones at the same offsets. No past is offered until another
   * run starts (a scenario, a preset, a reset).
   */
  restored(atMs: number): void {
    this.restart();
    this.restoredAtMs = atMs;
  }

  /** The past being shown (the live run is paused meanwhile); null: the live run. */
  get past(): ShownPast | null {
    return this.shownPast;
  }

  /**
   * Shows the cluster as it was at `atMs` (TimeMachine.seek), or the live run again when `atMs`
   * is at or past its now. True when the picture shown changed: the page then draws a new run.
   */
  seek(atMs: number): boolean {
    if (!Number.isFinite(atMs) || atMs < 0)
      throw new KafkaError('INVALID_REQUEST', `A moment of the run is a time from 0 ms, got ${atMs}.`);
    if (this.restoredAtMs !== null && atMs < this.live().nowMs)
      throw new KafkaError(
        'INVALID_REQUEST',
        `This run was restored from storage at ${this.restoredAtMs} ms: its past is what was stored, which no replay rebuilds, so it has none to show.`,
        { restoredAtMs: this.restoredAtMs },
      );
    if (atMs >= this.live().nowMs) {
      if (this.shownPast === null) return false;
      this.machine.leave();
      this.shownPast = null;
    } else {
      const apps = this.machine.seek(Math.floor(atMs));
      this.shownPast = { apps, data: new DataPath(apps.engine, new Map()) };
    }
    return true;
  }

  /** The next moment of `kind` after the one shown, or null. */
  nextMoment(kind: MomentKind): number | null {
    return nextMoment(this.live(), kind, this.view().viewMs);
  }

  /**
   * Makes the live run ready for an action. Shown the past, the run forks there: `replace`
   * starts the scenario's replay up to that moment (its recorded actions after it discarded),
   * the checkpoints up to it are kept as the new run's past, and the fork is reported.
   */
  async forkIfPast(replace: (spec: ScenarioSpec) => Promise<void>): Promise<boolean> {
    if (this.shownPast === null) return false;
    const live = this.live();
    const atMs = this.shownPast.apps.nowMs;
    const kept = actionsUntil(live.actions, atMs);
    const fork: ForkView = {
      n: ++this.forks,
      atMs,
      discardedActions: live.actions.length - kept.length,
      discardedMs: live.nowMs - atMs,
    };
    const machine = this.machine;
    this.shownPast = null;
    await replace({ seed: live.seed, preset: live.preset, actions: kept, untilMs: atMs });
    this.live().runTo(atMs);
    machine.forgetAfter(atMs);
    this.machine = machine;
    this.lastFork = fork;
    return true;
  }

  /** Builds checkpoints a bounded slice at a time (call between frames). */
  work(): void {
    const live = this.live();
    if (this.restoredAtMs !== null || live.cluster.brokers.size > BROKERS_MAX) return;
    this.machine.work(live.nowMs, this.shownPast ? WORK_PAUSED_MS : WORK_MS);
  }

  view(liveMs = this.live().nowMs): TravelView {
    return {
      viewMs: this.shownPast?.apps.nowMs ?? liveMs,
      liveMs,
      live: this.shownPast === null,
      checkpoints: this.machine.checkpointTimes().length,
      checkpointsComplete: this.machine.complete(liveMs),
      fork: this.lastFork,
      restoredAtMs: this.restoredAtMs,
      horizonMs: this.machine.horizonMs,
    };
  }
}
