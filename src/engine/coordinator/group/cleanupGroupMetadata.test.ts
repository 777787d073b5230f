import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../Clock';
import { Scheduler } from '../../cluster/Scheduler';
import { GROUP_COORDINATOR_DEFAULTS } from '../../clients/consumer/ConsumerConfig';
import {
  decodeOffsetsKey,
  encodeGroupMetadataKey,
  encodeGroupMetadataValue,
  encodeOffsetCommitKey,
  encodeOffsetCommitValue,
} from '../../clients/consumer/offsetsSchema';
import type { OffsetsRecord } from './CoordinatorContext';
import { GroupCoordinatorShard, ShardTimer } from './GroupCoordinator';

/**
 * Kafka 3.9 GroupMetadata.removeExpiredOffsets: an offset read from an old-format (v1) record
 * carries its own expire timestamp (GroupMetadataManager.readOffsetMessageValue: -1 is none), and
 * such an offset expires once that time is reached, whatever the commit time and
 * offsets.retention.minutes say; the others expire offsets.retention.minutes after their base.
 */
function shardAt(nowMs: number, answerAppends = true) {
  const clock = new ManualClock(nowMs);
  const scheduler = new Scheduler(clock);
  const written: OffsetsRecord[] = [];
  const shard = new GroupCoordinatorShard({
    brokerId: 1,
    offsetsPartition: 0,
    config: GROUP_COORDINATOR_DEFAULTS,
    now: () => clock.now(),
    timer: new ShardTimer(scheduler),
    append: (records, done) => {
      written.push(...records);
      if (answerAppends) done(null);
    },
    emit: () => {},
    newMemberId: (p) => `${p}-1`,
  });
  return { clock, shard, written };
}

const commit = (topic: string, version: 1 | 3, commitTimestamp: number, expireTimestamp: number): OffsetsRecord => ({
  key: encodeOffsetCommitKey('g', topic, 0),
  value: encodeOffsetCommitValue({
    version,
    offset: 5,
    leaderEpoch: -1,
    metadata: '',
    commitTimestamp,
    expireTimestamp,
  }),
});

describe('offset expiry by a v1 record’s expire timestamp (GroupMetadata.removeExpiredOffsets)', () => {
  it('expires a v1 offset at its expireTimestamp, before the retention; a v3 one waits for the retention', () => {
    const { clock, shard, written } = shardAt(0);
    shard.replay(commit('old', 1, 0, 60_000));
    shard.replay(commit('new', 3, 0, -1));
    clock.advance(60_000);
    shard.cleanupGroupMetadata();
    expect(written.map((r) => [new TextDecoder().decode(r.key).includes('old'), r.value])).toEqual([[true, null]]);
    expect(shard.offsetManager.committed('g', 'old', 0)).toBeUndefined();
    expect(shard.offsetManager.committed('g', 'new', 0)?.offset).toBe(5);
  });

  it('a v1 offset with a later expireTimestamp outlives the retention', () => {
    const retentionMs = GROUP_COORDINATOR_DEFAULTS['offsets.retention.minutes'] * 60_000;
    const { clock, shard, written } = shardAt(0);
    shard.replay(commit('old', 1, 0, retentionMs * 2));
    clock.advance(retentionMs);
    shard.cleanupGroupMetadata();
    expect(written).toEqual([]);
    clock.advance(retentionMs);
    shard.cleanupGroupMetadata();
    expect(written).toHaveLength(1);
  });
});

/** An Empty group as its GroupMetadata record holds it, at `generation`, without members. */
const emptyGroup = (generation: number): OffsetsRecord => ({
  key: encodeGroupMetadataKey('g'),
  value: encodeGroupMetadataValue({
    version: 3,
    protocolType: 'consumer',
    generation,
    protocol: null,
    leader: null,
    currentStateTimestamp: 0,
    members: [],
  }),
});

const kinds = (records: OffsetsRecord[]) =>
  records.map((r) => {
    const k = decodeOffsetsKey(r.key);
    return `${k.type === 'OffsetCommitKey' ? `${k.topic}-${k.partition}` : k.type}:${r.value === null ? 'tombstone' : 'value'}`;
  });

// Kafka 3.9 GroupMetadataManager.cleanupGroupMetadata: the expired offsets are removed and an Empty
// group left without offsets turns Dead and leaves the cache at once; the tombstones are then
// appended to the leader without acks (a lost one is written by the next cleanup), and a group at
// generation 0 gets no GroupMetadata tombstone (it only used Kafka for offset storage).
describe('GroupMetadataManager.cleanupGroupMetadata: tombstones', () => {
  const retentionMs = GROUP_COORDINATOR_DEFAULTS['offsets.retention.minutes'] * 60_000;

  /** Group g at `generation`, empty, with one commit for foo-0 past retention, cleaned up. */
  function expiredGroupCleanedUp(generation: number) {
    const { clock, shard, written } = shardAt(0);
    shard.replay(emptyGroup(generation));
    shard.replay(commit('foo', 3, 0, -1));
    clock.advance(retentionMs);
    shard.cleanupGroupMetadata();
    return { shard, written };
  }

  it('a generation-0 group gets its offsets’ tombstones but no GroupMetadata tombstone (cleanupGroupMetadata: generation > 0)', () => {
    const { shard, written } = expiredGroupCleanedUp(0);
    expect(kinds(written)).toEqual(['foo-0:tombstone']);
    expect(shard.groupManager.groups.has('g')).toBe(false);
  });

  it('a group past generation 0 gets its GroupMetadata tombstone too', () => {
    const { written } = expiredGroupCleanedUp(3);
    expect(kinds(written)).toEqual(['foo-0:tombstone', 'GroupMetadataKey:tombstone']);
  });

  it('the cache changes before the tombstones are acknowledged (appendRecordsToLeader without acks)', () => {
    const { clock, shard, written } = shardAt(0, false);
    shard.replay(emptyGroup(3));
    shard.replay(commit('foo', 3, 0, -1));
    const group = shard.groupManager.groups.get('g');
    clock.advance(retentionMs);
    shard.cleanupGroupMetadata();
    expect(written).toHaveLength(2); // never answered
    expect(shard.offsetManager.committed('g', 'foo', 0)).toBeUndefined();
    expect(group?.state).toBe('Dead');
    expect(shard.groupManager.groups.has('g')).toBe(false);
  });
});
