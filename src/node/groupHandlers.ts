/**
 * The consumer-group APIs for real clients: each request goes to the broker's GroupCoordinator
 * over the engine's group network (the same path the engine's own consumers take, so the page
 * sees a real client's JoinGroup, SyncGroup and commits like any other member's), and the answer
 * is translated back to the wire version the client asked for.
 */
import {
  AUTHORIZED_OPERATIONS_OMITTED,
  type DescribeGroupsRequest,
  DescribeGroupsRequestData,
  type DescribeGroupsResponse,
  DescribeGroupsResponseData,
  FindCoordinatorRequestData,
  FindCoordinatorResponseData,
  type FindCoordinatorResponse,
  type HeartbeatRequest,
  HeartbeatRequestData,
  type HeartbeatResponse,
  HeartbeatResponseData,
  type JoinGroupRequest,
  JoinGroupRequestData,
  JoinGroupResponseData,
  type JoinGroupResponse,
  LeaveGroupRequestData,
  LeaveGroupResponseData,
  type LeaveGroupResponse,
  type ListGroupsRequest,
  ListGroupsRequestData,
  type ListGroupsResponse,
  ListGroupsResponseData,
  type OffsetCommitRequest,
  OffsetCommitRequestData,
  OffsetCommitResponseData,
  type OffsetCommitResponse,
  OffsetFetchRequestData,
  OffsetFetchResponseData,
  type OffsetFetchResponse,
  type SyncGroupRequest,
  SyncGroupRequestData,
  SyncGroupResponseData,
  type SyncGroupResponse,
  type WireValue,
} from '../engine/index';
import type { ApiHandler } from './apiHandler';
import { errorNumber, numbered, numberedPartitions } from './errorNumber';
import { bodyOf, groupRelay } from './relay';

type Topics = { name: string; partitionIndexes: number[] }[] | null;

const findCoordinator: ApiHandler = {
  request: FindCoordinatorRequestData,
  response: FindCoordinatorResponseData,
  handle({ connection, body, version }, reply) {
    const b = body ?? {};
    const keys = version >= 4 ? ((b.coordinatorKeys as string[]) ?? []) : [String(b.key ?? '')];
    const answers: WireValue[] = new Array(keys.length);
    let left = keys.length;
    const finish = () => {
      if (version >= 4) {
        reply({ coordinators: answers });
        return;
      }
      const a = answers[0] ?? {};
      reply({ errorCode: a.errorCode, errorMessage: null, nodeId: a.nodeId, host: a.host, port: a.port });
    };
    if (left === 0) finish();
    keys.forEach((key, i) => {
      const answerWith = (errorCode: number, nodeId: number) => {
        const at = nodeId >= 0 ? connection.listenerOf(nodeId) : { host: '', port: -1 };
        answers[i] = { key, nodeId, ...at, errorCode, errorMessage: null };
        if (--left === 0) finish();
      };
      // Transaction coordinators (key type 1) are not modelled.
      if (Number(b.keyType ?? 0) !== 0) {
        answerWith(errorNumber('COORDINATOR_NOT_AVAILABLE'), -1);
        return;
      }
      connection.askGroup({ api: 'FindCoordinator', key, keyType: 0 }, (r) => {
        const res = r as FindCoordinatorResponse;
        answerWith(errorNumber(res.errorCode), res.errorCode === 'NONE' ? res.nodeId : -1);
      });
    });
    return undefined;
  },
};

type WireJoin = Omit<JoinGroupRequest, 'api'>;

const joinGroup = groupRelay<JoinGroupRequest, JoinGroupResponse>(
  JoinGroupRequestData,
  JoinGroupResponseData,
  (ctx) => {
    const b = bodyOf<WireJoin>(ctx);
    const sessionTimeoutMs = Number(b.sessionTimeoutMs);
    // v0 has no rebalance timeout: Kafka uses the session timeout for both.
    const rebalanceTimeoutMs = Number(b.rebalanceTimeoutMs) >= 0 ? Number(b.rebalanceTimeoutMs) : sessionTimeoutMs;
    return {
      api: 'JoinGroup',
      groupId: String(b.groupId),
      sessionTimeoutMs,
      rebalanceTimeoutMs,
      memberId: String(b.memberId ?? ''),
      groupInstanceId: b.groupInstanceId ?? null,
      protocolType: 'consumer',
      protocols: b.protocols ?? [],
      clientId: ctx.header.clientId ?? '',
      clientHost: '/127.0.0.1',
      // KIP-394 from v4 on; a v0-3 member joins with the id the coordinator makes for it.
      requireKnownMemberId: ctx.version >= 4,
    };
  },
  (res) => ({ ...numbered(res), throttleTimeMs: 0, protocolName: res.protocolName ?? '' }),
  // A JoinGroup may be held for the whole rebalance: NetworkClient waits rebalance.timeout.ms + 5 s.
  (req) => req.rebalanceTimeoutMs + 5_000,
);

