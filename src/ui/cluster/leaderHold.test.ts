import { describe, expect, it } from 'vitest';
import { type LeaderChange, leaderLit, litAt, NO_TOKEN_MS } from './leaderHold';

/** orders-0 elected broker 2 at engine 7001 ms; the page saw it at wall 10,000 ms. */
const change: LeaderChange = { tp: 'orders-0', leader: 2, atMs: 7001, seenAt: 10_000 };

describe('the election hold', () => {
  it('lights the new leader only when the LeaderAndIsr token to its broker has landed', () => {
    const landings = [
      { to: 3, sentAtMs: 7001, landsAt: 10_600 }, // to another broker
      { to: 2, sentAtMs: 5000, landsAt: 10_100 }, // an earlier election's
      { to: 2, sentAtMs: 7001, landsAt: 10_750 },
    ];
    expect(leaderLit(change, landings, 10_000)).toBe(false);
    expect(leaderLit(change, landings, 10_700)).toBe(false);
    expect(litAt(change, landings, 10_700)).toBe(10_750);
    expect(leaderLit(change, landings, 10_750)).toBe(true);
    expect(litAt(change, landings, 10_750)).toBeNull();
  });

  it('waits for a token not seen yet, but not forever; a partition with no change is never held', () => {
    expect(leaderLit(change, [], 10_000 + NO_TOKEN_MS - 1)).toBe(false);
    expect(litAt(change, [], 10_000)).toBe(10_000 + NO_TOKEN_MS);
    expect(leaderLit(change, [], 10_000 + NO_TOKEN_MS)).toBe(true);
    expect(leaderLit(undefined, [], 0)).toBe(true);
  });
});
