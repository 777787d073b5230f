/**
 * Issue 14's bad input at the socket level: 1,000 idle connections, a client that disconnects
 * mid-request, a truncated request. Each gets Kafka's answer or a closed connection, never a crash
 * or a stuck engine, nothing acknowledged is lost, and the host closes every connection at stop
 * without leaking file descriptors.
 */
import { existsSync, readdirSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import kafkajs from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ByteWriter,
  encodeMessage,
  ProduceRequestData,
  requestHeaderVersion,
  withRecords,
  writeRequestHeader,
} from '../engine/index';
import type { NodeHost } from './NodeHost';
import { correlationIds, kafkaClient, startDemoHost } from './wireTesting';
import { freePortRange } from './freePorts';

const PORT = await freePortRange(8);
const IDLE = 1000;

/** Open file descriptors of this process (Linux), or null where /proc is not there. */
const openFds = () => (existsSync('/proc/self/fd') ? readdirSync('/proc/self/fd').length : null);

let host: NodeHost;
let stopped = false;
let fdsBefore: number | null = null;

beforeAll(async () => {
  fdsBefore = openFds();
  host = await startDemoHost(PORT);
  await until(() => host.engine.topicState('demo').partitions.every((p) => p.isr.length === 3), 20_000);
});

afterAll(async () => {
  if (!stopped) await host?.stop();
});

function highWatermarks(): number[] {
  return host.engine
    .topicState('demo')
    .partitions.map((p) => host.engine.leaderReplica('demo', p.partition)?.highWatermark ?? 0);
}
const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

/** A framed Produce v3 request (acks -1) of `records` plain records to demo's `partition` (led by broker 1, where these requests go). */
function produceFrame(correlationId: number, partition: number, records: number): Buffer {
  const batch = withRecords(
    Array.from({ length: records }, (_, i) => ({ key: null, value: new TextEncoder().encode(`raw-${i}`) })),
    Date.now(),
  );
  const w = new ByteWriter(256);
  w.writeInt32(0);
  writeRequestHeader(
    w,
    { apiKey: ProduceRequestData.apiKey, apiVersion: 3, correlationId, clientId: 'raw' },
    requestHeaderVersion(ProduceRequestData.apiKey, 3, false),
  );
  w.writeRaw(
    encodeMessage(ProduceRequestData, 3, {
      transactionalId: null,
      acks: -1,
      timeoutMs: 30_000,
      topicData: [{ name: 'demo', partitionData: [{ index: partition, records: batch }] }],
    }),
  );
  const framed = Buffer.from(w.toBytes());
  framed.writeInt32BE(framed.length - 4, 0);
  return framed;
}

/** Writes `bytes`, then resolves with the first answer's correlation id, or 'closed'. */
function exchange(bytes: Buffer): Promise<number | 'closed'> {
  return new Promise((resolve) => {
    const s = connect(PORT, '127.0.0.1', () => s.write(bytes));
    let buffered = Buffer.alloc(0);
    s.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      if (buffered.length >= 8 && buffered.length >= 4 + buffered.readInt32BE(0)) {
        s.destroy();
        resolve(buffered.readInt32BE(4));
      }
    });
    s.once('close', () => resolve('closed'));
    s.once('error', () => undefined);
  });
}

