/**
 * The lesson being walked through, pinned to the bottom of the board's column (lessons.css) so it
 * stays in view beside what it is about: the step's question first, with nothing that tells its
 * answer; once the learner answers or skips, the step's actions run and its text says what
 * happened; when the engine's condition holds, the prediction is set beside the engine's answer,
 * with why, and Next goes on. "Look here" names the element the step is about (marked on the page).
 */
import { useEffect, useRef } from 'react';
import type { LessonTarget } from '../../engine/apps/lessons/types';
import type { Session } from '../session';
import { CONCEPT_HEADINGS } from './LessonPicker';
import { choose, leaveLesson, nextStep, useLessons } from './lessonStore';
import { inSidePanel, lookAgain, stopLooking } from './lookHere';
import './lessons.css';

function value(v: unknown): string {
  return Array.isArray(v) ? v.join(' · ') : String(v);
}

/** The target in words, as the card's "look here" line says it. */
export function targetName(t: LessonTarget): string {
  switch (t.kind) {
    case 'partition':
      return `partition ${t.topic}-${t.partition}`;
    case 'broker':
      return `broker ${t.broker}`;
    case 'group':
      if (t.crash) return `group ${t.group}’s last crash`;
      return t.member ? `${t.member} in group ${t.group}` : `group ${t.group}`;
    case 'znodes':
      return `the znode ${t.path}`;
    case 'lookup':
      return `the lookup stepper (offset ${t.offset})`;
    case 'accumulator':
      return 'the record accumulator';
  }
}

