import { describe, expect, it } from 'vitest';
import { isKafkaError } from '../../errors';
import { OFFSETS_TOPIC } from './GroupCoordinator';
import { groupCoordinatorPartition } from './groupCoordinatorPartition';
import { ScalaHashMapOrder } from './ScalaHashMapOrder';
import type {
  JoinGroupRequest,
  JoinGroupResponse,
  OffsetFetchResponse,
  SyncGroupResponse,
} from '../../clients/consumer/groupProtocol';
import { GroupTestBed } from '../../consumerApps/GroupTestBed';
import { GroupWire, SUBSCRIPTION_TO_T } from '../../consumerApps/GroupWire';

/**
 * The coordinator's classic protocol at the wire level: raw requests from hand-driven clients,
 * so each rule of GroupMetadataManager (core's GroupCoordinator.scala before it) is checked on its
 * own: protocol selection, INCONSISTENT_GROUP_PROTOCOL, the join and sync timeouts, deletion and
 * offset expiry, and Dead on unload.
 */
class Wire extends GroupWire {
  join(client: string, memberId: string, protocols: string[], extra: Partial<JoinGroupRequest> = {}) {
    const metadata = SUBSCRIPTION_TO_T;
    return this.send(client, {
      api: 'JoinGroup',
      groupId: this.groupId,
      sessionTimeoutMs: 10_000,
      rebalanceTimeoutMs: 20_000,
      memberId,
      groupInstanceId: null,
      protocolType: 'consumer',
      protocols: protocols.map((name) => ({ name, metadata })),
      clientId: client,
      clientHost: `/${client}`,
      ...extra,
    });
  }

  /** Join with the MEMBER_ID_REQUIRED round trip; returns the pending JoinGroup response box. */
  joinFully(client: string, protocols: string[], extra: Partial<JoinGroupRequest> = {}) {
    const first = this.join(client, '', protocols, extra);
    this.bed.run(5);
    const r = first.response as JoinGroupResponse;
    expect(r.errorCode).toBe('MEMBER_ID_REQUIRED');
    return { memberId: r.memberId, box: this.join(client, r.memberId, protocols, extra) };
  }

  /** A member's SyncGroup with no assignments (a follower's, or a leader assigning nothing). */
  syncEmpty(client: string, memberId: string, generationId: number) {
    return this.send(client, {
      api: 'SyncGroup',
      groupId: this.groupId,
      generationId,
      memberId,
      groupInstanceId: null,
      protocolType: 'consumer',
      protocolName: 'range',
      assignments: [],
    });
  }
}

const FAST = { 'group.initial.rebalance.delay.ms': 0 };

/** Topic t (one partition) and consumer c of group g on it, polling every 100 ms for 3 s. */
function pollingMemberOfG() {
  const bed = new GroupTestBed({ coordinatorConfig: FAST });
  bed.port.createTopic('t', 1, 3);
  const c = bed.polling('c', { 'group.id': 'g' }, ['t'], 100);
  bed.run(3_000);
  return { bed, c };
}

