import { useEffect, useRef } from 'react';
import { Banners } from './chrome/Banners';
import { ClusterStrip } from './chrome/ClusterStrip';
import { Jobs } from './chrome/Jobs';
import { TopBar } from './chrome/TopBar';
import { BoardTabs } from './cluster/BoardTabs';
import { LessonCard } from './lessons/LessonCard';
import { TopicPartitions } from './log/TopicPartitions';
import { DiscardDialog } from './scenarios/DiscardDialog';
import { FlightLayer } from './producer/Flights';
import type { Session } from './session';
import { SidePanel } from './side/SidePanel';
import { useUi } from './store';
import { useAutoSlow } from './time/useAutoSlow';
import { usePhaseBoard } from './groups/usePhaseBoard';
import { useReplicationHold } from './cluster/replicationHold';
import { Welcome } from './welcome/Welcome';

/**
 * The board, below the partitions. Tells the session whether it is on screen:
 * while a bulk job runs, a board out of view is redrawn only now and then (session.ts).
 */
function BoardSection({ session }: { session: Session }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => {
      for (const e of entries) session.setBoardOnScreen(e.isIntersecting);
    });
    observer.observe(el);
    return () => {
      observer.disconnect();
      session.setBoardOnScreen(true);
    };
  }, [session]);
  return (
    <div className="board-section" ref={ref}>
      <BoardTabs session={session} />
    </div>
  );
}

export function App({ session }: { session: Session }) {
  const phase = useUi((s) => s.phase);
  // Rebalance phases, the auto slow-down, the election hold and the replication hold follow the
  // board's events and views, whichever tab is open.
  usePhaseBoard(session);
  useAutoSlow(session);
  useReplicationHold(session);
  const past = useUi((s) => s.travel !== null && !s.travel.live);
  return (
    <div className={past ? 'app app-past' : 'app'}>
      {/* First, so every control after it paints over the tokens (styles.css, records in flight). */}
      <FlightLayer />
      <TopBar session={session} />
      <DiscardDialog />
      <Banners session={session} />
      <Jobs session={session} />
      {phase === 'ready' ? (
        <div className="workspace" data-testid="app-ready">
          <main className="center" aria-label="Topic partitions">
            <Welcome session={session} />
            <ClusterStrip />
            <TopicPartitions session={session} />
            <BoardSection session={session} />
            {/* Last in the column and sticky to its bottom: in view whatever the board scrolls to. */}
            <LessonCard session={session} />
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
