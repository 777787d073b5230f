import { describe, expect, it } from 'vitest';
import { OFFSETS_TOPIC } from './GroupCoordinator';
import { groupCoordinatorPartition } from './groupCoordinatorPartition';
import { GroupTestBed } from '../../consumerApps/GroupTestBed';
import { decodeOffsetsKey } from '../../clients/consumer/offsetsSchema';

/**
 * KIP-211 offset expiry of an active group, against Kafka 3.9's ZooKeeper-mode coordinator:
 * GroupMetadataManager.cleanupGroupMetadata runs every offsets.retention.check.interval.ms and
 * GroupMetadata.removeExpiredOffsets decides, per group state, which offsets have expired.
 */
/** offsets.retention.minutes 1, checked every 10 s; no initial join delay. */
const ONE_MINUTE_RETENTION = {
  'group.initial.rebalance.delay.ms': 0,
  'offsets.retention.minutes': 1,
  'offsets.retention.check.interval.ms': 10_000,
};

/** Consumer c, the only member of group g (manual commits), polling every 100 ms once g is Stable. */
function stableMember(bed: GroupTestBed, topics: string[]) {
  const c = bed.consumer('c', { 'group.id': 'g', 'enable.auto.commit': false });
  c.subscribe(topics);
  bed.pollEvery(c, 100);
  expect(bed.runUntil(() => bed.groups.groupSnapshot('g')?.state === 'Stable', 30_000)).toBe(true);
  return c;
}

describe('offset expiry of a Stable group (KIP-211), Kafka 3.9 GroupMetadata.removeExpiredOffsets', () => {
  it('keeps offsets of subscribed topics; expires those of topics no member subscribes to any more', () => {
    // Kafka 3.9 GroupMetadataManagerTest.testOffsetExpirationOfActiveGroupSemantics: a Stable
    // group subscribed to foo and bar keeps all four offsets past the retention; once it
    // subscribes to foo only, bar's offsets expire (tombstones) while the group stays Stable.
    const bed = new GroupTestBed({ coordinatorConfig: ONE_MINUTE_RETENTION });
    bed.port.createTopic('foo', 2, 3);
    bed.port.createTopic('bar', 2, 3);
    const c = stableMember(bed, ['foo', 'bar']);
    const commit = c.commitSync([
      { topic: 'foo', partition: 0, offset: 37 },
      { topic: 'foo', partition: 1, offset: 37 },
      { topic: 'bar', partition: 0, offset: 37 },
      { topic: 'bar', partition: 1, offset: 37 },
    ]);
    expect(bed.runUntil(() => commit.done)).toBe(true);
    const committedAt = bed.now();
    // Past the retention (plus a check interval): nothing expires, every topic is subscribed.
    bed.run(60_000 + 12_000);
    const offsets = () =>
      (bed.groups.groupSnapshot('g')?.offsets ?? []).map((o) => `${o.topic}-${o.partition}:${o.offset}`).sort();
    expect(offsets()).toEqual(['bar-0:37', 'bar-1:37', 'foo-0:37', 'foo-1:37']);
    expect(bed.ofType('offsetsExpired')).toEqual([]);

    // The member now subscribes to foo only: a new generation, Stable again.
    c.subscribe(['foo']);
    const generation = bed.groups.groupSnapshot('g')?.generationId ?? 0;
    expect(
      bed.runUntil(() => {
        const g = bed.groups.groupSnapshot('g');
        return g?.state === 'Stable' && g.generationId > generation;
      }, 30_000),
    ).toBe(true);
    expect(bed.runUntil(() => bed.ofType('offsetsExpired').length > 0, 15_000)).toBe(true);
    const expired = bed.ofType('offsetsExpired');
    expect(expired).toHaveLength(1);
    expect(expired[0]).toMatchObject({ groupIds: ['g'], tombstones: 2 });
    expect((expired[0]?.atMs ?? 0) - committedAt).toBeGreaterThanOrEqual(60_000);
    expect(offsets()).toEqual(['foo-0:37', 'foo-1:37']);
    expect(bed.groups.groupSnapshot('g')?.state).toBe('Stable');
    // The tombstones are in __consumer_offsets: null values keyed by bar's partitions.
    const p = groupCoordinatorPartition('g');
    const log = bed.port.readLocalLog(bed.port.leaderOf(OFFSETS_TOPIC, p) as number, OFFSETS_TOPIC, p);
    const tombstones = log
      .filter((r) => r.value === null && r.key)
      .map((r) => decodeOffsetsKey(r.key as Uint8Array))
      .map((k) => (k.type === 'OffsetCommitKey' ? `${k.topic}-${k.partition}` : k.type));
    expect(tombstones.sort()).toEqual(['bar-0', 'bar-1']);
    // Later checks expire nothing more: foo is still subscribed.
    bed.run(120_000);
    expect(offsets()).toEqual(['foo-0:37', 'foo-1:37']);
    expect(bed.ofType('offsetsExpired')).toHaveLength(1);
  });

  it('a coordinator that loads the group knows its subscription again (GroupMetadataManager.loadGroup)', () => {
    // Kafka 3.9 GroupMetadataManager.loadGroup sets subscribedTopics = computeSubscribedTopics(),
    // so a Stable group moved to another coordinator still expires unsubscribed topics' offsets.
    const bed = new GroupTestBed({ coordinatorConfig: ONE_MINUTE_RETENTION });
    bed.port.createTopic('foo', 1, 3);
    bed.port.createTopic('bar', 1, 3);
    const c = stableMember(bed, ['foo']);
    // A member may commit for a topic it does not subscribe to.
    const commit = c.commitSync([
      { topic: 'foo', partition: 0, offset: 5 },
      { topic: 'bar', partition: 0, offset: 7 },
    ]);
    expect(bed.runUntil(() => commit.done)).toBe(true);
    const p = groupCoordinatorPartition('g');
    const old = bed.port.leaderOf(OFFSETS_TOPIC, p) as number;
    bed.port.stopBroker(old);
    expect(
      bed.runUntil(() => {
        const g = bed.groups.groupSnapshot('g');
        return g !== null && g.coordinator !== old && g.state === 'Stable';
      }, 30_000),
    ).toBe(true);
    expect(bed.runUntil(() => bed.ofType('offsetsExpired').length > 0, 90_000)).toBe(true);
    const offsets = (bed.groups.groupSnapshot('g')?.offsets ?? []).map((o) => `${o.topic}-${o.partition}:${o.offset}`);
    expect(offsets).toEqual(['foo-0:5']);
    expect(bed.ofType('offsetsExpired')[0]).toMatchObject({ groupIds: ['g'], tombstones: 1 });
  });
});
