/**
 * The consumer-group APIs for real clients: each request goes over the engine's network to the
 * broker, whose KafkaApis hands it to its GroupCoordinator (the same path the engine's own
 * consumers take, so the page sees a real client's JoinGroup, SyncGroup and commits like any
 * other member's), and the answer is translated back to the wire version the client asked for.
 */
import {
  AUTHORIZED_OPERATIONS_OMITTED,
  type OffsetCommitRequest,
  type OffsetFetchResponse,
  type WireRequest,
} from '../engine/index';
import { type ApiHandler, handler } from './apiHandler';
import { errorNumber, numbered, numberedPartitions } from './errorNumber';
import { brokerRelay } from './relay';

/** One coordinator of a FindCoordinator answer (v4+ lists one per key; v0-3 answer the one key at the top level). */
interface FoundCoordinator {
  key: string;
  nodeId: number;
  host: string;
  port: number;
  errorCode: number;
  errorMessage: null;
}

const findCoordinator = handler('FindCoordinator', ({ connection, body: b, version }, reply) => {
  const keys = version >= 4 ? b.coordinatorKeys : [b.key];
  const answers: FoundCoordinator[] = new Array(keys.length);
  let left = keys.length;
  const finish = () => {
    if (version >= 4) {
      reply({ coordinators: answers });
      return;
    }
    const a = answers[0];
    reply({ errorCode: a?.errorCode, errorMessage: null, nodeId: a?.nodeId, host: a?.host, port: a?.port });
  };
  if (left === 0) finish();
  keys.forEach((key, i) => {
    const answerWith = (errorCode: number, nodeId: number) => {
      const at = nodeId >= 0 ? connection.listenerOf(nodeId) : { host: '', port: -1 };
      answers[i] = { key, nodeId, host: at.host, port: at.port, errorCode, errorMessage: null };
      if (--left === 0) finish();
    };
    // Transaction coordinators (key type 1) are not modelled.
    if (b.keyType !== 0) {
      answerWith(errorNumber('COORDINATOR_NOT_AVAILABLE'), -1);
      return;
    }
    connection.call({ api: 'FindCoordinator', key, keyType: 0 }, (res) => {
      answerWith(errorNumber(res.errorCode), res.errorCode === 'NONE' ? res.nodeId : -1);
    });
  });
  return undefined;
});

const joinGroup = brokerRelay(
  'JoinGroup',
  ({ body: b, header, version }) => {
    // v0 has no rebalance timeout: Kafka uses the session timeout for both.
    const rebalanceTimeoutMs = b.rebalanceTimeoutMs >= 0 ? b.rebalanceTimeoutMs : b.sessionTimeoutMs;
    return {
      api: 'JoinGroup',
      groupId: b.groupId,
      sessionTimeoutMs: b.sessionTimeoutMs,
      rebalanceTimeoutMs,
      memberId: b.memberId,
      groupInstanceId: b.groupInstanceId,
      protocolType: 'consumer',
      protocols: b.protocols,
      clientId: header.clientId ?? '',
      clientHost: '/127.0.0.1',
      // KIP-394 from v4 on; a v0-3 member joins with the id the coordinator makes for it.
      requireKnownMemberId: version >= 4,
    };
  },
  // A JoinGroup may be held for the whole rebalance: the client waits rebalance.timeout.ms + 5 s itself.
  ({ api: _, ...res }) => ({ ...numbered(res), throttleTimeMs: 0, protocolName: res.protocolName ?? '' }),
);

/** Who a SyncGroup or Heartbeat speaks for: the group, generation, member and static instance. */
function memberOf(b: WireRequest<'SyncGroup'> | WireRequest<'Heartbeat'>) {
  return {
    groupId: b.groupId,
    generationId: b.generationId,
    memberId: b.memberId,
    groupInstanceId: b.groupInstanceId,
  };
}

const syncGroup = brokerRelay(
  'SyncGroup',
  ({ body: b }) => ({
    api: 'SyncGroup',
    ...memberOf(b),
    protocolType: b.protocolType,
    protocolName: b.protocolName,
    assignments: b.assignments,
  }),
  ({ api: _, ...res }) => numbered(res),
);

const heartbeat = brokerRelay(
  'Heartbeat',
  ({ body }) => ({ api: 'Heartbeat', ...memberOf(body) }),
  (res) => ({ errorCode: errorNumber(res.errorCode) }),
);

const leaveGroup = handler('LeaveGroup', ({ connection, body: b, version }, reply) => {
  const members = version >= 3 ? b.members : [{ memberId: b.memberId, groupInstanceId: null, reason: null }];
  connection.call({ api: 'LeaveGroup', groupId: b.groupId, members }, (res) => {
    // Before v3 one member leaves, and its error is the answer's.
    const single = res.members[0]?.errorCode ?? 'NONE';
    reply({
      errorCode: errorNumber(version >= 3 || res.errorCode !== 'NONE' ? res.errorCode : single),
      members: res.members.map((m) => ({ ...m, errorCode: errorNumber(m.errorCode) })),
    });
  });
  return undefined;
});

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
const offsetCommit = handler('OffsetCommit', (ctx, reply) => {
  // A commit from outside the group protocol (assign()) has generation -1 and no member id.
  const { groupId, generationIdOrMemberEpoch, memberId, groupInstanceId, topics } = ctx.body;
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
  const request: OffsetCommitRequest = {
    api: 'OffsetCommit',
    groupId,
    generationIdOrMemberEpoch,
    memberId,
    groupInstanceId,
    topics: valid,
  };
  ctx.connection.call(request, (res) => {
    for (const t of numberedPartitions(res.topics)) {
      const merged = answer.get(t.name) ?? { name: t.name, partitions: [] };
      merged.partitions.push(...t.partitions);
      answer.set(t.name, merged);
    }
    reply({ topics: [...answer.values()] });
  });
  return undefined;
});

const offsetFetch = handler('OffsetFetch', ({ connection, body: b, version }, reply) => {
  const groups = version >= 8 ? b.groups : [{ groupId: b.groupId, topics: b.topics }];
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
    const requireStable = version >= 7 && b.requireStable;
    connection.call({ api: 'OffsetFetch', groupId: g.groupId, topics: g.topics, requireStable }, (res) => {
      answers[i] = res;
      if (--left === 0) finish();
    });
  });
  return undefined;
});

/**
 * DescribeGroups: each group's summary from its coordinator (state, protocol, members with their
 * subscription and assignment while Stable). Kafka has no authorizer here, so requested
 * authorized operations are every operation a group supports (READ, DELETE, DESCRIBE).
 */
const describeGroups = brokerRelay(
  'DescribeGroups',
  ({ body }) => ({ api: 'DescribeGroups', groups: body.groups }),
  (res, { body }) => ({
    throttleTimeMs: 0,
    groups: res.groups.map((g) => ({
      ...numbered(g),
      authorizedOperations: body.includeAuthorizedOperations ? GROUP_OPERATIONS : AUTHORIZED_OPERATIONS_OMITTED,
    })),
  }),
);

/** AclOperation bits a group supports (READ 3, DELETE 6, DESCRIBE 8). */
const GROUP_OPERATIONS = (1 << 3) | (1 << 6) | (1 << 8);

/** ListGroups: the groups this broker coordinates, by state from v4 (KIP-518). */
const listGroups = brokerRelay(
  'ListGroups',
  ({ body }) => ({ api: 'ListGroups', statesFilter: body.statesFilter }),
  ({ api: _, ...res }) => ({ throttleTimeMs: 0, ...numbered(res) }),
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
