/**
 * The scenario picker: the lessons, the starting clusters, and the
 * link that replays the current run exactly (seed, preset, every action with its engine time).
 */
import { scenarioHash, startScenario } from '../cluster/boardClient';
import type { Session } from '../session';
import type { BoardView, PresetName } from '../../engine/apps/types';
import { LessonPicker } from '../lessons/LessonPicker';
import { formatClock } from '../time/formatClock';

const PRESETS: { id: PresetName; label: string }[] = [
  { id: 'demo', label: 'Demo: 3 brokers, orders, 2 groups' },
  { id: 'elections', label: 'Elections: payments with unclean election on' },
  { id: 'empty4', label: '4 brokers, no racks' },
  { id: 'racks4', label: '4 brokers on 2 racks' },
  { id: 'eight', label: '8 brokers' },
  { id: 'large', label: 'Large: 50 brokers, 1,000 partitions, 500 consumers' },
];

export function ScenarioTab({ session, view }: { session: Session; view: BoardView }) {
  const link = `${location.origin}${location.pathname}${scenarioHash(view)}`;

  return (
    <div className="scenario-tab">
      <section aria-label="Lessons">
        <h3>Lessons</h3>
        <p className="muted small">
          Each lesson starts its own cluster and runs step by step: a step acts, then waits until the engine shows what
          it says before Next.
        </p>
        <LessonPicker session={session} />
      </section>
      <section aria-label="Starting clusters">
        <h3>Start from</h3>
        <ul className="guide-list">
          {PRESETS.map((p) => (
            <li key={p.id}>
              <button
                type="button"
                className="btn"
                data-testid={`preset-${p.id}`}
                onClick={() =>
                  void startScenario(
                    session,
                    { seed: 1, preset: p.id, actions: [], untilMs: 0 },
                    `Starting from “${p.label}”`,
                  )
                }
              >
                {p.label}
              </button>
            </li>
          ))}
        </ul>
      </section>
      <section aria-label="Share this run">
        <h3>Share this run</h3>
        <p className="muted small">
          Seed {view.seed}, preset {view.preset}, {view.actions.length} action{view.actions.length === 1 ? '' : 's'}, at{' '}
          {formatClock(view.nowMs)}. The link replays exactly this run.
        </p>
        <label className="share">
          <span className="visually-hidden">Link to this run</span>
          <input
            readOnly
            value={link}
            data-testid="scenario-link"
            aria-label="Link to this run"
            onFocus={(e) => e.target.select()}
          />
        </label>
        <button type="button" className="btn" onClick={() => void navigator.clipboard?.writeText(link)}>
          Copy link
        </button>
        <ol className="action-log" data-testid="action-log">
          {view.actions.map((a, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the log only grows; position is the action's identity
            <li key={`${a.at}-${i}`}>
              <time>{formatClock(a.at)}</time> {JSON.stringify(a.action)}
            </li>
          ))}
        </ol>
      </section>
    </div>
  );
}
