import { describe, expect, it } from 'vitest';
import { changed, formatMetric } from './formatMetric';

describe('formatMetric', () => {
  it('prints gauges whole, rates per second and bytes in units', () => {
    expect(formatMetric({ unit: 'partitions', kind: 'gauge' }, 56)).toBe('56');
    expect(formatMetric({ unit: '/s', kind: 'meter' }, 0.4567)).toBe('0.46/s');
    expect(formatMetric({ unit: '/s', kind: 'meter' }, 1234.4)).toBe('1,234/s');
    expect(formatMetric({ unit: 'B/s', kind: 'meter' }, 2048)).toBe('2.0 KiB/s');
    expect(formatMetric({ unit: 'ms', kind: 'histogram' }, 0)).toBe('0 ms');
  });

  it('calls a gauge changed only when its whole value moved', () => {
    expect(changed({ kind: 'gauge' }, 0, 4)).toBe(true);
    expect(changed({ kind: 'gauge' }, 4, 4)).toBe(false);
    expect(changed({ kind: 'meter' }, 0.001, 0.002)).toBe(false);
  });
});
