/**
 * Kafka's ExponentialBackoff (KIP-580, common.utils): the wait before retry `attempts` + 1 is
 * initialInterval x multiplier^attempts, capped at maxInterval, times a random factor in
 * [1 - jitter, 1 + jitter) so clients that failed together do not retry together. The factor
 * comes from the seeded Rng, not ThreadLocalRandom, so a seed replays the same waits.
 */
import type { Rng } from './Rng';

/** CommonClientConfigs.RETRY_BACKOFF_EXP_BASE and RETRY_BACKOFF_JITTER. */
export const RETRY_BACKOFF_EXP_BASE = 2;
export const RETRY_BACKOFF_JITTER = 0.2;

export class ExponentialBackoff {
  private readonly initialInterval: number;
  /** The exponent at which the cap is reached; 0 when there is nothing to grow (a fixed wait). */
  private readonly expMax: number;

  constructor(
    initialInterval: number,
    private readonly multiplier: number,
    private readonly maxInterval: number,
    private readonly jitter: number,
    private readonly rng: Rng,
  ) {
    this.initialInterval = Math.min(maxInterval, initialInterval);
    this.expMax =
      maxInterval > initialInterval ? Math.log(maxInterval / Math.max(initialInterval, 1)) / Math.log(multiplier) : 0;
  }

  /** The wait before jitter (the middle of the band backoff() draws from). */
  term(attempts: number): number {
    if (this.expMax === 0) return this.initialInterval;
    return Math.min(this.initialInterval * this.multiplier ** Math.min(attempts, this.expMax), this.maxInterval);
  }

  backoff(attempts: number): number {
    if (this.expMax === 0) return this.initialInterval;
    const exp = Math.min(attempts, this.expMax);
    const term = this.initialInterval * this.multiplier ** exp;
    const randomFactor = this.jitter <= 0 ? 1 : 1 - this.jitter + this.rng.next() * 2 * this.jitter;
    // Java's (long) cast truncates toward zero.
    return Math.min(Math.trunc(randomFactor * term), this.maxInterval);
  }
}
