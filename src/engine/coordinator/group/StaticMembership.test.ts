import { describe, expect, it } from 'vitest';
import type { JoinGroupRequest, JoinGroupResponse, OffsetCommitResponse } from '../../clients/consumer/groupProtocol';
import { GroupTestBed } from '../../consumerApps/GroupTestBed';
import { GroupWire, SUBSCRIPTION_TO_T } from '../../consumerApps/GroupWire';
import { ScalaHashMapOrder } from './ScalaHashMapOrder';

/**
 * Static membership (KIP-345) and leader choice on the coordinator, against Kafka 3.9's
 * ZooKeeper-mode coordinator (core's GroupCoordinator.scala / GroupMetadata.scala), driven with
 * raw requests like GroupCoordinatorTest drives it.
 */
const REBALANCE_TIMEOUT = 10_000;

class Wire extends GroupWire {
  join(memberId: string, instanceId: string | null, extra: Partial<JoinGroupRequest> = {}) {
    const client = instanceId ?? 'dyn';
    // The client id differs from the instance id, so the member id's prefix shows which one Kafka used.
    const metadata = SUBSCRIPTION_TO_T;
    return this.send<JoinGroupResponse>(client, {
      api: 'JoinGroup',
      groupId: this.groupId,
      sessionTimeoutMs: REBALANCE_TIMEOUT * 2,
      rebalanceTimeoutMs: REBALANCE_TIMEOUT,
      memberId,
      groupInstanceId: instanceId,
      protocolType: 'consumer',
      protocols: [{ name: 'range', metadata }],
      clientId: `client-of-${client}`,
      clientHost: `/${client}`,
      ...extra,
    });
  }

  sync(memberId: string, instanceId: string | null, generationId: number) {
    return this.syncGroup(instanceId ?? 'dyn', memberId, generationId, instanceId);
  }

  heartbeat(memberId: string, instanceId: string | null, generationId: number) {
    return this.heartbeatGroup(instanceId ?? 'dyn', memberId, generationId, instanceId);
  }

  commit(memberId: string, instanceId: string | null, generationId: number) {
    return this.send<OffsetCommitResponse>(instanceId ?? 'dyn', {
      api: 'OffsetCommit',
      groupId: this.groupId,
      generationIdOrMemberEpoch: generationId,
      memberId,
      groupInstanceId: instanceId,
      topics: [
        {
          name: 't',
          partitions: [{ partitionIndex: 0, committedOffset: 0, committedLeaderEpoch: -1, committedMetadata: '' }],
        },
      ],
    });
  }

  /** GroupCoordinatorTest.staticMembersJoinAndRebalance: two static members, generation 1, Stable. */
  staticMembersJoinAndRebalance(leaderInstance: string, followerInstance: string) {
    const l = this.join('', leaderInstance);
    const f = this.join('', followerInstance);
    this.bed.run(500);
    const leader = l.response as JoinGroupResponse;
    const follower = f.response as JoinGroupResponse;
    expect([leader.errorCode, follower.errorCode, leader.generationId]).toEqual(['NONE', 'NONE', 1]);
    expect(leader.leader).toBe(leader.memberId);
    this.sync(leader.memberId, leaderInstance, 1);
    this.sync(follower.memberId, followerInstance, 1);
    this.bed.run(20);
    expect(this.bed.groups.groupSnapshot(this.groupId)?.state).toBe('Stable');
    return { leaderId: leader.memberId, followerId: follower.memberId, generation: 1 };
  }
}

const bedConfig = { coordinatorConfig: { 'group.initial.rebalance.delay.ms': 100 } };

/** A test bed whose group is Stable in generation 1 with static members leader-instance and follower-instance. */
function stableStaticGroup(options: { seed?: number } = {}) {
  const bed = new GroupTestBed({ ...bedConfig, ...options });
  const wire = new Wire(bed);
  return { bed, wire, initial: wire.staticMembersJoinAndRebalance('leader-instance', 'follower-instance') };
}

