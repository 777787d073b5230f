import { describe, expect, it } from 'vitest';
import { formatMetric, movedMeaningfully } from './formatMetric';

describe('formatMetric', () => {
  it('prints gauges whole, rates per second and bytes in units', () => {
    expect(formatMetric({ unit: 'partitions', kind: 'gauge' }, 56)).toBe('56');
    expect(formatMetric({ unit: '/s', kind: 'meter' }, 0.4567)).toBe('0.46/s');
    expect(formatMetric({ unit: '/s', kind: 'meter' }, 1234.4)).toBe('1,234/s');
    expect(formatMetric({ unit: 'B/s', kind: 'meter' }, 2048)).toBe('2.0 KiB/s');
    expect(formatMetric({ unit: 'ms', kind: 'histogram' }, 0)).toBe('0 ms');
  });

  it('a gauge moved when its whole value changed', () => {
    expect(movedMeaningfully({ moves: 'level', value: 4, count: null }, 0, undefined)).toBe(true);
    expect(movedMeaningfully({ moves: 'level', value: 4.2, count: null }, 4, undefined)).toBe(false);
  });

  it('a rate moved beyond noise: BytesInPerSec 295 → 292 is noise, 295 → 120 is not', () => {
    expect(movedMeaningfully({ moves: 'traffic', value: 292, count: 9 }, 295, 5)).toBe(false);
    expect(movedMeaningfully({ moves: 'traffic', value: 120, count: 9 }, 295, 5)).toBe(true);
    expect(movedMeaningfully({ moves: 'traffic', value: 0.5, count: 9 }, 0, 5)).toBe(true);
    expect(movedMeaningfully({ moves: 'traffic', value: 0.005, count: 9 }, 0, 5)).toBe(false);
  });

  it('a rare-event meter moved when it counted one more since, whatever its decaying rate did', () => {
    expect(movedMeaningfully({ moves: 'events', value: 0.01, count: 3 }, 0.02, 2)).toBe(true);
    expect(movedMeaningfully({ moves: 'events', value: 0.5, count: 2 }, 0.1, 2)).toBe(false);
  });

  it('a lag moved by at least 10 records and half of itself; a constant never', () => {
    expect(movedMeaningfully({ moves: 'lag', value: 4, count: null }, 1, undefined)).toBe(false);
    expect(movedMeaningfully({ moves: 'lag', value: 40, count: null }, 2, undefined)).toBe(true);
    expect(movedMeaningfully({ moves: 'lag', value: 112, count: null }, 100, undefined)).toBe(false);
    expect(movedMeaningfully({ moves: 'never', value: 5, count: null }, 0, undefined)).toBe(false);
  });
});
