/**
 * The classic consumer-group protocol as Kafka 3.9 defines it: FindCoordinator (key 10, 0-4; v4
 * batches keys, KIP-699), JoinGroup (11, 0-9; v4 MEMBER_ID_REQUIRED, v5 static members, v6
 * flexible, v9 skipAssignment), SyncGroup (14, 0-5), Heartbeat (12, 0-4), LeaveGroup (13, 0-5; v3
 * batches members, KIP-345), OffsetCommit (8, 2-9) and OffsetFetch (9, 1-9; v8 batches groups).
 */
import { field, message, perTopic } from '../schema';

export const FindCoordinatorRequestData = message(10, 'FindCoordinatorRequest', '0-4', '3+', [
  field('key', 'string', '0-3'),
  field('keyType', 'int8', '1+'),
  field('coordinatorKeys', { arrayOf: 'string' }, '4+'),
]);

export const FindCoordinatorResponseData = message(10, 'FindCoordinatorResponse', '0-4', '3+', [
  field('throttleTimeMs', 'int32', '1+'),
  field('errorCode', 'int16', '0-3'),
  field('errorMessage', 'string', '1-3', { nullable: '1-3', default: null }),
  field('nodeId', 'int32', '0-3'),
  field('host', 'string', '0-3'),
  field('port', 'int32', '0-3'),
  field(
    'coordinators',
    {
      arrayOf: [
        field('key', 'string', '4+'),
        field('nodeId', 'int32', '4+'),
        field('host', 'string', '4+'),
        field('port', 'int32', '4+'),
        field('errorCode', 'int16', '4+'),
        field('errorMessage', 'string', '4+', { nullable: '4+', default: null }),
      ],
    },
    '4+',
  ),
]);

export const JoinGroupRequestData = message(11, 'JoinGroupRequest', '0-9', '6+', [
  field('groupId', 'string', '0+'),
  field('sessionTimeoutMs', 'int32', '0+'),
  field('rebalanceTimeoutMs', 'int32', '1+', { default: -1 }),
  field('memberId', 'string', '0+'),
  field('groupInstanceId', 'string', '5+', { nullable: '5+', default: null }),
  field('protocolType', 'string', '0+'),
  field('protocols', { arrayOf: [field('name', 'string', '0+'), field('metadata', 'bytes', '0+')] }, '0+'),
  field('reason', 'string', '8+', { nullable: '8+', default: null }),
]);

export const JoinGroupResponseData = message(11, 'JoinGroupResponse', '0-9', '6+', [
  field('throttleTimeMs', 'int32', '2+'),
  field('errorCode', 'int16', '0+'),
  field('generationId', 'int32', '0+', { default: -1 }),
  field('protocolType', 'string', '7+', { nullable: '7+', default: null }),
  field('protocolName', 'string', '0+', { nullable: '7+' }),
  field('leader', 'string', '0+'),
  field('skipAssignment', 'bool', '9+'),
  field('memberId', 'string', '0+'),
  field(
    'members',
    {
      arrayOf: [
        field('memberId', 'string', '0+'),
        field('groupInstanceId', 'string', '5+', { nullable: '5+', default: null }),
        field('metadata', 'bytes', '0+'),
      ],
    },
    '0+',
  ),
]);

export const SyncGroupRequestData = message(14, 'SyncGroupRequest', '0-5', '4+', [
  field('groupId', 'string', '0+'),
  field('generationId', 'int32', '0+'),
  field('memberId', 'string', '0+'),
  field('groupInstanceId', 'string', '3+', { nullable: '3+', default: null }),
  field('protocolType', 'string', '5+', { nullable: '5+', default: null }),
  field('protocolName', 'string', '5+', { nullable: '5+', default: null }),
  field('assignments', { arrayOf: [field('memberId', 'string', '0+'), field('assignment', 'bytes', '0+')] }, '0+'),
]);

export const SyncGroupResponseData = message(14, 'SyncGroupResponse', '0-5', '4+', [
  field('throttleTimeMs', 'int32', '1+'),
  field('errorCode', 'int16', '0+'),
  field('protocolType', 'string', '5+', { nullable: '5+', default: null }),
  field('protocolName', 'string', '5+', { nullable: '5+', default: null }),
  field('assignment', 'bytes', '0+'),
]);

export const HeartbeatRequestData = message(12, 'HeartbeatRequest', '0-4', '4+', [
  field('groupId', 'string', '0+'),
  field('generationId', 'int32', '0+'),
  field('memberId', 'string', '0+'),
  field('groupInstanceId', 'string', '3+', { nullable: '3+', default: null }),
]);

