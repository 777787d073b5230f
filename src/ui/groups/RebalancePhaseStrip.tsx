import { useRebalanceQueue } from './phaseBoard';
import { PHASES, phaseIndex, type RebalancePhase } from './rebalancePhases';

/** Each phase in Kafka's words: the request or the actor that makes it. */
const LABEL: Record<RebalancePhase, string> = {
  leave: 'leave · revoke',
  join: 'JoinGroup',
  compute: 'leader computes',
  sync: 'SyncGroup',
  assign: 'assign',
  stable: 'Stable',
};

const TELLS: Record<RebalancePhase, string> = {
  leave: 'A member left or the group must rebalance: members revoke their partitions.',
  join: 'Members send JoinGroup; the coordinator waits for every member it knows.',
  compute: 'Join phase complete, new generation: the group leader runs the assignor.',
  sync: 'Members send SyncGroup; the leader’s carries the assignment.',
  assign: 'The coordinator answers every SyncGroup with the member’s partitions.',
  stable: 'Stable: every member consumes its partitions.',
};

/**
 * The rebalance on a group card as a strip of phases: the one shown is marked, the ones before it
 * are done. Phases come from engine events and each stays at least PHASE_MIN_MS at 1x
 * (phaseQueue.ts), so a rebalance that took the engine one instant is still seen in order.
 */
export function RebalancePhaseStrip({ groupId }: { groupId: string }) {
  const shown = useRebalanceQueue(groupId).shown;
  const at = phaseIndex(shown.phase);
  return (
    <div
      className={`phase-strip phase-${shown.phase}`}
      data-testid={`rebalance-phase-${groupId}`}
      data-phase={shown.phase}
      data-generation={shown.generation ?? undefined}
    >
      <ol aria-label={`Rebalance of ${groupId}: ${LABEL[shown.phase]}`}>
        {PHASES.slice(0, -1).map((p, i) => (
          <li
            key={p}
            className={i === at ? 'current' : i < at ? 'done' : ''}
            aria-current={i === at ? 'step' : undefined}
          >
            {LABEL[p]}
          </li>
        ))}
      </ol>
      <p className="phase-tells small" title={shown.why}>
        {TELLS[shown.phase]}
      </p>
    </div>
  );
}
