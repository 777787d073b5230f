import type { MetricView } from '../../engine/apps/types';
import { formatBytes, formatCount } from '../log/format';

/** A metric's value as the panel prints it: counts whole, rates to two places, bytes per second in units. */
export function formatMetric(m: Pick<MetricView, 'unit' | 'kind'>, value: number): string {
  if (m.unit === 'B/s') return `${formatBytes(Math.round(value))}/s`;
  if (m.kind === 'gauge') return formatCount(Math.round(value));
  if (m.unit === 'ms') return `${value.toFixed(0)} ms`;
  return `${value < 10 ? value.toFixed(2) : formatCount(Math.round(value))}/s`;
}

/** A rate moved beyond noise: by more than this share of itself. */
export const TRAFFIC_NOISE = 0.25;
/** A lag moved beyond noise: by at least this many records and half of itself. */
export const LAG_NOISE_RECORDS = 10;

/**
 * Whether a metric moved meaningfully since an action, by its kind of move (MetricView.moves):
 * a gauge whose whole value changed, a rare-event meter that counted one more, a rate beyond a
 * quarter of itself, a lag by 10 records and half.
 */
export function movedMeaningfully(
  m: Pick<MetricView, 'moves' | 'value' | 'count'>,
  before: number,
  beforeCount: number | undefined,
): boolean {
  const d = Math.abs(m.value - before);
  const scale = Math.max(Math.abs(before), Math.abs(m.value));
  switch (m.moves) {
    case 'level':
      return Math.round(before) !== Math.round(m.value);
    case 'events':
      return m.count !== null && beforeCount !== undefined && m.count > beforeCount;
    case 'traffic':
      return d >= 0.01 && d > TRAFFIC_NOISE * scale;
    case 'lag':
      return d >= LAG_NOISE_RECORDS && d >= 0.5 * scale;
    case 'never':
      return false;
  }
}
