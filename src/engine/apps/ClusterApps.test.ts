import { MapStore } from '../log/testSupport';
import { describe, expect, it, vi } from 'vitest';
import { assignPartitions } from '../clients/consumer/assignors/assignPartitions';
import { isKafkaError } from '../errors';
import { ClusterApps } from './ClusterApps';
import type { BoardView } from './types';

/** Runs until every board group is Stable with every running member assigned. */
function settle(apps: ClusterApps, maxMs = 30_000): BoardView {
  for (let t = 0; t < maxMs; t += 500) {
    apps.tick(500);
    const v = apps.view();
    const ok = v.groups.every(
      (g) =>
        g.state === 'Stable' &&
        v.consumers
          .filter((c) => c.group === g.groupId && c.lifecycle === 'running')
          .every((c) => c.generation === g.generation),
    );
    if (ok) return v;
  }
  throw new Error('groups did not settle');
}

/** The demo cluster, settled, `ms` after its producer sent 20 records to orders. */
function afterProducing(ms: number): { apps: ClusterApps; v: BoardView } {
  const apps = new ClusterApps(1, 'demo', { store: new MapStore() });
  settle(apps);
  apps.apply({ op: 'produceDemoRecords', topic: 'orders', count: 20 });
  apps.tick(ms);
  return { apps, v: apps.view() };
}

function assignmentOf(v: BoardView, group: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const c of v.consumers)
    if (c.group === group && c.lifecycle === 'running') out[c.memberId] = c.partitions.join(',');
  return out;
}

function expected(v: BoardView, group: string, strategy: 'range' | 'roundrobin'): Record<string, string> {
  const members = v.consumers.filter((c) => c.group === group && c.lifecycle === 'running');
  const a = assignPartitions(
    strategy,
    members.map((m) => ({ memberId: m.memberId, topics: ['orders'] })),
    { orders: 6 },
  );
  return Object.fromEntries(
    members.map((m) => [m.memberId, (a[m.memberId] ?? []).map((tp) => `${tp.topic}-${tp.partition}`).join(',')]),
  );
}

