/**
 * The board's narration: each engine event that moves leadership, the ISR or the
 * controller, one sentence per step, newest at the bottom, appearing one after another (an
 * election reads: session expired → ephemeral node deleted → watch fired → first live ISR
 * member chosen → new leader epoch).
 */
import { Term } from '../glossary/Term';
import { useBoard } from '../store';
import { usePastMs } from '../time/usePastMs';
import { formatClock } from '../time/formatClock';

export function StoryPanel() {
  const pastMs = usePastMs();
  // In the past, the log as it read then: nothing told after the moment shown.
  const story = useBoard((s) => s.story).filter((l) => pastMs === null || l.atMs <= pastMs);
  return (
    <section className="story" aria-label="What the controller did" data-testid="election-story">
      <h3>
        <Term name="controller log">Controller log</Term>
      </h3>
      {story.length === 0 ? (
        <p className="muted small">Kill or isolate a broker to watch an election, step by step.</p>
      ) : (
        <ol className="story-list" aria-live="polite">
          {story.slice(-24).map((l, i, shown) => (
            <li
              key={l.id}
              className={`story-line tone-${l.tone}`}
              data-kind={l.kind}
              style={{ animationDelay: `${Math.min(6, Math.max(0, i - shown.length + 6)) * 120}ms` }}
            >
              <time className="story-time">{formatClock(l.atMs)}</time> {l.text}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
