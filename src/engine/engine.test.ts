import { describe, expect, it } from 'vitest';
import { ManualClock } from './Clock';
import { fetchRequest, makeBatch, TestClient } from './cluster/testing';
import { Engine, type EngineEvent, type EngineOptions, replicaDir } from './engine';
import { MapStore } from './log/testSupport';

const TEST_BROKER_CONFIG = { 'zookeeper.session.timeout.ms': 6000, 'replica.lag.time.max.ms': 10_000 };

/** `brokers` brokers on a fresh store at engine time 100 ms, every event kept. */
function engine(brokers = 3, seed = 7, brokerConfig: EngineOptions['brokerConfig'] = TEST_BROKER_CONFIG) {
  const events: EngineEvent[] = [];
  const e = new Engine({
    seed,
    store: new MapStore(),
    clock: new ManualClock(0),
    brokerConfig,
    brokers: Array.from({ length: brokers }, (_, i) => ({ id: i + 1 })),
  });
  e.subscribe((ev) => events.push(ev));
  e.tick(100);
  return { e, events, client: new TestClient(e.cluster) };
}

/** An engine whose topic `t` (replicas placed from broker 1) has its leaders elected. */
function withTopic(partitions: number, replicationFactor: number, brokers: number) {
  const setup = engine(brokers);
  setup.e.createTopic({ name: 't', partitions, replicationFactor, fixedStartIndex: 0 });
  setup.e.tick(300);
  return setup;
}

describe('Engine facade', () => {
  it('runs commands, emits events, drains them, and snapshots plain data', () => {
    const { e } = engine(3);
    e.createTopic({ name: 'orders', partitions: 2, replicationFactor: 3, fixedStartIndex: 0 });
    e.tick(500);
    const drained = e.drainEvents();
    expect(drained.some((ev) => ev.type === 'topicCreated')).toBe(true);
    expect(e.drainEvents()).toEqual([]);
    const snap = e.snapshot();
    expect(structuredClone(snap)).toEqual(snap);
    expect(snap.controller).toEqual({ broker: 1, epoch: 1 });
    expect(snap.topics[0]?.partitions.map((p) => [p.leader, p.isr])).toEqual([
      [1, [1, 2, 3]],
      [2, [2, 3, 1]],
    ]);
    const r = snap.replicas.find((x) => x.broker === 2 && x.topic === 'orders' && x.partition === 0);
    expect(r?.role).toBe('follower');
    expect(r?.segments[0]?.name).toBe('00000000000000000000.log');
    expect(snap.znodes.some((z) => z.path === '/brokers/topics/orders/partitions/1/state')).toBe(true);
    expect(snap.znodes.find((z) => z.path === '/brokers/ids/1')?.ephemeralOwner).toBeGreaterThan(0);
    // A request just sent is in flight, with its send and arrival times.
    new TestClient(e.cluster).send(2, { api: 'Metadata', topics: null, allowAutoTopicCreation: false });
    expect(e.snapshot().messagesInFlight).toContainEqual(
      expect.objectContaining({
        api: 'Metadata',
        from: 'test-client',
        to: 'broker-2',
        sentAtMs: e.now(),
        arriveAtMs: e.now() + 1,
      }),
    );
  });

  it('refused commands throw a KafkaError and change nothing', () => {
    const { e } = engine(2);
    const before = e.snapshot();
    expect(() => e.createTopic({ name: 't', partitions: 1, replicationFactor: 3 })).toThrow(
      /INVALID_REPLICATION_FACTOR/,
    );
    expect(() => e.restartBroker(1)).toThrow(/INVALID_REQUEST/);
    expect(() => e.killBroker(9)).toThrow(/BROKER_NOT_AVAILABLE/);
    expect(e.snapshot()).toEqual(before);
  });

  it('is deterministic: same seed and commands, same events', () => {
    const run = () => {
      const { e, events, client } = engine(3, 42);
      e.createTopic({ name: 't', partitions: 3, replicationFactor: 2 });
      e.tick(300);
      client.produce(e.snapshot().topics[0]?.partitions[0]?.leader ?? 1, 't', 0, makeBatch(['a', 'b']), -1);
      e.killBroker(2);
      e.tick(8000);
      return JSON.stringify(events.map((ev) => ('body' in ev ? { ...ev, body: null } : ev)));
    };
    expect(run()).toBe(run());
  });

  it('writes replica files under broker-<id><log.dir>/<topic>-<partition>/', async () => {
    const { e } = engine(1);
    e.createTopic({ name: 't', partitions: 1, replicationFactor: 1, configs: { 'flush.messages': 1 } });
    e.tick(200);
    const client = new TestClient(e.cluster);
    expect(client.produce(1, 't', 0, makeBatch(['hello']), 1)?.errorCode).toBe('NONE');
    for (let i = 0; i < 20; i++) await Promise.resolve(); // let the write-behind Store calls settle
    const files = await e.store.list(`${replicaDir(1, '/var/kafka-logs', 't', 0)}/`);
    expect(files).toContain('broker-1/var/kafka-logs/t-0/00000000000000000000.log');
  });
});

