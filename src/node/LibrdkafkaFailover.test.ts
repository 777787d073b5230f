/**
 * Issue 26's failover under real clients: while librdkafka (confluent-kafka 2.0.2) produces with
 * acks=all and idempotence and a librdkafka consumer group reads and commits, the page kills the
 * leader broker (which is also the group's coordinator) through its protocol, then restarts it.
 * Afterwards every record the producer saw acknowledged is in the log at its offset and was read
 * by the group (0 missing), no record is in the log twice (0 duplicates: the idempotent
 * producer's retries across the failover were deduplicated by sequence number), and the group's
 * committed offsets are the high watermarks.
 *
 * Kafka's guarantee: a record acknowledged with acks=all is in every ISR member's log; the
 * controller elects the new leader from the ISR (PartitionLeaderElectionAlgorithms
 * .offlinePartitionLeaderElection), so no acknowledged record is lost; the new leader has the
 * producer's state (ProducerStateManager), so a retried batch is answered as a duplicate
 * (DUPLICATE_SEQUENCE_NUMBER handling in ProducerStateEntry.findDuplicateBatch), not appended.
 *
 * Needs python3-confluent-kafka and kcat (apt); skipped, the reason in its name, without them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePortRange } from './freePorts';
import { confluentLive, kcatReadAll, librdkafkaMissing, type SeenRecord } from './librdkafkaTesting';
import type { NodeHost } from './NodeHost';
import { HOST_PATH, type PageServer } from './PageServer';
import { fullFrame, servedHost, TestPage } from './pageTesting';
import { until } from './wireTesting';

const PORT = await freePortRange(8);
const BOOTSTRAP = `127.0.0.1:${PORT}`;
const TOPIC = 'failover';

/** `until`, failing with what it waited for. */
async function waitFor(what: string, check: () => boolean, timeoutMs: number): Promise<void> {
  await until(check, timeoutMs).catch(() => {
    throw new Error(`still waiting after ${timeoutMs} ms for ${what}`);
  });
}
const GROUP = 'librdkafka-failover';
let host: NodeHost;
let server: PageServer;

beforeAll(async () => {
  if (librdkafkaMissing) return;
  ({ host, server } = await servedHost({
    brokers: 3,
    port: PORT,
    host: '127.0.0.1',
    topics: [{ name: TOPIC, partitions: 3, replicationFactor: 3 }],
    // The killed broker's session ends after 3 s: the controller moves its leaders then.
    brokerConfig: { 'zookeeper.session.timeout.ms': 3000 },
  }));
});

afterAll(async () => {
  await server?.stop();
  await host?.stop();
});

describe('failover under librdkafka clients', () => {
  it.skipIf(librdkafkaMissing !== null)(
    `the page kills and restarts the leader during an idempotent acks=all produce and a group's reads: 0 acknowledged records missing, 0 duplicates, commits at the high watermarks${librdkafkaMissing ? ` [skipped: ${librdkafkaMissing}]` : ''}`,
    async () => {
      const page = await TestPage.open(`${server.origin.replace('http:', 'ws:')}${HOST_PATH}`, server.origin);
      await until(() => page.role?.role === 'controls');
      await page.call('open', { storage: 'indexeddb', takeOver: false });
      const acked = new Map<string, string>();
      const read = new Map<string, number>();
      const reader = confluentLive(['follow', BOOTSTRAP, GROUP, TOPIC], ([p, o, v]: SeenRecord) =>
        read.set(`${p}:${o}:${v}`, (read.get(`${p}:${o}:${v}`) ?? 0) + 1),
      );
      // 12,000 records at 1,500/s (8 s), each allowed 30 s to be delivered across the failover.
      const writer = confluentLive(['acks', BOOTSTRAP, TOPIC, '12000', '1500', '30000'], ([p, o, v]) =>
        acked.set(`${p}:${o}`, v),
      );
      writer.child.stdin?.end();
      try {
        const groupOf = async () =>
          (await page.call('frame', fullFrame())).views.board?.groups.find((g) => g.groupId === GROUP);
        // The group is formed and reading before the kill.
        let coordinator: number | null = null;
        await waitFor('1,500 acknowledged and 500 read', () => acked.size > 1500 && read.size > 500, 30_000);
        for (let i = 0; i < 100 && coordinator === null; i++) {
          const g = await groupOf();
          if (g?.state === 'Stable') coordinator = g.coordinator;
          else await new Promise((r) => setTimeout(r, 100));
        }
        expect(coordinator).not.toBeNull();
        const victim = coordinator as number;
        // Three partitions over three brokers: the coordinator leads one of the topic's partitions.
        expect(host.engine.topicState(TOPIC).partitions.some((p) => p.leader === victim)).toBe(true);
        await page.call('applyAction', { op: 'killBroker', broker: victim });
        const atKill = acked.size;
        // The controller moves the leaders off the dead broker; the producer carries on.
        await waitFor(
          'the leaders moved off the dead broker and 1,500 more acknowledged',
          () =>
            host.engine.topicState(TOPIC).partitions.every((p) => p.leader !== victim && p.leader !== null) &&
            acked.size > atKill + 1500,
          30_000,
        );
        // The group found its new coordinator (the new leader of its __consumer_offsets partition).
        let moved = await groupOf();
        for (let i = 0; i < 150 && !(moved?.state === 'Stable' && moved.coordinator !== victim); i++) {
          await new Promise((r) => setTimeout(r, 100));
          moved = await groupOf();
        }
        expect(moved?.coordinator).not.toBe(victim);
        expect(moved?.state).toBe('Stable');
        await page.call('applyAction', { op: 'restartBroker', broker: victim });
        const closing = await writer.done;
        expect(closing?.failed).toBe(0);
        expect(closing?.undelivered).toBe(0);
        expect(acked.size).toBe(12_000);
        await waitFor(
          'the restarted broker back in every ISR',
          () => host.engine.topicState(TOPIC).partitions.every((p) => p.isr.length === 3),
          30_000,
        );

        // Every acknowledged record is in the log at its offset; none is there twice.
        const log = await kcatReadAll(BOOTSTRAP, TOPIC);
        const lost = [...acked].filter(([at, value]) => log.get(at) !== value);
        expect(lost, 'acknowledged records missing from the log').toEqual([]);
        const values = [...log.values()];
        expect(values.length - new Set(values).size, 'records written twice').toBe(0);
        expect(values.length).toBe(12_000);

        // The group read every acknowledged record (a rebalance may hand it some twice: at least once).
        await until(() => [...acked].every(([at, v]) => read.has(`${at}:${v}`)), 30_000).catch(() => {
          const missing = [...acked].filter(([at, v]) => !read.has(`${at}:${v}`));
          throw new Error(`${missing.length} acknowledged records never read by the group: ${missing.slice(0, 5)}`);
        });
        reader.child.stdin?.end();
        const final = await reader.done;
        expect(final, reader.stderr()).not.toBeNull();
        const hws = host.engine
          .topicState(TOPIC)
          .partitions.map((p) => host.engine.leaderReplica(TOPIC, p.partition)?.highWatermark ?? 0);
        expect(final?.committed).toEqual(Object.fromEntries(hws.map((hw, p) => [String(p), hw])));
        // The member left: the group is Empty, its offsets kept.
        expect((await groupOf())?.state).toBe('Empty');
      } finally {
        writer.child.kill('SIGKILL');
        reader.child.kill('SIGKILL');
        await page.close();
      }
    },
    120_000,
  );
});
