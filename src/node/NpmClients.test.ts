/**
 * Issue 29 item 3: the npm clients built on librdkafka 2.12 and later, whose "all topics" Metadata
 * v12 request carries 3 bytes after its last field (librdkafka #5049; the wire-level replay of
 * those exact bytes is in NodeHostConnections.test.ts and wireCodec.test.ts):
 *
 * - node-rdkafka's default `connect()` (it fetches the metadata of all topics);
 * - @confluentinc/kafka-javascript's producer and consumer (its KafkaJS-compatible API);
 * - kafka-crab-js's topic creation (`subscribe` with `createTopic`).
 *
 * None is a dev dependency: node-rdkafka@3.6.1 and @confluentinc/kafka-javascript@1.10.1 build
 * librdkafka from source when installed, which downloads zlib, OpenSSL and zstd sources (this
 * machine cannot reach them) and takes many minutes in `npm ci`; kafka-crab-js@5.0.0's native
 * binary (kafka-crab-js-linux-x64-gnu) declares Node 24, so npm leaves it out on Node 20. Each
 * test runs when its package can be loaded (`npm install --no-save` it) and is skipped with that
 * reason otherwise. kafka-crab-js was run by hand here (its binary installed with --force): its
 * topic creation fails with "Meta data fetch error: BrokerTransportFailure" before the fix and
 * creates the topic after it.
 */
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NodeHost } from './NodeHost';
import { startDemoHost, until } from './wireTesting';
import { freePortRange } from './freePorts';

const PORT = await freePortRange(8);
const BOOTSTRAP = `127.0.0.1:${PORT}`;
const require = createRequire(import.meta.url);

/** The package's module, or why it cannot be loaded here. */
async function load(name: string, why: string): Promise<{ module: unknown } | { missing: string }> {
  try {
    require.resolve(name);
  } catch {
    return { missing: `${name} is not installed: ${why}` };
  }
  try {
    return { module: await import(/* @vite-ignore */ name) };
  } catch (e) {
    return { missing: `${name} does not load: ${e instanceof Error ? e.message : String(e)}` };
  }
}

const rdkafka = await load('node-rdkafka', 'it builds librdkafka from source (minutes, and downloads) in npm ci');
const confluent = await load(
  '@confluentinc/kafka-javascript',
  'it builds librdkafka from source, downloading zlib, OpenSSL and zstd',
);
const crab = await load('kafka-crab-js', 'its native binary declares Node 24, so npm skips it on Node 20');
const reason = (l: { module: unknown } | { missing: string }) => ('missing' in l ? l.missing : null);
for (const l of [rdkafka, confluent, crab]) if ('missing' in l) console.warn(`NpmClients: skipping: ${l.missing}`);
const named = (l: { module: unknown } | { missing: string }) => ('missing' in l ? ` [skipped: ${l.missing}]` : '');

let host: NodeHost | null = null;
const anyClient = [rdkafka, confluent, crab].some((l) => 'module' in l);

beforeAll(async () => {
  if (anyClient) host = await startDemoHost(PORT);
});

afterAll(async () => {
  await host?.stop();
});

interface RdKafkaProducer {
  connect(options: object, done: (err: Error | null, metadata: { topics: { name: string }[] }) => void): void;
  disconnect(done: () => void): void;
}

interface ConfluentKafkaJS {
  Kafka: new (
    config: object,
  ) => {
    producer(): {
      connect(): Promise<void>;
      send(r: { topic: string; messages: { value: string }[] }): Promise<unknown>;
      disconnect(): Promise<void>;
    };
    consumer(config: object): {
      connect(): Promise<void>;
      subscribe(s: { topics: string[] }): Promise<void>;
      run(r: { eachMessage: (m: { message: { value: Buffer | null } }) => Promise<void> }): Promise<void>;
      disconnect(): Promise<void>;
    };
  };
}

interface CrabModule {
  KafkaClient: new (config: {
    brokers: string;
    clientId: string;
    logLevel?: string;
  }) => {
    createConsumer(config: { groupId: string }): {
      subscribe(
        topics: { topic: string; createTopic: boolean; numPartitions: number; replicas: number }[],
      ): Promise<void>;
      disconnect(): void;
    };
  };
}

describe('npm clients on librdkafka 2.12+', () => {
  it.skipIf(reason(rdkafka) !== null)(
    `node-rdkafka's default connect() gets the metadata of all topics${named(rdkafka)}`,
    async () => {
      const { Producer } = (rdkafka as { module: { Producer: new (c: object) => RdKafkaProducer } }).module;
      const producer = new Producer({ 'metadata.broker.list': BOOTSTRAP });
      const metadata = await new Promise<{ topics: { name: string }[] }>((resolve, reject) =>
        producer.connect({}, (err, md) => (err ? reject(err) : resolve(md))),
      );
      expect(metadata.topics.map((t) => t.name)).toContain('demo');
      await new Promise<void>((resolve) => producer.disconnect(resolve));
    },
  );

  it.skipIf(reason(confluent) !== null)(
    `@confluentinc/kafka-javascript's producer and consumer${named(confluent)}`,
    async () => {
      const { Kafka } = (confluent as { module: { KafkaJS: ConfluentKafkaJS } }).module.KafkaJS;
      const kafka = new Kafka({ kafkaJS: { brokers: [BOOTSTRAP] } });
      const producer = kafka.producer();
      await producer.connect();
      await producer.send({ topic: 'demo', messages: [{ value: 'from kafka-javascript' }] });
      await producer.disconnect();
      const consumer = kafka.consumer({ kafkaJS: { groupId: 'kafka-javascript', fromBeginning: true } });
      await consumer.connect();
      await consumer.subscribe({ topics: ['demo'] });
      const seen: string[] = [];
      await consumer.run({ eachMessage: async ({ message }) => void seen.push(String(message.value)) });
      await until(() => seen.includes('from kafka-javascript'), 30_000);
      await consumer.disconnect();
    },
    60_000,
  );

  it.skipIf(reason(crab) !== null)(`kafka-crab-js creates a topic on subscribe${named(crab)}`, async () => {
    const { KafkaClient } = (crab as { module: CrabModule }).module;
    const client = new KafkaClient({ brokers: BOOTSTRAP, clientId: 'crab', logLevel: 'warn' });
    const consumer = client.createConsumer({ groupId: 'crab-group' });
    await consumer.subscribe([{ topic: 'crab-created', createTopic: true, numPartitions: 3, replicas: 3 }]);
    expect(host?.engine.topicNames()).toContain('crab-created');
    consumer.disconnect();
  });
});