export function LessonCard({ session }: { session: Session }) {
  const a = useLessons((s) => s.active);
  const body = useRef<HTMLDivElement>(null);
  // Stop marking the page when the card goes (the lesson left, or the page changed).
  useEffect(() => () => stopLooking(), []);
  // Each step and each phase is read from its start (the question first); a reveal brings the
  // verdict into the card's view if the body had to scroll.
  const moment = a ? `${a.lesson.id} ${a.step} ${a.phase}` : '';
  useEffect(() => {
    const el = body.current;
    if (!el || !moment) return;
    el.scrollTop = 0;
    const verdict = el.querySelector<HTMLElement>('[data-testid="lesson-verdict"]');
    if (verdict && verdict.offsetTop + verdict.offsetHeight > el.offsetTop + el.clientHeight)
      el.scrollTop = verdict.offsetTop - el.offsetTop - 4;
  }, [moment]);
  if (!a) return null;
  const step = a.lesson.steps[a.step];
  if (!step) return null;
  const last = a.step + 1 >= a.lesson.steps.length;
  const chosen = a.chosen[a.step];
  const answered = a.step in a.chosen;
  const q = step.question;
  const predicting = a.phase === 'predict';
  const lastQuestion = a.lesson.steps.reduce((n, s, i) => (s.question ? i : n), -1);
  // The note may tell an answer: it waits until the last question has been revealed.
  const noteShown = a.step > lastQuestion || (a.step === lastQuestion && a.phase === 'revealed');
  const target = a.phase === 'revealed' && step.lookAfter ? step.lookAfter : step.look;
  return (
    <section
      className="lesson-card"
      aria-label={`Lesson: ${a.lesson.title}`}
      data-testid="lesson"
      data-look={target.kind}
      data-look-side={inSidePanel(target)}
    >
      <header className="lesson-head">
        <h3>{a.lesson.title}</h3>
        <span className="muted small">
          Step {a.step + 1} of {a.lesson.steps.length} · {CONCEPT_HEADINGS[a.lesson.concept]}
        </span>
        <details className="lesson-source small" data-testid="lesson-source">
          <summary title={a.lesson.source}>source</summary>
          {a.lesson.source}
        </details>
        <button type="button" className="btn btn-xs" data-testid="lesson-leave" onClick={leaveLesson}>
          Leave
        </button>
      </header>
      <div
        ref={body}
        className={`lesson-step lesson-body${a.met ? ' met' : ''}`}
        data-testid="lesson-step"
        data-step={a.step}
        data-phase={a.phase}
        data-condition-met={a.met && !a.starting ? 'true' : 'false'}
      >
        <p className="lesson-look small" data-testid="lesson-look">
          Look here: <strong>{targetName(target)}</strong>{' '}
          <button type="button" className="btn-link" data-testid="lesson-look-again" onClick={lookAgain}>
            show me
          </button>
        </p>
        {q && (
          <div className="lesson-question" data-testid="lesson-question" data-answered={answered}>
            <p>
              <strong>Predict:</strong> {q.prompt}
            </p>
            <div className="row">
              {q.choices.map((c, i) => (
                <button
                  key={c}
                  type="button"
                  className={`btn btn-xs${chosen === c ? ' btn-primary' : ''}`}
                  data-testid={`lesson-answer-${i}`}
                  aria-pressed={chosen === c}
                  disabled={!predicting}
                  onClick={() => void choose(session, a.step, c)}
                >
                  {c}
                </button>
              ))}
              <button
                type="button"
                className="btn btn-xs btn-link"
                data-testid="lesson-skip"
                disabled={!predicting}
                onClick={() => void choose(session, a.step, null)}
              >
                {answered && chosen === null ? 'skipped' : 'skip'}
              </button>
            </div>
            {predicting && <p className="small muted">The clock is paused until you answer or skip.</p>}
            {a.phase === 'acting' && (
              <p className="small muted" data-testid="lesson-locked">
                {chosen === null ? 'Skipped' : `Locked in: ${chosen}`}. The engine is running it now.
              </p>
            )}
            {a.phase === 'revealed' && a.answer !== null && (
              <p
                className={`small ${chosen === null ? 'lesson-skipped' : chosen === a.answer ? 'lesson-right' : 'lesson-wrong'}`}
                data-testid="lesson-verdict"
                aria-live="polite"
                data-correct={chosen === a.answer}
                data-skipped={chosen === null}
              >
                {chosen === null ? 'You skipped' : `You said ${chosen}`}; the engine did{' '}
                <strong data-testid="lesson-answer">{a.answer}</strong>
                {chosen === null ? '' : chosen === a.answer ? ' (right)' : ' (not quite)'}, because {a.because}
              </p>
            )}
          </div>
        )}
        {!predicting && (
          <p className="lesson-text" data-testid="lesson-text">
            {step.text}
          </p>
        )}
        {!predicting && step.until && (
          <p className="lesson-until small" data-testid="lesson-until">
            {a.met ? '✓ ' : '… waiting: '}
            {step.until}
            {!a.met && (step.slow ? ' (slowed to real time: this is the moment to watch)' : ' (fast-forwarding)')}
            {a.met && step.hold && ' (clock paused here: Next acts at this moment)'}
          </p>
        )}
        {a.error && (
          <p className="board-error small" role="alert">
            {a.error}
          </p>
        )}
        {a.observed && (
          <dl className="lesson-observed small" data-testid="lesson-observed">
            {Object.entries(a.observed).map(([k, v]) => (
              <div key={k}>
                <dt>{k}</dt>
                <dd data-testid={`lesson-observed-${k}`}>{value(v)}</dd>
              </div>
            ))}
          </dl>
        )}
        {a.lesson.note && noteShown && (
          <p className="lesson-note small" data-testid="lesson-note">
            Note: {a.lesson.note}
          </p>
        )}
      </div>
      {/* Outside the scrolling body: Next is always on screen. */}
      <div className="row lesson-controls">
        <button
          type="button"
          className="btn btn-primary"
          data-testid="lesson-next"
          disabled={a.phase !== 'revealed' || a.starting || last}
          onClick={() => void nextStep(session)}
        >
          {predicting ? 'Answer or skip first' : last ? (a.met ? 'Lesson complete' : 'Last step') : 'Next'}
        </button>
      </div>
    </section>
  );
}
