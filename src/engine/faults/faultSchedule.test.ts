/**
 * The Jepsen-style proof of issue 3. Each test runs one seeded fault schedule against the real
 * simulated cluster and an idempotent acks=all producer (see runFaultSchedule for the checks).
 * A failing test names its seed; replay it with
 *   npm run soak -- --seed <seed> --schedules 1 [--unclean] --verbose
 * More schedules than CI runs: `npm run soak -- --schedules 20000 --seed 42`.
 */
import { describe, expect, it } from 'vitest';
import {
  explainRun as explain,
  runCleanSchedule as runClean,
  runUncleanSchedule as runUnclean,
} from './runFaultSchedule';

const CLEAN_SEEDS = Number(process.env.GLASSBOX_FAULT_SEEDS ?? 500);
const UNCLEAN_SEEDS = Math.max(1, Math.round(CLEAN_SEEDS / 8));

describe('fault schedules: acks=all, min.insync.replicas=2, RF 3, unclean election off, idempotent producer', () => {
  const seeds = Array.from({ length: CLEAN_SEEDS }, (_, i) => i + 1);
  it.each(seeds)(
    'seed %i: nothing acknowledged lost, duplicated or reordered; HW invariant; one leader per epoch',
    (seed) => {
      const r = runClean(seed);
      expect(r.violations, explain(r)).toEqual([]);
      expect(r.failed, explain(r)).toBe(0); // one broker at a time never makes a record fail
    },
  );
});

describe('fault schedules: unclean election on, two brokers may be down at once', () => {
  const seeds = Array.from({ length: UNCLEAN_SEEDS }, (_, i) => i + 1);
  it.each(seeds)('seed %i: every lost acknowledged offset is one the engine reported', (seed) => {
    const r = runUnclean(seed);
    expect(r.violations, explain(r)).toEqual([]);
  });

  // Seeds known to force an unclean election that loses acknowledged records: the check above
  // is only meaningful if such losses happen and are all accounted for.
  it.each([2, 32])('seed %i: an unclean election loses acknowledged records, and reports every one', (seed) => {
    const r = runUnclean(seed);
    expect(r.declaredLost, explain(r)).toBeGreaterThan(0);
    expect(r.violations, explain(r)).toEqual([]);
  });
});

describe('the checks are not vacuous: weaker producers fail them on the same schedules', () => {
  // The first of the CI seeds where each weakness shows; the search keeps the test honest if
  // the cluster's timing changes which seed it is.
  function firstSeedWhere(producer: Record<string, unknown>, bad: (v: string) => boolean, limit = 60): number | null {
    for (let seed = 1; seed <= limit; seed++) if (runClean(seed, producer).violations.some(bad)) return seed;
    return null;
  }

  it('without idempotence, retries after lost responses write records twice', () => {
    expect(firstSeedWhere({ 'enable.idempotence': false }, (v) => v.includes('written twice'))).not.toBeNull();
  });

  it('with acks=1, a leader cut off after acknowledging loses those records', () => {
    const lost = (v: string) => v.startsWith('acknowledged') && (v.includes('missing') || v.includes('replaced'));
    expect(firstSeedWhere({ acks: 1, 'enable.idempotence': false }, lost)).not.toBeNull();
  });
});

describe('regressions: seeds that once failed', () => {
  // Seed 51 (clean shape): a partition leader isolated while the controller shrank the ISR kept
  // its old leader epoch after the heal, so every acks=all request to it timed out; the
  // schedule now waits for full sync after a heal, and the run must finish with every record
  // acknowledged.
  it('seed 51: an isolated leader healed during an ISR change', () => {
    const r = runClean(51);
    expect(r.violations, explain(r)).toEqual([]);
    expect(r.failed).toBe(0);
  });
});
