import { describe, expect, it } from 'vitest';
import { makeBatch, TestClient } from '../cluster/testing';
import type { Engine, EngineEvent } from '../engine';
import { isKafkaError } from '../errors';
import { earliestConsumer, facadeBed } from './facadeTesting';

/** The facade bed's engine, with Kafka's 50 __consumer_offsets partitions unless told fewer (less replication work). */
function engine(seed = 7, offsetsPartitions = 50) {
  const { e, events } = facadeBed({ seed, offsetsPartitions });
  return { e, events };
}

function group(e: Engine, id: string) {
  return e.snapshot().consumerGroups.groups.find((g) => g.groupId === id);
}

describe('Engine: consumer-group commands and events', () => {
  it('createConsumer + subscribe forms a group; events cover requests, responses, states and generations', () => {
    const { e, events } = engine();
    e.apply(earliestConsumer('c1', 'shop', ['orders']));
    e.apply(earliestConsumer('c2', 'shop', ['orders']));
    e.tick(10_000);
    const g = group(e, 'shop');
    expect(g?.state).toBe('Stable');
    // Kafka's default offsets.topic.num.partitions (50), replicated 3 ways, compacted.
    expect(e.cluster.assignment('__consumer_offsets')).toHaveLength(50);
    expect(g?.members.length).toBe(2);
    expect(g?.protocol).toBe('coordinator');
    const types = new Set(events.map((ev) => ev.type));
    for (const t of [
      'groupRequestSent',
      'groupResponseSent',
      'groupStateChanged',
      'groupGenerationCompleted',
      'consumerStateChanged',
    ]) {
      expect(types.has(t as EngineEvent['type'])).toBe(true);
    }
    const apis = new Set(events.flatMap((ev) => (ev.type === 'groupRequestSent' ? [ev.api] : [])));
    for (const api of ['FindCoordinator', 'JoinGroup', 'SyncGroup', 'Heartbeat', 'OffsetFetch'])
      expect(apis.has(api as never)).toBe(true);
    // Records produced now are polled by the application that owns the partition.
    const client = new TestClient(e.cluster);
    const leader = e.cluster.partitionState('orders', 0)?.leader as number;
    client.produce(leader, 'orders', 0, makeBatch(['a', 'b']));
    e.tick(7_000);
    const apps = e.snapshot().consumerGroups.apps;
    expect(apps.reduce((n, a) => n + (a.processed['orders-0'] ?? 0), 0)).toBe(2);
    expect(events.some((ev) => ev.type === 'consumerPolled')).toBe(true);
    // Auto commit (enable.auto.commit default true): lag 0 in the describe rows.
    expect(group(e, 'shop')?.describe.find((r) => r.partition === 0)).toMatchObject({ currentOffset: 2, lag: 0 });
    // The snapshot is plain data.
    expect(() => structuredClone(e.snapshot().consumerGroups)).not.toThrow();
  });

  it('crash, close and move rebalance the group; setGroupAssignor restarts it with the new strategy', () => {
    const { e } = engine(7, 5);
    e.tick(1);
    for (const id of ['a', 'b', 'c'])
      e.apply({ op: 'createConsumer', consumerId: id, groupId: 'shop', topics: ['orders'] });
    e.tick(10_000);
    expect(group(e, 'shop')?.members.length).toBe(3);
    e.apply({ op: 'closeConsumer', consumerId: 'c' });
    e.tick(3_000);
    expect(group(e, 'shop')?.members.length).toBe(2);
    e.apply({ op: 'moveConsumer', consumerId: 'b', groupId: 'audit' });
    e.tick(10_000);
    expect(group(e, 'shop')?.members.map((m) => m.clientId)).toEqual(['a']);
    expect(group(e, 'audit')?.members.map((m) => m.clientId)).toEqual(['b']);
    // Broadcast: both groups read every partition.
    expect(group(e, 'audit')?.members[0]?.assignment.length).toBe(4);
    e.apply({ op: 'setGroupAssignor', groupId: 'shop', strategy: 'roundrobin' });
    e.apply({ op: 'createConsumer', consumerId: 'd', groupId: 'shop', topics: ['orders'] });
    e.tick(10_000);
    expect(group(e, 'shop')?.protocolName).toBe('roundrobin');
    expect(group(e, 'shop')?.members.length).toBe(2);
    e.apply({ op: 'crashConsumer', consumerId: 'd' });
    e.tick(60_000);
    expect(group(e, 'shop')?.members.map((m) => m.clientId)).toEqual(['a']);
  });

  it('setGroupProtocol zookeeper runs the legacy self-rebalancing consumers on the cluster ZooKeeper', () => {
    const { e, events } = engine(7, 5);
    e.apply({ op: 'setGroupProtocol', groupId: 'legacy', protocol: 'zookeeper' });
    for (const id of ['z1', 'z2'])
      e.apply({ op: 'createConsumer', consumerId: id, groupId: 'legacy', topics: ['orders'] });
    e.tick(15_000);
    const zk = e.snapshot().consumerGroups.zkConsumers;
    expect(zk.map((z) => z.state)).toEqual(['running', 'running']);
    expect(zk.flatMap((z) => z.owned).length).toBe(4);
    expect(e.cluster.zk.getChildren('/consumers/legacy/ids')).toEqual(['z1', 'z2']);
    expect(e.cluster.zk.getChildren('/consumers/legacy/owners/orders')).toEqual(['0', '1', '2', '3']);
    expect(events.some((ev) => ev.type === 'zkRebalance' && ev.phase === 'succeeded')).toBe(true);
  });

  it('refuses bad commands with a KafkaError and changes nothing', () => {
    const { e } = engine();
    const codeOf = (fn: () => unknown) => {
      try {
        fn();
      } catch (err) {
        return isKafkaError(err) ? err.code : String(err);
      }
      return 'ok';
    };
    expect(
      codeOf(() => e.apply({ op: 'createConsumer', consumerId: 'x', groupId: 'g', config: { 'max.poll.records': 0 } })),
    ).toBe('INVALID_CONFIG');
    expect(e.snapshot().consumerGroups.apps).toEqual([]);
    expect(codeOf(() => e.apply({ op: 'crashConsumer', consumerId: 'nobody' }))).toBe('INVALID_REQUEST');
    expect(codeOf(() => e.apply({ op: 'setGroupAssignor', groupId: 'g', strategy: 'fair' as never }))).toBe(
      'INVALID_CONFIG',
    );
  });
});
