import { useEffect } from 'react';
import type { Session } from '../session';
import { uiStore } from '../store';
import { slowSlice, takeElectionEvents } from './autoSlow';

/**
 * Feeds the auto slow-down: the election window from the session's board events, whether a
 * lesson runs (it paces itself), and a replaced cluster starting with no election playing.
 */
export function useAutoSlow(session: Session): void {
  useEffect(() => {
    const stopEvents = session.onBoardEvents(takeElectionEvents);
    const stopRun = uiStore.subscribe((s, prev) => {
      if (s.clusterRun !== prev.clusterRun) slowSlice.setState({ electionUntilMs: -1 });
    });
    // The lessons are a slice of the page's store: follow it only when a lesson starts or ends.
    const lesson = () => slowSlice.setState({ lesson: uiStore.getState().lessons.active !== null });
    lesson();
    const stopLesson = uiStore.subscribe((s, prev) => {
      if ((s.lessons.active === null) !== (prev.lessons.active === null)) lesson();
    });
    return () => {
      stopEvents();
      stopRun();
      stopLesson();
    };
  }, [session]);
}
