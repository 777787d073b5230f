import { describe, expect, it } from 'vitest';
import { ManualClock } from '../Clock';
import { Cluster } from './Cluster';
import type { ClusterEvent } from './events';
import { checkReplicationInvariants } from './invariants';
import { createMinIsrTopic, errorCodeOf, makeBatch, TestClient } from './testing';

function setup(brokers = 3, options: { brokerConfig?: Record<string, number | boolean>; seed?: number } = {}) {
  const events: ClusterEvent[] = [];
  const cluster = new Cluster({
    clock: new ManualClock(0),
    seed: options.seed ?? 1,
    emit: (e) => events.push(e),
    brokerConfig: {
      'zookeeper.session.timeout.ms': 6000,
      'replica.lag.time.max.ms': 10_000,
      ...options.brokerConfig,
    },
  });
  for (let i = 1; i <= brokers; i++) cluster.addBroker({ id: i });
  cluster.tick(100);
  return { cluster, events };
}

describe('Cluster: controller election', () => {
  it('the first broker to create /controller wins and sets /controller_epoch to 1', () => {
    const { cluster, events } = setup(3);
    expect(cluster.activeController()?.id).toBe(1);
    expect(cluster.controllerEpoch()).toBe(1);
    expect(cluster.zk.getData('/controller').data).toMatchObject({ version: 1, brokerid: 1 });
    expect(cluster.zk.getData('/controller').stat.ephemeralOwner).toBeGreaterThan(0);
    expect(cluster.liveBrokerIds()).toEqual([1, 2, 3]);
    expect(events.filter((e) => e.type === 'controllerElected').length).toBe(1);
  });

  it('fails over when the controller dies: session expiry, watch, higher epoch', () => {
    const { cluster, events } = setup(3);
    cluster.killBroker(1);
    cluster.tick(5000);
    expect(cluster.activeController()).toBeNull(); // session not expired yet
    cluster.tick(1500);
    const c = cluster.activeController();
    expect(c).not.toBeNull();
    expect(c?.id).not.toBe(1);
    expect(cluster.controllerEpoch()).toBe(2);
    expect(events.some((e) => e.type === 'sessionExpired' && e.owner === 'broker-1')).toBe(true);
    expect(events.some((e) => e.type === 'controllerElected' && e.controllerEpoch === 2 && e.previousEpoch === 1)).toBe(
      true,
    );
  });

  it('an isolated controller is deposed; brokers reject its stale requests (STALE_CONTROLLER_EPOCH)', () => {
    const { cluster, events } = setup(3);
    cluster.createTopic({ name: 't', partitions: 1, replicationFactor: 3, fixedStartIndex: 0 });
    cluster.tick(500);
    cluster.isolateBroker(1);
    cluster.tick(7000);
    expect(cluster.activeController()?.id).toBe(2);
    expect(cluster.controllerEpoch()).toBe(2);
    // The old controller still believes it leads; a request from it carries epoch 1.
    const old = cluster.broker(1);
    cluster.healBroker(1);
    old.send(3, {
      api: 'UpdateMetadata',
      controllerId: 1,
      controllerEpoch: 1,
      brokerEpoch: -1,
      partitionStates: [],
      liveBrokers: [],
      deletedTopics: [],
    });
    cluster.tick(100);
    expect(
      events.some(
        (e) => e.type === 'staleControllerRequestRejected' && e.broker === 3 && e.requestControllerEpoch === 1,
      ),
    ).toBe(true);
    cluster.tick(10_000);
    expect(cluster.activeController()?.id).toBe(2);
    expect(cluster.liveBrokerIds()).toEqual([1, 2, 3]);
  });
});

