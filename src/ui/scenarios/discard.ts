/**
 * Asking before the stored cluster is thrown away. Opening a link, a preset, a lesson or a seed
 * example replaces the cluster saved in this browser; the worker says first what that would
 * discard (checkScenario, which also replays the scenario in memory, so a link that cannot
 * be replayed is refused before anyone is asked). A cluster holding nothing beyond its preset
 * is replaced without a question: nothing of it would be lost.
 */
import type { ScenarioSpec } from '../../engine/apps/types';
import { WorkerError } from '../../worker/client';
import type { DiscardView, JobView } from '../../worker/protocol';
import type { Session } from '../session';
import { type UiState, uiStore, useUi } from '../store';
import type { DiscardQuestion } from './discardSlice';

export type { DiscardQuestion };

/** The question open now (the store's discard slice). */
export function useDiscardQuestion(): DiscardQuestion | null {
  return useUi((s) => s.discard);
}

export interface DiscardAnswer {
  /**
   * 'unchanged': the scenario is the one running, nothing to do; 'replace': run it (it replaces
   * the cluster, or runs the one running on to its time), nothing lost or confirmed; 'keep': declined.
   */
  answer: 'unchanged' | 'replace' | 'keep';
  lost: DiscardView;
}

/**
 * Whether `spec` may replace the running cluster, asked when it would discard something or when
 * its replay is long (the question says how long). Throws the worker's error when the scenario
 * cannot be replayed.
 */
export async function confirmDiscard(session: Session, spec: ScenarioSpec, what: string): Promise<DiscardAnswer> {
  const lost = await session.call('checkScenario', spec);
  if (!lost.replaces && lost.replay === null) return { answer: 'unchanged', lost };
  if ((!lost.replaces || lost.onlyPreset) && !lost.replay?.ask) return { answer: 'replace', lost };
  // One question at a time: a newer one declines the one still open.
  uiStore.getState().discard?.answer(false);
  return new Promise((resolve) => {
    const question: DiscardQuestion = {
      what,
      lost,
      answer(replace) {
        if (uiStore.getState().discard === question) uiStore.setState({ discard: null });
        resolve({ answer: replace ? 'replace' : 'keep', lost });
      },
    };
    uiStore.setState({ discard: question });
  });
}

/**
 * Runs a scenario the person agreed to: at once when its replay is short, else as a job the
 * worker runs between frames (progress and Cancel in the jobs strip), waited for here. Resolves
 * with how it ended ('cancelled-unchanged': while it was still checked in memory, nothing was
 * replaced); throws the worker's error when it failed.
 */
export async function runScenario(
  session: Session,
  spec: ScenarioSpec,
  lost: DiscardView,
): Promise<'finished' | 'cancelled' | 'cancelled-unchanged'> {
  if (!lost.replay?.sliced) {
    await session.call('loadScenario', spec);
    return 'finished';
  }
  const { jobId } = await session.call('startScenarioJob', spec);
  const job = await new Promise<JobView>((resolve) => {
    const ended = (s: UiState) => {
      const j = s.jobs[jobId];
      return j && j.state !== 'running' ? j : null;
    };
    const now = ended(uiStore.getState());
    if (now) return resolve(now);
    const off = uiStore.subscribe((s) => {
      const j = ended(s);
      if (j) {
        off();
        resolve(j);
      }
    });
  });
  if (job.state === 'failed' && job.error) throw new WorkerError(job.error);
  if (job.state === 'finished') return 'finished';
  // Another scenario is checked in memory first (the first half of the job): nothing replaced yet.
  return lost.replaces && job.done < job.total / 2 ? 'cancelled-unchanged' : 'cancelled';
}

/** "orders (6 partitions, 1,234 records)": one stored topic, as the question names it. */
export function describeTopic(t: DiscardView['topics'][number]): string {
  const n = (x: number, one: string) => `${x.toLocaleString('en-US')} ${one}${x === 1 ? '' : 's'}`;
  return `${t.name} (${n(t.partitions, 'partition')}, ${n(t.records, 'record')})`;
}

/** "about 6 minutes", "about 40 seconds": a replay's estimated real time, roughly. */
export function describeDuration(ms: number): string {
  const s = Math.max(1, Math.round(ms / 1000));
  if (s < 90) return `${s} second${s === 1 ? '' : 's'}`;
  const min = Math.round(s / 60);
  if (min < 90) return `${min} minutes`;
  return `${(min / 60).toFixed(1)} hours`;
}
