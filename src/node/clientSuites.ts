/**
 * The real clients ClientSuites.test.ts judges the Node host with, each behind one interface:
 * its metadata, a producer of COUNT keyed records (acks=all, idempotent where the client has it),
 * a reader of every partition from the beginning, a group of two members, and the admin calls it
 * has. Each client speaks its own protocol code: kcat and confluent-kafka (librdkafka 2.0.2),
 * kafka-python 2.0.2 (pure Python), kafkajs 2.2.4 and @platformatic/kafka 1.35.0 (JavaScript).
 */
import { execFile, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  Admin as PltAdmin,
  Consumer as PltConsumer,
  ProduceAcks,
  Producer as PltProducer,
  stringDeserializers,
  stringSerializers,
} from '@platformatic/kafka';
import kafkajs from 'kafkajs';

/** @platformatic/kafka's idempotent producer with acks all, sending strings. */
export function platformaticProducer(bootstrap: string) {
  return new PltProducer({
    clientId: 'platformatic-producer',
    bootstrapBrokers: [bootstrap],
    serializers: stringSerializers,
    idempotent: true,
    acks: ProduceAcks.ALL,
  });
}

/** A @platformatic/kafka group consumer reading strings, its fetches waiting at most `maxWaitTime` ms. */
export function platformaticConsumer(bootstrap: string, groupId: string, clientId: string, maxWaitTime: number) {
  return new PltConsumer({
    groupId,
    clientId,
    bootstrapBrokers: [bootstrap],
    deserializers: stringDeserializers,
    maxWaitTime,
  });
}

export interface ClientMetadata {
  brokers: { id: number; host: string; port: number }[];
  partitions: { partition: number; leader: number; replicas: number[]; isr: number[] }[];
}

/** A record read back: partition, offset, value. */
export type ReadRecord = [number, number, string];

export interface GroupMember {
  assignment: number[];
  records: [number, number][];
}

export interface ClientSuite {
  name: string;
  /** Why the client cannot run here, or null. */
  missing: string | null;
  /** The value prefix its producer writes (`<prefix>-<i>`). */
  prefix: string;
  idempotent: boolean;
  metadata(bootstrap: string, topic: string): Promise<ClientMetadata>;
  produce(bootstrap: string, topic: string, count: number): Promise<number>;
  read(bootstrap: string, topic: string, count: number): Promise<ReadRecord[]>;
  pair(bootstrap: string, group: string, topic: string, count: number): Promise<GroupMember[]>;
  /** Creates `scratch` with 2 partitions, grows it to 4, sets retention.ms 120000, deletes it; null: no admin API. */
  admin: ((bootstrap: string, scratch: string) => Promise<{ grown: number; retentionMs: string }>) | null;
}

const HERE = dirname(fileURLToPath(import.meta.url));
const KCAT = '/usr/bin/kcat';
const PYTHON = '/usr/bin/python3';

/** Runs a client process without blocking the event loop (the brokers answer from this process). */
export function run(file: string, args: string[], input?: string): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = execFile(file, args, { timeout: 90_000, maxBuffer: 64 << 20 }, (err, stdout, stderr) =>
      err ? reject(new Error(`${file} ${args.join(' ')}: ${err.message}\n${stderr}`)) : resolve({ stdout, stderr }),
    );
    child.stdin?.end(input ?? '');
  });
}

async function until(check: () => boolean, timeoutMs: number): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error('condition still false');
    await new Promise((r) => setTimeout(r, 20));
  }
}

const pythonMissing = (module: string, apt: string) => {
  if (!existsSync(PYTHON)) return `${PYTHON} not found (apt-get install ${apt})`;
  const probe = spawnSync(PYTHON, ['-c', `import ${module}`], { encoding: 'utf8' });
  return probe.status === 0 ? null : `${apt} not installed (apt-get install ${apt})`;
};

/** The same driver protocol for both Python clients (src/node/clients/<file>.py). */
function pythonSuite(name: string, file: string, module: string, apt: string, idempotent: boolean): ClientSuite {
  const script = join(HERE, 'clients', file);
  const call = async <T>(args: string[]) => JSON.parse((await run(PYTHON, [script, ...args])).stdout) as T;
  return {
    name,
    missing: pythonMissing(module, apt),
    prefix: file.replace('.py', ''),
    idempotent,
    async metadata(bootstrap, topic) {
      const m = await call<{
        brokers: ClientMetadata['brokers'];
        topics: Record<string, { partition: number; leader: number; replicas: number[]; isrs: number[] }[]>;
      }>(['metadata', bootstrap]);
      return {
        brokers: m.brokers,
        partitions: (m.topics[topic] ?? []).map((p) => ({
          partition: p.partition,
          leader: p.leader,
          replicas: p.replicas,
          isr: p.isrs,
        })),
      };
    },
    produce: async (bootstrap, topic, count) =>
      (await call<{ delivered: number }>(['produce', bootstrap, topic, String(count)])).delivered,
    read: async (bootstrap, topic, count) =>
      (await call<{ records: ReadRecord[] }>(['read', bootstrap, topic, String(count)])).records,
    pair: async (bootstrap, group, topic, count) =>
      (await call<{ members: GroupMember[] }>(['pair', bootstrap, group, topic, String(count)])).members,
    admin: async (bootstrap, scratch) => {
      const steps = await call<{ grown: number; 'retention.ms': string }>(
        file === 'kafkapython.py' ? ['admin', bootstrap, scratch, 'no-such-group'] : ['admin', bootstrap, scratch],
      );
      return { grown: steps.grown, retentionMs: steps['retention.ms'] };
    },
  };
}

