/**
 * What a partition draws: one engine state at a time. The page gets the engine's state in views
 * (one per frame); between two views the engine may have moved a partition several times — a
 * Produce request moved the leader's LEO, the leader's Fetch response a follower's LEO, the
 * follower's next Fetch request the leader's HW — and each message that did so names its changes
 * (`BoardMessageView.effects`, from -> to, in the order they happened). Replaying those changes
 * from the last view's state gives the states the partition went through in between, each one a
 * state the engine had; the page shows each when the token of the message that caused it lands,
 * then the next. Nothing keeps a number of its own: a drawn partition is always a whole state
 * (leader, ISR, roles, every replica's LEO and HW together), never one field held back beside
 * another moved on (RaftScope's rule: delay the snapshot, never one number of it).
 *
 * Where the changes do not account for the step (a truncation, an election, a message no longer
 * listed), nothing is made up: the partition steps straight to the view's state, after the states
 * queued before it — at once when a replica's broker died or came back or the replicas changed,
 * since brokers and chips are drawn from the view as it comes. A new leader is
 * drawn once the controller's LeaderAndIsr token to its broker has landed (a broker leads once
 * that request reaches it), or NO_TOKEN_MS after the page saw the election if no token came.
 * Pure: the caller passes the wall clock and the token schedule's landing times.
 */
import type { BoardMessageView, BoardPartitionView } from '../../engine/apps/types';

/** Wall ms after which a new leader is drawn even if no LeaderAndIsr token was seen for it. */
export const NO_TOKEN_MS = 8_000;

/** One state the partition will draw, once `landsAt(step)` has passed. */
export interface Step {
  state: BoardPartitionView;
  /** The message whose token carries this step (its landing draws it), or null. */
  messageId: number | null;
  /** Wall ms before which the step is not drawn (when it was queued). */
  notBefore: number;
  /** A new leader: drawn when the LeaderAndIsr request to `broker` sent at or after `sinceMs` lands. */
  awaitsLeader?: { broker: number; sinceMs: number };
}

export interface Timeline {
  /** The state drawn now. */
  shown: BoardPartitionView;
  /** The last view's state (the end of `steps`, or `shown` when none is queued). */
  last: BoardPartitionView;
  /** The states still to draw, in engine order. */
  steps: Step[];
}

export function tpKey(topic: string, partition: number): string {
  return `${topic}-${partition}`;
}

/** Whether two states of a partition differ in more than their replicas' LEO, HW and lag timers. */
function sameStructure(a: BoardPartitionView, b: BoardPartitionView): boolean {
  if (a.leader !== b.leader || a.leaderEpoch !== b.leaderEpoch || a.offline !== b.offline) return false;
  if (a.isr.length !== b.isr.length || a.isr.some((x, i) => x !== b.isr[i])) return false;
  if (a.replicaStates.length !== b.replicaStates.length) return false;
  return a.replicaStates.every((r, i) => {
    const s = b.replicaStates[i];
    return s !== undefined && s.broker === r.broker && s.role === r.role && s.inIsr === r.inIsr;
  });
}

/**
 * Whether a replica went offline or came back, or the partition's replicas changed (a
 * reassignment), between two states: what the page draws from the view as it comes (the brokers,
 * a replica's chip) would otherwise disagree with the partition drawn.
 */
function livenessChanged(a: BoardPartitionView, b: BoardPartitionView): boolean {
  if (a.replicaStates.length !== b.replicaStates.length) return true;
  const offline = new Map(a.replicaStates.map((r) => [r.broker, r.role === 'offline']));
  return b.replicaStates.some((r) => !offline.has(r.broker) || offline.get(r.broker) !== (r.role === 'offline'));
}

function sameOffsets(a: BoardPartitionView, b: BoardPartitionView): boolean {
  return a.replicaStates.every((r, i) => {
    const s = b.replicaStates[i];
    return s !== undefined && s.logEndOffset === r.logEndOffset && s.highWatermark === r.highWatermark;
  });
}

/**
 * The states between `base` (the last view's) and `next` (this view's), one per message of
 * `fresh` (the messages first seen with this view) that changed the partition, in the order they
 * arrived. Null when they do not account for the step: a change of structure, a change whose
 * `from` is not the value replayed so far, or offsets the replay does not reach.
 */
