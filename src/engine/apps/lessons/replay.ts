/**
 * Runs a lesson headless the way the page does: each step's actions when it starts, then engine
 * time in small ticks until its condition holds (bounded), recording what the step promises.
 * The golden-trace test compares this record with the stored one.
 */
import type { DataPath } from '../../index';
import type { ClusterApps } from '../ClusterApps';
import type { Lesson, LessonAction, LessonProbe, LessonSummary, LessonWorld, Observation } from './types';

/** What a host gives a lesson: the applications, their data path, and the seeds' lookup example. */
export interface LessonHost {
  apps: ClusterApps;
  data: DataPath;
  seedsLookupExample(): void;
  /** Between ticks: lets the Store settle and reads back paged-out segments (a test host awaits both). */
  settle?(): Promise<void>;
}

export interface StepTrace {
  step: number;
  /** Engine ms from the step's start until its condition held. */
  waitedMs: number;
  observed: Observation | null;
  answer: string | null;
}

export interface LessonTrace {
  lesson: string;
  steps: StepTrace[];
}

export class LessonConditionTimeout extends Error {
  constructor(lesson: string, step: number, label: string, ms: number) {
    super(`lesson ${lesson} step ${step}: "${label}" did not hold within ${ms} ms of engine time`);
    this.name = 'LessonConditionTimeout';
  }
}

export function runLessonAction(host: LessonHost, action: LessonAction): void {
  if (action.op === 'seedsLookupExample') host.seedsLookupExample();
  else host.apps.apply(action);
}

/** Judges one step against the world: its condition, and what it shows once that holds. */
export function probeStep(lesson: Lesson, step: number, w: LessonWorld, startedAtMs: number): LessonProbe {
  const s = lesson.steps[step];
  if (!s) return { met: false, observed: null, answer: null };
  const met = s.until ? s.until.met(w, startedAtMs) : true;
  return {
    met,
    observed: met && s.observe ? s.observe(w) : null,
    answer: met && s.question ? s.question.answer(w) : null,
  };
}

export async function replayLesson(
  lesson: Lesson,
  host: LessonHost,
  world: () => LessonWorld,
  { tickMs = 100, maxMs = 120_000 } = {},
): Promise<LessonTrace> {
  const steps: StepTrace[] = [];
  for (let i = 0; i < lesson.steps.length; i++) {
    const step = lesson.steps[i];
    if (!step) break;
    const startedAt = host.apps.nowMs;
    for (const a of step.actions ?? []) runLessonAction(host, a);
    let p = probeStep(lesson, i, world(), startedAt);
    while (!p.met) {
      if (host.apps.nowMs - startedAt >= maxMs)
        throw new LessonConditionTimeout(lesson.id, i, step.until?.label ?? '', maxMs);
      host.apps.tick(tickMs);
      await host.settle?.();
      p = probeStep(lesson, i, world(), startedAt);
    }
    steps.push({ step: i, waitedMs: host.apps.nowMs - startedAt, observed: p.observed, answer: p.answer });
  }
  return { lesson: lesson.id, steps };
}

export function lessonSummary(l: Lesson): LessonSummary {
  return {
    id: l.id,
    concept: l.concept,
    title: l.title,
    preset: l.preset,
    seed: l.seed,
    source: l.source,
    note: l.note ?? null,
    steps: l.steps.map((s) => ({
      text: s.text,
      actions: s.actions ?? [],
      until: s.until?.label ?? null,
      slow: s.slow ?? false,
      hold: s.hold ?? false,
      question: s.question ? { prompt: s.question.prompt, choices: s.question.choices } : null,
    })),
  };
}
