/**
 * DescribeCluster (key 60, 0-1, always flexible; KIP-700): the brokers, the controller and the
 * cluster id, what the Admin client's describeCluster asks for. v1 adds the endpoint type
 * (1 = brokers, 2 = controllers; a ZooKeeper-mode broker describes only brokers).
 */
import { AUTHORIZED_OPERATIONS_OMITTED } from './metadata';
import { field, message } from '../schema';

export const DescribeClusterRequestData = message(60, 'DescribeClusterRequest', '0-1', '0+', [
  field('includeClusterAuthorizedOperations', 'bool', '0+'),
  field('endpointType', 'int8', '1+', { default: 1 }),
]);

export const DescribeClusterResponseData = message(60, 'DescribeClusterResponse', '0-1', '0+', [
  field('throttleTimeMs', 'int32', '0+'),
  field('errorCode', 'int16', '0+'),
  field('errorMessage', 'string', '0+', { nullable: '0+', default: null }),
  field('endpointType', 'int8', '1+', { default: 1 }),
  field('clusterId', 'string', '0+'),
  field('controllerId', 'int32', '0+', { default: -1 }),
  field(
    'brokers',
    {
      arrayOf: [
        field('brokerId', 'int32', '0+'),
        field('host', 'string', '0+'),
        field('port', 'int32', '0+'),
        field('rack', 'string', '0+', { nullable: '0+', default: null }),
      ],
    },
    '0+',
  ),
  field('clusterAuthorizedOperations', 'int32', '0+', { default: AUTHORIZED_OPERATIONS_OMITTED }),
]);
