import { describe, expect, it } from 'vitest';
import { clusterWithGroups } from './clusterGroups.testing';
import type { Cluster } from '../cluster/Cluster';
import { makeBatch, TestClient } from '../cluster/testing';
import { OFFSETS_TOPIC } from '../coordinator/group/GroupCoordinator';
import { groupCoordinatorPartition } from '../coordinator/group/groupCoordinatorPartition';
import type { GroupEvent } from '../clients/consumer/groupEvents';
import type { KafkaConsumer } from '../clients/consumer/KafkaConsumer';
import { decodeOffsetCommitValue, decodeOffsetsKey } from '../clients/consumer/offsetsSchema';

function setup() {
  const events: GroupEvent[] = [];
  // Each broker's KafkaApis tells its group coordinator as LeaderAndIsr lands, as the engine wires it.
  const { cluster, port, groups } = clusterWithGroups({
    seed: 1,
    groupsSeed: 3,
    groupEmit: (e) => events.push(e),
    brokerConfig: { 'zookeeper.session.timeout.ms': 6000, 'replica.lag.time.max.ms': 10_000 },
    coordinatorConfig: { 'group.initial.rebalance.delay.ms': 0 },
    zk: true,
  });
  return { cluster, port, groups, events };
}

function runUntil(cluster: Cluster, pred: () => boolean, maxMs = 60_000): boolean {
  for (let t = 0; t < maxMs; t += 10) {
    if (pred()) return true;
    cluster.tick(10);
  }
  return pred();
}

describe('consumer groups on the real cluster', () => {
  it('creates __consumer_offsets (compacted, RF 3), forms a group, consumes up to the HW and commits with acks=all', () => {
    const { cluster, port, groups, events } = setup();
    cluster.createTopic({ name: 'orders', partitions: 2, replicationFactor: 3 });
    cluster.tick(200);
    const client = new TestClient(cluster);
    const leader0 = port.leaderOf('orders', 0) as number;
    expect(client.produce(leader0, 'orders', 0, makeBatch(['a', 'b', 'c']))?.errorCode).toBe('NONE');
    const consumers: KafkaConsumer[] = ['c1', 'c2'].map((id) => {
      const c = groups.createConsumer(id, {
        'group.id': 'shop',
        'auto.offset.reset': 'earliest',
        'enable.auto.commit': false,
      });
      c.subscribe(['orders']);
      return c;
    });
    const got: string[] = [];
    const poll = () => {
      for (const c of consumers) got.push(...c.poll().map((r) => new TextDecoder().decode(r.value as Uint8Array)));
    };
    expect(
      runUntil(cluster, () => {
        poll();
        return got.length === 3;
      }),
    ).toBe(true);
    expect(got).toEqual(['a', 'b', 'c']);
    expect(port.partitionCount(OFFSETS_TOPIC)).toBe(50);
    expect(cluster.topicOverrides(OFFSETS_TOPIC)).toMatchObject({ 'cleanup.policy': 'compact' });
    expect(cluster.assignment(OFFSETS_TOPIC)[0]?.length).toBe(3);
    const owner = consumers.find((c) => c.assignment().some((tp) => tp.partition === 0)) as KafkaConsumer;
    const commit = owner.commitSync();
    expect(runUntil(cluster, () => commit.done)).toBe(true);
    expect(commit.error).toBe('NONE');
    // The commit is a record in the group's __consumer_offsets partition on every replica.
    const p = groupCoordinatorPartition('shop');
    for (const b of cluster.assignment(OFFSETS_TOPIC)[p] ?? []) {
      const commits = port
        .readLocalLog(b, OFFSETS_TOPIC, p)
        .filter((r) => decodeOffsetsKey(r.key as Uint8Array).type === 'OffsetCommitKey');
      expect(commits.map((r) => decodeOffsetCommitValue(r.value as Uint8Array).offset)).toContain(3);
    }
    expect(groups.describeGroup('shop').find((r) => r.partition === 0)).toMatchObject({
      currentOffset: 3,
      logEndOffset: 3,
      lag: 0,
    });
    expect(events.some((e) => e.type === 'groupGenerationCompleted')).toBe(true);
  });

  it('killing the coordinator broker moves the group to the new leader, which reloads it from the log', () => {
    const { cluster, port, groups, events } = setup();
    cluster.createTopic({ name: 'orders', partitions: 1, replicationFactor: 3 });
    cluster.tick(200);
    const c = groups.createConsumer('c1', {
      'group.id': 'shop',
      'auto.offset.reset': 'earliest',
      'enable.auto.commit': false,
    });
    c.subscribe(['orders']);
    expect(
      runUntil(cluster, () => {
        c.poll();
        return c.assignment().length === 1;
      }),
    ).toBe(true);
    const client = new TestClient(cluster);
    client.produce(port.leaderOf('orders', 0) as number, 'orders', 0, makeBatch(['x', 'y']));
    let n = 0;
    runUntil(cluster, () => (n += c.poll().length) === 2);
    const r = c.commitSync();
    expect(runUntil(cluster, () => r.done)).toBe(true);
    const p = groupCoordinatorPartition('shop');
    const old = port.leaderOf(OFFSETS_TOPIC, p) as number;
    const generation = groups.groupSnapshot('shop')?.generationId;
    cluster.killBroker(old);
    expect(
      runUntil(cluster, () => {
        c.poll();
        const l = port.leaderOf(OFFSETS_TOPIC, p);
        return (
          l !== null && l !== old && groups.groupSnapshot('shop')?.coordinator === l && c.coordinator?.coordinator === l
        );
      }),
    ).toBe(true);
    const loaded = events.filter((e) => e.type === 'coordinatorLoaded' && e.offsetsPartition === p);
    expect(loaded.length).toBeGreaterThanOrEqual(2);
    expect(groups.groupSnapshot('shop')?.offsets).toEqual([{ topic: 'orders', partition: 0, offset: 2 }]);
    for (let i = 0; i < 100; i++) {
      c.poll();
      cluster.tick(100);
    }
    expect(groups.groupSnapshot('shop')?.generationId).toBe(generation);
    expect(groups.groupSnapshot('shop')?.state).toBe('Stable');
  });
});
