import { describe, expect, it } from 'vitest';
import { OFFSETS_TOPIC } from './GroupCoordinator';
import { groupCoordinatorPartition } from './groupCoordinatorPartition';
import { GroupTestBed } from '../../consumerApps/GroupTestBed';
import type { KafkaConsumer } from '../../clients/consumer/KafkaConsumer';
import {
  decodeGroupMetadataValue,
  decodeOffsetCommitValue,
  decodeOffsetsKey,
} from '../../clients/consumer/offsetsSchema';

const FAST = { 'group.initial.rebalance.delay.ms': 0 };

function startGroup(bed: GroupTestBed, ids: string[], config: Record<string, unknown> = {}): KafkaConsumer[] {
  return ids.map((id) => {
    const c = bed.polling(
      id,
      {
        'group.id': 'billing',
        'enable.auto.commit': false,
        'auto.offset.reset': 'earliest',
        ...config,
      },
      ['payments'],
      100,
    );
    return c;
  });
}

describe('offsets in __consumer_offsets', () => {
  it('creates __consumer_offsets on first FindCoordinator: 50 partitions, leader of the group partition is coordinator', () => {
    const bed = new GroupTestBed({ coordinatorConfig: FAST });
    bed.port.createTopic('payments', 2, 3);
    expect(bed.port.partitionCount(OFFSETS_TOPIC)).toBeUndefined();
    const [c] = startGroup(bed, ['c1']) as [KafkaConsumer];
    expect(bed.runUntil(() => c.assignment().length === 2)).toBe(true);
    expect(bed.port.partitionCount(OFFSETS_TOPIC)).toBe(50);
    const partition = groupCoordinatorPartition('billing');
    expect(c.coordinator?.coordinator).toBe(bed.port.leaderOf(OFFSETS_TOPIC, partition));
    const found = bed.ofType('groupResponseSent').find((e) => e.api === 'FindCoordinator');
    expect(found?.body).toMatchObject({ api: 'FindCoordinator', errorCode: 'NONE', partition });
  });

  it('commits are OffsetCommit records (key v1, value v3) in the group partition; OffsetFetch reads them back', () => {
    const bed = new GroupTestBed({ coordinatorConfig: FAST });
    bed.port.createTopic('payments', 2, 3);
    bed.port.produce('payments', 0, ['a', 'b', 'c', 'd', 'e']);
    bed.port.produce('payments', 1, ['f', 'g']);
    const [c] = startGroup(bed, ['c1']) as [KafkaConsumer];
    let got = 0;
    expect(bed.runUntil(() => (got += c.poll().length) === 7 || got >= 7)).toBe(true);
    const result = c.commitSync();
    expect(bed.runUntil(() => result.done)).toBe(true);
    expect(result.error).toBe('NONE');
    const partition = groupCoordinatorPartition('billing');
    const log = bed.port.readLocalLog(1, OFFSETS_TOPIC, partition);
    const commits = log
      .map((r) => ({ key: decodeOffsetsKey(r.key as Uint8Array), value: r.value }))
      .filter((r) => r.key.type === 'OffsetCommitKey');
    expect(commits.map((r) => r.key)).toEqual([
      { type: 'OffsetCommitKey', version: 1, group: 'billing', topic: 'payments', partition: 0 },
      { type: 'OffsetCommitKey', version: 1, group: 'billing', topic: 'payments', partition: 1 },
    ]);
    expect(commits.map((r) => decodeOffsetCommitValue(r.value as Uint8Array))).toMatchObject([
      { version: 3, offset: 5, leaderEpoch: -1, metadata: '' },
      { version: 3, offset: 2, leaderEpoch: -1, metadata: '' },
    ]);
    // commitTimestamp is the coordinator's clock when the OffsetCommit arrived.
    const sent = bed.ofType('groupRequestSent').find((e) => e.api === 'OffsetCommit');
    expect(decodeOffsetCommitValue(commits[0]?.value as Uint8Array).commitTimestamp).toBe(sent?.arriveAtMs);
    // The group's membership is a GroupMetadata record (key v2, value v3) written at sync.
    const meta = log.filter((r) => decodeOffsetsKey(r.key as Uint8Array).type === 'GroupMetadataKey');
    const value = decodeGroupMetadataValue(meta.at(-1)?.value as Uint8Array);
    expect(value).toMatchObject({ version: 3, protocolType: 'consumer', generation: 1, protocol: 'range' });
    expect(value.members.map((m) => m.clientId)).toEqual(['c1']);
    // kafka-consumer-groups --describe: lag = log end - committed.
    bed.port.produce('payments', 0, ['h', 'i', 'j']);
    expect(bed.groups.describeGroup('billing')).toEqual([
      expect.objectContaining({
        topic: 'payments',
        partition: 0,
        currentOffset: 5,
        logEndOffset: 8,
        lag: 3,
        clientId: 'c1',
      }),
      expect.objectContaining({
        topic: 'payments',
        partition: 1,
        currentOffset: 2,
        logEndOffset: 2,
        lag: 0,
        clientId: 'c1',
      }),
    ]);
  });

  it('when the partition leader moves, the new coordinator replays the log: offsets and members survive', () => {
    const bed = new GroupTestBed({ coordinatorConfig: FAST });
    bed.port.createTopic('payments', 2, 3);
    bed.port.produce('payments', 0, ['a', 'b', 'c']);
    const cs = startGroup(bed, ['c1', 'c2']);
    expect(bed.runUntil(() => cs.every((c) => c.assignment().length === 1))).toBe(true);
    bed.run(500);
    const owner = cs.find((c) => c.assignment()[0]?.partition === 0) as KafkaConsumer;
    for (let i = 0; i < 5; i++) owner.poll();
    const r = owner.commitSync();
    expect(bed.runUntil(() => r.done)).toBe(true);
    const before = bed.groups.groupSnapshot('billing');
    const partition = groupCoordinatorPartition('billing');
    const oldLeader = bed.port.leaderOf(OFFSETS_TOPIC, partition) as number;
    const newLeader = oldLeader === 3 ? 1 : oldLeader + 1;
    bed.port.setLeader(OFFSETS_TOPIC, partition, newLeader);
    bed.run(2_000);
    const loaded = bed
      .ofType('coordinatorLoaded')
      .filter((e) => e.broker === newLeader && e.offsetsPartition === partition);
    expect(loaded.length).toBe(1);
    expect(loaded[0]?.groups).toEqual(['billing']);
    expect(
      bed.ofType('coordinatorUnloaded').some((e) => e.broker === oldLeader && e.offsetsPartition === partition),
    ).toBe(true);
    const after = bed.groups.groupSnapshot('billing');
    expect(after?.coordinator).toBe(newLeader);
    expect(after?.generationId).toBe(before?.generationId);
    expect(after?.members.map((m) => m.memberId).sort()).toEqual(before?.members.map((m) => m.memberId).sort());
    expect(after?.offsets).toEqual([{ topic: 'payments', partition: 0, offset: 3 }]);
    // Members found the new coordinator (NOT_COORDINATOR -> FindCoordinator) and heartbeat it.
    bed.run(10_000);
    expect(cs.every((c) => c.coordinator?.coordinator === newLeader)).toBe(true);
    expect(bed.groups.groupSnapshot('billing')?.generationId).toBe(before?.generationId);
  });

  it('loading after compaction gives the same state as the live coordinator had (one replay path)', () => {
    const bed = new GroupTestBed({ coordinatorConfig: FAST });
    bed.port.createTopic('payments', 1, 3);
    bed.port.produce(
      'payments',
      0,
      Array.from({ length: 20 }, (_, i) => `r${i}`),
    );
    const [c] = startGroup(bed, ['c1'], { 'max.poll.records': 3 }) as [KafkaConsumer];
    expect(bed.runUntil(() => c.assignment().length === 1)).toBe(true);
    for (let i = 0; i < 6; i++) {
      bed.run(200);
      c.poll();
      const r = c.commitSync();
      bed.runUntil(() => r.done);
    }
    const partition = groupCoordinatorPartition('billing');
    const leader = bed.port.leaderOf(OFFSETS_TOPIC, partition) as number;
    const live = bed.groups.coordinators.get(leader)?.shards.get(partition);
    const liveOffsets = JSON.stringify([...(live?.offsetManager.offsets.get('billing') ?? [])]);
    const liveGroup = bed.groups.groupSnapshot('billing');
    const before = bed.port.readLocalLog(leader, OFFSETS_TOPIC, partition).length;
    bed.port.compact(OFFSETS_TOPIC, partition);
    const after = bed.port.readLocalLog(leader, OFFSETS_TOPIC, partition);
    // Compaction keeps the last record per key: one offset commit and one group metadata record.
    expect(before).toBeGreaterThan(after.length);
    expect(after.length).toBe(2);
    bed.port.setLeader(OFFSETS_TOPIC, partition, leader === 3 ? 1 : leader + 1);
    const moved = bed.groups.coordinators.get(leader === 3 ? 1 : leader + 1)?.shards.get(partition);
    // Replaying two batches takes two ms of engine time (simulated.offsets.load.ms.per.batch = 1).
    expect(moved?.loaded).toBe(false);
    bed.run(2);
    expect(moved?.loaded).toBe(true);
    expect(JSON.stringify([...(moved?.offsetManager.offsets.get('billing') ?? [])])).toBe(liveOffsets);
    const reloaded = bed.groups.groupSnapshot('billing');
    expect({
      ...reloaded,
      coordinator: 0,
      members: reloaded?.members.map((m) => ({ ...m, lastHeartbeatMs: 0 })),
    }).toEqual({
      ...liveGroup,
      coordinator: 0,
      members: liveGroup?.members.map((m) => ({ ...m, lastHeartbeatMs: 0 })),
    });
  });

  it('commits from a stale generation are refused with ILLEGAL_GENERATION', () => {
    const bed = new GroupTestBed({ coordinatorConfig: FAST });
    bed.port.createTopic('payments', 1, 3);
    const [c] = startGroup(bed, ['c1']) as [KafkaConsumer];
    expect(bed.runUntil(() => c.assignment().length === 1)).toBe(true);
    const coordinator = c.coordinator?.coordinator as number;
    const answers: string[] = [];
    const commit = (generation: number) =>
      bed.groups.network.send(
        'probe',
        coordinator,
        {
          api: 'OffsetCommit',
          groupId: 'billing',
          generationIdOrMemberEpoch: generation,
          memberId: c.coordinator?.memberId as string,
          groupInstanceId: null,
          topics: [
            {
              name: 'payments',
              partitions: [{ partitionIndex: 0, committedOffset: 1, committedLeaderEpoch: -1, committedMetadata: '' }],
            },
          ],
        },
        (r) => answers.push(r?.api === 'OffsetCommit' ? (r.topics[0]?.partitions[0]?.errorCode ?? '') : 'null'),
      );
    commit(0);
    commit(1);
    bed.run(20);
    expect(answers).toEqual(['ILLEGAL_GENERATION', 'NONE']);
  });
});
