import { useLayoutEffect, useRef } from 'react';
import { slotsMoved, tokenSchedule } from './replicationHoldStore';
import { drawnLate } from './tokenSchedule';

/**
 * Each token's CSS animation delay, from its slot in the shared schedule: fixed when the token is
 * first drawn (a token already on its way when the view opens gets a negative delay and starts
 * part-way), forgotten when it is gone. The tokens start moving once they are in the page, not
 * when their delays were computed: a long render moves their slots by as much (drawnLate), so
 * what a token carries is drawn when it visibly lands.
 *
 * @param tokens each token's key and the id of the message it draws
 * @param now performance.now() of this render
 */
export function useTokenDelays<K>(
  tokens: readonly { key: K; messageId: number }[],
  now: number,
): ReadonlyMap<K, number> {
  const delays = useRef(new Map<K, number>());
  const slots = tokenSchedule();
  const keys = new Set(tokens.map((t) => t.key));
  for (const key of delays.current.keys()) if (!keys.has(key)) delays.current.delete(key);
  const fresh: number[] = [];
  for (const t of tokens) {
    const slot = slots.slots.get(t.messageId);
    if (slot && !delays.current.has(t.key)) {
      delays.current.set(t.key, Math.round(slot.startsAt - now));
      fresh.push(t.messageId);
    }
  }
  useLayoutEffect(() => {
    if (fresh.length === 0) return;
    const drawnAt = performance.now();
    if (
      drawnLate(
        fresh.map((id) => slots.slots.get(id)),
        drawnAt - now,
      )
    )
      slotsMoved(drawnAt);
  });
  return delays.current;
}