/** Topic t, one partition on brokers 1 and 2 (1 leads), unclean.leader.election.enable on. */
function createUncleanTopic(e: Engine): void {
  e.createTopic({
    name: 't',
    partitions: 1,
    replicationFactor: 2,
    fixedStartIndex: 0,
    configs: { 'unclean.leader.election.enable': true },
  });
  e.tick(300);
}

describe('Engine: failures and elections', () => {
  it('unclean leader election reports exactly the offsets lost', () => {
    const { e, events, client } = engine(2);
    createUncleanTopic(e);
    expect(client.produce(1, 't', 0, makeBatch(['a', 'b']), -1)?.errorCode).toBe('NONE'); // offsets 0,1 on both
    e.isolateBroker(2); // follower falls behind and leaves the ISR
    e.tick(16_000);
    expect(e.snapshot().topics[0]?.partitions[0]?.isr).toEqual([1]);
    expect(client.produce(1, 't', 0, makeBatch(['c', 'd', 'e']), -1)?.errorCode).toBe('NONE'); // 2..4 only on 1
    e.healBroker(2);
    e.killBroker(1);
    e.tick(12_000);
    const unclean = events.find((ev) => ev.type === 'uncleanLeaderElection');
    expect(unclean).toMatchObject({
      topic: 't',
      partition: 0,
      newLeader: 2,
      newLeaderLogEndOffset: 2,
      lostOffsets: { from: 2, to: 5 },
      lostCommittedOffsets: { from: 2, to: 5 },
    });
    expect(e.snapshot().topics[0]?.partitions[0]).toMatchObject({ leader: 2, isr: [2] });
    // The old leader comes back and truncates what the new leader never had.
    e.restartBroker(1);
    e.tick(10_000);
    expect(
      events.some(
        (ev) =>
          ev.type === 'replicaTruncated' && ev.broker === 1 && ev.oldLogEndOffset === 5 && ev.newLogEndOffset === 2,
      ),
    ).toBe(true);
    expect(e.checkInvariants()).toEqual([]);
  });

  it('a second unclean election reports records that diverge below the new leader log end', () => {
    const { e, events, client } = engine(2);
    createUncleanTopic(e);
    client.produce(1, 't', 0, makeBatch(['a', 'b']), -1); // 0-1 on both
    e.isolateBroker(2);
    e.tick(16_000); // 2 leaves the ISR
    client.produce(1, 't', 0, makeBatch(['c', 'd']), 1); // 2-3 only on broker 1
    e.healBroker(2);
    e.killBroker(1);
    e.tick(12_000); // unclean: 2 leads with 0-1
    expect(client.produce(2, 't', 0, makeBatch(['X', 'Y', 'Z']), 1)?.baseOffset).toBe(2); // 2-4 only on broker 2
    e.killBroker(2);
    e.restartBroker(1);
    e.tick(12_000); // unclean again: 1 leads with a b c d, which differ from X Y Z from offset 2
    const reports = events.filter((ev) => ev.type === 'uncleanLeaderElection');
    expect(reports.map((r) => (r.type === 'uncleanLeaderElection' ? [r.newLeader, r.lostOffsets] : null))).toEqual([
      [2, { from: 2, to: 4 }],
      [1, { from: 2, to: 5 }],
    ]);
  });

  it('without unclean election the partition goes offline until an ISR member returns', () => {
    const { e, events, client } = withTopic(1, 2, 2);
    e.isolateBroker(2);
    e.tick(16_000);
    client.produce(1, 't', 0, makeBatch(['x']), 1);
    e.healBroker(2);
    e.killBroker(1);
    e.tick(12_000);
    expect(events.some((ev) => ev.type === 'partitionOffline' && ev.topic === 't')).toBe(true);
    expect(e.snapshot().topics[0]?.partitions[0]).toMatchObject({ leader: -1, offline: true });
    expect(events.some((ev) => ev.type === 'uncleanLeaderElection')).toBe(false);
    e.restartBroker(1);
    e.tick(10_000);
    expect(e.snapshot().topics[0]?.partitions[0]?.leader).toBe(1);
  });

  it('a restarted follower truncates its divergent tail by leader epoch (KIP-101), not below the HW', () => {
    const { e, events, client } = withTopic(1, 3, 3);
    expect(client.produce(1, 't', 0, makeBatch(['a', 'b']), -1)?.errorCode).toBe('NONE'); // 0,1 committed
    // Cut the leader off and append with acks=1: only broker 1 has offsets 2..3.
    e.isolateBroker(1);
    client.send(1, { api: 'Produce', transactionalId: null, acks: 1, timeoutMs: 1000, topicData: [] });
    const leader = e.cluster.broker(1).replicaManager.partitions.get('t-0');
    leader?.log.appendAsLeader(makeBatch(['c', 'd']), leader.leaderEpoch, 1 << 20);
    e.tick(10_000); // broker 1's session expires; 2 becomes leader in a new epoch
    expect(e.snapshot().topics[0]?.partitions[0]?.leader).toBe(2);
    expect(client.produce(2, 't', 0, makeBatch(['X']), -1)?.errorCode).toBe('NONE'); // offset 2 in the new epoch
    e.healBroker(1);
    e.tick(10_000);
    const t = events.find((ev) => ev.type === 'replicaTruncated' && ev.broker === 1);
    expect(t).toMatchObject({ oldLogEndOffset: 4, newLogEndOffset: 2, reason: 'divergingEpoch' });
    const r1 = e.snapshot().replicas.find((r) => r.broker === 1);
    expect(r1?.logEndOffset).toBe(3);
    expect(r1?.leaderEpochs.map((x) => x.epoch)).toEqual(
      e
        .snapshot()
        .replicas.find((r) => r.broker === 2)
        ?.leaderEpochs.map((x) => x.epoch),
    );
    expect(e.checkInvariants()).toEqual([]);
  });

  it('power failure loses unflushed bytes; the restarted broker re-replicates them', () => {
    const { e, events, client } = withTopic(1, 3, 3);
    client.produce(1, 't', 0, makeBatch(['a', 'b', 'c']), -1);
    e.tick(200);
    e.powerFailBroker(3);
    const down = events.find((ev) => ev.type === 'brokerDown' && ev.broker === 3);
    expect(down).toMatchObject({ how: 'powerFailed' });
    expect(down && down.type === 'brokerDown' ? down.lostUnflushedBytes : 0).toBeGreaterThan(0);
    expect(e.snapshot().replicas.find((r) => r.broker === 3)?.logEndOffset).toBe(0);
    e.tick(7000);
    e.restartBroker(3);
    e.tick(8000);
    expect(e.snapshot().replicas.find((r) => r.broker === 3)?.logEndOffset).toBe(3);
    expect(e.snapshot().topics[0]?.partitions[0]?.isr.sort()).toEqual([1, 2, 3]);
  });

  it('a killed broker keeps its page cache: nothing is lost', () => {
    const { e, client } = withTopic(1, 3, 3);
    client.produce(1, 't', 0, makeBatch(['a', 'b', 'c']), -1);
    e.tick(200);
    e.killBroker(3);
    expect(e.snapshot().replicas.find((r) => r.broker === 3)?.logEndOffset).toBe(3);
  });

  it('clean stop moves leadership first (controlled shutdown), then the session closes at once', () => {
    const { e, events } = withTopic(3, 3, 3);
    e.stopBroker(1);
    e.tick(500);
    expect(events.some((ev) => ev.type === 'controlledShutdown' && ev.broker === 1 && ev.remaining === 0)).toBe(true);
    expect(events.some((ev) => ev.type === 'brokerDown' && ev.broker === 1 && ev.how === 'stopped')).toBe(true);
    const parts = e.snapshot().topics[0]?.partitions ?? [];
    expect(parts.every((p) => p.leader !== 1 && p.leader >= 0 && !p.isr.includes(1))).toBe(true);
    expect(
      events.filter((ev) => ev.type === 'partitionStateChanged' && ev.reason === 'controlledShutdown').length,
    ).toBeGreaterThan(0);
    expect(e.snapshot().controller?.broker).not.toBe(1);
  });

  it('preferred leader election moves leadership back to the first replica', () => {
    const { e, events } = withTopic(3, 3, 3);
    e.killBroker(2);
    e.tick(8000);
    expect(e.snapshot().topics[0]?.partitions[1]?.leader).not.toBe(2);
    e.restartBroker(2);
    e.tick(8000);
    expect(e.snapshot().topics[0]?.partitions[1]?.isr).toContain(2);
    e.electPreferredLeaders();
    e.tick(500);
    expect(e.snapshot().topics[0]?.partitions.map((p) => p.leader)).toEqual([1, 2, 3]);
    expect(events.some((ev) => ev.type === 'preferredLeaderElection' && ev.partitions.some((p) => p.to === 2))).toBe(
      true,
    );
  });

  it('auto.leader.rebalance.enable restores preferred leaders on the check interval', () => {
    const { e, events } = engine(3, 1, {
      'zookeeper.session.timeout.ms': 6000,
      'leader.imbalance.check.interval.seconds': 30,
      'leader.imbalance.per.broker.percentage': 10,
    });
    e.createTopic({ name: 't', partitions: 3, replicationFactor: 3, fixedStartIndex: 0 });
    e.tick(300);
    e.killBroker(3);
    e.tick(7000);
    e.restartBroker(3);
    e.tick(40_000);
    expect(e.snapshot().topics[0]?.partitions.map((p) => p.leader)).toEqual([1, 2, 3]);
    expect(events.some((ev) => ev.type === 'preferredLeaderElection' && ev.trigger === 'auto')).toBe(true);
  });

  it('reassigns a partition: new replicas catch up, leadership moves, old replicas are removed', () => {
    const { e, events, client } = withTopic(1, 2, 4);
    client.produce(1, 't', 0, makeBatch(['a', 'b']), -1);
    e.reassignPartitions([{ topic: 't', partition: 0, replicas: [3, 4] }]);
    e.tick(3000);
    expect(events.some((ev) => ev.type === 'reassignmentStarted')).toBe(true);
    expect(events.some((ev) => ev.type === 'reassignmentCompleted')).toBe(true);
    const p = e.snapshot().topics[0]?.partitions[0];
    expect(p).toMatchObject({ replicas: [3, 4], leader: 3, reassignment: null });
    expect(p?.isr.sort()).toEqual([3, 4]);
    const hosts = e.snapshot().replicas.map((r) => r.broker);
    expect(hosts.sort()).toEqual([3, 4]);
    expect(e.snapshot().replicas.every((r) => r.logEndOffset === 2)).toBe(true);
  });

  it('adds partitions and deletes topics', () => {
    const { e, events } = engine(3);
    e.createTopic({ name: 't', partitions: 2, replicationFactor: 2 });
    e.tick(300);
    expect(() => e.createPartitions('t', 2)).toThrow(/INVALID_PARTITIONS/);
    e.createPartitions('t', 4);
    e.tick(300);
    expect(e.snapshot().topics[0]?.partitions.length).toBe(4);
    expect(e.snapshot().topics[0]?.partitions.every((p) => p.leader >= 0)).toBe(true);
    e.deleteTopic('t');
    e.tick(300);
    expect(events.some((ev) => ev.type === 'topicDeleted')).toBe(true);
    expect(e.snapshot().topics).toEqual([]);
    expect(e.snapshot().replicas).toEqual([]);
  });

  it('alters topic configs with validation', () => {
    const { e, events } = engine(1);
    e.createTopic({ name: 't', partitions: 1, replicationFactor: 1 });
    e.tick(100);
    expect(() => e.alterTopicConfig('t', { 'retention.ms': 'soon' })).toThrow(/INVALID_CONFIG/);
    e.alterTopicConfig('t', { 'retention.ms': 60_000, 'cleanup.policy': 'compact' });
    expect(e.snapshot().topics[0]?.configs).toMatchObject({ 'retention.ms': 60_000, 'cleanup.policy': 'compact' });
    expect(events.some((ev) => ev.type === 'topicConfigChanged')).toBe(true);
  });
});