describe('NodeHost connections', () => {
  it('a truncated request (a frame whose body ends early) closes that connection; the engine keeps serving', async () => {
    expect(host.engine.topicState('demo').partitions[0]?.leader).toBe(1);
    const full = produceFrame(41, 0, 3);
    // The size says what is there, but the body stops in the middle of the record batch.
    const cut = full.subarray(0, full.length - 20);
    const truncated = Buffer.concat([Buffer.alloc(4), cut.subarray(4)]);
    truncated.writeInt32BE(truncated.length - 4, 0);
    await expect(exchange(truncated)).resolves.toBe('closed');
    const before = sum(highWatermarks());
    await expect(exchange(produceFrame(42, 0, 3))).resolves.toBe(42);
    await until(() => sum(highWatermarks()) === before + 3);
  });

  it("librdkafka 2.12's all-topics Metadata v12 request, 3 bytes after its last field, is answered (librdkafka #5049)", async () => {
    // The exact bytes rd_kafka_MetadataRequest0 sends: request header v2 (api key 3, version 12,
    // correlation id 71, client id "rdkafka", no tags), then the body whose reserved int32 topic
    // count stayed 00 00 00 00, AllowAutoTopicCreation 1, IncludeTopicAuthorizedOperations 0, tags 0.
    const clientId = Buffer.from('rdkafka');
    const header = Buffer.alloc(2 + 2 + 4 + 2);
    header.writeInt16BE(3, 0);
    header.writeInt16BE(12, 2);
    header.writeInt32BE(71, 4);
    header.writeInt16BE(clientId.length, 8);
    const request = Buffer.concat([header, clientId, Buffer.from([0x00, 0, 0, 0, 0, 0x01, 0x00, 0x00])]);
    const size = Buffer.alloc(4);
    size.writeInt32BE(request.length);
    await expect(exchange(Buffer.concat([size, request]))).resolves.toBe(71);
  });

  it('a client that disconnects mid-request (half a frame, or before its acks=all answer) leaves the engine working', async () => {
    const frame = produceFrame(51, 0, 5);
    // Half a frame, then gone: nothing of it reaches the engine.
    const before = sum(highWatermarks());
    await new Promise<void>((resolve) => {
      const s = connect(PORT, '127.0.0.1', () => {
        s.write(frame.subarray(0, frame.length >> 1));
        setTimeout(() => s.destroy(), 20);
      });
      s.once('close', () => resolve());
    });
    // A whole Produce (acks=-1) and gone before the answer: the batch is appended and
    // replicated, the answer has nobody to go to.
    await new Promise<void>((resolve) => {
      const s = connect(PORT, '127.0.0.1', () => s.end(frame));
      s.once('close', () => resolve());
    });
    // Polled, with room for a busy machine: the server hears the close on its own time.
    await until(() => sum(highWatermarks()) === before + 5, 20_000);
    await until(() => (host.listeners.connections().get(1) ?? 0) === 0, 20_000);
    // The next client is answered as before.
    await expect(exchange(produceFrame(52, 0, 5))).resolves.toBe(52);
    await until(() => sum(highWatermarks()) === before + 10, 20_000);
  });

  it('frames split anywhere across reads (even inside the 4-byte size) are answered in order', async () => {
    const frames = Buffer.concat([produceFrame(61, 0, 2), produceFrame(62, 0, 3), produceFrame(63, 0, 4)]);
    const before = sum(highWatermarks());
    const s = connect(PORT, '127.0.0.1');
    s.setNoDelay(true);
    const answers = correlationIds(s, 3);
    s.once('connect', async () => {
      // Pieces of 1 to 7 bytes, each its own write, a pause now and then so they arrive apart.
      for (let at = 0, n = 0; at < frames.length; n++) {
        const len = 1 + ((n * 5) % 7);
        s.write(frames.subarray(at, at + len));
        at += len;
        if (n % 16 === 0) await new Promise((r) => setTimeout(r, 1));
      }
    });
    const ids = await answers;
    expect(ids).toEqual([61, 62, 63]);
    await until(() => sum(highWatermarks()) === before + 9);
  });

  it('1,000 idle connections: a real client still produces and consumes, and stop closes them all without a leak', async () => {
    const sockets: Socket[] = [];
    const closed = new Set<Socket>();
    await Promise.all(
      Array.from(
        { length: IDLE },
        () =>
          new Promise<void>((resolve, reject) => {
            const s = connect(PORT, '127.0.0.1', () => resolve());
            s.once('error', reject);
            s.once('close', () => closed.add(s));
            sockets.push(s);
          }),
      ),
    );
    await until(() => (host.listeners.connections().get(1) ?? 0) >= IDLE);

    const kafka = kafkaClient(PORT, 'busy-neighbour');
    const producer = kafka.producer({ idempotent: true, createPartitioner: kafkajs.Partitioners.DefaultPartitioner });
    await producer.connect();
    const before = highWatermarks();
    const messages = Array.from({ length: 300 }, (_, i) => ({ key: `k${i}`, value: `idle-${i}` }));
    const acks = await producer.send({ topic: 'demo', acks: -1, messages });
    await producer.disconnect();
    expect(acks.every((a) => a.errorCode === 0)).toBe(true);
    expect(sum(highWatermarks())).toBe(sum(before) + messages.length);

    const consumer = kafka.consumer({ groupId: 'idle-neighbours', maxWaitTimeInMs: 200 });
    await consumer.connect();
    const seen = new Set<string>();
    try {
      await consumer.subscribe({ topic: 'demo', fromBeginning: true });
      await consumer.run({
        eachMessage: async ({ message }) => {
          seen.add(message.value?.toString() ?? '');
        },
      });
      await until(() => messages.every((m) => seen.has(m.value)), 30_000);
    } finally {
      await consumer.disconnect();
    }
    // Still idle and open.
    expect(closed.size).toBe(0);

    // Stop with every idle connection still open: each is closed, the engine stops, and the
    // process holds no more descriptors than before the host started.
    stopped = true;
    await host.stop();
    await until(() => closed.size === IDLE, 10_000);
    expect([...host.listeners.connections().values()].reduce((a, b) => a + b, 0)).toBe(0);
    for (const s of sockets) s.destroy();
    if (fdsBefore !== null) await until(() => (openFds() ?? 0) <= (fdsBefore ?? 0) + 2, 10_000);
  });
});

async function until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error('condition still false');
    await new Promise((r) => setTimeout(r, 20));
  }
}
