/**
 * Look here: a lesson step names what it is about (LessonTarget); this opens the tab or panel
 * that draws it, scrolls it into view beside the pinned lesson card, and marks it with
 * `data-lesson-look` (lessons.css outlines it; e2e finds it by it). The element may not exist yet
 * (a partition the step's action creates), so a light loop (one query a frame) keeps looking, scrolls once when it
 * appears, keeps it in view while the board shifts around it until the learner scrolls, and
 * re-marks it when React replaces the node.
 */
import type { LessonTarget } from '../../engine/apps/lessons/types';
import type { LookupStep } from '../../worker/protocol';
import type { Session } from '../session';
import { requestSideSheet } from '../side/sheet';
import { setBoard, uiStore } from '../store';

export const LOOK_ATTR = 'data-lesson-look';
/** Room left between the target and the lesson card (or the panel's top), px. */
const MARGIN = 8;

/** The lookup stepper's three drawn stages, by the trace step each shows. */
export function lookupStage(kind: LookupStep['kind']): 'segments' | 'index' | 'scan' {
  if (kind.startsWith('index')) return 'index';
  if (kind === 'batch-header' || kind === 'record-found' || kind === 'not-found') return 'scan';
  return 'segments';
}

/** The element a target is drawn as (one selector per kind; the znode tree falls back to itself). */
export function targetSelectors(t: LessonTarget): string[] {
  switch (t.kind) {
    case 'partition':
      return [`[data-testid="partition-${t.topic}-${t.partition}"]`];
    case 'broker':
      return [`[data-testid="broker-${t.broker}"]`];
    case 'group':
      return [
        ...(t.member ? [`[data-testid="group-${t.group}"] [data-testid="consumer-${t.member}"]`] : []),
        ...(t.crash ? [`[data-testid="group-redelivered-${t.group}"]`] : []),
        `[data-testid="group-${t.group}"]`,
      ];
    case 'znodes':
      return [`[data-testid="znode-${t.path}"]`, '[data-testid="znode-tree"]'];
    case 'lookup':
      return [`[data-testid="lookup-stage-${t.show ?? lookupStage(t.through)}"]`, '[data-testid="lookup-panel"]'];
    case 'accumulator':
      return ['[data-testid="accumulator"]'];
  }
}

/** A short name for the target, for the card's data-look and its "look here" line. */
export function targetKey(t: LessonTarget): string {
  switch (t.kind) {
    case 'partition':
      return `partition:${t.topic}-${t.partition}`;
    case 'broker':
      return `broker:${t.broker}`;
    case 'group':
      return `group:${t.group}${t.member ? `/${t.member}` : ''}${t.crash ? '/crash' : ''}`;
    case 'znodes':
      return `znodes:${t.path}`;
    case 'lookup':
      return `lookup:${t.topic}-${t.partition}@${t.offset}:${t.through}:${t.show ?? ''}`;
    case 'accumulator':
      return 'accumulator';
  }
}

/** Whether the target is drawn in the side panel (a sheet on a phone) rather than on the board. */
export function inSidePanel(t: LessonTarget): boolean {
  return t.kind === 'lookup' || t.kind === 'accumulator';
}

/** Opens the view that draws the target: the board's tab, the topic, the side panel's tab, the lookup. */
async function open(session: Session, t: LessonTarget): Promise<void> {
  if (t.kind === 'partition') uiStore.setState({ selectedTopic: t.topic });
  if (t.kind === 'broker' || t.kind === 'znodes') setBoard({ tab: 'cluster' });
  if (t.kind === 'group') setBoard({ tab: 'groups' });
  if (inSidePanel(t)) uiStore.setState({ sideTab: t.kind === 'lookup' ? 'lookup' : 'accumulator' });
  else requestSideSheet(false);
  if (t.kind === 'lookup') {
    const view = await session.call('lookup', { topic: t.topic, partition: t.partition, offset: t.offset });
    // Stepped through the last step of the stage the lesson is at: later steps stay unseen.
    let step = 0;
    view.steps.forEach((s, i) => {
      if (s.kind === t.through) step = i;
    });
    uiStore.setState({ lookup: { view, step } });
  }
}

/** The nearest ancestor that scrolls (the board's column or the side panel's body). */
function scroller(el: HTMLElement): HTMLElement | null {
  for (let p = el.parentElement; p; p = p.parentElement) {
    const o = getComputedStyle(p).overflowY;
    if ((o === 'auto' || o === 'scroll') && p.scrollHeight > p.clientHeight) return p;
  }
  return null;
}

/**
 * Scrolls `el` into the part of its scroller the lesson card leaves free: its top just below the
 * scroller's top when it does not fit, untouched when it is already wholly in view.
 */