const kcat: ClientSuite = {
  name: 'kcat (librdkafka 2.0.2)',
  missing: existsSync(KCAT) ? null : `${KCAT} not found (apt-get install kcat)`,
  prefix: 'kcat',
  idempotent: true,
  async metadata(bootstrap, topic) {
    const m = JSON.parse((await run(KCAT, ['-b', bootstrap, '-L', '-J', '-t', topic])).stdout) as {
      brokers: { id: number; name: string }[];
      topics: {
        partitions: { partition: number; leader: number; replicas: { id: number }[]; isrs: { id: number }[] }[];
      }[];
    };
    return {
      brokers: m.brokers.map((b) => {
        const [host = '', port = '0'] = b.name.split(':');
        return { id: b.id, host, port: Number(port) };
      }),
      partitions: (m.topics[0]?.partitions ?? []).map((p) => ({
        partition: p.partition,
        leader: p.leader,
        replicas: p.replicas.map((r) => r.id),
        isr: p.isrs.map((r) => r.id),
      })),
    };
  },
  async produce(bootstrap, topic, count) {
    const input = `${Array.from({ length: count }, (_, i) => `k${i % 100}:kcat-${i}`).join('\n')}\n`;
    // kcat exits non-zero when a delivery fails.
    await run(
      KCAT,
      ['-b', bootstrap, '-P', '-t', topic, '-K:', '-X', 'acks=all', '-X', 'enable.idempotence=true'],
      input,
    );
    return count;
  },
  async read(bootstrap, topic) {
    const out = await run(KCAT, ['-b', bootstrap, '-C', '-t', topic, '-o', 'beginning', '-e', '-f', '%p %o %s\n']);
    return out.stdout
      .trim()
      .split('\n')
      .map((l) => {
        const [p = '', o = '', v = ''] = l.split(' ');
        return [Number(p), Number(o), v];
      });
  },
  async pair(bootstrap, group, topic) {
    // Two balanced consumers started together: group.initial.rebalance.delay.ms lets both into
    // the first generation; each reads its partitions to their end (-e) and commits as it leaves.
    const member = () => run(KCAT, ['-b', bootstrap, '-G', group, topic, '-o', 'beginning', '-e', '-f', '%p %o\n']);
    const outs = await Promise.all([member(), member()]);
    return outs.map((o) => {
      const records = o.stdout
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split(' ').map(Number) as [number, number]);
      return { assignment: [...new Set(records.map(([p]) => p))].sort(), records };
    });
  },
  admin: null,
};

const quiet = (clientId: string, bootstrap: string) =>
  new kafkajs.Kafka({ clientId, brokers: [bootstrap], logLevel: kafkajs.logLevel.NOTHING });

