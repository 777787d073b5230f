/**
 * A Yammer meter as Kafka's broker and controller metrics use it (`com.yammer.metrics.core.Meter`,
 * metrics-core 2.2: what `KafkaMetricsGroup.newMeter` makes), reporting its one-minute rate.
 *
 * Marks accumulate uncounted; every 5 seconds (Meter's TICK_INTERVAL) the EWMA ticks:
 * `instantRate = uncounted / 5 s`, and `rate += alpha * (instantRate - rate)` with
 * `alpha = 1 - exp(-5 / 60)` (EWMA.M1_ALPHA). The first tick sets the rate to the instant rate
 * (EWMA's `initialized`). Reading ticks first for every interval that has passed
 * (`tickIfNecessary`), so an idle meter decays. Time is the engine's clock, never a wall clock.
 */
export const METER_TICK_INTERVAL_MS = 5000;
export const M1_ALPHA = 1 - Math.exp(-METER_TICK_INTERVAL_MS / 1000 / 60);

export class Meter {
  private uncounted = 0;
  private rate = 0;
  private initialized = false;
  private lastTickMs: number;
  /** Every mark ever (Meter.count). */
  count = 0;

  constructor(startMs: number) {
    this.lastTickMs = startMs;
  }

  mark(nowMs: number, n = 1): void {
    this.tickIfNecessary(nowMs);
    this.uncounted += n;
    this.count += n;
  }

  /** Events per second, the one-minute exponentially weighted moving average (Meter.oneMinuteRate). */
  oneMinuteRate(nowMs: number): number {
    this.tickIfNecessary(nowMs);
    return this.rate;
  }

  private tickIfNecessary(nowMs: number): void {
    const age = nowMs - this.lastTickMs;
    if (age < METER_TICK_INTERVAL_MS) return;
    const ticks = Math.floor(age / METER_TICK_INTERVAL_MS);
    this.lastTickMs += ticks * METER_TICK_INTERVAL_MS;
    for (let i = 0; i < ticks; i++) this.tick();
  }

  private tick(): void {
    const instantRate = this.uncounted / (METER_TICK_INTERVAL_MS / 1000);
    this.uncounted = 0;
    if (this.initialized) this.rate += M1_ALPHA * (instantRate - this.rate);
    else {
      this.rate = instantRate;
      this.initialized = true;
    }
  }
}
