/**
 * The first screen's welcome: what this page is in a few sentences, the first lesson of each
 * concept, every lesson, or "Explore freely". A card above the board, never over it, so the
 * cluster keeps moving in view; it takes focus when it opens, and Escape inside it closes it.
 */
import { type KeyboardEvent, useEffect, useRef } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { LessonSummary } from '../../engine/apps/lessons/types';
import { CONCEPTS } from '../lessons/LessonPicker';
import { loadLessons, startLesson, useLessons } from '../lessons/lessonStore';
import type { Session } from '../session';
import { setBoard, useBoard } from '../store';
import { closeWelcome, useWelcomeOpen } from './welcomeState';
import './welcome.css';

/** Each concept's first lesson, in the picker's order: one way in per idea. */
function firstOfEachConcept(catalog: LessonSummary[]): { concept: string; lesson: LessonSummary }[] {
  return CONCEPTS.flatMap((c) => {
    const lesson = catalog.find((l) => l.concept === c.id);
    return lesson ? [{ concept: c.label, lesson }] : [];
  });
}

/** Brings the board into view (the lesson card and the picker live there). */
function showBoard(): void {
  document.querySelector('[data-testid="board"]')?.scrollIntoView({ block: 'start' });
}

/** Puts the welcome away and hands focus to the button that brings it back. */
function dismiss(): void {
  closeWelcome();
  requestAnimationFrame(() => document.querySelector<HTMLElement>('[data-testid="welcome-open"]')?.focus());
}

export function Welcome({ session }: { session: Session }) {
  const open = useWelcomeOpen();
  const catalog = useLessons((s) => s.catalog);
  const [brokers, groups] = useBoard(useShallow((s) => [s.view?.brokers.length ?? 0, s.view?.groups.length ?? 0]));
  const card = useRef<HTMLElement>(null);

  useEffect(() => {
    if (!open) return;
    void loadLessons(session);
    card.current?.focus({ preventScroll: true });
  }, [open, session]);

  if (!open) return null;
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key !== 'Escape') return;
    e.stopPropagation();
    dismiss();
  };
  return (
    <section
      ref={card}
      className="welcome"
      aria-labelledby="welcome-title"
      data-testid="welcome"
      tabIndex={-1}
      onKeyDown={onKeyDown}
    >
      <h2 id="welcome-title">A real, small Kafka is running in this tab</h2>
      <p>
        {brokers > 0 ? `${brokers} brokers` : 'Brokers'}, a controller
        {groups > 0 ? ` and ${groups} consumer group${groups === 1 ? '' : 's'}` : ''} working the way Apache Kafka 3.9
        does, drawn from the engine as it runs: watch the offsets move. An underlined word says what Kafka means by it.
      </p>
      <div className="welcome-start">
        <span className="welcome-label">Start with a lesson:</span>
        {catalog ? (
          <ul className="welcome-lessons" aria-label="First lesson of each concept">
            {firstOfEachConcept(catalog).map(({ concept, lesson }) => (
              <li key={lesson.id}>
                <button
                  type="button"
                  className="btn btn-small"
                  data-testid={`welcome-lesson-${lesson.id}`}
                  onClick={() => {
                    closeWelcome();
                    void startLesson(session, lesson.id).then(showBoard);
                  }}
                >
                  <span className="welcome-concept">{concept}</span> {lesson.title}
                </button>
              </li>
            ))}
            <li>
              <button
                type="button"
                className="btn btn-small"
                data-testid="welcome-all-lessons"
                onClick={() => {
                  closeWelcome();
                  setBoard({ tab: 'scenarios' });
                  requestAnimationFrame(showBoard);
                }}
              >
                All {catalog.length} lessons…
              </button>
            </li>
          </ul>
        ) : (
          <span className="muted small">Loading the lessons…</span>
        )}
      </div>
      <div className="welcome-actions">
        <button type="button" className="btn btn-primary" data-testid="welcome-explore" onClick={dismiss}>
          Explore freely
        </button>
        <span className="muted small welcome-hint">
          The producer and the inspectors are in the side panel; “Start here” in the top bar brings this back.
        </span>
      </div>
    </section>
  );
}
