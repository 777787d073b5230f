/**
 * The long run of the Jepsen-style fault schedules (the CI run is src/engine/faults/faultSchedule.test.ts).
 *
 *   npm run soak -- --schedules 20000 --seed 42          one-broker-at-a-time schedules, unclean off
 *   npm run soak -- --schedules 2000 --seed 1 --unclean  two brokers may be down, unclean election on
 *   npm run soak -- --disk --schedules 5000              the same schedules on the real log: every
 *                                                          replica a UnifiedLog over a MemoryStore,
 *                                                          power cuts that tear the write in flight,
 *                                                          restarts recovered through LogLoader
 *                                                          (combines with --unclean)
 *   npm run soak -- --seed 1234 --schedules 1 --verbose  replay one seed and print its schedule
 *   npm run soak -- --fuzz                                 also rerun every seeded fuzz/property suite
 *                                                          (codec, log, cluster, groups, assignors)
 *                                                          with many more runs than CI uses
 *
 * Seeds run from --seed upwards. Every failing seed is printed with its violations and schedule,
 * and the run exits 1 if any failed. CI's seeds are 1..500 with the same schedule shapes, so a
 * seed reported by the unit test replays here exactly.
 */
import { spawnSync } from 'node:child_process';
import type { DiskStats } from '../src/engine/faults/BrokerDisks';
import { explainRun, runCleanSchedule, runUncleanSchedule } from '../src/engine/faults/runFaultSchedule';
import { MemoryStore } from '../src/storage/MemoryStore';

/**
 * The env vars each seeded suite reads for its run count, raised well above CI's defaults. The
 * suites print their seed in each test name, so a failure here replays as a single test.
 */
const FUZZ_SOAK_ENV: Record<string, string> = {
  GLASSBOX_FUZZ_SEEDS: '2000', // codec: decoder fuzz (random bytes, truncations, bit flips)
  LOG_FUZZ_RUNS: '500', // log: UnifiedLog and LogCleaner property runs
  GLASSBOX_CLUSTER_FUZZ: '60', // cluster: random fault schedules with the invariant checker
  GROUP_FUZZ_RUNS: '200', // consumer groups: random membership schedules
  GROUP_FUZZ_STEPS: '120',
  ASSIGNOR_PROPERTY_RUNS: '1500', // assignors: ownership, balance, stickiness properties
  PRODUCER_SEEDS: '400', // producer: seeded send/retry schedules
};

function runFuzzSuites(): boolean {
  console.log(
    `Fuzz suites with ${Object.entries(FUZZ_SOAK_ENV)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ')}`,
  );
  const files = [
    'src/engine/codec',
    'src/engine/log',
    'src/engine/cluster/ClusterFuzz.test.ts',
    'src/engine/clients/consumer',
    'src/engine/coordinator/group',
    'src/engine/consumerApps',
    'src/engine/producer/KafkaProducer.test.ts',
  ];
  const r = spawnSync('npx', ['vitest', 'run', ...files], {
    stdio: 'inherit',
    env: { ...process.env, ...FUZZ_SOAK_ENV },
  });
  return r.status === 0;
}

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const schedules = Number(arg('schedules') ?? 1000);
const firstSeed = Number(arg('seed') ?? 1);
const unclean = process.argv.includes('--unclean');
const onDisk = process.argv.includes('--disk');
const verbose = process.argv.includes('--verbose');
if (!Number.isInteger(schedules) || schedules < 1 || !Number.isInteger(firstSeed)) {
  console.error('usage: npm run soak -- [--schedules N] [--seed S] [--unclean] [--disk] [--verbose] [--fuzz]');
  process.exit(2);
}

const fuzzOk = process.argv.includes('--fuzz') ? runFuzzSuites() : true;

const started = process.hrtime.bigint();
let failed = 0;
let sent = 0;
let acked = 0;
let declaredLost = 0;
let retention = 0;
/** Acknowledged records the checks found missing or replaced and no unclean election reported. */
let ackedLost = 0;
const failedSeeds: number[] = [];
const disk: DiskStats = {
  powerCuts: 0,
  inFlightAtCut: 0,
  lostAtCut: 0,
  tornAppends: 0,
  recoveries: 0,
  logsRecovered: 0,
  bytesTruncatedByRecovery: 0,
  indexesRebuilt: 0,
};
for (let i = 0; i < schedules; i++) {
  const seed = firstSeed + i;
  const store = onDisk ? { store: new MemoryStore() } : undefined;
  const r = unclean ? await runUncleanSchedule(seed, store) : await runCleanSchedule(seed, {}, store);
  sent += r.sent;
  acked += r.acked;
  declaredLost += r.declaredLost;
  retention += r.segmentsDeletedByRetention;
  ackedLost += r.violations.filter((v) => /^acknowledged .* (is missing|was replaced)/.test(v)).length;
  if (r.disk) for (const k of Object.keys(disk) as (keyof DiskStats)[]) disk[k] += r.disk[k];
  if (r.violations.length > 0) {
    failed++;
    failedSeeds.push(seed);
    console.log(`FAIL ${explainRun(r)}\n`);
  } else if (verbose) {
    console.log(
      `ok seed ${seed}: ${r.sent} sent, ${r.acked} acknowledged, ${r.declaredLost} reported lost\n  ${r.trace.join('\n  ')}`,
    );
  }
  if ((i + 1) % 500 === 0) {
    const s = Number(process.hrtime.bigint() - started) / 1e9;
    console.log(`${i + 1}/${schedules} schedules, ${failed} failed, ${s.toFixed(1)} s`);
  }
}
const secs = Number(process.hrtime.bigint() - started) / 1e9;
console.log(
  `${schedules} ${unclean ? 'unclean-election' : 'one-broker-at-a-time'} schedules${onDisk ? ' on disk' : ''} from seed ${firstSeed}: ` +
    `${failed} failed${failedSeeds.length > 0 ? ` (seeds ${failedSeeds.slice(0, 20).join(', ')}${failedSeeds.length > 20 ? ', ...' : ''})` : ''}; ` +
    `${sent} records sent, ${acked} acknowledged, ${ackedLost} acknowledged records lost unreported, ` +
    `${declaredLost} acknowledged offsets reported lost by unclean elections; ${secs.toFixed(1)} s`,
);
if (onDisk) {
  console.log(
    `disks: ${disk.powerCuts} power cuts (${disk.inFlightAtCut} operations in flight, ${disk.lostAtCut} lost, ` +
      `${disk.tornAppends} appends torn); ${disk.recoveries} restarts recovered ${disk.logsRecovered} logs through LogLoader ` +
      `(${disk.bytesTruncatedByRecovery} torn bytes truncated, ${disk.indexesRebuilt} index files rebuilt); ` +
      `${retention} segments deleted by retention`,
  );
}
if (!fuzzOk) console.log('The fuzz suites failed: see the vitest output above.');
process.exit(failed > 0 || !fuzzOk ? 1 : 0);
