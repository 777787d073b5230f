/** The metrics panel's view: each metric with Kafka's JMX name, its value now and its recent past. */
export type MetricKind = 'gauge' | 'meter' | 'timer' | 'histogram' | 'rate';

/**
 * What counts as a meaningful move of a metric since an action (the metrics panel lists only those):
 *  - `level`: a gauge whose whole value changed (UnderReplicatedPartitions 0 → 19);
 *  - `events`: a meter of rare events (ISR shrinks, elections, refused produces) that counted at
 *    least one since: its rate alone decays for minutes after the last;
 *  - `traffic`: a one-minute rate that moved by more than a quarter of itself (records trickling
 *    in move BytesInPerSec a few per cent either way: noise);
 *  - `lag`: a lag that moved by at least 10 records and by half of itself;
 *  - `never`: constant here (RequestQueueTimeMs).
 */
export type MetricMoves = 'level' | 'events' | 'traffic' | 'lag' | 'never';

export interface MetricView {
  /** Kafka's name: the MBean's `name=` key, or the client metric's name (`records-lag-max`). */
  name: string;
  /** Unique on the page: the name, or `<name>-<group>` for a per-group client metric. */
  id: string;
  /** The full JMX object name, as jconsole or a JMX exporter shows it. */
  mbean: string;
  kind: MetricKind;
  value: number;
  unit: string;
  /** A meter's or timer's count of every mark since the scenario started (null for gauges). */
  count: number | null;
  /** One sample per second of engine time, oldest first (the sparkline). */
  series: number[];
  /** What the number means, in a sentence. */
  meaning: string;
  group: string | null;
  moves: MetricMoves;
  /** Why it rises, and why it falls, in Kafka's words. */
  rises: string;
  falls: string;
}

/** The values just before the last thing the person did, to say what it changed. */
export interface MetricsSinceAction {
  label: string;
  /** Engine ms since the scenario started. */
  atMs: number;
  /** By MetricView.id. */
  before: Record<string, number>;
  /** A meter's count just before, by MetricView.id (meters only). */
  beforeCounts: Record<string, number>;
}

/** Every metric's value, and every meter's count, at one instant. */
export interface MetricsSnapshot {
  values: Record<string, number>;
  counts: Record<string, number>;
}

export interface MetricsView {
  /** Bumps whenever a value may have changed; the page redraws only a new version. */
  version: number;
  atMs: number;
  metrics: MetricView[];
  sinceAction: MetricsSinceAction | null;
}
