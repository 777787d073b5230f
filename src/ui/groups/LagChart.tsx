/**
 * Lag per partition over time (LOG-END-OFFSET − committed offset), one line per partition:
 * d3 computes the scales and the path strings, React draws the SVG.
 */
import { extent, line, max, scaleLinear, scaleOrdinal, schemeTableau10 } from 'd3';
import type { LagHistoryView, BoardGroupView } from '../../engine/apps/types';

/** The packed lag history as one (ms, lag) list per partition. */
function unpack(lag: LagHistoryView): { partition: string; history: [number, number][] }[] {
  return lag.partitions.map((partition, i) => {
    const history: [number, number][] = [];
    const end = lag.start[i + 1] ?? 0;
    for (let j = lag.start[i] ?? 0; j < end; j++) history.push([lag.data[2 * j] ?? 0, lag.data[2 * j + 1] ?? 0]);
    return { partition, history };
  });
}

const W = 320;
const H = 120;
const M = { l: 30, r: 8, t: 8, b: 18 };

export function LagChart({ group }: { group: BoardGroupView }) {
  const lags = unpack(group.lag);
  const all = lags.flatMap((l) => l.history);
  const [t0, t1] = extent(all, (d) => d[0]) as [number | undefined, number | undefined];
  const x = scaleLinear()
    .domain([t0 ?? 0, Math.max((t1 ?? 1) as number, (t0 ?? 0) + 1)])
    .range([M.l, W - M.r]);
  const y = scaleLinear()
    .domain([0, Math.max(1, max(all, (d) => d[1]) ?? 1)])
    .nice()
    .range([H - M.b, M.t]);
  const color = scaleOrdinal<string, string>(schemeTableau10).domain(lags.map((l) => l.partition));
  const path = line<[number, number]>()
    .x((d) => x(d[0]))
    .y((d) => y(d[1]));
  return (
    <section className="lag-chart" aria-label={`Lag of ${group.groupId}`}>
      <h3>Committed lag (HW − committed offset) of {group.groupId}</h3>
      <svg width={W} height={H} role="img" aria-label="Lag per partition over time">
        <line x1={M.l} x2={W - M.r} y1={H - M.b} y2={H - M.b} className="axis" />
        <text x={2} y={M.t + 8} className="axis-label">
          {y.domain()[1]}
        </text>
        <text x={2} y={H - M.b} className="axis-label">
          0
        </text>
        {lags.map((l) => (
          <path key={l.partition} d={path(l.history) ?? ''} fill="none" stroke={color(l.partition)} strokeWidth={1.5} />
        ))}
      </svg>
      <ul className="legend">
        {lags.map((l) => (
          <li key={l.partition}>
            <span className="swatch" style={{ background: color(l.partition) }} /> {l.partition}:{' '}
            {l.history[l.history.length - 1]?.[1] ?? 0}
          </li>
        ))}
      </ul>
    </section>
  );
}
