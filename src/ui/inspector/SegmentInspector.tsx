import { useEffect, useState } from 'react';
import type { BatchDump, SegmentDump } from '../../worker/protocol';
import { formatBytes, formatCount } from '../log/format';
import type { Session } from '../session';
import { uiStore, useUi } from '../store';
import { useStoreName } from '../log/storeName';

/**
 * One segment's three files, read the way `kafka-dump-log.sh --files` reads them: each batch with
 * its header fields, a hex view of a batch's bytes with the 61-byte header labelled, and the
 * `.index` / `.timeindex` entries (choosing an index entry highlights the batch it points at).
 */
export function SegmentInspector({ session }: { session: Session }) {
  const store = useStoreName();
  const target = useUi((s) => s.inspect);
  const version = useUi((s) => s.view?.version ?? 0);
  const [dump, setDump] = useState<SegmentDump | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [tab, setTab] = useState<'batches' | 'hex' | 'index'>('batches');

  // Refresh when the target changes, and (for the active segment) as the log grows, at most 4x a second.
  const [tick, setTick] = useState(0);
  useEffect(() => {
    const t = setInterval(() => setTick((n) => n + 1), 250);
    return () => clearInterval(t);
  }, []);
  const refreshKey = dump?.active ? `${version}:${tick}` : '';
  // biome-ignore lint/correctness/useExhaustiveDependencies: refreshKey re-reads an active segment as it grows
  useEffect(() => {
    if (!target) return;
    let live = true;
    session
      .call('segment', { topic: target.topic, partition: target.partition, baseOffset: target.baseOffset })
      .then((d) => {
        if (live) {
          setDump(d);
          setError(null);
        }
      })
      .catch((e: unknown) => live && setError(e instanceof Error ? e.message : String(e)));
    return () => {
      live = false;
    };
  }, [session, target, refreshKey]);

  if (!target) {
    return (
      <p className="muted" data-testid="inspector-empty">
        Choose a segment file or a record in a partition log to inspect its <code>.log</code>, <code>.index</code> and{' '}
        <code>.timeindex</code>.
      </p>
    );
  }
  if (error) return <p className="inline-error">{error}</p>;
  if (!dump) return <p className="muted">Reading the segment…</p>;

  const selectedPosition = target.batchPosition ?? dump.batches[0]?.position ?? null;
  const selectBatch = (position: number) =>
    uiStore.setState((s) => (s.inspect ? { inspect: { ...s.inspect, batchPosition: position } } : {}));
  const selected = dump.batches.find((b) => b.position === selectedPosition) ?? null;
  const flushedPct = dump.logBytes === 0 ? 100 : (dump.flushedBytes / dump.logBytes) * 100;
  const durablePct = dump.logBytes === 0 ? 100 : (dump.durableBytes / dump.logBytes) * 100;

  return (
    <section className="inspector" aria-label="Segment inspector" data-testid="segment-inspector">
      <header className="inspector-head">
        <h3 className="mono">
          {dump.topic}-{dump.partition}/{dump.files[0]?.name}
          {dump.active && <span className="tag tag-active">active</span>}
        </h3>
        <ul className="file-sizes">
          {dump.files.map((f) => (
            <li key={f.name}>
              <code>{f.name}</code> <span className="muted">{formatBytes(f.bytes)}</span>
            </li>
          ))}
        </ul>
        <div
          className="flush-bar"
          data-testid="inspector-save-bar"
          data-durable-bytes={dump.durableBytes}
          data-flushed-bytes={dump.flushedBytes}
          title={`Bytes of the .log saved to ${store} (write complete), flushed and still writing, and only in memory (the page cache)`}
        >
          <div className="flush-bar-writing" style={{ width: `${flushedPct}%` }} />
          <div className="flush-bar-flushed" style={{ width: `${durablePct}%` }} />
        </div>
        <p className="flush-legend">
          <span className="dot dot-flushed" /> {formatBytes(dump.durableBytes)} saved to {store}{' '}
          <span className="dot dot-writing" /> {formatBytes(dump.flushedBytes - dump.durableBytes)} writing{' '}
          <span className="dot dot-unflushed" /> {formatBytes(dump.logBytes - dump.flushedBytes)} only in memory
        </p>
      </header>
      <div className="subtabs" role="tablist" aria-label="Segment views">
        {(['batches', 'hex', 'index'] as const).map((t) => (
          <button
            key={t}
            type="button"
            role="tab"
            aria-selected={tab === t}
            className={`subtab${tab === t ? ' selected' : ''}`}
            data-testid={`inspector-tab-${t}`}
            onClick={() => setTab(t)}
          >
            {t === 'batches' ? 'dump-log' : t === 'hex' ? 'hex' : '.index / .timeindex'}
          </button>
        ))}
      </div>
      {tab === 'batches' && (
        <BatchList
          batches={dump.batches}
          selected={selectedPosition}
          onSelect={selectBatch}
          truncated={dump.truncated}
        />
      )}
      {tab === 'hex' && (selected ? <HexView batch={selected} /> : <p className="muted">The segment is empty.</p>)}
      {tab === 'index' && (
        <IndexList
          dump={dump}
          selected={selectedPosition}
          onSelect={(position) => {
            selectBatch(position);
            setTab('batches');
          }}
        />
      )}
    </section>
  );
}

