import { scaleLinear } from 'd3';
import { useEffect, useRef, useState } from 'react';
import type { UiEvent } from '../../worker/protocol';
import { formatBytes } from '../log/format';
import type { Session } from '../session';
import { useUi } from '../store';

const MAX_LOG = 40;

/** One line of the sender's log, in words. */
function describeEvent(e: UiEvent): string | null {
  switch (e.type) {
    case 'recordAppended':
      return `record #${e.sendId} → ${e.topic}-${e.partition} batch ${e.batchId}${e.newBatch ? ' (new batch)' : ''}: ${e.batchRecords} records, ${formatBytes(e.batchBytes)}`;
    case 'batchSealed':
      return `batch ${e.batchId} of ${e.topic}-${e.partition} sealed (${e.reason === 'full' ? 'batch.size reached' : 'linger.ms passed'}): ${e.records} records, ${formatBytes(e.bytes)}`;
    case 'produceRequestSent':
      return `Produce request ${e.correlationId} to broker ${e.broker} (acks=${e.acks}): ${e.batches.map((b) => `${b.topic}-${b.partition}`).join(', ')}`;
    case 'produceResponseReceived':
      return `response ${e.correlationId} from broker ${e.broker}: ${e.partitions
        .map((p) => `${p.topic}-${p.partition} ${p.errorCode === 'NONE' ? `base offset ${p.baseOffset}` : p.errorCode}`)
        .join(', ')}`;
    case 'batchRetried':
      return `batch ${e.batchId} of ${e.topic}-${e.partition} will be retried (${e.error}, attempt ${e.attempt})`;
    case 'recordWaitingForMetadata':
      return `record #${e.sendId} waits for metadata of ${e.topic}`;
    default:
      return null;
  }
}

/**
 * The producer's RecordAccumulator: one queue of batches per partition, each batch filling up to
 * batch.size, sealed when full or when linger.ms has passed, and drained by the sender into
 * Produce requests to each partition's leader. Below, the sender's log of what just happened.
 */
export function AccumulatorPanel({ session }: { session: Session }) {
  const acc = useUi((s) => s.accumulator);
  const [log, setLog] = useState<{ id: number; text: string; kind: string }[]>([]);
  const nextId = useRef(1);
  const producer = acc?.producer;

  useEffect(
    () =>
      session.onEvents((events) => {
        const lines: { id: number; text: string; kind: string }[] = [];
        for (const e of events) {
          if (!('producer' in e) || (producer && e.producer !== producer)) continue;
          const text = describeEvent(e);
          if (text) lines.push({ id: nextId.current++, text, kind: e.type });
        }
        if (lines.length > 0) setLog((old) => [...lines.reverse(), ...old].slice(0, MAX_LOG));
      }),
    [session, producer],
  );

  if (!acc) return <p className="muted">Reading the accumulator…</p>;
  const batchSize = Math.max(1, acc.settings['batch.size']);
  const fill = scaleLinear().domain([0, batchSize]).range([0, 100]).clamp(true);
  return (
    <section className="accumulator" aria-label="Record accumulator" data-testid="accumulator">
      <p className="panel-intro">
        <code>send()</code> only appends to the last open batch of the record's partition. The sender takes batches that
        are full (<code>batch.size</code> = {formatBytes(batchSize)}) or old enough (<code>linger.ms</code> ={' '}
        {acc.settings['linger.ms']}) and sends them to each partition's leader with{' '}
        <code>acks={acc.settings.acks}</code>.
      </p>
      <dl className="acc-stats">
        <div>
          <dt>producer</dt>
          <dd className="mono">{acc.producer}</dd>
        </div>
        <div>
          <dt>acknowledged</dt>
          <dd className="mono" data-testid="acc-acked">
            {acc.acked}
          </dd>
        </div>
        <div>
          <dt>failed</dt>
          <dd className="mono">{acc.failed}</dd>
        </div>
      </dl>
      {acc.queues.length === 0 && <p className="muted">All queues are empty: every batch has been sent.</p>}
      <ul className="acc-queues">
        {acc.queues.map((q) => (
          <li
            key={`${q.topic}-${q.partition}`}
            className="acc-queue"
            data-testid={`acc-queue-${q.topic}-${q.partition}`}
          >
            <span className="mono acc-tp">
              {q.topic}-{q.partition}
            </span>
            <span className="acc-batches">
              {q.batches.map((b) => (
                <span
                  key={b.id}
                  className={`acc-batch state-${b.state}`}
                  title={`batch ${b.id}: ${b.records} records, ${formatBytes(b.bytes)} of ${formatBytes(batchSize)} (${b.state})`}
                >
                  <span className="acc-fill" style={{ width: `${fill(b.bytes)}%` }} />
                  <span className="acc-label mono">
                    {b.records} rec · {b.state}
                  </span>
                </span>
              ))}
            </span>
          </li>
        ))}
      </ul>
      <h4 className="acc-log-title">Sender log</h4>
      <ol className="acc-log mono" aria-live="off">
        {log.map((l) => (
          <li key={l.id} className={`acc-log-${l.kind}`}>
            {l.text}
          </li>
        ))}
      </ol>
    </section>
  );
}