describe('GroupMetadataManager (classic protocol)', () => {
  it('selects the protocol every member supports, by vote of first preferences', () => {
    // All three join within group.initial.rebalance.delay.ms, so they form generation 1 together.
    const bed = new GroupTestBed({ coordinatorConfig: { 'group.initial.rebalance.delay.ms': 100 } });
    const wire = new Wire(bed, 'g');
    const a = wire.joinFully('a', ['range', 'roundrobin']);
    const b = wire.joinFully('b', ['roundrobin', 'range']);
    const c = wire.joinFully('c', ['roundrobin', 'sticky', 'range']);
    bed.run(300);
    const responses = [a, b, c].map((x) => x.box.response as JoinGroupResponse);
    // Candidates: range and roundrobin (all support both); votes: range 1, roundrobin 2.
    expect(responses.map((r) => r.protocolName)).toEqual(['roundrobin', 'roundrobin', 'roundrobin']);
    expect(responses.map((r) => r.generationId)).toEqual([1, 1, 1]);
    // The first joiner leads and alone receives the member list.
    expect(responses.map((r) => r.leader)).toEqual([a.memberId, a.memberId, a.memberId]);
    expect(responses.map((r) => r.members.length)).toEqual([3, 0, 0]);
  });

  it('GroupMetadata.currentMemberMetadata: the leader’s JoinGroup member list is in Scala HashMap order, not join order', () => {
    const bed = new GroupTestBed({ coordinatorConfig: { 'group.initial.rebalance.delay.ms': 100 } });
    const wire = new Wire(bed, 'g');
    const joined = ['a', 'b', 'c', 'd', 'e'].map((client) => wire.joinFully(client, ['range']));
    bed.run(300);
    const order = new ScalaHashMapOrder();
    for (const j of joined) order.put(j.memberId);
    const joinOrder = joined.map((j) => j.memberId);
    expect(order.keys()).not.toEqual(joinOrder); // the seeded ids hash out of join order
    const leader = joined[0]?.box.response as JoinGroupResponse;
    expect(leader.members.map((m) => m.memberId)).toEqual(order.keys());
  });

  it('says it waits out group.initial.rebalance.delay.ms only while a new group does', () => {
    const bed = new GroupTestBed({ coordinatorConfig: { 'group.initial.rebalance.delay.ms': 100 } });
    const wire = new Wire(bed, 'g');
    const a = wire.joinFully('a', ['range']);
    bed.run(50);
    expect(bed.groups.groupSnapshot('g')).toMatchObject({
      state: 'PreparingRebalance',
      generationId: 0,
      initialRebalanceDelayMs: 100,
    });
    bed.run(250);
    expect((a.box.response as JoinGroupResponse).generationId).toBe(1);
    expect(bed.groups.groupSnapshot('g')?.initialRebalanceDelayMs).toBeNull();
    // A later rebalance of the same group is no initial delay: nothing to say about it.
    wire.joinFully('b', ['range']);
    bed.run(5);
    expect(bed.groups.groupSnapshot('g')).toMatchObject({ state: 'PreparingRebalance', initialRebalanceDelayMs: null });
  });

  it('refuses a member with no protocol in common: INCONSISTENT_GROUP_PROTOCOL', () => {
    const bed = new GroupTestBed({ coordinatorConfig: FAST });
    const wire = new Wire(bed, 'g');
    wire.joinFully('a', ['range']);
    bed.run(20);
    const x = wire.join('x', '', ['roundrobin']);
    bed.run(5);
    expect((x.response as JoinGroupResponse).errorCode).toBe('INCONSISTENT_GROUP_PROTOCOL');
  });

  it('a member that does not rejoin within the rebalance timeout is dropped when the join phase ends', () => {
    const bed = new GroupTestBed({ coordinatorConfig: FAST });
    const wire = new Wire(bed, 'g');
    const a = wire.joinFully('a', ['range'], { rebalanceTimeoutMs: 20_000, sessionTimeoutMs: 60_000 });
    bed.run(20);
    const gen1 = a.box.response as JoinGroupResponse;
    wire.syncGroup('a', a.memberId, 1);
    bed.run(20);
    expect(bed.groups.groupSnapshot('g')?.state).toBe('Stable');
    // b joins; a keeps quiet (no heartbeat, no rejoin): the join phase waits its 20 s rebalance timeout.
    const b = wire.joinFully('b', ['range'], { rebalanceTimeoutMs: 20_000, sessionTimeoutMs: 60_000 });
    const startedAt = bed.now();
    expect(bed.runUntil(() => b.box.response !== null, 30_000, 100)).toBe(true);
    const r = b.box.response as JoinGroupResponse;
    expect(r.generationId).toBe(gen1.generationId + 1);
    expect(bed.now() - startedAt).toBeGreaterThanOrEqual(20_000);
    expect(bed.ofType('groupMemberRemoved').map((e) => [e.memberId, e.reason])).toEqual([
      [a.memberId, 'did not rejoin within the rebalance timeout'],
    ]);
    // b is now the leader of a one-member generation.
    expect(r.leader).toBe(b.memberId);
  });

  it('members that got a join response but never SyncGroup are removed after the rebalance timeout', () => {
    const bed = new GroupTestBed({ coordinatorConfig: { 'group.initial.rebalance.delay.ms': 100 } });
    const wire = new Wire(bed, 'g');
    const a = wire.joinFully('a', ['range'], { rebalanceTimeoutMs: 5_000 });
    const b = wire.joinFully('b', ['range'], { rebalanceTimeoutMs: 5_000 });
    bed.run(300);
    expect((b.box.response as JoinGroupResponse).generationId).toBe(1);
    // The leader's SyncGroup completes the generation (Stable); b never sends its own.
    const sync = wire.syncGroup('a', a.memberId, 1);
    bed.run(20);
    expect((sync.response as SyncGroupResponse).errorCode).toBe('NONE');
    expect(bed.groups.groupSnapshot('g')?.state).toBe('Stable');
    // b never syncs (nor heartbeats): after 5 s it is removed and the group rebalances.
    bed.run(6_000);
    const removed = bed.ofType('groupMemberRemoved');
    expect(removed.map((e) => [e.memberId, e.reason])).toEqual([
      [b.memberId, 'did not SyncGroup within the rebalance timeout'],
    ]);
    expect(bed.groups.groupSnapshot('g')?.state).toBe('PreparingRebalance');
  });

  it('heartbeats during the join phase answer REBALANCE_IN_PROGRESS; a stale generation ILLEGAL_GENERATION', () => {
    const bed = new GroupTestBed({ coordinatorConfig: FAST });
    const wire = new Wire(bed, 'g');
    const a = wire.joinFully('a', ['range'], { rebalanceTimeoutMs: 20_000 });
    bed.run(20);
    wire.syncGroup('a', a.memberId, 1);
    bed.run(20);
    wire.joinFully('b', ['range']);
    bed.run(20);
    const hb = wire.heartbeatGroup('a', a.memberId, 1);
    const stale = wire.heartbeatGroup('a', a.memberId, 0);
    const syncDuringJoin = wire.syncGroup('a', a.memberId, 1);
    bed.run(20);
    expect((hb.response as { errorCode: string }).errorCode).toBe('REBALANCE_IN_PROGRESS');
    expect((stale.response as { errorCode: string }).errorCode).toBe('ILLEGAL_GENERATION');
    expect((syncDuringJoin.response as SyncGroupResponse).errorCode).toBe('REBALANCE_IN_PROGRESS');
  });

  it('DeleteGroups refuses a group with members (NON_EMPTY_GROUP) and deletes an Empty one (Dead, tombstones)', () => {
    const { bed, c } = pollingMemberOfG();
    const r = c.commitSync([{ topic: 't', partition: 0, offset: 0 }]);
    bed.runUntil(() => r.done);
    expect(() => bed.groups.deleteGroup('g')).toThrow(/NON_EMPTY_GROUP/);
    try {
      bed.groups.deleteGroup('nope');
    } catch (e) {
      expect(isKafkaError(e, 'GROUP_ID_NOT_FOUND') || isKafkaError(e, 'COORDINATOR_NOT_AVAILABLE')).toBe(true);
    }
    c.close();
    bed.run(3_000);
    expect(bed.groups.groupSnapshot('g')?.state).toBe('Empty');
    let result = '';
    bed.groups.deleteGroup('g', (e) => {
      result = e;
    });
    bed.run(10);
    expect(result).toBe('NONE');
    expect(bed.groups.groupSnapshot('g')).toBeNull();
    expect(bed.ofType('groupStateChanged').at(-1)).toMatchObject({ to: 'Dead', reason: 'DeleteGroups' });
    const log = bed.port.readLocalLog(1, OFFSETS_TOPIC, groupCoordinatorPartition('g'));
    expect(log.slice(-2).map((x) => x.value)).toEqual([null, null]);
  });

  it('offsets of an Empty group expire after offsets.retention.minutes; the group goes Dead', () => {
    const bed = new GroupTestBed({
      coordinatorConfig: { ...FAST, 'offsets.retention.minutes': 1, 'offsets.retention.check.interval.ms': 10_000 },
    });
    bed.port.createTopic('t', 2, 3);
    const c = bed.polling('c', { 'group.id': 'g', 'enable.auto.commit': false }, ['t'], 100);
    bed.run(3_000);
    const r = c.commitSync([
      { topic: 't', partition: 0, offset: 0 },
      { topic: 't', partition: 1, offset: 0 },
    ]);
    bed.runUntil(() => r.done);
    bed.run(120_000);
    // Still a member: nothing expires while the group is not Empty.
    expect(bed.groups.groupSnapshot('g')?.offsets.length).toBe(2);
    c.close();
    bed.run(3_000);
    const emptyAt = bed.now();
    bed.run(55_000);
    expect(bed.groups.groupSnapshot('g')?.offsets.length).toBe(2);
    bed.run(20_000);
    expect(bed.groups.groupSnapshot('g')).toBeNull();
    const expired = bed.ofType('offsetsExpired');
    expect(expired).toHaveLength(1);
    expect(expired[0]).toMatchObject({ groupIds: ['g'], tombstones: 3 });
    expect((expired[0]?.atMs ?? 0) - emptyAt).toBeGreaterThanOrEqual(60_000 - 3_000);
  });

  it('a coordinator that loses the partition unloads its groups: Dead there, loaded again on the new leader', () => {
    const { bed } = pollingMemberOfG();
    const p = groupCoordinatorPartition('g');
    const old = bed.port.leaderOf(OFFSETS_TOPIC, p) as number;
    bed.port.stopBroker(old);
    bed.run(5_000);
    const dead = bed.ofType('groupStateChanged').find((e) => e.to === 'Dead');
    expect(dead?.coordinator).toBe(old);
    expect(bed.groups.groupSnapshot('g')?.state).toBe('Stable');
    expect(bed.groups.groupSnapshot('g')?.coordinator).not.toBe(old);
  });

  // GroupCoordinatorTest.testDynamicMembersJoinGroupWithMaxSizeAndRequiredKnownMember (3.9, with
  // GroupMaxSize 4): acceptJoiningMember lets an Empty group take every first join, so all five
  // new dynamic members get MEMBER_ID_REQUIRED; the size check bites on the second join (while
  // preparing the rebalance, on the members waiting in the join phase); rejoins answer the same.
  it('testDynamicMembersJoinGroupWithMaxSizeAndRequiredKnownMember: group.max.size applies on the second join', () => {
    const bed = new GroupTestBed({
      coordinatorConfig: { 'group.max.size': 4, 'group.initial.rebalance.delay.ms': 100 },
    });
    const wire = new Wire(bed, 'g');
    const clients = ['a', 'b', 'c', 'd', 'e'];
    const first = clients.map((c) => wire.join(c, '', ['range']));
    bed.run(5);
    const firstAnswers = first.map((f) => f.response as JoinGroupResponse);
    expect(firstAnswers.map((r) => r.errorCode)).toEqual(Array(5).fill('MEMBER_ID_REQUIRED'));
    const memberIds = firstAnswers.map((r) => r.memberId);
    const second = clients.map((c, i) => wire.join(c, memberIds[i] as string, ['range']));
    bed.run(300);
    const errors = second.map((f) => (f.response as JoinGroupResponse).errorCode);
    expect(errors).toEqual(['NONE', 'NONE', 'NONE', 'NONE', 'GROUP_MAX_SIZE_REACHED']);
    // Members which were accepted can rejoin, the others are refused, while completing the rebalance.
    expect(bed.groups.groupSnapshot('g')?.state).toBe('CompletingRebalance');
    const rejoin = clients.map((c, i) => wire.join(c, memberIds[i] as string, ['range']));
    bed.run(5);
    expect(rejoin.map((f) => (f.response as JoinGroupResponse).errorCode)).toEqual(errors);
  });

  // GroupCoordinator.acceptJoiningMember in a Stable group counts group.size, the members: an id
  // handed out by MEMBER_ID_REQUIRED and never used takes no seat.
  it('a pending member id takes no seat in a Stable group (acceptJoiningMember counts members only)', () => {
    const bed = new GroupTestBed({ coordinatorConfig: { 'group.max.size': 2, ...FAST } });
    const wire = new Wire(bed, 'g');
    const a = wire.joinFully('a', ['range']);
    bed.run(100);
    const generation = (a.box.response as JoinGroupResponse).generationId;
    wire.syncEmpty('a', a.memberId, generation);
    bed.run(10);
    expect(bed.groups.groupSnapshot('g')?.state).toBe('Stable');
    // b is handed an id and never comes back with it; c still gets its id, then its seat.
    const b = wire.join('b', '', ['range']);
    bed.run(5);
    expect((b.response as JoinGroupResponse).errorCode).toBe('MEMBER_ID_REQUIRED');
    const c = wire.join('c', '', ['range']);
    bed.run(5);
    const cAnswer = c.response as JoinGroupResponse;
    expect(cAnswer.errorCode).toBe('MEMBER_ID_REQUIRED');
    wire.join('c', cAnswer.memberId, ['range']);
    bed.run(5);
    expect(bed.groups.groupSnapshot('g')?.members.length).toBe(2);
  });

  // GroupCoordinator.onCompleteJoin (3.9) removes dynamic members that did not rejoin but leaves
  // pending member ids alone: they leave only by their own expiry (addPendingMemberExpiration) or
  // a LeaveGroup, so a pending member coming back after the join phase ended is still accepted
  // (doNewMemberJoinGroup: "A rejoining pending member will be accepted"), as
  // GroupCoordinatorTest.testJoinGroupCompletionWhenPendingMemberJoins has it.
  it('a pending member id outlives the join phase it did not finish, and joins later (onCompleteJoin keeps pending members)', () => {
    const bed = new GroupTestBed({ coordinatorConfig: { 'group.initial.rebalance.delay.ms': 100 } });
    const wire = new Wire(bed, 'g');
    const a = wire.joinFully('a', ['range']);
    const c = wire.joinFully('c', ['range']);
    bed.run(300);
    const generation = (a.box.response as JoinGroupResponse).generationId;
    for (const m of [a, c]) wire.syncEmpty(m === a ? 'a' : 'c', m.memberId, generation);
    bed.run(10);
    expect(bed.groups.groupSnapshot('g')?.state).toBe('Stable');
    // a rejoins (a rebalance), b is handed an id, c rejoins: the join phase waits for pending b.
    const rejoin = { rebalanceTimeoutMs: 5_000 };
    wire.join('a', a.memberId, ['range'], rejoin);
    const b = wire.join('b', '', ['range'], { sessionTimeoutMs: 60_000 });
    bed.run(5);
    const bId = (b.response as JoinGroupResponse).memberId;
    expect((b.response as JoinGroupResponse).errorCode).toBe('MEMBER_ID_REQUIRED');
    wire.join('c', c.memberId, ['range'], rejoin);
    bed.run(100);
    expect(bed.groups.groupSnapshot('g')?.state).toBe('PreparingRebalance');
    bed.run(20_000); // the rebalance timeout (c's 20 s when it began): the join phase completes without b
    expect(bed.groups.groupSnapshot('g')?.state).toBe('CompletingRebalance');
    // b comes back with its id: still pending, so accepted, and a new rebalance starts.
    const late = wire.join('b', bId, ['range']);
    bed.run(5);
    expect(bed.groups.groupSnapshot('g')?.state).toBe('PreparingRebalance');
    wire.join('a', a.memberId, ['range'], rejoin);
    wire.join('c', c.memberId, ['range'], rejoin);
    bed.run(5);
    expect((late.response as JoinGroupResponse).errorCode).toBe('NONE');
    expect(bed.groups.groupSnapshot('g')?.members.length).toBe(3);
  });

  // GroupMetadataManager.getOffsets (3.9): with require_stable, a partition with a commit still
  // being written (GroupMetadata.hasPendingOffsetCommitsForTopicPartition) answers
  // UNSTABLE_OFFSET_COMMIT and offset -1, as GroupCoordinatorTest.testFetchPendingTxnOffsetsWithAbort
  // checks for a transactional one; without require_stable, the offset committed before it.
  it('OffsetFetch with require_stable answers UNSTABLE_OFFSET_COMMIT while a commit is being written', () => {
    const bed = new GroupTestBed({ coordinatorConfig: FAST });
    const wire = new Wire(bed, 'g');
    const commit = (offset: number) =>
      wire.send('admin', {
        api: 'OffsetCommit',
        groupId: 'g',
        generationIdOrMemberEpoch: -1,
        memberId: '',
        groupInstanceId: null,
        topics: [
          {
            name: 't',
            partitions: [
              { partitionIndex: 0, committedOffset: offset, committedLeaderEpoch: -1, committedMetadata: '' },
            ],
          },
        ],
      });
    const fetch = (requireStable: boolean) =>
      wire.send('admin', {
        api: 'OffsetFetch',
        groupId: 'g',
        topics: [{ name: 't', partitionIndexes: [0, 1] }],
        requireStable,
      });
    const first = commit(5);
    bed.runUntil(() => first.response !== null);
    // The second commit reaches the coordinator and is being replicated when the fetches arrive.
    bed.port.appendDelayMs = 50;
    commit(9);
    bed.run(1);
    const stable = fetch(true);
    const unstable = fetch(false);
    bed.runUntil(() => stable.response !== null && unstable.response !== null);
    const partitions = (box: { response: unknown }) =>
      (box.response as OffsetFetchResponse).topics[0]?.partitions.map((p) => [
        p.partitionIndex,
        p.committedOffset,
        p.errorCode,
      ]);
    expect(partitions(stable)).toEqual([
      [0, -1, 'UNSTABLE_OFFSET_COMMIT'],
      [1, -1, 'NONE'],
    ]);
    expect(partitions(unstable)).toEqual([
      [0, 5, 'NONE'],
      [1, -1, 'NONE'],
    ]);
    bed.run(100);
    const after = fetch(true);
    bed.runUntil(() => after.response !== null);
    expect(partitions(after)).toEqual([
      [0, 9, 'NONE'],
      [1, -1, 'NONE'],
    ]);
  });

  // ConsumerCoordinator.sendOffsetFetchRequest asks with require_stable = true, and
  // OffsetFetchResponseHandler fails the fetch with the retriable UnstableOffsetCommitException on
  // UNSTABLE_OFFSET_COMMIT: a new owner whose fetch meets a commit still being written asks again
  // and starts from that commit, instead of from the offset before it (here: none, so
  // auto.offset.reset, and everything before the commit processed again).
  it('a new owner meeting a commit still being written asks again and starts from it (UnstableOffsetCommitException)', () => {
    const bed = new GroupTestBed({ coordinatorConfig: FAST });
    bed.port.createTopic('t', 1, 3);
    bed.port.produce(
      't',
      0,
      Array.from({ length: 10 }, (_, i) => `r${i}`),
    );
    const wire = new Wire(bed, 'g');
    const c = bed.polling(
      'c',
      { 'group.id': 'g', 'auto.offset.reset': 'earliest', 'enable.auto.commit': false },
      ['t'],
      50,
    );
    // The moment the coordinator answers c's SyncGroup, a commit of offset 7 for t-0 under c's
    // member id and generation (as a previous owner's commit on revocation would be) arrives, and
    // the offsets partition now takes 400 ms to commit a write (a slow follower, acks=all).
    expect(bed.runUntil(() => bed.ofType('groupResponseSent').some((e) => e.api === 'SyncGroup' && e.to === 'c'))).toBe(
      true,
    );
    bed.port.appendDelayMs = 400;
    wire.send('admin', {
      api: 'OffsetCommit',
      groupId: 'g',
      generationIdOrMemberEpoch: c.coordinator?.generationId ?? -1,
      memberId: c.coordinator?.memberId ?? '',
      groupInstanceId: null,
      topics: [
        {
          name: 't',
          partitions: [{ partitionIndex: 0, committedOffset: 7, committedLeaderEpoch: -1, committedMetadata: '' }],
        },
      ],
    });
    bed.run(3_000);
    const fetches = bed
      .ofType('groupResponseSent')
      .filter((e) => e.api === 'OffsetFetch' && e.to === 'c')
      .map((e) => (e.body as OffsetFetchResponse).topics[0]?.partitions[0]?.errorCode);
    expect(fetches[0]).toBe('UNSTABLE_OFFSET_COMMIT');
    expect(fetches.at(-1)).toBe('NONE');
    // It read 7, 8 and 9 only: nothing before the commit again, and no auto.offset.reset.
    const polled = bed.ofType('consumerPolled').flatMap((e) => e.records.map((r) => [r.fromOffset, r.count]));
    expect(polled).toEqual([[7, 3]]);
    expect(c.position({ topic: 't', partition: 0 })).toBe(10);
    expect(bed.ofType('consumerOffsetReset')).toEqual([]);
  });

  // GroupCoordinatorTest.testLastJoiningMembersAreKickedOutWhenReJoiningGroupWithMaxSize: a group
  // above group.max.size (the limit was lowered) rebalances; while it prepares the rebalance,
  // acceptJoiningMember counts the members already waiting, so the first max rejoiners stay and
  // the last ones get GROUP_MAX_SIZE_REACHED and leave the group.
  it('testLastJoiningMembersAreKickedOutWhenReJoiningGroupWithMaxSize', () => {
    const bed = new GroupTestBed({ coordinatorConfig: { 'group.initial.rebalance.delay.ms': 100 } });
    const wire = new Wire(bed, 'g');
    const members = ['a', 'b', 'c', 'd'].map((c) => ({ client: c, ...wire.joinFully(c, ['range']) }));
    bed.run(300);
    expect(bed.groups.groupSnapshot('g')).toMatchObject({ state: 'CompletingRebalance', generationId: 1 });
    (bed.groups.config as { 'group.max.size': number })['group.max.size'] = 2;
    // a's new subscription starts a rebalance; everyone rejoins, in order.
    const rejoins = members.map((m) => {
      const box = wire.join(m.client, m.memberId, m.client === 'a' ? ['roundrobin', 'range'] : ['range']);
      bed.run(1);
      return box;
    });
    expect(bed.runUntil(() => rejoins.every((r) => r.response !== null))).toBe(true);
    expect(rejoins.map((r) => (r.response as JoinGroupResponse).errorCode)).toEqual([
      'NONE',
      'NONE',
      'GROUP_MAX_SIZE_REACHED',
      'GROUP_MAX_SIZE_REACHED',
    ]);
    const left = bed.groups.groupSnapshot('g')?.members.map((m) => m.memberId) ?? [];
    expect(left.sort()).toEqual([members[0]?.memberId, members[1]?.memberId].sort());
  });
});