describe('static membership (KIP-345), Kafka 3.9 GroupCoordinator.scala', () => {
  it('a replaced static member is FENCED_INSTANCE_ID on JoinGroup, SyncGroup, Heartbeat and OffsetCommit', () => {
    // Kafka 3.9 GroupCoordinatorTest.staticMemberRejoinWithLeaderIdAndUnknownMemberId,
    // staticMemberHeartbeatLeaderWithInvalidMemberId, staticMemberCommitOffsetWithInvalidMemberId:
    // GroupCoordinator.validateCurrentMember checks the instance id before the member id.
    const { bed, wire, initial } = stableStaticGroup();
    // The leader restarts: same group.instance.id, unknown member id. Stable, same protocol: no rebalance.
    const rejoin = wire.join('', 'leader-instance');
    bed.run(20);
    const replaced = rejoin.response as JoinGroupResponse;
    expect(replaced.errorCode).toBe('NONE');
    expect(replaced.generationId).toBe(initial.generation);
    // GroupMetadata.generateMemberId: a static member's id starts with its instance id
    // (GroupCoordinatorTest.shouldGetDifferentStaticMemberIdAfterEachRejoin).
    expect(replaced.memberId.startsWith('leader-instance-')).toBe(true);
    expect(replaced.memberId).not.toBe(initial.leaderId);

    const oldJoin = wire.join(initial.leaderId, 'leader-instance');
    const oldSync = wire.sync(initial.leaderId, 'leader-instance', initial.generation);
    const oldHeartbeat = wire.heartbeat(initial.leaderId, 'leader-instance', initial.generation);
    const oldCommit = wire.commit(initial.leaderId, 'leader-instance', initial.generation);
    // Without the instance id, the old member id is just unknown.
    const anonymousSync = wire.sync(initial.leaderId, null, initial.generation);
    bed.run(20);
    expect(oldJoin.response?.errorCode).toBe('FENCED_INSTANCE_ID');
    expect(oldSync.response?.errorCode).toBe('FENCED_INSTANCE_ID');
    expect(oldHeartbeat.response?.errorCode).toBe('FENCED_INSTANCE_ID');
    expect(oldCommit.response?.topics[0]?.partitions[0]?.errorCode).toBe('FENCED_INSTANCE_ID');
    expect(anonymousSync.response?.errorCode).toBe('UNKNOWN_MEMBER_ID');
    // Nothing changed: the group still holds the replacement, Stable, same generation.
    const snap = bed.groups.groupSnapshot('g');
    expect(snap?.state).toBe('Stable');
    expect(snap?.generationId).toBe(initial.generation);
    expect(snap?.members.map((m) => m.memberId).sort()).toEqual([initial.followerId, replaced.memberId].sort());
  });

  it('a static follower that does not rejoin within the rebalance timeout stays in the next generation', () => {
    // Kafka 3.9 GroupCoordinatorTest.testStaticMemberFollowerFailToRejoinBeforeRebalanceTimeout:
    // onCompleteJoin removes only notYetRejoinedMembers that are dynamic.
    const { bed, wire, initial } = stableStaticGroup();
    const newMember = wire.join('', 'new-member');
    bed.run(20);
    expect(bed.groups.groupSnapshot('g')?.state).toBe('PreparingRebalance');
    const leaderRejoin = wire.join(initial.leaderId, 'leader-instance');
    // The follower stays silent; after the rebalance timeout the join phase completes without it.
    expect(bed.runUntil(() => leaderRejoin.response !== null, REBALANCE_TIMEOUT + 1_000)).toBe(true);
    const leader = leaderRejoin.response as JoinGroupResponse;
    expect(leader.errorCode).toBe('NONE');
    expect(leader.generationId).toBe(initial.generation + 1);
    expect(leader.leader).toBe(initial.leaderId);
    expect(leader.members.map((m) => m.groupInstanceId).sort()).toEqual([
      'follower-instance',
      'leader-instance',
      'new-member',
    ]);
    expect((newMember.response as JoinGroupResponse).leader).toBe(initial.leaderId);
    expect(bed.ofType('groupMemberRemoved')).toEqual([]);
    expect(bed.groups.groupSnapshot('g')?.members.map((m) => m.memberId)).toContain(initial.followerId);
  });

  it('a dynamic member that does not rejoin is removed while a static one stays (KIP-345)', () => {
    // Kafka 3.9 GroupCoordinator.onCompleteJoin: notYetRejoinedMembers.filterNot(_.isStaticMember).
    const bed = new GroupTestBed(bedConfig);
    const wire = new Wire(bed);
    const s = wire.join('', 'static-instance');
    const required = wire.join('', null);
    bed.run(20);
    const dynId = (required.response as JoinGroupResponse).memberId;
    const d = wire.join(dynId, null);
    bed.run(500);
    const gen = (s.response as JoinGroupResponse).generationId;
    const staticId = (s.response as JoinGroupResponse).memberId;
    expect((d.response as JoinGroupResponse).generationId).toBe(gen);
    const leaderId = (s.response as JoinGroupResponse).leader;
    wire.sync(staticId, 'static-instance', gen);
    wire.sync(dynId, null, gen);
    bed.run(20);
    // A third member joins; neither the static nor the dynamic member rejoins.
    const x = wire.join('', 'third-instance');
    expect(bed.runUntil(() => x.response !== null, REBALANCE_TIMEOUT + 1_000)).toBe(true);
    const third = x.response as JoinGroupResponse;
    expect(third.generationId).toBe(gen + 1);
    expect(bed.ofType('groupMemberRemoved').map((e) => e.memberId)).toEqual([dynId]);
    const members = bed.groups.groupSnapshot('g')?.members.map((m) => m.memberId) ?? [];
    expect(members.sort()).toEqual([staticId, third.memberId].sort());
    // GroupMetadata.maybeElectNewJoinedLeader: the leader did not rejoin, the one that did leads.
    expect(leaderId === staticId || leaderId === dynId).toBe(true);
    expect(third.leader).toBe(third.memberId);
  });

  it('when no member rejoins, the join phase waits another rebalance timeout instead of completing', () => {
    // Kafka 3.9 GroupCoordinatorTest.testLeaderFailToRejoinBeforeFinalRebalanceTimeoutWithLongSessionTimeout
    // (groupStuckInRebalanceTimeoutDueToNonjoinedStaticMember): maybeElectNewJoinedLeader is false,
    // a new DelayedJoin is scheduled, and the session timeout finally empties the group.
    const bed = new GroupTestBed(bedConfig);
    const wire = new Wire(bed);
    const l = wire.join('', 'leader-instance', { sessionTimeoutMs: REBALANCE_TIMEOUT * 3 });
    bed.run(500);
    const leader = l.response as JoinGroupResponse;
    wire.sync(leader.memberId, 'leader-instance', 1);
    bed.run(20);
    // A dynamic member joins and leaves again; the static leader never rejoins.
    const required = wire.join('', null);
    bed.run(20);
    const dynId = (required.response as JoinGroupResponse).memberId;
    const d = wire.join(dynId, null);
    bed.run(20);
    wire.send('dyn', {
      api: 'LeaveGroup',
      groupId: 'g',
      members: [{ memberId: dynId, groupInstanceId: null, reason: null }],
    });
    bed.run(REBALANCE_TIMEOUT + 500);
    expect(d.response?.errorCode).toBe('UNKNOWN_MEMBER_ID');
    // Still rebalancing at generation 1 with the static leader only: no empty generation 2.
    let snap = bed.groups.groupSnapshot('g');
    expect(snap?.state).toBe('PreparingRebalance');
    expect(snap?.generationId).toBe(1);
    expect(snap?.members.map((m) => m.memberId)).toEqual([leader.memberId]);
    // The leader's session (3 rebalance timeouts since its last sync) runs out: the group empties.
    bed.run(REBALANCE_TIMEOUT * 3);
    snap = bed.groups.groupSnapshot('g');
    expect(snap?.state).toBe('Empty');
    expect(snap?.generationId).toBe(2);
  });

  it('two consumers sharing one group.instance.id end with one FencedInstanceIdException, not endless replacement', () => {
    // Kafka 3.9: the second consumer replaces the first (GroupCoordinator.updateStaticMemberAndRebalance);
    // the first's next Heartbeat is FENCED_INSTANCE_ID (validateCurrentMember), which the client's
    // ConsumerCoordinator raises as a fatal FencedInstanceIdException from poll().
    const bed = new GroupTestBed(bedConfig);
    bed.port.createTopic('t', 2, 3);
    const first = bed.polling('first', { 'group.id': 'g', 'group.instance.id': 'shared' }, ['t'], 100);
    expect(bed.runUntil(() => bed.groups.groupSnapshot('g')?.state === 'Stable', 30_000)).toBe(true);
    const second = bed.polling('second', { 'group.id': 'g', 'group.instance.id': 'shared' }, ['t'], 100);
    expect(bed.runUntil(() => bed.pollErrors.length > 0, 30_000)).toBe(true);
    // Give any ping-pong plenty of time to show itself.
    bed.run(60_000);
    expect(bed.pollErrors.map((e) => e.code)).toEqual(['FENCED_INSTANCE_ID']);
    const replaced = bed.ofType('groupMemberReplaced');
    expect(replaced).toHaveLength(1);
    // The second consumer holds the instance id (the member keeps the first's client id, as
    // GroupMetadata.replaceStaticMember keeps the MemberMetadata and changes only its id).
    const snap = bed.groups.groupSnapshot('g');
    expect(snap?.state).toBe('Stable');
    expect(snap?.members.map((m) => m.memberId)).toEqual([replaced[0]?.newMemberId]);
    expect(first.lifecycle === 'running' && second.lifecycle === 'running').toBe(true);
  });
});

