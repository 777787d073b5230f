/**
 * Test support for the Node host's socket tests: waiting on the engine, and one request sent as
 * raw bytes (a client's own encoder wrote its body) with the answer's body returned for the
 * client's own decoder.
 */
import { connect, type Socket } from 'node:net';
import kafkajs from 'kafkajs';
import { afterAll, beforeAll, expect } from 'vitest';
import {
  ByteReader,
  ByteWriter,
  frame,
  readResponseHeader,
  requestHeaderVersion,
  responseHeaderVersion,
  writeRequestHeader,
} from '../engine/index';
import { freePortRange } from './freePorts';
import { NodeHost, type NodeHostOptions } from './NodeHost';

/** A kafkajs client of the brokers listening from `port`, quiet. */
export function kafkaClient(port: number, clientId: string): kafkajs.Kafka {
  return new kafkajs.Kafka({ clientId, brokers: [`127.0.0.1:${port}`], logLevel: kafkajs.logLevel.NOTHING });
}

/** A kafkajs admin of the brokers listening from `port`, connected for `use` and disconnected after. */
export async function withKafkajsAdmin<T>(port: number, use: (admin: kafkajs.Admin) => Promise<T>): Promise<T> {
  const admin = kafkaClient(port, 'glassbox-admin').admin();
  await admin.connect();
  try {
    return await use(admin);
  } finally {
    await admin.disconnect();
  }
}

/** Three brokers on `port`.. with topic demo (3 partitions, RF 3), started. */
export async function startDemoHost(port: number, brokerConfig?: NodeHostOptions['brokerConfig']): Promise<NodeHost> {
  const host = new NodeHost({
    brokers: 3,
    port,
    host: '127.0.0.1',
    topics: [{ name: 'demo', partitions: 3, replicationFactor: 3 }],
    ...(brokerConfig ? { brokerConfig } : {}),
  });
  await host.start();
  return host;
}

/** The three-broker host the Admin tests share: started before the file's tests, stopped after. */
export interface SharedAdminHost {
  /** The first broker's port (the others follow it). */
  readonly port: number;
  /** The running host (valid inside tests). */
  host(): NodeHost;
  client(clientId: string): kafkajs.Kafka;
  withAdmin<T>(use: (admin: kafkajs.Admin) => Promise<T>): Promise<T>;
}

/**
 * Registers beforeAll/afterAll for a demo host on free ports, with short ZooKeeper sessions and
 * topics of two partitions on all three brokers by default.
 */
export async function sharedAdminHost(): Promise<SharedAdminHost> {
  const port = await freePortRange(8);
  let host: NodeHost | undefined;
  beforeAll(async () => {
    host = await startDemoHost(port, {
      'zookeeper.session.timeout.ms': 6000,
      'num.partitions': 2,
      'default.replication.factor': 3,
    });
  });
  afterAll(async () => {
    await host?.stop();
  });
  return {
    port,
    host: () => {
      if (!host) throw new Error('the shared host is not started yet');
      return host;
    },
    client: (clientId) => kafkaClient(port, clientId),
    withAdmin: (use) => withKafkajsAdmin(port, use),
  };
}

export async function until(check: () => boolean, timeoutMs = 5_000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error('condition still false');
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** One request to 127.0.0.1:`port`; resolves with the response body (the header read off). */
export function exchange(
  port: number,
  request: { apiKey: number; apiVersion: number; flexible: boolean; body: Uint8Array },
): Promise<Uint8Array> {
  const { apiKey, apiVersion, flexible, body } = request;
  const header = new ByteWriter(64);
  writeRequestHeader(
    header,
    { apiKey, apiVersion, correlationId: 7, clientId: 'raw-test' },
    requestHeaderVersion(apiKey, apiVersion, flexible),
  );
  const bytes = frame([header.toBytes(), body]);
  return new Promise((resolve, reject) => {
    let got = Buffer.alloc(0);
    const s = connect(port, '127.0.0.1', () => s.write(bytes));
    s.on('data', (chunk) => {
      got = Buffer.concat([got, chunk]);
      if (got.length < 4 || got.length < 4 + got.readInt32BE(0)) return;
      s.destroy();
      const r = new ByteReader(new Uint8Array(got.subarray(4, 4 + got.readInt32BE(0))));
      readResponseHeader(r, responseHeaderVersion(apiKey, flexible));
      resolve(r.readRaw(r.remaining));
    });
    s.once('error', reject);
    s.once('close', () => reject(new Error('closed before an answer')));
  });
}

/** Whether a broker's port takes a connection now. */
export function tryConnect(port: number): Promise<'connected' | 'refused'> {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1');
    s.once('connect', () => {
      s.destroy();
      resolve('connected');
    });
    s.once('error', () => resolve('refused'));
  });
}

/** The correlation ids of the first `count` answers read off `s`, in the order they came (then `s` is closed). */
export function correlationIds(s: Socket, count: number): Promise<number[]> {
  return new Promise((resolve, reject) => {
    let buffered = Buffer.alloc(0);
    const seen: number[] = [];
    s.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      while (buffered.length >= 8 && buffered.length >= 4 + buffered.readInt32BE(0)) {
        seen.push(buffered.readInt32BE(4));
        buffered = buffered.subarray(4 + buffered.readInt32BE(0));
      }
      if (seen.length === count) {
        s.destroy();
        resolve(seen);
      }
    });
    s.once('error', reject);
  });
}

/**
 * A two-member group's split of a three-partition topic: each member holds partitions, none held
 * by both, all three between them, and every one of `total` records read once, by one member.
 */
export function expectGroupSplit(
  members: readonly { assignment: number[]; records: [number, number][] }[],
  total: number,
): void {
  const [a, b] = members;
  if (!a || !b) throw new Error('two members expected');
  expect(a.assignment.length).toBeGreaterThan(0);
  expect(b.assignment.length).toBeGreaterThan(0);
  expect(a.assignment.filter((p) => b.assignment.includes(p))).toEqual([]);
  expect([...a.assignment, ...b.assignment].sort()).toEqual([0, 1, 2]);
  const all = [...a.records, ...b.records].map(([p, o]) => `${p}-${o}`);
  expect(all.length).toBe(total);
  expect(new Set(all).size).toBe(total);
}