describe('ClusterApps', () => {
  it('opens the demo with two groups (three consumers and two) whose assignments are the assignors’ own', () => {
    const apps = new ClusterApps(1, 'demo', { store: new MapStore() });
    const v = settle(apps);
    expect(v.brokers.map((b) => [b.id, b.rack, b.alive])).toEqual([
      [1, 'rack-a', true],
      [2, 'rack-b', true],
      [3, 'rack-a', true],
    ]);
    expect(v.controller).toBe(1);
    expect(v.groups.map((g) => [g.groupId, g.assignor, g.members.length])).toEqual([
      ['analytics', 'roundrobin', 2],
      ['billing', 'range', 3],
    ]);
    expect(assignmentOf(v, 'billing')).toEqual(expected(v, 'billing', 'range'));
    expect(assignmentOf(v, 'analytics')).toEqual(expected(v, 'analytics', 'roundrobin'));
    // The coordinator is the leader of the group's __consumer_offsets partition.
    for (const g of v.groups) {
      const p = v.topics.find((t) => t.name === '__consumer_offsets')?.partitions[g.offsetsPartition];
      expect(g.coordinator).toBe(p?.leader);
    }
  });

  it('replays a scenario to exactly the same state', () => {
    const apps = new ClusterApps(7, 'demo', { store: new MapStore() });
    apps.tick(3000);
    apps.apply({ op: 'killBroker', broker: 2 });
    apps.tick(1500);
    apps.apply({ op: 'moveConsumer', name: 'c1', group: 'analytics' });
    apps.apply({ op: 'produceDemoRecords', topic: 'orders', count: 30 });
    apps.tick(9000);
    apps.apply({ op: 'restartBroker', broker: 2 });
    apps.apply({ op: 'crashConsumer', name: 'c4' });
    apps.tick(4321);
    const a = apps.view();
    const b = ClusterApps.fromScenario(apps.scenario(), { store: new MapStore() }).view();
    const strip = (v: BoardView) => ({ ...v, version: 0 });
    expect(strip(b)).toEqual(strip(a));
    expect(a.nowMs).toBe(apps.scenario().untilMs);
  });

  /**
   * Crashes c4 (group analytics, 3 of orders' 6 partitions) while its application is in the
   * middle of a batch of the 60 records just produced, then lets session.timeout.ms pass: c5
   * takes the partitions over from the committed offsets. Returns the crash as the view shows it
   * at the crash and 20 s later.
   */
  function crashMidBatch(seed: number, mode: 'auto' | 'after-processing' | 'before-processing') {
    const apps = new ClusterApps(seed, 'demo', { store: new MapStore() });
    if (mode !== 'auto') apps.apply({ op: 'setCommitMode', group: 'analytics', mode });
    settle(apps);
    apps.apply({ op: 'produceDemoRecords', topic: 'orders', count: 60 });
    const c4 = () => apps.view().consumers.find((c) => c.name === 'c4');
    // Into a batch of at least 3 records, 2 records' processing time in (commits have landed).
    for (let i = 0; i < 2000 && (c4()?.inHand ?? 0) < 3; i++) apps.tick(5);
    expect(c4()?.inHand ?? 0).toBeGreaterThanOrEqual(3);
    apps.tick(55);
    const owned = c4()?.partitions ?? [];
    apps.apply({ op: 'crashConsumer', name: 'c4' });
    const atCrash = apps.view().crashes.at(-1);
    apps.tick(20_000);
    const after = apps.view();
    return { apps, owned, atCrash, after: after.crashes.at(-1), view: after };
  }

  it('commit after processing: a crash mid-batch has what it processed of the batch processed again by the new owner (seed 000 case 1)', () => {
    const { owned, atCrash, after, view } = crashMidBatch(3, 'after-processing');
    expect(atCrash?.consumer).toBe('c4');
    expect(atCrash?.commitMode).toBe('after-processing');
    expect(atCrash?.partitions.map((p) => `${p.topic}-${p.partition}`).sort()).toEqual([...owned].sort());
    // Processed 2 records of the batch in hand, not committed: committed <= processedTo < position somewhere.
    expect(atCrash?.partitions.some((p) => p.processedTo < p.position)).toBe(true);
    for (const p of atCrash?.partitions ?? []) expect(p.committed ?? 0).toBeLessThanOrEqual(p.processedTo);
    expect(atCrash?.redelivered).toBe(
      (atCrash?.partitions ?? []).reduce((n, p) => n + p.processedTo - (p.committed ?? 0), 0),
    );
    expect(atCrash?.redelivered).toBeGreaterThanOrEqual(2);
    expect(atCrash?.skipped).toBe(0);
    expect(atCrash?.observed).toEqual({ redelivered: 0, skipped: 0 });
    // c5 took the partitions over; the group's ledger counted exactly the predicted duplicates.
    expect(view.consumers.find((c) => c.name === 'c5')?.partitions).toEqual(expect.arrayContaining(owned as string[]));
    expect(after?.observed).toEqual({ redelivered: atCrash?.redelivered, skipped: 0 });
  });

  it('commit before processing: a crash mid-batch loses the rest of the batch, committed but never processed (seed 000 case 2)', () => {
    const { apps, atCrash, after, view } = crashMidBatch(3, 'before-processing');
    expect(atCrash?.commitMode).toBe('before-processing');
    expect(atCrash?.redelivered).toBe(0);
    expect(atCrash?.skipped).toBe(
      (atCrash?.partitions ?? []).reduce((n, p) => n + Math.max(0, (p.committed ?? 0) - p.processedTo), 0),
    );
    expect(atCrash?.skipped).toBeGreaterThan(0);
    expect(after?.observed).toEqual({ redelivered: 0, skipped: atCrash?.skipped });
    // The lost offsets are exactly [processedTo, committed) of each partition, as the ledger has them.
    const gaps = apps.apps.delivery
      .counts('analytics')
      .flatMap((c) => c.skippedRanges.map(([a, b]) => `${c.topic}-${c.partition}:${a}-${b}`));
    const expected = (atCrash?.partitions ?? [])
      .filter((p) => (p.committed ?? 0) > p.processedTo)
      .map((p) => `${p.topic}-${p.partition}:${p.processedTo}-${(p.committed ?? 0) - 1}`);
    expect(gaps.sort()).toEqual(expected.sort());
    const group = view.groups.find((g) => g.groupId === 'analytics');
    expect(group?.commitMode).toBe('before-processing');
    expect(group?.delivery.skipped).toBe(atCrash?.skipped);
  });

  it('auto commit: a crash re-delivers what was processed since the last auto commit, nothing is lost', () => {
    const { atCrash, after } = crashMidBatch(5, 'auto');
    expect(atCrash?.skipped).toBe(0);
    expect(after?.observed).toEqual({ redelivered: atCrash?.redelivered, skipped: 0 });
  });

  it("a killed coordinator: the group is not 'Empty · generation 0' but awaits its coordinator (GroupMetadataManager loads it on the new leader)", () => {
    const apps = new ClusterApps(1, 'demo', { store: new MapStore() });
    const before = settle(apps).groups.find((g) => g.groupId === 'billing');
    const coordinator = before?.coordinator ?? -1;
    expect(coordinator).toBeGreaterThan(0);
    apps.apply({ op: 'killBroker', broker: coordinator });
    const seen: string[] = [];
    for (let t = 0; t < 12_000; t += 250) {
      apps.tick(250);
      const g = apps.view().groups.find((x) => x.groupId === 'billing');
      if (!g) throw new Error('billing gone');
      // Never the view's old default for a group no broker holds.
      expect(`${g.state} ${g.generation}`).not.toBe('Empty 0');
      if (g.awaitingCoordinator) {
        expect(g.generation).toBe(before?.generation);
        expect(g.awaitingCoordinator.offsetsPartition).toBe(before?.offsetsPartition);
      }
      if (seen.at(-1) !== g.state) seen.push(g.state);
    }
    // The process is gone while its ZooKeeper session lives: its partition still names it leader.
    expect(seen[0]).toBe('COORDINATOR_NOT_AVAILABLE');
    // Then a new leader of __consumer_offsets-N loads the group and it rebalances on from there.
    expect(seen.slice(1)).toContain('Stable');
    expect(apps.view().groups.find((x) => x.groupId === 'billing')?.coordinator).not.toBe(coordinator);
  });

  it('lists the follower fetches the network sent between brokers, with the engine’s send and arrival times', () => {
    const { apps, v } = afterProducing(300);
    const fetches = v.messages.filter((m) => m.api === 'Fetch' && m.client === null);
    expect(fetches.length).toBeGreaterThan(0);
    expect(fetches.length).toBeLessThanOrEqual(24);
    const brokers = new Set(v.brokers.map((b) => b.id));
    for (const m of fetches) {
      const from = m.from ?? -1;
      const to = m.to ?? -1;
      expect(brokers.has(from) && brokers.has(to) && from !== to && m.client === null).toBe(true);
      // The engine's own latency (1 ms by default) between the two brokers.
      expect(m.arriveAtMs - m.sentAtMs).toBe(apps.cluster.network.latency(`broker-${from}`, `broker-${to}`));
      expect(m.sentAtMs).toBeLessThanOrEqual(v.nowMs);
    }
    // Every follower fetches from the leaders it follows: requests go follower -> leader.
    const leadersOf = (b: number) =>
      new Set(v.topics.flatMap((t) => t.partitions.filter((p) => p.replicas.includes(b)).map((p) => p.leader)));
    for (const m of fetches.filter((x) => x.kind === 'request'))
      expect(leadersOf(m.from ?? -1).has(m.to ?? -1)).toBe(true);
    expect(fetches.some((m) => m.kind === 'response')).toBe(true);
  });

  it('lists the produce requests a producer sent to partition leaders, and their answers', () => {
    const { v } = afterProducing(50);
    const produces = v.messages.filter((m) => m.api === 'Produce');
    const requests = produces.filter((m) => m.kind === 'request');
    expect(requests.length).toBeGreaterThan(0);
    const leaders = new Set(v.topics.find((t) => t.name === 'orders')?.partitions.map((p) => p.leader));
    for (const m of requests) {
      // From the board's producer (client.id app-producer) to a leader of orders.
      expect(m.from).toBeNull();
      expect(m.client).toBe('app-producer');
      expect(leaders.has(m.to ?? -1)).toBe(true);
      expect(m.arriveAtMs).toBeGreaterThan(m.sentAtMs);
    }
    for (const m of produces.filter((x) => x.kind === 'response')) {
      expect(m.to).toBeNull();
      expect(leaders.has(m.from ?? -1)).toBe(true);
    }
    expect(produces.length).toBeLessThanOrEqual(12);
  });

  it('describes every group the same with one shared log-end lookup per partition', () => {
    const apps = new ClusterApps(2, 'demo', { store: new MapStore() });
    settle(apps);
    apps.apply({ op: 'produceDemoRecords', topic: 'orders', count: 30 });
    apps.tick(700);
    const shared = new Map<string, number>();
    for (const g of ['billing', 'analytics']) {
      const alone = apps.groups.describeGroup(g);
      expect(alone.length).toBe(6);
      expect(apps.groups.describeGroup(g, shared)).toEqual(alone);
    }
    expect(shared.size).toBe(6);
  });

  it('lists no fetches once the cluster has more brokers than are drawn one by one', () => {
    const apps = new ClusterApps(1, 'demo', { store: new MapStore() });
    for (let i = 0; i < 10; i++) apps.apply({ op: 'addBroker', rack: null });
    apps.apply({ op: 'produceDemoRecords', topic: 'orders', count: 20 });
    apps.tick(1000);
    expect(apps.view().brokers.length).toBe(13);
    expect(apps.view().messages).toEqual([]);
  });

  it('refuses a bad action with a Kafka error, changes nothing and records nothing', () => {
    const apps = new ClusterApps(1, 'demo', { store: new MapStore() });
    apps.tick(1000);
    const before = JSON.stringify(apps.view().topics);
    const codes: string[] = [];
    for (const a of [
      { op: 'killBroker', broker: 99 },
      { op: 'restartBroker', broker: 1 },
      { op: 'createTopic', name: 'orders', partitions: 1, replicationFactor: 1, startIndex: 0 },
      { op: 'createTopic', name: 'big', partitions: 1, replicationFactor: 4, startIndex: 0 },
      { op: 'moveConsumer', name: 'nobody', group: 'billing' },
    ] as const) {
      try {
        apps.apply(a);
      } catch (e) {
        codes.push(isKafkaError(e) ? e.code : String(e));
      }
    }
    expect(codes).toEqual([
      'BROKER_NOT_AVAILABLE',
      'INVALID_REQUEST',
      'TOPIC_ALREADY_EXISTS',
      'INVALID_REPLICATION_FACTOR',
      'INVALID_REQUEST',
    ]);
    expect(apps.actions).toEqual([]);
    expect(JSON.stringify(apps.view().topics)).toBe(before);
  });

  it('a replay stops at the first refused action with its Kafka error, naming the action', () => {
    const spec = {
      seed: 1,
      preset: 'demo' as const,
      actions: [
        { at: 200, action: { op: 'isolateBroker' as const, broker: 3 } },
        { at: 1500, action: { op: 'reassignPartitions' as const, topic: 'orders', partition: 0, replicas: [1, 2, 7] } },
        { at: 4000, action: { op: 'healBroker' as const, broker: 3 } },
      ],
      untilMs: 5000,
    };
    let refused: unknown = null;
    try {
      ClusterApps.fromScenario(spec, { store: new MapStore() });
    } catch (e) {
      refused = e;
    }
    expect(isKafkaError(refused)).toBe(true);
    if (!isKafkaError(refused)) return;
    // The reassignment names a broker that does not exist: Kafka's INVALID_REPLICA_ASSIGNMENT
    // (InvalidReplicaAssignmentException), said once, after the action it came from.
    expect(refused.code).toBe('INVALID_REPLICA_ASSIGNMENT');
    expect(refused.message).toBe(
      "INVALID_REPLICA_ASSIGNMENT: action 2 of 3 (reassignPartitions at 1.5 s) failed: Unknown broker 7 in partition 0's replicas.",
    );
    expect(refused.details).toMatchObject({ step: 2, op: 'reassignPartitions', at: 1500 });
  });

  it('creates a topic exactly as previewed, with the placement steps on its event', () => {
    const apps = new ClusterApps(1, 'empty4', { store: new MapStore() });
    const preview = apps.previewPlacement({
      name: 't',
      partitions: 4,
      replicationFactor: 2,
      rackAware: true,
      startIndex: null,
    });
    apps.apply({ op: 'createTopic', name: 't', partitions: 4, replicationFactor: 2, startIndex: null });
    const created = apps.takeEvents().find((e) => e.type === 'topicCreated');
    expect(created?.type === 'topicCreated' && created.assignment).toEqual(preview.assignment);
    expect(created?.type === 'topicCreated' && created.placementSteps).toEqual(preview.steps);
    // Seed 000's example: topic2 continues the round-robin at partition 2.
    apps.apply({ op: 'createTopic', name: 'topic1', partitions: 2, replicationFactor: 2, startIndex: 0 });
    apps.apply({
      op: 'createTopic',
      name: 'topic2',
      partitions: 2,
      replicationFactor: 2,
      startIndex: 0,
      startPartitionId: 2,
    });
    apps.tick(500);
    const v = apps.view();
    const replicas = (t: string) => v.topics.find((x) => x.name === t)?.partitions.map((p) => p.replicas);
    expect(replicas('topic1')).toEqual([
      [1, 2],
      [2, 3],
    ]);
    expect(replicas('topic2')).toEqual([
      [3, 4],
      [4, 1],
    ]);
  });

  it('reports the offsets an unclean election loses', () => {
    const apps = new ClusterApps(1, 'elections', { store: new MapStore() });
    apps.tick(1000);
    apps.apply({ op: 'produceDemoRecords', topic: 'payments', count: 10 });
    apps.tick(1000);
    apps.apply({ op: 'isolateBroker', broker: 3 });
    apps.tick(8000);
    apps.apply({ op: 'produceDemoRecords', topic: 'payments', count: 20 });
    apps.tick(2000);
    apps.apply({ op: 'killBroker', broker: 1 });
    apps.apply({ op: 'killBroker', broker: 2 });
    apps.tick(8000);
    apps.apply({ op: 'healBroker', broker: 3 });
    apps.tick(10_000);
    const v = apps.view();
    expect(v.lost.map((l) => [l.topic, l.partition, l.newLeader, l.from, l.to])).toEqual([['payments', 0, 3, 10, 30]]);
    expect(v.topics.find((t) => t.name === 'payments')?.partitions[0]?.leader).toBe(3);
  });

  // KIP-320 on the page: Kafka 3.9 SubscriptionState.maybeCompleteValidation (reset-policy branch) via the
  // consumerLogTruncation event onto the consumer's card.
  it("shows on the consumer's card the log truncation an unclean election caused", () => {
    const apps = new ClusterApps(1, 'elections', { store: new MapStore() });
    apps.apply({ op: 'addGroup', group: 'readers', assignor: 'range' });
    apps.apply({ op: 'addConsumer', group: 'readers', name: 'r1' });
    settle(apps);
    apps.apply({ op: 'produceDemoRecords', topic: 'payments', count: 10 });
    apps.tick(1000);
    apps.apply({ op: 'isolateBroker', broker: 3 });
    apps.tick(8000);
    apps.apply({ op: 'produceDemoRecords', topic: 'payments', count: 20 });
    const position = () =>
      apps
        .view()
        .consumers.find((c) => c.name === 'r1')
        ?.positions.find((p) => p.topic === 'payments')?.position;
    for (let i = 0; i < 40 && position() !== 30; i++) apps.tick(500);
    expect(position()).toBe(30);
    expect(apps.view().consumers.find((c) => c.name === 'r1')?.truncation).toBeNull();
    apps.apply({ op: 'killBroker', broker: 1 });
    apps.apply({ op: 'killBroker', broker: 2 });
    apps.tick(8000);
    apps.apply({ op: 'healBroker', broker: 3 });
    apps.tick(10_000);
    expect(apps.view().lost.map((l) => [l.from, l.to])).toEqual([[10, 30]]);
    const card = apps.view().consumers.find((c) => c.name === 'r1');
    expect(card?.truncation).toMatchObject({
      topic: 'payments',
      partition: 0,
      fetchOffset: 30,
      divergentOffset: 10,
      outcome: 'seek',
    });
    expect(card?.positions.find((p) => p.topic === 'payments')?.position).toBe(10);
  });
});