/** Who a SyncGroup or Heartbeat speaks for: the group, generation, member and static instance. */
function memberOf(b: Partial<Omit<HeartbeatRequest, 'api'>>): Omit<HeartbeatRequest, 'api'> {
  return {
    groupId: String(b.groupId),
    generationId: Number(b.generationId),
    memberId: String(b.memberId),
    groupInstanceId: b.groupInstanceId ?? null,
  };
}

const syncGroup = groupRelay<SyncGroupRequest, SyncGroupResponse>(
  SyncGroupRequestData,
  SyncGroupResponseData,
  (ctx) => {
    const b = bodyOf<Omit<SyncGroupRequest, 'api'>>(ctx);
    return {
      api: 'SyncGroup',
      ...memberOf(b),
      protocolType: b.protocolType ?? null,
      protocolName: b.protocolName ?? null,
      assignments: b.assignments ?? [],
    };
  },
  (res) => numbered(res),
);

const heartbeat = groupRelay<HeartbeatRequest, HeartbeatResponse>(
  HeartbeatRequestData,
  HeartbeatResponseData,
  (ctx) => ({ api: 'Heartbeat', ...memberOf(bodyOf<Omit<HeartbeatRequest, 'api'>>(ctx)) }),
  (res) => ({ errorCode: errorNumber(res.api === 'Heartbeat' ? res.errorCode : 'UNKNOWN_SERVER_ERROR') }),
);

const leaveGroup: ApiHandler = {
  request: LeaveGroupRequestData,
  response: LeaveGroupResponseData,
  handle({ connection, body, version }, reply) {
    const b = body ?? {};
    const members =
      version >= 3
        ? ((b.members as { memberId: string; groupInstanceId: string | null; reason: string | null }[]) ?? [])
        : [{ memberId: String(b.memberId), groupInstanceId: null, reason: null }];
    connection.askGroup({ api: 'LeaveGroup', groupId: String(b.groupId), members }, (r) => {
      const res = r as LeaveGroupResponse;
      // Before v3 one member leaves, and its error is the answer's.
      const single = res.members[0]?.errorCode ?? 'NONE';
      reply({
        errorCode: errorNumber(version >= 3 || res.errorCode !== 'NONE' ? res.errorCode : single),
        members: res.members.map((m) => ({ ...m, errorCode: errorNumber(m.errorCode) })),
      });
    });
    return undefined;
  },
};

type CommitTopic = OffsetCommitRequest['topics'][number];
type CommitAnswerTopic = { name: string; partitions: { partitionIndex: number; errorCode: number }[] };

/**
 * KafkaApis.handleOffsetCommitRequest before the coordinator: a topic the receiving broker's
 * metadata does not know, or a partition it does not have, is answered UNKNOWN_TOPIC_OR_PARTITION
 * and never reaches the group coordinator; the rest is committed. As Kafka's response builder
 * merges them, the refused partitions come first within a topic and refused topics before the
 * coordinator's (KafkaApisTest.testHandleOffsetCommitRequestTopicsAndPartitionsValidation); with
 * nothing left to commit the coordinator is not asked (librdkafka test 0030, do_nonexist_commit).
 */
