import { describe, expect, it } from 'vitest';
import { ManualClock } from '../Clock';
import { isKafkaError } from '../errors';
import { PartitionLog } from '../log/PartitionLog';
import { PartitionLogReplica } from './PartitionLogReplica';
import { endOffsetForEpoch, MemoryReplicaLog, type ReplicaLog } from './ReplicaLog';
import { createTopicConfig, validateTopicName } from './TopicConfig';
import { makeBatch } from './testing';

// apache/kafka storage/src/test/java/org/apache/kafka/storage/internals/epoch/LeaderEpochFileCacheTest.java
// (shouldReturnLogEndOffsetIfLatestEpochRequested, shouldReturnNextAvailableEpochIfThereIsNoExactEpochForTheOneRequested,
// shouldReturnUnsupportedIfRequestedEpochLessThanFirstEpoch): the semantics MemoryReplicaLog follows.
describe('endOffsetForEpoch', () => {
  const epochs = [
    { epoch: 2, startOffset: 6 },
    { epoch: 4, startOffset: 11 },
    { epoch: 6, startOffset: 15 },
  ];
  it('the latest epoch ends at the log end offset', () => {
    expect(endOffsetForEpoch(epochs, 6, 20)).toEqual({ epoch: 6, endOffset: 20 });
  });
  it('an epoch between entries reports the floor epoch, ending where the next begins', () => {
    expect(endOffsetForEpoch(epochs, 5, 20)).toEqual({ epoch: 4, endOffset: 15 });
    expect(endOffsetForEpoch(epochs, 2, 20)).toEqual({ epoch: 2, endOffset: 11 });
  });
  it('an epoch below every entry is undefined (-1, -1)', () => {
    expect(endOffsetForEpoch(epochs, 1, 20)).toEqual({ epoch: -1, endOffset: -1 });
    expect(endOffsetForEpoch([], 1, 0)).toEqual({ epoch: -1, endOffset: -1 });
  });
});

const factories: [string, () => ReplicaLog][] = [
  ['MemoryReplicaLog', () => new MemoryReplicaLog()],
  ['PartitionLogReplica', () => new PartitionLogReplica(new PartitionLog({ dir: 't-0', clock: new ManualClock(0) }))],
];

describe.each(factories)('%s (the contract replication relies on)', (_name, make) => {
  it('leader appends assign offsets and stamp the epoch; reads stop below maxOffset; truncation cuts whole batches', () => {
    const log = make();
    expect(log.appendAsLeader(makeBatch(['a', 'b']), 0, 1 << 20)).toMatchObject({ firstOffset: 0, lastOffset: 1 });
    log.assignEpochStartOffset(3, 2);
    expect(log.appendAsLeader(makeBatch(['c']), 3, 1 << 20)).toMatchObject({ firstOffset: 2, lastOffset: 2 });
    expect(log.logEndOffset()).toBe(3);
    expect(log.epochEntries()).toEqual([
      { epoch: 0, startOffset: 0 },
      { epoch: 3, startOffset: 2 },
    ]);
    expect(log.endOffsetForEpoch(0)).toEqual({ epoch: 0, endOffset: 2 });
    expect(log.read(0, 1 << 20, 2).length).toBeGreaterThan(0);
    expect(log.read(2, 1 << 20, 2).length).toBe(0);
    const follower = make();
    follower.appendAsFollower(log.read(0, 1 << 20, 3));
    expect(follower.logEndOffset()).toBe(3);
    expect(follower.epochEntries()).toEqual(log.epochEntries());
    log.truncateTo(2);
    expect(log.logEndOffset()).toBe(2);
    expect(log.epochEntries()).toEqual([{ epoch: 0, startOffset: 0 }]);
    log.truncateTo(1); // inside the first batch: the whole batch goes
    expect(log.logEndOffset()).toBe(0);
  });

  it('a power failure keeps exactly what was flushed', () => {
    const log = make();
    log.appendAsLeader(makeBatch(['a']), 0, 1 << 20);
    log.flush();
    log.appendAsLeader(makeBatch(['b', 'c']), 0, 1 << 20);
    expect(log.segments()[0]?.unflushedBytes).toBeGreaterThan(0);
    log.loseUnflushed();
    expect(log.logEndOffset()).toBe(1);
  });

  it('refuses a corrupt batch and changes nothing', () => {
    const log = make();
    const bad = makeBatch(['x']);
    bad[bad.length - 1] = (bad[bad.length - 1] as number) ^ 0xff;
    try {
      log.appendAsLeader(bad, 0, 1 << 20);
      expect.unreachable();
    } catch (e) {
      expect(isKafkaError(e, 'CORRUPT_MESSAGE')).toBe(true);
    }
    expect(log.logEndOffset()).toBe(0);
  });
});

// apache/kafka clients/src/test/java/org/apache/kafka/common/internals/TopicTest.java (testInvalidTopicNames, testTopicHasCollisionChars)
describe('topic names and configs', () => {
  it("validates names as Kafka's Topic.validate does", () => {
    for (const ok of ['valid', 'TOPIC', 'nAmEs', 'ar6', 'VaL1d', '_0-9_.', '...', 'a'.repeat(249)])
      expect(() => validateTopicName(ok)).not.toThrow();
    for (const bad of ['', 'foo bar', '..', '.', 'a'.repeat(250), 'föö', 'a/b', 'x:y', 'tab\t'])
      expect(() => validateTopicName(bad)).toThrow(/INVALID_TOPIC_EXCEPTION/);
  });

  it('validates replication configs and passes log configs to LogConfig', () => {
    const c = createTopicConfig({
      'min.insync.replicas': '2',
      'unclean.leader.election.enable': 'true',
      'segment.bytes': 1024,
    });
    expect(c['min.insync.replicas']).toBe(2);
    expect(c['unclean.leader.election.enable']).toBe(true);
    expect(c['segment.bytes']).toBe(1024);
    expect(() => createTopicConfig({ 'unclean.leader.election.enable': 'maybe' })).toThrow(/INVALID_CONFIG/);
    expect(() => createTopicConfig({ 'min.insync.replicas': 0 })).toThrow(/INVALID_CONFIG/);
    expect(() => createTopicConfig({ 'retention.ms': 'x' })).toThrow(/INVALID_CONFIG/);
    expect(() => createTopicConfig({ 'cleanup.policy': 'shred' })).toThrow(/INVALID_CONFIG/);
  });
});
