/**
 * The subscribed topic's partition logs as bars (log start to LEO, the HW marked), with every
 * group's committed offset and every consumer's position as markers: the gap between a
 * group's marker and the HW is its lag; a crashed consumer's partitions restart from the
 * committed marker (the seeds' duplicates), never from the position.
 */
import { scaleLinear } from 'd3';
import { useState } from 'react';
import type { BoardView } from '../../engine/apps/types';

const W = 420;

/** Partitions drawn before "show all". */
const FIRST = 24;

export function PositionsView({ view }: { view: BoardView }) {
  const [all, setAll] = useState(false);
  const topic = view.topics.find((t) => !t.internal && t.name === 'orders') ?? view.topics.find((t) => !t.internal);
  if (!topic) return null;
  const committed = new Map<string, { group: string; offset: number }[]>();
  for (const r of view.describe) {
    if (r.topic !== topic.name || r.currentOffset === null) continue;
    const list = committed.get(String(r.partition)) ?? [];
    list.push({ group: r.group, offset: r.currentOffset });
    committed.set(String(r.partition), list);
  }
  const positions = new Map<number, { name: string; position: number }[]>();
  for (const c of view.consumers) {
    if (c.lifecycle !== 'running') continue;
    for (const p of c.positions) {
      if (p.topic !== topic.name || p.position === null) continue;
      const list = positions.get(p.partition) ?? [];
      list.push({ name: c.name, position: p.position });
      positions.set(p.partition, list);
    }
  }
  return (
    <section className="positions" aria-label={`Consumer positions on ${topic.name}`}>
      <h3>Positions and committed offsets on {topic.name}</h3>
      {(all ? topic.partitions : topic.partitions.slice(0, FIRST)).map((p) => {
        const leader = p.replicaStates.find((r) => r.role === 'leader');
        const leo = leader?.logEndOffset ?? Math.max(0, ...p.replicaStates.map((r) => r.logEndOffset));
        const hw = leader?.highWatermark ?? 0;
        const x = scaleLinear()
          .domain([0, Math.max(1, leo)])
          .range([0, W - 10]);
        return (
          <div key={p.partition} className="position-row" data-testid={`positions-${topic.name}-${p.partition}`}>
            <span className="position-label">
              {topic.name}-{p.partition}
            </span>
            <svg width={W} height={30} role="img" aria-label={`${topic.name}-${p.partition}: LEO ${leo}, HW ${hw}`}>
              <rect x={0} y={10} width={x(leo)} height={10} className="log-bar" />
              <rect x={0} y={10} width={x(hw)} height={10} className="hw-bar" />
              {(committed.get(String(p.partition)) ?? []).map((c, i) => (
                <g key={c.group}>
                  <line x1={x(c.offset)} x2={x(c.offset)} y1={4} y2={26} className={`commit-mark commit-${i % 4}`} />
                  <title>{`${c.group} committed ${c.offset}`}</title>
                </g>
              ))}
              {(positions.get(p.partition) ?? []).map((c) => (
                <g
                  key={c.name}
                  data-testid={`position-${c.name}-${topic.name}-${p.partition}`}
                  data-position={c.position}
                >
                  <circle cx={x(c.position)} cy={15} r={3} className="position-mark" />
                  <title>{`${c.name} at position ${c.position}`}</title>
                </g>
              ))}
            </svg>
            <span className="muted small">
              HW {hw}
              {(committed.get(String(p.partition)) ?? []).map((c) => ` · ${c.group}@${c.offset}`).join('')}
            </span>
          </div>
        );
      })}
      {topic.partitions.length > FIRST && (
        <button type="button" className="btn btn-xs" onClick={() => setAll(!all)}>
          {all ? `Show the first ${FIRST}` : `Show all ${topic.partitions.length} partitions`}
        </button>
      )}
    </section>
  );
}
