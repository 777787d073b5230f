import { useEffect } from 'react';
import { lessonStore } from '../lessons/lessonStore';
import type { Session } from '../session';
import { uiStore } from '../store';
import { slowStore, takeElectionEvents } from './autoSlow';

/**
 * Feeds the auto slow-down: the election window from the session's plane events, whether a
 * lesson runs (it paces itself), and a replaced cluster starting with no election playing.
 */
export function useAutoSlow(session: Session): void {
  useEffect(() => {
    const stopEvents = session.onPlaneEvents(takeElectionEvents);
    const stopRun = uiStore.subscribe((s, prev) => {
      if (s.clusterRun !== prev.clusterRun) slowStore.setState({ electionUntilMs: -1 });
    });
    const lesson = () => slowStore.setState({ lesson: lessonStore.getState().active !== null });
    lesson();
    const stopLesson = lessonStore.subscribe(lesson);
    return () => {
      stopEvents();
      stopRun();
      stopLesson();
    };
  }, [session]);
}
