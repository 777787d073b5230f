import { Term } from '../glossary/Term';
import { isTermName } from '../glossary/terms';
import { useRebalanceQueue } from './phaseBoard';
import { shownGeneration, shownGroupState } from './phaseQueue';

const STATES = ['Empty', 'PreparingRebalance', 'CompletingRebalance', 'Stable'] as const;

/**
 * A group's state and generation badges as the card draws them: in step with the rebalance
 * phases shown (phaseQueue.ts), the engine's own once the phases have played. The card's
 * `data-state` and `data-generation` stay the engine's.
 */
export function GroupStateBadges({
  groupId,
  state,
  generation,
}: {
  groupId: string;
  state: string;
  generation: number;
}) {
  const q = useRebalanceQueue(groupId);
  const shown = shownGroupState(q, state);
  return (
    <>
      <span className={`badge state-${shown}`} data-testid={`group-state-${groupId}`} data-shown-state={shown}>
        {isTermName(shown) ? <Term name={shown} /> : shown}
      </span>
      <span className="badge" data-testid={`group-generation-${groupId}`}>
        <Term name="generation">generation</Term> {shownGeneration(q, generation)}
      </span>
    </>
  );
}

/** The coordinator's state machine with the state drawn now marked. */
export function GroupStateMachine({ groupId, state }: { groupId: string; state: string }) {
  const shown = shownGroupState(useRebalanceQueue(groupId), state);
  return (
    <ol className="state-machine" aria-label="Group state">
      {STATES.map((s) => (
        <li key={s} className={s === shown ? 'current' : ''}>
          <Term name={s} />
        </li>
      ))}
    </ol>
  );
}
