/**
 * Issue 26's client suites: each real client (clientSuites.ts) against the Node host with 3
 * brokers, on a topic of its own (3 partitions, replication factor 3), judged by what the engine
 * holds:
 *   - metadata: the three listeners and the engine's leaders, replicas and ISRs;
 *   - 10,000 keyed records produced with acks=all (idempotent where the client has it), all
 *     acknowledged, the high watermarks summing to 10,000;
 *   - read back from the beginning: every offset of every partition exactly once, in order per
 *     partition, each value once, and per partition in the order it was produced;
 *   - a group of two members splitting the partitions, every record read once, and the
 *     coordinator's committed offsets equal to the high watermarks;
 *   - its admin calls (where it has them): a topic created, grown from 2 to 4 partitions, its
 *     retention.ms altered, deleted.
 * A client that cannot be installed here is skipped, its reason in the test's name.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_SUITES, type ReadRecord } from './clientSuites';
import type { NodeHost } from './NodeHost';
import { expectGroupSplit, startDemoHost, until } from './wireTesting';
import { freePortRange } from './freePorts';

const BASE_PORT = await freePortRange(8);
const BOOTSTRAP = `127.0.0.1:${BASE_PORT}`;
const COUNT = 10_000;

let host: NodeHost;

beforeAll(async () => {
  host = await startDemoHost(BASE_PORT);
  for (const c of CLIENT_SUITES)
    if (!c.missing) host.engine.createTopic({ name: topicOf(c.prefix), partitions: 3, replicationFactor: 3 });
  await until(
    () =>
      CLIENT_SUITES.filter((c) => !c.missing).every((c) =>
        host.engine.topicState(topicOf(c.prefix)).partitions.every((p) => p.isr.length === 3),
      ),
    20_000,
  );
}, 60_000);

afterAll(async () => {
  await host?.stop();
});

function topicOf(prefix: string): string {
  return `suite-${prefix.replace(/[^a-zA-Z0-9]/g, '')}`;
}

function highWatermarks(topic: string): number[] {
  return host.engine
    .topicState(topic)
    .partitions.map((p) => host.engine.leaderReplica(topic, p.partition)?.highWatermark ?? 0);
}

function committed(group: string, topic: string): (number | null)[] {
  const rows = host.engine.describeGroup(group);
  return highWatermarks(topic).map(
    (_, p) => rows.find((r) => r.topic === topic && r.partition === p)?.currentOffset ?? null,
  );
}

/** Every offset of every partition once, in order per partition, and each produced value once in produce order. */
function expectExactlyOnceInOrder(records: readonly ReadRecord[], topic: string, prefix: string): void {
  expect(records.length).toBe(COUNT);
  const hws = highWatermarks(topic);
  for (const [p, hw] of hws.entries()) {
    const mine = records.filter(([q]) => q === p);
    expect(mine.map(([, o]) => o)).toEqual(Array.from({ length: hw }, (_, o) => o));
    // One producer wrote each partition in order: the sequence numbers in the values increase.
    const seq = mine.map(([, , v]) => Number(v.slice(prefix.length + 1)));
    expect(seq.every((n, i) => i === 0 || n > (seq[i - 1] as number))).toBe(true);
  }
  const values = records.map(([, , v]) => v).sort();
  expect(values).toEqual(Array.from({ length: COUNT }, (_, i) => `${prefix}-${i}`).sort());
}

for (const client of CLIENT_SUITES) {
  const skip = client.missing !== null;
  const named = (what: string) => `${what}${skip ? ` [skipped: ${client.missing}]` : ''}`;
  const topic = topicOf(client.prefix);

  describe(client.name, () => {
    it.skipIf(skip)(named("metadata: the three listeners and the engine's leaders, replicas and ISRs"), async () => {
      const meta = await client.metadata(BOOTSTRAP, topic);
      expect([...meta.brokers].sort((a, b) => a.id - b.id)).toEqual(
        [1, 2, 3].map((id) => ({ id, host: '127.0.0.1', port: BASE_PORT + id - 1 })),
      );
      const engine = host.engine.topicState(topic).partitions.map((p) => ({
        partition: p.partition,
        leader: p.leader,
        replicas: p.replicas,
        isr: [...p.isr].sort(),
      }));
      const seen = meta.partitions
        .map((p) => ({ ...p, isr: [...p.isr].sort() }))
        .sort((a, b) => a.partition - b.partition);
      expect(seen).toEqual(engine);
    });

    it.skipIf(skip)(
      named(
        `${COUNT.toLocaleString('en')} records with acks=all${client.idempotent ? ', idempotent,' : ''} read back exactly once, in order per partition`,
      ),
      async () => {
        expect(await client.produce(BOOTSTRAP, topic, COUNT)).toBe(COUNT);
        await until(() => highWatermarks(topic).reduce((a, b) => a + b, 0) === COUNT, 20_000);
        expectExactlyOnceInOrder(await client.read(BOOTSTRAP, topic, COUNT), topic, client.prefix);
      },
      120_000,
    );

    it.skipIf(skip)(
      named('a group of two members splits the partitions and commits the high watermarks'),
      async () => {
        const group = `${topic}-pair`;
        expectGroupSplit(await client.pair(BOOTSTRAP, group, topic, COUNT), COUNT);
        await until(() => committed(group, topic).every((c, p) => c === highWatermarks(topic)[p]), 15_000);
      },
      120_000,
    );

    const admin = client.admin;
    const noAdmin = skip ? client.missing : admin === null ? 'the client has no admin API' : null;
    it.skipIf(noAdmin !== null)(
      `admin: create a topic, grow it to 4 partitions, alter retention.ms, delete it${noAdmin ? ` [skipped: ${noAdmin}]` : ''}`,
      async () => {
        const scratch = `${topic}-admin`;
        const steps = await admin?.(BOOTSTRAP, scratch);
        expect(steps).toEqual({ grown: 4, retentionMs: '120000' });
        await until(() => !host.engine.topicNames().includes(scratch), 10_000);
      },
      60_000,
    );
  });
}
