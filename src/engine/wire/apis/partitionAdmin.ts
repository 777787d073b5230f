/**
 * The Admin client's APIs that move partitions between brokers: ElectLeaders (key 43, 0-2,
 * flexible from 2: v1 chooses PREFERRED (0) or UNCLEAN (1) and adds a top-level error, KIP-460;
 * null topics mean every partition), AlterPartitionReassignments (key 45, 0, flexible: each
 * partition's target replicas, null cancelling, KIP-455) and ListPartitionReassignments (key 46,
 * 0, flexible: the reassignments in progress, null topics meaning all).
 */
import { array, errorCode, field, message, throttleTimeMs } from '../schema';

/** ElectionType. */
export const ELECTION_TYPE = { PREFERRED: 0, UNCLEAN: 1 } as const;

export const ElectLeadersRequestData = message(43, 'ElectLeadersRequest', '0-2', '2+', [
  field('electionType', 'int8', '1+'),
  array('topicPartitions', '0+', [field('topic', 'string', '0+'), array('partitions', '0+', 'int32')], {
    nullable: '0+',
    default: null,
  }),
  field('timeoutMs', 'int32', '0+', { default: 60_000 }),
]);

export const ElectLeadersResponseData = message(43, 'ElectLeadersResponse', '0-2', '2+', [
  throttleTimeMs('0+'),
  field('errorCode', 'int16', '1+'),
  array('replicaElectionResults', '0+', [
    field('topic', 'string', '0+'),
    array('partitionResult', '0+', [field('partitionId', 'int32', '0+'), ...errorCode('0+', '0+')]),
  ]),
]);

export const AlterPartitionReassignmentsRequestData = message(45, 'AlterPartitionReassignmentsRequest', '0', '0+', [
  field('timeoutMs', 'int32', '0+', { default: 60_000 }),
  array('topics', '0+', [
    field('name', 'string', '0+'),
    array('partitions', '0+', [
      field('partitionIndex', 'int32', '0+'),
      array('replicas', '0+', 'int32', { nullable: '0+', default: null }),
    ]),
  ]),
]);

export const AlterPartitionReassignmentsResponseData = message(45, 'AlterPartitionReassignmentsResponse', '0', '0+', [
  throttleTimeMs('0+'),
  ...errorCode('0+', '0+'),
  array('responses', '0+', [
    field('name', 'string', '0+'),
    array('partitions', '0+', [field('partitionIndex', 'int32', '0+'), ...errorCode('0+', '0+')]),
  ]),
]);

export const ListPartitionReassignmentsRequestData = message(46, 'ListPartitionReassignmentsRequest', '0', '0+', [
  field('timeoutMs', 'int32', '0+', { default: 60_000 }),
  array('topics', '0+', [field('name', 'string', '0+'), array('partitionIndexes', '0+', 'int32')], {
    nullable: '0+',
    default: null,
  }),
]);

export const ListPartitionReassignmentsResponseData = message(46, 'ListPartitionReassignmentsResponse', '0', '0+', [
  throttleTimeMs('0+'),
  ...errorCode('0+', '0+'),
  array('topics', '0+', [
    field('name', 'string', '0+'),
    array('partitions', '0+', [
      field('partitionIndex', 'int32', '0+'),
      array('replicas', '0+', 'int32'),
      array('addingReplicas', '0+', 'int32'),
      array('removingReplicas', '0+', 'int32'),
    ]),
  ]),
]);
