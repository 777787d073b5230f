/**
 * Runs a lesson headless the way the page does: a step's question is asked first and answered
 * (here: skipped) with the clock still, then its actions run, then engine time passes in small
 * ticks until its condition holds (bounded), and the engine's answer is read. The trace records
 * those moments in the order they happened and what the step promises; the golden-trace test
 * compares it with the stored one.
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

/**
 * A step's moments, in the order a host must go through them: the question shown (`asked`), the
 * prediction locked or skipped (`locked`), the actions run (`acted`), the condition held and the
 * answer revealed (`revealed`).
 */
export type StepMoment = 'asked' | 'locked' | 'acted' | 'revealed';

export interface StepTrace {
  step: number;
  moments: StepMoment[];
  /** Engine ms from the step's actions until its condition held. */
  waitedMs: number;
  observed: Observation | null;
  answer: string | null;
  because: string | null;
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
  if (!s) return { met: false, observed: null, answer: null, because: null };
  const met = s.until ? s.until.met(w, startedAtMs) : true;
  return {
    met,
    observed: met && s.observe ? s.observe(w) : null,
    answer: met && s.question ? s.question.answer(w, startedAtMs) : null,
    because: met && s.question ? s.question.because(w, startedAtMs) : null,
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
    const moments: StepMoment[] = [];
    // Predict first: nothing runs, and no engine time passes, while the question is open.
    if (step.question) moments.push('asked', 'locked');
    const startedAt = host.apps.nowMs;
    for (const a of step.actions ?? []) runLessonAction(host, a);
    moments.push('acted');
    let p = probeStep(lesson, i, world(), startedAt);
    while (!p.met) {
      if (host.apps.nowMs - startedAt >= maxMs)
        throw new LessonConditionTimeout(lesson.id, i, step.until?.label ?? '', maxMs);
      host.apps.tick(tickMs);
      await host.settle?.();
      p = probeStep(lesson, i, world(), startedAt);
    }
    moments.push('revealed');
    steps.push({
      step: i,
      moments,
      waitedMs: host.apps.nowMs - startedAt,
      observed: p.observed,
      answer: p.answer,
      because: p.because,
    });
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
      look: s.look,
      lookAfter: s.lookAfter ?? null,
      actions: s.actions ?? [],
      until: s.until?.label ?? null,
      slow: s.slow ?? false,
      hold: s.hold ?? false,
      question: s.question ? { prompt: s.question.prompt, choices: s.question.choices } : null,
    })),
  };
}
