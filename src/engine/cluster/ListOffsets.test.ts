/**
 * ListOffsets as Kafka 3.9 answers it: KafkaApis.handleListOffsetRequestV1AndAbove over
 * Partition.fetchOffsetForTimestamp and UnifiedLog.fetchOffsetByTimestamp.
 */
import { describe, expect, it } from 'vitest';
import type { Engine } from '../engine';
import type { ListOffsetsRequest } from './requests';
import { engineWithTopic, makeBatch, TestClient } from './testing';

function cluster(brokers: number, assignment: number[][]) {
  const { e } = engineWithTopic(brokers, assignment, 11);
  return { e, client: new TestClient(e.cluster) };
}

/** One partition's answer from broker `broker`, handled at once (no time passes). */
function listOffsets(
  e: Engine,
  broker: number,
  timestamp: number,
  options: { replicaId?: number; version?: number; currentLeaderEpoch?: number } = {},
) {
  const request: ListOffsetsRequest = {
    api: 'ListOffsets',
    version: options.version,
    replicaId: options.replicaId ?? -1,
    isolationLevel: 0,
    topics: [
      {
        name: 't',
        partitions: [{ partitionIndex: 0, currentLeaderEpoch: options.currentLeaderEpoch ?? -1, timestamp }],
      },
    ],
  };
  return e.cluster.brokers.get(broker)?.replicaManager.handleListOffsets(request).topics[0]?.partitions[0];
}

