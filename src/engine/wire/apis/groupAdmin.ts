/**
 * The group administration APIs of the classic protocol: DescribeGroups (key 15, 0-5: v3 may ask
 * for authorized operations, v4 adds members' group.instance.id, v5 is flexible) and ListGroups
 * (16, 0-4: v3 is flexible, v4 filters by state and answers each group's state, KIP-518).
 */
import { array, errorCode, field, fields, message, nullableString, throttleTimeMs } from '../schema';
import { AUTHORIZED_OPERATIONS_OMITTED } from './metadata';

export const DescribeGroupsRequestData = message(15, 'DescribeGroupsRequest', '0-5', '5+', [
  array('groups', '0+', 'string'),
  field('includeAuthorizedOperations', 'bool', '3+'),
]);

const describedMember = [
  field('memberId', 'string', '0+'),
  nullableString('groupInstanceId', '4+'),
  // Metadata and assignment are empty unless the group is Stable (GroupMetadata.summary).
  ...fields('0+', { clientId: 'string', clientHost: 'string', memberMetadata: 'bytes', memberAssignment: 'bytes' }),
];

export const DescribeGroupsResponseData = message(15, 'DescribeGroupsResponse', '0-5', '5+', [
  throttleTimeMs('1+'),
  array('groups', '0+', [
    ...errorCode('0+'),
    ...fields('0+', { groupId: 'string', groupState: 'string', protocolType: 'string', protocolData: 'string' }),
    array('members', '0+', describedMember),
    field('authorizedOperations', 'int32', '3+', { default: AUTHORIZED_OPERATIONS_OMITTED }),
  ]),
]);

export const ListGroupsRequestData = message(16, 'ListGroupsRequest', '0-4', '3+', [
  array('statesFilter', '4+', 'string'),
]);

export const ListGroupsResponseData = message(16, 'ListGroupsResponse', '0-4', '3+', [
  throttleTimeMs('1+'),
  ...errorCode('0+'),
  array('groups', '0+', [
    ...fields('0+', { groupId: 'string', protocolType: 'string' }),
    field('groupState', 'string', '4+'),
  ]),
]);
