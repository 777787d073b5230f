/**
 * The lesson being walked through: which step, whether its condition holds yet (the worker judges
 * it against the running cluster: `lessonProbe`), what it showed, and the learner's predictions.
 * A step's actions run when it starts; Next waits for its condition; a step marked slow plays in
 * real time, the others fast. A slice (`lessons`) of the page's one store.
 */
import { useStore } from 'zustand';
import { act, startScenario } from '../cluster/planeClient';
import type { Session } from '../session';
import { getPlane, type Speed, setPlane, uiStore } from '../store';
import type { ActiveLesson, LessonState } from './lessonSlice';

export type { ActiveLesson, LessonState };

/** Speed while a step that is not the key moment waits for its condition. */
export const FAST_SPEED: Speed = 16;
const PROBE_EVERY_MS = 200;

/** The slice's read and write, as zustand's getState/setState over `s.lessons`. */
const lessonStore = {
  getState: (): LessonState => uiStore.getState().lessons,
  setState: (patch: Partial<LessonState>): void => uiStore.setState((s) => ({ lessons: { ...s.lessons, ...patch } })),
};

export function useLessons<T>(selector: (s: LessonState) => T): T {
  return useStore(uiStore, (s) => selector(s.lessons));
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

/** Starts a lesson from its scenario (asking before the stored cluster is discarded), then runs step 0. */
export async function startLesson(session: Session, id: string): Promise<void> {
  await loadLessons(session);
  const lesson = lessonStore.getState().catalog?.find((l) => l.id === id);
  if (!lesson) return;
  const spec = { seed: lesson.seed, preset: lesson.preset, actions: [], untilMs: 0 };
  if (!(await startScenario(session, spec, `Starting the lesson “${lesson.title}”`))) return;
  stopProbing();
  // The board the lesson is about: the groups for group lessons, the brokers and partitions otherwise.
  setPlane({ tab: lesson.concept === 'groups' ? 'groups' : 'cluster' });
  lessonStore.setState({
    active: {
      lesson,
      step: 0,
      startedAtMs: 0,
      starting: true,
      met: false,
      observed: null,
      answer: null,
      chosen: {},
      error: null,
    },
  });
  // A first probe before any action: the worker starts the lesson's journal of causes here.
  await session.call('lessonProbe', { id, step: 0, startedAtMs: 0 });
  await runStep(session, 0);
}

async function runStep(session: Session, step: number): Promise<void> {
  const a = lessonStore.getState().active;
  const s = a?.lesson.steps[step];
  if (!a || !s) return;
  stopProbing();
  patchActive({ step, starting: true, met: false, observed: null, answer: null, error: null });
  const startedAtMs = getPlane().view?.nowMs ?? 0;
  for (const action of s.actions) {
    if (action.op === 'seedsLookupExample') {
      await session.call('seedsLookupPreset', null);
    } else if (!(await act(session, action))) {
      patchActive({ starting: false, error: getPlane().error ?? 'The step’s action was refused.' });
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
  if (!a || a.starting) return;
  const p = await session.call('lessonProbe', { id: a.lesson.id, step: a.step, startedAtMs: a.startedAtMs });
  const now = lessonStore.getState().active;
  if (!now || now.lesson.id !== a.lesson.id || now.step !== a.step) return;
  patchActive({ met: p.met, observed: p.observed, answer: p.answer });
  if (p.met) {
    stopProbing();
    // Back to real time: the learner reads, predicts, then goes on; a passing moment is held.
    const step = a.lesson.steps[a.step];
    uiStore.setState(step?.hold ? { speed: 1, playing: false } : { speed: 1 });
  }
}

export async function nextStep(session: Session): Promise<void> {
  const a = lessonStore.getState().active;
  if (!a?.met || a.step + 1 >= a.lesson.steps.length) return;
  await runStep(session, a.step + 1);
}

export function choose(step: number, choice: string): void {
  const a = lessonStore.getState().active;
  if (!a || a.chosen[step] !== undefined) return;
  patchActive({ chosen: { ...a.chosen, [step]: choice } });
}

export function leaveLesson(): void {
  stopProbing();
  lessonStore.setState({ active: null });
}
