/**
 * Follower fetches travelling between broker cards, as RaftScope draws its messages: each token
 * sits on the line from the sender's card to the receiver's, at the fraction of its flight the
 * engine clock has covered, (now - sentAtMs) / (arriveAtMs - sentAtMs). A hop between brokers
 * takes a millisecond of engine time, far too short to see, so every flight is stretched to at
 * least MIN_FLIGHT_MS of engine time (the order and the timing of sends stay the engine's).
 *
 * The card centres are measured when the brokers change or the board resizes (layout, not state React owns) and the tokens
 * are React elements moved with CSS transforms. The worker sends at most a couple of dozen recent
 * fetches, and none for a cluster drawn at scale.
 */
import { useLayoutEffect, useRef, useState } from 'react';
import type { PlaneMessageView, PlaneView } from '../../worker/plane/types';

const MIN_FLIGHT_MS = 400;

type Centres = ReadonlyMap<number, { x: number; y: number }>;

export function progress(m: PlaneMessageView, nowMs: number): number {
  const flight = Math.max(m.arriveAtMs - m.sentAtMs, MIN_FLIGHT_MS);
  return Math.min(1, Math.max(0, (nowMs - m.sentAtMs) / flight));
}

export function MessageTokens({ view }: { view: PlaneView }) {
  const layer = useRef<HTMLDivElement>(null);
  const [centres, setCentres] = useState<Centres>(new Map());
  const brokerIds = view.brokers.map((b) => b.id).join(',');
  const live = view.messages.filter((m) => progress(m, view.nowMs) < 1);
  const hasMessages = view.messages.length > 0;
  // Measuring forces a layout, so it runs only when the set of brokers changes, when tokens first
  // appear, or when the board resizes — never on every view the worker sends (that made each
  // frame pay a full layout while producing).
  useLayoutEffect(() => {
    const host = layer.current?.parentElement;
    if (!host || !hasMessages) return;
    const measure = () => {
      const origin = host.getBoundingClientRect();
      const next = new Map<number, { x: number; y: number }>();
      for (const id of brokerIds.split(',')) {
        const card = host.querySelector(`[data-testid="broker-${id}"]`);
        if (!card) continue;
        const r = card.getBoundingClientRect();
        next.set(Number(id), {
          x: r.left - origin.left + r.width / 2,
          y: r.top - origin.top + Math.min(r.height / 2, 40),
        });
      }
      setCentres((old) => (sameCentres(old, next) ? old : next));
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(host);
    return () => observer.disconnect();
  }, [brokerIds, hasMessages]);
  return (
    <div className="message-layer" ref={layer} aria-hidden="true">
      {live.map((m) => {
        const a = centres.get(m.from);
        const b = centres.get(m.to);
        if (!a || !b) return null;
        const t = progress(m, view.nowMs);
        const x = a.x + (b.x - a.x) * t;
        const y = a.y + (b.y - a.y) * t;
        return (
          <span
            key={m.id}
            className={`message-token message-${m.kind}`}
            data-testid={`message-fetch-${m.from}-${m.to}`}
            data-kind={m.kind}
            data-progress={t.toFixed(2)}
            title={`Fetch ${m.kind}: broker ${m.from} → broker ${m.to}`}
            style={{ transform: `translate(${x.toFixed(1)}px, ${y.toFixed(1)}px)` }}
          />
        );
      })}
    </div>
  );
}

function sameCentres(a: Centres, b: Centres): boolean {
  if (a.size !== b.size) return false;
  for (const [id, p] of b) {
    const q = a.get(id);
    if (!q || Math.abs(q.x - p.x) > 0.5 || Math.abs(q.y - p.y) > 0.5) return false;
  }
  return true;
}
