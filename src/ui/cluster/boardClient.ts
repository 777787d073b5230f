/**
 * The page side of the board: starts it from the link the page was opened with (or the
 * default demo), sends actions (their answers go into the store's board slice; frames reach it
 * through Session.apply), and keeps the location's hash equal to the scenario so far — so a
 * reload or a shared link replays the same run.
 */
import type { WorkerError } from '../../worker/client';
import type { ScenarioAction, BoardView, ScenarioSpec } from '../../engine/apps/types';
import { errorText } from '../errorText';
import { confirmDiscard, runScenario } from '../scenarios/discard';
import { isOwnAddress, rememberOwnAddress } from '../scenarios/ownAddress';
import {
  decodeScenarioHash,
  encodeScenarioHash,
  linkSteps,
  MAX_LINK_STEPS,
  ScenarioLinkError,
} from '../scenarios/scenarioLink';
import type { Session } from '../session';
import { setBoard, uiStore } from '../store';
import { attachedHostUrl } from '../host/hostLink';

/** The scenario the page is showing, as a link hash (time = now, paused = the clock's state). */
export function scenarioHash(view: BoardView): string {
  return encodeScenarioHash({
    spec: { seed: view.seed, preset: view.preset, actions: view.actions, untilMs: view.nowMs },
    paused: !uiStore.getState().playing,
  });
}

/**
 * The address follows the scenario at most every HASH_EVERY_MS: a Send N job records actions every
 * frame, and encoding the whole scenario into the address each frame cost a frame's budget.
 * The last view is always written (a trailing write). An action's answer is written at once.
 */
const HASH_EVERY_MS = 500;
let hashWrittenAt = Number.NEGATIVE_INFINITY;
let pendingHash: BoardView | null = null;
let hashTimer: ReturnType<typeof setTimeout> | null = null;

/** Whether the page said that its run is too long for a link (said once per run). */
let saidTooLong = false;

function writeHashNow(view: BoardView): void {
  hashWrittenAt = performance.now();
  pendingHash = null;
  const steps = linkSteps(view.actions);
  const tooLong = steps > MAX_LINK_STEPS;
  // Too long for a link: the address names no scenario rather than a cut one (scenarioLink.ts).
  const hash = tooLong ? '' : scenarioHash(view);
  // The tab's own address, no link to open when it boots again on it (scenarios/ownAddress.ts).
  rememberOwnAddress(hash);
  if (tooLong && !saidTooLong) {
    setBoard({
      linkNotice: `This run holds ${steps.toLocaleString('en-US')} recorded steps, more than a link carries (${MAX_LINK_STEPS.toLocaleString('en-US')}): the address no longer names it. It stays whole in this browser, for a reload and for time travel.`,
      pendingLink: null,
    });
  }
  saidTooLong = tooLong;
  const url = `${location.pathname}${location.search}${hash}`;
  history.replaceState(history.state, '', url);
}

function writeHash(view: BoardView): void {
  const wait = hashWrittenAt + HASH_EVERY_MS - performance.now();
  if (wait <= 0 && hashTimer === null) {
    writeHashNow(view);
    return;
  }
  pendingHash = view;
  hashTimer ??= setTimeout(
    () => {
      hashTimer = null;
      if (pendingHash) writeHashNow(pendingHash);
    },
    Math.max(0, wait),
  );
}

/** Subscribes the address to the scenario the frames bring, and starts the board from the page's link. */
export function connectBoard(session: Session): () => void {
  // The Node host's cluster is not a scenario a link could replay (real clients made it).
  if (attachedHostUrl() !== null) {
    void session.call('loadScenario', null).then((view) => setBoard({ view }));
    return () => {};
  }
  // Produce, Send N and producer settings are recorded in the scenario without a applyAction
  // round trip: the address follows the recorded actions as frames bring them, so a reload of
  // the page's own link is still the running scenario (sameScenario) and asks nothing.
  const off = session.onScenarioMoved(writeHash);
  void boot(session);
  return off;
}

