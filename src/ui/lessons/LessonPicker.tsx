/** The lesson picker: one button per lesson, grouped by what it teaches. */
import { useEffect } from 'react';
import type { LessonConcept } from '../../engine/apps/lessons/types';
import type { Session } from '../session';
import { loadLessons, startLesson, useLessons } from './lessonStore';

/** Each concept's heading, in the order the picker lists them; a Record, so a new concept needs one. */
export const CONCEPT_HEADINGS: Record<LessonConcept, string> = {
  storage: 'Storage',
  producer: 'Producer',
  replication: 'Replication',
  controller: 'Controller',
  groups: 'Consumer groups',
};
/** The concepts in the picker's order (the welcome offers the first lesson of each). */
export const CONCEPTS = Object.entries(CONCEPT_HEADINGS).map(([id, label]) => ({ id, label }));

export function LessonPicker({ session }: { session: Session }) {
  const catalog = useLessons((s) => s.catalog);
  const activeId = useLessons((s) => s.active?.lesson.id ?? null);
  useEffect(() => {
    void loadLessons(session);
  }, [session]);
  if (!catalog) return <p className="muted small">Loading the lessons…</p>;
  return (
    <div className="lesson-picker" data-testid="lesson-picker">
      {CONCEPTS.map((c) => (
        <section key={c.id} aria-label={`${c.label} lessons`}>
          <h4>{c.label}</h4>
          <ul className="guide-list">
            {catalog
              .filter((l) => l.concept === c.id)
              .map((l) => (
                <li key={l.id}>
                  <button
                    type="button"
                    className={`btn${activeId === l.id ? ' btn-primary' : ''}`}
                    data-testid={`lesson-${l.id}`}
                    onClick={() => void startLesson(session, l.id)}
                  >
                    {l.title}
                  </button>
                </li>
              ))}
          </ul>
        </section>
      ))}
    </div>
  );
}
