/**
 * The lessons' slice of the page's one store: the catalog (the worker's lessons without their
 * functions) and the lesson being walked through. Only types here, so the store and its Node
 * tests need none of the DOM the lesson actions use (lessonStore.ts).
 */
import type { LessonSummary, Observation } from '../../engine/apps/lessons/types';

export interface ActiveLesson {
  lesson: LessonSummary;
  step: number;
  /** Engine ms the step started at (its actions ran then). */
  startedAtMs: number;
  /** The step's actions are still being sent. */
  starting: boolean;
  met: boolean;
  observed: Observation | null;
  /** The engine's answer to the step's question, once its condition holds. */
  answer: string | null;
  /** The learner's predictions, by step. */
  chosen: Record<number, string>;
  error: string | null;
}

export interface LessonState {
  catalog: LessonSummary[] | null;
  active: ActiveLesson | null;
}
