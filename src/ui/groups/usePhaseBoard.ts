/**
 * Starts the page's one PhaseBoard: it takes every frame's board events from the session, runs
 * on the page's wall clock at the clock's speed, and forgets a replaced cluster.
 */
import { useEffect } from 'react';
import type { Session } from '../session';
import { uiStore } from '../store';
import { effectiveSpeed } from '../time/autoSlow';
import { PhaseBoard } from './phaseBoard';

export function usePhaseBoard(session: Session): void {
  useEffect(() => {
    const board = new PhaseBoard({
      now: () => performance.now(),
      speed: () => effectiveSpeed(uiStore.getState()),
      setTimeout: (f, ms) => window.setTimeout(f, ms),
      clearTimeout: (id) => window.clearTimeout(id),
    });
    const stopEvents = session.onBoardEvents((events) => board.take(events));
    const stopRun = uiStore.subscribe((s, prev) => {
      if (s.clusterRun !== prev.clusterRun) board.forget();
    });
    return () => {
      stopEvents();
      stopRun();
      board.forget();
    };
  }, [session]);
}