const kafkajsSuite: ClientSuite = {
  name: 'kafkajs 2.2.4',
  missing: null,
  prefix: 'kafkajs',
  idempotent: true,
  async metadata(bootstrap, topic) {
    const admin = quiet('kafkajs-admin', bootstrap).admin();
    await admin.connect();
    try {
      const cluster = await admin.describeCluster();
      const meta = await admin.fetchTopicMetadata({ topics: [topic] });
      return {
        brokers: cluster.brokers.map((b) => ({ id: b.nodeId, host: b.host, port: b.port })),
        partitions: (meta.topics[0]?.partitions ?? []).map((p) => ({
          partition: p.partitionId,
          leader: p.leader,
          replicas: p.replicas,
          isr: p.isr,
        })),
      };
    } finally {
      await admin.disconnect();
    }
  },
  async produce(bootstrap, topic, count) {
    const producer = quiet('kafkajs-producer', bootstrap).producer({
      idempotent: true,
      createPartitioner: kafkajs.Partitioners.DefaultPartitioner,
    });
    await producer.connect();
    let acked = 0;
    try {
      for (let from = 0; from < count; from += 1000) {
        const messages = Array.from({ length: Math.min(1000, count - from) }, (_, i) => ({
          key: `k${(from + i) % 100}`,
          value: `kafkajs-${from + i}`,
        }));
        const acks = await producer.send({ topic, acks: -1, messages });
        if (acks.every((a) => a.errorCode === 0)) acked += messages.length;
      }
    } finally {
      await producer.disconnect();
    }
    return acked;
  },
  async read(bootstrap, topic, count) {
    const consumer = quiet('kafkajs-reader', bootstrap).consumer({ groupId: `kafkajs-read-${topic}` });
    const seen: ReadRecord[] = [];
    await consumer.connect();
    try {
      await consumer.subscribe({ topic, fromBeginning: true });
      await consumer.run({
        eachMessage: async ({ partition, message }) => {
          seen.push([partition, Number(message.offset), String(message.value)]);
        },
      });
      await until(() => seen.length >= count, 60_000);
    } finally {
      await consumer.disconnect();
    }
    return seen;
  },
  async pair(bootstrap, group, topic, count) {
    const members = await Promise.all(
      [0, 1].map(async (i) => {
        const consumer = quiet(`kafkajs-${group}-${i}`, bootstrap).consumer({ groupId: group });
        const member: GroupMember & { consumer: kafkajs.Consumer } = { assignment: [], records: [], consumer };
        consumer.on(consumer.events.GROUP_JOIN, (e) => {
          member.assignment = [...(e.payload.memberAssignment[topic] ?? [])].sort();
        });
        await consumer.connect();
        await consumer.subscribe({ topic, fromBeginning: true });
        await consumer.run({
          eachMessage: async ({ partition, message }) => {
            member.records.push([partition, Number(message.offset)]);
          },
        });
        return member;
      }),
    );
    try {
      await until(
        () =>
          members.every((m) => m.assignment.length > 0) && members.reduce((n, m) => n + m.records.length, 0) >= count,
        60_000,
      );
    } finally {
      await Promise.all(members.map((m) => m.consumer.disconnect()));
    }
    return members.map(({ assignment, records }) => ({ assignment, records }));
  },
  async admin(bootstrap, scratch) {
    const admin = quiet('kafkajs-admin', bootstrap).admin();
    await admin.connect();
    try {
      await admin.createTopics({ topics: [{ topic: scratch, numPartitions: 2, replicationFactor: 3 }] });
      await admin.createPartitions({ topicPartitions: [{ topic: scratch, count: 4 }] });
      const grown = (await admin.fetchTopicMetadata({ topics: [scratch] })).topics[0]?.partitions.length ?? 0;
      await admin.alterConfigs({
        validateOnly: false,
        resources: [{ type: 2, name: scratch, configEntries: [{ name: 'retention.ms', value: '120000' }] }],
      });
      const described = await admin.describeConfigs({
        includeSynonyms: false,
        resources: [{ type: 2, name: scratch, configNames: ['retention.ms'] }],
      });
      await admin.deleteTopics({ topics: [scratch] });
      return { grown, retentionMs: described.resources[0]?.configEntries[0]?.configValue ?? '' };
    } finally {
      await admin.disconnect();
    }
  },
};

