/**
 * The benchmark harness. Each `bench/*.bench.ts` file default-exports a BenchSuite; `npm run bench`
 * runs them all in one process (so a peer measured beside us shares the same machine state) and
 * prints a table, or with `--json` one JSON object per line: {name, value, unit, peer?, ratio?}.
 */
import type { RecordBatchInput } from '../src/engine/codec/recordBatch';

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

/** This process's CPU time (user + system) in microseconds. */
export function cpuMicros(): number {
  const u = process.cpuUsage();
  return u.user + u.system;
}

/** Records per batch when 100-byte records fill batch.size 16384 (each takes 109-110 bytes). */
export const RECORDS_PER_BATCH = 148;

/** A batch of RECORDS_PER_BATCH keyless 100-byte records (bytes varied by `seq`), not yet encoded. */
export function makeBatchInput(seq: number): RecordBatchInput {
  const records = [];
  for (let i = 0; i < RECORDS_PER_BATCH; i++) {
    const value = new Uint8Array(100);
    value.fill((seq + i) & 0xff);
    records.push({ attributes: 0, timestampDelta: 0, offsetDelta: i, key: null, value, headers: [] });
  }
  return {
    baseOffset: 0,
    partitionLeaderEpoch: -1,
    attributes: 0,
    lastOffsetDelta: RECORDS_PER_BATCH - 1,
    baseTimestamp: 1_700_000_000_000,
    maxTimestamp: 1_700_000_000_000,
    producerId: -1,
    producerEpoch: -1,
    baseSequence: -1,
    records,
  };
}
