import { useEffect, useRef } from 'react';
import { AboutFidelity } from './chrome/AboutFidelity';
import { Banners } from './chrome/Banners';
import { ClusterActions } from './chrome/ClusterActions';
import { ClusterStrip } from './chrome/ClusterStrip';
import { Jobs } from './chrome/Jobs';
import { ThemeToggle } from './chrome/ThemeToggle';
import { PlaneBoard } from './cluster/PlaneBoard';
import { TopicPartitions } from './log/TopicPartitions';
import { DiscardDialog } from './scenarios/DiscardDialog';
import { FlightLayer } from './producer/Flights';
import type { Session } from './session';
import { SidePanel } from './side/SidePanel';
import { useUi } from './store';
import { TimeControls } from './time/TimeControls';
import { useAutoSlow } from './time/useAutoSlow';
import { usePhaseBoard } from './groups/usePhaseBoard';
import { useReplicationHold } from './cluster/replicationHoldStore';
import { TimeTravel } from './time/TimeTravel';
import { ShortcutsHelp } from './keys/ShortcutsHelp';
import { StartHere } from './welcome/StartHere';
import { Welcome } from './welcome/Welcome';

/**
 * The control plane's board, below the partitions. Tells the session whether it is on screen:
 * while a bulk job runs, a board out of view is redrawn only now and then (session.ts).
 */
function PlaneSection({ session }: { session: Session }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => {
      for (const e of entries) session.setPlaneOnScreen(e.isIntersecting);
    });
    observer.observe(el);
    return () => {
      observer.disconnect();
      session.setPlaneOnScreen(true);
    };
  }, [session]);
  return (
    <div className="plane-section" ref={ref}>
      <PlaneBoard session={session} />
    </div>
  );
}

export function App({ session }: { session: Session }) {
  const phase = useUi((s) => s.phase);
  const attached = useUi((s) => s.host !== null);
  // Rebalance phases, the auto slow-down, the election hold and the replication hold follow the
  // plane's events and views, whichever tab is open.
  usePhaseBoard(session);
  useAutoSlow(session);
  useReplicationHold(session);
  const past = useUi((s) => s.travel !== null && !s.travel.live);
  return (
    <div className={past ? 'app app-past' : 'app'}>
      {/* First, so every control after it paints over the tokens (styles.css, records in flight). */}
      <FlightLayer />
      <div className="app-top">
        <header className="topbar">
          <h1 className="brand">
            glassbox <span className="brand-sub">Kafka, inside out</span>
          </h1>
          <TimeControls session={session} />
          <ShortcutsHelp session={session} />
          <div className="topbar-spacer" />
          {phase === 'ready' && <StartHere />}
          {/* The Node host's cluster is the one real clients use: no reset, import or replay here. */}
          {phase === 'ready' && !attached && <ClusterActions session={session} />}
          <AboutFidelity />
          <ThemeToggle />
        </header>
        {phase === 'ready' && !attached && <TimeTravel session={session} />}
      </div>
      <DiscardDialog />
      <Banners session={session} />
      <Jobs session={session} />
      {phase === 'ready' ? (
        <div className="workspace" data-testid="app-ready">
          <main className="center" aria-label="Topic partitions">
            <Welcome session={session} />
            <ClusterStrip />
            <TopicPartitions session={session} />
            <PlaneSection session={session} />
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
