import { METRICS_NUM_SAMPLES, METRICS_SAMPLE_WINDOW_MS } from './SampledRate';

/**
 * A Kafka client metric's Max (org.apache.kafka.common.metrics.stats.Max over a SampledStat), as
 * the consumer's `records-lag-max` measures it: values fall into samples 30 s long, 2 kept, and
 * the metric is the largest value recorded in the samples still kept (NaN-free: none is 0 here).
 */
export class SampledMax {
  private readonly samples: { startMs: number; max: number }[] = [];

  record(nowMs: number, value: number): void {
    let current = this.samples[this.samples.length - 1];
    if (!current || nowMs >= current.startMs + METRICS_SAMPLE_WINDOW_MS) {
      current = { startMs: nowMs, max: value };
      this.samples.push(current);
      if (this.samples.length > METRICS_NUM_SAMPLES) this.samples.shift();
    }
    current.max = Math.max(current.max, value);
  }

  measure(nowMs: number): number | null {
    const expireAge = METRICS_NUM_SAMPLES * METRICS_SAMPLE_WINDOW_MS;
    while (this.samples.length > 0 && nowMs - (this.samples[0]?.startMs ?? nowMs) >= expireAge) this.samples.shift();
    if (this.samples.length === 0) return null;
    return Math.max(...this.samples.map((s) => s.max));
  }
}
