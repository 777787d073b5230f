import type { MetricView } from '../../engine/apps/types';
import { formatBytes, formatCount } from '../log/format';

/** A metric's value as the panel prints it: counts whole, rates to two places, bytes per second in units. */
export function formatMetric(m: Pick<MetricView, 'unit' | 'kind'>, value: number): string {
  if (m.unit === 'B/s') return `${formatBytes(Math.round(value))}/s`;
  if (m.kind === 'gauge') return formatCount(Math.round(value));
  if (m.unit === 'ms') return `${value.toFixed(0)} ms`;
  return `${value < 10 ? value.toFixed(2) : formatCount(Math.round(value))}/s`;
}

/** A gauge's or rate's change worth saying (rates: more than a hundredth). */
export function changed(m: Pick<MetricView, 'kind'>, before: number, now: number): boolean {
  return m.kind === 'gauge' ? Math.round(before) !== Math.round(now) : Math.abs(before - now) >= 0.01;
}
