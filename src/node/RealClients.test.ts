/**
 * Issue 14's CI tests 1-3: real Kafka clients against the Node host with 3 brokers and topic
 * `demo` (3 partitions, replication factor 3), judged by what the engine holds.
 *
 * 1. `kcat -L` lists the 3 brokers and the engine's leaders and ISRs; confluent-kafka's
 *    AdminClient (list_topics: brokers, controller, cluster id, replicas, ISRs) agrees.
 * 2. 1,000 records each from kcat (acks=all, enable.idempotence=true), kafkajs 2.2.4 (idempotent,
 *    acks -1) and @platformatic/kafka 1.35.0 (idempotent, acks all) are acknowledged; then
 *    `kcat -C -o beginning -e` reads back exactly 3,000, each offset once.
 * 3. A consumer group per client (kcat -G, kafkajs, @platformatic/kafka, confluent-kafka) reads
 *    all 3,000 and commits; the committed offsets are the high watermarks; two confluent-kafka
 *    consumers in one group split the partitions without overlap or duplicates.
 *
 * kcat and python3-confluent-kafka (librdkafka 2.0.2 on Debian) come from apt (`.ci/run` installs
 * them); where one is missing its checks are skipped and the test's name says why.
 */
import { execFile, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ProduceAcks } from '@platformatic/kafka';
import kafkajs from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { platformaticConsumer, platformaticProducer } from './clientSuites';
import type { NodeHost } from './NodeHost';
import { expectGroupSplit, kafkaClient, startDemoHost } from './wireTesting';
import { freePortRange } from './freePorts';

const PORT = await freePortRange(8);
const BOOTSTRAP = `127.0.0.1:${PORT}`;
const RECORDS = 1000;

const KCAT = '/usr/bin/kcat';
const PYTHON = '/usr/bin/python3';
const CONFLUENT = join(dirname(fileURLToPath(import.meta.url)), 'clients', 'confluent.py');

const kcatMissing = existsSync(KCAT) ? null : `${KCAT} not found (apt-get install kcat)`;
const confluentMissing = (() => {
  if (!existsSync(PYTHON)) return `${PYTHON} not found (apt-get install python3-confluent-kafka)`;
  const probe = spawnSync(PYTHON, ['-c', 'import confluent_kafka'], { encoding: 'utf8' });
  return probe.status === 0 ? null : 'python3-confluent-kafka not installed (apt-get install python3-confluent-kafka)';
})();
for (const reason of [kcatMissing, confluentMissing]) if (reason) console.warn(`RealClients: skipping: ${reason}`);
const skipped = (reason: string | null) => (reason ? ` [skipped: ${reason}]` : '');

let host: NodeHost;

beforeAll(async () => {
  host = await startDemoHost(PORT);
  await until(() => host.engine.topicState('demo').partitions.every((p) => p.isr.length === 3), 20_000);
});

afterAll(async () => {
  await host?.stop();
});

function engineLayout() {
  return host.engine.topicState('demo').partitions.map((p) => ({
    partition: p.partition,
    leader: p.leader,
    replicas: [...p.replicas],
    isr: [...p.isr].sort(),
  }));
}

function highWatermarks(): number[] {
  return host.engine
    .topicState('demo')
    .partitions.map((p) => host.engine.leaderReplica('demo', p.partition)?.highWatermark ?? 0);
}

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

/** The group's committed offset of every partition of demo, as the coordinator holds it. */
function committed(group: string): (number | null)[] {
  const rows = host.engine.describeGroup(group);
  return highWatermarks().map(
    (_, p) => rows.find((r) => r.topic === 'demo' && r.partition === p)?.currentOffset ?? null,
  );
}

/** How many records the producers of test 2 wrote (kcat's only where it is installed). */
const expectedTotal = () => (kcatMissing ? 2 : 3) * RECORDS;

