/**
 * The question before an action in the past forks away what no replay brings back. Apart from
 * discard.ts (which drives scenarios through the Session) because the Session sends every call
 * through it: it takes the worker's client, so it does not import the Session back.
 */
import { type EngineClient, WorkerError } from '../../worker/client';
import type { DiscardView } from '../../worker/protocol';
import { uiStore } from '../store';
import { formatClock } from '../time/formatClock';
import type { DiscardQuestion } from './discardSlice';

/** What an acting command refused in the past says a fork would delete (EngineHost.checkForkDrops). */
interface ForkDrops {
  forkDrops: DiscardView['topics'];
  atMs: number;
  laterActions: number;
}

function forkDropsOf(e: unknown): ForkDrops | null {
  if (!(e instanceof WorkerError)) return null;
  const { forkDrops, atMs, laterActions } = e.details;
  if (typeof forkDrops !== 'string' || typeof atMs !== 'number' || typeof laterActions !== 'number') return null;
  return { forkDrops: JSON.parse(forkDrops) as DiscardView['topics'], atMs, laterActions };
}

/**
 * An action taken while the past is shown forks the run from its scenario's replay; when that
 * would delete topics no replay brings back (an import), the worker refuses the action with what
 * it would delete. This asks, naming them; confirmed, the fork is allowed at that moment and the
 * action is sent again. Declined, the refusal stands and nothing changed.
 */
export async function sendForking<T>(client: Pick<EngineClient, 'call'>, send: () => Promise<T>): Promise<T> {
  try {
    return await send();
  } catch (e) {
    const drops = forkDropsOf(e);
    if (!drops) throw e;
    uiStore.getState().discard?.answer(false);
    const yes = await new Promise<boolean>((resolve) => {
      const question: DiscardQuestion = {
        what: `Acting at ${formatClock(drops.atMs)}, in the past,`,
        fork: true,
        lost: {
          replaces: true,
          onlyPreset: false,
          topics: drops.forkDrops,
          actions: drops.laterActions,
          replay: null,
        },
        answer(replace) {
          if (uiStore.getState().discard === question) uiStore.setState({ discard: null });
          resolve(replace);
        },
      };
      uiStore.setState({ discard: question });
    });
    if (!yes) throw e;
    await client.call('travelConfirmFork', { atMs: drops.atMs });
    return send();
  }
}
