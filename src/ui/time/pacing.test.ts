import { describe, expect, it } from 'vitest';
import {
  clockRealMsPerEngineMs,
  clockStatement,
  formatRealMs,
  REPLAY_MS,
  tokenRealMsPerEngineMs,
  tokenSlowdown,
  tokenStatement,
} from './pacing';

describe('pacing', () => {
  it('the clock at speed s shows one engine ms over 1/s real ms', () => {
    expect(clockStatement(1)).toBe('1 engine ms = 1 real ms');
    expect(clockStatement(0.25)).toBe('1 engine ms = 4 real ms');
    expect(clockStatement(2)).toBe('1 engine ms = 0.5 real ms');
    expect(clockStatement(16)).toBe('1 engine ms = 0.063 real ms');
    for (const s of [0.25, 0.5, 1, 2, 4, 8, 16]) expect(clockRealMsPerEngineMs(s) * s).toBeCloseTo(1, 12);
  });

  it('a token replays its hop over REPLAY_MS, whatever the speed', () => {
    expect(tokenRealMsPerEngineMs(1)).toBe(REPLAY_MS);
    expect(tokenRealMsPerEngineMs(2)).toBe(REPLAY_MS / 2);
    // Slower than the clock by the ratio of the two paces.
    expect(tokenSlowdown(1, 1)).toBe(600);
    expect(tokenSlowdown(1, 0.25)).toBe(150);
    expect(tokenSlowdown(2, 4)).toBe(1200);
  });

  it('the board and the speed control say it in one form', () => {
    const s = tokenStatement(1, 0.25);
    expect(s).toContain('1 engine ms = 600 real ms');
    expect(s).toContain(clockStatement(0.25));
    expect(s).toContain('a 1 ms hop over 0.6 s');
    expect(s).toContain('150× slower');
    expect(s).toContain('slowed down');
  });

  it('formats real ms for reading', () => {
    expect(formatRealMs(600)).toBe('600');
    expect(formatRealMs(1200)).toBe('1,200');
    expect(formatRealMs(0.0625)).toBe('0.063');
    expect(formatRealMs(4)).toBe('4');
  });
});
