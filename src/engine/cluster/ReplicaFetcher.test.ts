import { describe, expect, it } from 'vitest';
import { ManualClock } from '../Clock';
import { PartitionLog } from '../log/PartitionLog';
import { Cluster } from './Cluster';
import { logConfigOf, PartitionLogReplica } from './PartitionLogReplica';
import type { ClusterEvent } from './events';
import { makeBatch, TestClient } from './testing';

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
          new PartitionLog({ dir: `broker-${b}${d}/${t}-${p}`, config: logConfigOf(cluster.topicConfig(t)), clock }),
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
  });
});
