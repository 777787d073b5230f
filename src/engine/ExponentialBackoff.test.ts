import { describe, expect, it } from 'vitest';
import { ExponentialBackoff, RETRY_BACKOFF_EXP_BASE, RETRY_BACKOFF_JITTER } from './ExponentialBackoff';
import { Rng } from './Rng';

// apache/kafka clients/src/test/java/org/apache/kafka/common/utils/ExponentialBackoffTest.java
describe('ExponentialBackoff (KIP-580)', () => {
  it('doubles from the initial interval within +/-20 % jitter, never past the cap (testExponentialBackoff)', () => {
    const b = new ExponentialBackoff(100, 2, 2000, 0.2, new Rng(7));
    const seen = new Set<number>();
    for (let i = 0; i <= 100; i++) {
      for (let attempts = 0; attempts <= 10; attempts++) {
        const v = b.backoff(attempts);
        if (attempts <= 4) {
          const term = 100 * 2 ** attempts;
          expect(Math.abs(v - term)).toBeLessThanOrEqual(term * 0.2);
        } else {
          expect(v).toBeLessThanOrEqual(2000);
        }
        if (attempts === 0) seen.add(v);
      }
    }
    expect(seen.size).toBeGreaterThan(10); // the jitter really varies
  });

  it('without jitter: 100, 200, 400, 400 (testExponentialBackoffWithoutJitter)', () => {
    const b = new ExponentialBackoff(100, 2, 400, 0, new Rng(1));
    expect([0, 1, 2, 3].map((a) => b.backoff(a))).toEqual([100, 200, 400, 400]);
  });

  it("the producer's constants: retry.backoff.ms 100 to retry.backoff.max.ms 1000 is 100, 200, 400, 800, 1000 (CommonClientConfigs)", () => {
    expect([RETRY_BACKOFF_EXP_BASE, RETRY_BACKOFF_JITTER]).toEqual([2, 0.2]);
    const b = new ExponentialBackoff(100, RETRY_BACKOFF_EXP_BASE, 1000, 0, new Rng(1));
    expect([0, 1, 2, 3, 4, 5].map((a) => b.backoff(a))).toEqual([100, 200, 400, 800, 1000, 1000]);
  });

  it('is a fixed wait when the cap is not above the initial interval (expMax = 0)', () => {
    const b = new ExponentialBackoff(500, 2, 300, 0.2, new Rng(1));
    expect([0, 3].map((a) => b.backoff(a))).toEqual([300, 300]);
  });

  it('replays the same waits for the same seed', () => {
    const run = () => {
      const b = new ExponentialBackoff(100, 2, 1000, 0.2, new Rng(42));
      return [0, 1, 2, 3, 4].map((a) => b.backoff(a));
    };
    expect(run()).toEqual(run());
  });
});