describe('Cluster: topic creation', () => {
  it('validates names, partitions, replication factor and duplicates, changing nothing on failure', () => {
    const { cluster } = setup(3);
    expect(errorCodeOf(() => cluster.createTopic({ name: 'bad name', partitions: 1, replicationFactor: 1 }))).toBe(
      'INVALID_TOPIC_EXCEPTION',
    );
    expect(errorCodeOf(() => cluster.createTopic({ name: '..', partitions: 1, replicationFactor: 1 }))).toBe(
      'INVALID_TOPIC_EXCEPTION',
    );
    expect(errorCodeOf(() => cluster.createTopic({ name: 'x'.repeat(250), partitions: 1 }))).toBe(
      'INVALID_TOPIC_EXCEPTION',
    );
    expect(errorCodeOf(() => cluster.createTopic({ name: 't', partitions: 0 }))).toBe('INVALID_PARTITIONS');
    expect(errorCodeOf(() => cluster.createTopic({ name: 't', partitions: 1, replicationFactor: 4 }))).toBe(
      'INVALID_REPLICATION_FACTOR',
    );
    expect(errorCodeOf(() => cluster.createTopic({ name: 't', configs: { 'min.insync.replicas': 0 } }))).toBe(
      'INVALID_CONFIG',
    );
    expect(errorCodeOf(() => cluster.createTopic({ name: 't', configs: { 'no.such.config': 1 } }))).toBe(
      'INVALID_CONFIG',
    );
    expect(cluster.topicNames()).toEqual([]);
    cluster.createTopic({ name: 'x'.repeat(249), partitions: 1 });
    cluster.createTopic({ name: 'orders.v1_a-b', partitions: 2, replicationFactor: 3 });
    expect(errorCodeOf(() => cluster.createTopic({ name: 'orders.v1_a-b', partitions: 1 }))).toBe(
      'TOPIC_ALREADY_EXISTS',
    );
  });

  it('writes the assignment and each partition state znode; the first live replica leads', () => {
    const { cluster, events } = setup(4);
    const a = cluster.createTopic({ name: 't', partitions: 2, replicationFactor: 2, fixedStartIndex: 0 });
    expect(a).toEqual([
      [1, 2],
      [2, 3],
    ]);
    cluster.tick(100);
    expect(cluster.zk.getData('/brokers/topics/t').data).toMatchObject({ partitions: { '0': [1, 2], '1': [2, 3] } });
    expect(cluster.partitionState('t', 0)).toEqual({
      controller_epoch: 1,
      leader: 1,
      version: 1,
      leader_epoch: 0,
      isr: [1, 2],
    });
    expect(cluster.partitionState('t', 1)).toMatchObject({ leader: 2, isr: [2, 3] });
    expect(
      events.filter((e) => e.type === 'becameLeader').map((e) => (e.type === 'becameLeader' ? e.broker : 0)),
    ).toEqual([1, 2]);
  });

  it('accepts an explicit assignment and rejects a bad one', () => {
    const { cluster } = setup(3);
    expect(errorCodeOf(() => cluster.createTopic({ name: 't', assignment: [[1, 1]] }))).toBe(
      'INVALID_REPLICA_ASSIGNMENT',
    );
    expect(errorCodeOf(() => cluster.createTopic({ name: 't', assignment: [[1, 2], [3]] }))).toBe(
      'INVALID_REPLICA_ASSIGNMENT',
    );
    cluster.createTopic({
      name: 't',
      assignment: [
        [3, 1],
        [2, 3],
      ],
    });
    cluster.tick(100);
    expect(cluster.partitionState('t', 0)?.leader).toBe(3);
  });

  it('puts a new partition in the log dir holding the fewest partitions', () => {
    const events: ClusterEvent[] = [];
    const cluster = new Cluster({ clock: new ManualClock(0), seed: 1, emit: (e) => events.push(e) });
    cluster.addBroker({ id: 1, logDirs: ['/d1', '/d2'] });
    cluster.tick(100);
    cluster.createTopic({ name: 'a', partitions: 3, replicationFactor: 1 });
    cluster.tick(100);
    const dirs = [...cluster.broker(1).replicaManager.logs.values()].map((l) => l.dir);
    expect(dirs).toEqual(['/d1', '/d2', '/d1']);
  });
});

