import { useState } from 'react';
import type { EventKind, EventLogEntry } from '../../engine/apps/types';
import { EVENT_KINDS } from '../../worker/client';
import { getBoard, setBoard, uiStore, useBoard } from '../store';
import { formatClock } from '../time/formatClock';
import { Options } from '../forms/Options';
import { type Subject, subjectOf } from './subjectOf';

/** The newest entries drawn (after the filters); older ones stay in the log. */
const MAX_SHOWN = 200;

interface Filters {
  kind: EventKind | '';
  topic: string;
  group: string;
  broker: string;
}

const FILTERS: { key: keyof Filters; label: string }[] = [
  { key: 'kind', label: 'Kind' },
  { key: 'topic', label: 'Topic' },
  { key: 'group', label: 'Group' },
  { key: 'broker', label: 'Broker' },
];

/**
 * The one event log: what the brokers, the controller, producers and groups did, newest first,
 * filterable by kind, topic, group and broker. Choosing an entry highlights what it is about on
 * the board (its brokers, partitions and groups), selects its topic, and brings its subject into
 * view (subjectOf: the group's card, the partition's log or the broker's card), switching the
 * board's tab if it is in another.
 */
export function EventLogPanel() {
  const log = useBoard((s) => s.eventLog);
  const focus = useBoard((s) => s.focus);
  const [f, setF] = useState<Filters>({ kind: '', topic: '', group: '', broker: '' });
  const entries = log?.entries ?? [];
  const topics = [...new Set(entries.flatMap((e) => e.topics))].sort();
  const groups = [...new Set(entries.flatMap((e) => e.groups))].sort();
  const brokers = [...new Set(entries.flatMap((e) => e.brokers))].sort((a, b) => a - b);
  const options: Record<keyof Filters, readonly string[]> = {
    kind: EVENT_KINDS,
    topic: topics,
    group: groups,
    broker: brokers.map(String),
  };
  const shown = entries
    .filter((e) => matches(e, f))
    .slice(-MAX_SHOWN)
    .reverse();
  return (
    <section className="event-log-panel" aria-label="Event log">
      <div className="event-filters">
        {FILTERS.map(({ key, label }) => (
          <Select
            key={key}
            label={label}
            testid={`event-filter-${key}`}
            value={f[key]}
            options={options[key]}
            onChange={(v) => setF({ ...f, [key]: v })}
          />
        ))}
      </div>
      <p className="small muted">
        {shown.length} of {entries.length} entries, newest first. Choose one to see what it is about.
      </p>
      <ol className="event-log" data-testid="event-log">
        {shown.map((e) => (
          <li key={e.n}>
            <button
              type="button"
              className={`event event-${e.kind}${focus?.entry === e.n ? ' selected' : ''}`}
              data-testid={`event-${e.n}`}
              data-kind={e.kind}
              data-type={e.type}
              data-at={e.atMs}
              aria-pressed={focus?.entry === e.n}
              onClick={() => choose(e)}
            >
              <span className="event-at">{formatClock(e.atMs)}</span>
              <span className="event-kind">{e.kind}</span>
              <span className="event-text">{e.text}</span>
            </button>
          </li>
        ))}
      </ol>
    </section>
  );
}

function matches(e: EventLogEntry, f: Filters): boolean {
  return (
    (f.kind === '' || e.kind === f.kind) &&
    (f.topic === '' || e.topics.includes(f.topic)) &&
    (f.group === '' || e.groups.includes(f.group)) &&
    (f.broker === '' || e.brokers.includes(Number(f.broker)))
  );
}

function choose(e: EventLogEntry): void {
  const s = getBoard();
  if (s.focus?.entry === e.n) {
    setBoard({ focus: null });
    return;
  }
  setBoard({ focus: { entry: e.n, brokers: e.brokers, partitions: e.partitions, groups: e.groups } });
  const topic = e.topics.find((t) => !t.startsWith('__'));
  if (topic) uiStore.setState({ selectedTopic: topic });
  reveal(subjectOf(e));
}

/**
 * Brings the chosen entry's subject into view: the board's tab it is in, then (once drawn) the
 * element scrolled to the middle of its scroller. It is marked by its `data-focused` outline.
 */
function reveal(subject: Subject | null): void {
  if (!subject) return;
  if (subject.tab !== null && getBoard().tab !== subject.tab) setBoard({ tab: subject.tab });
  const still = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
  // Two frames: React draws the tab, then the element is laid out where it will stay.
  requestAnimationFrame(() =>
    requestAnimationFrame(() =>
      document
        .querySelector(`[data-testid="${subject.testid}"]`)
        ?.scrollIntoView({ block: 'center', behavior: still ? 'auto' : 'smooth' }),
    ),
  );
}

function Select({
  label,
  testid,
  value,
  options,
  onChange,
}: {
  label: string;
  testid: string;
  value: string;
  options: readonly string[];
  onChange: (v: string) => void;
}) {
  return (
    <label className="event-filter">
      <span className="small">{label}</span>
      <select data-testid={testid} value={value} onChange={(ev) => onChange(ev.target.value)}>
        <option value="">all</option>
        <Options values={options} />
      </select>
    </label>
  );
}
