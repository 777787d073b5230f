/**
 * The benchmark harness. Each `bench/*.bench.ts` file default-exports a BenchSuite; `npm run bench`
 * runs them all in one process (so a peer measured beside us shares the same machine state) and
 * prints a table, or with `--json` one JSON object per line: {name, value, unit, peer?, ratio?}.
 */
export interface BenchResult {
  name: string;
  value: number;
  unit: string;
  /** The same measurement taken on a peer implementation in the same run (e.g. kafkajs). */
  peer?: number;
  /** value / peer, oriented so that > 1 means glassbox is better. */
  ratio?: number;
  /** The target from the issue, in words, e.g. ">= 1,000,000 records/s". */
  target?: string;
  /** Whether the figure meets the target, when there is one. */
  met?: boolean;
}

export interface BenchSuite {
  name: string;
  run(report: (result: BenchResult) => void): Promise<void> | void;
}

/** Runs fn repeatedly for at least minMs and returns operations per second. */
export function opsPerSecond(fn: () => void, opsPerCall: number, minMs = 1000): number {
  for (let i = 0; i < 3; i++) fn(); // warm up the JIT
  let calls = 0;
  const start = process.hrtime.bigint();
  let elapsedNs = 0n;
  while (elapsedNs < BigInt(minMs) * 1_000_000n) {
    fn();
    calls++;
    elapsedNs = process.hrtime.bigint() - start;
  }
  return (calls * opsPerCall) / (Number(elapsedNs) / 1e9);
}

/** Percentile of a sorted array of numbers (p in [0, 100]). */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const idx = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[idx] as number;
}

/** Times one call in microseconds with the high-resolution clock. */
export function timeMicros(fn: () => void): number {
  const start = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - start) / 1000;
}
