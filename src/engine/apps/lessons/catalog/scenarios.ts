/**
 * The scenarios lessons start from, and `lesson()`, which puts a lesson on one. Every lesson
 * replays from a preset and a seed; naming each pair once keeps a chapter's heading to what it teaches.
 */
import type { PresetName } from '../../types';
import type { Lesson, LessonConcept, LessonTarget } from '../types';

export interface LessonScenario {
  preset: PresetName;
  seed: number;
}

/** Three brokers and topic payments (1 partition, RF 3, unclean leader election allowed). */
export const ELECTIONS: LessonScenario = { preset: 'elections', seed: 1 };
/** The elections preset's one topic. */
export const PAYMENTS = 'payments';
/** Three brokers on two racks, topic orders (6 partitions, RF 3) and two consumer groups. */
export const DEMO: LessonScenario = { preset: 'demo', seed: 1 };
/** The seeds' placement example without racks: brokers 1-4, no topics yet. */
export const EMPTY4: LessonScenario = { preset: 'empty4', seed: 1 };
/** The same with racks: brokers 1, 2 on rack-1 and 3, 4 on rack-2. */
export const RACKS4: LessonScenario = { preset: 'racks4', seed: 1 };

/** A lesson on `scenario`: its id and concept head the chapter, `body` says the rest. */
export function lesson(
  scenario: LessonScenario,
  id: string,
  concept: LessonConcept,
  body: Omit<Lesson, 'id' | 'concept' | 'preset' | 'seed'>,
): Lesson {
  // title before preset and seed, the order the summaries have always listed them in.
  const { title, ...rest } = body;
  return { id, concept, title, ...scenario, ...rest };
}

/** A partition's row on the page: what most storage and replication steps are about. */
export function row(topic: string, partition = 0): LessonTarget {
  return { kind: 'partition', topic, partition };
}