/** The first of `ids` in GroupMetadata.members order (a fresh Scala HashMap holding just them). */
function firstInScalaOrder(ids: string[]): string {
  const map = new ScalaHashMapOrder();
  for (const id of ids) map.put(id);
  return map.keys()[0] as string;
}

describe('the new leader, as Kafka 3.9 GroupMetadata chooses it', () => {
  // With this seed the member ids hash so that hash order differs from join order.
  const SEED = 1;

  it('when the leader leaves, the first remaining member in hash order leads (GroupMetadata.remove)', () => {
    const bed = new GroupTestBed({ ...bedConfig, seed: SEED });
    const wire = new Wire(bed);
    const joins = ['a', 'b', 'c'].map((i) => wire.join('', i));
    bed.run(500);
    const [a, b, c] = joins.map((j) => j.response as JoinGroupResponse) as [
      JoinGroupResponse,
      JoinGroupResponse,
      JoinGroupResponse,
    ];
    expect(a.leader).toBe(a.memberId);
    for (const [r, i] of [
      [a, 'a'],
      [b, 'b'],
      [c, 'c'],
    ] as const)
      wire.sync(r.memberId, i, 1);
    bed.run(20);
    // The leader leaves; GroupMetadata.remove makes `members.keys.headOption` the leader.
    wire.send('a', {
      api: 'LeaveGroup',
      groupId: 'g',
      members: [{ memberId: a.memberId, groupInstanceId: 'a', reason: null }],
    });
    bed.run(20);
    const expected = firstInScalaOrder([a.memberId, b.memberId, c.memberId].filter((id) => id !== a.memberId));
    // Join order would make b the leader; hash order puts c first.
    expect(expected).toBe(c.memberId);
    expect(bed.groups.groupSnapshot('g')?.leader).toBe(expected);
    const rb = wire.join(b.memberId, 'b');
    const rc = wire.join(c.memberId, 'c');
    bed.run(20);
    expect([rb.response?.leader, rc.response?.leader]).toEqual([expected, expected]);
  });

  it('a static leader that does not rejoin hands over to the first rejoined member in hash order (maybeElectNewJoinedLeader)', () => {
    // Kafka 3.9 GroupCoordinatorTest.testStaticMemberLeaderFailToRejoinBeforeRebalanceTimeout.
    const { bed, wire, initial } = stableStaticGroup({ seed: SEED });
    const newMember = wire.join('', 'new-member');
    bed.run(1);
    const follower = wire.join(initial.followerId, 'follower-instance');
    expect(bed.runUntil(() => follower.response !== null, REBALANCE_TIMEOUT + 1_000)).toBe(true);
    const f = follower.response as JoinGroupResponse;
    const n = newMember.response as JoinGroupResponse;
    const expected = firstInScalaOrder(
      [initial.leaderId, initial.followerId, n.memberId].filter((id) => id !== initial.leaderId),
    );
    // Join order would pick the follower; hash order puts the new member first.
    expect(expected).toBe(n.memberId);
    expect([f.leader, n.leader]).toEqual([expected, expected]);
    const leaderResponse = expected === f.memberId ? f : n;
    expect(leaderResponse.members.map((m) => m.groupInstanceId).sort()).toEqual([
      'follower-instance',
      'leader-instance',
      'new-member',
    ]);
    expect(bed.groups.groupSnapshot('g')?.members.map((m) => m.memberId)).toContain(initial.leaderId);
  });
});