describe('CI test 1: metadata', () => {
  it.skipIf(kcatMissing !== null)(
    `kcat -L lists 3 brokers and the engine's leaders and ISRs${skipped(kcatMissing)}`,
    async () => {
      const { stdout } = await run(KCAT, ['-b', BOOTSTRAP, '-L', '-J', '-t', 'demo']);
      const meta = JSON.parse(stdout) as {
        brokers: { id: number; name: string }[];
        topics: {
          partitions: { partition: number; leader: number; replicas: { id: number }[]; isrs: { id: number }[] }[];
        }[];
      };
      expect(meta.brokers.map((b) => [b.id, b.name]).sort()).toEqual([
        [1, `127.0.0.1:${PORT}`],
        [2, `127.0.0.1:${PORT + 1}`],
        [3, `127.0.0.1:${PORT + 2}`],
      ]);
      const seen = (meta.topics[0]?.partitions ?? [])
        .map((p) => ({
          partition: p.partition,
          leader: p.leader,
          replicas: p.replicas.map((r) => r.id),
          isr: p.isrs.map((r) => r.id).sort(),
        }))
        .sort((a, b) => a.partition - b.partition);
      expect(seen).toEqual(engineLayout());
    },
  );

  // confluent-kafka 1.7.0 (Debian's) has no describe_cluster (kafkajs' describeCluster is checked
  // in NodeHost.test.ts): the cluster's description is read from AdminClient.list_topics.
  it.skipIf(confluentMissing !== null)(
    `confluent-kafka AdminClient.list_topics agrees: brokers, controller, cluster id, replicas and ISRs${skipped(confluentMissing)}`,
    async () => {
      const meta = JSON.parse((await run(PYTHON, [CONFLUENT, 'metadata', BOOTSTRAP])).stdout) as {
        clusterId: string;
        controllerId: number;
        brokers: { id: number; host: string; port: number }[];
        topics: Record<
          string,
          { partition: number; leader: number; replicas: number[]; isrs: number[]; error: string | null }[]
        >;
      };
      expect(meta.brokers).toEqual([1, 2, 3].map((id) => ({ id, host: '127.0.0.1', port: PORT + id - 1 })));
      expect(meta.controllerId).toBe(host.engine.controllerState().id);
      expect(meta.clusterId).toBeTruthy();
      const seen = (meta.topics.demo ?? []).map((p) => {
        expect(p.error).toBeNull();
        return { partition: p.partition, leader: p.leader, replicas: p.replicas, isr: [...p.isrs].sort() };
      });
      expect(seen).toEqual(engineLayout());
    },
  );
});