describe('Cluster: replication', () => {
  it('acks=all completes once every ISR member has the batch; HW follows the slowest ISR LEO', () => {
    const { cluster } = setup(3);
    cluster.createTopic({ name: 't', partitions: 1, replicationFactor: 3, fixedStartIndex: 0 });
    cluster.tick(200);
    const client = new TestClient(cluster);
    const r = client.produce(1, 't', 0, makeBatch(['a', 'b', 'c']), -1);
    expect(r).toMatchObject({ errorCode: 'NONE', baseOffset: 0 });
    const r2 = client.produce(1, 't', 0, makeBatch(['d']), -1);
    expect(r2).toMatchObject({ errorCode: 'NONE', baseOffset: 3 });
    cluster.tick(1000);
    for (const id of [1, 2, 3]) {
      const p = cluster.broker(id).replicaManager.partitions.get('t-0');
      expect(p?.logEndOffset()).toBe(4);
      expect(p?.highWatermark).toBe(4);
    }
    expect(checkReplicationInvariants(cluster)).toEqual([]);
  });

  it('produce to a follower is NOT_LEADER_OR_FOLLOWER; to an unknown topic UNKNOWN_TOPIC_OR_PARTITION', () => {
    const { cluster } = setup(3);
    cluster.createTopic({ name: 't', partitions: 1, replicationFactor: 2, fixedStartIndex: 0 });
    cluster.tick(200);
    const client = new TestClient(cluster);
    expect(client.produce(2, 't', 0, makeBatch(['x']), 1)?.errorCode).toBe('NOT_LEADER_OR_FOLLOWER');
    expect(client.produce(1, 'nope', 0, makeBatch(['x']), 1)?.errorCode).toBe('UNKNOWN_TOPIC_OR_PARTITION');
  });

  it('leader failover elects the first live ISR replica and bumps the leader epoch', () => {
    const { cluster, events } = setup(3);
    cluster.createTopic({ name: 't', partitions: 1, replicationFactor: 3, fixedStartIndex: 0 });
    cluster.tick(200);
    const client = new TestClient(cluster);
    client.produce(1, 't', 0, makeBatch(['a', 'b']), -1);
    cluster.tick(200);
    cluster.killBroker(1);
    cluster.tick(7000);
    const state = cluster.partitionState('t', 0);
    expect(state?.leader).toBe(2);
    expect(state?.isr).toEqual([2, 3]);
    expect(state?.leader_epoch).toBeGreaterThan(0);
    expect(
      events.some((e) => e.type === 'partitionStateChanged' && e.reason === 'offlinePartition' && e.new.leader === 2),
    ).toBe(true);
    expect(client.produce(2, 't', 0, makeBatch(['c']), -1)).toMatchObject({ errorCode: 'NONE', baseOffset: 2 });
    expect(checkReplicationInvariants(cluster)).toEqual([]);
  });

  it('min.insync.replicas: NOT_ENOUGH_REPLICAS once the ISR is too small for acks=all', () => {
    const { cluster } = setup(2);
    createMinIsrTopic(cluster, { replicationFactor: 2, tickMs: 200 });
    const client = new TestClient(cluster);
    expect(client.produce(1, 't', 0, makeBatch(['a']), -1)?.errorCode).toBe('NONE');
    cluster.killBroker(2);
    cluster.tick(7000); // controller removes 2 from the ISR
    expect(cluster.partitionState('t', 0)?.isr).toEqual([1]);
    expect(client.produce(1, 't', 0, makeBatch(['b']), -1)?.errorCode).toBe('NOT_ENOUGH_REPLICAS');
    expect(client.produce(1, 't', 0, makeBatch(['b']), 1)?.errorCode).toBe('NONE');
  });

  it('acks=all times out (REQUEST_TIMED_OUT) when a follower stops fetching, then the ISR shrinks', () => {
    const { cluster, events } = setup(2, { brokerConfig: { 'zookeeper.session.timeout.ms': 60_000 } });
    cluster.createTopic({ name: 't', partitions: 1, replicationFactor: 2, fixedStartIndex: 0 });
    cluster.tick(200);
    const client = new TestClient(cluster);
    cluster.isolateBroker(2);
    expect(client.produce(1, 't', 0, makeBatch(['a']), -1, 2000)?.errorCode).toBe('REQUEST_TIMED_OUT');
    // The ISR check runs every replica.lag.time.max.ms / 2, so a shrink lands within 1.5x the lag.
    cluster.tick(15_000);
    expect(
      events.some((e) => e.type === 'isrChangeRequested' && e.change === 'shrink' && e.newIsr.join() === '1'),
    ).toBe(true);
    expect(cluster.partitionState('t', 0)?.isr).toEqual([1]);
    // Heal: the follower's lost fetch times out (replica.socket.timeout.ms = 30 s), it fetches
    // again, catches up and is added back.
    cluster.healBroker(2);
    cluster.tick(20_000);
    expect(cluster.partitionState('t', 0)?.isr).toEqual([1, 2]);
    expect(events.some((e) => e.type === 'isrChangeRequested' && e.change === 'expand')).toBe(true);
    expect(cluster.broker(2).replicaManager.partitions.get('t-0')?.logEndOffset()).toBe(1);
  });
});

