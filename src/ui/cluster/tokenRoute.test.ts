import { describe, expect, it } from 'vitest';
import { tokenSlowdown } from '../time/pacing';
import { chipBox, routeStart } from './tokenRoute';

describe('message tokens', () => {
  it('are slowed by the ratio of the token pace to the clock pace', () => {
    expect(tokenSlowdown(1, 1)).toBe(600);
    expect(tokenSlowdown(1, 0.25)).toBe(150);
  });

  it('size a chip by its label', () => {
    const short = chipBox({ x: 100, y: 50 }, 'Fetch');
    const long = chipBox({ x: 100, y: 50 }, 'UpdateMetadata');
    expect(long.right - long.left).toBeGreaterThan(short.right - short.left);
    expect((short.left + short.right) / 2).toBe(100);
    expect((short.top + short.bottom) / 2).toBe(50);
  });

  it('cross from sender to receiver when no button is on the way', () => {
    const a = { x: 0, y: 0 };
    const b = { x: 300, y: 0 };
    const below = { left: 100, right: 160, top: 20, bottom: 40 };
    expect(routeStart(a, b, 'Fetch', [below])).toEqual(a);
  });

  it('are shown arriving, not crossing, when a button is on the way', () => {
    const a = { x: 0, y: 0 };
    const b = { x: 0, y: 400 };
    const kill = { left: -20, right: 40, top: 100, bottom: 130 };
    expect(routeStart(a, b, 'Fetch', [kill])).toEqual(b);
  });
});
