import type { KafkaErrorCode } from '../../errors';

/**
 * The requests a consumer sends and the responses it gets, shaped after Kafka's protocol
 * messages (clients/src/main/resources/common/message/{FindCoordinator,JoinGroup,SyncGroup,
 * Heartbeat,LeaveGroup,OffsetCommit,OffsetFetch,Fetch,ListOffsets}Request.json): field names
 * camel-cased as in those schemas, errors by Kafka's error name ('NONE' for success).
 *
 * Group membership (classic protocol), in order of a rebalance:
 *   FindCoordinator -> the broker leading __consumer_offsets partition abs(hash(groupId)) % 50
 *   JoinGroup       -> memberId, generationId, protocolName, leader; the leader also gets members
 *   SyncGroup       -> the leader sends every member's assignment; everyone gets their own
 *   Heartbeat       -> NONE while Stable; REBALANCE_IN_PROGRESS tells the member to rejoin
 *   LeaveGroup      -> an orderly goodbye (dynamic members), which starts a rebalance at once
 * A member id of '' means "unknown" (UNKNOWN_MEMBER_ID in Kafka's JoinGroupRequest).
 */

export type GroupErrorCode = KafkaErrorCode | 'NONE';

export const UNKNOWN_MEMBER_ID = '';
export const UNKNOWN_GENERATION_ID = -1;

export interface JoinGroupRequestProtocol {
  name: string;
  /** ConsumerProtocolSubscription bytes. */
  metadata: Uint8Array;
}

export interface FindCoordinatorRequest {
  api: 'FindCoordinator';
  key: string;
  /** 0 = GROUP. */
  keyType: 0;
}

export interface FindCoordinatorResponse {
  api: 'FindCoordinator';
  errorCode: GroupErrorCode;
  nodeId: number;
  /** The `__consumer_offsets` partition behind the answer, for the UI. */
  partition: number;
}

export interface JoinGroupRequest {
  api: 'JoinGroup';
  groupId: string;
  sessionTimeoutMs: number;
  rebalanceTimeoutMs: number;
  memberId: string;
  groupInstanceId: string | null;
  protocolType: 'consumer';
  protocols: JoinGroupRequestProtocol[];
  clientId: string;
  clientHost: string;
  /**
   * KIP-394 (JoinGroup v4+, what every engine consumer speaks): a new dynamic member is first
   * answered MEMBER_ID_REQUIRED with its id. False for JoinGroup v0-3, whose members join at once.
   */
  requireKnownMemberId?: boolean;
}

export interface JoinGroupResponseMember {
  memberId: string;
  groupInstanceId: string | null;
  metadata: Uint8Array;
}

export interface JoinGroupResponse {
  api: 'JoinGroup';
  errorCode: GroupErrorCode;
  generationId: number;
  protocolType: string | null;
  protocolName: string | null;
  leader: string;
  /** KIP-814: a static member that rejoined without a rebalance skips running the assignor. */
  skipAssignment: boolean;
  memberId: string;
  /** Non-empty only for the leader. */
  members: JoinGroupResponseMember[];
}

export interface SyncGroupRequest {
  api: 'SyncGroup';
  groupId: string;
  generationId: number;
  memberId: string;
  groupInstanceId: string | null;
  protocolType: string | null;
  protocolName: string | null;
  /** Sent by the leader only: ConsumerProtocolAssignment bytes per member. */
  assignments: { memberId: string; assignment: Uint8Array }[];
}

export interface SyncGroupResponse {
  api: 'SyncGroup';
  errorCode: GroupErrorCode;
  protocolType: string | null;
  protocolName: string | null;
  assignment: Uint8Array;
}

export interface HeartbeatRequest {
  api: 'Heartbeat';
  groupId: string;
  generationId: number;
  memberId: string;
  groupInstanceId: string | null;
}

export interface HeartbeatResponse {
  api: 'Heartbeat';
  errorCode: GroupErrorCode;
}

export interface LeaveGroupRequest {
  api: 'LeaveGroup';
  groupId: string;
  members: { memberId: string; groupInstanceId: string | null; reason: string | null }[];
}

export interface LeaveGroupResponse {
  api: 'LeaveGroup';
  errorCode: GroupErrorCode;
  members: { memberId: string; groupInstanceId: string | null; errorCode: GroupErrorCode }[];
}

