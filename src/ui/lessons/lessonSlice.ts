/**
 * The lessons' slice of the page's one store: the catalog (the worker's lessons without their
 * functions) and the lesson being walked through. Only types here, so the store and its Node
 * tests need none of the DOM the lesson actions use (lessonStore.ts).
 */
import type { LessonSummary, Observation } from '../../engine/apps/lessons/types';

/**
 * Where a step is: a question open with the clock still (`predict`), its actions running and the
 * engine on its way to the step's condition (`acting`), the condition held and the engine's
 * answer shown (`revealed`). A step without a question starts at `acting`.
 */
export type LessonPhase = 'predict' | 'acting' | 'revealed';

export interface ActiveLesson {
  lesson: LessonSummary;
  step: number;
  phase: LessonPhase;
  /** Engine ms the step's actions ran at. */
  startedAtMs: number;
  /** The step's actions are still being sent. */
  starting: boolean;
  met: boolean;
  observed: Observation | null;
  /** The engine's answer to the step's question, and why, once its condition holds. */
  answer: string | null;
  because: string | null;
  /** The learner's predictions, by step: a choice, or null for a question skipped. */
  chosen: Record<number, string | null>;
  error: string | null;
}

export interface LessonState {
  catalog: LessonSummary[] | null;
  active: ActiveLesson | null;
}