function BatchList({
  batches,
  selected,
  onSelect,
  truncated,
}: {
  batches: BatchDump[];
  selected: number | null;
  onSelect: (position: number) => void;
  truncated: boolean;
}) {
  if (batches.length === 0) return <p className="muted">No batches yet.</p>;
  return (
    <div className="dump">
      {batches.map((b) => (
        <div
          key={b.position}
          className={`dump-batch${b.position === selected ? ' selected' : ''}`}
          data-testid={`dump-batch-${b.position}`}
          data-selected={b.position === selected}
          ref={b.position === selected ? scrollIntoView : undefined}
        >
          <button type="button" className="dump-line mono" onClick={() => onSelect(b.position)}>
            {b.line}
          </button>
          {b.position === selected && (
            <ul className="dump-records mono">
              {b.records.map((r) => (
                <li key={r.offset}>
                  | offset: {r.offset} CreateTime: {r.timestamp} keySize: {r.keySize} valueSize: {r.valueSize} key:{' '}
                  {r.key ?? 'null'} payload: {r.value ?? 'null'}
                  {r.headers ? ` headers: ${r.headers}` : ''}
                </li>
              ))}
            </ul>
          )}
        </div>
      ))}
      {truncated && <p className="muted">Only the first batches are shown.</p>}
    </div>
  );
}

function scrollIntoView(el: HTMLElement | null) {
  el?.scrollIntoView({ block: 'nearest' });
}

const FIELD_CLASSES = ['f0', 'f1', 'f2', 'f3', 'f4', 'f5'];

/** 16 bytes a row; each header byte coloured by its field, the field's name and value in a legend. */
function HexView({ batch }: { batch: BatchDump }) {
  const [hover, setHover] = useState<string | null>(null);
  const fieldAt: (string | null)[] = [];
  batch.fields.forEach((f) => {
    for (let i = f.start; i < f.start + f.size; i++) fieldAt[i] = f.name;
  });
  const classOf = new Map(batch.fields.map((f, i) => [f.name, FIELD_CLASSES[i % FIELD_CLASSES.length]]));
  const rows: number[] = [];
  for (let i = 0; i < batch.bytes.length; i += 16) rows.push(i);
  return (
    <div className="hex">
      <p className="muted">
        Batch at position {formatCount(batch.position)} ({formatCount(batch.size)} bytes
        {batch.bytes.length < batch.size ? `, first ${batch.bytes.length} shown` : ''}). Offsets are relative to the
        batch.
      </p>
      {/* The bytes are a picture; the field table below says the same in words. */}
      <div className="hex-grid mono" aria-hidden="true" data-testid="hex-view">
        {rows.map((row) => (
          <div className="hex-row" key={row}>
            <span className="hex-addr">{(batch.position + row).toString(16).padStart(6, '0')}</span>
            {Array.from({ length: Math.min(16, batch.bytes.length - row) }, (_, j) => {
              const i = row + j;
              const field = fieldAt[i] ?? null;
              const cls = field ? classOf.get(field) : 'rec';
              return (
                // biome-ignore lint/a11y/noStaticElementInteractions: a pointer-only highlight; the field table says the same in words
                <span
                  key={i}
                  className={`hex-byte ${cls}${field && field === hover ? ' hover' : ''}`}
                  title={field ?? 'records'}
                  onMouseEnter={() => setHover(field)}
                >
                  {(batch.bytes[i] ?? 0).toString(16).padStart(2, '0')}
                </span>
              );
            })}
          </div>
        ))}
      </div>
      <table className="field-table">
        <thead>
          <tr>
            <th>bytes</th>
            <th>field</th>
            <th>value</th>
          </tr>
        </thead>
        <tbody>
          {batch.fields.map((f) => (
            <tr
              key={f.name}
              className={f.name === hover ? 'hover' : undefined}
              onMouseEnter={() => setHover(f.name)}
              onFocus={() => setHover(f.name)}
            >
              <td className="mono">
                <span className={`swatch ${classOf.get(f.name)}`} /> {f.start}–{f.start + f.size - 1}
              </td>
              <td className="mono">{f.name}</td>
              <td className="mono">{f.value}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function IndexList({
  dump,
  selected,
  onSelect,
}: {
  dump: SegmentDump;
  selected: number | null;
  onSelect: (position: number) => void;
}) {
  // An index entry points at a batch start; find which batch, to highlight it.
  const batchFor = (position: number) => dump.batches.find((b) => b.position === position) ?? null;
  return (
    <div className="index-lists">
      <h4>
        <code>{dump.files[1]?.name}</code> <span className="muted">{dump.index.length} entries, 8 bytes each</span>
      </h4>
      {dump.index.length === 0 && (
        <p className="muted">No entries yet: one is written per index.interval.bytes of appended data.</p>
      )}
      <ul className="index-entries mono">
        {dump.index.map((e) => {
          const b = batchFor(e.position);
          return (
            <li key={e.offset}>
              <button
                type="button"
                className={`index-entry${selected === e.position ? ' selected' : ''}`}
                data-testid={`index-entry-${e.offset}`}
                onClick={() => onSelect(e.position)}
              >
                offset: {e.offset} position: {e.position}
                {b && (
                  <span className="muted">
                    {' '}
                    → batch {b.baseOffset}–{b.lastOffset}
                  </span>
                )}
              </button>
            </li>
          );
        })}
      </ul>
      <h4>
        <code>{dump.files[2]?.name}</code> <span className="muted">{dump.timeIndex.length} entries, 12 bytes each</span>
      </h4>
      <ul className="index-entries mono">
        {dump.timeIndex.map((e) => (
          <li key={`${e.timestamp}-${e.offset}`}>
            timestamp: {e.timestamp} offset: {e.offset}
          </li>
        ))}
      </ul>
    </div>
  );
}
