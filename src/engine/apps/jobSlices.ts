/**
 * A Send N job in the scenario: one recorded action, however long it runs. The host sends a job's
 * records in slices between frames, each slice at the engine instant it ran at; the recorder
 * folds each slice that continues the job (nothing recorded in between) into the job's action,
 * as `slices`: flat pairs [ms after the action's `at`, records], the first pair the action's own.
 * The action's `count` is the job's total so far.
 *
 * A replay sends the same slices at the same engine instants (ActionCursor unfolds them), so the
 * recorder never needs a cap that would drop the oldest actions: a run of hours at 5,000
 * records/s is a few actions with a list of numbers each, not a million commands.
 */
import type { ScenarioAction, TimedAction } from './types';

type ProduceRecords = Extract<ScenarioAction, { op: 'produceRecords' }>;

/**
 * Folds `action`, taken at `at`, into `last` when it continues last's Send N job (same topic,
 * key prefix and value size, its first record right after last's); true when folded.
 */
export function foldSlice(last: TimedAction | undefined, at: number, action: ScenarioAction): boolean {
  if (action.op !== 'produceRecords' || last?.action.op !== 'produceRecords') return false;
  const job = last.action;
  if (
    job.topic !== action.topic ||
    job.keyPrefix !== action.keyPrefix ||
    job.valueBytes !== action.valueBytes ||
    job.from + job.count !== action.from
  )
    return false;
  const slices = last.slices ?? [0, job.count];
  const dt = at - last.at;
  if (slices[slices.length - 2] === dt)
    slices[slices.length - 1] = (slices[slices.length - 1] as number) + action.count;
  else slices.push(dt, action.count);
  last.slices = slices;
  last.action = { ...job, count: job.count + action.count };
  return true;
}

/**
 * The recorded actions up to `atMs`: a job running across it keeps only its slices up to then
 * (what a fork at `atMs` keeps of the run).
 */
export function actionsUntil(actions: readonly TimedAction[], atMs: number): TimedAction[] {
  const kept: TimedAction[] = [];
  for (const t of actions) {
    if (t.at > atMs) break;
    if (!t.slices) {
      kept.push(t);
      continue;
    }
    const slices: number[] = [];
    let count = 0;
    for (let i = 0; i < t.slices.length; i += 2) {
      if (t.at + (t.slices[i] as number) > atMs) break;
      slices.push(t.slices[i] as number, t.slices[i + 1] as number);
      count += t.slices[i + 1] as number;
    }
    kept.push({ at: t.at, action: { ...(t.action as ProduceRecords), count }, slices });
  }
  return kept;
}

/**
 * Walks a run's recorded actions as a replay applies them, each job slice as its own
 * produceRecords at its own instant. The list may still grow (the live run records on): a job
 * that is the last action may get more slices, so the cursor stays on it until something follows.
 */
export class ActionCursor {
  /** Actions wholly applied. */
  private index = 0;
  /** Slices of actions[index] applied. */
  private slice = 0;
  /** The first record of actions[index]'s next slice. */
  private from = 0;

  /** The recorded action (its index) the last step came from: an error names the action by it. */
  lastAction = -1;

  /** The next step at or before `toMs`, or null; moves past it. */
  next(actions: readonly TimedAction[], toMs: number): TimedAction | null {
    for (;;) {
      const t = actions[this.index];
      if (!t) return null;
      const slices = t.slices;
      if (!slices) {
        if (t.at > toMs) return null;
        this.lastAction = this.index++;
        return t;
      }
      if (2 * this.slice >= slices.length) {
        // Every slice so far applied: go on only once the job is over (something follows it).
        if (this.index >= actions.length - 1) return null;
        this.index++;
        this.slice = 0;
        continue;
      }
      const at = t.at + (slices[2 * this.slice] as number);
      if (at > toMs) return null;
      const job = t.action as ProduceRecords;
      if (this.slice === 0) this.from = job.from;
      const count = slices[2 * this.slice + 1] as number;
      const step: TimedAction = { at, action: { ...job, from: this.from, count } };
      this.from += count;
      this.slice++;
      this.lastAction = this.index;
      return step;
    }
  }
}
