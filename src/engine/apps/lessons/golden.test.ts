import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LESSONS } from './catalog';
import { replayHeadless } from './lessonBed.testing';
import type { LessonTrace } from './replay';

/**
 * Golden traces: every lesson replays headless from its scenario (preset + seed), each step's
 * actions run and engine time advances until its condition holds, and what each step promises
 * (the observation and the question's answer) must equal the stored trace in golden/<id>.json.
 * A lesson that no longer shows what it says fails here. `LESSONS_UPDATE=1` rewrites the files
 * (read the diff: it is the lesson's new story).
 */
const GOLDEN = join(import.meta.dirname, 'golden');

async function traceOf(id: string): Promise<LessonTrace> {
  const lesson = LESSONS.find((l) => l.id === id);
  if (!lesson) throw new Error(`no lesson ${id}`);
  return replayHeadless(lesson);
}

describe('lesson golden traces', () => {
  it('has at least one question per lesson and unique ids', () => {
    expect(new Set(LESSONS.map((l) => l.id)).size).toBe(LESSONS.length);
    for (const l of LESSONS)
      expect(
        l.steps.some((s) => s.question),
        l.id,
      ).toBe(true);
  });

  for (const lesson of LESSONS) {
    it(`${lesson.id} shows what it says`, async () => {
      const trace = await traceOf(lesson.id);
      const file = join(GOLDEN, `${lesson.id}.json`);
      const text = `${JSON.stringify(trace, null, 1)}\n`;
      if (process.env.LESSONS_UPDATE === '1' || !existsSync(file)) writeFileSync(file, text);
      expect(trace).toEqual(JSON.parse(readFileSync(file, 'utf8')));
      lesson.steps.forEach((s, i) => {
        const t = trace.steps[i];
        const at = (m: string) => t?.moments.indexOf(m as never) ?? -1;
        // Predict, then reveal: the question was asked and locked before the step's actions ran,
        // and the engine's answer was read only after its condition held.
        if (s.question) {
          expect(s.question.choices, `${lesson.id} step ${i}`).toContain(t?.answer);
          expect(at('asked'), `${lesson.id} step ${i} asked`).toBeGreaterThanOrEqual(0);
          expect(at('asked'), `${lesson.id} step ${i} asked before acting`).toBeLessThan(at('locked'));
          expect(at('locked'), `${lesson.id} step ${i} locked before acting`).toBeLessThan(at('acted'));
          expect(t?.because, `${lesson.id} step ${i} says why`).toMatch(/.{20}/);
        } else expect(at('asked'), `${lesson.id} step ${i}`).toBe(-1);
        expect(at('acted'), `${lesson.id} step ${i}`).toBeLessThan(at('revealed'));
      });
    });
  }
});
