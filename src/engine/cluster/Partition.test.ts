import { describe, expect, it } from 'vitest';
import { MemoryReplicaLog } from './ReplicaLog';
import { Partition } from './Partition';
import { createTopicConfig } from './TopicConfig';
import { makeBatch } from './testing';

const LAG = 30_000;

function leaderWithLog(end: number): Partition {
  const log = new MemoryReplicaLog();
  if (end > 0) log.appendAsLeader(makeBatch(Array.from({ length: end }, (_, i) => `r${i}`)), 0, 1 << 20);
  const p = new Partition('t', 0, 1, log, createTopicConfig(), '/d');
  p.makeLeader(
    {
      topicName: 't',
      partitionIndex: 0,
      controllerEpoch: 1,
      leader: 1,
      leaderEpoch: 0,
      isr: [1, 2],
      partitionEpoch: 0,
      replicas: [1, 2],
      addingReplicas: [],
      removingReplicas: [],
      isNew: false,
    },
    0,
  );
  return p;
}

// apache/kafka core/src/test/scala/unit/kafka/cluster/ReplicaTest.scala
describe('follower fetch state and isCaughtUp (Kafka ReplicaTest)', () => {
  it('testIsCaughtUpWhenReplicaIsCaughtUpToLogEnd: at the log end it stays caught up, however long', () => {
    const p = leaderWithLog(10);
    const s = p.updateFollowerFetchState(2, 10, 1000);
    expect(Partition.isCaughtUp(s, 10, 1000, LAG)).toBe(true);
    expect(Partition.isCaughtUp(s, 10, 1000 + LAG + 1, LAG)).toBe(true);
  });

  it('testIsCaughtUpWhenReplicaIsNotCaughtUpToLogEnd: reaching the previous fetch-time log end counts from that fetch', () => {
    const p = leaderWithLog(10);
    p.followers.set(2, {
      logEndOffset: -1,
      lastCaughtUpTimeMs: 0,
      lastFetchTimeMs: 0,
      lastFetchLeaderLogEndOffset: -1,
    });
    const t0 = 100_000;
    let s = p.updateFollowerFetchState(2, 5, t0);
    expect(Partition.isCaughtUp(s, 10, t0, LAG)).toBe(false);
    p.log.appendAsLeader(makeBatch(['a', 'b', 'c', 'd', 'e']), 0, 1 << 20); // leader end 15
    s = p.updateFollowerFetchState(2, 10, t0); // reached the leader end of its previous fetch
    expect(s.lastCaughtUpTimeMs).toBe(t0);
    expect(Partition.isCaughtUp(s, 16, t0, LAG)).toBe(true);
    expect(Partition.isCaughtUp(s, 16, t0 + LAG + 1, LAG)).toBe(false);
  });

  it('a new leader counts ISR followers as caught up now and the others as never (testResetReplicaState...)', () => {
    const p = leaderWithLog(3);
    expect(p.followers.get(2)).toMatchObject({ logEndOffset: -1, lastCaughtUpTimeMs: 0 });
    expect(p.outOfSyncReplicas(LAG + 1, LAG)).toEqual([{ replica: 2, lagMs: LAG + 1 }]);
    p.updateFollowerFetchState(2, 3, 10);
    expect(p.outOfSyncReplicas(10 + 5 * LAG, LAG)).toEqual([]);
  });

  it('HW = smallest LEO in the ISR, never beyond what every ISR member has fetched', () => {
    const p = leaderWithLog(5);
    expect(p.maybeIncrementLeaderHighWatermark()).toBeNull(); // follower LEO unknown
    p.updateFollowerFetchState(2, 3, 1);
    expect(p.maybeIncrementLeaderHighWatermark()).toBe(0);
    expect(p.highWatermark).toBe(3);
    p.updateFollowerFetchState(2, 5, 2);
    p.maybeIncrementLeaderHighWatermark();
    expect(p.highWatermark).toBe(5);
  });
});

// Kafka 3.9 PartitionTest.testHighWatermarkIncreasesWithFencedOrShutdownFollower, on
// Partition.maybeIncrementLeaderHW's shouldWaitForReplicaToJoinIsr: a caught-up follower the
// controller took out of the ISR still holds the HW back while its broker is alive (in ZooKeeper
// mode isReplicaIsrEligible is ZkMetadataCache.hasAliveBroker); without it, the HW moves on.
describe('maybeIncrementLeaderHW waits for a caught-up replica about to join the ISR', () => {
  for (const alive of [true, false]) {
    it(`testHighWatermarkIncreasesWithFencedOrShutdownFollower (follower ${alive ? 'alive: HW stays 10' : 'not alive: HW 20'})`, () => {
      const p = leaderWithLog(10);
      const t0 = 100_000;
      p.updateFollowerFetchState(2, 10, t0);
      expect(p.maybeIncrementLeaderHighWatermark(t0, LAG, () => alive)).toBe(0);
      expect(p.highWatermark).toBe(10);
      // The controller shrinks the ISR to the leader alone; the leader appends 10 more records.
      p.isr = [1];
      p.log.appendAsLeader(makeBatch(Array.from({ length: 10 }, (_, i) => `s${i}`)), 0, 1 << 20);
      p.maybeIncrementLeaderHighWatermark(t0 + 1, LAG, () => alive);
      expect(p.highWatermark).toBe(alive ? 10 : 20);
    });
  }
});

// Kafka 3.9 PartitionTest.testHighWatermarkAdvanceShouldNotAdvanceWhenUnderMinISR, on
// Partition.maybeIncrementLeaderHW / isUnderMinIsr: the committed ISR decides, not the maximal one.
describe('the high watermark under min ISR (Kafka 3.9 Partition.maybeIncrementLeaderHW)', () => {
  it('does not advance while the committed ISR is below min ISR, even when the maximal ISR meets it', () => {
    const log = new MemoryReplicaLog();
    log.appendAsLeader(makeBatch(Array.from({ length: 10 }, (_, i) => `r${i}`)), 4, 1 << 20);
    const p = new Partition('t', 0, 1, log, createTopicConfig({ 'min.insync.replicas': 3 }), '/d');
    p.makeLeader(
      {
        topicName: 't',
        partitionIndex: 0,
        controllerEpoch: 0,
        leader: 1,
        leaderEpoch: 5,
        isr: [1, 2],
        partitionEpoch: 1,
        replicas: [1, 2, 3],
        addingReplicas: [],
        removingReplicas: [],
        isNew: true,
      },
      0,
    );
    expect(p.isUnderMinIsr()).toBe(true);
    p.updateFollowerFetchState(2, 10, 1);
    expect(p.maybeIncrementLeaderHighWatermark()).toBeNull();
    p.updateFollowerFetchState(3, 10, 1);
    // Replica 3 is being added (an AlterPartition in flight): the maximal ISR has 3 members.
    p.pendingIsr = { newIsr: [1, 2, 3], change: 'expand', sentAtMs: 1 };
    expect(p.maximalIsr()).toHaveLength(3);
    expect(p.maybeIncrementLeaderHighWatermark()).toBeNull();
    expect(p.highWatermark).toBe(0);
    // The controller commits ISR [1,2,3]: no longer under min ISR, the HW reaches the log end.
    p.isr = [1, 2, 3];
    p.pendingIsr = null;
    expect(p.isUnderMinIsr()).toBe(false);
    expect(p.maybeIncrementLeaderHighWatermark()).toBe(0);
    expect(p.highWatermark).toBe(10);
  });
});
