/**
 * Kafka's replica placement, step by step, from the steps assignReplicasToBrokers returned:
 * brokers arranged (rack-alternated when racks count), the start index and replica shift, then
 * every partition's leader (round-robin) and its followers at the shifted distance, with
 * rack-skips shown. One sentence per step; step, play, or jump to the end.
 */
import { useEffect, useState } from 'react';
import type { PlacementStep } from '../../engine/apps/types';
import type { PlacementShow as Show } from './boardSlice';
import { setBoard, useBoard } from '../store';

const STEP_MS = 450;

export function describeStep(s: PlacementStep): string {
  switch (s.kind) {
    case 'arrangeBrokers':
      return s.rackAware
        ? `Brokers arranged rack by rack in turn: ${s.brokers.map((b, i) => `${b} (${s.racks[i]})`).join(', ')}.`
        : `Brokers sorted by id: ${s.brokers.join(', ')}.`;
    case 'start':
      return `Start index ${s.startIndex}, replica shift ${s.replicaShift}${s.random ? ' (drawn at random)' : ' (fixed)'}.`;
    case 'shiftReplicas':
      return `Partition ${s.partition} wraps around the broker list: the replica shift grows to ${s.replicaShift}.`;
    case 'leader':
      return `Partition ${s.partition}: leader (first replica) on broker ${s.broker}, list position ${s.index} = (partition + start index) mod n.`;
    case 'follower':
      return `Partition ${s.partition}: replica ${s.replica + 1} on broker ${s.broker}, ${s.shift} place${s.shift === 1 ? '' : 's'} after the leader.`;
    case 'skip':
      return `Partition ${s.partition}: broker ${s.broker} skipped — ${s.reason === 'rackAlreadyHasReplica' ? 'its rack already has a replica' : 'it already has a replica'}.`;
  }
}

export function PlacementShow() {
  const show = useBoard((s) => s.placement);
  if (!show) return null;
  return <PlacementRun key={`${show.title}|${show.source}`} show={show} />;
}

function PlacementRun({ show }: { show: Show }) {
  const [playing, setPlaying] = useState(true);
  const { steps } = show.preview;
  const shown = show.shown;
  useEffect(() => {
    if (!playing || shown >= steps.length) return;
    const t = setTimeout(() => setBoard({ placement: { ...show, shown: shown + 1 } }), STEP_MS);
    return () => clearTimeout(t);
  }, [playing, shown, steps.length, show]);
  const arrange = steps.find((s) => s.kind === 'arrangeBrokers');
  const order = arrange?.kind === 'arrangeBrokers' ? arrange.brokers : show.preview.brokers.map((b) => b.id);
  const rackOf = new Map(show.preview.brokers.map((b) => [b.id, b.rack]));
  // What each broker holds after the steps shown so far.
  const held = new Map<number, { partition: number; leader: boolean }[]>();
  let skip: number | null = null;
  for (const s of steps.slice(0, shown)) {
    skip = null;
    if (s.kind === 'leader' || s.kind === 'follower') {
      const list = held.get(s.broker) ?? [];
      list.push({ partition: s.partition, leader: s.kind === 'leader' });
      held.set(s.broker, list);
    } else if (s.kind === 'skip') skip = s.broker;
  }
  const current = shown > 0 ? steps[shown - 1] : undefined;
  return (
    <section
      className="placement"
      aria-label="Replica placement"
      data-testid="placement-show"
      data-step={shown}
      data-steps={steps.length}
    >
      <header className="panel-head">
        <h3>{show.title}</h3>
        <span className="muted small">
          step {shown} / {steps.length}
          {show.source === 'preview' ? ' · preview' : ''}
        </span>
      </header>
      <div className="placement-brokers">
        {order.map((b, i) => (
          <div
            key={b}
            className={`placement-broker${skip === b ? ' skipped' : ''}`}
            data-testid={`placement-broker-${b}`}
          >
            <div className="placement-broker-head">
              <strong>Broker {b}</strong>
              <span className="muted small">
                #{i}
                {rackOf.get(b) ? ` · ${rackOf.get(b)}` : ''}
              </span>
            </div>
            <ul className="placement-replicas">
              {(held.get(b) ?? []).map((r) => (
                <li key={`${r.partition}-${r.leader}`} className={r.leader ? 'leader' : 'follower'}>
                  p{r.partition}
                  {r.leader ? ' leader' : ''}
                </li>
              ))}
            </ul>
          </div>
        ))}
      </div>
      <p className="placement-sentence" aria-live="polite" data-testid="placement-sentence">
        {current ? describeStep(current) : 'Press play or step to place the replicas.'}
      </p>
      <div className="row">
        <button
          type="button"
          className="btn btn-xs"
          disabled={shown >= steps.length}
          data-testid="placement-step"
          onClick={() => {
            setPlaying(false);
            setBoard({ placement: { ...show, shown: Math.min(steps.length, shown + 1) } });
          }}
        >
          Step
        </button>
        <button
          type="button"
          className="btn btn-xs"
          onClick={() => setPlaying((p) => !p)}
          disabled={shown >= steps.length}
        >
          {playing ? 'Pause' : 'Play'}
        </button>
        <button
          type="button"
          className="btn btn-xs"
          data-testid="placement-end"
          onClick={() => setBoard({ placement: { ...show, shown: steps.length } })}
        >
          To the end
        </button>
        <button type="button" className="btn btn-xs" onClick={() => setBoard({ placement: null })}>
          Close
        </button>
      </div>
    </section>
  );
}
