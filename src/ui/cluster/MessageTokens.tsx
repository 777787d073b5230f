/**
 * Messages travelling on the brokers view, as RaftScope draws them: every request and answer the
 * engine sends — a follower's Fetch between two broker cards, a producer's Produce from the
 * producers' box to the partition leader's card, the controller's LeaderAndIsr, UpdateMetadata
 * and StopReplica to the brokers, a consumer's group requests from the consumers' box to its
 * coordinator — each with its answer, in the order the engine sent them. Where and when each one goes is the engine's: the
 * network's sender, receiver, send and arrival times.
 *
 * A hop takes about a millisecond of engine time, far too short to see, and the engine's clock is
 * never bent to make it longer. Instead the page replays each message once, slowed down: the
 * token crosses in REPLAY_MS of wall time, starting when the page first sees it (messages the
 * engine sent later start later), and the legend and each token's title say how much slower
 * than the engine that is (pacing.ts words both paces alike). The crossing is a CSS transform
 * animation, so the browser moves the tokens without React or layout doing anything per frame.
 *
 * Each token is a chip labelled with its Kafka API's name in that API's colour (requestApis.ts;
 * ApiLegend.tsx is the key). Tokens never cover a control: they ride on the cards' top edges,
 * above the headers and below the buttons, in a layer that ignores the pointer and paints under
 * the board's buttons; a hop whose straight path would cross a button (cards on different rows
 * of a narrow board) is not moved across it but shown arriving at its receiver.
 *
 * The card anchors and the buttons are measured when the brokers change or the board resizes
 * (layout, not state React owns). The worker sends at most a few dozen recent messages, and none
 * for a cluster drawn at scale.
 */
