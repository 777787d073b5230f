/**
 * The broker side of the Admin APIs on existing partitions (AdminOperations), on a real engine
 * cluster: DeleteRecords as Kafka's Partition.deleteRecordsOnLeader and the low watermark
 * DelayedDeleteRecords waits on (followers follow the leader's log start from their fetches,
 * ReplicaFetcherThread.processPartitionData), and admin-triggered elections as
 * KafkaController.processReplicaLeaderElection answers them (ElectLeadersRequestTest,
 * LeaderElectionCommandTest: ELECTION_NOT_NEEDED, PREFERRED_LEADER_NOT_AVAILABLE, an unclean
 * election of a live out-of-sync replica whatever unclean.leader.election.enable says).
 */
import { describe, expect, it } from 'vitest';
import {
  deleteRecordsOnLeader,
  describeLogDirs,
  describeProducers,
  electLeaders,
  lowWatermarkIfLeader,
} from './AdminOperations';
import { makeBatch, QUICK_FAILOVER_CONFIG, startCluster, TestClient } from './testing';

function clusterWithRecords(count: number) {
  const { cluster } = startCluster(7, 3, QUICK_FAILOVER_CONFIG);
  cluster.createTopic({ name: 't', partitions: 1, replicationFactor: 3, fixedStartIndex: 0 });
  cluster.tick(300);
  const client = new TestClient(cluster);
  const leader = cluster.partitionState('t', 0)?.leader ?? -1;
  for (let i = 0; i < count; i += 10)
    client.produce(
      leader,
      't',
      0,
      makeBatch(
        Array.from({ length: 10 }, (_, j) => `v${i + j}`),
        { producerId: 5, producerEpoch: 0, baseSequence: i },
      ),
    );
  cluster.tick(500);
  return { cluster, leader };
}

describe('DeleteRecords', () => {
  it("moves the leader's log start, the followers follow, and the low watermark reaches it", () => {
    const { cluster, leader } = clusterWithRecords(100);
    const r = deleteRecordsOnLeader(cluster, leader, 't', 0, 40);
    expect(r).toMatchObject({ errorCode: 'NONE', requestedOffset: 40, lowWatermark: 0 });
    cluster.tick(500);
    expect(lowWatermarkIfLeader(cluster, leader, 't', 0)).toBe(40);
    for (const b of [1, 2, 3])
      expect(cluster.brokers.get(b)?.replicaManager.logs.get('t-0')?.log.logStartOffset()).toBe(40);
  });

  it('-1 means the high watermark; past it is OFFSET_OUT_OF_RANGE; off the leader NOT_LEADER_OR_FOLLOWER; internal topics refused', () => {
    const { cluster, leader } = clusterWithRecords(50);
    const follower = [1, 2, 3].find((b) => b !== leader) as number;
    expect(deleteRecordsOnLeader(cluster, leader, 't', 0, 51).errorCode).toBe('OFFSET_OUT_OF_RANGE');
    expect(deleteRecordsOnLeader(cluster, follower, 't', 0, 10).errorCode).toBe('NOT_LEADER_OR_FOLLOWER');
    expect(deleteRecordsOnLeader(cluster, leader, 't', 7, 10).errorCode).toBe('UNKNOWN_TOPIC_OR_PARTITION');
    expect(deleteRecordsOnLeader(cluster, leader, '__consumer_offsets', 0, 0).errorCode).toBe(
      'INVALID_TOPIC_EXCEPTION',
    );
    expect(cluster.brokers.get(leader)?.replicaManager.logs.get('t-0')?.log.logStartOffset()).toBe(0);
    expect(deleteRecordsOnLeader(cluster, leader, 't', 0, -1)).toMatchObject({
      errorCode: 'NONE',
      requestedOffset: 50,
    });
  });
});

describe('DescribeLogDirs and DescribeProducers', () => {
  it("each replica's size is its segment bytes; the leader names the idempotent producer and its last sequence", () => {
    const { cluster, leader } = clusterWithRecords(30);
    const broker = cluster.brokers.get(leader);
    if (!broker) throw new Error('no leader');
    const dirs = describeLogDirs(broker, [{ topic: 't', partitions: [0] }]);
    const bytes = broker.replicaManager.logs
      .get('t-0')
      ?.log.segments()
      .reduce((n, s) => n + s.sizeInBytes, 0);
    expect(dirs.flatMap((d) => d.topics)).toEqual([
      { name: 't', partitions: [{ partitionIndex: 0, partitionSize: bytes, offsetLag: 0 }] },
    ]);
    expect(bytes).toBeGreaterThan(0);
    expect(describeProducers(cluster, leader, 't', 0)).toMatchObject({
      errorCode: 'NONE',
      activeProducers: [{ producerId: 5, producerEpoch: 0, lastSequence: 29 }],
    });
  });
});

describe('ElectLeaders (admin-triggered)', () => {
  it('PREFERRED: not needed where the preferred replica leads; NONE once it takes over again; NOT_CONTROLLER elsewhere', () => {
    const { cluster } = startCluster(3, 3, QUICK_FAILOVER_CONFIG);
    cluster.createTopic({ name: 'p', partitions: 1, replicationFactor: 3, fixedStartIndex: 0 });
    cluster.tick(300);
    const controller = cluster.activeController()?.id ?? -1;
    const other = [1, 2, 3].find((b) => b !== controller) as number;
    const asked = [{ topic: 'p', partition: 0 }];
    expect(electLeaders(cluster, controller, 'PREFERRED', asked)[0]?.errorCode).toBe('ELECTION_NOT_NEEDED');
    expect(electLeaders(cluster, other, 'PREFERRED', asked)[0]?.errorCode).toBe('NOT_CONTROLLER');
    const preferred = cluster.assignment('p')[0]?.[0] as number;
    cluster.stopBroker(preferred);
    cluster.tick(2_000);
    cluster.restartBroker(preferred);
    cluster.tick(3_000);
    const now = cluster.activeController()?.id ?? -1;
    expect(cluster.partitionState('p', 0)?.leader).not.toBe(preferred);
    expect(electLeaders(cluster, now, 'PREFERRED', asked)[0]?.errorCode).toBe('NONE');
    expect(cluster.partitionState('p', 0)?.leader).toBe(preferred);
  });

  it('UNCLEAN: a live out-of-sync replica leads an offline partition even with unclean.leader.election.enable false', () => {
    const { cluster } = startCluster(5, 3, QUICK_FAILOVER_CONFIG);
    cluster.createTopic({ name: 'u', partitions: 1, replicationFactor: 2, fixedStartIndex: 0 });
    cluster.tick(300);
    const [first, second] = cluster.assignment('u')[0] as number[];
    const asked = [{ topic: 'u', partition: 0 }];
    // The follower dies first and leaves the ISR; then the leader, the last ISR member, dies.
    cluster.killBroker(second as number);
    cluster.tick(3_000);
    cluster.killBroker(first as number);
    cluster.tick(3_000);
    cluster.restartBroker(second as number);
    cluster.tick(3_000);
    expect(cluster.partitionState('u', 0)?.leader).toBe(-1);
    const controller = cluster.activeController()?.id ?? -1;
    expect(electLeaders(cluster, controller, 'UNCLEAN', asked)[0]?.errorCode).toBe('NONE');
    expect(cluster.partitionState('u', 0)?.leader).toBe(second);
    expect(electLeaders(cluster, controller, 'UNCLEAN', asked)[0]?.errorCode).toBe('ELECTION_NOT_NEEDED');
  });
});