describe('CI test 2: three idempotent producers, then kcat reads back every record', () => {
  it('kafkajs 2.2.4 (idempotent, acks -1): 1,000 records acknowledged', async () => {
    const before = sum(highWatermarks());
    const kafka = kafkaClient(PORT, 'kafkajs-producer');
    const producer = kafka.producer({ idempotent: true, createPartitioner: kafkajs.Partitioners.DefaultPartitioner });
    await producer.connect();
    let acknowledged = 0;
    try {
      for (let round = 0; round < 10; round++) {
        const messages = Array.from({ length: 100 }, (_, i) => ({ key: `k${i}`, value: `kafkajs-${round * 100 + i}` }));
        const acks = await producer.send({ topic: 'demo', acks: -1, messages });
        expect(acks.every((a) => a.errorCode === 0)).toBe(true);
        acknowledged += messages.length;
      }
    } finally {
      await producer.disconnect();
    }
    expect(acknowledged).toBe(RECORDS);
    expect(sum(highWatermarks())).toBe(before + RECORDS);
  });

  it('@platformatic/kafka 1.35.0 (idempotent, acks all): 1,000 records acknowledged', async () => {
    const before = sum(highWatermarks());
    const producer = platformaticProducer(BOOTSTRAP);
    let acknowledged = 0;
    try {
      for (let round = 0; round < 10; round++) {
        const messages = Array.from({ length: 100 }, (_, i) => ({
          topic: 'demo',
          key: `k${i}`,
          value: `platformatic-${round * 100 + i}`,
        }));
        const result = await producer.send({ messages, acks: ProduceAcks.ALL });
        expect(result.offsets?.length).toBeGreaterThan(0);
        acknowledged += messages.length;
      }
    } finally {
      await producer.close();
    }
    expect(acknowledged).toBe(RECORDS);
    expect(sum(highWatermarks())).toBe(before + RECORDS);
  });

  it.skipIf(kcatMissing !== null)(
    `kcat (acks=all, enable.idempotence=true): 1,000 records acknowledged; kcat -C -o beginning -e reads back exactly 3,000${skipped(kcatMissing)}`,
    async () => {
      const before = sum(highWatermarks());
      const input = `${Array.from({ length: RECORDS }, (_, i) => `kcat-${i}`).join('\n')}\n`;
      // kcat exits non-zero if a record's delivery failed; -X dr_cb... is implied by -P.
      const produced = await run(
        KCAT,
        ['-b', BOOTSTRAP, '-P', '-t', 'demo', '-X', 'acks=all', '-X', 'enable.idempotence=true'],
        input,
      );
      expect(produced.stderr).not.toMatch(/fail|error/i);
      await until(() => sum(highWatermarks()) === before + RECORDS);

      const read = await run(KCAT, ['-b', BOOTSTRAP, '-C', '-t', 'demo', '-o', 'beginning', '-e', '-f', '%p %o %s\n']);
      const lines = read.stdout.trim().split('\n');
      expect(lines.length).toBe(3 * RECORDS);
      // Every offset of every partition exactly once ...
      const positions = new Set(lines.map((l) => l.split(' ').slice(0, 2).join('-')));
      expect(positions.size).toBe(3 * RECORDS);
      for (const [p, hw] of highWatermarks().entries()) {
        for (let o = 0; o < hw; o++) expect(positions.has(`${p}-${o}`)).toBe(true);
      }
      // ... and exactly the records the three producers wrote.
      const values = lines.map((l) => l.split(' ')[2]).sort();
      const written = ['kcat', 'kafkajs', 'platformatic']
        .flatMap((client) => Array.from({ length: RECORDS }, (_, i) => `${client}-${i}`))
        .sort();
      expect(values).toEqual(written);
    },
  );
});

