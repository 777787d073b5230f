import { scaleLinear } from 'd3';
import { memo, type ReactNode, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { CleanupView, PartitionView, RecordCell, SegmentView } from '../../worker/protocol';
import type { BoardPartitionView } from '../../engine/apps/types';
import { useFocused } from '../events/useFocused';
import { Term } from '../glossary/Term';
import { lookupFocus, partitionKey, uiStore, useUi } from '../store';
import { formatBytes, formatCount, segmentFileName } from './format';
import { useStoreName } from './storeName';
import { useDrawnPartitionByName } from '../cluster/replicationHold';

const CELL_WIDTH = 52;
/** Narrower segments get no button of their own (a busy log has hundreds). */
const MIN_SEGMENT_PX = 6;
/**
 * At most this many segments get a button (the newest wide enough, plus the selected and focused
 * ones): a log rolling at thousands of records per second has hundreds of segments, and moving
 * hundreds of buttons on every redraw costs the page more style and layout work than a frame has.
 */
const MAX_SEGMENT_BUTTONS = 12;
const MIN_CELLS = 4;

interface Props {
  partition: PartitionView;
  /** Called when a record cell is chosen (opens it in the segment inspector). Stable across renders. */
  onSelectRecord?: (partition: PartitionView, cell: RecordCell) => void;
  onSelectSegment?: (partition: PartitionView, segment: SegmentView) => void;
  selectedSegment?: number | null;
  /** Downloads the partition's files as a zip. */
  onExport?: (partition: PartitionView) => void;
  /**
   * Told whether the view is on screen (by `<topic>-<partition>`): while a bulk job runs, one
   * scrolled out of view is redrawn only now and then (session.ts). Stable across renders.
   */
  onScreen?: (key: string, onScreen: boolean) => void;
}

/**
 * One partition log: an overview of its segment files along the whole offset range (log start to
 * log end), and below it a window of records as cells. Only the window is in the DOM, so a log of
 * a million records costs the same as one of forty. By default the window follows the log end.
 */
export const PartitionLogView = memo(function PartitionLogView({
  partition: p,
  onSelectRecord,
  onSelectSegment,
  selectedSegment,
  onExport,
  onScreen,
}: Props) {
  const store = useStoreName();
  const key = partitionKey(p.topic, p.partition);
  const cellsRef = useRef<HTMLDivElement>(null);
  const articleRef = useRef<HTMLElement>(null);

  useEffect(() => {
    const el = articleRef.current;
    if (!el || !onScreen || typeof IntersectionObserver === 'undefined') return;
    // A margin, so a view being scrolled in is redrawn before it shows.
    const observer = new IntersectionObserver(
      (entries) => {
        for (const e of entries) onScreen(key, e.isIntersecting);
      },
      { rootMargin: '100px 0px' },
    );
    observer.observe(el);
    return () => {
      observer.disconnect();
      onScreen(key, true);
    };
  }, [key, onScreen]);
  const [count, setCount] = useState(16);
  const [follow, setFollow] = useState(true);
  const [from, setFrom] = useState(0);
  const [filesOpen, setFilesOpen] = useState(false);
  const window = useUi((s) => s.windows[key]);

  // How many cells fit: measured, so the window is exactly what is visible.
  useLayoutEffect(() => {
    const el = cellsRef.current;
    if (!el) return;
    // Measured when the ResizeObserver reports (after layout, once at the start too): a read here
    // would force a layout per partition log mounted, quadratic for a topic of 1,000 partitions.
    const ro = new ResizeObserver(() => setCount(Math.max(MIN_CELLS, Math.floor(el.clientWidth / CELL_WIDTH))));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  const maxFrom = Math.max(p.logStartOffset, p.logEndOffset - count);
  const start = follow ? maxFrom : Math.min(Math.max(from, p.logStartOffset), maxFrom);

  useEffect(() => {
    const req = { topic: p.topic, partition: p.partition, from: follow ? ('end' as const) : start, count };
    uiStore.setState((s) => ({ windowRequests: { ...s.windowRequests, [key]: req } }));
  }, [key, p.topic, p.partition, follow, start, count]);
  useEffect(
    () => () => {
      uiStore.setState((s) => {
        const { [key]: _gone, ...rest } = s.windowRequests;
        return { windowRequests: rest };
      });
    },
    [key],
  );

  const panTo = (offset: number) => {
    const next = Math.min(Math.max(Math.round(offset), p.logStartOffset), maxFrom);
    setFollow(next >= maxFrom);
    setFrom(next);
  };

  // The lookup stepper's focus: its current segment is outlined, and the record it found is brought into view.
  const focus = useUi((s) => lookupFocus(s, p.topic, p.partition));
  // Without IndexedDB (the memory fallback) nothing is saved, whatever the store has completed.
  const saving = useUi((s) => s.storage?.kind !== 'memory');
  const [focusSegmentRaw, focusOffsetRaw] = focus.split(':');
  const focusSegment = focusSegmentRaw ? Number(focusSegmentRaw) : null;
  const focusOffset = focusOffsetRaw ? Number(focusOffsetRaw) : null;
  useEffect(() => {
    if (focusOffset === null) return;
    setFollow(false);
    setFrom(Math.max(0, focusOffset - Math.floor(count / 2)));
  }, [focusOffset, count]);

  const records = window?.records ?? [];
  // The leader's HW and LEO as the partition rows draw them (one state of the partition, stepped
  // forward as its tokens land: cluster/partitionTimeline.ts), so the marks, the record count and
  // the committed colour move with the rows.
  const drawn = useDrawnPartitionByName(p.topic, p.partition);
  const shown = drawnLeaderOffsets(drawn, p);
  const eventFocus = useFocused('partition', partitionKey(p.topic, p.partition));
  return (
    <article
      ref={articleRef}
      className={`partition${eventFocus ? ' event-focus' : ''}`}
      data-focused={eventFocus || undefined}
      data-testid={`partition-${p.topic}-${p.partition}`}
      data-leo={p.logEndOffset}
      data-hw={p.highWatermark}
      data-shown-leo={shown.leo}
      data-shown-hw={shown.hw}
      data-shown-records={shown.records}
      data-log-start={p.logStartOffset}
      data-recovery-point={p.recoveryPoint}
      data-durable={p.durableOffset}
      data-unflushed={p.unflushedBytes}
      aria-label={`Partition ${p.dir}`}
    >
      <header className="partition-head">
        <h3 className="partition-name mono">{p.dir}</h3>
        {p.leader !== undefined && (
          <span
            className="leader-tag"
            title={`The log shown is the leader's replica, on broker ${p.leader}; in-sync replicas: ${p.isr?.join(', ')}`}
          >
            <Term name="leader">leader</Term> <strong>broker {p.leader}</strong> · <Term name="ISR" />{' '}
            {p.isr?.join(',')}
          </span>
        )}
        <dl className="partition-marks">
          <Mark label={<Term name="log start" />} value={p.logStartOffset} />
          <Mark label={<Term name="HW" />} value={shown.hw} className="mark-hw" />
          <Mark label={<Term name="LEO" />} value={shown.leo} className="mark-leo" />
          <Mark label="records" value={shown.records} testId={`record-count-${p.topic}-${p.partition}`} />
          <Mark label="segments" value={p.segmentCount} />
        </dl>
        <span
          className={`flush-state ${saving ? saveState(p) : 'unflushed'}`}
          data-testid={`save-state-${p.topic}-${p.partition}`}
          data-state={saving ? saveState(p) : 'not-saving'}
          title={`Appended bytes stay in memory, like Kafka's page cache, until a flush (flush.ms${p.flushMs === null ? ' never: only on roll' : ` = ${p.flushMs} ms`}) hands them to ${store}'s write queue; they are saved once its write completes. Offsets below ${p.durableOffset} are saved: closing the tab now keeps them.`}
        >
          {saving ? saveLabel(p, store) : 'in memory only: nothing is saved'}
        </span>
        <label className="follow">
          <input
            type="checkbox"
            checked={follow}
            onChange={(e) => {
              setFollow(e.target.checked);
              if (!e.target.checked) setFrom(start);
            }}
          />
          follow log end
        </label>
        {onExport && (
          <button
            type="button"
            className="btn btn-small"
            data-testid={`export-${p.topic}-${p.partition}`}
            title={`Download ${p.dir}/ as a zip of its segment files`}
            onClick={() => onExport(p)}
          >
            Export
          </button>
        )}
      </header>
      <SegmentOverview
        partition={p}
        windowStart={start}
        windowCount={count}
        onPan={panTo}
        onSelectSegment={onSelectSegment ? (s) => onSelectSegment(p, s) : undefined}
        selectedSegment={selectedSegment ?? null}
        focusSegment={focusSegment}
      />
      {p.lastCleanup && <CleanupCaption partition={p} cleanup={p.lastCleanup} />}
      <details className="file-list" onToggle={(e) => setFilesOpen(e.currentTarget.open)}>
        <summary data-testid={`files-${p.topic}-${p.partition}`}>
          {p.segmentCount * 3} files in <code>{p.dir}/</code>
          {p.segmentCount > p.segments.length ? ` (${p.segments.length * 3} listed)` : ''}
        </summary>
        {/* Listed only while open: a busy log has hundreds of files. */}
        {filesOpen && (
          <ul>
            {p.segments.map((s) =>
              s.files.map((f) => (
                <li key={f.name} data-testid="segment-file" className={s.active ? 'active' : undefined}>
                  <code>{f.name}</code> <span className="muted">{formatBytes(f.bytes)}</span>
                </li>
              )),
            )}
          </ul>
        )}
      </details>
      <div className="cells" ref={cellsRef}>
        {/* Keyed by slot, not by offset: while the window follows the log end every redraw shows
            new offsets, and a slot keeps its button (only its text and colours change) instead of
            the whole window's DOM being replaced on every redraw. */}
        {/* A record appears when the Produce that carried it lands on the leader (the shown LEO). */}
        {records
          .filter((r) => r.offset < shown.leo)
          .map((r, slot) => (
            <RecordCellView
              // biome-ignore lint/suspicious/noArrayIndexKey: the slot is the identity (see above)
              key={slot}
              cell={r}
              topic={p.topic}
              partition={p.partition}
              committed={r.offset < shown.hw}
              highlight={r.offset === focusOffset}
              segmentStart={r.offset === r.segmentBaseOffset}
              onSelect={onSelectRecord ? (c) => onSelectRecord(p, c) : undefined}
            />
          ))}
        {records.length === 0 && <p className="muted cells-empty">empty log</p>}
      </div>
    </article>
  );
});

/** Where the partition's bytes are: all saved, some still writing to IndexedDB, or some only in memory. */
function saveState(p: PartitionView): 'saved' | 'writing' | 'unflushed' {
  if (p.durableOffset >= p.logEndOffset && p.unflushedBytes === 0) return 'saved';
  return p.unflushedBytes > p.writingBytes ? 'unflushed' : 'writing';
}

function saveLabel(p: PartitionView, store: string): string {
  switch (saveState(p)) {
    case 'saved':
      return `all saved to ${store}`;
    case 'writing':
      return `${formatBytes(p.writingBytes)} writing to ${store}`;
    case 'unflushed': {
      const memory = p.unflushedBytes - p.writingBytes;
      return `${formatBytes(memory)} only in memory${p.writingBytes > 0 ? ` · ${formatBytes(p.writingBytes)} writing` : ''}`;
    }
  }
}

function Mark({
  label,
  value,
  className,
  testId,
}: {
  label: ReactNode;
  value: number;
  className?: string;
  testId?: string;
}) {
  return (
    <div className={`mark ${className ?? ''}`}>
      <dt>{label}</dt>
      <dd className="mono" data-testid={testId}>
        {formatCount(value)}
      </dd>
    </div>
  );
}

const RecordCellView = memo(function RecordCellView({
  cell,
  topic,
  partition,
  committed,
  highlight,
  segmentStart,
  onSelect,
}: {
  cell: RecordCell;
  highlight: boolean;
  topic: string;
  partition: number;
  committed: boolean;
  segmentStart: boolean;
  onSelect: ((cell: RecordCell) => void) | undefined;
}) {
  const batchParity = cell.batchBaseOffset % 2 === 0 ? 'even' : 'odd';
  const title = `offset ${cell.offset}\nkey ${cell.key ?? 'null'}\nvalue ${cell.value ?? 'null'}\nbatch at position ${cell.batchPosition} of ${segmentFileName(cell.segmentBaseOffset, 'log')}\n${committed ? 'committed (below the high watermark)' : 'not yet committed (at or above the high watermark)'}`;
  return (
    <button
      type="button"
      className={`cell ${committed ? 'committed' : 'uncommitted'} batch-${batchParity}${segmentStart ? ' segment-start' : ''}${highlight ? ' highlight' : ''}`}
      data-testid={`record-${topic}-${partition}-${cell.offset}`}
      data-key={cell.key ?? ''}
      title={title}
      onClick={() => onSelect?.(cell)}
    >
      <span className="visually-hidden">offset </span>
      <span className="cell-offset mono">{cell.offset}</span>
      <span className="visually-hidden"> key </span>
      <span className="cell-key">{cell.key ?? '∅'}</span>
    </button>
  );
});

/**
 * The segment files drawn along the offset axis (d3 scale from offsets to pixels), the active one
 * marked, with the record window shown as a frame. Click or use the arrow keys to move the window.
 */
function SegmentOverview({
  partition: p,
  windowStart,
  windowCount,
  onPan,
  onSelectSegment,
  selectedSegment,
  focusSegment,
}: {
  partition: PartitionView;
  focusSegment: number | null;
  windowStart: number;
  windowCount: number;
  onPan: (offset: number) => void;
  onSelectSegment: ((s: SegmentView) => void) | undefined;
  selectedSegment: number | null;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(600);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    // Measured when the ResizeObserver reports (after layout, also once at the start), never by a
    // read in this effect: a thousand partition logs mounting would each force a layout there.
    const ro = new ResizeObserver(() => setWidth(el.clientWidth));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  const lo = p.segments[0]?.baseOffset ?? p.logStartOffset;
  const hi = Math.max(p.logEndOffset, lo + 1);
  const x = useMemo(() => scaleLinear().domain([lo, hi]).range([0, width]).clamp(true), [lo, hi, width]);
  const winX = x(windowStart);
  // Segments too thin to click, and all but the newest MAX_SEGMENT_BUTTONS, get no button (they
  // leave a gap in the files row; the track below still spans the whole offset range, and the file
  // list names them all). The selected and the lookup's segment always keep theirs.
  const drawn: { s: SegmentView; left: number; w: number }[] = [];
  for (let i = p.segments.length - 1; i >= 0; i--) {
    const s = p.segments[i] as SegmentView;
    const left = x(s.baseOffset);
    // The active segment reaches the log end (and fills an empty log).
    const w = Math.max(2, x(s.active ? hi : s.nextOffset) - left);
    const marked = s.active || selectedSegment === s.baseOffset || focusSegment === s.baseOffset;
    if (marked || (w >= MIN_SEGMENT_PX && drawn.length < MAX_SEGMENT_BUTTONS)) drawn.push({ s, left, w });
  }
  drawn.reverse();
  const winW = Math.max(3, x(Math.min(hi, windowStart + windowCount)) - winX);
  const ghosts = useCleanupGhosts(p, lo, hi, width);

  const onKeyDown = (e: React.KeyboardEvent) => {
    const step = e.shiftKey ? windowCount * 10 : 1;
    if (e.key === 'ArrowLeft') onPan(windowStart - step);
    else if (e.key === 'ArrowRight') onPan(windowStart + step);
    else if (e.key === 'PageUp') onPan(windowStart - windowCount);
    else if (e.key === 'PageDown') onPan(windowStart + windowCount);
    else if (e.key === 'Home') onPan(p.logStartOffset);
    else if (e.key === 'End') onPan(Number.MAX_SAFE_INTEGER);
    else return;
    e.preventDefault();
  };

  return (
    <div className="overview">
      <div className="overview-files" ref={ref}>
        {drawn.map(({ s, left, w }) => {
          const log = s.files.find((f) => f.name.endsWith('.log'));
          return (
            <button
              type="button"
              key={s.baseOffset}
              className={`segment${s.active ? ' active' : ''}${selectedSegment === s.baseOffset ? ' selected' : ''}${focusSegment === s.baseOffset ? ' lookup-focus' : ''}`}
              style={{ left, width: w }}
              data-testid={`segment-${p.topic}-${p.partition}-${s.baseOffset}`}
              title={`${s.files.map((f) => `${f.name} (${formatCount(f.bytes)} B)`).join('\n')}\noffsets ${s.baseOffset} to ${s.nextOffset - 1}${s.active ? '\nactive segment' : ''}`}
              onClick={() => onSelectSegment?.(s)}
            >
              <span className="segment-name mono">{log?.name ?? segmentFileName(s.baseOffset, 'log')}</span>
              <span
                className="segment-writing"
                style={{ width: `${(log && log.bytes > 0 ? s.flushedBytes / log.bytes : 1) * 100}%` }}
              />
              <span
                className="segment-flushed"
                style={{ width: `${(log && log.bytes > 0 ? s.durableBytes / log.bytes : 1) * 100}%` }}
              />
            </button>
          );
        })}
        {ghosts.map((g) => (
          <div
            key={g.key}
            className={`segment-ghost ${g.kind}`}
            style={{ left: g.left, width: g.w }}
            aria-hidden="true"
          >
            <span className="segment-name mono">{g.label}</span>
          </div>
        ))}
      </div>
      <div
        className="overview-track"
        role="slider"
        tabIndex={0}
        aria-label={`Record window of ${p.dir}`}
        aria-valuemin={p.logStartOffset}
        aria-valuemax={Math.max(p.logStartOffset, p.logEndOffset - windowCount)}
        aria-valuenow={windowStart}
        aria-valuetext={`offsets ${windowStart} to ${windowStart + windowCount - 1}`}
        onKeyDown={onKeyDown}
        onPointerDown={(e) => {
          const rect = e.currentTarget.getBoundingClientRect();
          onPan(x.invert(e.clientX - rect.left) - windowCount / 2);
        }}
      >
        <div className="overview-window" style={{ transform: `translateX(${winX}px)`, width: winW }} />
      </div>
    </div>
  );
}

/** How long the ghosts of deleted or compacted segments stay (their CSS animation is a bit shorter). */
const GHOST_MS = 1500;
/** More deleted segments than this are drawn as one ghost: a few animated elements, never hundreds. */
const MAX_GHOSTS = 6;

interface Ghost {
  key: string;
  kind: 'deleted' | 'compacted';
  left: number;
  w: number;
  label: string;
}

/**
 * When a new cleanup arrives for the shown replica: segments deleted by retention leave ghosts
 * where they were drawn before (the previous offset scale), which shrink and fade; segments the
 * cleaner rewrote flash where they are now. The first cleanup seen on mount is not animated.
 */
function useCleanupGhosts(p: PartitionView, lo: number, hi: number, width: number): Ghost[] {
  const [ghosts, setGhosts] = useState<Ghost[]>([]);
  const prevDomain = useRef<[number, number]>([lo, hi]);
  const seen = useRef<number | null | undefined>(undefined);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const c = p.lastCleanup ?? null;
  useLayoutEffect(() => {
    const id = c?.id ?? null;
    const [plo, phi] = prevDomain.current;
    prevDomain.current = [lo, hi];
    if (seen.current === undefined || id === seen.current || !c) {
      seen.current = id;
      return;
    }
    seen.current = id;
    let next: Ghost[] = [];
    if (c.kind === 'retention') {
      const old = scaleLinear().domain([plo, phi]).range([0, width]).clamp(true);
      const spans = c.deleted.map((d) => ({ from: d.baseOffset, to: d.nextOffset, label: d.name }));
      const first = spans[0];
      const last = spans[spans.length - 1];
      const drawn =
        spans.length > MAX_GHOSTS && first && last
          ? [{ from: first.from, to: last.to, label: `${spans.length} segments` }]
          : spans;
      next = drawn.map((g) => ({
        key: `${c.id}-${g.from}`,
        kind: 'deleted',
        left: old(g.from),
        w: Math.max(2, old(g.to) - old(g.from)),
        label: g.label,
      }));
    } else {
      const now = scaleLinear().domain([lo, hi]).range([0, width]).clamp(true);
      for (const base of c.segments.slice(-MAX_GHOSTS)) {
        const s = p.segments.find((x) => x.baseOffset === base);
        if (!s) continue;
        next.push({
          key: `${c.id}-${base}`,
          kind: 'compacted',
          left: now(base),
          w: Math.max(2, now(s.active ? hi : s.nextOffset) - now(base)),
          label: s.files[0]?.name ?? segmentFileName(base, 'log'),
        });
      }
    }
    setGhosts(next);
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => setGhosts([]), GHOST_MS);
  }, [c, lo, hi, width, p.segments]);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  return ghosts;
}

function fileList(names: string[]): string {
  if (names.length <= 3) return names.join(', ');
  return `${names.slice(0, 2).join(', ')}, … ${names[names.length - 1]}`;
}

/** What the last retention check or log cleaner pass did to this log, and why (static text). */
function CleanupCaption({ partition: p, cleanup: c }: { partition: PartitionView; cleanup: CleanupView }) {
  let text: string;
  if (c.kind === 'retention') {
    const reasons = [...new Set(c.deleted.map((d) => d.reason))];
    const why = reasons
      .map((r) =>
        r === 'retention.bytes'
          ? 'the partition was larger than retention.bytes'
          : r === 'log-start-offset'
            ? 'DeleteRecords moved the log start offset past them'
            : 'their newest record was older than retention.ms',
      )
      .join('; ');
    const bytes = c.deleted.reduce((n, d) => n + d.bytes, 0);
    const n = c.deleted.length;
    const from = c.deleted[0]?.baseOffset ?? c.logStartOffset;
    text = `Retention (${reasons.join(', ')}) on broker ${c.broker} deleted ${fileList(c.deleted.map((d) => d.name))} (${n} segment${n === 1 ? '' : 's'}, ${formatBytes(bytes)}, offsets ${formatCount(from)} to ${formatCount(c.logStartOffset - 1)}) because ${why}. Log start offset is now ${formatCount(c.logStartOffset)}.`;
  } else {
    const n = c.segments.length;
    const ratio = c.dirtyRatio === null ? '' : `, dirty ratio ${c.dirtyRatio.toFixed(2)},`;
    text = `Log cleaner (cleanup.policy=compact)${ratio} on broker ${c.broker} rewrote ${fileList(c.segments.map((b) => segmentFileName(b, 'log')))} (${n} segment${n === 1 ? '' : 's'}): ${formatCount(c.recordsSuperseded)} superseded record${c.recordsSuperseded === 1 ? '' : 's'} and ${formatCount(c.tombstonesRemoved)} tombstone${c.tombstonesRemoved === 1 ? '' : 's'} removed, ${formatBytes(c.bytesBefore)} → ${formatBytes(c.bytesAfter)}.`;
  }
  return (
    <p
      className={`cleanup-caption ${c.kind}`}
      data-testid={`cleanup-${p.topic}-${p.partition}`}
      data-kind={c.kind}
      data-cleanup-id={c.id}
    >
      {text}
    </p>
  );
}

/**
 * The leader's LEO and HW as drawn, and how many of the log's records are drawn: those below the
 * drawn LEO (the newest records, past any compaction, are consecutive offsets). The log's own
 * values when the partition is drawn as the views come.
 */
function drawnLeaderOffsets(
  drawn: BoardPartitionView | undefined,
  p: { logEndOffset: number; highWatermark: number; recordCount: number },
): { leo: number; hw: number; records: number } {
  const leader = drawn?.replicaStates.find((r) => r.broker === drawn.leader && r.role === 'leader');
  if (!leader) return { leo: p.logEndOffset, hw: p.highWatermark, records: p.recordCount };
  const notYet = Math.max(0, p.logEndOffset - leader.logEndOffset);
  return { leo: leader.logEndOffset, hw: leader.highWatermark, records: Math.max(0, p.recordCount - notYet) };
}
