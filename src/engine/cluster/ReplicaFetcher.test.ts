import { describe, expect, it } from 'vitest';
import { ManualClock } from '../Clock';
import { UnifiedLog } from '../log/UnifiedLog';
import { Cluster } from './Cluster';
import { logConfigOf, PartitionLogReplica } from './PartitionLogReplica';
import type { ClusterEvent } from './events';
import type { KafkaRequest } from './requests';
import { makeBatch, QUICK_FAILOVER_CONFIG, startCluster, TestClient } from './testing';

describe('ReplicaFetcher: a follower behind the leader’s log start', () => {
  // Kafka's AbstractFetcherThread.fetchOffsetAndTruncate: when a fetch is out of range because the
  // leader's log start offset is past the follower's log end (retention deleted what the follower
  // would fetch next), the follower truncates its whole log, starts it at the leader's log start
  // and fetches from there ("Only truncate log when current leader's log start offset is greater
  // than follower's log end offset"). Before, the follower asked OffsetsForLeaderEpoch, fetched at
  // its own log end again, got OFFSET_OUT_OF_RANGE again, and never caught up.
  it('truncates fully, starts at the leader’s log start offset and catches up', () => {
    const clock = new ManualClock(0);
    const events: ClusterEvent[] = [];
    const cluster: Cluster = new Cluster({
      clock,
      seed: 7,
      emit: (e) => events.push(e),
      brokerConfig: { 'zookeeper.session.timeout.ms': 1000, 'log.retention.check.interval.ms': 500 },
      // The real log (retention needs segments): small segments, a small retention.bytes.
      topicDefaults: { 'segment.bytes': 100, 'retention.bytes': 200 },
      logFactory: (b, d, t, p) =>
        new PartitionLogReplica(
          new UnifiedLog({ dir: `broker-${b}${d}/${t}-${p}`, config: logConfigOf(cluster.topicConfig(t)), clock }),
        ),
    });
    for (const id of [1, 2, 3]) cluster.addBroker({ id });
    cluster.tick(500);
    cluster.createTopic({ name: 't', partitions: 1, replicationFactor: 3, fixedStartIndex: 0 });
    cluster.tick(500);
    const client = new TestClient(cluster);
    expect(client.produce(1, 't', 0, makeBatch(['a', 'b']), -1)?.errorCode).toBe('NONE');
    cluster.tick(500);

    cluster.killBroker(3);
    cluster.tick(2000); // broker 3 leaves the ISR
    for (let i = 0; i < 12; i++) expect(client.produce(1, 't', 0, makeBatch([`r${i}`]), -1)?.errorCode).toBe('NONE');
    cluster.tick(1000); // retention deletes the old segments on the leader
    const leader = cluster.broker(1).replicaManager.partitions.get('t-0');
    const follower = cluster.broker(3).replicaManager.logs.get('t-0')?.log;
    expect(leader?.log.logStartOffset()).toBeGreaterThan(follower?.logEndOffset() ?? 0);

    cluster.restartBroker(3);
    cluster.tick(3000);
    const caughtUp = cluster.broker(3).replicaManager.partitions.get('t-0');
    expect(caughtUp?.logEndOffset()).toBe(leader?.logEndOffset());
    expect(cluster.partitionState('t', 0)?.isr).toContain(3);
    expect(
      events.some((e) => e.type === 'replicaTruncated' && e.broker === 3 && e.reason === 'leaderLogStartOffset'),
    ).toBe(true);
    // fetchOffsetAndTruncate asks the leader with ListOffsets as a replica: LATEST (the leader
    // does not end below it), then EARLIEST (the leader starts past its end).
    const asked: [number, number][] = [];
    for (const e of events) {
      if (e.type !== 'messageSent' || e.from !== 'broker-3') continue;
      const body = e.body as KafkaRequest;
      if (body.api !== 'ListOffsets') continue;
      for (const t of body.topics) for (const p of t.partitions) asked.push([body.replicaId, p.timestamp]);
    }
    expect(asked).toEqual([
      [3, -1],
      [3, -2],
    ]);
  });
});

describe('ReplicaFetcher: truncation on fetch after a restart (KIP-595, IBP >= 2.7)', () => {
  // Kafka 3.9 AbstractFetcherThread.partitionFetchState: with truncation on fetch supported, a
  // partition whose log has a latest epoch starts in Fetching state (ReplicaManager.initialFetchOffset:
  // the log end offset) with that epoch as lastFetchedEpoch; no OffsetsForLeaderEpoch round trip.
  // The leader's Partition.readRecords answers a divergingEpoch, and the follower truncates to it
  // (AbstractFetcherThreadTest.testDivergingEpochs), then fetches on.
  it('a restarted follower with a divergent tail fetches at once with its last epoch and truncates from the answer', () => {
    const { cluster, events } = startCluster(3, 2, QUICK_FAILOVER_CONFIG);
    cluster.createTopic({
      name: 't',
      partitions: 1,
      replicationFactor: 2,
      fixedStartIndex: 0,
      configs: { 'unclean.leader.election.enable': true },
    });
    cluster.tick(300);
    const client = new TestClient(cluster);
    expect(client.produce(1, 't', 0, makeBatch(['a', 'b']), -1)?.errorCode).toBe('NONE');
    cluster.tick(200);
    // 2 dies; 1 appends two records alone in epoch 1 (the ISR shrink bumped the epoch), then dies.
    cluster.killBroker(2);
    cluster.tick(1500);
    expect(cluster.partitionState('t', 0)).toMatchObject({ leader: 1, isr: [1] });
    expect(client.produce(1, 't', 0, makeBatch(['x', 'y']), 1)?.errorCode).toBe('NONE');
    cluster.killBroker(1);
    cluster.tick(1500);
    // 2 comes back and is elected uncleanly; it writes 'z' in its own epoch.
    cluster.restartBroker(2);
    cluster.tick(1500);
    expect(cluster.partitionState('t', 0)?.leader).toBe(2);
    expect(client.produce(2, 't', 0, makeBatch(['z']), 1)?.errorCode).toBe('NONE');
    const lastEpochOf1 = cluster.broker(1).replicaManager.logs.get('t-0')?.log.latestEpoch();
    expect(lastEpochOf1).toBeGreaterThan(0);

    const restartedAt = cluster.scheduler.now();
    cluster.restartBroker(1);
    cluster.tick(3000);
    // The replication requests broker 1 sent its new leader after the restart, in order.
    const replication: KafkaRequest[] = [];
    for (const e of events)
      if (e.type === 'messageSent' && e.kind === 'request' && e.from === 'broker-1' && e.to === 'broker-2')
        if (e.sentAtMs >= restartedAt && (e.api === 'Fetch' || e.api === 'OffsetsForLeaderEpoch'))
          replication.push(e.body as KafkaRequest);
    expect(replication.some((r) => r.api === 'OffsetsForLeaderEpoch')).toBe(false);
    const first = replication[0];
    expect(first?.api === 'Fetch' ? first.topics[0]?.partitions[0] : null).toMatchObject({
      fetchOffset: 4,
      lastFetchedEpoch: lastEpochOf1,
    });
    const truncated = events.find((e) => e.type === 'replicaTruncated' && e.broker === 1 && e.atMs >= restartedAt);
    expect(truncated).toMatchObject({ reason: 'divergingEpoch', oldLogEndOffset: 4, newLogEndOffset: 2 });
    const follower = cluster.broker(1).replicaManager.partitions.get('t-0');
    expect(follower?.logEndOffset()).toBe(3);
    expect(cluster.partitionState('t', 0)?.isr).toEqual([2, 1]);
  });
});
