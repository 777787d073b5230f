import { describe, expect, it } from 'vitest';
import { formatClock } from './formatClock';

describe('formatClock', () => {
  it('shows engine ms since the scenario started as hh:mm:ss.mmm', () => {
    expect(formatClock(0)).toBe('00:00:00.000');
    expect(formatClock(10)).toBe('00:00:00.010');
    expect(formatClock(61_234)).toBe('00:01:01.234');
    expect(formatClock(3_600_000 + 59 * 60_000 + 59_999)).toBe('01:59:59.999');
  });

  it('keeps counting hours past a day, and shows whole ms from zero', () => {
    expect(formatClock(25 * 3_600_000)).toBe('25:00:00.000');
    expect(formatClock(1234.9)).toBe('00:00:01.234');
    expect(formatClock(-5)).toBe('00:00:00.000');
  });
});
