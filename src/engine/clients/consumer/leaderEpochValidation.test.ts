import { describe, expect, it } from 'vitest';
import { isKafkaError, type KafkaError } from '../../errors';
import { CONSUMER_REPLICA_ID, type FetchResponse, type OffsetsForLeaderEpochResponse } from '../../cluster/requests';
import { fetchRequest, TestClient } from '../../cluster/testing';
import { ClusterConsumerPort } from '../../consumerApps/ClusterConsumerPort';
import { type FacadeBed, facadeBed } from '../../consumerApps/facadeTesting';
import type { ConsumerRecord, KafkaConsumer } from './KafkaConsumer';

/**
 * KIP-320 end to end on the real cluster: a consumer reads records an unclean election later
 * throws away, and the new leader writes other records at the same offsets. Without validation
 * the consumer would go on from its old position and silently skip the new records. Kafka 3.9:
 * SubscriptionState.maybeValidatePositionForCurrentLeader / maybeCompleteValidation,
 * OffsetFetcher.validatePositionsIfNeeded (OffsetsForLeaderEpoch with replicaId -1),
 * LogTruncationException when auto.offset.reset is none, and Partition.getLocalLog's
 * currentLeaderEpoch check (FENCED_LEADER_EPOCH / UNKNOWN_LEADER_EPOCH).
 */

const decode = (v: Uint8Array | null) => (v ? new TextDecoder().decode(v) : null);

/**
 * Leader 1 with a, b (epoch 0) on both replicas and c, d, e (offsets 2-4) on broker 1 only, at
 * epoch 1: in ZooKeeper mode the controller bumps the leader epoch when it takes the lost
 * follower out of the ISR (KafkaController.onReplicasBecomeOffline / removeReplicasFromIsr).
 */
function divergingPartition(): FacadeBed {
  const bed = facadeBed({ seed: 5 });
  bed.e.createTopic({
    name: 't',
    partitions: 1,
    replicationFactor: 2,
    fixedStartIndex: 0,
    configs: { 'unclean.leader.election.enable': true },
  });
  bed.e.tick(300);
  expect(bed.e.cluster.partitionState('t', 0)).toMatchObject({ leader: 1, leader_epoch: 0 });
  bed.produce('t', 0, ['a', 'b']);
  bed.e.isolateBroker(2); // the follower falls behind and leaves the ISR
  bed.e.tick(16_000);
  expect(bed.e.cluster.partitionState('t', 0)?.isr).toEqual([1]);
  expect(bed.e.cluster.partitionState('t', 0)).toMatchObject({ leader: 1, leader_epoch: 1 });
  bed.produce('t', 0, ['c', 'd', 'e']);
  return bed;
}

/**
 * Broker 1 (leader and controller) dies; the new controller first takes it out as leader (leader
 * -1 at epoch 2, the last ISR member kept: Kafka 3.9 KafkaController.doRemoveReplicasFromIsr), then
 * broker 2 (log end 2, never saw epoch 1) is elected uncleanly at epoch 3 and takes X, Y, Z at 2-4.
 * Its epoch cache: epoch 0 from 0, epoch 3 from 2; so epoch 1 ends (for it) at 2.
 */
function uncleanElection(bed: FacadeBed): void {
  bed.e.healBroker(2);
  bed.e.killBroker(1);
  bed.e.tick(12_000);
  expect(bed.e.cluster.partitionState('t', 0)).toMatchObject({ leader: 2, leader_epoch: 3 });
  expect(bed.produce('t', 0, ['X', 'Y', 'Z'])).toBe(2);
}

function pollUntil(bed: FacadeBed, c: KafkaConsumer, done: (got: ConsumerRecord[]) => boolean): ConsumerRecord[] {
  const got: ConsumerRecord[] = [];
  for (let i = 0; i < 400 && !done(got); i++) {
    got.push(...c.poll());
    bed.e.tick(50);
  }
  return got;
}

function consumeAllFive(bed: FacadeBed, c: KafkaConsumer): void {
  const got = pollUntil(bed, c, () => c.position({ topic: 't', partition: 0 }) === 5);
  expect(got.map((r) => decode(r.value))).toEqual(['a', 'b', 'c', 'd', 'e']);
  // FetchPosition.offsetEpoch: the epoch of the last record consumed.
  expect(c.subscriptions.fetchPosition({ topic: 't', partition: 0 })).toMatchObject({
    offset: 5,
    offsetEpoch: 1,
    currentLeader: { leader: 1, epoch: 1 },
  });
}

