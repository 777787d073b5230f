import type { MetricsSinceAction, MetricView } from '../../engine/apps/types';
import { useBoard } from '../store';
import { formatClock } from '../time/formatClock';
import { formatMetric, movedMeaningfully } from './formatMetric';
import { Sparkline } from './Sparkline';

/**
 * Kafka's metrics by their JMX names, as an operator's dashboard shows them: the value now, the
 * last minute as a sparkline, and a table of what the last thing the learner did changed
 * (Metric · Was · Now · why), listing only the metrics that moved meaningfully for their kind
 * (formatMetric.movedMeaningfully). Every number comes from the engine (apps/metrics).
 */
export function MetricsPanel() {
  const view = useBoard((s) => s.metrics);
  if (!view) return <p className="muted">Waiting for the first metrics…</p>;
  const since = view.sinceAction;
  return (
    <section className="metrics-panel" aria-label="Kafka metrics" data-testid="metrics-panel">
      {since ? (
        <SinceAction since={since} metrics={view.metrics} />
      ) : (
        <p className="metrics-since" data-testid="metrics-since">
          Do something (kill a broker, send records) to see what it changes.
        </p>
      )}
      <ul className="metric-list">
        {view.metrics.map((m) => (
          <MetricRow key={m.id} m={m} moved={since !== null && movedSince(m, since)} />
        ))}
      </ul>
    </section>
  );
}

function movedSince(m: MetricView, since: MetricsSinceAction): boolean {
  const before = since.before[m.id];
  return before !== undefined && movedMeaningfully(m, before, since.beforeCounts[m.id]);
}

/** What the last action changed: one row per metric that moved meaningfully since, with why. */
function SinceAction({ since, metrics }: { since: MetricsSinceAction; metrics: MetricView[] }) {
  const moved = metrics.filter((m) => movedSince(m, since));
  return (
    <div className="metrics-since" data-testid="metrics-since">
      <p>
        <strong>{since.label}</strong> at {formatClock(since.atMs)}
        {moved.length === 0 ? ': nothing moved beyond its usual noise yet.' : ':'}
      </p>
      {moved.length > 0 && (
        <div className="table-scroll">
          <table className="metrics-delta" data-testid="metrics-delta">
            <thead>
              <tr>
                <th scope="col">Metric</th>
                <th scope="col">Was</th>
                <th scope="col">Now</th>
                <th scope="col">why</th>
              </tr>
            </thead>
            <tbody>
              {moved.map((m) => {
                const before = since.before[m.id] ?? 0;
                const extra = m.count !== null ? m.count - (since.beforeCounts[m.id] ?? m.count) : 0;
                return (
                  <tr key={m.id} data-testid={`metrics-delta-${m.id}`} data-was={before} data-now={m.value}>
                    <th scope="row" title={m.mbean}>
                      <Breakable name={m.name} />
                      {m.group !== null && <span className="metrics-delta-group"> ({m.group})</span>}
                    </th>
                    <td className="num">{formatMetric(m, before)}</td>
                    <td className="num">
                      {formatMetric(m, m.value)}
                      {m.moves === 'events' && extra > 0 && <span className="metrics-delta-since">{extra} since</span>}
                    </td>
                    <td>{m.moves === 'events' || m.value > before ? m.rises : m.falls}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

/** A JMX name that may wrap between its words (UnderReplicated·Partitions), never inside one. */
function Breakable({ name }: { name: string }) {
  const parts = name.split(/(?<=[a-z])(?=[A-Z])/);
  return (
    <>
      {parts.map((p, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed name, in order
        <span key={i}>
          {i > 0 && <wbr />}
          {p}
        </span>
      ))}
    </>
  );
}

function label(m: MetricView): string {
  return m.group === null ? m.name : `${m.name} (${m.group})`;
}

function MetricRow({ m, moved }: { m: MetricView; moved: boolean }) {
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
        <span className="metric-delta small">{m.count !== null ? `${m.count} total` : ''}</span>
      </div>
      <p className="metric-meaning small muted">{m.meaning}</p>
    </li>
  );
}
