import { useCallback, useMemo, useState } from 'react';
import type { PartitionView, RecordCell, SegmentView } from '../../worker/protocol';
import type { Session } from '../session';
import { uiStore, useUi } from '../store';
import { PartitionLogView } from './PartitionLogView';
import { TopicCleanupForm } from './TopicCleanupForm';
import { useStoreName } from './storeName';

/** Topic tabs and the selected topic's partition logs. */
/** Asks the worker for a partition's files as a zip and hands it to the browser as a download. */
async function download(session: Session, topic: string, partition: number): Promise<void> {
  const { fileName, zip } = await session.call('exportPartition', { topic, partition });
  const url = URL.createObjectURL(new Blob([zip as Uint8Array<ArrayBuffer>], { type: 'application/zip' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

function selectSegment(p: PartitionView, s: SegmentView): void {
  uiStore.setState({
    inspect: { topic: p.topic, partition: p.partition, baseOffset: s.baseOffset, batchPosition: null },
    sideTab: 'inspector',
  });
}

function selectRecord(p: PartitionView, r: RecordCell): void {
  uiStore.setState({
    inspect: {
      topic: p.topic,
      partition: p.partition,
      baseOffset: r.segmentBaseOffset,
      batchPosition: r.batchPosition,
    },
    sideTab: 'inspector',
  });
}

/**
 * Partition logs drawn at once, a page at a time: an import of `wide-999/` makes a topic of 1,000
 * partitions, and mounting a log view for each held the page for seconds. The large preset's
 * topics (100 partitions) still show whole.
 */
const PARTITIONS_PAGE = 100;

export function TopicPartitions({ session }: { session: Session }) {
  const [page, setPage] = useState<{ topic: string | null; count: number }>({ topic: null, count: PARTITIONS_PAGE });
  const store = useStoreName();
  const onExport = useCallback((p: PartitionView) => void download(session, p.topic, p.partition), [session]);
  const onScreen = useCallback((key: string, on: boolean) => session.setOnScreen(key, on), [session]);
  const partitions = useUi((s) => s.view?.partitions);
  const selected = useUi((s) => s.selectedTopic);
  const selectedSegment = useUi((s) => s.inspect);
  const byTopic = useMemo(() => {
    const m = new Map<string, PartitionView[]>();
    for (const p of partitions ?? []) {
      const list = m.get(p.topic) ?? [];
      list.push(p);
      m.set(p.topic, list);
    }
    return m;
  }, [partitions]);
  const topics = [...byTopic.keys()].filter((t) => !t.startsWith('__'));
  const topic = selected && byTopic.has(selected) ? selected : (topics[0] ?? null);
  const all = topic ? (byTopic.get(topic) ?? []) : [];
  const limit = page.topic === topic ? page.count : PARTITIONS_PAGE;
  const shown = all.length > limit ? all.slice(0, limit) : all;
  return (
    <section className="topic-partitions">
      <div className="topic-tabs" role="tablist" aria-label="Topics">
        {topics.map((t) => (
          <button
            key={t}
            type="button"
            role="tab"
            aria-selected={t === topic}
            className={`topic-tab${t === topic ? ' selected' : ''}`}
            data-testid={`topic-tab-${t}`}
            onClick={() => uiStore.setState({ selectedTopic: t })}
          >
            {t} <span className="muted">{byTopic.get(t)?.length} partitions</span>
          </button>
        ))}
      </div>
      <ul className="legend" aria-label="What the colours mean">
        <li>
          <span className="swatch-cell committed" /> committed (below the high watermark)
        </li>
        <li>
          <span className="swatch-cell uncommitted" /> not yet committed (HW to LEO)
        </li>
        <li>
          <span className="swatch-cell segment-start" /> first record of a segment
        </li>
        <li>
          <span className="swatch-seg" /> active segment
        </li>
        <li>
          <span className="swatch-bar flushed" /> saved to {store} (write complete){' '}
          <span className="swatch-bar writing" /> flushed, still writing <span className="swatch-bar unflushed" /> only
          in memory
        </li>
      </ul>
      {topic && <TopicCleanupForm session={session} topic={topic} />}
      <div className="partitions" role="tabpanel" aria-label={topic ? `Partitions of ${topic}` : 'No topic'}>
        {shown.map((p) => (
          <PartitionLogView
            key={p.dir}
            partition={p}
            onExport={onExport}
            selectedSegment={
              selectedSegment && selectedSegment.topic === p.topic && selectedSegment.partition === p.partition
                ? selectedSegment.baseOffset
                : null
            }
            onSelectSegment={selectSegment}
            onSelectRecord={selectRecord}
            onScreen={onScreen}
          />
        ))}
        {all.length > shown.length && (
          <button
            type="button"
            className="btn"
            data-testid="partitions-more"
            onClick={() => setPage({ topic, count: limit + PARTITIONS_PAGE })}
          >
            Partitions 0-{shown.length - 1} of {all.length.toLocaleString('en-US')} shown: show{' '}
            {Math.min(PARTITIONS_PAGE, all.length - shown.length)} more
          </button>
        )}
      </div>
    </section>
  );
}