const offsetCommit: ApiHandler = {
  request: OffsetCommitRequestData,
  response: OffsetCommitResponseData,
  handle(ctx, reply) {
    const b = bodyOf<Omit<OffsetCommitRequest, 'api'>>(ctx);
    // A commit from outside the group protocol (assign()) has generation -1 and no member id.
    const { generationIdOrMemberEpoch = -1, memberId = '', groupInstanceId = null, topics = [] } = b;
    const groupId = String(b.groupId);
    const metadata = ctx.connection.engine.cluster.broker(ctx.connection.brokerId).metadata;
    const answer = new Map<string, CommitAnswerTopic>();
    const refuse = (name: string, partitionIndex: number) => {
      const t = answer.get(name) ?? { name, partitions: [] };
      t.partitions.push({ partitionIndex, errorCode: errorNumber('UNKNOWN_TOPIC_OR_PARTITION') });
      answer.set(name, t);
    };
    const valid: CommitTopic[] = [];
    for (const topic of topics) {
      const known = topic.partitions.filter((p) => metadata.contains(topic.name, p.partitionIndex));
      for (const p of topic.partitions) if (!known.includes(p)) refuse(topic.name, p.partitionIndex);
      if (known.length > 0) valid.push({ ...topic, partitions: known });
    }
    if (valid.length === 0) {
      reply({ topics: [...answer.values()] });
      return undefined;
    }
    const request = {
      api: 'OffsetCommit',
      groupId,
      generationIdOrMemberEpoch,
      memberId,
      groupInstanceId,
      topics: valid,
    } as const;
    ctx.connection.askGroup(request, (r) => {
      for (const t of numberedPartitions((r as OffsetCommitResponse).topics)) {
        const merged = answer.get(t.name) ?? { name: t.name, partitions: [] };
        merged.partitions.push(...t.partitions);
        answer.set(t.name, merged);
      }
      reply({ topics: [...answer.values()] });
    });
    return undefined;
  },
};

const offsetFetch: ApiHandler = {
  request: OffsetFetchRequestData,
  response: OffsetFetchResponseData,
  handle({ connection, body, version }, reply) {
    const b = body ?? {};
    const groups: { groupId: string; topics: Topics }[] =
      version >= 8
        ? ((b.groups as { groupId: string; topics: Topics }[]) ?? [])
        : [{ groupId: String(b.groupId), topics: (b.topics as Topics) ?? null }];
    const answers: OffsetFetchResponse[] = new Array(groups.length);
    let left = groups.length;
    const finish = () => {
      if (version >= 8) {
        reply({
          groups: groups.map((g, i) => ({
            groupId: g.groupId,
            topics: answers[i] ? numberedPartitions(answers[i].topics) : [],
            errorCode: errorNumber(answers[i]?.errorCode ?? 'NONE'),
          })),
        });
        return;
      }
      const a = answers[0];
      reply({ topics: a ? numberedPartitions(a.topics) : [], errorCode: errorNumber(a?.errorCode ?? 'NONE') });
    };
    if (left === 0) finish();
    groups.forEach((g, i) => {
      // v7+ (KIP-447): a commit still being written answers UNSTABLE_OFFSET_COMMIT, not the old offset.
      const requireStable = version >= 7 && Boolean(b.requireStable);
      connection.askGroup({ api: 'OffsetFetch', groupId: g.groupId, topics: g.topics, requireStable }, (r) => {
        answers[i] = r as OffsetFetchResponse;
        if (--left === 0) finish();
      });
    });
    return undefined;
  },
};

/**
 * DescribeGroups: each group's summary from its coordinator (state, protocol, members with their
 * subscription and assignment while Stable). Kafka has no authorizer here, so requested
 * authorized operations are every operation a group supports (READ, DELETE, DESCRIBE).
 */
const describeGroups = groupRelay<DescribeGroupsRequest, DescribeGroupsResponse>(
  DescribeGroupsRequestData,
  DescribeGroupsResponseData,
  (ctx) => ({ api: 'DescribeGroups', groups: bodyOf<{ groups: string[] }>(ctx).groups ?? [] }),
  (res, ctx) => {
    const asked = Boolean(bodyOf<{ includeAuthorizedOperations: boolean }>(ctx).includeAuthorizedOperations);
    return {
      throttleTimeMs: 0,
      groups: res.groups.map((g) => ({
        ...numbered(g),
        authorizedOperations: asked ? GROUP_OPERATIONS : AUTHORIZED_OPERATIONS_OMITTED,
      })),
    };
  },
);

/** AclOperation bits a group supports (READ 3, DELETE 6, DESCRIBE 8). */
const GROUP_OPERATIONS = (1 << 3) | (1 << 6) | (1 << 8);

/** ListGroups: the groups this broker coordinates, by state from v4 (KIP-518). */
const listGroups = groupRelay<ListGroupsRequest, ListGroupsResponse>(
  ListGroupsRequestData,
  ListGroupsResponseData,
  (ctx) => ({ api: 'ListGroups', statesFilter: bodyOf<{ statesFilter: string[] }>(ctx).statesFilter ?? [] }),
  (res) => ({ throttleTimeMs: 0, ...numbered(res) }),
);

export const GROUP_HANDLERS: readonly ApiHandler[] = [
  findCoordinator,
  joinGroup,
  syncGroup,
  heartbeat,
  leaveGroup,
  offsetCommit,
  offsetFetch,
  describeGroups,
  listGroups,
];