describe('Engine: request handlers', () => {
  it('Metadata lists brokers, controller and partitions with leaders, epochs, ISR and offline replicas', () => {
    const { e, client } = withTopic(2, 2, 3);
    e.killBroker(3);
    e.tick(8000);
    const m = client.call<Extract<import('./cluster/requests').KafkaResponse, { api: 'Metadata' }>>(1, {
      api: 'Metadata',
      topics: ['t', 'nope'],
      allowAutoTopicCreation: false,
    });
    expect(m?.brokers.map((b) => b.nodeId)).toEqual([1, 2]);
    expect(m?.controllerId).toBe(1);
    expect(m?.topics[0]?.partitions[1]).toMatchObject({
      partitionIndex: 1,
      leaderId: 2,
      replicaNodes: [2, 3],
      offlineReplicas: [3],
    });
    expect(m?.topics[1]?.errorCode).toBe('UNKNOWN_TOPIC_OR_PARTITION');
  });

  it('idempotent produce: a retried batch is answered with its first offset; a gap is OUT_OF_ORDER_SEQUENCE_NUMBER', () => {
    const { e, client } = withTopic(1, 3, 3);
    const init = client.call<Extract<import('./cluster/requests').KafkaResponse, { api: 'InitProducerId' }>>(2, {
      api: 'InitProducerId',
      transactionalId: null,
      transactionTimeoutMs: 60_000,
      producerId: -1,
      producerEpoch: -1,
    });
    expect(init).toMatchObject({ errorCode: 'NONE', producerId: 0, producerEpoch: 0 });
    expect(e.cluster.zk.getData('/latest_producer_id_block').data).toMatchObject({
      broker: 2,
      block_start: 0,
      block_end: 999,
    });
    const pid = { producerId: 0, producerEpoch: 0 };
    expect(client.produce(1, 't', 0, makeBatch(['a', 'b'], { ...pid, baseSequence: 0 }))).toMatchObject({
      errorCode: 'NONE',
      baseOffset: 0,
    });
    expect(client.produce(1, 't', 0, makeBatch(['c'], { ...pid, baseSequence: 2 }))).toMatchObject({
      errorCode: 'NONE',
      baseOffset: 2,
    });
    // The retry of the first batch: not written twice.
    expect(client.produce(1, 't', 0, makeBatch(['a', 'b'], { ...pid, baseSequence: 0 }))).toMatchObject({
      errorCode: 'NONE',
      baseOffset: 0,
    });
    expect(client.produce(1, 't', 0, makeBatch(['e'], { ...pid, baseSequence: 5 }))?.errorCode).toBe(
      'OUT_OF_ORDER_SEQUENCE_NUMBER',
    );
    expect(e.snapshot().replicas.find((r) => r.broker === 1)?.logEndOffset).toBe(3);
    // After a failover the new leader still knows the producer's sequences.
    e.killBroker(1);
    e.tick(8000);
    expect(client.produce(2, 't', 0, makeBatch(['c'], { ...pid, baseSequence: 2 }))).toMatchObject({
      errorCode: 'NONE',
      baseOffset: 2,
    });
  });

  it('consumer Fetch reads only up to the high watermark; a follower fetch up to the LEO', () => {
    const { e, client } = withTopic(1, 2, 2);
    client.produce(1, 't', 0, makeBatch(['a']), -1);
    e.isolateBroker(2);
    client.produce(1, 't', 0, makeBatch(['b']), 1); // offset 1 not replicated: above the HW
    const fetch = (replicaId: number) =>
      client.call<Extract<import('./cluster/requests').KafkaResponse, { api: 'Fetch' }>>(
        1,
        fetchRequest('t', 0, { replicaId, maxWaitMs: 0 }),
      )?.responses[0]?.partitions[0];
    const consumer = fetch(-1);
    expect(consumer?.highWatermark).toBe(1);
    expect(consumer?.records.length).toBeGreaterThan(0);
    const c2 = client.call<Extract<import('./cluster/requests').KafkaResponse, { api: 'ListOffsets' }>>(1, {
      api: 'ListOffsets',
      replicaId: -1,
      isolationLevel: 0,
      topics: [{ name: 't', partitions: [{ partitionIndex: 0, currentLeaderEpoch: -1, timestamp: -1 }] }],
    });
    expect(c2?.topics[0]?.partitions[0]).toMatchObject({ errorCode: 'NONE', offset: 1 });
    const epochs = client.call<Extract<import('./cluster/requests').KafkaResponse, { api: 'OffsetsForLeaderEpoch' }>>(
      1,
      {
        api: 'OffsetsForLeaderEpoch',
        replicaId: -1,
        topics: [{ topic: 't', partitions: [{ partition: 0, currentLeaderEpoch: -1, leaderEpoch: 0 }] }],
      },
    );
    expect(epochs?.topics[0]?.partitions[0]).toMatchObject({ errorCode: 'NONE', leaderEpoch: 0, endOffset: 2 });
  });
});

