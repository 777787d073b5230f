/**
 * The Node host judged by real clients over real sockets on 127.0.0.1: kafkajs 2.2.4's admin
 * (ApiVersions v2, then Metadata v6) and, where it is installed, kcat (librdkafka: ApiVersions
 * v3, then Metadata v4). What they report must be what the engine holds.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import kafkajs from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NodeHost } from './NodeHost';
import { correlationIds, kafkaClient, startDemoHost, tryConnect, until } from './wireTesting';
import { freePortRange } from './freePorts';

// A port range of its own per run, so parallel runs on one machine do not collide.
const BASE_PORT = await freePortRange(8);
let host: NodeHost;

beforeAll(async () => {
  host = await startDemoHost(BASE_PORT, { 'zookeeper.session.timeout.ms': 6000 });
});

afterAll(async () => {
  await host.stop();
});

function engineLayout() {
  return host.engine.topicState('demo').partitions.map((p) => ({
    partition: p.partition,
    leader: p.leader,
    isr: [...p.isr].sort(),
  }));
}

describe('NodeHost: real clients read the cluster the engine holds', () => {
  it('kafkajs admin: 3 brokers on their ports, the controller, and demo’s leaders and ISRs', async () => {
    const kafka = kafkaClient(BASE_PORT, 'glassbox-test');
    const admin = kafka.admin();
    await admin.connect();
    try {
      const cluster = await admin.describeCluster();
      expect(cluster.brokers.map((b) => [b.nodeId, b.port]).sort()).toEqual([
        [1, BASE_PORT],
        [2, BASE_PORT + 1],
        [3, BASE_PORT + 2],
      ]);
      expect(cluster.controller).toBe(host.engine.controllerState().id);
      const meta = await admin.fetchTopicMetadata({ topics: ['demo'] });
      const seen = (meta.topics[0]?.partitions ?? [])
        .map((p) => ({ partition: p.partitionId, leader: p.leader, isr: [...p.isr].sort() }))
        .sort((a, b) => a.partition - b.partition);
      expect(seen).toEqual(engineLayout());
    } finally {
      await admin.disconnect();
    }
  });

  it('a frame over socket.request.max.bytes and a request of an API not served close the connection', async () => {
    // Size 0x7fffffff: refused before any body is read.
    await expect(sendRaw(BASE_PORT, Buffer.from([0x7f, 0xff, 0xff, 0xff]))).resolves.toBe('closed');
    // Api key 1000, version 0, correlation id 1, client id null.
    const unknown = Buffer.from([0, 0, 0, 10, 0x03, 0xe8, 0, 0, 0, 0, 0, 1, 0xff, 0xff]);
    await expect(sendRaw(BASE_PORT, unknown)).resolves.toBe('closed');
    // The engine is still serving.
    expect(host.listeners.listening()).toContain(1);
  });

  it('kafkajs idempotent producer (acks -1): 1,000 records acknowledged, each batch at the offset the engine gave it', async () => {
    const kafka = kafkaClient(BASE_PORT, 'glassbox-producer');
    const producer = kafka.producer({ idempotent: true, createPartitioner: kafkajs.Partitioners.DefaultPartitioner });
    await producer.connect();
    const before = highWatermarks();
    try {
      for (let round = 0; round < 10; round++) {
        const messages = Array.from({ length: 100 }, (_, i) => ({
          key: `js-${round}-${i}`,
          value: `value ${round * 100 + i}`,
        }));
        const acks = await producer.send({ topic: 'demo', acks: -1, messages });
        expect(acks.every((a) => a.errorCode === 0)).toBe(true);
      }
    } finally {
      await producer.disconnect();
    }
    await until(() => sum(highWatermarks()) === sum(before) + 1000);
  });

  const kcat = '/usr/bin/kcat';
  const broker = ['-b', `127.0.0.1:${BASE_PORT}`];
  it.skipIf(!existsSync(kcat))(
    'kcat (librdkafka) produces 1,000 records with acks=all and idempotence, then reads back every record of demo',
    async () => {
      await until(() => host.engine.topicState('demo').partitions.every((p) => p.isr.length === 3), 20_000);
      const before = sum(highWatermarks());
      const input = `${Array.from({ length: 1000 }, (_, i) => `kcat-${i}`).join('\n')}\n`;
      const produced = await run(
        kcat,
        ['-b', `127.0.0.1:${BASE_PORT}`, '-P', '-t', 'demo', '-X', 'acks=all', '-X', 'enable.idempotence=true'],
        input,
      );
      expect(produced.stderr).not.toContain('Delivery failed');
      await until(() => sum(highWatermarks()) === before + 1000);
      const read = await run(kcat, [...broker, ...'-C -t demo -o beginning -e -f'.split(' '), '%p %o %s\n']);
      const lines = read.stdout.trim().split('\n');
      expect(lines.length).toBe(before + 1000);
      // Every offset of every partition exactly once, and the records kcat wrote among them.
      const seen = new Set(lines.map((l) => l.split(' ').slice(0, 2).join('-')));
      expect(seen.size).toBe(lines.length);
      const values = new Set(lines.map((l) => l.split(' ')[2]));
      for (let i = 0; i < 1000; i += 111) expect(values.has(`kcat-${i}`)).toBe(true);
    },
  );

  it.skipIf(!existsSync(kcat))(
    'kcat -G (librdkafka consumer group) reads every record and commits the high watermarks',
    async () => {
      const total = sum(highWatermarks());
      const read = await run(kcat, [...broker, ...'-G kcat-group demo -o beginning -e -f'.split(' '), '%p-%o\n']);
      const offsets = read.stdout.trim().split('\n');
      expect(new Set(offsets).size).toBe(total);
      expect(offsets.length).toBe(total);
      await until(() => committedEqualsHighWatermarks('kcat-group'), 15_000);
    },
  );

  it.skipIf(!existsSync(kcat))(
    'kcat producing to a topic that does not exist creates it (auto.create.topics.enable)',
    async () => {
      expect(host.engine.topicNames()).not.toContain('fresh');
      const produced = await run(
        kcat,
        ['-b', `127.0.0.1:${BASE_PORT}`, '-P', '-t', 'fresh', '-X', 'acks=all'],
        'a\nb\nc\n',
      );
      expect(produced.stderr).not.toContain('Delivery failed');
      expect(host.engine.topicNames()).toContain('fresh');
      // num.partitions and default.replication.factor are Kafka's defaults: 1 and 1.
      expect(host.engine.topicState('fresh').partitions.map((p) => p.replicas.length)).toEqual([1]);
      await until(() => host.engine.leaderReplica('fresh', 0)?.highWatermark === 3);
    },
  );

  it.skipIf(!existsSync(kcat))('kcat -L (librdkafka) lists the 3 brokers and demo’s leaders and ISRs', async () => {
    await until(() => host.engine.topicState('demo').partitions.every((p) => p.isr.length === 3), 20_000);
    const out = await new Promise<string>((resolve, reject) =>
      execFile(kcat, ['-b', `127.0.0.1:${BASE_PORT}`, '-L', '-J', '-t', 'demo'], { timeout: 15_000 }, (err, stdout) =>
        err ? reject(err) : resolve(stdout),
      ),
    );
    const meta = JSON.parse(out) as {
      brokers: { id: number; name: string }[];
      topics: { topic: string; partitions: { partition: number; leader: number; isrs: { id: number }[] }[] }[];
    };
    expect(meta.brokers.map((b) => b.id).sort()).toEqual([1, 2, 3]);
    const seen = (meta.topics[0]?.partitions ?? [])
      .map((p) => ({ partition: p.partition, leader: p.leader, isr: p.isrs.map((r) => r.id).sort() }))
      .sort((a, b) => a.partition - b.partition);
    expect(seen).toEqual(engineLayout());
  });

  it('pipelined requests on one connection are answered in the order they were sent', async () => {
    // Three Metadata v1 requests (null topics), correlation ids 7, 8, 9, written at once.
    const one = (cid: number) =>
      Buffer.from([0, 0, 0, 16, 0, 3, 0, 1, 0, 0, 0, cid, 0, 2, 0x67, 0x62, 0xff, 0xff, 0xff, 0xff]);
    const s = connect(BASE_PORT, '127.0.0.1', () => s.write(Buffer.concat([one(7), one(8), one(9)])));
    const ids = await correlationIds(s, 3);
    expect(ids).toEqual([7, 8, 9]);
  });

  it('a kafkajs consumer group reads every record of demo and commits offsets equal to the high watermarks', async () => {
    const kafka = kafkaClient(BASE_PORT, 'glassbox-consumer');
    const total = sum(highWatermarks());
    expect(total).toBeGreaterThan(0);
    const consumer = kafka.consumer({ groupId: 'kafkajs-group' });
    await consumer.connect();
    const seen = new Set<string>();
    try {
      await consumer.subscribe({ topic: 'demo', fromBeginning: true });
      await consumer.run({
        eachMessage: async ({ partition, message }) => {
          seen.add(`${partition}-${message.offset}`);
        },
      });
      await until(() => seen.size === total, 30_000);
      await until(() => committedEqualsHighWatermarks('kafkajs-group'), 15_000);
    } finally {
      await consumer.disconnect();
    }
  });

  it('a killed broker closes its listener (connection refused) and a restarted one listens again', async () => {
    host.engine.killBroker(3);
    await until(() => !host.listeners.listening().includes(3));
    await expect(tryConnect(BASE_PORT + 2)).resolves.toBe('refused');
    host.engine.restartBroker(3);
    // It listens again only once registered: after its old ZooKeeper session has expired.
    await until(() => host.listeners.listening().includes(3), 20_000);
    await expect(tryConnect(BASE_PORT + 2)).resolves.toBe('connected');
  });
});

function highWatermarks(): number[] {
  return host.engine
    .topicState('demo')
    .partitions.map((p) => host.engine.leaderReplica('demo', p.partition)?.highWatermark ?? 0);
}

/** The group's committed offset on every partition of demo is its high watermark. */
function committedEqualsHighWatermarks(group: string): boolean {
  const hws = highWatermarks();
  const rows = host.engine.describeGroup(group);
  return hws.every((hw, p) => rows.find((r) => r.topic === 'demo' && r.partition === p)?.currentOffset === hw);
}

function sum(xs: readonly number[]): number {
  return xs.reduce((a, b) => a + b, 0);
}

/** Runs a client without blocking the event loop (the brokers answer from this same process). */
function run(file: string, args: string[], input?: string): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = execFile(file, args, { timeout: 30_000 }, (err, stdout, stderr) =>
      err ? reject(new Error(`${file} ${args.join(' ')}: ${stderr}`)) : resolve({ stdout, stderr }),
    );
    child.stdin?.end(input ?? '');
  });
}

function sendRaw(port: number, bytes: Buffer): Promise<'closed' | 'answered'> {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1', () => s.write(bytes));
    s.once('data', () => {
      s.destroy();
      resolve('answered');
    });
    s.once('close', () => resolve('closed'));
    s.once('error', () => undefined);
  });
}
