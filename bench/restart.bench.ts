/**
 * The Node host's restart time (issue 29 item 2): `npm run broker -- --brokers 3 --data DIR` with
 * 1,000 partition replicas per broker (10 topics of 100 partitions, replication factor 3) and some
 * records in them, restarted as a new process on the same DIR:
 *
 * - after a clean shutdown (SIGTERM: controlled shutdown, logs flushed, checkpoints and
 *   `.kafka_cleanshutdown` written): no segment is recovered, each is opened from its stored
 *   indexes (Kafka's LogLoader with hadCleanShutdown). Goal: listening within 10 s.
 * - after a crash (SIGKILL of the running process): the segments from each log's recovery point on
 *   are recovered (CRCs checked, indexes rebuilt). Goal: listening within 30 s.
 *
 * Each is wall time from the process's spawn to its listeners being open ("broker 3 on" printed),
 * so it includes starting Node and tsx. Peer: the same process started on an empty DIR (no
 * partition to load): what any start costs on this machine in the same run.
 */
import { type ChildProcess, execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnBroker, stopProcess } from '../src/node/brokerProcess';
import type { BenchSuite } from './harness';

const KCAT = '/usr/bin/kcat';
const PORT = 19_640;
const TOPICS = 10;
const PARTITIONS = 100;
/** Every broker process started, so a failed run leaves none behind. */
const children: ChildProcess[] = [];

/** `npm run broker` on `data` (with the topics, the first time); ms until its listeners opened. */
async function startBroker(data: string, topics: boolean): Promise<{ child: ChildProcess; ms: number }> {
  const topicArgs = topics ? Array.from({ length: TOPICS }, (_, i) => ['--topic', `t${i}:${PARTITIONS}:3`]).flat() : [];
  const started = await spawnBroker([
    ...['--brokers', '3', '--port', String(PORT), '--data', data, '--http-port', '0'],
    ...['--dist', join(data, 'no-page'), ...topicArgs],
  ]);
  children.push(started.child);
  return started;
}

const stop = stopProcess;

/** 100-byte records into every partition of t0 (librdkafka's partitioner spreads them). */
function produce(records: number): Promise<void> {
  const lines = `${Array.from({ length: records }, (_, i) => `${i}`.padEnd(100, 'x')).join('\n')}\n`;
  return new Promise((resolve, reject) => {
    const p = execFile(
      KCAT,
      ['-b', `127.0.0.1:${PORT}`, '-P', '-t', 't0', '-X', 'acks=all'],
      { timeout: 120_000 },
      (err) => (err ? reject(err) : resolve()),
    );
    p.stdin?.end(lines);
  });
}

const suite: BenchSuite = {
  name: 'restart (the Node host on its --data: 1,000 partitions per broker)',
  async run(report) {
    const data = mkdtempSync(join(tmpdir(), 'glassbox-restart-'));
    const empty = mkdtempSync(join(tmpdir(), 'glassbox-restart-empty-'));
    try {
      // Node and tsx warmed up once, as the restarts below find them.
      await stop((await startBroker(empty, false)).child, 'SIGTERM');
      const peer = await startBroker(empty, false);
      await stop(peer.child, 'SIGTERM');
      report({ name: 'start on an empty --data (the cost of any start)', value: peer.ms / 1000, unit: 's' });

      const first = await startBroker(data, true);
      if (existsSync(KCAT)) await produce(20_000);
      await stop(first.child, 'SIGTERM');

      // A restart's seconds beside an empty start's, against its target.
      const restarted = (name: string, ms: number, targetS: number) =>
        report({
          name,
          value: ms / 1000,
          unit: 's',
          peer: peer.ms / 1000,
          ratio: peer.ms / ms,
          target: `<= ${targetS} s`,
          met: ms <= targetS * 1000,
        });

      const clean = await startBroker(data, false);
      restarted('restart after a clean shutdown, 3 x 1,000 partitions', clean.ms, 10);
      if (existsSync(KCAT)) await produce(20_000);
      await stop(clean.child, 'SIGKILL');

      const crashed = await startBroker(data, false);
      restarted('restart after SIGKILL, 3 x 1,000 partitions', crashed.ms, 30);
      await stop(crashed.child, 'SIGTERM');
    } finally {
      for (const c of children) await stop(c, 'SIGKILL');
      rmSync(data, { recursive: true, force: true });
      rmSync(empty, { recursive: true, force: true });
    }
  },
};

export default suite;