describe('Engine: ListOffsets by timestamp', () => {
  it('finds the first committed record at or after a timestamp (the time index)', () => {
    const { e, client } = engine(1);
    e.createTopic({ name: 't', partitions: 1, replicationFactor: 1 });
    e.tick(300);
    client.produce(1, 't', 0, makeBatch(['a', 'b'], { timestamp: 1000 }), 1);
    client.produce(1, 't', 0, makeBatch(['c'], { timestamp: 5000 }), 1);
    const ask = (timestamp: number) =>
      client.call<Extract<import('./cluster/requests').KafkaResponse, { api: 'ListOffsets' }>>(1, {
        api: 'ListOffsets',
        replicaId: -1,
        isolationLevel: 0,
        topics: [{ name: 't', partitions: [{ partitionIndex: 0, currentLeaderEpoch: -1, timestamp }] }],
      })?.topics[0]?.partitions[0];
    expect(ask(3000)).toMatchObject({ errorCode: 'NONE', offset: 2, timestamp: 5000 });
    expect(ask(0)).toMatchObject({ offset: 0, timestamp: 1000 });
    expect(ask(9000)).toMatchObject({ offset: -1, timestamp: -1 });
    expect(ask(-2)).toMatchObject({ offset: 0 });
    expect(ask(-1)).toMatchObject({ offset: 3 });
  });
});

