/**
 * The consumer-group APIs for real clients: each request goes to the broker's GroupCoordinator
 * over the engine's group network (the same path the engine's own consumers take, so the page
 * sees a real client's JoinGroup, SyncGroup and commits like any other member's), and the answer
 * is translated back to the wire version the client asked for.
 */
import {
  FindCoordinatorRequestData,
  FindCoordinatorResponseData,
  type FindCoordinatorResponse,
  HeartbeatRequestData,
  HeartbeatResponseData,
  JoinGroupRequestData,
  JoinGroupResponseData,
  type JoinGroupResponse,
  LeaveGroupRequestData,
  LeaveGroupResponseData,
  type LeaveGroupResponse,
  OffsetCommitRequestData,
  OffsetCommitResponseData,
  type OffsetCommitResponse,
  OffsetFetchRequestData,
  OffsetFetchResponseData,
  type OffsetFetchResponse,
  SyncGroupRequestData,
  SyncGroupResponseData,
  type SyncGroupResponse,
  type WireValue,
} from '../engine/index';
import type { ApiHandler } from './apiHandlers';
import { errorNumber } from './errorNumber';

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

const joinGroup: ApiHandler = {
  // 0-3 predate KIP-394 (a member joins without first being handed an id); the coordinator
  // follows 3.9's v4+ path only, so only 4-9 are served.
  request: { ...JoinGroupRequestData, valid: { lo: 4, hi: 9 } },
  response: JoinGroupResponseData,
  handle({ connection, body, header }, reply) {
    const b = body ?? {};
    const sessionTimeoutMs = Number(b.sessionTimeoutMs);
    const rebalanceTimeoutMs = Number(b.rebalanceTimeoutMs) >= 0 ? Number(b.rebalanceTimeoutMs) : sessionTimeoutMs;
    connection.askGroup(
      {
        api: 'JoinGroup',
        groupId: String(b.groupId),
        sessionTimeoutMs,
        rebalanceTimeoutMs,
        memberId: String(b.memberId ?? ''),
        groupInstanceId: (b.groupInstanceId as string | null) ?? null,
        protocolType: 'consumer',
        protocols: (b.protocols as { name: string; metadata: Uint8Array }[]) ?? [],
        clientId: header.clientId ?? '',
        clientHost: '/127.0.0.1',
      },
      (r) => {
        const res = r as JoinGroupResponse;
        reply({
          throttleTimeMs: 0,
          errorCode: errorNumber(res.errorCode),
          generationId: res.generationId,
          protocolType: res.protocolType,
          protocolName: res.protocolName ?? '',
          leader: res.leader,
          skipAssignment: res.skipAssignment,
          memberId: res.memberId,
          members: res.members,
        });
      },
      // A JoinGroup may be held for the whole rebalance: NetworkClient waits rebalance.timeout.ms + 5 s.
      rebalanceTimeoutMs + 5_000,
    );
    return undefined;
  },
};

const syncGroup: ApiHandler = {
  request: SyncGroupRequestData,
  response: SyncGroupResponseData,
  handle({ connection, body }, reply) {
    const b = body ?? {};
    connection.askGroup(
      {
        api: 'SyncGroup',
        groupId: String(b.groupId),
        generationId: Number(b.generationId),
        memberId: String(b.memberId),
        groupInstanceId: (b.groupInstanceId as string | null) ?? null,
        protocolType: (b.protocolType as string | null) ?? null,
        protocolName: (b.protocolName as string | null) ?? null,
        assignments: (b.assignments as { memberId: string; assignment: Uint8Array }[]) ?? [],
      },
      (r) => {
        const res = r as SyncGroupResponse;
        reply({
          errorCode: errorNumber(res.errorCode),
          protocolType: res.protocolType,
          protocolName: res.protocolName,
          assignment: res.assignment,
        });
      },
    );
    return undefined;
  },
};

const heartbeat: ApiHandler = {
  request: HeartbeatRequestData,
  response: HeartbeatResponseData,
  handle({ connection, body }, reply) {
    const b = body ?? {};
    connection.askGroup(
      {
        api: 'Heartbeat',
        groupId: String(b.groupId),
        generationId: Number(b.generationId),
        memberId: String(b.memberId),
        groupInstanceId: (b.groupInstanceId as string | null) ?? null,
      },
      (r) => reply({ errorCode: errorNumber(r.api === 'Heartbeat' ? r.errorCode : 'UNKNOWN_SERVER_ERROR') }),
    );
    return undefined;
  },
};

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

const offsetCommit: ApiHandler = {
  request: OffsetCommitRequestData,
  response: OffsetCommitResponseData,
  handle({ connection, body }, reply) {
    const b = body ?? {};
    type Partition = {
      partitionIndex: number;
      committedOffset: number;
      committedLeaderEpoch: number;
      committedMetadata: string | null;
    };
    connection.askGroup(
      {
        api: 'OffsetCommit',
        groupId: String(b.groupId),
        generationIdOrMemberEpoch: Number(b.generationIdOrMemberEpoch ?? -1),
        memberId: String(b.memberId ?? ''),
        groupInstanceId: (b.groupInstanceId as string | null) ?? null,
        topics: (b.topics as { name: string; partitions: Partition[] }[]) ?? [],
      },
      (r) => {
        const res = r as OffsetCommitResponse;
        reply({
          topics: res.topics.map((t) => ({
            name: t.name,
            partitions: t.partitions.map((p) => ({
              partitionIndex: p.partitionIndex,
              errorCode: errorNumber(p.errorCode),
            })),
          })),
        });
      },
    );
    return undefined;
  },
};

function offsetTopics(res: OffsetFetchResponse) {
  return res.topics.map((t) => ({
    name: t.name,
    partitions: t.partitions.map((p) => ({ ...p, errorCode: errorNumber(p.errorCode) })),
  }));
}

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
            topics: answers[i] ? offsetTopics(answers[i]) : [],
            errorCode: errorNumber(answers[i]?.errorCode ?? 'NONE'),
          })),
        });
        return;
      }
      const a = answers[0];
      reply({ topics: a ? offsetTopics(a) : [], errorCode: errorNumber(a?.errorCode ?? 'NONE') });
    };
    if (left === 0) finish();
    groups.forEach((g, i) => {
      connection.askGroup({ api: 'OffsetFetch', groupId: g.groupId, topics: g.topics }, (r) => {
        answers[i] = r as OffsetFetchResponse;
        if (--left === 0) finish();
      });
    });
    return undefined;
  },
};

export const GROUP_HANDLERS: readonly ApiHandler[] = [
  findCoordinator,
  joinGroup,
  syncGroup,
  heartbeat,
  leaveGroup,
  offsetCommit,
  offsetFetch,
];
