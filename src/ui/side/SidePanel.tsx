import { TabList } from '../chrome/TabList';
import { EventLogPanel } from '../events/EventLogPanel';
import { MetricsPanel } from '../metrics/MetricsPanel';
import { SegmentInspector } from '../inspector/SegmentInspector';
import { LookupPanel } from '../lookup/LookupPanel';
import { AccumulatorPanel } from '../producer/AccumulatorPanel';
import { ProducerPanel } from '../producer/ProducerPanel';
import type { Session } from '../session';
import { type SideTab, uiStore, useUi } from '../store';

const TABS: { id: SideTab; label: string }[] = [
  { id: 'producer', label: 'Producer' },
  { id: 'accumulator', label: 'Accumulator' },
  { id: 'inspector', label: 'Segment' },
  { id: 'lookup', label: 'Lookup' },
  { id: 'metrics', label: 'Metrics' },
  { id: 'events', label: 'Events' },
];

/** The right-hand panel: the producer, the inspectors, Kafka's metrics and the event log, one at a time. */
export function SidePanel({ session }: { session: Session }) {
  const tab = useUi((s) => s.sideTab);
  return (
    <aside className="side" aria-label="Producer and inspectors">
      <TabList prefix="side" tabs={TABS} selected={tab} onSelect={(id) => uiStore.setState({ sideTab: id })} />
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
