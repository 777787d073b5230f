/**
 * The group administration APIs of the classic protocol: DescribeGroups (key 15, 0-5: v3 may ask
 * for authorized operations, v4 adds members' group.instance.id, v5 is flexible) and ListGroups
 * (16, 0-4: v3 is flexible, v4 filters by state and answers each group's state, KIP-518).
 */
import { AUTHORIZED_OPERATIONS_OMITTED } from './metadata';
import { field, message } from '../schema';

export const DescribeGroupsRequestData = message(15, 'DescribeGroupsRequest', '0-5', '5+', [
  field('groups', { arrayOf: 'string' }, '0+'),
  field('includeAuthorizedOperations', 'bool', '3+'),
]);

const describedMember = [
  field('memberId', 'string', '0+'),
  field('groupInstanceId', 'string', '4+', { nullable: '4+', default: null }),
  field('clientId', 'string', '0+'),
  field('clientHost', 'string', '0+'),
  // Both are empty unless the group is Stable (GroupMetadata.summary).
  field('memberMetadata', 'bytes', '0+'),
  field('memberAssignment', 'bytes', '0+'),
];

export const DescribeGroupsResponseData = message(15, 'DescribeGroupsResponse', '0-5', '5+', [
  field('throttleTimeMs', 'int32', '1+'),
  field(
    'groups',
    {
      arrayOf: [
        field('errorCode', 'int16', '0+'),
        field('groupId', 'string', '0+'),
        field('groupState', 'string', '0+'),
        field('protocolType', 'string', '0+'),
        field('protocolData', 'string', '0+'),
        field('members', { arrayOf: describedMember }, '0+'),
        field('authorizedOperations', 'int32', '3+', { default: AUTHORIZED_OPERATIONS_OMITTED }),
      ],
    },
    '0+',
  ),
]);

export const ListGroupsRequestData = message(16, 'ListGroupsRequest', '0-4', '3+', [
  field('statesFilter', { arrayOf: 'string' }, '4+'),
]);

export const ListGroupsResponseData = message(16, 'ListGroupsResponse', '0-4', '3+', [
  field('throttleTimeMs', 'int32', '1+'),
  field('errorCode', 'int16', '0+'),
  field(
    'groups',
    {
      arrayOf: [
        field('groupId', 'string', '0+'),
        field('protocolType', 'string', '0+'),
        field('groupState', 'string', '4+'),
      ],
    },
    '0+',
  ),
]);
