import { scaleLinear } from 'd3';
import { useEffect, useMemo, useState } from 'react';
import type { LookupStep, LookupView, PartitionView } from '../../worker/protocol';
import { errorText } from '../errorText';
import { checkLookupOffset, checkLookupTimestamp } from '../forms/validate';
import { formatCount } from '../log/format';
import type { Session } from '../session';
import { uiStore, useUi } from '../store';

const PLAY_INTERVAL_MS = 700;

/**
 * The offset lookup stepper: asks the engine to look up an offset (or a timestamp) and walks the
 * trace it returns — the floor search over segment base offsets, the index's warm-section check
 * and each probe of its binary search, each batch header read in the forward scan — one step at
 * a time, forwards and back. Steps not reached yet show only what kind they are, so stepping is a
 * prediction each time (a lesson opens the stepper part way through: lookHere.ts).
 */
export function LookupPanel({ session }: { session: Session }) {
  const partitions = useUi((s) => s.view?.partitions ?? []);
  const lookup = useUi((s) => s.lookup);
  const [topicPartition, setTopicPartition] = useState<string>('');
  const [mode, setMode] = useState<'offset' | 'timestamp'>('offset');
  const [target, setTarget] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [playing, setPlaying] = useState(false);

  // A lookup opened from elsewhere (a lesson) shows its own partition and target in the form.
  const shownView = lookup?.view ?? null;
  useEffect(() => {
    if (!shownView) return;
    setTopicPartition(`${shownView.topic}-${shownView.partition}`);
    setMode(shownView.target.kind);
    setTarget(String(shownView.target.value));
  }, [shownView]);
  const chosen = partitions.find((p) => p.dir === topicPartition) ?? partitions.find((p) => !p.topic.startsWith('__'));
  const steps = lookup?.view.steps ?? [];
  const at = lookup?.step ?? -1;
  const done = lookup !== null && at >= steps.length - 1;

  useEffect(() => {
    if (!playing) return;
    if (done) {
      setPlaying(false);
      return;
    }
    const t = setTimeout(() => stepTo(at + 1), PLAY_INTERVAL_MS);
    return () => clearTimeout(t);
  }, [playing, at, done]);

  async function run(topic: string, partition: number, value: number, kind: 'offset' | 'timestamp') {
    setError(null);
    setPlaying(false);
    // A new lookup clears the last answer at once, so an old result never stands for the new offset.
    uiStore.setState({ lookup: null });
    try {
      const view = await session.call(
        'lookup',
        kind === 'offset' ? { topic, partition, offset: value } : { topic, partition, timestamp: value },
      );
      uiStore.setState({ lookup: { view, step: 0 } });
    } catch (e) {
      setError(errorText(e));
    }
  }

  async function preset() {
    setError(null);
    try {
      const p = await session.call('seedsLookupPreset', null);
      setTopicPartition(`${p.topic}-${p.partition}`);
      setMode('offset');
      setTarget(String(p.offset));
      uiStore.setState({ selectedTopic: p.topic });
      await run(p.topic, p.partition, p.offset, 'offset');
    } catch (e) {
      setError(errorText(e));
    }
  }

  return (
    <section className="lookup" aria-label="Offset lookup" data-testid="lookup-panel">
      <p className="panel-intro">
        How a broker finds an offset: pick the segment by its file name, search its sparse <code>.index</code> (Kafka
        first checks the start of the index’s warm section, its last 8 KiB, then binary-searches what is left), then
        scan the <code>.log</code> forward from the byte position found.
      </p>
      <form
        className="form-grid"
        // The page's own checks (forms/validate) say what is wrong; the browser's would block silently.
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          if (!chosen) {
            setError('UNKNOWN_TOPIC_OR_PARTITION: Choose a partition to look in.');
            return;
          }
          const checked = mode === 'offset' ? checkLookupOffset(target) : checkLookupTimestamp(target);
          if (!checked.ok) {
            setError(checked.message);
            return;
          }
          void run(chosen.topic, chosen.partition, checked.value, mode);
        }}
      >
        <label className="field">
          <span>Partition</span>
          <select
            className="select"
            data-testid="lookup-partition"
            value={chosen?.dir ?? ''}
            onChange={(e) => setTopicPartition(e.target.value)}
          >
            {partitions.map((p) => (
              <option key={p.dir} value={p.dir}>
                {p.dir} (offsets {p.logStartOffset} to {Math.max(p.logStartOffset, p.logEndOffset - 1)})
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>Find by</span>
          <select className="select" value={mode} onChange={(e) => setMode(e.target.value as 'offset' | 'timestamp')}>
            <option value="offset">offset</option>
            <option value="timestamp">timestamp (.timeindex)</option>
          </select>
        </label>
        <label className="field">
          <span>{mode === 'offset' ? 'Offset' : 'Timestamp (ms)'}</span>
          <input
            className="input mono"
            data-testid="lookup-offset"
            inputMode="numeric"
            value={target}
            onChange={(e) => setTarget(e.target.value)}
          />
        </label>
        <div className="form-actions">
          <button type="submit" className="btn btn-primary" data-testid="lookup-run">
            Look up
          </button>
          <button type="button" className="btn" data-testid="lookup-preset" onClick={() => void preset()}>
            Seeds' example: 170418
          </button>
        </div>
      </form>
      {error && (
        <p className="inline-error" role="alert" data-testid="lookup-error">
          {error}
        </p>
      )}
      {lookup && (
        <>
          <fieldset className="stepper-controls" aria-label="Lookup steps">
            <button
              type="button"
              className="btn"
              data-testid="lookup-back"
              disabled={at <= 0}
              onClick={() => {
                setPlaying(false);
                stepTo(at - 1);
              }}
            >
              Back
            </button>
            <button
              type="button"
              className="btn"
              data-testid="lookup-step"
              disabled={done}
              onClick={() => {
                setPlaying(false);
                stepTo(at + 1);
              }}
            >
              Step
            </button>
            <button
              type="button"
              className="btn"
              data-testid="lookup-play"
              aria-pressed={playing}
              onClick={() => {
                if (done) stepTo(0);
                setPlaying(!playing || done);
              }}
            >
              {playing ? 'Pause' : done ? 'Replay' : 'Play'}
            </button>
            <span className="muted step-count" data-testid="lookup-step-index" aria-live="polite">
              step {at + 1} of {steps.length}
            </span>
          </fieldset>
          <p className="step-explanation" data-testid="lookup-explanation" aria-live="polite">
            {steps[at]?.explanation}
          </p>
          <LookupDrawing
            view={lookup.view}
            at={at}
            partition={partitions.find((p) => p.dir === `${lookup.view.topic}-${lookup.view.partition}`)}
          />
          <ol className="step-list">
            {steps.map((s, i) => (
              <li
                // biome-ignore lint/suspicious/noArrayIndexKey: steps are a fixed sequence
                key={i}
                className={i === at ? 'current' : i < at ? 'past' : 'future'}
                data-testid={`lookup-trace-step-${i}`}
                data-kind={s.kind}
              >
                <button type="button" className="step-link" onClick={() => stepTo(i)}>
                  <span className="step-kind">{STEP_LABEL[s.kind]}</span> {i <= at ? s.explanation : '…'}
                </button>
              </li>
            ))}
          </ol>
          {done && <LookupResult view={lookup.view} />}
        </>
      )}
    </section>
  );
}

function stepTo(i: number) {
  uiStore.setState((s) => {
    if (!s.lookup) return {};
    const step = Math.max(0, Math.min(s.lookup.view.steps.length - 1, i));
    return { lookup: { ...s.lookup, step } };
  });
}

const STEP_LABEL: Record<LookupStep['kind'], string> = {
  'range-check': 'range',
  'segment-probe': 'segment',
  'segment-timestamp-check': 'segment',
  'segment-chosen': 'segment',
  'index-warm-check': 'index',
  'index-probe': 'index',
  'index-result': 'index',
  'batch-header': 'scan',
  'record-found': 'found',
  'not-found': 'missing',
};

function LookupResult({ view }: { view: LookupView }) {
  const a = view.answer;
  if (!a) {
    return (
      <div
        className="lookup-result lookup-miss"
        data-testid="lookup-result"
        data-error={view.error?.code ?? view.error?.name ?? ''}
        role="status"
      >
        {view.error ? errorText(view.error) : <strong>Not found</strong>}
      </div>
    );
  }
  return (
    <div
      className="lookup-result"
      data-testid="lookup-result"
      data-segment={a.segmentBaseOffset}
      data-position={a.position}
      data-offset={a.offset}
      role="status"
    >
      <div>
        Offset <strong className="mono">{a.offset}</strong> is in <code>{a.fileName}</code>, batch at byte position{' '}
        <strong className="mono">{formatCount(a.position)}</strong>.
      </div>
      <div className="muted">
        key <code>{a.key ?? 'null'}</code> · value <code>{a.value ?? 'null'}</code> · timestamp{' '}
        <span className="mono">{a.timestamp}</span>
      </div>
    </div>
  );
}

/**
 * The three stages drawn: the segment files (floor search), the index slots (the warm-section
 * check, then the binary search with lo / hi / probe), and the batch headers read by the scan. Everything up to the current step is
 * shown; the current step is highlighted.
 */
function LookupDrawing({
  view,
  at,
  partition,
}: {
  view: LookupView;
  at: number;
  partition: PartitionView | undefined;
}) {
  const seen = view.steps.slice(0, at + 1);
  const current = view.steps[at];
  const probedSegments = new Map<number, string>();
  let chosenSegment: number | null = null;
  let indexEntries = 0;
  const probes: { slot: number; offset: number; position: number; current: boolean; comparison: string }[] = [];
  let window: { lo: number; hi: number } | null = null;
  let foundSlot: number | null = null;
  const batches: { position: number; baseOffset: number; lastOffset: number; match: boolean; current: boolean }[] = [];
  for (const s of seen) {
    if (s.kind === 'segment-probe') probedSegments.set(s.baseOffset, s.comparison);
    if (s.kind === 'segment-chosen') chosenSegment = s.baseOffset;
    if (s.kind === 'index-warm-check') {
      indexEntries = s.entries;
      window = { lo: s.searchFrom, hi: s.searchTo };
      if (s.entry && 'position' in s.entry)
        probes.push({
          slot: s.entry.slot,
          offset: s.entry.offset,
          position: s.entry.position,
          current: s === current,
          comparison: s.comparison ?? '',
        });
    }
    if (s.kind === 'index-probe' && 'position' in s.entry) {
      window = { lo: s.lo, hi: s.hi };
      probes.push({
        slot: s.slot,
        offset: s.entry.offset,
        position: s.entry.position,
        current: s === current,
        comparison: s.comparison,
      });
    }
    if (s.kind === 'index-result') foundSlot = s.entry ? s.slot : -1;
    if (s.kind === 'batch-header')
      batches.push({
        position: s.position,
        baseOffset: s.baseOffset,
        lastOffset: s.lastOffset,
        match: s.match,
        current: s === current,
      });
  }
  const currentSegment = current?.kind === 'segment-probe' ? current.baseOffset : null;
  const bases =
    view.segmentBaseOffsets.length > 0 ? view.segmentBaseOffsets : (partition?.segments.map((s) => s.baseOffset) ?? []);
  const slotScale = useMemo(
    () =>
      scaleLinear()
        .domain([0, Math.max(1, indexEntries)])
        .range([0, 100]),
    [indexEntries],
  );
  return (
    <div className="lookup-drawing">
      <div className="lookup-stage" data-testid="lookup-stage-segments">
        <h4>
          1 · segments <span className="muted">floor search over file names</span>
        </h4>
        <div className="lookup-segments">
          {bases.map((b) => (
            <span
              key={b}
              className={`lookup-seg${b === currentSegment ? ' current' : ''}${b === chosenSegment ? ' chosen' : ''}${probedSegments.has(b) ? ' probed' : ''}`}
              data-testid={`lookup-segment-${b}`}
            >
              <code>{String(b).padStart(20, '0')}</code>
              {probedSegments.has(b) && <span className="cmp">{cmpWord(probedSegments.get(b) ?? '')}</span>}
            </span>
          ))}
        </div>
      </div>
      <div className="lookup-stage" data-testid="lookup-stage-index">
        <h4>
          2 · <code>.index</code>{' '}
          <span className="muted">
            {indexEntries > 0
              ? `${indexEntries} entries: warm-section check, then binary search`
              : 'warm-section check, then binary search'}
          </span>
        </h4>
        <div className="slot-bar" aria-hidden="true">
          {window && indexEntries > 0 && (
            <div
              className="slot-window"
              style={{
                left: `${slotScale(window.lo)}%`,
                width: `${Math.max(1, slotScale(window.hi + 1) - slotScale(window.lo))}%`,
              }}
            />
          )}
          {probes.map((p) => (
            <div
              key={`${p.slot}-${p.offset}`}
              className={`slot-probe${p.current ? ' current' : ''}${p.slot === foundSlot ? ' found' : ''}`}
              style={{ left: `${slotScale(p.slot + 0.5)}%` }}
            />
          ))}
        </div>
        <ul className="probe-list">
          {probes.map((p) => (
            <li
              key={`${p.slot}-${p.offset}`}
              className={`${p.current ? 'current' : ''}${p.slot === foundSlot ? ' found' : ''}`}
            >
              slot <span className="mono">{p.slot}</span>: offset <span className="mono">{p.offset}</span> → position{' '}
              <span className="mono">{p.position}</span> <span className="cmp">{cmpWord(p.comparison)}</span>
            </li>
          ))}
        </ul>
      </div>
      <div className="lookup-stage" data-testid="lookup-stage-scan">
        <h4>
          3 · <code>.log</code> scan <span className="muted">batch headers read</span>
        </h4>
        <ul className="probe-list">
          {batches.map((b) => (
            <li key={b.position} className={`${b.current ? 'current' : ''}${b.match ? ' found' : ''}`}>
              position <span className="mono">{b.position}</span>: offsets <span className="mono">{b.baseOffset}</span>–
              <span className="mono">{b.lastOffset}</span> {b.match ? '← holds the target' : ''}
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}

function cmpWord(c: string): string {
  return c === 'less' ? '< target' : c === 'greater' ? '> target' : c === 'equal' ? '= target' : '';
}
