/**
 * The lesson being walked through, above the board: the steps so far, the current one with what
 * it waits for, a prediction question whose answer is revealed once the engine has shown it, and
 * Next (enabled when the step's condition holds in the engine).
 */
import type { Session } from '../session';
import { choose, leaveLesson, nextStep, useLessons } from './lessonStore';
import './lessons.css';

function value(v: unknown): string {
  return Array.isArray(v) ? v.join(' · ') : String(v);
}

export function LessonCard({ session }: { session: Session }) {
  const a = useLessons((s) => s.active);
  if (!a) return null;
  const step = a.lesson.steps[a.step];
  if (!step) return null;
  const last = a.step + 1 >= a.lesson.steps.length;
  const chosen = a.chosen[a.step];
  const q = step.question;
  return (
    <section className="lesson-card" aria-label={`Lesson: ${a.lesson.title}`} data-testid="lesson">
      <header className="lesson-head">
        <h3>{a.lesson.title}</h3>
        <span className="muted small">
          Step {a.step + 1} of {a.lesson.steps.length} · {a.lesson.source}
        </span>
        <button type="button" className="btn btn-xs" data-testid="lesson-leave" onClick={leaveLesson}>
          Leave
        </button>
      </header>
      <div
        className={`lesson-step${a.met ? ' met' : ''}`}
        data-testid="lesson-step"
        data-step={a.step}
        data-condition-met={a.met && !a.starting ? 'true' : 'false'}
      >
        <p>{step.text}</p>
        {step.until && (
          <p className="lesson-until small" data-testid="lesson-until">
            {a.met ? '✓ ' : '… waiting: '}
            {step.until}
            {!a.met && (step.slow ? ' (slowed to real time: this is the moment to watch)' : ' (fast-forwarding)')}
            {a.met && step.hold && ' (clock paused here: Next acts at this moment)'}
          </p>
        )}
        {a.error && (
          <p className="plane-error small" role="alert">
            {a.error}
          </p>
        )}
        {q && (
          <div className="lesson-question" data-testid="lesson-question" data-answered={chosen !== undefined}>
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
                  disabled={chosen !== undefined}
                  onClick={() => choose(a.step, c)}
                >
                  {c}
                </button>
              ))}
            </div>
            {chosen !== undefined && a.answer === null && (
              <p className="small muted">Locked in; the engine will show it.</p>
            )}
            {chosen !== undefined && a.answer !== null && (
              <p
                className={`small ${chosen === a.answer ? 'lesson-right' : 'lesson-wrong'}`}
                data-testid="lesson-verdict"
                data-correct={chosen === a.answer}
              >
                {chosen === a.answer ? 'Right' : 'Not quite'}: the engine says {a.answer}.
              </p>
            )}
          </div>
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
      </div>
      {a.lesson.note && <p className="lesson-note small">Note: {a.lesson.note}</p>}
      <div className="row">
        <button
          type="button"
          className="btn btn-primary"
          data-testid="lesson-next"
          disabled={!a.met || a.starting || last}
          onClick={() => void nextStep(session)}
        >
          {last ? (a.met ? 'Lesson complete' : 'Last step') : 'Next'}
        </button>
      </div>
    </section>
  );
}