describe('Engine: purgatories', () => {
  it("a consumer's long-poll Fetch returns when the high watermark passes new records, not before", () => {
    const { e, client } = withTopic(1, 2, 2);
    const cid = client.send(1, fetchRequest('t', 0, { replicaId: -1, maxWaitMs: 5000 }));
    e.tick(100);
    expect(client.responses.has(cid)).toBe(false);
    const sentAt = e.now();
    client.send(1, {
      api: 'Produce',
      transactionalId: null,
      acks: 0,
      timeoutMs: 1000,
      topicData: [{ topic: 't', partitions: [{ partition: 0, records: makeBatch(['x']) }] }],
    });
    for (let i = 0; i < 100 && !client.responses.has(cid); i++) e.tick(1);
    const r = client.responses.get(cid);
    expect(r?.api === 'Fetch' ? r.responses[0]?.partitions[0]?.highWatermark : null).toBe(1);
    expect(e.now() - sentAt).toBeLessThan(50); // the follower's fetch moved the HW, the poll answered
  });

  it('acks=0 gets no response at all', () => {
    const { e, client } = engine(1);
    e.createTopic({ name: 't', partitions: 1, replicationFactor: 1 });
    e.tick(300);
    const cid = client.send(1, {
      api: 'Produce',
      transactionalId: null,
      acks: 0,
      timeoutMs: 1000,
      topicData: [{ topic: 't', partitions: [{ partition: 0, records: makeBatch(['x']) }] }],
    });
    e.tick(1000);
    expect(client.responses.has(cid)).toBe(false);
    expect(e.snapshot().replicas[0]?.logEndOffset).toBe(1);
  });
});