export function statesBetween(
  base: BoardPartitionView,
  next: BoardPartitionView,
  fresh: readonly BoardMessageView[],
): { messageId: number; state: BoardPartitionView }[] | null {
  if (!sameStructure(base, next)) return null;
  const moving = fresh
    .filter((m) => m.effects?.some((e) => e.topic === base.topic && e.partition === base.partition))
    .sort((a, b) => a.arriveAtMs - b.arriveAtMs || a.id - b.id);
  const out: { messageId: number; state: BoardPartitionView }[] = [];
  let state = base;
  for (const m of moving) {
    const replicas = state.replicaStates.map((r) => ({ ...r }));
    for (const e of m.effects ?? []) {
      if (e.topic !== base.topic || e.partition !== base.partition) continue;
      const r = replicas.find((x) => x.broker === e.broker);
      if (!r) return null;
      const field = e.field === 'leo' ? 'logEndOffset' : 'highWatermark';
      if (r[field] !== e.from) return null;
      r[field] = e.to;
    }
    state = { ...state, replicaStates: replicas };
    out.push({ messageId: m.id, state });
  }
  if (!sameOffsets(state, next)) return null;
  // The last replayed state is the view's own (its lag timers and committed offset too).
  const last = out[out.length - 1];
  if (last) last.state = next;
  return out;
}

export function newTimeline(state: BoardPartitionView): Timeline {
  return { shown: state, last: state, steps: [] };
}

/**
 * A new view's state of the partition: queues the states it went through since the last view
 * (or one step straight to it), each drawn when its token lands. `prevNowMs` is the last view's
 * engine time (a new leader's LeaderAndIsr is sent after it).
 */
export function advance(
  t: Timeline,
  next: BoardPartitionView,
  fresh: readonly BoardMessageView[],
  now: number,
  prevNowMs: number,
): void {
  const base = t.last;
  if (base === next) return;
  t.last = next;
  const between = statesBetween(base, next, fresh);
  if (between !== null && between.length === 0) {
    // Only lag timers or the committed offset moved: the newest queued state (or the drawn one) takes them.
    const tail = t.steps[t.steps.length - 1];
    if (tail) tail.state = next;
    else t.shown = next;
    return;
  }
  if (between !== null) {
    for (const s of between) t.steps.push({ state: s.state, messageId: s.messageId, notBefore: now });
    return;
  }
  if (livenessChanged(base, next)) {
    // A replica's broker died or came back, or the replicas changed: the brokers and the chips are
    // drawn from the view at once, so the partition is too (never a replica drawn leader on a
    // broker drawn gone, offline on one alive, or a new replica ahead of an older leader).
    t.steps = [];
    t.shown = next;
    return;
  }
  const step: Step = { state: next, messageId: null, notBefore: now };
  if (next.leader >= 0 && next.leader !== base.leader) step.awaitsLeader = { broker: next.leader, sinceMs: prevNowMs };
  t.steps.push(step);
}

/** What the caller knows of the tokens: a message's landing (wall ms), and the LeaderAndIsr requests seen. */
export interface Landings {
  /** When the token of a message lands, or null if it is not drawn in step (its state shows at once). */
  landsAt(messageId: number): number | null;
  /** The earliest landing of a LeaderAndIsr request to `broker` sent at or after `sinceMs`, or null. */
  leaderAndIsrLands(broker: number, sinceMs: number): number | null;
}

/** When `step` may be drawn (before the steps after it). */
function stepLandsAt(step: Step, landings: Landings): number {
  let at = step.notBefore;
  if (step.messageId !== null) at = Math.max(at, landings.landsAt(step.messageId) ?? at);
  if (step.awaitsLeader) {
    const l = landings.leaderAndIsrLands(step.awaitsLeader.broker, step.awaitsLeader.sinceMs);
    at = Math.max(at, Math.min(l ?? Number.POSITIVE_INFINITY, step.notBefore + NO_TOKEN_MS));
  }
  return at;
}

/** Draws the steps landed by `upTo`, in order. Returns whether the drawn state changed. */
export function land(t: Timeline, upTo: number, landings: Landings): boolean {
  let moved = false;
  let at = Number.NEGATIVE_INFINITY;
  while (t.steps.length > 0) {
    const step = t.steps[0] as Step;
    at = Math.max(at, stepLandsAt(step, landings));
    if (at > upTo) break;
    t.steps.shift();
    t.shown = step.state;
    moved = true;
  }
  return moved;
}

/** When the next step lands (wall ms), or null when none is queued. */
export function nextLanding(t: Timeline, landings: Landings): number | null {
  const step = t.steps[0];
  return step ? stepLandsAt(step, landings) : null;
}
