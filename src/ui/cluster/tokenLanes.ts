/**
 * Where tokens fly so no two labels overlap (pure geometry and time; the layers measure the
 * anchors). A token is a chip moving in a straight line from x0 to x1 between its start and its
 * landing. Two tokens in flight at the same time whose chips would come closer than their widths
 * take different lanes (a lane is a fixed vertical offset); a token that finds every lane taken
 * joins the chip it would have covered — one chip labelled with the count ("Fetch ×3"), naming all
 * the records it carries — so when more than a few fly at once they are grouped, never piled up.
 *
 * Placements are sticky: a token keeps the lane (or the chip) it was first given for its whole
 * flight (its slot's times never move: useTokenDelays starts it on them), so a new view never
 * moves a token already on its way.
 */

/** A token chip's size on screen (CSS .row-token / .message-token: 11 px labels, 15 px high): height, width per character. */
export const CHIP_H = 15;
const CHIP_PAD_W = 12;
const CHIP_CHAR_W = 6.8;
/** Room kept clear between two chips (px): a busy page starts a token a little off its planned time. */
const CLEAR_PX = 10;
/** Instants compared along two flights' common time. */
const SAMPLES = 16;

/** A chip's width for `label`, with room for a count (" ×9") it may get. */
export function chipWidth(label: string): number {
  return CHIP_PAD_W + CHIP_CHAR_W * (label.length + 3);
}

/** A flight for `id` along a → b at its slot's times, sized for `api`'s label. */
export function flightOf(
  id: string,
  slot: { startsAt: number; landsAt: number },
  a: { x: number; y: number },
  b: { x: number; y: number },
  api: string,
): Flight {
  return {
    id,
    to: `${Math.round(b.x)},${Math.round(b.y)}`,
    startsAt: slot.startsAt,
    landsAt: slot.landsAt,
    x0: a.x,
    y0: a.y,
    x1: b.x,
    y1: b.y,
    width: chipWidth(api),
  };
}

export interface Flight {
  id: string;
  /** Where it goes (a card, a cell): a token that must join a chip joins one going there if it can. */
  to?: string;
  /** Wall ms it leaves and lands. */
  startsAt: number;
  landsAt: number;
  /** Where it leaves and lands (before its lane's offset). */
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  width: number;
}

export type Placement = { lane: number } | { into: string };

/** The share of its flight a chip takes to reach its receiver (the keyframes' 92%), then rests there till it lands. */
const ARRIVES_AT = 0.92;

function at(f: Flight, t: number): { x: number; y: number } {
  const span = (f.landsAt - f.startsAt) * ARRIVES_AT;
  const k = span <= 0 ? 1 : Math.min(1, Math.max(0, (t - f.startsAt) / span));
  return { x: f.x0 + (f.x1 - f.x0) * k, y: f.y0 + (f.y1 - f.y0) * k };
}

/** Whether two flights' chips, shifted down by `da` and `db` px (their lanes), ever come closer than their sizes. */
export function collide(a: Flight, b: Flight, da = 0, db = 0): boolean {
  const from = Math.max(a.startsAt, b.startsAt);
  const to = Math.min(a.landsAt, b.landsAt);
  if (from > to) return false;
  const room = (a.width + b.width) / 2 + CLEAR_PX;
  // Paths whose boxes never come that close cannot meet (most pairs on a board): no sampling.
  const gapX = Math.max(Math.min(a.x0, a.x1) - Math.max(b.x0, b.x1), Math.min(b.x0, b.x1) - Math.max(a.x0, a.x1));
  const gapY = Math.max(
    Math.min(a.y0, a.y1) + da - Math.max(b.y0, b.y1) - db,
    Math.min(b.y0, b.y1) + db - Math.max(a.y0, a.y1) - da,
  );
  if (gapX >= room || gapY >= CHIP_H + 2) return false;
  for (let i = 0; i <= SAMPLES; i++) {
    const t = from + ((to - from) * i) / SAMPLES;
    const p = at(a, t);
    const q = at(b, t);
    if (Math.abs(p.x - q.x) < room && Math.abs(p.y + da - q.y - db) < CHIP_H + 2) return true;
  }
  return false;
}

/**
 * Places `flights` (every token drawn now) in lanes (`lanes`: each lane's vertical offset, px):
 * those `before` placed keep their placement; each new one, in the order they leave, takes the
 * first lane where it meets no chip (in any lane: the lanes of neighbouring paths are close),
 * else joins the first chip it would meet. A token whose chip is no longer drawn is placed anew.
 * Returns the placements of the flights given.
 */
export function placeFlights(
  flights: readonly Flight[],
  before: ReadonlyMap<string, Placement>,
  lanes: readonly number[],
): Map<string, Placement> {
  const out = new Map<string, Placement>();
  const byId = new Map(flights.map((f) => [f.id, f]));
  const drawn: { f: Flight; lane: number }[] = [];
  for (const f of flights) {
    const p = before.get(f.id);
    if (!p || ('into' in p && !byId.has(p.into))) continue;
    out.set(f.id, p);
    if ('lane' in p) drawn.push({ f, lane: p.lane });
  }
  const fresh = flights.filter((f) => !out.has(f.id)).sort((a, b) => a.startsAt - b.startsAt);
  for (const f of fresh) {
    let placed: Placement | null = null;
    const hits: Flight[] = [];
    for (let lane = 0; lane < lanes.length && placed === null; lane++) {
      const dy = lanes[lane] ?? 0;
      const hit = drawn.filter((d) => collide(d.f, f, lanes[d.lane] ?? 0, dy));
      if (hit.length === 0) placed = { lane };
      else hits.push(...hit.map((d) => d.f));
    }
    // Every lane taken: it joins a chip it would cover, one going where it goes if there is one.
    if (placed === null)
      placed = { into: (hits.find((h) => h.to !== undefined && h.to === f.to) ?? hits[0])?.id ?? '' };
    out.set(f.id, placed);
    if ('lane' in placed) drawn.push({ f, lane: placed.lane });
  }
  return out;
}

/** The controller's requests: a group chip carrying one is named by it (an election is what to see). */
const NAMED_FIRST = ['LeaderAndIsr', 'StopReplica', 'UpdateMetadata'];

/**
 * What a group chip says: one API's name with the count ("Fetch ×3"), or one API's and how many
 * more ("LeaderAndIsr +1": the controller's request if it carries one, else the first).
 */
export function groupLabel(apis: readonly string[]): string {
  if (apis.length <= 1) return apis[0] ?? '';
  if (apis.every((a) => a === apis[0])) return `${apis[0]} ×${apis.length}`;
  const named = NAMED_FIRST.find((a) => apis.includes(a)) ?? apis[0];
  return `${named} +${apis.length - 1}`;
}

/** The tokens that joined each chip, by the chip's id. */
export function joinedChips<T>(
  tokens: readonly T[],
  idOf: (t: T) => string,
  placed: ReadonlyMap<string, Placement>,
): Map<string, T[]> {
  const joined = new Map<string, T[]>();
  for (const t of tokens) {
    const p = placed.get(idOf(t));
    if (p && 'into' in p) joined.set(p.into, [...(joined.get(p.into) ?? []), t]);
  }
  return joined;
}
