/**
 * The classic consumer-group protocol as Kafka 3.9 defines it: FindCoordinator (key 10, 0-4; v4
 * batches keys, KIP-699), JoinGroup (11, 0-9; v4 MEMBER_ID_REQUIRED, v5 static members, v6
 * flexible, v9 skipAssignment), SyncGroup (14, 0-5), Heartbeat (12, 0-4), LeaveGroup (13, 0-5; v3
 * batches members, KIP-345), OffsetCommit (8, 2-9) and OffsetFetch (9, 1-9; v8 batches groups).
 */
import {
  array,
  errorCode,
  field,
  fields,
  message,
  nullableString,
  orMinusOne,
  perTopic,
  throttleTimeMs,
} from '../schema';

export const FindCoordinatorRequestData = message(10, 'FindCoordinatorRequest', '0-4', '3+', [
  field('key', 'string', '0-3'),
  field('keyType', 'int8', '1+'),
  array('coordinatorKeys', '4+', 'string'),
]);

export const FindCoordinatorResponseData = message(10, 'FindCoordinatorResponse', '0-4', '3+', [
  throttleTimeMs('1+'),
  ...errorCode('0-3', '1-3'),
  ...fields('0-3', { nodeId: 'int32', host: 'string', port: 'int32' }),
  array('coordinators', '4+', [
    ...fields('4+', { key: 'string', nodeId: 'int32', host: 'string', port: 'int32' }),
    ...errorCode('4+', '4+'),
  ]),
]);

/** The member fields most group requests start with. */
const groupMember = (generationSpec: string, instanceSpec: string) => [
  field('groupId', 'string', '0+'),
  field('generationId', 'int32', generationSpec),
  field('memberId', 'string', '0+'),
  nullableString('groupInstanceId', instanceSpec),
];

export const JoinGroupRequestData = message(11, 'JoinGroupRequest', '0-9', '6+', [
  ...fields('0+', { groupId: 'string', sessionTimeoutMs: 'int32' }),
  orMinusOne('rebalanceTimeoutMs', 'int32', '1+'),
  field('memberId', 'string', '0+'),
  nullableString('groupInstanceId', '5+'),
  field('protocolType', 'string', '0+'),
  array('protocols', '0+', fields('0+', { name: 'string', metadata: 'bytes' })),
  nullableString('reason', '8+'),
]);

export const JoinGroupResponseData = message(11, 'JoinGroupResponse', '0-9', '6+', [
  throttleTimeMs('2+'),
  ...errorCode('0+'),
  orMinusOne('generationId', 'int32', '0+'),
  nullableString('protocolType', '7+'),
  field('protocolName', 'string', '0+', { nullable: '7+' }),
  field('leader', 'string', '0+'),
  field('skipAssignment', 'bool', '9+'),
  field('memberId', 'string', '0+'),
  array('members', '0+', [
    field('memberId', 'string', '0+'),
    nullableString('groupInstanceId', '5+'),
    field('metadata', 'bytes', '0+'),
  ]),
]);

export const SyncGroupRequestData = message(14, 'SyncGroupRequest', '0-5', '4+', [
  ...groupMember('0+', '3+'),
  nullableString('protocolType', '5+'),
  nullableString('protocolName', '5+'),
  array('assignments', '0+', fields('0+', { memberId: 'string', assignment: 'bytes' })),
]);

export const SyncGroupResponseData = message(14, 'SyncGroupResponse', '0-5', '4+', [
  throttleTimeMs('1+'),
  ...errorCode('0+'),
  nullableString('protocolType', '5+'),
  nullableString('protocolName', '5+'),
  field('assignment', 'bytes', '0+'),
]);

export const HeartbeatRequestData = message(12, 'HeartbeatRequest', '0-4', '4+', groupMember('0+', '3+'));

export const HeartbeatResponseData = message(12, 'HeartbeatResponse', '0-4', '4+', [
  throttleTimeMs('1+'),
  ...errorCode('0+'),
]);

export const LeaveGroupRequestData = message(13, 'LeaveGroupRequest', '0-5', '4+', [
  field('groupId', 'string', '0+'),
  field('memberId', 'string', '0-2'),
  array('members', '3+', [
    field('memberId', 'string', '3+'),
    nullableString('groupInstanceId', '3+'),
    nullableString('reason', '5+'),
  ]),
]);

export const LeaveGroupResponseData = message(13, 'LeaveGroupResponse', '0-5', '4+', [
  throttleTimeMs('1+'),
  ...errorCode('0+'),
  array('members', '3+', [
    field('memberId', 'string', '3+'),
    field('groupInstanceId', 'string', '3+', { nullable: '3+' }),
    field('errorCode', 'int16', '3+'),
  ]),
]);

export const OffsetCommitRequestData = message(8, 'OffsetCommitRequest', '2-9', '8+', [
  field('groupId', 'string', '0+'),
  orMinusOne('generationIdOrMemberEpoch', 'int32', '1+'),
  field('memberId', 'string', '1+'),
  nullableString('groupInstanceId', '7+'),
  orMinusOne('retentionTimeMs', 'int64', '2-4'),
  perTopic('topics', [
    ...fields('0+', { partitionIndex: 'int32', committedOffset: 'int64' }),
    orMinusOne('committedLeaderEpoch', 'int32', '6+'),
    field('committedMetadata', 'string', '0+', { nullable: '0+' }),
  ]),
]);

export const OffsetCommitResponseData = message(8, 'OffsetCommitResponse', '2-9', '8+', [
  throttleTimeMs('3+'),
  perTopic('topics', fields('0+', { partitionIndex: 'int32', errorCode: 'int16' })),
]);

const offsetFetchPartitions = (v: string) =>
  array('partitions', v, [
    ...fields(v, { partitionIndex: 'int32', committedOffset: 'int64' }),
    orMinusOne('committedLeaderEpoch', 'int32', v === '0-7' ? '5-7' : v),
    field('metadata', 'string', v, { nullable: v }),
    field('errorCode', 'int16', v),
  ]);

/** The topics and partitions asked about; null for every partition the group has an offset for. */
const offsetFetchTopics = (v: string, nullableSpec: string) =>
  array('topics', v, [field('name', 'string', v), array('partitionIndexes', v, 'int32')], { nullable: nullableSpec });

export const OffsetFetchRequestData = message(9, 'OffsetFetchRequest', '1-9', '6+', [
  field('groupId', 'string', '0-7'),
  offsetFetchTopics('0-7', '2-7'),
  array('groups', '8+', [
    field('groupId', 'string', '8+'),
    nullableString('memberId', '9+'),
    orMinusOne('memberEpoch', 'int32', '9+'),
    offsetFetchTopics('8+', '8+'),
  ]),
  field('requireStable', 'bool', '7+'),
]);

export const OffsetFetchResponseData = message(9, 'OffsetFetchResponse', '1-9', '6+', [
  throttleTimeMs('3+'),
  array('topics', '0-7', [field('name', 'string', '0-7'), offsetFetchPartitions('0-7')]),
  field('errorCode', 'int16', '2-7'),
  array('groups', '8+', [
    field('groupId', 'string', '8+'),
    array('topics', '8+', [field('name', 'string', '8+'), offsetFetchPartitions('8+')]),
    field('errorCode', 'int16', '8+'),
  ]),
]);
