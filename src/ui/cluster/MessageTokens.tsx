/**
 * Messages travelling on the brokers view, as RaftScope draws them: a follower's Fetch between
 * two broker cards (and its answer), a producer's Produce from the producers' box to the
 * partition leader's card (and its answer). Where and when each one goes is the engine's: the
 * network's sender, receiver, send and arrival times.
 *
 * A hop takes about a millisecond of engine time, far too short to see, and the engine's clock is
 * never bent to make it longer. Instead the page replays each message once, slowed down: the
 * token crosses in REPLAY_MS of wall time, starting when the page first sees it (messages the
 * engine sent later start later), and the legend and each token's title say how much slower
 * than the engine that is. The crossing is a CSS transform animation, so the browser moves the
 * tokens without React or layout doing anything per frame.
 *
 * The card centres are measured when the brokers change or the board resizes (layout, not state
 * React owns). The worker sends at most a few dozen recent messages, and none for a cluster
 * drawn at scale.
 */
import { type CSSProperties, useLayoutEffect, useRef, useState } from 'react';
import type { PlaneMessageView, PlaneView } from '../../engine/apps/types';
import { useUi } from '../store';

/** Wall milliseconds each hop is drawn over. */
export const REPLAY_MS = 600;
/** Messages first seen in the same view leave one after the other, this far apart (wall ms). */
const STAGGER_MS = 150;
/** The producers' box, as a key of the centres map. */
const PRODUCERS = -1;

type Centres = ReadonlyMap<number, { x: number; y: number }>;

/** How many times slower than the engine a message is drawn (at `speed` engine ms per wall ms). */
export function slowdown(m: PlaneMessageView, speed: number): number {
  const flight = Math.max(m.arriveAtMs - m.sentAtMs, 0.001);
  return (REPLAY_MS * speed) / flight;
}

function endpoint(id: number | null): number {
  return id === null ? PRODUCERS : id;
}

function tokenId(m: PlaneMessageView): string {
  if (m.api === 'Fetch') return `message-fetch-${m.from}-${m.to}`;
  return `message-produce-${m.from ?? m.client}-${m.to ?? m.client}`;
}

/** Says that the tokens are a slowed replay, and how much slower than the engine they move. */
export function MessageLegend({ view }: { view: PlaneView }) {
  const speed = useUi((s) => s.speed);
  if (view.messages.length === 0) return null;
  const slowest = Math.max(...view.messages.map((m) => slowdown(m, speed)));
  return (
    <p className="message-legend muted small" data-testid="message-legend" data-slowed={Math.round(slowest)}>
      Requests drawn slowed down: a hop takes {formatMs(view.messages[0])} of engine time and is shown over{' '}
      {REPLAY_MS / 1000} s (×{Math.round(slowest).toLocaleString('en')} slower than the engine clock at {speed}x).
    </p>
  );
}

export function MessageTokens({ view }: { view: PlaneView }) {
  const layer = useRef<HTMLDivElement>(null);
  const speed = useUi((s) => s.speed);
  const [centres, setCentres] = useState<Centres>(new Map());
  // When the page first saw each message (wall ms), and how long after that its replay starts:
  // fixed at first sight, so a re-render never moves a token along its path.
  const seen = useRef(new Map<number, { at: number; delay: number }>());
  const brokerIds = view.brokers.map((b) => b.id).join(',');
  const hasMessages = view.messages.length > 0;
  const now = performance.now();
  let fresh = 0;
  for (const m of view.messages) {
    if (seen.current.has(m.id)) continue;
    seen.current.set(m.id, { at: now, delay: STAGGER_MS * fresh++ });
  }
  const done = (s: { at: number; delay: number }) => now - s.at >= s.delay + REPLAY_MS;
  const inView = new Set(view.messages.map((m) => m.id));
  for (const [id, s] of seen.current) if (!inView.has(id) && done(s)) seen.current.delete(id);
  const live = view.messages.filter((m) => {
    const s = seen.current.get(m.id);
    return s !== undefined && !done(s);
  });
  // Measuring forces a layout, so it runs only when the set of brokers changes, when tokens first
  // appear, or when the board resizes — never on every view the worker sends.
  useLayoutEffect(() => {
    const host = layer.current?.parentElement;
    if (!host || !hasMessages) return;
    const measure = () => {
      const origin = host.getBoundingClientRect();
      const next = new Map<number, { x: number; y: number }>();
      const place = (key: number, el: Element | null) => {
        if (!el) return;
        const r = el.getBoundingClientRect();
        next.set(key, { x: r.left - origin.left + r.width / 2, y: r.top - origin.top + Math.min(r.height / 2, 40) });
      };
      for (const id of brokerIds.split(',')) place(Number(id), host.querySelector(`[data-testid="broker-${id}"]`));
      place(PRODUCERS, host.querySelector('[data-testid="producers-node"]'));
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
        const a = centres.get(endpoint(m.from));
        const b = centres.get(endpoint(m.to));
        if (!a || !b) return null;
        const delay = seen.current.get(m.id)?.delay ?? 0;
        const style = {
          '--x0': `${a.x.toFixed(1)}px`,
          '--y0': `${a.y.toFixed(1)}px`,
          '--x1': `${b.x.toFixed(1)}px`,
          '--y1': `${b.y.toFixed(1)}px`,
          animationDuration: `${REPLAY_MS}ms`,
          animationDelay: `${delay}ms`,
        } as CSSProperties;
        const flight = m.arriveAtMs - m.sentAtMs;
        const what = m.api === 'Fetch' ? 'Fetch' : 'Produce';
        const route =
          m.api === 'Fetch'
            ? `broker ${m.from} → broker ${m.to}`
            : m.from === null
              ? `${m.client} → broker ${m.to}`
              : `broker ${m.from} → ${m.client}`;
        return (
          <span
            key={m.id}
            className={`message-token message-${m.kind} api-${m.api.toLowerCase()}`}
            data-testid={tokenId(m)}
            data-kind={m.kind}
            data-api={m.api}
            data-from={m.from ?? ''}
            data-to={m.to ?? ''}
            data-sent-at={m.sentAtMs}
            data-arrive-at={m.arriveAtMs}
            data-slowed={Math.round(slowdown(m, speed))}
            title={`${what} ${m.kind}: ${route}, sent at ${m.sentAtMs} ms, arrived ${flight} ms later (engine time); drawn ×${Math.round(slowdown(m, speed))} slower`}
            style={style}
          />
        );
      })}
    </div>
  );
}

function formatMs(m: PlaneMessageView | undefined): string {
  if (!m) return '';
  const f = m.arriveAtMs - m.sentAtMs;
  return `${f} ms`;
}

function sameCentres(a: Centres, b: Centres): boolean {
  if (a.size !== b.size) return false;
  for (const [id, p] of b) {
    const q = a.get(id);
    if (!q || Math.abs(q.x - p.x) > 0.5 || Math.abs(q.y - p.y) > 0.5) return false;
  }
  return true;
}
