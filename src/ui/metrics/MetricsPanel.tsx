import type { MetricView } from '../../engine/apps/types';
import { usePlane } from '../store';
import { formatClock } from '../time/formatClock';
import { changed, formatMetric } from './formatMetric';
import { Sparkline } from './Sparkline';

/**
 * Kafka's metrics by their JMX names, as an operator's dashboard shows them: the value now, the
 * last minute as a sparkline, and what the last thing the learner did changed ("you killed broker
 * 2: UnderReplicatedPartitions 0 → 56"). Every number comes from the engine (apps/metrics).
 */
export function MetricsPanel() {
  const view = usePlane((s) => s.metrics);
  if (!view) return <p className="muted">Waiting for the first metrics…</p>;
  const since = view.sinceAction;
  const moved = since
    ? view.metrics.filter((m) => since.before[m.id] !== undefined && changed(m, since.before[m.id] ?? 0, m.value))
    : [];
  return (
    <section className="metrics-panel" aria-label="Kafka metrics" data-testid="metrics-panel">
      <p className="metrics-since" data-testid="metrics-since">
        {since ? (
          <>
            <strong>{since.label}</strong> at {formatClock(since.atMs)}
            {moved.length === 0
              ? ': nothing moved yet.'
              : `: ${moved.map((m) => `${label(m)} ${formatMetric(m, since.before[m.id] ?? 0)} → ${formatMetric(m, m.value)}`).join(', ')}`}
          </>
        ) : (
          'Do something (kill a broker, send records) to see what it changes.'
        )}
      </p>
      <ul className="metric-list">
        {view.metrics.map((m) => (
          <MetricRow key={m.id} m={m} before={since?.before[m.id]} />
        ))}
      </ul>
    </section>
  );
}

function label(m: MetricView): string {
  return m.group === null ? m.name : `${m.name} (${m.group})`;
}

function MetricRow({ m, before }: { m: MetricView; before: number | undefined }) {
  const moved = before !== undefined && changed(m, before, m.value);
  const bad =
    (m.name === 'UnderReplicatedPartitions' || m.name === 'OfflinePartitionsCount') && m.value > 0
      ? true
      : m.name === 'ActiveControllerCount'
        ? m.value !== 1
        : (m.name === 'FailedProduceRequestsPerSec' || m.name === 'UncleanLeaderElectionsPerSec') && m.value >= 0.01;
  return (
    <li
      className={`metric${bad ? ' metric-bad' : ''}${moved ? ' metric-moved' : ''}`}
      data-testid={`metric-${m.id}`}
      data-value={m.value}
      data-kind={m.kind}
      title={`${m.mbean}\n${m.meaning}`}
    >
      <div className="metric-head">
        <span className="metric-name">{label(m)}</span>
        <span className="metric-value" data-testid={`metric-value-${m.id}`}>
          {formatMetric(m, m.value)}
        </span>
      </div>
      <div className="metric-body">
        <Sparkline series={m.series} />
        <span className="metric-delta small">
          {moved && before !== undefined ? `was ${formatMetric(m, before)}` : ''}
          {m.count !== null ? ` · ${m.count} total` : ''}
        </span>
      </div>
      <p className="metric-meaning small muted">{m.meaning}</p>
    </li>
  );
}
