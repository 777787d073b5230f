/**
 * Replication travelling along the partition rows of the glance (PartitionGlance): each message
 * that changed one of the shown topic's replicas is a token in that partition's row, from its
 * sender's cell to its receiver's — a Produce from the row's name (the producer's side) to the
 * leader's cell, a Fetch response from the leader's cell to a follower's, a follower's Fetch
 * request back to the leader's. Times are the shared schedule's (cluster/tokenSchedule.ts), so a
 * cell's LEO or HW changes exactly when its token lands (cluster/partitionTimeline.ts).
 *
 * Drawn only while the tokens play in step (playing, at most MAX_HOLD_SPEED, the live run shown):
 * otherwise the cells show the engine's state and no token pretends to carry it. A CSS transform
 * animation moves each token (the compositor's work, not React's); the cells are measured when
 * the table changes size, never per view.
 */
import { type CSSProperties, useLayoutEffect, useRef, useState } from 'react';
import type { BoardMessageView } from '../../engine/apps/types';
import { tokenSchedule } from '../cluster/replicationHold';
import { apiColour } from '../cluster/requestApis';
import { type Flight, flightOf, groupLabel, joinedChips, type Placement, placeFlights } from '../cluster/tokenLanes';
import { tokenTitle } from '../cluster/tokenRecords';
import { flying } from '../cluster/tokenSchedule';
import { useTokenDelays } from '../cluster/useTokenDelays';
import { REPLAY_MS } from '../time/pacing';
import { useUi } from '../store';

interface Point {
  x: number;
  y: number;
}

/** Cell centres by `<partition>/<broker>`, and each row's name cell by `<partition>/name`. */
type Anchors = ReadonlyMap<string, Point>;

/** The path: tokens ride the gap above their row's cells (styles.css .glance-table), clear of the numbers. */
const LANE_ABOVE_PX = 4;
/**
 * Two lanes per row (offsets from the path, px): a token that would cover another takes the
 * other lane, and one that finds both taken joins the chip it would cover (tokenLanes.ts).
 */
const LANES = [-9, 9];

interface RowToken {
  id: string;
  message: BoardMessageView;
  partition: number;
}

export function RowTokens({ topic }: { topic: string }) {
  const layer = useRef<HTMLDivElement>(null);
  // The hold's messages: the view's, and those gone from it whose tokens are still flying.
  const messages = useUi((s) => s.replication.messages);
  const inStep = useUi((s) => s.replication.inStep);
  const [anchors, setAnchors] = useState<Anchors>(new Map());
  const now = performance.now();
  const slots = tokenSchedule();
  const tokens: RowToken[] = [];
  if (inStep) {
    for (const m of messages) {
      if (!m.effects) continue;
      const slot = slots.slots.get(m.id);
      if (!slot?.inStep || !flying(slot, now)) continue;
      const partitions = new Set<number>();
      for (const e of m.effects) if (e.topic === topic) partitions.add(e.partition);
      for (const p of partitions) tokens.push({ id: `${m.id}/${p}`, message: m, partition: p });
    }
  }
  const delays = useTokenDelays(
    tokens.map((t) => ({ key: t.id, messageId: t.message.id })),
    now,
    layer,
  );
  const rows = messages.length > 0 ? 1 : 0;
  // Measuring forces a layout: only when the table changes size (a new row, a wider number), never per view.
  useLayoutEffect(() => {
    const host = layer.current?.parentElement;
    const table = host?.querySelector('table');
    if (!host || !table || rows === 0) return;
    const measure = () => {
      const origin = host.getBoundingClientRect();
      const next = new Map<string, Point>();
      const cells = `[data-testid^="glance-replica-${topic}-"], [data-testid^="glance-name-${topic}-"]`;
      for (const el of host.querySelectorAll<HTMLElement>(cells)) {
        const r = el.getBoundingClientRect();
        const id = el.dataset.testid ?? '';
        const parts = id.split('-');
        const isName = id.startsWith('glance-name-');
        // glance-replica-<topic>-<p>-<broker> / glance-name-<topic>-<p> (a topic name may hold dashes).
        const key = isName
          ? `${parts[parts.length - 1]}/name`
          : `${parts[parts.length - 2]}/${parts[parts.length - 1]}`;
        next.set(key, {
          x: r.left - origin.left + host.scrollLeft + (isName ? r.width - 8 : r.width / 2),
          y: r.top - origin.top + host.scrollTop - LANE_ABOVE_PX,
        });
      }
      setAnchors(next);
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(table);
    return () => observer.disconnect();
  }, [rows, topic]);
  // Where each token flies: its lane, or the chip it joined (kept for its whole flight).
  const placed = useRef(new Map<string, Placement>());
  const flights: Flight[] = [];
  for (const t of tokens) {
    const m = t.message;
    const from = anchors.get(m.from === null ? `${t.partition}/name` : `${t.partition}/${m.from}`);
    const to = anchors.get(`${t.partition}/${m.to}`);
    const slot = slots.slots.get(m.id);
    if (!from || !to || !slot) continue;
    flights.push(flightOf(t.id, slot, from, to, m.api));
  }
  placed.current = placeFlights(flights, placed.current, LANES);
  const joined = joinedChips(tokens, (t) => t.id, placed.current);
  const byId = new Map(flights.map((f) => [f.id, f]));
  return (
    <div className="row-token-layer" ref={layer} aria-hidden="true">
      {tokens.map((t) => {
        const { id, message: m, partition: p } = t;
        const f = byId.get(id);
        const place = placed.current.get(id);
        const slot = slots.slots.get(m.id);
        if (!f || !place || !('lane' in place) || !slot) return null;
        const dy = LANES[place.lane] ?? 0;
        const group = [t, ...(joined.get(id) ?? [])];
        const style = {
          '--x0': `${f.x0.toFixed(1)}px`,
          '--y0': `${(f.y0 + dy).toFixed(1)}px`,
          '--x1': `${f.x1.toFixed(1)}px`,
          '--y1': `${(f.y1 + dy).toFixed(1)}px`,
          animationDuration: `${REPLAY_MS}ms`,
          animationDelay: `${delays.get(id) ?? 0}ms`,
          '--api-colour': apiColour(m.api),
        } as CSSProperties;
        const route = (x: BoardMessageView) =>
          `${x.from === null ? (x.client ?? 'the producer') : `broker ${x.from}`} → broker ${x.to}`;
        return (
          <span
            key={id}
            data-token-key={id}
            className={`row-token message-${m.kind}`}
            data-testid={`row-token-${m.api.toLowerCase()}-${m.kind}-${topic}-${p}`}
            data-api={m.api}
            data-kind={m.kind}
            data-from={m.from ?? ''}
            data-to={m.to ?? ''}
            data-lands-at={Math.round(slot.landsAt)}
            data-lane={place.lane}
            data-count={group.length}
            data-changes={group
              .flatMap((g) => g.message.effects ?? [])
              .filter((e) => e.topic === topic && e.partition === p)
              .map((e) => `${e.field}:${e.broker}:${e.to}`)
              .join(' ')}
            title={group.map((g) => tokenTitle(g.message, route(g.message), topic, p)).join('\n')}
            style={style}
          >
            {groupLabel(group.map((g) => g.message.api))}
          </span>
        );
      })}
    </div>
  );
}