describe.concurrent('CI test 3: a consumer group per client reads every record and commits the high watermarks', () => {
  it.skipIf(kcatMissing !== null)(`kcat -G${skipped(kcatMissing)}`, async () => {
    const read = await run(KCAT, [
      '-b',
      BOOTSTRAP,
      '-G',
      'kcat-group',
      'demo',
      '-o',
      'beginning',
      '-e',
      '-f',
      '%p-%o\n',
    ]);
    const offsets = read.stdout.trim().split('\n');
    expect(offsets.length).toBe(expectedTotal());
    expect(new Set(offsets).size).toBe(expectedTotal());
    // kcat commits with librdkafka's auto commit, the last of it when it closes.
    await until(() => committed('kcat-group').every((c, p) => c === highWatermarks()[p]), 15_000);
  });

  it('kafkajs 2.2.4 consumer', async () => {
    const kafka = kafkaClient(PORT, 'kafkajs-consumer');
    const consumer = kafka.consumer({ groupId: 'kafkajs-group' });
    await consumer.connect();
    const seen: string[] = [];
    try {
      await consumer.subscribe({ topic: 'demo', fromBeginning: true });
      await consumer.run({
        eachMessage: async ({ partition, message }) => {
          seen.push(`${partition}-${message.offset}`);
        },
      });
      await until(() => seen.length >= expectedTotal(), 30_000);
      await until(() => committed('kafkajs-group').every((c, p) => c === highWatermarks()[p]), 15_000);
    } finally {
      await consumer.disconnect();
    }
    expect(seen.length).toBe(expectedTotal());
    expect(new Set(seen).size).toBe(expectedTotal());
  });

  it('@platformatic/kafka 1.35.0 consumer (Fetch v13, topics by id)', async () => {
    const consumer = platformaticConsumer(BOOTSTRAP, 'platformatic-group', 'platformatic-consumer', 500);
    const seen: string[] = [];
    try {
      const stream = await consumer.consume({ topics: ['demo'], mode: 'earliest', autocommit: 100 });
      stream.on('data', (m: { partition: number; offset: bigint }) => seen.push(`${m.partition}-${m.offset}`));
      await until(() => seen.length >= expectedTotal(), 30_000);
      await until(() => committed('platformatic-group').every((c, p) => c === highWatermarks()[p]), 15_000);
      await stream.close();
    } finally {
      await consumer.close(true);
    }
    expect(seen.length).toBe(expectedTotal());
    expect(new Set(seen).size).toBe(expectedTotal());
  });

  it.skipIf(confluentMissing !== null)(
    `confluent-kafka Consumer (commit sync)${skipped(confluentMissing)}`,
    async () => {
      const out = JSON.parse(
        (await run(PYTHON, [CONFLUENT, 'consume', BOOTSTRAP, 'confluent-group', 'demo', String(expectedTotal())]))
          .stdout,
      ) as { records: [number, number][]; committed: Record<string, number> };
      expect(out.records.length).toBe(expectedTotal());
      expect(new Set(out.records.map(([p, o]) => `${p}-${o}`)).size).toBe(expectedTotal());
      const hws = highWatermarks();
      // What the client read back with OffsetFetch, and what the coordinator holds.
      expect(hws.map((_, p) => out.committed[String(p)])).toEqual(hws);
      expect(committed('confluent-group')).toEqual(hws);
    },
  );

  it.skipIf(confluentMissing !== null)(
    `two confluent-kafka consumers in one group split the partitions, without overlap or duplicates${skipped(confluentMissing)}`,
    async () => {
      const out = JSON.parse(
        (await run(PYTHON, [CONFLUENT, 'pair', BOOTSTRAP, 'confluent-pair', 'demo', String(expectedTotal())])).stdout,
      ) as { members: { assignment: number[]; records: [number, number][]; committed: Record<string, number> }[] };
      expectGroupSplit(out.members, expectedTotal());
      const hws = highWatermarks();
      expect(committed('confluent-pair')).toEqual(hws);
      for (const m of out.members) for (const p of m.assignment) expect(m.committed[String(p)]).toBe(hws[p]);
    },
  );
});

describe('fetch.max.bytes (librdkafka test 0082)', () => {
  it.skipIf(kcatMissing !== null)(
    `kcat -C with fetch.max.bytes=20000 and receive.message.max.bytes=20512 reads every record${skipped(kcatMissing)}`,
    async () => {
      // 2,000 records of 100 bytes in batches of at most 20 (about 2 KB each) into a topic of its own.
      const lines = Array.from({ length: 2000 }, (_, i) => `${String(i).padStart(6, '0')}${'x'.repeat(94)}`);
      await run(
        KCAT,
        ['-b', BOOTSTRAP, '-P', '-t', 'fetchmax', '-X', 'acks=all', '-X', 'batch.num.messages=20', '-X', 'linger.ms=5'],
        `${lines.join('\n')}\n`,
      );
      // Without max_bytes honoured a response carries up to 1 MiB per partition and librdkafka
      // refuses it ("Invalid response size") before reading a record.
      const { stdout } = await run(KCAT, [
        ...['-b', BOOTSTRAP, '-C', '-t', 'fetchmax', '-o', 'beginning', '-e', '-q'],
        ...['-X', 'message.max.bytes=20000', '-X', 'fetch.max.bytes=20000', '-X', 'receive.message.max.bytes=20512'],
      ]);
      expect(stdout.split('\n').filter((l) => l.length > 0).length).toBe(2000);
    },
  );
});

/** Runs a client without blocking the event loop (the brokers answer from this same process). */
function run(file: string, args: string[], input?: string): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = execFile(file, args, { timeout: 60_000, maxBuffer: 64 << 20 }, (err, stdout, stderr) =>
      err ? reject(new Error(`${file} ${args.join(' ')}: ${err.message}\n${stderr}`)) : resolve({ stdout, stderr }),
    );
    child.stdin?.end(input ?? '');
  });
}

async function until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error('condition still false');
    await new Promise((r) => setTimeout(r, 20));
  }
}