export interface OffsetCommitRequestPartition {
  partitionIndex: number;
  committedOffset: number;
  committedLeaderEpoch: number;
  committedMetadata: string | null;
}

export interface OffsetCommitRequest {
  api: 'OffsetCommit';
  groupId: string;
  /** -1 for a commit from outside the group protocol (assign() without a group generation). */
  generationIdOrMemberEpoch: number;
  memberId: string;
  groupInstanceId: string | null;
  topics: { name: string; partitions: OffsetCommitRequestPartition[] }[];
}

export interface OffsetCommitResponse {
  api: 'OffsetCommit';
  topics: { name: string; partitions: { partitionIndex: number; errorCode: GroupErrorCode }[] }[];
}

export interface OffsetFetchRequest {
  api: 'OffsetFetch';
  groupId: string;
  /** null: every partition the group has an offset for. */
  topics: { name: string; partitionIndexes: number[] }[] | null;
  /**
   * KIP-447 (OffsetFetch v7+): answer UNSTABLE_OFFSET_COMMIT for a partition whose commit is still
   * being written instead of the offset before it. Every Kafka consumer since 2.5 sets it.
   */
  requireStable?: boolean;
}

export interface OffsetFetchResponse {
  api: 'OffsetFetch';
  errorCode: GroupErrorCode;
  topics: {
    name: string;
    partitions: {
      partitionIndex: number;
      /** -1: the group has no committed offset for this partition. */
      committedOffset: number;
      committedLeaderEpoch: number;
      metadata: string | null;
      errorCode: GroupErrorCode;
    }[];
  }[];
}

/** DescribeGroups: each group's state, protocol and members as its coordinator holds them. */
export interface DescribeGroupsRequest {
  api: 'DescribeGroups';
  groups: string[];
}

export interface DescribedGroupMember {
  memberId: string;
  groupInstanceId: string | null;
  clientId: string;
  clientHost: string;
  /** The subscription for the chosen protocol; empty unless the group is Stable. */
  memberMetadata: Uint8Array;
  /** The current assignment; empty unless the group is Stable. */
  memberAssignment: Uint8Array;
}

export interface DescribedGroup {
  groupId: string;
  errorCode: GroupErrorCode;
  /** Empty for an error, 'Dead' for a group the coordinator does not have. */
  groupState: string;
  protocolType: string;
  /** The chosen protocol, only while Stable (GroupMetadata.summary). */
  protocolData: string;
  members: DescribedGroupMember[];
}

export interface DescribeGroupsResponse {
  api: 'DescribeGroups';
  groups: DescribedGroup[];
}

/** ListGroups: the groups this broker coordinates, optionally only those in `statesFilter`. */
export interface ListGroupsRequest {
  api: 'ListGroups';
  statesFilter: string[];
}

export interface ListGroupsResponse {
  api: 'ListGroups';
  errorCode: GroupErrorCode;
  groups: { groupId: string; protocolType: string; groupState: string }[];
}

export type GroupRequest =
  | FindCoordinatorRequest
  | JoinGroupRequest
  | SyncGroupRequest
  | HeartbeatRequest
  | LeaveGroupRequest
  | OffsetCommitRequest
  | OffsetFetchRequest
  | DescribeGroupsRequest
  | ListGroupsRequest;

export type GroupApi = GroupRequest['api'];

/**
 * The nine group APIs, as KafkaApis routes them to the GroupCoordinator: a record over
 * GroupRequest's APIs, so a group API added there must be listed here too.
 */
export const GROUP_APIS: Readonly<Record<GroupApi, true>> = {
  FindCoordinator: true,
  JoinGroup: true,
  SyncGroup: true,
  Heartbeat: true,
  LeaveGroup: true,
  OffsetCommit: true,
  OffsetFetch: true,
  DescribeGroups: true,
  ListGroups: true,
};

/** Whether a request or response belongs to one of the group APIs (narrows the message). */
export function isGroupMessage<M extends { api: string }>(m: M): m is Extract<M, { api: GroupApi }> {
  return Object.hasOwn(GROUP_APIS, m.api);
}

export type GroupResponse =
  | FindCoordinatorResponse
  | JoinGroupResponse
  | SyncGroupResponse
  | HeartbeatResponse
  | LeaveGroupResponse
  | OffsetCommitResponse
  | OffsetFetchResponse
  | DescribeGroupsResponse
  | ListGroupsResponse;

export type GroupApiName = GroupRequest['api'];
