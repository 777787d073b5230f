/**
 * A Kafka client metric's Rate (org.apache.kafka.common.metrics.stats.Rate over a SampledStat), as
 * the consumer's `commit-rate` (ConsumerCoordinator's commit sensor) measures it: counts fall into
 * samples 30 s long (the client config metrics.sample.window, in ms), 2 of them kept
 * (metrics.num.samples), and
 * the rate is their sum over the time they span — at least (samples - 1) full windows
 * (Rate.windowSize), so the first seconds are not divided by almost nothing.
 */
export const METRICS_SAMPLE_WINDOW_MS = 30_000;
export const METRICS_NUM_SAMPLES = 2;

interface Sample {
  startMs: number;
  count: number;
}

export class SampledRate {
  private readonly samples: Sample[] = [];

  record(nowMs: number, n = 1): void {
    let current = this.samples[this.samples.length - 1];
    if (!current || nowMs >= current.startMs + METRICS_SAMPLE_WINDOW_MS) {
      current = { startMs: nowMs, count: 0 };
      this.samples.push(current);
      if (this.samples.length > METRICS_NUM_SAMPLES) this.samples.shift();
    }
    current.count += n;
  }

  /** Per second. */
  measure(nowMs: number): number {
    // SampledStat.purgeObsoleteSamples: a sample older than every window kept is gone.
    const expireAge = METRICS_NUM_SAMPLES * METRICS_SAMPLE_WINDOW_MS;
    while (this.samples.length > 0 && nowMs - (this.samples[0]?.startMs ?? nowMs) >= expireAge) this.samples.shift();
    const oldest = this.samples[0];
    if (!oldest) return 0;
    let total = 0;
    for (const s of this.samples) total += s.count;
    let elapsed = nowMs - oldest.startMs;
    const fullWindows = Math.floor(elapsed / METRICS_SAMPLE_WINDOW_MS);
    const minFullWindows = METRICS_NUM_SAMPLES - 1;
    if (fullWindows < minFullWindows) elapsed += (minFullWindows - fullWindows) * METRICS_SAMPLE_WINDOW_MS;
    return total / (Math.max(elapsed, 1) / 1000);
  }
}
