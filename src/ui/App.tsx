import type { Session } from './session';
import { useUi } from './store';
import { PartitionList } from './log/PartitionList';

export function App({ session: _session }: { session: Session }) {
  const phase = useUi((s) => s.phase);
  const failure = useUi((s) => s.failure);
  return (
    <div className="app">
      <header className="topbar">
        <h1 className="brand">
          glassbox <span className="brand-sub">Kafka, inside out</span>
        </h1>
      </header>
      <main className="main" aria-busy={phase === 'starting'}>
        {phase === 'starting' && <p className="muted">Starting the engine worker…</p>}
        {phase === 'failed' && (
          <p role="alert" className="banner banner-error">
            The engine could not start: {failure}
          </p>
        )}
        {phase === 'ready' && (
          <div data-testid="app-ready">
            <PartitionList />
          </div>
        )}
      </main>
    </div>
  );
}
