/**
 * The lesson being walked through: which step, where it is (predict, acting, revealed), whether
 * its condition holds yet (the worker judges it against the running cluster: `lessonProbe`),
 * what it showed, and the learner's predictions. A step with a question opens with the clock
 * still and its actions not yet run; answering (or skipping) locks the prediction, then the
 * actions run, and the engine's answer is revealed once the condition holds. A step marked slow
 * plays in real time, the others fast. A slice (`lessons`) of the page's one store.
 */
import type { LessonTarget } from '../../engine/apps/lessons/types';
import { act, startScenario } from '../cluster/boardClient';
import type { Session } from '../session';
import { getBoard, sliceOf, type Speed, setBoard, uiStore, useUi } from '../store';
import type { ActiveLesson, LessonState } from './lessonSlice';
import { lookAt, stopLooking } from './lookHere';

export type { ActiveLesson, LessonState };

/** Speed while a step that is not the key moment waits for its condition. */
export const FAST_SPEED: Speed = 16;
const PROBE_EVERY_MS = 200;

/** The store's `lessons` slice. */
const lessonStore = sliceOf('lessons');

export function useLessons<T>(selector: (s: LessonState) => T): T {
  return useUi((s) => selector(s.lessons));
}

let timer: ReturnType<typeof setInterval> | null = null;

function stopProbing(): void {
  if (timer !== null) clearInterval(timer);
  timer = null;
}

function patchActive(patch: Partial<ActiveLesson>): void {
  const a = lessonStore.getState().active;
  if (a) lessonStore.setState({ active: { ...a, ...patch } });
}

export async function loadLessons(session: Session): Promise<void> {
  if (lessonStore.getState().catalog) return;
  lessonStore.setState({ catalog: await session.call('lessons', null) });
}

/** Starts a lesson from its scenario (asking before the stored cluster is discarded), then opens step 0. */
export async function startLesson(session: Session, id: string): Promise<void> {
  await loadLessons(session);
  const lesson = lessonStore.getState().catalog?.find((l) => l.id === id);
  if (!lesson) return;
  const spec = { seed: lesson.seed, preset: lesson.preset, actions: [], untilMs: 0 };
  if (!(await startScenario(session, spec, `Starting the lesson “${lesson.title}”`))) return;
  stopProbing();
  // The board the lesson is about until its first step points somewhere: the groups for group
  // lessons, the brokers and partitions otherwise.
  setBoard({ tab: lesson.concept === 'groups' ? 'groups' : 'cluster' });
  lessonStore.setState({
    active: {
      lesson,
      step: 0,
      // A first question is open from the first frame: nothing of the step shows before it.
      phase: lesson.steps[0]?.question ? 'predict' : 'acting',
      startedAtMs: 0,
      starting: true,
      met: false,
      observed: null,
      answer: null,
      because: null,
      chosen: {},
      error: null,
    },
  });
  // A first probe before any action: the worker starts the lesson's journal of causes here.
  await session.call('lessonProbe', { id, step: 0, startedAtMs: 0 });
  await openStep(session, 0);
}

/** Opens a step: its question first, with the clock still; a step without one acts at once. */
async function openStep(session: Session, step: number): Promise<void> {
  const a = lessonStore.getState().active;
  const s = a?.lesson.steps[step];
  if (!a || !s) return;
  stopProbing();
  look(session, s.look, step, 'open');
  if (s.question) {
    patchActive({
      step,
      phase: 'predict',
      starting: false,
      met: false,
      observed: null,
      answer: null,
      because: null,
      error: null,
    });
    // Predict before anything moves: nothing on the board may run ahead to the answer.
    uiStore.setState({ playing: false });
    return;
  }
  await actStep(session, step);
}

function look(session: Session, target: LessonTarget, step: number, moment: string): void {
  lookAt(session, target, `${step}:${moment}`);
}

async function actStep(session: Session, step: number): Promise<void> {
  const a = lessonStore.getState().active;
  const s = a?.lesson.steps[step];
  if (!a || !s) return;
  stopProbing();
  patchActive({
    step,
    phase: 'acting',
    starting: true,
    met: false,
    observed: null,
    answer: null,
    because: null,
    error: null,
  });
  const startedAtMs = getBoard().view?.nowMs ?? 0;
  for (const action of s.actions) {
    if (action.op === 'seedsLookupExample') {
      await session.call('seedsLookupPreset', null);
    } else if (!(await act(session, action))) {
      patchActive({ starting: false, error: getBoard().error ?? 'The step’s action was refused.' });
      return;
    }
  }
  patchActive({ startedAtMs, starting: false });
  // The key moment plays in real time; the rest fast, until the condition holds.
  uiStore.setState({ playing: true, speed: s.slow ? 1 : FAST_SPEED });
  await probe(session);
  if (!lessonStore.getState().active?.met) timer = setInterval(() => void probe(session), PROBE_EVERY_MS);
}

async function probe(session: Session): Promise<void> {
  const a = lessonStore.getState().active;
  if (!a || a.starting || a.phase !== 'acting') return;
  const p = await session.call('lessonProbe', { id: a.lesson.id, step: a.step, startedAtMs: a.startedAtMs });
  const now = lessonStore.getState().active;
  if (!now || now.lesson.id !== a.lesson.id || now.step !== a.step || now.phase !== 'acting') return;
  if (!p.met) return;
  stopProbing();
  patchActive({ met: true, phase: 'revealed', observed: p.observed, answer: p.answer, because: p.because });
  const step = a.lesson.steps[a.step];
  if (step?.lookAfter) look(session, step.lookAfter, a.step, 'revealed');
  // Back to real time: the learner reads, then goes on. A passing moment is held, and so is any
  // moment before a question: the next prediction is about the board as it stands.
  const next = a.lesson.steps[a.step + 1];
  uiStore.setState(step?.hold || next?.question ? { speed: 1, playing: false } : { speed: 1 });
}

export async function nextStep(session: Session): Promise<void> {
  const a = lessonStore.getState().active;
  if (a?.phase !== 'revealed' || a.step + 1 >= a.lesson.steps.length) return;
  await openStep(session, a.step + 1);
}

/** Locks the learner's prediction (null: skipped), then runs the step's actions. */
export async function choose(session: Session, step: number, choice: string | null): Promise<void> {
  const a = lessonStore.getState().active;
  if (!a || a.step !== step || a.phase !== 'predict' || step in a.chosen) return;
  patchActive({ chosen: { ...a.chosen, [step]: choice } });
  await actStep(session, step);
}

export function leaveLesson(): void {
  stopProbing();
  stopLooking();
  lessonStore.setState({ active: null });
}
