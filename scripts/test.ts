/**
 * `npm test`: typecheck, lint, unit tests, the librdkafka quick subset, build, then the browser
 * suite. Stops at the first step that fails, like a chain of `&&`.
 *
 * librdkafka's quick subset (scripts/conformance.ts --quick) mostly waits on its broker's timers
 * and sockets, so it runs beside the typecheck, lint and unit tests instead of after them; its
 * output goes to reports/conformance.log and is printed when it ends.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
const REPORTS = join(ROOT, 'reports');

function run(args: string[], log?: string): { child: ChildProcess; done: Promise<number> } {
  const child = spawn('npm', ['run', '--silent', ...args], {
    cwd: ROOT,
    stdio: log ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    // Its own process group, so stopping it stops the broker it started too.
    detached: Boolean(log),
  });
  if (log) {
    const out = createWriteStream(log);
    child.stdout?.pipe(out);
    child.stderr?.pipe(out);
  }
  const done = new Promise<number>((resolve) => child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0))));
  return { child, done };
}

async function step(name: string, args: string[]): Promise<void> {
  console.log(`\n== ${name}`);
  const code = await run(args).done;
  if (code !== 0) {
    console.log(`== ${name} failed (exit ${code})`);
    throw new StepFailed(code);
  }
}

class StepFailed extends Error {
  constructor(readonly code: number) {
    super(`exit ${code}`);
  }
}

async function main(): Promise<number> {
  mkdirSync(REPORTS, { recursive: true });
  const logPath = join(REPORTS, 'conformance.log');
  const conformance = run(['conformance', '--', '--quick', '--report', join(REPORTS, 'conformance.json')], logPath);
  try {
    await step('typecheck', ['typecheck']);
    await step('lint', ['lint']);
    await step('unit tests', ['test:unit']);
    const code = await conformance.done;
    console.log(`\n== librdkafka quick subset (reports/conformance.log)\n${readFileSync(logPath, 'utf8')}`);
    if (code !== 0) throw new StepFailed(code);
    await step('build', ['build']);
    await step('browser tests', ['test:e2e']);
    return 0;
  } catch (e) {
    if (conformance.child.pid) {
      try {
        process.kill(-conformance.child.pid, 'SIGTERM');
      } catch {
        // already gone
      }
    }
    if (e instanceof StepFailed) return e.code;
    throw e;
  }
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
