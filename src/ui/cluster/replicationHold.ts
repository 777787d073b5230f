/**
 * Replication in lock-step with its tokens. The engine moves a leader's LEO when a Produce
 * request arrives, a follower's LEO when the leader's Fetch response arrives, and the leader's HW
 * when a follower's next Fetch request (at its new LEO) arrives; each message names what it
 * changed (`PlaneMessageView.effects`). The page draws each of those changes when that message's
 * token lands on its receiver (tokenSchedule.ts), not when the view arrives: until then the
 * replica shows the value from before the change. Pure: the caller passes the wall clock.
 *
 * Changes of one partition land in engine order: a change never lands before an earlier change
 * of the same partition (a token first seen in a later view is not allowed to overtake).
 */
import type { PlaneMessageView } from '../../engine/apps/types';
import type { TokenSchedule } from './tokenSchedule';

/** One replica offset the page has not drawn yet: `field` of replica `key` shows `from` until `landsAt`. */
export interface HeldChange {
  /** `<topic>-<partition>/<broker>` (replicaKey). */
  key: string;
  field: 'leo' | 'hw';
  from: number;
  to: number;
  landsAt: number;
}

export function replicaKey(topic: string, partition: number, broker: number): string {
  return `${topic}-${partition}/${broker}`;
}

/**
 * The changes carried by tokens still in flight at `now`, with their landing times made
 * monotonic per partition. `holds(topic)` says whether a topic's tokens are drawn anywhere.
 */
export function heldChanges(
  messages: readonly PlaneMessageView[],
  schedule: TokenSchedule,
  now: number,
  holds: (topic: string) => boolean,
): HeldChange[] {
  const out: HeldChange[] = [];
  const lastLanding = new Map<string, number>();
  for (const m of messages) {
    if (!m.effects) continue;
    const slot = schedule.slots.get(m.id);
    if (!slot?.inStep) continue;
    for (const e of m.effects) {
      if (!holds(e.topic)) continue;
      const tp = `${e.topic}-${e.partition}`;
      const landsAt = Math.max(slot.landsAt, lastLanding.get(tp) ?? 0);
      lastLanding.set(tp, landsAt);
      if (landsAt > now)
        out.push({ key: replicaKey(e.topic, e.partition, e.broker), field: e.field, from: e.from, to: e.to, landsAt });
    }
  }
  return out;
}

/** What each held replica shows instead of the engine's value (the value before its earliest change not drawn yet). */
export interface Held {
  leo?: number;
  hw?: number;
}

export function heldValues(changes: readonly HeldChange[], now: number): Record<string, Held> {
  const held: Record<string, Held> = {};
  for (const c of changes) {
    if (c.landsAt <= now) continue;
    const h = (held[c.key] ??= {});
    const before = h[c.field];
    h[c.field] = before === undefined ? c.from : Math.min(before, c.from);
  }
  return held;
}

/** The next wall ms at which a held change lands, or null. */
export function nextLanding(changes: readonly HeldChange[], now: number): number | null {
  let next: number | null = null;
  for (const c of changes) if (c.landsAt > now && (next === null || c.landsAt < next)) next = c.landsAt;
  return next;
}

/** The value a replica draws: the engine's, or the held one while below it (a truncation shows at once). */
export function shownValue(engine: number, held: number | undefined): number {
  return held === undefined ? engine : Math.min(engine, held);
}