const platformatic: ClientSuite = {
  name: '@platformatic/kafka 1.35.0',
  missing: null,
  prefix: 'platformatic',
  idempotent: true,
  async metadata(bootstrap, topic) {
    const admin = new PltAdmin({ clientId: 'platformatic-admin', bootstrapBrokers: [bootstrap] });
    try {
      const m = await admin.metadata({ topics: [topic] });
      return {
        brokers: [...m.brokers].map(([id, b]) => ({ id, host: b.host, port: b.port })),
        partitions: (m.topics.get(topic)?.partitions ?? []).map((p, partition) => ({
          partition,
          leader: p.leader,
          replicas: p.replicas,
          isr: p.isr,
        })),
      };
    } finally {
      await admin.close();
    }
  },
  async produce(bootstrap, topic, count) {
    const producer = platformaticProducer(bootstrap);
    let acked = 0;
    try {
      for (let from = 0; from < count; from += 1000) {
        const messages = Array.from({ length: Math.min(1000, count - from) }, (_, i) => ({
          topic,
          key: `k${(from + i) % 100}`,
          value: `platformatic-${from + i}`,
        }));
        await producer.send({ messages, acks: ProduceAcks.ALL });
        acked += messages.length;
      }
    } finally {
      await producer.close();
    }
    return acked;
  },
  async read(bootstrap, topic, count) {
    const consumer = platformaticConsumer(bootstrap, `platformatic-read-${topic}`, 'platformatic-reader', 200);
    const seen: ReadRecord[] = [];
    try {
      const stream = await consumer.consume({ topics: [topic], mode: 'earliest', autocommit: false });
      stream.on('data', (m: { partition: number; offset: bigint; value: string }) =>
        seen.push([m.partition, Number(m.offset), m.value]),
      );
      await until(() => seen.length >= count, 60_000);
      await stream.close();
    } finally {
      await consumer.close(true);
    }
    return seen;
  },
  async pair(bootstrap, group, topic, count) {
    const members = await Promise.all(
      [0, 1].map(async (i) => {
        const consumer = new PltConsumer({
          groupId: group,
          clientId: `platformatic-${group}-${i}`,
          bootstrapBrokers: [bootstrap],
          deserializers: stringDeserializers,
          maxWaitTime: 200,
        });
        const records: [number, number][] = [];
        const stream = await consumer.consume({ topics: [topic], mode: 'earliest', autocommit: 100 });
        stream.on('data', (m: { partition: number; offset: bigint }) => records.push([m.partition, Number(m.offset)]));
        return { consumer, stream, records };
      }),
    );
    const assignmentOf = (c: PltConsumer<string, string, string, string>) =>
      (c.assignments ?? []).flatMap((a) => a.partitions).sort();
    try {
      await until(
        () =>
          members.every((m) => assignmentOf(m.consumer).length > 0) &&
          members.reduce((n, m) => n + m.records.length, 0) >= count,
        60_000,
      );
      // autocommit every 100 ms: wait one more round so the last offsets are committed.
      await new Promise((r) => setTimeout(r, 300));
      return members.map((m) => ({ assignment: assignmentOf(m.consumer), records: m.records }));
    } finally {
      for (const m of members) await m.stream.close();
      await Promise.all(members.map((m) => m.consumer.close(true)));
    }
  },
  async admin(bootstrap, scratch) {
    const admin = new PltAdmin({ clientId: 'platformatic-admin', bootstrapBrokers: [bootstrap] });
    try {
      await admin.createTopics({ topics: [scratch], partitions: 2, replicas: 3 });
      await admin.createPartitions({ topics: [{ name: scratch, count: 4 }] });
      const grown =
        (await admin.metadata({ topics: [scratch], forceUpdate: true })).topics.get(scratch)?.partitionsCount ?? 0;
      await admin.incrementalAlterConfigs({
        resources: [
          {
            resourceType: 2,
            resourceName: scratch,
            configs: [{ name: 'retention.ms', configOperation: 0, value: '120000' }],
          },
        ],
      });
      const described = await admin.describeConfigs({
        resources: [{ resourceType: 2, resourceName: scratch, configurationKeys: ['retention.ms'] }],
      });
      await admin.deleteTopics({ topics: [scratch] });
      return { grown, retentionMs: described[0]?.configs[0]?.value ?? '' };
    } finally {
      await admin.close();
    }
  },
};

const require = createRequire(import.meta.url);
/** An npm client kept out of package.json: skipped with the reason, unless someone installed it. */
function notInPackageJson(pkg: string, reason: string): string | null {
  try {
    require.resolve(pkg);
    return `${pkg} is installed, but no driver is written for it yet`;
  } catch {
    return `${pkg} is not in package.json: ${reason}`;
  }
}

/** The three npm clients with native code, each skipped with why it is not installed. */
const natives: ClientSuite[] = [
  [
    'node-rdkafka 3.6.1',
    'node-rdkafka',
    'its install compiles its bundled librdkafka with node-gyp (minutes of both cores, a C toolchain and OpenSSL/SASL headers): too slow and fragile for npm ci, not attempted on this shared machine',
  ],
  [
    'kafka-crab-js 5.0.0',
    'kafka-crab-js',
    'its prebuilt binaries need Node 24 (engines: node 24); this machine and CI run Node 20, where npm skips the binary and the module cannot load',
  ],
  [
    '@confluentinc/kafka-javascript 1.10.1',
    '@confluentinc/kafka-javascript',
    'its install downloads a prebuilt binary from GitHub releases, else builds librdkafka from source, which downloads zlib, OpenSSL and zstd: tried here, every download failed and npm install exited 1',
  ],
].map(([name, pkg, reason]) => ({
  name: name as string,
  missing: notInPackageJson(pkg as string, reason as string),
  prefix: pkg as string,
  idempotent: true,
  metadata: () => Promise.reject(new Error('not installed')),
  produce: () => Promise.reject(new Error('not installed')),
  read: () => Promise.reject(new Error('not installed')),
  pair: () => Promise.reject(new Error('not installed')),
  admin: null,
}));

export const CLIENT_SUITES: readonly ClientSuite[] = [
  kcat,
  pythonSuite(
    'confluent-kafka 1.7.0 (librdkafka 2.0.2)',
    'confluent.py',
    'confluent_kafka',
    'python3-confluent-kafka',
    true,
  ),
  pythonSuite('kafka-python 2.0.2', 'kafkapython.py', 'kafka', 'python3-kafka', false),
  kafkajsSuite,
  platformatic,
  ...natives,
];