export function bringIntoView(el: HTMLElement, card: HTMLElement | null): HTMLElement | null {
  const box = scroller(el);
  if (!box) return null;
  const b = box.getBoundingClientRect();
  const c = card && box.contains(card) ? card.getBoundingClientRect() : null;
  const top = Math.max(b.top, 0) + MARGIN;
  const bottom = Math.min(c ? c.top : b.bottom, window.innerHeight) - MARGIN;
  const r = el.getBoundingClientRect();
  if (r.top < top || r.bottom > bottom) box.scrollTop += r.top - top;
  return box;
}

interface Looking {
  key: string;
  target: LessonTarget;
  scrolled: boolean;
  /** The scroller the target was brought into view in. */
  box: HTMLElement | null;
  /** The learner scrolled (wheel, touch, keys, the scrollbar) since: stop following. */
  userScrolled: boolean;
  /** Frames seen since the element appeared: it is scrolled once its layout has settled. */
  seen: number;
}

let looking: Looking | null = null;
/** The card's height when last looked: a card that grew (a reveal) may now cover the target. */
let cardHeight = 0;
/** The animation frame the loop waits for: every frame, so a node React re-creates (a znode that
 * flashed) is marked again before it is painted unmarked. */
let loop: number | null = null;

function find(t: LessonTarget): HTMLElement | null {
  for (const sel of targetSelectors(t)) {
    const el = document.querySelector<HTMLElement>(sel);
    if (el) return el;
  }
  return null;
}

function mark(el: HTMLElement | null): void {
  for (const other of document.querySelectorAll(`[${LOOK_ATTR}]`)) if (other !== el) other.removeAttribute(LOOK_ATTR);
  if (el && looking && el.getAttribute(LOOK_ATTR) !== targetKey(looking.target))
    el.setAttribute(LOOK_ATTR, targetKey(looking.target));
}

/** Frames between two looks at the layout (scrolling reads it; marking does not). */
const LAYOUT_EVERY = 8;
let frames = 0;

function tick(): void {
  if (!looking) return;
  const el = find(looking.target);
  mark(el);
  if (++frames % LAYOUT_EVERY !== 0) return;
  const card = document.querySelector<HTMLElement>('[data-testid="lesson"]');
  const h = card?.offsetHeight ?? 0;
  const grew = h !== cardHeight;
  cardHeight = h;
  if (!el) return;
  // Once scrolled, the target is kept in view while the board shifts around it (a rebalance
  // redraws the card above a chip) and the lesson card grows, until the learner scrolls away.
  if (looking.scrolled) {
    if (!looking.userScrolled || grew) follow(el, card);
    return;
  }
  // Wait a beat after the element appears: a tab just opened still lays out around it.
  if (++looking.seen < 2) return;
  follow(el, card);
  looking.scrolled = true;
}

function follow(el: HTMLElement, card: HTMLElement | null): void {
  if (looking) looking.box = bringIntoView(el, card);
}

const SCROLL_KEYS = new Set(['PageUp', 'PageDown', 'ArrowUp', 'ArrowDown', 'Home', 'End', ' ']);

/** The learner's own scrolling (not the page's, nor the browser's scroll anchoring). */
function onUserScroll(e: Event): void {
  if (!looking) return;
  if (e.type === 'keydown' && !SCROLL_KEYS.has((e as KeyboardEvent).key)) return;
  if (e.type === 'pointerdown' && e.target !== looking.box) return;
  looking.userScrolled = true;
}
const USER_SCROLL = ['wheel', 'touchmove', 'keydown', 'pointerdown'] as const;

/**
 * Points the page at `target` (null: nothing) for the step `moment` names; the same target for
 * the same moment again changes nothing, a new moment scrolls to it again.
 */
export function lookAt(session: Session, target: LessonTarget | null, moment: string): void {
  if (!target) {
    stopLooking();
    return;
  }
  const key = `${moment} ${targetKey(target)}`;
  if (looking?.key === key) return;
  looking = { key, target, scrolled: false, seen: 0, box: null, userScrolled: false };
  void open(session, target).catch(() => undefined);
  if (loop === null) {
    const frame = () => {
      tick();
      if (loop !== null) loop = requestAnimationFrame(frame);
    };
    loop = requestAnimationFrame(frame);
    for (const t of USER_SCROLL) document.addEventListener(t, onUserScroll, { capture: true, passive: true });
  }
}

/** Scrolls to the current target again (the learner asked: "show me"). */
export function lookAgain(): void {
  if (looking) {
    looking.scrolled = false;
    looking.userScrolled = false;
    looking.seen = 1;
    frames = LAYOUT_EVERY - 1;
    tick();
  }
}

export function stopLooking(): void {
  looking = null;
  if (loop !== null) {
    cancelAnimationFrame(loop);
    for (const t of USER_SCROLL) document.removeEventListener(t, onUserScroll, { capture: true });
  }
  loop = null;
  mark(null);
}