describe('Engine: the log flusher, retention and the cleaner run on the brokers', () => {
  it('flush.ms flushes, retention.ms deletes old segments, cleanup.policy=compact compacts', () => {
    const { e, events } = engine(1, 3, { 'log.retention.check.interval.ms': 1000, 'log.cleaner.backoff.ms': 1000 });
    e.createTopic({
      name: 'r',
      partitions: 1,
      replicationFactor: 1,
      configs: { 'segment.bytes': 200, 'retention.ms': 5000, 'flush.ms': 500 },
    });
    e.createTopic({
      name: 'c',
      partitions: 1,
      replicationFactor: 1,
      configs: { 'segment.bytes': 200, 'cleanup.policy': 'compact' },
    });
    e.tick(300);
    const client = new TestClient(e.cluster);
    for (let i = 0; i < 6; i++) client.produce(1, 'r', 0, makeBatch([`value-${i}-`.padEnd(60, '.')]), 1);
    const key = new TextEncoder().encode('k');
    // The same key every time: only the last record survives compaction.
    for (let i = 0; i < 6; i++) client.produce(1, 'c', 0, makeBatch([`v${i}`.padEnd(60, '.')], { key }), 1);
    e.tick(2000);
    const r = e.snapshot().replicas.find((x) => x.topic === 'r');
    expect(r?.segments.every((s) => s.unflushedBytes === 0)).toBe(true); // flush.ms
    e.tick(10_000);
    expect(events.some((ev) => ev.type === 'logRetention' && ev.topic === 'r')).toBe(true);
    expect(e.snapshot().replicas.find((x) => x.topic === 'r')?.logStartOffset).toBeGreaterThan(0);
    expect(events.some((ev) => ev.type === 'logCompacted' && ev.topic === 'c' && ev.recordsSuperseded > 0)).toBe(true);
  });
});

describe('Engine: producer-state snapshot files', () => {
  it('a deleted topic takes its .snapshot files with it, so a topic of the same name never loads a stale producer state', async () => {
    const store = new MapStore();
    const e = new Engine({ seed: 3, store, clock: new ManualClock(0), brokers: [{ id: 1 }] });
    e.tick(100);
    e.createTopic({ name: 'orders', partitions: 1, replicationFactor: 1, configs: { 'segment.bytes': 200 } });
    e.tick(300);
    const client = new TestClient(e.cluster);
    for (let i = 0; i < 8; i++)
      expect(
        client.produce(1, 'orders', 0, makeBatch([`v-${i}`], { producerId: 9, producerEpoch: 0, baseSequence: i }), -1)
          ?.errorCode,
      ).toBe('NONE');
    e.tick(1000);
    for (let i = 0; i < 4; i++) await Promise.resolve();
    const snapshots = () => [...store.files.keys()].filter((k) => k.includes('/orders-0/') && k.endsWith('.snapshot'));
    expect(snapshots().length).toBeGreaterThan(0);
    e.deleteTopic('orders');
    e.tick(1000);
    for (let i = 0; i < 4; i++) await Promise.resolve();
    expect(snapshots()).toEqual([]);
  });
});

