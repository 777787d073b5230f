/**
 * A scenario's replay on one ClusterApps, a bounded slice at a time: the recorded actions at their
 * engine times (a Send N job slice by slice, jobSlices.ts), the clock moved in steps of at most
 * STEP_MS between them, up to the scenario's `untilMs`. `ClusterApps.fromScenario` runs one to its
 * end at once; a host runs a long one (a link of hours) in slices between frames, so the page keeps
 * answering, shows progress and may cancel (ReplayJob in the worker).
 *
 * An action the cluster refuses stops the replay with that KafkaError, its message naming the
 * action (number, op, engine time).
 */
import { isKafkaError, KafkaError } from '../index';
import { ActionCursor } from './jobSlices';
import type { ScenarioAction, ScenarioSpec, TimedAction } from './types';

/** What a replay drives: a ClusterApps (its clock and its one dispatcher of actions). */
export interface ReplayTarget {
  /** Engine ms since the scenario started. */
  readonly nowMs: number;
  runTo(relMs: number): void;
  apply(action: ScenarioAction): unknown;
}

/** The most engine time one step of the clock moves between two looks at the slice's budget. */
const STEP_MS = 100;

/** Where a scenario's replay ends: its `untilMs`, or its last step if that is later. */
export function replayEnd(spec: Pick<ScenarioSpec, 'actions' | 'untilMs'>): number {
  let end = spec.untilMs;
  for (const t of spec.actions) end = Math.max(end, t.at + (t.slices?.[t.slices.length - 2] ?? 0));
  return end;
}

export class ScenarioReplay {
  private readonly actions: readonly TimedAction[];
  private readonly cursor = new ActionCursor();
  /** Engine ms since the scenario started at which the replay is complete. */
  readonly endMs: number;
  private finished = false;

  constructor(
    readonly apps: ReplayTarget,
    spec: Pick<ScenarioSpec, 'actions' | 'untilMs'>,
  ) {
    this.actions = [...spec.actions].sort((a, b) => a.at - b.at);
    this.endMs = replayEnd(spec);
  }

  get done(): boolean {
    return this.finished;
  }

  /** Replays while `inTime()` holds (at least one step); throws the KafkaError of a refused action. */
  slice(inTime: () => boolean): void {
    const apps = this.apps;
    do {
      const toMs = Math.min(this.endMs, apps.nowMs + STEP_MS);
      const t = this.cursor.next(this.actions, toMs);
      if (t) {
        apps.runTo(t.at);
        this.apply(t);
      } else if (apps.nowMs >= this.endMs) {
        this.finished = true;
      } else apps.runTo(toMs);
    } while (!this.finished && inTime());
  }

  /** Runs to the end at once (a short scenario, a test). */
  runToEnd(): void {
    while (!this.finished) this.slice(() => true);
  }

  private apply(t: TimedAction): void {
    try {
      this.apps.apply(t.action);
    } catch (e) {
      if (!isKafkaError(e)) throw e;
      const step = this.cursor.lastAction + 1;
      const why = e.message.startsWith(`${e.code}: `) ? e.message.slice(e.code.length + 2) : e.message;
      throw new KafkaError(
        e.code,
        `action ${step} of ${this.actions.length} (${t.action.op} at ${(t.at / 1000).toFixed(1)} s) failed: ${why}`,
        { ...e.details, step, op: t.action.op, at: t.at },
      );
    }
  }
}
