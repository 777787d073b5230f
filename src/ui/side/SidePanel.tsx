import { useEffect, useState } from 'react';
import { TabList } from '../chrome/TabList';
import { EventLogPanel } from '../events/EventLogPanel';
import { MetricsPanel } from '../metrics/MetricsPanel';
import { SegmentInspector } from '../inspector/SegmentInspector';
import { LookupPanel } from '../lookup/LookupPanel';
import { AccumulatorPanel } from '../producer/AccumulatorPanel';
import { ProducerPanel } from '../producer/ProducerPanel';
import type { Session } from '../session';
import { type SideTab, uiStore, useUi } from '../store';
import { onSideSheetRequest } from './sheet';

const TABS: { id: SideTab; label: string }[] = [
  { id: 'producer', label: 'Producer' },
  { id: 'accumulator', label: 'Accumulator' },
  { id: 'inspector', label: 'Segment' },
  { id: 'lookup', label: 'Lookup' },
  { id: 'metrics', label: 'Metrics' },
  { id: 'events', label: 'Events' },
];

/**
 * The right-hand panel: the producer, the inspectors, Kafka's metrics and the event log, one at a
 * time. On a phone it is a sheet under the board: only its tabs until one is chosen (or the
 * toggle opens it), so the cluster keeps the screen; on a wide screen it is always open.
 */
export function SidePanel({ session }: { session: Session }) {
  const tab = useUi((s) => s.sideTab);
  const [sheetOpen, setSheetOpen] = useState(false);
  // A tab chosen from elsewhere (a segment clicked on the board opens the inspector) opens the sheet too.
  useEffect(() => uiStore.subscribe((s, prev) => s.sideTab !== prev.sideTab && setSheetOpen(true)), []);
  useEffect(() => onSideSheetRequest(setSheetOpen), []);
  return (
    <aside className={`side${sheetOpen ? ' sheet-open' : ''}`} aria-label="Producer and inspectors">
      <div className="side-head">
        <TabList
          prefix="side"
          tabs={TABS}
          selected={tab}
          onSelect={(id) => {
            uiStore.setState({ sideTab: id });
            setSheetOpen(true);
          }}
        />
        <button
          type="button"
          className="btn btn-small side-sheet-toggle"
          data-testid="side-sheet-toggle"
          aria-expanded={sheetOpen}
          aria-controls="side-body"
          onClick={() => setSheetOpen(!sheetOpen)}
        >
          {sheetOpen ? 'Hide panel' : 'Show panel'}
        </button>
      </div>
      {/* Focusable, as ARIA's tabs pattern has it: the panel scrolls with the keyboard even when it holds no control (the metrics). */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable tab panel must be reachable by keyboard */}
      <div className="side-body" id="side-body" role="tabpanel" tabIndex={0} aria-labelledby={`side-tab-${tab}`}>
        {tab === 'lookup' && <LookupPanel session={session} />}
        {tab === 'producer' && <ProducerPanel session={session} />}
        {tab === 'inspector' && <SegmentInspector session={session} />}
        {tab === 'accumulator' && <AccumulatorPanel session={session} />}
        {tab === 'metrics' && <MetricsPanel />}
        {tab === 'events' && <EventLogPanel />}
      </div>
    </aside>
  );
}