describe('Engine.rewriteStoreFiles: the Store lost every file (IndexedDB deleted under the page)', () => {
  it('hands every file back as the Store held it: segments, indexes, leader-epoch and HW checkpoints', () => {
    const store = new MapStore();
    const e = new Engine({
      seed: 3,
      store,
      clock: new ManualClock(0),
      brokers: [{ id: 1 }, { id: 2 }, { id: 3 }],
    });
    e.tick(100);
    // Small segments and a flush per message: several rolled segments, every byte flushed.
    e.createTopic({
      name: 'orders',
      partitions: 2,
      replicationFactor: 3,
      configs: { 'segment.bytes': 200, 'flush.messages': 1, 'index.interval.bytes': 1 },
    });
    e.tick(500);
    const client = new TestClient(e.cluster);
    for (let i = 0; i < 12; i++) {
      const partition = i % 2;
      const leader = e.snapshot().topics.find((t) => t.name === 'orders')?.partitions[partition]?.leader ?? 1;
      expect(client.produce(leader, 'orders', partition, makeBatch([`v-${i}`, `w-${i}`]), -1)?.errorCode).toBe('NONE');
      e.tick(50);
    }
    e.tick(10_000); // replicas caught up, HW checkpoints written
    const held = new Map(store.files);
    expect([...held.keys()].filter((p) => p.includes('/orders-0/') && p.endsWith('.log')).length).toBeGreaterThan(1);
    expect([...held.keys()].some((p) => p.endsWith('/replication-offset-checkpoint'))).toBe(true);
    expect([...held.keys()].some((p) => p.endsWith('/leader-epoch-checkpoint'))).toBe(true);

    store.files.clear();
    e.rewriteStoreFiles();
    expect([...store.files.keys()].sort()).toEqual([...held.keys()].sort());
    for (const [path, bytes] of held) expect(store.files.get(path), path).toEqual(bytes);
  });
});

describe('Engine: the segment cache pages closed segments out and reads them back', () => {
  /** The test host: time passes, the Store's writes settle, and the loads reads wait for are served. */
  async function run(e: Engine, ms: number): Promise<void> {
    for (let t = 0; t < ms; t += 100) {
      e.tick(100);
      // MapStore settles at once: a few microtask turns let the writer see its operations done.
      for (let i = 0; i < 4; i++) await Promise.resolve();
      await e.loadSegments();
    }
  }

  it('a follower that was down catches up from the leader across paged-out segments, byte for byte', async () => {
    const store = new MapStore();
    const e = new Engine({
      seed: 3,
      store,
      clock: new ManualClock(0),
      brokerConfig: { 'zookeeper.session.timeout.ms': 6000, 'replica.lag.time.max.ms': 10_000 },
      brokers: [{ id: 1 }, { id: 2 }],
      segmentCacheBytes: 0,
    });
    e.tick(100);
    const client = new TestClient(e.cluster);
    e.createTopic({
      name: 't',
      partitions: 1,
      replicationFactor: 2,
      fixedStartIndex: 0,
      configs: { 'segment.bytes': 600, 'flush.ms': 100, 'min.insync.replicas': 1 },
    });
    await run(e, 300);
    e.killBroker(2);
    await run(e, 7000);
    for (let i = 0; i < 60; i++) {
      expect(client.produce(1, 't', 0, makeBatch([`record-${i}`.padEnd(40, '.')]), 1)?.errorCode).toBe('NONE');
    }
    await run(e, 500);
    const leader = e.snapshot().replicas.find((r) => r.broker === 1);
    expect(leader?.logEndOffset).toBe(60);
    const pagedOutBefore = e.segmentCache.pageOuts;
    expect(pagedOutBefore).toBeGreaterThan(5);
    e.restartBroker(2);
    await run(e, 8000);
    expect(e.snapshot().replicas.find((r) => r.broker === 2)?.logEndOffset).toBe(60);
    expect(e.snapshot().topics[0]?.partitions[0]?.isr.sort()).toEqual([1, 2]);
    // The follower's fetches waited for the leader's paged-out segments to come back.
    expect(e.segmentCache.reloads).toBeGreaterThan(5);
    expect(e.segmentCache.residentBytes).toBe(0);
    // Both replicas' files hold the same batches.
    const files = (broker: number) =>
      [...store.files.keys()]
        .filter((k) => k.startsWith(`${replicaDir(broker, '/var/kafka-logs', 't', 0)}/`) && k.endsWith('.log'))
        .sort()
        .map((k) => [k.slice(k.lastIndexOf('/')), [...(store.files.get(k) as Uint8Array)]]);
    expect(files(2)).toEqual(files(1));
    expect(e.checkInvariants()).toEqual([]);
  });

  it('rewriting the lost Store starts each log past its paged-out segments and tells it as logRetention', async () => {
    const store = new MapStore();
    const e = new Engine({ seed: 3, store, clock: new ManualClock(0), brokers: [{ id: 1 }], segmentCacheBytes: 0 });
    e.tick(100);
    const client = new TestClient(e.cluster);
    e.createTopic({
      name: 't',
      partitions: 1,
      replicationFactor: 1,
      configs: { 'segment.bytes': 600, 'flush.ms': 100 },
    });
    await run(e, 300);
    for (let i = 0; i < 60; i++) {
      expect(client.produce(1, 't', 0, makeBatch([`record-${i}`.padEnd(40, '.')]), 1)?.errorCode).toBe('NONE');
    }
    await run(e, 1000);
    expect(e.segmentCache.pagedOutSegments).toBeGreaterThan(3);
    const events: EngineEvent[] = [];
    e.subscribe((ev) => events.push(ev), ['logRetention']);
    store.files.clear();
    const lost = e.rewriteStoreFiles();
    const replica = e.snapshot().replicas.find((r) => r.broker === 1 && r.topic === 't');
    expect(replica?.logStartOffset).toBeGreaterThan(0);
    expect(replica?.logEndOffset).toBe(60);
    expect(lost).toEqual([
      {
        broker: 1,
        topic: 't',
        partition: 0,
        fromOffset: 0,
        logStartOffset: replica?.logStartOffset,
        segments: lost[0]?.segments,
      },
    ]);
    expect(events).toHaveLength(1);
    const ev = events[0] as Extract<EngineEvent, { type: 'logRetention' }>;
    expect(ev.logStartOffset).toBe(replica?.logStartOffset);
    expect(ev.deleted?.every((d) => d.reason === 'lost-with-store')).toBe(true);
    expect(ev.deletedSegments).toBe(lost[0]?.segments);
    // The Store now holds only the segments from the new log start on.
    const bases = [...store.files.keys()]
      .filter((k) => k.includes('/t-0/') && k.endsWith('.log'))
      .map((k) => Number(k.slice(k.lastIndexOf('/') + 1, -4)));
    expect(Math.min(...bases)).toBe(replica?.logStartOffset);
    expect(e.checkInvariants()).toEqual([]);
  });
});

