/**
 * The rebalance phases of one group as the card shows them, in order and each long enough to be
 * seen. The engine may go through several phases within one instant (a JoinGroup answered at
 * once, the leader's SyncGroup making the group Stable): the queue holds them and plays them in
 * engine order, each on screen at least `minMs` of real time (PHASE_MIN_MS at 1x, scaled by the
 * speed). Pure: the caller passes the wall clock, so it is tested in Node.
 */
import type { OwnershipDelta, PhaseMark, RebalancePhase } from './rebalancePhases';
import { phaseIndex } from './rebalancePhases';

/** Real ms a phase stays on screen at 1x. */
export const PHASE_MIN_MS = 600;
/** Phases waiting beyond this many are dropped, oldest first (a burst of rebalances at 16x). */
const MAX_PENDING = 24;

export interface ShownPhase {
  phase: RebalancePhase;
  /** The generation the phase builds or completes, when known (compute, sync, assign, stable). */
  generation: number | null;
  why: string;
  /** Engine ms since the scenario started; null for the rest the page opened with. */
  atMs: number | null;
  /** Wall ms when the card started showing it. */
  since: number;
  /** The listener callbacks this phase draws: the chips change as it is shown. */
  deltas: OwnershipDelta[];
}

export interface PhaseQueue {
  shown: ShownPhase;
  pending: ShownPhase[];
  /** The last phase accepted: a mark that does not move the rebalance forward is not queued. */
  last: RebalancePhase;
  /** The generation of the rebalance being queued (set by compute, carried to sync). */
  building: number | null;
}

export function restingQueue(): PhaseQueue {
  const shown: ShownPhase = { phase: 'stable', generation: null, why: '', atMs: null, since: -Infinity, deltas: [] };
  return { shown, pending: [], last: 'stable', building: null };
}

/** Whether `mark` moves the rebalance on: a later phase, or leave/join starting the next rebalance. */
function accepts(last: RebalancePhase, mark: RebalancePhase): boolean {
  if (phaseIndex(mark) > phaseIndex(last)) return true;
  return (mark === 'leave' || mark === 'join') && phaseIndex(last) >= phaseIndex('compute');
}

/** Queues the marks that move the group's rebalance on, received at wall time `now`. */
export function offer(q: PhaseQueue, marks: readonly PhaseMark[], now: number): PhaseQueue {
  let { last, building } = q;
  const pending = [...q.pending];
  let grew = false;
  for (const m of marks) {
    if (!accepts(last, m.phase)) {
      // Another member's callback within a phase already queued: it is drawn with that phase
      // (or, with nothing queued, at once: the phase it belongs to is on screen).
      const tail = pending[pending.length - 1];
      if (m.delta && tail) {
        pending[pending.length - 1] = { ...tail, deltas: [...tail.deltas, m.delta] };
        grew = true;
      }
      continue;
    }
    if (m.phase === 'leave' || m.phase === 'join') building = null;
    if (m.generation !== null) building = m.generation;
    pending.push({
      phase: m.phase,
      generation: m.generation ?? building,
      why: m.why,
      atMs: m.atMs,
      since: now,
      deltas: m.delta ? [m.delta] : [],
    });
    last = m.phase;
  }
  if (pending.length === q.pending.length && !grew) return q;
  return { shown: q.shown, pending: pending.slice(-MAX_PENDING), last, building };
}

/**
 * Moves the card on at wall time `now`: the next queued phase replaces the shown one once that
 * has been on screen `minMs`; an assign shown that long, with nothing queued, comes to rest.
 */
export function advance(q: PhaseQueue, now: number, minMs: number): PhaseQueue {
  if (now - q.shown.since < minMs) return q;
  const [next, ...rest] = q.pending;
  if (next) return { ...q, shown: { ...next, since: now }, pending: rest };
  if (q.shown.phase === 'assign') return { ...q, shown: { ...q.shown, phase: 'stable', since: now } };
  return q;
}

/** Wall ms at which `advance` will change something, or null while the card rests. */
export function dueAt(q: PhaseQueue, minMs: number): number | null {
  if (q.pending.length === 0 && q.shown.phase !== 'assign') return null;
  return q.shown.since + minMs;
}

/**
 * Real ms after which a phase shown with nothing queued no longer counts as playing: the engine is
 * waiting (group.initial.rebalance.delay.ms, a join waiting rebalance.timeout.ms for a member),
 * and the auto slow-down lets go.
 */
export const WAITING_MS = 15_000;

/** True while a rebalance is still being played at wall time `now` (queued, or on screen before its rest). */
export function busy(q: PhaseQueue, now: number): boolean {
  if (q.pending.length > 0) return true;
  return q.shown.phase !== 'stable' && now - q.shown.since < WAITING_MS;
}

/**
 * The first generation the timeline must not draw yet: the one a queued phase (or the shown
 * phase, before assign) still builds. Null when every generation may be drawn.
 */
export function hiddenFrom(q: PhaseQueue): number | null {
  const gens: number[] = [];
  if (phaseIndex(q.shown.phase) < phaseIndex('assign') && q.shown.generation !== null) gens.push(q.shown.generation);
  for (const p of q.pending) if (p.generation !== null) gens.push(p.generation);
  return gens.length === 0 ? null : Math.min(...gens);
}

/**
 * The partitions a consumer's chip draws: what the engine says it owns now, less what the phases
 * still queued will assign it and plus what they will revoke, so the chips own at the phase drawn
 * (eager: nothing between the revoke and the assignment; cooperative-sticky: only the revoked
 * partitions leave). With nothing queued, the engine's.
 */
export function drawnPartitions(q: PhaseQueue, consumer: string, engine: readonly string[]): string[] {
  if (!q.pending.some((p) => p.deltas.some((d) => d.consumer === consumer))) return [...engine];
  const owned = new Set(engine);
  for (let i = q.pending.length - 1; i >= 0; i--) {
    const deltas = (q.pending[i] as ShownPhase).deltas;
    for (let j = deltas.length - 1; j >= 0; j--) {
      const d = deltas[j] as OwnershipDelta;
      if (d.consumer !== consumer) continue;
      for (const p of d.assigned) owned.delete(p);
      for (const p of d.revoked) owned.add(p);
    }
  }
  return [...owned];
}

/** The coordinator's state each phase is drawn in (leave and join: PreparingRebalance, ...). */
const STATE_OF: Record<RebalancePhase, string> = {
  leave: 'PreparingRebalance',
  join: 'PreparingRebalance',
  compute: 'CompletingRebalance',
  sync: 'CompletingRebalance',
  assign: 'Stable',
  stable: 'Stable',
};

/**
 * The group state the card draws: the engine's while nothing plays, else the state of the phase
 * shown, so the badge never runs ahead of the strip.
 */
export function shownGroupState(q: PhaseQueue, engineState: string): string {
  if (q.pending.length === 0 && q.shown.phase === 'stable') return engineState;
  return STATE_OF[q.shown.phase];
}

/** The generation the card draws: the engine's, less any the phases have not reached assign for. */
export function shownGeneration(q: PhaseQueue, engineGeneration: number): number {
  const from = hiddenFrom(q);
  return from === null ? engineGeneration : Math.min(engineGeneration, from - 1);
}
