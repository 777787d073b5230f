/**
 * "Step to the next event": the state changes a learner steps between, read from the live run's
 * event log (elections, ISR changes, rebalances) and its segment rolls.
 */
import type { ClusterApps } from '../ClusterApps';
import type { EventKind } from '../events/types';

export const MOMENT_KINDS = ['election', 'isr', 'rebalance', 'roll'] as const;
export type MomentKind = (typeof MOMENT_KINDS)[number];

export const MOMENT_LABELS: Record<MomentKind, string> = {
  election: 'leader election',
  isr: 'ISR change',
  rebalance: 'rebalance',
  roll: 'segment roll',
};

/** The engine time (ms since the scenario started) of the first moment of `kind` after `afterMs`, or null. */
export function nextMoment(run: ClusterApps, kind: MomentKind, afterMs: number): number | null {
  const times =
    kind === 'roll'
      ? run.rolls.atMs
      : run.eventLog
          .view()
          .entries.filter((e) => e.kind === (kind satisfies EventKind))
          .map((e) => e.atMs);
  let best: number | null = null;
  for (const t of times) if (t > afterMs && (best === null || t < best)) best = t;
  return best;
}
