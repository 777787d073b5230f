/** The lessons: their catalog, the world their conditions read, and how a host judges a step. */
export { LESSONS } from './catalog';
export { type JournalEntry, LessonJournal } from './journal';
export { type LessonHost, type LessonTrace, lessonSummary, probeStep, replayLesson, runLessonAction } from './replay';
export type { Lesson, LessonAction, LessonProbe, LessonStep, LessonSummary, LessonWorld, Observation } from './types';
export { lessonWorld } from './world';
