import { describe, expect, it } from 'vitest';
import { ManualClock } from '../Clock';
import { isKafkaError } from '../errors';
import { UnifiedLog } from '../log/UnifiedLog';
import { PartitionLogReplica } from './PartitionLogReplica';
import { endOffsetForEpoch, MemoryReplicaLog, type ReplicaLog } from './ReplicaLog';
import { createTopicConfig, validateTopicName } from './TopicConfig';
import { makeBatch } from './testing';

// apache/kafka core/src/test/scala/unit/kafka/server/epoch/LeaderEpochFileCacheTest.scala: the
// semantics MemoryReplicaLog shares with the real log (test names cited per case).
describe('endOffsetForEpoch', () => {
  /** Leader epoch entries as Kafka's tests write them: (epoch, start offset). */
  const entries = (...pairs: [epoch: number, startOffset: number][]) =>
    pairs.map(([epoch, startOffset]) => ({ epoch, startOffset }));
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
    // shouldReturnNextAvailableEpochIfThereIsNoExactEpochForTheOneRequested
    const kafka = entries([0, 10], [2, 13], [4, 17]);
    expect(endOffsetForEpoch(kafka, 1, 0)).toEqual({ epoch: 0, endOffset: 13 });
    expect(endOffsetForEpoch(kafka, 2, 0)).toEqual({ epoch: 2, endOffset: 17 });
    expect(endOffsetForEpoch(kafka, 3, 0)).toEqual({ epoch: 2, endOffset: 17 });
  });
  it('an epoch below every entry ends where the first entry starts (shouldReturnFirstEpochIfRequestedEpochLessThanFirstEpoch)', () => {
    const kafka = entries([5, 11], [6, 12], [7, 13]);
    expect(endOffsetForEpoch(kafka, 4, 0)).toEqual({ epoch: 4, endOffset: 11 });
    expect(endOffsetForEpoch(epochs, 1, 20)).toEqual({ epoch: 1, endOffset: 6 });
  });
  it('an epoch above every entry, or none recorded, is undefined (-1, -1)', () => {
    // shouldReturnInvalidOffsetIfEpochIsRequestedWhichIsNotCurrentlyTracked
    expect(endOffsetForEpoch([{ epoch: 2, startOffset: 100 }], 3, 100)).toEqual({ epoch: -1, endOffset: -1 });
    // shouldReturnUnsupportedIfNoEpochRecorded
    expect(endOffsetForEpoch([], 0, 0)).toEqual({ epoch: -1, endOffset: -1 });
  });
});

const factories: [string, () => ReplicaLog][] = [
  ['MemoryReplicaLog', () => new MemoryReplicaLog()],
  ['PartitionLogReplica', () => new PartitionLogReplica(new UnifiedLog({ dir: 't-0', clock: new ManualClock(0) }))],
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

  // apache/kafka core/src/main/scala/kafka/log/UnifiedLog.scala truncateTo: "Always truncate epoch
  // cache since we may have a conflicting epoch entry at the end of the log from the leader".
  it('truncating at the log end drops an epoch this replica led without writing to', () => {
    const log = make();
    log.appendAsLeader(makeBatch(['a', 'b']), 0, 1 << 20);
    log.assignEpochStartOffset(2, 2);
    expect(log.latestEpoch()).toBe(2);
    log.truncateTo(2);
    expect(log.logEndOffset()).toBe(2);
    expect(log.epochEntries()).toEqual([{ epoch: 0, startOffset: 0 }]);
    expect(log.endOffsetForEpoch(0)).toEqual({ epoch: 0, endOffset: 2 });
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
