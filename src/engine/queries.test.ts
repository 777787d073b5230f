import { describe, expect, it } from 'vitest';
import { ManualClock } from './Clock';
import { makeBatch, TestClient } from './cluster/testing';
import { earliestConsumer } from './consumerApps/facadeTesting';
import { Engine } from './engine';
import { MapStore } from './log/testSupport';

function engine(brokers = 3) {
  const e = new Engine({
    seed: 7,
    store: new MapStore(),
    clock: new ManualClock(0),
    brokerConfig: { 'zookeeper.session.timeout.ms': 6000, 'replica.lag.time.max.ms': 10_000 },
    brokers: Array.from({ length: brokers }, (_, i) => ({ id: i + 1 })),
  });
  e.tick(100);
  e.createTopic({ name: 't', partitions: 1, replicationFactor: 3, fixedStartIndex: 0 });
  e.tick(500);
  return { e, client: new TestClient(e.cluster) };
}

describe('Engine queries (the facade a host reads, instead of broker internals)', () => {
  it('leaderReplica follows the leader the controller elects (KafkaController.onBrokerFailure, first live ISR member)', () => {
    const { e, client } = engine();
    expect(client.produce(1, 't', 0, makeBatch(['a', 'b']), -1)?.errorCode).toBe('NONE');
    e.tick(500);
    const before = e.leaderReplica('t', 0);
    expect(before).toMatchObject({ broker: 1, highWatermark: 2, isr: [1, 2, 3], leaderEpoch: 0 });
    expect(before?.log.logEndOffset).toBe(2);
    e.killBroker(1);
    e.tick(7000);
    const after = e.leaderReplica('t', 0);
    expect(after?.broker).toBe(2);
    expect(after?.leaderEpoch).toBeGreaterThan(0);
    expect(after?.isr).not.toContain(1);
    expect(e.leaderReplica('t', 5)).toBeNull();
    expect(e.leaderReplica('missing', 0)).toBeNull();
  });

  it('partitionState reads the state znode and each replica (Partition: leader, ISR, LEO, HW)', () => {
    const { e, client } = engine();
    client.produce(1, 't', 0, makeBatch(['a', 'b', 'c']), -1);
    e.tick(500);
    const p = e.partitionState('t', 0);
    expect(p).toMatchObject({
      topic: 't',
      partition: 0,
      replicas: [1, 2, 3],
      leader: 1,
      isr: [1, 2, 3],
      offline: false,
    });
    expect(p.replicaStates.map((r) => [r.broker, r.role, r.inIsr, r.logEndOffset, r.highWatermark])).toEqual([
      [1, 'leader', true, 3, 3],
      [2, 'follower', true, 3, 3],
      [3, 'follower', true, 3, 3],
    ]);
    e.killBroker(3);
    e.tick(100);
    expect(e.partitionState('t', 0).replicaStates[2]?.role).toBe('offline');
    expect(e.topicState('t').partitions).toEqual([e.partitionState('t', 0)]);
  });

  it('controllerState and brokerStates: one controller, its epoch bumps on re-election (KafkaController.elect)', () => {
    const { e } = engine();
    expect(e.controllerState()).toEqual({ id: 1, epoch: 1 });
    const brokers = e.brokerStates(new Map([[1, 1]]));
    expect(brokers.map((b) => [b.id, b.alive, b.controller, b.leaderCount])).toEqual([
      [1, true, true, 1],
      [2, true, false, 0],
      [3, true, false, 0],
    ]);
    e.killBroker(1);
    e.tick(7000);
    const c = e.controllerState();
    expect(c.id).not.toBe(1);
    expect(c.epoch).toBe(2);
    expect(e.brokerStates(new Map()).find((b) => b.id === 1)?.alive).toBe(false);
  });

  it('znodes lists the tree with the watches set on each node (ZooKeeper WatchManager), data cut to maxData', () => {
    const { e } = engine();
    const nodes = e.znodes(0, 10);
    const ids = nodes.find((n) => n.path === '/brokers/ids');
    // The controller watches broker registrations (KafkaController's BrokerChangeHandler).
    expect(ids?.childWatches).toBeGreaterThan(0);
    for (const n of nodes) {
      expect(n.data.length).toBeLessThanOrEqual(10);
      const w = e.cluster.zk.watchCount(n.path);
      expect([n.dataWatches, n.childWatches]).toEqual([w.data, w.child]);
    }
    expect(nodes.find((n) => n.path === '/brokers/ids/1')?.ephemeral).toBe(true);
  });

  it('describeGroup answers kafka-consumer-groups --describe: owner, committed offset, log end and lag (ConsumerGroupCommand.ConsumerGroupService.describeGroups)', () => {
    const e = new Engine({
      seed: 7,
      store: new MapStore(),
      clock: new ManualClock(0),
      groupCoordinatorConfig: { 'offsets.topic.num.partitions': 3 },
      brokerConfig: { 'zookeeper.session.timeout.ms': 6000, 'replica.lag.time.max.ms': 10_000 },
      brokers: [{ id: 1 }, { id: 2 }, { id: 3 }],
    });
    e.tick(100);
    e.createTopic({ name: 'orders', partitions: 2, replicationFactor: 3 });
    e.tick(200);
    expect(e.describeGroup('shop')).toEqual([]);
    e.apply(earliestConsumer('c1', 'shop', ['orders']));
    e.tick(10_000);
    const leader = e.partitionState('orders', 0).leader;
    new TestClient(e.cluster).produce(leader, 'orders', 0, makeBatch(['a', 'b']));
    e.tick(7_000);
    const rows = e.describeGroup('shop');
    expect(rows.map((r) => [r.topic, r.partition]).sort()).toEqual([
      ['orders', 0],
      ['orders', 1],
    ]);
    // Auto commit has caught up with the log end: lag 0, and the one member owns both partitions.
    expect(rows.find((r) => r.partition === 0)).toMatchObject({
      group: 'shop',
      currentOffset: 2,
      logEndOffset: 2,
      lag: 0,
    });
    expect(new Set(rows.map((r) => r.consumerId)).size).toBe(1);
    // Shared log-end lookups (many groups at one instant) answer the same rows.
    expect(e.describeGroup('shop', new Map())).toEqual(rows);
  });

  // TopicDeletionManager (DeleteTopicTest.testResumeDeleteTopicWithRecoveredFollower): the page
  // reads each replica's deletion state and the topic's halt from the active controller, not from
  // a guess: live replicas deleted, the dead broker's waiting, the topic halted until it returns.
  it("a halted topic deletion: the controller's replica states and the topic's halt", () => {
    const { e } = engine();
    e.killBroker(3);
    e.tick(7000);
    e.deleteTopic('t');
    const topic = () => (e.cluster.topicNames().includes('t') ? e.topicState('t') : undefined);
    for (let i = 0; i < 50 && topic()?.deletion?.started !== true; i++) e.tick(1);
    expect(topic()?.partitions[0]?.replicaStates.map((r) => r.deletionState)).toEqual([
      'ReplicaDeletionStarted',
      'ReplicaDeletionStarted',
      'ReplicaDeletionIneligible',
    ]);
    e.tick(500);
    expect(topic()?.deletion).toEqual({ started: true, halted: true });
    expect(topic()?.partitions[0]?.replicaStates.map((r) => r.deletionState)).toEqual([
      'ReplicaDeletionSuccessful',
      'ReplicaDeletionSuccessful',
      'OfflineReplica',
    ]);
    e.restartBroker(3);
    e.tick(2000);
    expect(topic()).toBeUndefined();
  });
});
