/**
 * The scenario log: every action a person took, with the engine time it ran at (engine ms since
 * the scenario started), so (seed, preset, actions) replays the run exactly. Nothing recorded is
 * ever dropped (a reload restarts the board from it, time travel replays it); a Send N job's
 * later slices fold into the job's action (jobSlices.ts), so a job is one action, not one per slice.
 */
import { foldSlice } from '../jobSlices';
import type { ScenarioAction, TimedAction } from '../types';

/** What the views and replays read of the scenario. */
export interface ScenarioRecorderRead {
  readonly actions: readonly TimedAction[];
}

export class ScenarioRecorder implements ScenarioRecorderRead {
  private readonly recorded: TimedAction[] = [];

  get actions(): readonly TimedAction[] {
    return this.recorded;
  }

  record(at: number, action: ScenarioAction): void {
    if (foldSlice(this.recorded[this.recorded.length - 1], at, action)) return;
    this.recorded.push({ at, action });
  }

  /** Actions recorded before this run (a restart's or a stored run's), kept as they were. */
  restore(actions: readonly TimedAction[]): void {
    this.recorded.push(...actions);
  }

  /** Forgets everything recorded: a preset's own setup is not part of the scenario. */
  clear(): void {
    this.recorded.length = 0;
  }
}
