/**
 * When each message token is drawn: the one schedule the brokers board (MessageTokens), the
 * partition rows (chrome/RowTokens) and the partition timelines (partitionTimeline.ts, replicationHold.ts) share, so a
 * replica's LEO or HW changes on screen exactly when the token that carried the change lands.
 * Pure: the caller passes the wall clock.
 *
 * A token starts when the page first sees its message; messages first seen together leave one
 * after the other, STAGGER_MS apart, in engine order. Messages that changed a replica (their
 * `effects`) are also kept in engine order across views: one never starts before an earlier one
 * (ORDER_GAP_MS after it), so a follower's Fetch that moved the HW never lands before the Produce
 * and the Fetch responses it follows. An effect-bearing token that would start more than
 * MAX_LAG_MS late (a busy cluster, a high speed) is not held for: it starts with the others of its
 * view and the state it carried is shown at once.
 */
import type { BoardMessageView } from '../../engine/apps/types';
import { REPLAY_MS } from '../time/pacing';

/** Messages first seen in the same view leave one after the other, this far apart (wall ms). */
export const STAGGER_MS = 150;
/** Two messages that changed replicas start at least this far apart, in engine order (wall ms). */
export const ORDER_GAP_MS = 150;
/** The latest an effect-bearing token may start after its message was first seen (wall ms). */
export const MAX_LAG_MS = 1500;

export interface Slot {
  /** Wall ms the page first saw the message. */
  seenAt: number;
  /** Wall ms the token leaves its sender, and lands on its receiver (REPLAY_MS later). */
  startsAt: number;
  landsAt: number;
  /** False when the token was too late to hold its state for (MAX_LAG_MS). */
  inStep: boolean;
}

export interface TokenSchedule {
  slots: Map<number, Slot>;
  /** When the last effect-bearing token starts (wall ms). */
  lastOrdered: number;
}

export function newSchedule(): TokenSchedule {
  return { slots: new Map(), lastOrdered: Number.NEGATIVE_INFINITY };
}

/**
 * Gives each message of `messages` (engine order) not seen before its slot, and forgets the slots
 * of messages gone from the view whose tokens have landed. Returns whether a slot was added.
 *
 * A message still on the wire at the view's engine time `engineNowMs` waits for the next view:
 * what it changes on arrival (its effects) is known only once it has arrived, and a token must
 * know what it carries before it leaves.
 */
export function schedule(
  s: TokenSchedule,
  messages: readonly BoardMessageView[],
  now: number,
  engineNowMs = Number.POSITIVE_INFINITY,
): boolean {
  let fresh = 0;
  let inView: Set<number> | null = null;
  for (const m of messages) {
    if (s.slots.has(m.id) || m.arriveAtMs > engineNowMs) continue;
    const base = now + STAGGER_MS * fresh++;
    let startsAt = base;
    let inStep = true;
    if (m.effects && m.effects.length > 0) {
      const ordered = Math.max(base, s.lastOrdered + ORDER_GAP_MS);
      if (ordered - now <= MAX_LAG_MS) {
        startsAt = ordered;
        s.lastOrdered = ordered;
      } else inStep = false;
    } else if (base - now > MAX_LAG_MS) inStep = false;
    s.slots.set(m.id, { seenAt: now, startsAt, landsAt: startsAt + REPLAY_MS, inStep });
  }
  if (s.slots.size > messages.length) {
    inView = new Set(messages.map((m) => m.id));
    for (const [id, slot] of s.slots) if (!inView.has(id) && slot.landsAt <= now) s.slots.delete(id);
  }
  return fresh > 0;
}

/** Whether the token of a slot is on screen at `now` (left its sender, not landed yet). */
export function flying(slot: Slot | undefined, now: number): boolean {
  return slot !== undefined && now < slot.landsAt;
}
