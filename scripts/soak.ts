/**
 * The long run of the Jepsen-style fault schedules (the CI run is src/engine/faults/faultSchedule.test.ts).
 *
 *   npm run soak -- --schedules 20000 --seed 42          one-broker-at-a-time schedules, unclean off
 *   npm run soak -- --schedules 2000 --seed 1 --unclean  two brokers may be down, unclean election on
 *   npm run soak -- --seed 1234 --schedules 1 --verbose  replay one seed and print its schedule
 *
 * Seeds run from --seed upwards. Every failing seed is printed with its violations and schedule,
 * and the run exits 1 if any failed. CI's seeds are 1..500 with the same schedule shapes, so a
 * seed reported by the unit test replays here exactly.
 */
import { explainRun, runCleanSchedule, runUncleanSchedule } from '../src/engine/faults/runFaultSchedule';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const schedules = Number(arg('schedules') ?? 1000);
const firstSeed = Number(arg('seed') ?? 1);
const unclean = process.argv.includes('--unclean');
const verbose = process.argv.includes('--verbose');
if (!Number.isInteger(schedules) || schedules < 1 || !Number.isInteger(firstSeed)) {
  console.error('usage: npm run soak -- [--schedules N] [--seed S] [--unclean] [--verbose]');
  process.exit(2);
}

const started = process.hrtime.bigint();
let failed = 0;
let sent = 0;
let acked = 0;
let declaredLost = 0;
for (let i = 0; i < schedules; i++) {
  const seed = firstSeed + i;
  const r = unclean ? runUncleanSchedule(seed) : runCleanSchedule(seed);
  sent += r.sent;
  acked += r.acked;
  declaredLost += r.declaredLost;
  if (r.violations.length > 0) {
    failed++;
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
  `${schedules} ${unclean ? 'unclean-election' : 'one-broker-at-a-time'} schedules from seed ${firstSeed}: ` +
    `${failed} failed; ${sent} records sent, ${acked} acknowledged, ${declaredLost} acknowledged offsets reported lost; ${secs.toFixed(1)} s`,
);
process.exit(failed > 0 ? 1 : 0);
