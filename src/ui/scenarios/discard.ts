/**
 * Asking before the stored cluster is thrown away. Opening a link, a preset, a lesson or a seed
 * example replaces the cluster saved in this browser; the worker says first what that would
 * discard (planeScenarioCheck, which also replays the scenario in memory, so a link that cannot
 * be replayed is refused before anyone is asked). A cluster holding nothing beyond its preset
 * is replaced without a question: nothing of it would be lost.
 */
import type { ScenarioSpec } from '../../engine/apps/types';
import type { DiscardView } from '../../worker/protocol';
import type { Session } from '../session';
import { uiStore, useUi } from '../store';

export interface DiscardQuestion {
  /** What would replace the cluster, as the start of a sentence ("Opening this link"). */
  what: string;
  lost: DiscardView;
  answer(replace: boolean): void;
}

/** The question open now (the store's discard slice). */
export function useDiscardQuestion(): DiscardQuestion | null {
  return useUi((s) => s.discard);
}

/**
 * Whether `spec` may replace the running cluster: 'unchanged' when it is the running one (nothing
 * would be replaced), 'replace' when nothing would be lost or the person confirmed, 'keep' when
 * they declined. Throws the worker's error when the scenario cannot be replayed.
 */
export async function confirmDiscard(
  session: Session,
  spec: ScenarioSpec,
  what: string,
): Promise<'unchanged' | 'replace' | 'keep'> {
  const lost = await session.call('planeScenarioCheck', spec);
  if (!lost.replaces) return 'unchanged';
  if (lost.onlyPreset) return 'replace';
  // One question at a time: a newer one declines the one still open.
  uiStore.getState().discard?.answer(false);
  return new Promise((resolve) => {
    const question: DiscardQuestion = {
      what,
      lost,
      answer(replace) {
        if (uiStore.getState().discard === question) uiStore.setState({ discard: null });
        resolve(replace ? 'replace' : 'keep');
      },
    };
    uiStore.setState({ discard: question });
  });
}

/** "orders (6 partitions, 1,234 records)": one stored topic, as the question names it. */
export function describeTopic(t: DiscardView['topics'][number]): string {
  const n = (x: number, one: string) => `${x.toLocaleString('en-US')} ${one}${x === 1 ? '' : 's'}`;
  return `${t.name} (${n(t.partitions, 'partition')}, ${n(t.records, 'record')})`;
}