export const HeartbeatResponseData = message(12, 'HeartbeatResponse', '0-4', '4+', [
  field('throttleTimeMs', 'int32', '1+'),
  field('errorCode', 'int16', '0+'),
]);

export const LeaveGroupRequestData = message(13, 'LeaveGroupRequest', '0-5', '4+', [
  field('groupId', 'string', '0+'),
  field('memberId', 'string', '0-2'),
  field(
    'members',
    {
      arrayOf: [
        field('memberId', 'string', '3+'),
        field('groupInstanceId', 'string', '3+', { nullable: '3+', default: null }),
        field('reason', 'string', '5+', { nullable: '5+', default: null }),
      ],
    },
    '3+',
  ),
]);

export const LeaveGroupResponseData = message(13, 'LeaveGroupResponse', '0-5', '4+', [
  field('throttleTimeMs', 'int32', '1+'),
  field('errorCode', 'int16', '0+'),
  field(
    'members',
    {
      arrayOf: [
        field('memberId', 'string', '3+'),
        field('groupInstanceId', 'string', '3+', { nullable: '3+' }),
        field('errorCode', 'int16', '3+'),
      ],
    },
    '3+',
  ),
]);

export const OffsetCommitRequestData = message(8, 'OffsetCommitRequest', '2-9', '8+', [
  field('groupId', 'string', '0+'),
  field('generationIdOrMemberEpoch', 'int32', '1+', { default: -1 }),
  field('memberId', 'string', '1+'),
  field('groupInstanceId', 'string', '7+', { nullable: '7+', default: null }),
  field('retentionTimeMs', 'int64', '2-4', { default: -1 }),
  perTopic('topics', [
    field('partitionIndex', 'int32', '0+'),
    field('committedOffset', 'int64', '0+'),
    field('committedLeaderEpoch', 'int32', '6+', { default: -1 }),
    field('committedMetadata', 'string', '0+', { nullable: '0+' }),
  ]),
]);

export const OffsetCommitResponseData = message(8, 'OffsetCommitResponse', '2-9', '8+', [
  field('throttleTimeMs', 'int32', '3+'),
  field(
    'topics',
    {
      arrayOf: [
        field('name', 'string', '0+'),
        field(
          'partitions',
          { arrayOf: [field('partitionIndex', 'int32', '0+'), field('errorCode', 'int16', '0+')] },
          '0+',
        ),
      ],
    },
    '0+',
  ),
]);

const offsetFetchPartitions = (v: string) =>
  field(
    'partitions',
    {
      arrayOf: [
        field('partitionIndex', 'int32', v),
        field('committedOffset', 'int64', v),
        field('committedLeaderEpoch', 'int32', v === '0-7' ? '5-7' : v, { default: -1 }),
        field('metadata', 'string', v, { nullable: v }),
        field('errorCode', 'int16', v),
      ],
    },
    v,
  );

export const OffsetFetchRequestData = message(9, 'OffsetFetchRequest', '1-9', '6+', [
  field('groupId', 'string', '0-7'),
  field(
    'topics',
    { arrayOf: [field('name', 'string', '0-7'), field('partitionIndexes', { arrayOf: 'int32' }, '0-7')] },
    '0-7',
    { nullable: '2-7' },
  ),
  field(
    'groups',
    {
      arrayOf: [
        field('groupId', 'string', '8+'),
        field('memberId', 'string', '9+', { nullable: '9+', default: null }),
        field('memberEpoch', 'int32', '9+', { default: -1 }),
        field(
          'topics',
          { arrayOf: [field('name', 'string', '8+'), field('partitionIndexes', { arrayOf: 'int32' }, '8+')] },
          '8+',
          { nullable: '8+' },
        ),
      ],
    },
    '8+',
  ),
  field('requireStable', 'bool', '7+'),
]);

export const OffsetFetchResponseData = message(9, 'OffsetFetchResponse', '1-9', '6+', [
  field('throttleTimeMs', 'int32', '3+'),
  field('topics', { arrayOf: [field('name', 'string', '0-7'), offsetFetchPartitions('0-7')] }, '0-7'),
  field('errorCode', 'int16', '2-7'),
  field(
    'groups',
    {
      arrayOf: [
        field('groupId', 'string', '8+'),
        field('topics', { arrayOf: [field('name', 'string', '8+'), offsetFetchPartitions('8+')] }, '8+'),
        field('errorCode', 'int16', '8+'),
      ],
    },
    '8+',
  ),
]);
