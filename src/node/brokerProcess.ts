/**
 * `npm run broker` as a process of its own, for what only a separate process can show: a
 * restart's time and a SIGKILL in the middle of a produce (src/node/BrokerCrash.test.ts,
 * bench/restart.bench.ts).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BROKER_MAIN = join(dirname(fileURLToPath(import.meta.url)), 'brokerMain.ts');

/**
 * Starts brokerMain.ts with `args` (e.g. `--brokers 3 --port P --data DIR`); resolves once its
 * last broker listens (`broker <brokers> on` printed), with the ms that took from the spawn.
 */
export async function spawnBroker(args: readonly string[], brokers = 3): Promise<{ child: ChildProcess; ms: number }> {
  const start = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', BROKER_MAIN, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes(`broker ${brokers} on`)) resolve();
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.once('exit', (code) => reject(new Error(`the broker exited (${code}) before listening:\n${out}`)));
  });
  return { child, ms: performance.now() - start };
}

/** Sends `signal` and resolves once the process is gone. */
export function stopProcess(child: ChildProcess, signal: 'SIGTERM' | 'SIGKILL'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}
