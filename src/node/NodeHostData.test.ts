/**
 * `npm run broker -- --data DIR`: the brokers' files are real Kafka log dirs on disk, and a
 * restart on the same directory is a cluster restart (znodes, recovered logs, checkpoints): the
 * records a real client wrote are still there, at the same offsets.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import kafkajs from 'kafkajs';
import { afterAll, describe, expect, it } from 'vitest';
import { NodeHost } from './NodeHost';
import { kafkaClient, until } from './wireTesting';
import { freePortRange } from './freePorts';

const BASE_PORT = await freePortRange(8);
const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

async function open(data: string): Promise<NodeHost> {
  const host = await NodeHost.open({
    brokers: 3,
    port: BASE_PORT,
    host: '127.0.0.1',
    data,
    topics: [{ name: 'demo', partitions: 2, replicationFactor: 3 }],
  });
  await host.start();
  return host;
}

function highWatermarks(host: NodeHost): number[] {
  return host.engine
    .topicState('demo')
    .partitions.map((p) => host.engine.leaderReplica('demo', p.partition)?.highWatermark ?? -1);
}

describe('NodeHost on a data directory', () => {
  it('keeps what kafkajs produced across a restart, in Kafka log dirs that dump-log reads', async () => {
    const data = await mkdtemp(join(tmpdir(), 'glassbox-data-'));
    dirs.push(data);
    const first = await open(data);
    const kafka = kafkaClient(BASE_PORT, 'data-test');
    const producer = kafka.producer({ idempotent: true, createPartitioner: kafkajs.Partitioners.DefaultPartitioner });
    await producer.connect();
    await producer.send({
      topic: 'demo',
      acks: -1,
      messages: Array.from({ length: 200 }, (_, i) => ({ key: `k${i}`, value: `v${i}` })),
    });
    await producer.disconnect();
    const before = highWatermarks(first);
    expect(before.reduce((a, b) => a + b, 0)).toBe(200);
    await first.stop();

    const files = await first.store.list('broker-1/');
    expect(files.some((f) => /\/demo-0\/0{20}\.log$/.test(f))).toBe(true);
    expect(files.some((f) => /\/demo-0\/0{20}\.index$/.test(f))).toBe(true);
    const log = files.find((f) => /\/demo-0\/0{20}\.log$/.test(f)) as string;
    const dumped = await new Promise<string>((resolve, reject) =>
      execFile('npx', ['tsx', 'src/cli/dumpLog.ts', join(data, log)], { timeout: 60_000 }, (e, out, err) =>
        e ? reject(new Error(err)) : resolve(out),
      ),
    );
    expect(dumped).toMatch(/baseOffset: 0 lastOffset: \d+ count: \d+ baseSequence: 0/);

    const second = await open(data);
    try {
      expect(second.engine.topicNames()).toContain('demo');
      // The log end offsets come back at once; the high watermarks once the ISR has caught up.
      await until(() => highWatermarks(second).every((hw, p) => hw === before[p]), 20_000);
    } finally {
      await second.stop();
    }
  });
});
