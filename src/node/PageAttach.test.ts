/**
 * The page attached to the Node host (issue 14): the page's protocol over a WebSocket to the
 * engine real clients talk to. Real kafkajs 2.2.4 clients produce (idempotent, acks -1) and
 * consume in a group while the leader broker is killed THROUGH THE PAGE'S PROTOCOL: the clients
 * find the new leaders, no acknowledged record is lost, and the page receives the election and
 * the rebalance. Also: the Origin check, one page controls while others watch.
 */
import { request } from 'node:http';
import kafkajs from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngineEvent, BoardView } from '../engine/apps/index';
import type { NodeHost } from './NodeHost';
import { HOST_PATH, type PageServer } from './PageServer';
import { fullFrame, PageError, servedHost, TestPage } from './pageTesting';
import { tryConnect } from './wireTesting';
import { freePortRange } from './freePorts';

// Ports 19800-19999 are this suite's (the brief's range for broker listeners in tests).
const BASE_PORT = await freePortRange(8);
let host: NodeHost;
let server: PageServer;
let wsUrl: string;

beforeAll(async () => {
  ({ host, server } = await servedHost({
    brokers: 3,
    port: BASE_PORT,
    host: '127.0.0.1',
    topics: [{ name: 'demo', partitions: 3, replicationFactor: 3 }],
    brokerConfig: { 'zookeeper.session.timeout.ms': 3000 },
  }));
  wsUrl = `${server.origin.replace('http:', 'ws:')}${HOST_PATH}`;
});

afterAll(async () => {
  await server.stop();
  await host.stop();
});

