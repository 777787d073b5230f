/**
 * A group's rebalances told step by step from the engine's events: FindCoordinator, JoinGroup
 * to the coordinator broker (and why that broker), the state machine's transitions, the group
 * leader running the assignor, SyncGroup, and each member's revoked/assigned callbacks.
 */
import { useBoard } from '../store';
import { usePastMs } from '../time/usePastMs';
import { formatClock } from '../time/formatClock';

export function RebalanceStory({ groupId }: { groupId: string }) {
  const pastMs = usePastMs();
  const lines = useBoard((s) => s.groupStory).filter(
    (l) => (l.groupId === groupId || l.text.startsWith(`${groupId}`)) && (pastMs === null || l.atMs <= pastMs),
  );
  const shown = lines.slice(-14);
  return (
    <section
      className="story rebalance-story"
      aria-label={`Rebalances of ${groupId}`}
      data-testid={`rebalance-story-${groupId}`}
    >
      <h3>Rebalance, step by step</h3>
      {shown.length === 0 ? (
        <p className="muted small">Move a consumer to watch JoinGroup, the assignor and SyncGroup.</p>
      ) : (
        <ol className="story-list" aria-live="polite">
          {shown.map((l) => (
            <li key={l.id} className={`story-line step-${l.step}`} title={l.full}>
              <time className="story-time">{formatClock(l.atMs)}</time> {l.text}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
