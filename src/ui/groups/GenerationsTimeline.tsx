/**
 * A group's generations as swimlanes: one column per generation (d3.scaleBand), one lane per
 * consumer, each cell listing the partitions that member owned in that generation, with what
 * was revoked (struck through) and newly assigned (marked) against the previous generation.
 * A cooperative rebalance shows as two columns: the first only revokes, the second assigns.
 */
import { scaleBand } from 'd3';
import type { BoardGroupView } from '../../engine/apps/types';
import { formatClock } from '../time/formatClock';

const COL = 150;
const LANE = 46;
const HEAD = 34;
const LABEL = 70;

export function GenerationsTimeline({ group }: { group: BoardGroupView }) {
  const gens = group.generations.slice(-8);
  const names = [...new Set(gens.flatMap((g) => Object.keys(g.assignment)))].sort((a, b) =>
    a.localeCompare(b, 'en', { numeric: true }),
  );
  const x = scaleBand<number>()
    .domain(gens.map((g) => g.generation))
    .range([LABEL, LABEL + Math.max(1, gens.length) * COL])
    .paddingInner(0.08);
  const y = scaleBand<string>()
    .domain(names)
    .range([HEAD, HEAD + Math.max(1, names.length) * LANE])
    .paddingInner(0.1);
  const width = LABEL + Math.max(1, gens.length) * COL;
  const height = HEAD + Math.max(1, names.length) * LANE;
  return (
    <section
      className="timeline"
      aria-label={`Generations of ${group.groupId}`}
      data-testid={`timeline-${group.groupId}`}
    >
      <h3>Generations of {group.groupId}</h3>
      {gens.length === 0 ? (
        <p className="muted small">No generation completed yet.</p>
      ) : (
        <div className="timeline-scroll">
          <svg
            width={width}
            height={height}
            viewBox={`0 0 ${width} ${height}`}
            role="img"
            aria-label={`${gens.length} generations`}
          >
            {names.map((n) => (
              <text key={n} x={4} y={(y(n) ?? 0) + y.bandwidth() / 2 + 4} className="lane-label">
                {n}
              </text>
            ))}
            {gens.map((g, i) => {
              const prev = i > 0 ? gens[i - 1] : undefined;
              const prevOwner = new Map<string, string>();
              for (const [m, ps] of Object.entries(prev?.assignment ?? {})) for (const p of ps) prevOwner.set(p, m);
              const owned = new Set(Object.values(g.assignment).flat());
              const revokedOnly = prev !== undefined && [...prevOwner.keys()].some((p) => !owned.has(p));
              const gx = x(g.generation) ?? 0;
              return (
                <g key={g.generation} data-testid={`generation-${group.groupId}-${g.generation}`}>
                  <text x={gx + 4} y={14} className="gen-label">
                    gen {g.generation} · {g.protocol ?? '—'}
                  </text>
                  <text x={gx + 4} y={27} className="gen-sub">
                    {formatClock(g.atMs)}
                    {revokedOnly ? ' · revoke step' : ''}
                  </text>
                  {names.map((n) => {
                    const ps = g.assignment[n];
                    const before = prev?.assignment[n] ?? [];
                    const revoked = before.filter((p) => !(ps ?? []).includes(p));
                    const gy = y(n) ?? 0;
                    return (
                      <g key={n}>
                        <rect
                          x={gx}
                          y={gy}
                          width={x.bandwidth()}
                          height={y.bandwidth()}
                          rx={4}
                          className={ps === undefined ? 'cell-absent' : n === g.leader ? 'cell-leader' : 'cell'}
                        />
                        {ps !== undefined && (
                          <text x={gx + 4} y={gy + 15} className="cell-text">
                            {ps.length === 0
                              ? '(idle)'
                              : ps.map((p) => (
                                  <tspan key={p} className={before.includes(p) ? '' : 'assigned'}>
                                    {p.slice(p.lastIndexOf('-') + 1)}{' '}
                                  </tspan>
                                ))}
                          </text>
                        )}
                        {revoked.length > 0 && (
                          <text x={gx + 4} y={gy + 31} className="cell-revoked">
                            −{revoked.map((p) => p.slice(p.lastIndexOf('-') + 1)).join(' ')}
                          </text>
                        )}
                      </g>
                    );
                  })}
                </g>
              );
            })}
          </svg>
        </div>
      )}
      <p className="muted small">Numbers are partitions; new ones are marked, revoked ones follow a minus sign.</p>
    </section>
  );
}
