/**
 * The scenario picker: guided walk-throughs per seed chapter, the starting clusters, and the
 * link that replays the current run exactly (seed, preset, every action with its engine time).
 */
import { act, scenarioHash, startScenario } from '../cluster/planeClient';
import { setPlane, usePlane } from '../store';
import type { Session } from '../session';
import type { PlaneView, PresetName } from '../../engine/apps/types';
import { GUIDES } from './guides';
import { formatClock } from '../time/formatClock';

const PRESETS: { id: PresetName; label: string }[] = [
  { id: 'demo', label: 'Demo: 3 brokers, orders, 2 groups' },
  { id: 'elections', label: 'Elections: payments with unclean election on' },
  { id: 'empty4', label: '4 brokers, no racks' },
  { id: 'racks4', label: '4 brokers on 2 racks' },
  { id: 'eight', label: '8 brokers' },
  { id: 'large', label: 'Large: 50 brokers, 1,000 partitions, 500 consumers' },
];

export function ScenarioTab({ session, view }: { session: Session; view: PlaneView }) {
  const guide = usePlane((s) => s.guide);
  const active = guide ? GUIDES.find((g) => g.id === guide.id) : undefined;
  const link = `${location.origin}${location.pathname}${scenarioHash(view)}`;

  async function startGuide(id: string) {
    const g = GUIDES.find((x) => x.id === id);
    if (!g) return;
    const spec = { seed: 1, preset: g.preset, actions: [], untilMs: 0 };
    if (!(await startScenario(session, spec, `Starting the guide “${g.title}”`))) return;
    setPlane({ guide: { id, step: 0 } });
  }

  async function next() {
    if (!active || !guide) return;
    const step = active.steps[guide.step + 1];
    if (!step) return;
    if (step.action) await act(session, step.action);
    setPlane({ guide: { id: active.id, step: guide.step + 1 } });
  }

  return (
    <div className="scenario-tab">
      <section aria-label="Guided scenarios">
        <h3>Guided scenarios</h3>
        <ul className="guide-list">
          {GUIDES.map((g) => (
            <li key={g.id}>
              <button type="button" className="btn" data-testid={`guide-${g.id}`} onClick={() => void startGuide(g.id)}>
                {g.chapter}: {g.title}
              </button>
            </li>
          ))}
        </ul>
        {active && guide && (
          <div className="guide" data-testid="guide" data-step={guide.step}>
            <h4>{active.title}</h4>
            <ol>
              {active.steps.map((s, i) => (
                <li key={s.text} className={i === guide.step ? 'current' : i < guide.step ? 'done' : ''}>
                  {s.text}
                </li>
              ))}
            </ol>
            <div className="row">
              <button
                type="button"
                className="btn btn-primary"
                data-testid="guide-next"
                disabled={guide.step + 1 >= active.steps.length}
                onClick={() => void next()}
              >
                Next step
              </button>
              <button type="button" className="btn" onClick={() => setPlane({ guide: null })}>
                Leave
              </button>
            </div>
          </div>
        )}
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