describe('PageServer: the page attached to the Node engine', () => {
  it('serves index.html marked for attaching, and nothing outside dist/', async () => {
    const html = await (await fetch(`${server.origin}/`)).text();
    expect(html).toContain(`<meta name="glassbox-host" content="${HOST_PATH}" />`);
    // Paths sent as written (fetch would resolve the dots first).
    expect(await statusOf('/../package.json')).toBe(403);
    expect(await statusOf('/%2e%2e/%2e%2e/package.json')).toBe(403);
    expect(await statusOf('/%E0%A4%A')).toBe(400);
    expect(await statusOf('/no-such-file.js')).toBe(404);
  });

  it('refuses a WebSocket from another origin, or with none', async () => {
    await expect(TestPage.open(wsUrl, 'http://evil.example')).rejects.toThrow('HTTP 403');
    await expect(TestPage.open(wsUrl, undefined)).rejects.toThrow('HTTP 403');
    await expect(TestPage.open(`${server.origin.replace('http:', 'ws:')}/other`, server.origin)).rejects.toThrow(
      'HTTP 403',
    );
  });

  it('a frame that is not a request closes that page’s socket, and the host serves on', async () => {
    for (const junk of ['null', '5', '{"type":"frame"}', '{nope']) {
      const page = await TestPage.open(wsUrl, server.origin);
      await expect(page.sendRaw(junk)).resolves.toBe(1007);
    }
    const page = await TestPage.open(wsUrl, server.origin);
    await expect(page.call('open', { storage: 'memory', takeOver: false })).resolves.toMatchObject({
      status: 'opened',
    });
    await page.close();
  });

  it('one page controls, the others watch: their actions are refused, their reads answered', async () => {
    const first = await TestPage.open(wsUrl, server.origin);
    const second = await TestPage.open(wsUrl, server.origin);
    try {
      await until(() => first.role?.role === 'controls' && second.role?.role === 'watching');
      expect(second.role?.pages).toBe(2);
      const opened = await second.call('open', { storage: 'indexeddb', takeOver: false });
      expect(opened.status).toBe('opened');
      const frame = await second.call('frame', fullFrame());
      expect(frame.views.board?.preset).toBe('node');
      // Byte arrays cross as bytes (a binary frame): a partition's files as a zip.
      const exported = await second.call('exportPartition', { topic: 'demo', partition: 0 });
      expect(exported.zip).toBeInstanceOf(Uint8Array);
      expect([...exported.zip.subarray(0, 2)]).toEqual([0x50, 0x4b]);
      // The lag history's typed arrays too.
      expect(frame.views.board?.groups.every((g) => g.lag.data instanceof Float64Array)).toBe(true);
      const refused = await second.call('applyAction', { op: 'isolateBroker', broker: 2 }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(PageError);
      expect((refused as PageError).error.code).toBe('CLUSTER_AUTHORIZATION_FAILED');
      expect((refused as PageError).message).toContain('watching');
      // No page may replace or rewind the cluster real clients use.
      await first.call('open', { storage: 'indexeddb', takeOver: false });
      const reset = await first.call('reset', null).catch((e: unknown) => e);
      expect((reset as PageError).error.code).toBe('INVALID_REQUEST');
      // The controlling page leaves: the one attached longest after it takes the seat.
      await first.close();
      await until(() => second.role?.role === 'controls' && second.role.pages === 1);
    } finally {
      await second.close();
    }
  });

  it('failover: the page kills the leader broker; kafkajs clients follow the new leaders, no acknowledged record is lost, and the page sees the election and the rebalance', async () => {
    const page = await TestPage.open(wsUrl, server.origin);
    const kafka = new kafkajs.Kafka({
      clientId: 'failover-app',
      brokers: [`127.0.0.1:${BASE_PORT}`, `127.0.0.1:${BASE_PORT + 1}`, `127.0.0.1:${BASE_PORT + 2}`],
      logLevel: kafkajs.logLevel.NOTHING,
      retry: { retries: 20, initialRetryTime: 100, maxRetryTime: 1000 },
    });
    const producer = kafka.producer({
      idempotent: true,
      createPartitioner: kafkajs.Partitioners.DefaultPartitioner,
    });
    const consumer = kafka.consumer({ groupId: 'failover-group', sessionTimeout: 10_000, heartbeatInterval: 500 });
    const acked = new Set<string>();
    const consumed = new Set<string>();
    const boardEvents: EngineEvent[] = [];
    let board: BoardView | undefined;
    /** The real clients' requests the page was given as tokens: `<api> <client.id>`. */
    const clients = new Set<string>();
    let producing = true;
    // Sends kafkajs resolved without every partition's answer (named in the failure message).
    let unanswered = 0;
    const pull = async () => {
      const f = await page.call('frame', fullFrame());
      boardEvents.push(...f.events.board);
      board = f.views.board ?? board;
      for (const m of f.views.board?.messages ?? []) if (m.client !== null) clients.add(`${m.api} ${m.client}`);
    };
    try {
      await until(() => page.role?.role === 'controls');
      await page.call('open', { storage: 'indexeddb', takeOver: false });
      await producer.connect();
      await consumer.connect();
      await consumer.subscribe({ topic: 'demo', fromBeginning: true });
      await consumer.run({
        eachMessage: async ({ message }) => {
          if (message.key) consumed.add(message.key.toString());
        },
      });
      // The producer keeps sending (acks -1) through the failover. A record is acknowledged when its
      // partition's produce response says so: kafkajs 2.2.4 can resolve a send without one (a retry
      // skips a broker that already answered, even when a moved partition's new leader is that
      // broker), and those records were never acknowledged by any broker.
      const sending = (async () => {
        for (let round = 0; producing; round++) {
          const messages = Array.from({ length: 21 }, (_, i) => ({
            key: `f-${round}-${i}`,
            value: `v${i}`,
            partition: i % 3,
          }));
          try {
            const answers = await producer.send({ topic: 'demo', acks: -1, messages });
            const ok = new Set(answers.filter((a) => a.errorCode === 0).map((a) => a.partition));
            for (const m of messages) if (ok.has(m.partition)) acked.add(m.key);
            if (ok.size < 3) unanswered++;
          } catch {
            // Retries ran out mid-failover: these records were never acknowledged.
          }
        }
      })();
      // The group is formed and consuming before the kill.
      await untilAsync(async () => {
        await pull();
        const g = board?.groups.find((x) => x.groupId === 'failover-group');
        return g?.state === 'Stable' && consumed.size > 100;
      }, 30_000);
      const group = board?.groups.find((x) => x.groupId === 'failover-group');
      expect(group?.clients?.protocolType).toBe('consumer');
      expect(group?.members.length).toBe(1);
      const member = board?.consumers.find((c) => c.group === 'failover-group');
      expect(member?.client?.clientId).toBe('failover-app');
      expect(member?.partitions).toEqual(['demo-0', 'demo-1', 'demo-2']);
      expect(member?.client?.assignment?.version).toBeGreaterThanOrEqual(0);

      // The group's coordinator dies, killed from the page; it leads one of demo's partitions too
      // (3 partitions spread over 3 brokers), so producers lose a leader and the group its coordinator.
      const victim = group?.coordinator ?? 1;
      expect(host.engine.topicState('demo').partitions.some((p) => p.leader === victim)).toBe(true);
      const before = acked.size;
      await page.call('applyAction', { op: 'killBroker', broker: victim });
      // Its listener closes, as a dead process's port refuses.
      await until(() => !host.listeners.listening().includes(victim));
      await expect(tryConnect(BASE_PORT + victim - 1)).resolves.toBe('refused');
      // The controller moves demo's leaders off it; the clients keep producing and consuming.
      await untilAsync(async () => {
        await pull();
        const leaders = board?.topics.find((t) => t.name === 'demo')?.partitions.map((p) => p.leader) ?? [];
        return leaders.length === 3 && !leaders.includes(victim) && acked.size > before + 200;
      }, 40_000);
      producing = false;
      await sending;
      // Every acknowledged record reaches the group's consumer: none was lost.
      await until(() => [...acked].every((k) => consumed.has(k)), 30_000).catch(() => {
        const missing = [...acked].filter((k) => !consumed.has(k));
        throw new Error(
          `${missing.length} acknowledged records never consumed (${unanswered} partial sends): ${missing.slice(0, 5)}`,
        );
      });
      await pull();
      const elections = boardEvents.filter(
        (e) => e.type === 'partitionStateChanged' || e.type === 'brokerDown' || e.type === 'controllerElected',
      );
      expect(elections.some((e) => e.type === 'brokerDown')).toBe(true);
      expect(elections.some((e) => e.type === 'partitionStateChanged')).toBe(true);
      // The group moved to a new coordinator (the leader of its __consumer_offsets partition now),
      // which loaded it; the page shows it there with its member and the leader client's assignment.
      const shown = board?.groups.find((x) => x.groupId === 'failover-group');
      expect(shown?.coordinator).not.toBe(victim);
      expect(shown?.coordinator).not.toBeNull();
      expect(shown?.state).toBe('Stable');
      expect(shown?.members.map((m) => m.partitions.join(','))).toEqual(['demo-0,demo-1,demo-2']);
      expect(shown?.generations.length).toBeGreaterThanOrEqual(1);
      expect(boardEvents.some((e) => e.type === 'groupGenerationCompleted' && e.groupId === 'failover-group')).toBe(
        true,
      );
      // The clients' requests reach the page as tokens named by their client.id.
      expect(clients.has('Produce failover-app')).toBe(true);
      expect([...clients].some((c) => c.endsWith(' failover-app') && !c.startsWith('Produce'))).toBe(true);
      // Its commits are in the offsets view the page draws.
      expect(board?.describe.some((r) => r.group === 'failover-group' && r.currentOffset !== null)).toBe(true);
      // Restarted from the page, the broker listens again once it has registered (its old
      // ZooKeeper session expired first), and rejoins the ISR of demo.
      await page.call('applyAction', { op: 'restartBroker', broker: victim });
      await until(() => host.listeners.listening().includes(victim), 20_000);
      await expect(tryConnect(BASE_PORT + victim - 1)).resolves.toBe('connected');
      await until(() => host.engine.topicState('demo').partitions.every((p) => p.isr.includes(victim)), 20_000);
    } finally {
      producing = false;
      await producer.disconnect().catch(() => undefined);
      await consumer.disconnect().catch(() => undefined);
      await page.close();
    }
  }, 120_000);
});

function statusOf(path: string): Promise<number> {
  const { hostname, port } = new URL(server.origin);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, path, method: 'GET' }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

async function until(check: () => boolean, timeoutMs = 5_000): Promise<void> {
  await untilAsync(async () => check(), timeoutMs);
}

async function untilAsync(check: () => Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > timeoutMs) throw new Error('condition still false');
    await new Promise((r) => setTimeout(r, 25));
  }
}
