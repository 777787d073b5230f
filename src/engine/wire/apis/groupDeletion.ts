/**
 * Deleting what a consumer group left behind: DeleteGroups (key 42, 0-2, flexible from 2: Empty
 * groups and their offsets, KIP-229) and OffsetDelete (key 47, 0, not flexible: a group's
 * committed offsets of some partitions, refused for topics its members still subscribe to,
 * KIP-496). Both are sent to the group's coordinator.
 */
import { array, errorCode, field, fields, message, throttleTimeMs } from '../schema';

export const DeleteGroupsRequestData = message(42, 'DeleteGroupsRequest', '0-2', '2+', [
  array('groupsNames', '0+', 'string'),
]);

export const DeleteGroupsResponseData = message(42, 'DeleteGroupsResponse', '0-2', '2+', [
  throttleTimeMs('0+'),
  array('results', '0+', [field('groupId', 'string', '0+'), ...errorCode('0+')]),
]);

export const OffsetDeleteRequestData = message(47, 'OffsetDeleteRequest', '0', 'none', [
  field('groupId', 'string', '0+'),
  array('topics', '0+', [
    field('name', 'string', '0+'),
    array('partitions', '0+', [field('partitionIndex', 'int32', '0+')]),
  ]),
]);

export const OffsetDeleteResponseData = message(47, 'OffsetDeleteResponse', '0', 'none', [
  ...errorCode('0+'),
  throttleTimeMs('0+'),
  array('topics', '0+', [
    field('name', 'string', '0+'),
    array('partitions', '0+', [...fields('0+', { partitionIndex: 'int32' }), ...errorCode('0+')]),
  ]),
]);
