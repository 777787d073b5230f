import { describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../engine';
import { assignedConsumer, facadeBed } from '../../consumerApps/facadeTesting';

type Sent = Extract<EngineEvent, { type: 'messageSent' }>;

/**
 * One request path (issue 24): a simulated consumer is a node on the cluster's Network, as a
 * producer is, and its requests reach the broker's KafkaApis as any client's do. Kafka's
 * ConsumerNetworkClient sends a FetchRequest with replicaId -1 (FetchRequest.Builder.forConsumer),
 * which KafkaApis.handleFetchRequest hands to ReplicaManager.fetchMessages; the group APIs go
 * to the GroupCoordinator from the same handle().
 */
describe('ConsumerNetworkClient: the consumers on the engine network', () => {
  it("a consumer's FindCoordinator, JoinGroup and Fetch travel the network to the broker and back", () => {
    const bed = facadeBed({ seed: 3 });
    bed.produce('orders', 0, ['a', 'b']);
    const mark = bed.events.length;
    const c = bed.e.groups.createConsumer('c1', { 'group.id': 'g', 'auto.offset.reset': 'earliest' });
    c.subscribe(['orders']);
    const got: number[] = [];
    bed.runUntil(
      () => {
        got.push(...c.poll().map((r) => r.offset));
        return got.length >= 2;
      },
      20_000,
      50,
    );
    expect(got).toEqual([0, 1]);
    const sent = bed.events.slice(mark).filter((e): e is Sent => e.type === 'messageSent');
    const requests = sent.filter((m) => m.kind === 'request' && m.from === 'c1');
    const apis = new Set(requests.map((m) => m.api));
    for (const api of ['FindCoordinator', 'JoinGroup', 'SyncGroup', 'OffsetFetch', 'Fetch'])
      expect(apis).toContain(api);
    const fetch = requests.find((m) => m.api === 'Fetch');
    expect(fetch?.to).toMatch(/^broker-\d$/);
    expect(fetch?.body).toMatchObject({ api: 'Fetch', replicaId: -1 });
    // Every answer comes back over the network to the consumer's node.
    expect(sent.some((m) => m.kind === 'response' && m.to === 'c1' && m.api === 'Fetch')).toBe(true);
  });

  it("a broker stopped cleanly closes its connections: a consumer's outstanding fetch hears a reset, not a timeout", () => {
    const bed = facadeBed({ seed: 5 });
    const leader = bed.e.cluster.partitionState('orders', 0)?.leader as number;
    const c = assignedConsumer(bed, 'solo', 0, { 'auto.offset.reset': 'earliest', 'fetch.max.wait.ms': 5_000 });
    bed.runUntil(
      () => {
        c.poll();
        return bed.events.some((e) => e.type === 'groupRequestSent' && e.api === 'Fetch' && e.from === 'solo');
      },
      5_000,
      10,
    );
    const mark = bed.events.length;
    // Without controlled shutdown the process stops at once, the long poll still parked in it.
    bed.e.cluster.broker(leader).down('stopped');
    bed.e.tick(100);
    const after = bed.events.slice(mark);
    expect(after.some((e) => e.type === 'connectionReset' && e.node === 'solo' && e.peer === `broker-${leader}`)).toBe(
      true,
    );
    expect(
      after.some(
        (e) =>
          e.type === 'groupRequestFailed' && e.from === 'solo' && e.toBroker === leader && e.reason === 'disconnected',
      ),
    ).toBe(true);
  });
});