async function boot(session: Session): Promise<void> {
  let spec: ScenarioSpec | null = null;
  let paused = false;
  let notice: string | null = null;
  try {
    const link = isOwnAddress(location.hash) ? null : decodeScenarioHash(location.hash);
    if (link) {
      spec = link.spec;
      paused = link.paused;
    }
  } catch (e) {
    if (!(e instanceof ScenarioLinkError)) throw e;
    notice = `This link's scenario could not be read (${e.message}), so nothing was replaced: the ${stored()} is shown instead.`;
  }
  let pendingLink: ScenarioSpec | null = null;
  if (spec) {
    try {
      const { answer, lost } = await confirmDiscard(session, spec, 'Opening this link');
      // The link's clock state comes with its run (a declined link leaves the clock alone).
      if (answer !== 'keep' && paused) uiStore.setState({ playing: false });
      if (answer === 'replace') {
        const ended = await runScenario(session, spec, lost);
        if (lost.replaces && ended !== 'cancelled-unchanged') await session.replaced();
        if (ended === 'cancelled-unchanged')
          notice = "This link's replay was cancelled while it was checked in memory: nothing was replaced.";
        else if (ended === 'cancelled')
          notice = lost.replaces
            ? "This link's replay was cancelled: the cluster is the link's run up to where it stopped."
            : "This link's replay was cancelled: the cluster ran on up to where it stopped.";
      } else if (answer === 'keep') {
        pendingLink = spec;
        notice = "This link's scenario was not opened: the cluster stored in this browser is kept.";
      }
    } catch (e) {
      // A well-formed link whose actions the engine refuses (e.g. a broker that does not exist):
      // it was replayed in memory only, so nothing changed.
      const err = e as WorkerError;
      notice = `This link's scenario could not be replayed (${err.message}), so nothing was replaced: the ${stored()} is shown instead.`;
    }
  }
  const view = await session.call('loadScenario', null);
  setBoard({ view, linkNotice: notice, pendingLink, story: [], groupStory: [], focus: null });
  // The address now names the cluster shown, so a reload does not open the link again.
  if (spec) writeHashNow(view);
}

/** The cluster the page fell back to: the stored one, or the demo on a first visit. */
function stored(): string {
  return uiStore.getState().created ? 'default cluster' : 'cluster stored in this browser';
}

/** Sends one action; a refusal is shown (with Kafka's error name) and changes nothing. */
export async function act(session: Session, action: ScenarioAction): Promise<boolean> {
  try {
    const view = await session.call('applyAction', action);
    setBoard({ view, error: null });
    writeHashNow(view);
    return true;
  } catch (e) {
    const err = e as WorkerError;
    setBoard({ error: errorText(err) });
    return false;
  }
}

/**
 * Starts over from a scenario (a preset, a lesson, a seed example, a link), after
 * asking when that would discard what the stored cluster holds. False when it was declined or
 * could not be replayed (the error is shown); the cluster is then unchanged.
 */
export async function startScenario(session: Session, spec: ScenarioSpec, what: string): Promise<boolean> {
  try {
    const { answer, lost } = await confirmDiscard(session, spec, what);
    if (answer === 'keep') return false;
    const ended = answer === 'replace' ? await runScenario(session, spec, lost) : 'finished';
    if (ended === 'cancelled-unchanged') return false;
    const view = await session.call('loadScenario', null);
    // Drawn from scratch only when it is a new cluster (the worker then resends everything).
    if (answer === 'replace' && lost.replaces) await session.replaced();
    setBoard({
      view,
      story: [],
      groupStory: [],
      changedZnodes: {},
      error: null,
      placement: null,
      linkNotice: null,
      pendingLink: null,
    });
    writeHashNow(view);
    return true;
  } catch (e) {
    const err = e as WorkerError;
    setBoard({ error: `${err.code ?? err.name}: ${err.message}` });
    return false;
  }
}

/** Fast-forwards the cluster's clock (a session timeout without the wait). */
export async function advance(session: Session, ms: number): Promise<void> {
  const view = await session.call('advanceClock', { ms });
  setBoard({ view });
}
