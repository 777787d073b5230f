import { type RefObject, useLayoutEffect, useRef } from 'react';
import { tokenSchedule } from './replicationHold';

/**
 * Each token's CSS animation delay, from its slot in the shared schedule, so it leaves and lands
 * at the slot's wall times — the times the partition timelines draw its state at — whichever
 * layer draws it and however long the render took. The delay a render computes is measured from
 * that render's start; the animation starts when the token is in the page, so once it is (a
 * layout effect, before the browser resolves its style) each new token's delay is set again from
 * the clock then. Fixed when the token is first drawn (a token already on its way when the view
 * opens gets a negative delay and starts part-way), forgotten when it is gone.
 *
 * @param tokens each token's key and the id of the message it draws
 * @param now performance.now() of this render
 * @param layer the element holding the tokens, each marked `data-token-key`
 */
export function useTokenDelays<K extends string | number>(
  tokens: readonly { key: K; messageId: number }[],
  now: number,
  layer: RefObject<HTMLElement | null>,
): ReadonlyMap<K, number> {
  const delays = useRef(new Map<K, number>());
  // The element each delay was last set on: a token drawn again (a new element, a new animation) is set again.
  const applied = useRef(new Map<string, Element>());
  const slots = tokenSchedule();
  const keys = new Set(tokens.map((t) => t.key));
  for (const key of delays.current.keys()) if (!keys.has(key)) delays.current.delete(key);
  for (const t of tokens) {
    const slot = slots.slots.get(t.messageId);
    if (slot && !delays.current.has(t.key)) delays.current.set(t.key, Math.round(slot.startsAt - now));
  }
  const messageOf = new Map(tokens.map((t) => [String(t.key), t]));
  useLayoutEffect(() => {
    const host = layer.current;
    if (!host) return;
    const drawnAt = performance.now();
    const seen = new Set<string>();
    for (const el of host.querySelectorAll<HTMLElement>('[data-token-key]')) {
      const key = el.dataset.tokenKey ?? '';
      seen.add(key);
      const t = messageOf.get(key);
      const slot = t && slots.slots.get(t.messageId);
      if (!t || !slot || applied.current.get(key) === el) continue;
      const delay = Math.round(slot.startsAt - drawnAt);
      delays.current.set(t.key, delay);
      el.style.animationDelay = `${delay}ms`;
      applied.current.set(key, el);
    }
    for (const key of applied.current.keys()) if (!seen.has(key)) applied.current.delete(key);
  });
  return delays.current;
}
