/**
 * The op names the scenario's actions had before they took the engine's words (issue 24). Runs
 * stored in IndexedDB (meta/cluster.json) and share links (`#scenario=`) made then still carry
 * them; both are read in today's words, so an old link replays as it did.
 */
import type { ScenarioAction, TimedAction } from './types';

export const LEGACY_ACTION_OPS: Readonly<Record<string, ScenarioAction['op']>> = {
  reassign: 'reassignPartitions',
  preferredElection: 'electPreferredLeaders',
  produce: 'produceDemoRecords',
};

/** An action's op in today's words; anything else is left as it is, for the reader to check. */
export function currentActionOp(op: unknown): unknown {
  return typeof op === 'string' && Object.hasOwn(LEGACY_ACTION_OPS, op) ? LEGACY_ACTION_OPS[op] : op;
}

/** A stored action in today's words. */
export function currentTimedAction(t: TimedAction): TimedAction {
  const op = currentActionOp(t.action.op);
  return op === t.action.op ? t : { ...t, action: { ...t.action, op } as ScenarioAction };
}