import { type CSSProperties, useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { BoardMessageView, BoardView } from '../../engine/apps/types';
import { useUi } from '../store';
import { REPLAY_MS, tokenSlowdown, tokenStatement } from '../time/pacing';
import { apiColour } from './requestApis';
import { type Box, type Point, routeStart } from './tokenRoute';
import { setDrawingTokens, tokenSchedule } from './replicationHold';
import { type Flight, flightOf, groupLabel, joinedChips, type Placement, placeFlights } from './tokenLanes';
import { carried } from './tokenRecords';
import { flying, schedule } from './tokenSchedule';
import { useTokenDelays } from './useTokenDelays';

export { REPLAY_MS };
/** The producers' and the consumers' boxes, as keys of the anchors map. */
const PRODUCERS = -1;
const CONSUMERS = -2;

interface Layout {
  anchors: ReadonlyMap<number, Point>;
  buttons: readonly Box[];
}

/** How many times slower than the engine a message is drawn (at `speed` engine ms per wall ms). */
export function slowdown(m: BoardMessageView, speed: number): number {
  return tokenSlowdown(m.arriveAtMs - m.sentAtMs, speed);
}

/** Where one end of a message is drawn: a broker's card, or the box of its client's kind. */
function endpoint(id: number | null, client: string | null, consumers: ReadonlySet<string>): number {
  if (id !== null) return id;
  return client !== null && consumers.has(client) ? CONSUMERS : PRODUCERS;
}

function tokenId(m: BoardMessageView): string {
  return `message-${m.api.toLowerCase()}-${m.from ?? m.client}-${m.to ?? m.client}`;
}

function endName(id: number | null, client: string | null): string {
  return id === null ? (client ?? 'client') : `broker ${id}`;
}

/** Says that the tokens are a slowed replay, and how much slower than the engine they move. */
export function MessageLegend({ view }: { view: BoardView }) {
  const speed = useUi((s) => s.speed);
  if (view.messages.length === 0) return null;
  // The shortest hop is the most slowed: the statement speaks of that one.
  const flight = Math.min(...view.messages.map((m) => m.arriveAtMs - m.sentAtMs));
  const slowest = Math.max(...view.messages.map((m) => slowdown(m, speed)));
  return (
    <p className="message-legend muted small" data-testid="message-legend" data-slowed={Math.round(slowest)}>
      {tokenStatement(flight, speed)}
    </p>
  );
}

export function MessageTokens({ view }: { view: BoardView }) {
  const layer = useRef<HTMLDivElement>(null);
  const placed = useRef(new Map<string, Placement>());
  const speed = useUi((s) => s.speed);
  const [layout, setLayout] = useState<Layout>({ anchors: new Map(), buttons: [] });
  const brokerIds = view.brokers.map((b) => b.id).join(',');
  // A broker's state changes its card (a killed broker's countdown, a new controller's badge):
  // cards and their buttons move without the board resizing, so the layout is measured again.
  const brokerStates = view.brokers
    .map((b) => `${b.state}${b.alive ? '+' : '-'}${b.isolated ? 'i' : ''}${b.controller ? 'c' : ''}`)
    .join(',');
  const consumers = new Set(view.consumers.map((c) => c.client?.clientId ?? c.name));
  const hasMessages = view.messages.length > 0;
  const now = performance.now();
  // When each token leaves and lands is the shared schedule's (tokenSchedule.ts), fixed when the
  // page first saw the message, so a re-render never moves a token along its path and a replica
  // changes on screen when its token lands (partitionTimeline.ts). Scheduling is idempotent: the
  // hold has usually given these messages their slots already.
  const slots = tokenSchedule();
  schedule(slots, view.messages, now, view.nowMs);
  const live = view.messages.filter((m) => flying(slots.slots.get(m.id), now));
  const delays = useTokenDelays(
    live.map((m) => ({ key: m.id, messageId: m.id })),
    now,
    layer,
  );
  useEffect(() => {
    setDrawingTokens(hasMessages);
    return () => setDrawingTokens(false);
  }, [hasMessages]);
  // Measuring forces a layout, so it runs only when the set of brokers changes, when tokens first
  // appear, or when the board resizes — never on every view the worker sends.
  useLayoutEffect(() => {
    const host = layer.current?.parentElement;
    // Measured again when a broker's state changes its card (brokerStates); no brokers, no anchors.
    if (!host || !hasMessages || brokerStates === '') return;
    const measure = () => {
      const origin = host.getBoundingClientRect();
      const next = new Map<number, Point>();
      // A card's anchor is the middle of its top edge: the chip rides the border, above the
      // header and clear of the buttons below it.
      const place = (key: number, el: Element | null) => {
        if (!el) return;
        const r = el.getBoundingClientRect();
        next.set(key, { x: r.left - origin.left + r.width / 2, y: r.top - origin.top + 1 });
      };
      for (const id of brokerIds.split(',')) place(Number(id), host.querySelector(`[data-testid="broker-${id}"]`));
      place(PRODUCERS, host.querySelector('[data-testid="producers-node"]'));
      place(CONSUMERS, host.querySelector('[data-testid="consumers-node"]'));
      const buttons: Box[] = [];
      for (const el of host.querySelectorAll('button, select, input, a[href], [role="button"]')) {
        const r = el.getBoundingClientRect();
        if (r.width === 0 && r.height === 0) continue;
        buttons.push({
          left: r.left - origin.left,
          right: r.right - origin.left,
          top: r.top - origin.top,
          bottom: r.bottom - origin.top,
        });
      }
      setLayout((old) => (sameLayout(old, next, buttons) ? old : { anchors: next, buttons }));
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    // A card moves when anything above it changes size (the legends gain a line as new APIs
    // appear) while the board keeps its height (the grid stretches it to the side column's):
    // observing the board alone left the anchors a legend line off. Every child of the board,
    // and every card, is watched.
    const observer = new ResizeObserver(measure);
    observer.observe(host);
    for (const el of host.children) observer.observe(el);
    for (const el of host.querySelectorAll('article.broker')) observer.observe(el);
    return () => observer.disconnect();
  }, [brokerIds, brokerStates, hasMessages]);
  // Where each token flies: its lane, or the chip it joined when every lane was taken (tokenLanes.ts).
  const flights: Flight[] = [];
  const ends = new Map<number, { a: Point; b: Point }>();
  for (const m of live) {
    const b = shifted(layout.anchors.get(endpoint(m.to, m.client, consumers)), m.kind);
    const from = shifted(layout.anchors.get(endpoint(m.from, m.client, consumers)), m.kind);
    const slot = slots.slots.get(m.id);
    if (!from || !b || !slot) continue;
    const a = routeStart(from, b, m.api, layout.buttons);
    ends.set(m.id, { a, b });
    flights.push(flightOf(String(m.id), slot, a, b, m.api));
  }
  placed.current = placeFlights(flights, placed.current, LANES);
  const joined = joinedChips(live, (m) => String(m.id), placed.current);
  return (
    <div className="message-layer" ref={layer} aria-hidden="true">
      {live.map((m) => {
        const e = ends.get(m.id);
        const place = placed.current.get(String(m.id));
        if (!e || !place || !('lane' in place)) return null;
        const dy = LANES[place.lane] ?? 0;
        const b = { x: e.b.x, y: e.b.y + dy };
        // Another lane is another path: it must not cross a control either.
        const a = dy === 0 ? e.a : routeStart({ x: e.a.x, y: e.a.y + dy }, b, m.api, layout.buttons);
        const delay = delays.get(m.id) ?? 0;
        const group = [m, ...(joined.get(String(m.id)) ?? [])];
        const style = {
          '--x0': `${a.x.toFixed(1)}px`,
          '--y0': `${a.y.toFixed(1)}px`,
          '--x1': `${b.x.toFixed(1)}px`,
          '--y1': `${b.y.toFixed(1)}px`,
          animationDuration: `${REPLAY_MS}ms`,
          animationDelay: `${delay}ms`,
          '--api-colour': apiColour(m.api),
        } as CSSProperties;
        const title = group
          .map((g) => {
            const flight = g.arriveAtMs - g.sentAtMs;
            const route = `${endName(g.from, g.client)} → ${endName(g.to, g.client)}`;
            const what = carried(g);
            return `${g.api} ${g.kind}: ${route}${what ? `, carrying ${what}` : ''}; sent at ${g.sentAtMs} ms, arrived ${flight} ms later (engine time); drawn ×${Math.round(slowdown(g, speed))} slower`;
          })
          .join('\n');
        return (
          <span
            key={m.id}
            data-token-key={m.id}
            className={`message-token message-${m.kind} api-${m.api.toLowerCase()}`}
            data-testid={tokenId(m)}
            data-kind={m.kind}
            data-api={m.api}
            data-from={m.from ?? ''}
            data-to={m.to ?? ''}
            data-sent-at={m.sentAtMs}
            data-arrive-at={m.arriveAtMs}
            data-slowed={Math.round(slowdown(m, speed))}
            data-lane={place.lane}
            data-count={group.length}
            data-apis={group.map((g) => g.api).join(' ')}
            data-tos={group.map((g) => g.to ?? '').join(' ')}
            data-froms={group.map((g) => g.from ?? '').join(' ')}
            data-kinds={group.map((g) => g.kind).join(' ')}
            title={title}
            style={style}
          >
            {groupLabel(group.map((g) => g.api))}
          </span>
        );
      })}
    </div>
  );
}

/**
 * One lane, on the cards' top edges: a second one above would leave the board's box, one below
 * would cover the card's header and its glossary buttons. A token that would cover another joins
 * its chip (labelled with the count).
 */
const LANES = [0];

/** Requests ride left of a card's anchor and responses right of it, so a pair never hides each other. */
const KIND_SHIFT_PX = 30;

function shifted(p: Point | undefined, kind: BoardMessageView['kind']): Point | undefined {
  if (!p) return undefined;
  return { x: p.x + (kind === 'request' ? -KIND_SHIFT_PX : KIND_SHIFT_PX), y: p.y };
}

function sameLayout(old: Layout, anchors: ReadonlyMap<number, Point>, buttons: readonly Box[]): boolean {
  if (old.anchors.size !== anchors.size || old.buttons.length !== buttons.length) return false;
  for (const [id, p] of anchors) {
    const q = old.anchors.get(id);
    if (!q || Math.abs(q.x - p.x) > 0.5 || Math.abs(q.y - p.y) > 0.5) return false;
  }
  return buttons.every((k, i) => {
    const o = old.buttons[i];
    return o !== undefined && Math.abs(o.left - k.left) <= 0.5 && Math.abs(o.top - k.top) <= 0.5;
  });
}