describe('the demo producer during an outage', () => {
  it('numbers its records per send, not per acknowledgement: no key and value sent twice while nothing is acked', () => {
    const apps = new ClusterApps(1, 'demo', { store: new MapStore() });
    apps.tick(5000);
    for (const broker of [1, 2, 3]) apps.apply({ op: 'killBroker', broker });
    const send = vi.spyOn(apps.producer, 'send');
    apps.apply({ op: 'produceDemoRecords', topic: 'orders', count: 5 });
    apps.tick(1000);
    apps.apply({ op: 'produceDemoRecords', topic: 'orders', count: 5 });
    const dec = new TextDecoder();
    const values = send.mock.calls.map((c) => dec.decode(c[2] ?? new Uint8Array()));
    expect(values.length).toBeGreaterThanOrEqual(10);
    expect(new Set(values).size).toBe(values.length);
  });
});

describe('ClusterApps.dispose', () => {
  it('ends every manager and subscription together: the engine builds no event for them any more', () => {
    const apps = new ClusterApps(1, 'demo', { store: new MapStore() });
    apps.tick(1000);
    for (const type of ['groupGenerationCompleted', 'messageSent', 'logAppended', 'znodeCreated'] as const)
      expect(apps.engine.wants(type)).toBe(true);
    apps.takeEvents();
    apps.dispose();
    for (const type of ['groupGenerationCompleted', 'messageSent', 'logAppended', 'znodeCreated'] as const)
      expect(apps.engine.wants(type)).toBe(false);
    apps.tick(1000);
    expect(apps.takeEvents()).toEqual([]);
  });
});