describe('ListOffsets (Kafka 3.9)', () => {
  // PartitionTest.testMonotonicOffsetsAfterLeaderChange (KIP-207): while the new leader's high
  // watermark lags the start offset of its epoch, a client's "latest" is OFFSET_NOT_AVAILABLE;
  // a replica's request and "earliest" skip the check; the error goes once the HW catches up.
  it('testMonotonicOffsetsAfterLeaderChange: a lagging new leader answers "latest" OFFSET_NOT_AVAILABLE', () => {
    const { e, client } = cluster(3, [[1, 2, 3]]);
    client.produce(1, 't', 0, makeBatch(['a', 'b', 'c', 'd', 'e'], { timestamp: 1000 }), 1);
    const replica = (b: number) => e.snapshot().replicas.find((r) => r.broker === b);
    for (let i = 0; i < 100 && (replica(2)?.logEndOffset ?? 0) < 5; i++) e.tick(1);
    expect(replica(2)).toMatchObject({ logEndOffset: 5, highWatermark: 0 });
    // The leader dies before its followers hear the new high watermark: broker 2 takes over with
    // its epoch (2: the OfflineReplica write, then the election) starting at offset 5 and a high
    // watermark of 0.
    e.killBroker(1);
    for (let i = 0; i < 20_000 && replica(2)?.role !== 'leader'; i++) e.tick(1);
    expect(replica(2)).toMatchObject({ role: 'leader', leaderEpoch: 2, highWatermark: 0 });
    expect(listOffsets(e, 2, -1)).toEqual({
      partitionIndex: 0,
      errorCode: 'OFFSET_NOT_AVAILABLE',
      timestamp: -1,
      offset: -1,
      leaderEpoch: -1,
    });
    // Before v5 the same state is LEADER_NOT_AVAILABLE.
    expect(listOffsets(e, 2, -1, { version: 4 })).toMatchObject({ errorCode: 'LEADER_NOT_AVAILABLE' });
    // A search past the high watermark fails the same way; a replica's request skips the check.
    expect(listOffsets(e, 2, 1000)).toMatchObject({ errorCode: 'OFFSET_NOT_AVAILABLE' });
    expect(listOffsets(e, 2, -1, { replicaId: 3 })).toMatchObject({ errorCode: 'NONE', offset: 5, leaderEpoch: 2 });
    expect(listOffsets(e, 2, -2)).toMatchObject({ errorCode: 'NONE', offset: 0 });
    // Once broker 3 has fetched from the new leader, the high watermark reaches 5 and the error goes.
    for (let i = 0; i < 1000 && (replica(2)?.highWatermark ?? 0) < 5; i++) e.tick(1);
    expect(listOffsets(e, 2, -1)).toMatchObject({ errorCode: 'NONE', offset: 5, leaderEpoch: 2 });
    expect(listOffsets(e, 2, 9000)).toMatchObject({ errorCode: 'NONE', offset: -1, timestamp: -1, leaderEpoch: -1 });
  });

  // UnifiedLogTest.testFetchOffsetByTimestampIncludesLeaderEpoch: EARLIEST_TIMESTAMP (and
  // EARLIEST_LOCAL_TIMESTAMP) carry the earliest epoch-cache entry's epoch, LATEST the current one.
  it('testFetchOffsetByTimestampIncludesLeaderEpoch: "earliest" carries the epoch of the log start', () => {
    const { e, client } = cluster(2, [[1, 2]]);
    client.produce(1, 't', 0, makeBatch(['a', 'b'], { timestamp: 1000 }), -1);
    // A reorder-only reassignment bumps the leader epoch without moving the leader.
    e.reassignPartitions([{ topic: 't', partition: 0, replicas: [2, 1] }]);
    e.tick(100);
    client.produce(1, 't', 0, makeBatch(['c'], { timestamp: 2000 }), -1);
    e.tick(100);
    expect(listOffsets(e, 1, -2)).toEqual({
      partitionIndex: 0,
      errorCode: 'NONE',
      timestamp: -1,
      offset: 0,
      leaderEpoch: 0,
    });
    expect(listOffsets(e, 1, -4)).toEqual({
      partitionIndex: 0,
      errorCode: 'NONE',
      timestamp: -1,
      offset: 0,
      leaderEpoch: 0,
    });
    expect(listOffsets(e, 1, -1)).toMatchObject({ errorCode: 'NONE', offset: 3, leaderEpoch: 1 });
    expect(listOffsets(e, 1, 1500)).toMatchObject({ errorCode: 'NONE', offset: 2, timestamp: 2000, leaderEpoch: 1 });
  });

  // KafkaApis.handleListOffsetRequestV1AndAbove: timestampMinSupportedVersion (MAX_TIMESTAMP from
  // v7, EARLIEST_LOCAL_TIMESTAMP from v8, LATEST_TIERED_TIMESTAMP from v9; any other negative
  // timestamp never) answers UNSUPPORTED_VERSION; LATEST_TIERED_TIMESTAMP without tiered storage is
  // offset -1 (UnifiedLog.fetchOffsetByTimestamp).
  it('special timestamps: UNSUPPORTED_VERSION below their version, LATEST_TIERED_TIMESTAMP is -1 without tiered storage', () => {
    const { e, client } = cluster(1, [[1]]);
    client.produce(1, 't', 0, makeBatch(['a', 'b'], { timestamp: 1000 }), -1);
    expect(listOffsets(e, 1, -3, { version: 6 })).toMatchObject({ errorCode: 'UNSUPPORTED_VERSION', offset: -1 });
    expect(listOffsets(e, 1, -3, { version: 7 })).toMatchObject({ errorCode: 'NONE', offset: 0, timestamp: 1000 });
    expect(listOffsets(e, 1, -4, { version: 7 })).toMatchObject({ errorCode: 'UNSUPPORTED_VERSION' });
    expect(listOffsets(e, 1, -5, { version: 8 })).toMatchObject({ errorCode: 'UNSUPPORTED_VERSION' });
    expect(listOffsets(e, 1, -5, { version: 9 })).toEqual({
      partitionIndex: 0,
      errorCode: 'NONE',
      timestamp: -1,
      offset: -1,
      leaderEpoch: -1,
    });
    expect(listOffsets(e, 1, -6)).toMatchObject({ errorCode: 'UNSUPPORTED_VERSION' });
  });

  // Partition.getLocalLog -> checkCurrentLeaderEpoch: ListOffsets refuses an older epoch
  // (FENCED_LEADER_EPOCH) and a newer one (UNKNOWN_LEADER_EPOCH), as Fetch does.
  it('refuses a newer currentLeaderEpoch with UNKNOWN_LEADER_EPOCH (Partition.checkCurrentLeaderEpoch)', () => {
    const { e } = cluster(1, [[1]]);
    expect(listOffsets(e, 1, -1, { currentLeaderEpoch: 0 })).toMatchObject({ errorCode: 'NONE' });
    expect(listOffsets(e, 1, -1, { currentLeaderEpoch: 1 })).toMatchObject({ errorCode: 'UNKNOWN_LEADER_EPOCH' });
  });
});
