import { describe, expect, it } from 'vitest';
import type {
  DescribeGroupsResponse,
  JoinGroupRequest,
  JoinGroupResponse,
  ListGroupsResponse,
  SyncGroupResponse,
} from '../../clients/consumer/groupProtocol';
import { GroupTestBed } from '../../consumerApps/GroupTestBed';
import { GroupWire, SUBSCRIPTION_TO_T } from '../../consumerApps/GroupWire';

/**
 * What an Admin client and an old (JoinGroup v0-3) client ask of the coordinator: Kafka's
 * GroupCoordinator.handleDescribeGroup / handleListGroups, and doNewMemberJoinGroup with
 * requireKnownMemberId false (GroupCoordinatorTest's "join group without member id required").
 */
const FAST = { 'group.initial.rebalance.delay.ms': 0 };

/** Group g on a test bed with member `a` joined the v0-3 way; `wire` sends further requests. */
function joinedOld() {
  const bed = new GroupTestBed({ coordinatorConfig: FAST });
  const wire = new GroupWire(bed, 'g');
  const a = joinOld(wire, 'a');
  bed.run(20);
  return { bed, wire, joined: a.response as JoinGroupResponse };
}

function joinOld(wire: GroupWire, client: string, extra: Partial<JoinGroupRequest> = {}) {
  return wire.send<JoinGroupResponse>(client, {
    api: 'JoinGroup',
    groupId: wire.groupId,
    sessionTimeoutMs: 10_000,
    rebalanceTimeoutMs: 10_000,
    memberId: '',
    groupInstanceId: null,
    protocolType: 'consumer',
    protocols: [{ name: 'range', metadata: SUBSCRIPTION_TO_T }],
    clientId: client,
    clientHost: `/${client}`,
    requireKnownMemberId: false,
    ...extra,
  });
}

describe('JoinGroup v0-3 (before KIP-394)', () => {
  it('a new member joins at once with the id the coordinator makes: no MEMBER_ID_REQUIRED round trip', () => {
    const { bed, joined: r } = joinedOld();
    expect(r.errorCode).toBe('NONE');
    expect(r.memberId.startsWith('a-')).toBe(true);
    expect([r.generationId, r.leader, r.members.length]).toEqual([1, r.memberId, 1]);
    const joins = bed.ofType('groupResponseSent').filter((e) => e.api === 'JoinGroup');
    expect(joins.map((e) => e.errorCode)).toEqual(['NONE']);
    expect(bed.groups.groupSnapshot('g')?.state).toBe('CompletingRebalance');
  });
});

describe('DescribeGroups and ListGroups', () => {
  it('describes a Stable group with its protocol, members, subscriptions and assignments', () => {
    const { bed, wire, joined } = joinedOld();
    const memberId = joined.memberId;
    const assignment = new Uint8Array([0, 3, 0, 0, 0, 0]);
    const sync = wire.send<SyncGroupResponse>('a', {
      api: 'SyncGroup',
      groupId: 'g',
      generationId: 1,
      memberId,
      groupInstanceId: null,
      protocolType: 'consumer',
      protocolName: 'range',
      assignments: [{ memberId, assignment }],
    });
    bed.run(50);
    expect(sync.response?.errorCode).toBe('NONE');
    const d = wire.send<DescribeGroupsResponse>('admin', { api: 'DescribeGroups', groups: ['g', 'nobody'] });
    bed.run(5);
    const [g, none] = d.response?.groups ?? [];
    expect(g).toMatchObject({ groupId: 'g', errorCode: 'NONE', groupState: 'Stable', protocolType: 'consumer' });
    expect(g?.protocolData).toBe('range');
    expect(g?.members).toEqual([
      {
        memberId,
        groupInstanceId: null,
        clientId: 'a',
        clientHost: '/a',
        memberMetadata: SUBSCRIPTION_TO_T,
        memberAssignment: assignment,
      },
    ]);
    // A group the coordinator does not have is described as Dead (GroupCoordinator.DeadGroup).
    expect(none).toEqual({
      groupId: 'nobody',
      errorCode: 'NONE',
      groupState: 'Dead',
      protocolType: '',
      protocolData: '',
      members: [],
    });
  });

  it('leaves out the protocol, subscriptions and assignments while a group rebalances', () => {
    const { bed, wire } = joinedOld();
    const d = wire.send<DescribeGroupsResponse>('admin', { api: 'DescribeGroups', groups: ['g'] });
    bed.run(5);
    const g = d.response?.groups[0];
    expect(g?.groupState).toBe('CompletingRebalance');
    expect(g?.protocolData).toBe('');
    expect(g?.members[0]?.memberMetadata).toEqual(new Uint8Array(0));
    expect(g?.members[0]?.memberAssignment).toEqual(new Uint8Array(0));
  });

  it('a broker that does not coordinate the group answers NOT_COORDINATOR with an empty summary', () => {
    const bed = new GroupTestBed({ coordinatorConfig: FAST });
    const wire = new GroupWire(bed, 'g');
    const other = bed.port.liveBrokers().find((b) => b !== wire.coordinator) as number;
    const box: { r: DescribeGroupsResponse | null } = { r: null };
    bed.groups.network.send('admin', other, { api: 'DescribeGroups', groups: ['g'] }, (r) => {
      box.r = r as DescribeGroupsResponse;
    });
    bed.run(5);
    expect(box.r?.groups[0]).toMatchObject({ errorCode: 'NOT_COORDINATOR', groupState: '', members: [] });
  });

  it('lists the groups a broker coordinates, filtered by state case-insensitively (KIP-518)', () => {
    const { bed, wire } = joinedOld();
    const list = (statesFilter: string[]) => {
      const box = wire.send<ListGroupsResponse>('admin', { api: 'ListGroups', statesFilter });
      bed.run(5);
      return box.response;
    };
    expect(list([])).toEqual({
      api: 'ListGroups',
      errorCode: 'NONE',
      groups: [{ groupId: 'g', protocolType: 'consumer', groupState: 'CompletingRebalance' }],
    });
    expect(list(['completingrebalance'])?.groups.map((g) => g.groupId)).toEqual(['g']);
    expect(list(['Stable'])?.groups).toEqual([]);
  });
});