describe('Cluster: acks=all outcomes', () => {
  // Kafka 3.9 Partition.checkEnoughReplicasReachOffset: below min ISR the HW is frozen
  // (maybeIncrementLeaderHW), so the batch never reaches it and DelayedProduce expires.
  it('REQUEST_TIMED_OUT when the ISR falls below min.insync.replicas after the append (the HW is frozen)', () => {
    const { cluster } = setup(3, { brokerConfig: { 'zookeeper.session.timeout.ms': 60_000 } });
    createMinIsrTopic(cluster);
    const client = new TestClient(cluster);
    cluster.isolateBroker(2);
    cluster.isolateBroker(3);
    // Appended on the leader; the followers never fetch it; the ISR check drops them.
    expect(client.produce(1, 't', 0, makeBatch(['a']), -1, 20_000)?.errorCode).toBe('REQUEST_TIMED_OUT');
    expect(cluster.partitionState('t', 0)?.isr).toEqual([1]);
    expect(cluster.broker(1).replicaManager.partitions.get('t-0')?.logEndOffset()).toBe(1);
    expect(cluster.broker(1).replicaManager.partitions.get('t-0')?.highWatermark).toBe(0);
  });

  it('a batch waiting for acks=all survives a leader epoch bump that keeps the same leader', () => {
    const { cluster } = setup(3, { brokerConfig: { 'zookeeper.session.timeout.ms': 2000 } });
    createMinIsrTopic(cluster);
    const client = new TestClient(cluster);
    cluster.isolateBroker(3); // 3 will be removed from the ISR by the controller (epoch bump)
    const cid = client.send(1, {
      api: 'Produce',
      transactionalId: null,
      acks: -1,
      timeoutMs: 30_000,
      topicData: [{ topic: 't', partitions: [{ partition: 0, records: makeBatch(['a']) }] }],
    });
    cluster.tick(5000);
    const r = client.responses.get(cid);
    expect(r?.api === 'Produce' ? r.responses[0]?.partitions[0]?.errorCode : null).toBe('NONE');
  });
});

describe('Cluster: seed 002', () => {
  it('two topics of 13 and 19 partitions at replication factor 1 on 8 brokers make 32 partition directories', () => {
    const { cluster } = setup(8);
    cluster.createTopic({ name: 'topic1', partitions: 13, replicationFactor: 1 });
    cluster.createTopic({ name: 'topic2', partitions: 19, replicationFactor: 1 });
    cluster.tick(500);
    const dirs = [...cluster.brokers.values()].flatMap((b) =>
      [...b.replicaManager.logs.values()].map((l) => `${l.topic}-${l.partition}`),
    );
    expect(dirs.length).toBe(32);
    expect(new Set(dirs).size).toBe(32);
    // Leaders spread evenly: no broker leads more than ceil(13/8) + ceil(19/8) partitions.
    for (const b of cluster.brokers.values())
      expect([...b.replicaManager.partitions.values()].filter((p) => p.isLeader).length).toBeLessThanOrEqual(5);
  });
});

// apache/kafka core/src/test/scala/unit/kafka/admin/AddPartitionsTest.scala
// (testReplicaPlacementAllServers, testReplicaPlacementPartialServers): brokers 0-3.
describe('Cluster: adding partitions places them as Kafka does', () => {
  function fourBrokers() {
    const events: ClusterEvent[] = [];
    const cluster = new Cluster({ clock: new ManualClock(0), seed: 1, emit: (e) => events.push(e) });
    for (const id of [0, 1, 2, 3]) cluster.addBroker({ id });
    cluster.tick(100);
    return cluster;
  }

  it('testReplicaPlacementAllServers: {0: [2,3,0,1]} grown to 7 partitions', () => {
    const cluster = fourBrokers();
    cluster.createTopic({ name: 'new-topic3', assignment: [[2, 3, 0, 1]] });
    cluster.tick(100);
    cluster.createPartitions('new-topic3', 7);
    cluster.tick(300);
    const expected: [number, number[]][] = [
      [2, [2, 3, 0, 1]],
      [3, [3, 2, 0, 1]],
      [0, [0, 3, 1, 2]],
      [1, [1, 0, 2, 3]],
      [2, [2, 3, 0, 1]],
      [3, [3, 0, 1, 2]],
      [0, [0, 1, 2, 3]],
    ];
    const a = cluster.assignment('new-topic3');
    expected.forEach(([leader, set], p) => {
      expect(cluster.partitionState('new-topic3', p)?.leader).toBe(leader);
      expect([...(a[p] ?? [])].sort()).toEqual([...set].sort());
    });
  });

  it('testWrongReplicaCount: an explicit assignment must keep the replication factor', () => {
    const cluster = fourBrokers();
    cluster.createTopic({ name: 'new-topic1', assignment: [[0, 1]] });
    expect(() => cluster.createPartitions('new-topic1', 2, [[0, 1, 2]])).toThrow(/INVALID_REPLICA_ASSIGNMENT/);
    expect(cluster.assignment('new-topic1').length).toBe(1);
  });

  it('testReplicaPlacementPartialServers: {0: [1,2]} grown to 3 partitions', () => {
    const cluster = fourBrokers();
    cluster.createTopic({ name: 'new-topic2', assignment: [[1, 2]] });
    cluster.tick(100);
    cluster.createPartitions('new-topic2', 3);
    cluster.tick(300);
    expect(cluster.assignment('new-topic2')).toEqual([
      [1, 2],
      [2, 0],
      [3, 1],
    ]);
    expect([0, 1, 2].map((p) => cluster.partitionState('new-topic2', p)?.leader)).toEqual([1, 2, 3]);
  });
});