describe('Engine.storeLost: after the database is deleted nothing counts as saved until it is saved again', () => {
  /** A MapStore whose every operation fails while `gone` (IndexedDB refuses them once deleted). */
  class LosingStore extends MapStore {
    gone = false;
    private refuse(): Promise<void> | null {
      return this.gone ? Promise.reject(new Error('the database was deleted')) : null;
    }
    override write(path: string, bytes: Uint8Array): Promise<void> {
      return this.refuse() ?? super.write(path, bytes);
    }
    override append(path: string, bytes: Uint8Array): Promise<void> {
      return this.refuse() ?? super.append(path, bytes);
    }
    override truncate(path: string, size: number): Promise<void> {
      return this.refuse() ?? super.truncate(path, size);
    }
    override delete(path: string): Promise<void> {
      return this.refuse() ?? super.delete(path);
    }
  }

  it('durable offsets drop to the log start and znodes to unsaved; a rewrite makes them durable again, and so are later records', async () => {
    const store = new LosingStore();
    const e = new Engine({ seed: 3, store, clock: new ManualClock(0), brokers: [{ id: 1 }] });
    const settle = async () => {
      for (let i = 0; i < 6; i++) await Promise.resolve();
    };
    e.tick(100);
    e.createTopic({ name: 't', partitions: 1, replicationFactor: 1, configs: { 'flush.messages': 1 } });
    e.tick(300);
    const client = new TestClient(e.cluster);
    for (let i = 0; i < 5; i++) expect(client.produce(1, 't', 0, makeBatch([`r-${i}`]), 1)?.errorCode).toBe('NONE');
    e.tick(100);
    await settle();
    const log = () => e.leaderReplica('t', 0)?.log;
    /** One record to t-0 (acks=1), then the Store's answer. */
    const sendAndSettle = async (value: string) => {
      expect(client.produce(1, 't', 0, makeBatch([value]), 1)?.errorCode).toBe('NONE');
      e.tick(100);
      await settle();
    };
    expect(log()?.durableOffset).toBe(5);
    expect(e.isZnodeSaved('/brokers/topics/t')).toBe(true);

    // The database is deleted under the page: everything the Store held is gone.
    store.gone = true;
    store.files.clear();
    e.storeLost();
    expect(log()?.durableOffset).toBe(0);
    expect(e.isZnodeSaved('/brokers/topics/t')).toBe(false);
    // Records sent meanwhile fail to save and are not durable either.
    await sendAndSettle('while-gone');
    expect(log()?.durableOffset).toBe(0);

    // Saved again from memory: durable once the Store confirms the rewrite, and records after it too.
    store.gone = false;
    e.rewriteStoreFiles();
    expect(log()?.durableOffset).toBe(0);
    await settle();
    expect(log()?.durableOffset).toBe(6);
    expect(e.isZnodeSaved('/brokers/topics/t')).toBe(true);
    await sendAndSettle('after');
    expect(log()?.durableOffset).toBe(7);
  });
});
