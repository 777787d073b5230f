import { Banners } from './chrome/Banners';
import { ClusterActions } from './chrome/ClusterActions';
import { ClusterStrip } from './chrome/ClusterStrip';
import { Jobs } from './chrome/Jobs';
import { ThemeToggle } from './chrome/ThemeToggle';
import { PlaneBoard } from './cluster/PlaneBoard';
import { TopicPartitions } from './log/TopicPartitions';
import { FlightLayer } from './producer/Flights';
import type { Session } from './session';
import { SidePanel } from './side/SidePanel';
import { useUi } from './store';
import { TimeControls } from './time/TimeControls';

export function App({ session }: { session: Session }) {
  const phase = useUi((s) => s.phase);
  return (
    <div className="app">
      <header className="topbar">
        <h1 className="brand">
          glassbox <span className="brand-sub">Kafka, inside out</span>
        </h1>
        <TimeControls session={session} />
        <div className="topbar-spacer" />
        {phase === 'ready' && <ClusterActions session={session} />}
        <ThemeToggle />
      </header>
      <FlightLayer />
      <Banners session={session} />
      <Jobs session={session} />
      {phase === 'ready' ? (
        <div className="workspace" data-testid="app-ready">
          <main className="center" aria-label="Topic partitions">
            <ClusterStrip />
            <TopicPartitions session={session} />
            <div className="plane-section">
              <PlaneBoard session={session} />
            </div>
          </main>
          <SidePanel session={session} />
        </div>
      ) : (
        <div className="workspace-empty" aria-busy={phase === 'starting'}>
          {phase === 'starting' && <p className="muted">Starting the engine worker and recovering the cluster…</p>}
        </div>
      )}
    </div>
  );
}
