/** The metrics panel's view: each metric with Kafka's JMX name, its value now and its recent past. */
export type MetricKind = 'gauge' | 'meter' | 'timer' | 'histogram' | 'rate';

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
}

/** The values just before the last thing the person did, to say what it changed. */
export interface MetricsSinceAction {
  label: string;
  /** Engine ms since the scenario started. */
  atMs: number;
  /** By MetricView.id. */
  before: Record<string, number>;
}

export interface MetricsView {
  /** Bumps whenever a value may have changed; the page redraws only a new version. */
  version: number;
  atMs: number;
  metrics: MetricView[];
  sinceAction: MetricsSinceAction | null;
}