/** What the new leader holds past the divergence: offsets 2..4, written in its own epoch. */
const NEW_LEADER_TAIL = [
  [2, 'X'],
  [3, 'Y'],
  [4, 'Z'],
];

const truncations = (bed: FacadeBed) => bed.events.filter((e) => e.type === 'consumerLogTruncation');

describe('Consumer leader-epoch validation (KIP-320) after an unclean election', () => {
  it('with auto.offset.reset earliest: truncation is detected at 5 (epoch 1) and the consumer goes back to 2, the first offset known to diverge', () => {
    const bed = divergingPartition();
    const c = bed.e.groups.createConsumer('reader', { 'auto.offset.reset': 'earliest' });
    c.assign([{ topic: 't', partition: 0 }]);
    consumeAllFive(bed, c);
    uncleanElection(bed);
    const got = pollUntil(bed, c, (g) => g.length >= 3);
    expect(got.map((r) => [r.offset, decode(r.value)])).toEqual(NEW_LEADER_TAIL);
    expect(truncations(bed)).toEqual([
      expect.objectContaining({
        consumerId: 'reader',
        topic: 't',
        partition: 0,
        fetchOffset: 5,
        offsetEpoch: 1,
        divergentOffset: 2,
        divergentEpoch: 0,
        outcome: 'seek',
      }),
    ]);
    // The validation went to the new leader as a consumer's OffsetsForLeaderEpoch.
    expect(
      bed.events.some(
        (e) =>
          e.type === 'groupRequestSent' && e.api === 'OffsetsForLeaderEpoch' && e.from === 'reader' && e.toBroker === 2,
      ),
    ).toBe(true);
  });

  // Kafka 3.9 FetchCollector.fetchRecords: records of a partition that is no longer fetchable
  // (awaiting validation) are not returned.
  it('records fetched from the old leader and not yet returned are dropped while the position awaits validation', () => {
    const bed = divergingPartition();
    // Metadata older than 5 s is refreshed at the next poll: the consumer learns of the new leader
    // before it hands out what it buffered from the old one.
    const c = bed.e.groups.createConsumer('reader', { 'auto.offset.reset': 'earliest', 'metadata.max.age.ms': 5_000 });
    c.assign([{ topic: 't', partition: 0 }]);
    consumeAllFive(bed, c);
    bed.produce('t', 0, ['f']); // offset 5, on broker 1 only: the election below loses it
    bed.e.tick(200); // the parked fetch completes and its records wait in the consumer's buffer
    expect(c.fetcher.completed.map((f) => f.records.map((r) => r.offset))).toEqual([[5]]);
    uncleanElection(bed);
    const got = pollUntil(bed, c, (g) => g.length >= 3);
    expect(got.map((r) => [r.offset, decode(r.value)])).toEqual(NEW_LEADER_TAIL);
    expect(truncations(bed)).toEqual([
      expect.objectContaining({ fetchOffset: 5, divergentOffset: 2, outcome: 'seek' }),
    ]);
  });

  it('with auto.offset.reset none: poll() throws LogTruncationException and the position stays', () => {
    const bed = divergingPartition();
    const c = bed.e.groups.createConsumer('strict', { 'auto.offset.reset': 'none' });
    c.assign([{ topic: 't', partition: 0 }]);
    c.seek({ topic: 't', partition: 0 }, 0); // no committed offset, no reset policy: start explicitly
    consumeAllFive(bed, c);
    uncleanElection(bed);
    let thrown: KafkaError | null = null;
    for (let i = 0; i < 400 && thrown === null; i++) {
      try {
        expect(c.poll()).toEqual([]);
      } catch (e) {
        if (!isKafkaError(e)) throw e;
        thrown = e;
      }
      bed.e.tick(50);
    }
    expect(thrown?.code).toBe('OFFSET_OUT_OF_RANGE');
    expect(thrown?.details).toMatchObject({
      exception: 'LogTruncationException',
      topic: 't',
      partition: 0,
      offset: 5,
      divergentOffset: 2,
    });
    expect(c.position({ topic: 't', partition: 0 })).toBe(5);
    // Thrown once; the partition still awaits validation and is asked again after request.timeout.ms
    // (OffsetFetcher: setNextAllowedRetry), nothing is fetched from it meanwhile.
    bed.e.tick(1_000);
    expect(c.poll()).toEqual([]);
    expect(truncations(bed)).toEqual([
      expect.objectContaining({ fetchOffset: 5, divergentOffset: 2, outcome: 'LogTruncationException' }),
    ]);
    expect(c.subscriptions.state({ topic: 't', partition: 0 })?.awaitingValidation).toBe(true);
  });

  it('a committed offset carries its leader epoch, and a consumer resuming from it validates it', () => {
    const bed = divergingPartition();
    const first = bed.e.groups.createConsumer('first', { 'group.id': 'g', 'auto.offset.reset': 'earliest' });
    first.subscribe(['t']);
    consumeAllFive(bed, first);
    const commit = first.commitSync();
    for (let i = 0; i < 200 && !commit.done; i++) bed.e.tick(50);
    expect(commit.error).toBe('NONE');
    first.close();
    bed.e.tick(1_000);
    uncleanElection(bed);
    const next = bed.e.groups.createConsumer('next', { 'group.id': 'g', 'auto.offset.reset': 'earliest' });
    next.subscribe(['t']);
    const got = pollUntil(bed, next, (g) => g.length >= 3);
    expect(got.map((r) => [r.offset, decode(r.value)])).toEqual(NEW_LEADER_TAIL);
    expect(truncations(bed)).toEqual([
      expect.objectContaining({
        consumerId: 'next',
        fetchOffset: 5,
        offsetEpoch: 1,
        divergentOffset: 2,
        outcome: 'seek',
      }),
    ]);
  });

  // Kafka 3.9 PartitionTest.testLeaderEpochValidationOnLeader / testOffsetForLeaderEpochValidationForFollower
  /** A consumer's fetch of t-0 from offset 0 at broker 2, naming `currentLeaderEpoch`, over the network. */
  const fetchT0 = (client: TestClient, currentLeaderEpoch: number) => {
    const request = fetchRequest('t', 0, { replicaId: CONSUMER_REPLICA_ID, maxWaitMs: 0 });
    if (request.api === 'Fetch')
      for (const t of request.topics) for (const p of t.partitions) p.currentLeaderEpoch = currentLeaderEpoch;
    return client.call<FetchResponse>(2, request)?.responses[0]?.partitions[0] ?? { errorCode: 'NO_ANSWER' };
  };
  /** A consumer's OffsetsForLeaderEpoch at `broker`, over the network. */
  const epochEnd = (client: TestClient, broker: number, currentLeaderEpoch: number, leaderEpoch: number) => {
    const r = client.call<OffsetsForLeaderEpochResponse>(broker, {
      api: 'OffsetsForLeaderEpoch',
      replicaId: CONSUMER_REPLICA_ID,
      topics: [{ topic: 't', partitions: [{ partition: 0, currentLeaderEpoch, leaderEpoch }] }],
    })?.topics[0]?.partitions[0];
    return r
      ? { errorCode: r.errorCode, leaderEpoch: r.leaderEpoch, endOffset: r.endOffset }
      : { errorCode: 'NO_ANSWER' };
  };

  it('a consumer fetch or OffsetsForLeaderEpoch names its leader epoch: older is fenced, newer unknown, also at a follower', () => {
    const bed = divergingPartition();
    uncleanElection(bed);
    bed.e.restartBroker(1);
    bed.e.tick(10_000);
    const port = new ClusterConsumerPort(bed.e.cluster);
    const client = new TestClient(bed.e.cluster, 'consumer-probe');
    expect(port.leaderEpochOf('t', 0)).toBe(3);
    expect(fetchT0(client, -1).errorCode).toBe('NONE');
    expect(fetchT0(client, 3).errorCode).toBe('NONE');
    expect(fetchT0(client, 1).errorCode).toBe('FENCED_LEADER_EPOCH');
    expect(fetchT0(client, 4).errorCode).toBe('UNKNOWN_LEADER_EPOCH');
    // Broker 1 is a follower at epoch 3 now: the epoch is checked before leadership.
    expect(bed.e.cluster.brokers.get(1)?.replicaManager.partitions.get('t-0')?.leaderEpoch).toBe(3);
    expect(epochEnd(client, 1, 1, 0).errorCode).toBe('FENCED_LEADER_EPOCH');
    expect(epochEnd(client, 1, 4, 0).errorCode).toBe('UNKNOWN_LEADER_EPOCH');
    expect(epochEnd(client, 1, 3, 0).errorCode).toBe('NOT_LEADER_OR_FOLLOWER');
    // On the leader: asked for epoch 1 it never had, it answers epoch 0, which ended at offset 2.
    expect(epochEnd(client, 2, 3, 1)).toEqual({ errorCode: 'NONE', leaderEpoch: 0, endOffset: 2 });
  });
});
