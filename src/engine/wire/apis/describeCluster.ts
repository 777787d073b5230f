/**
 * DescribeCluster (key 60, 0-1, always flexible; KIP-700): the brokers, the controller and the
 * cluster id, what the Admin client's describeCluster asks for. v1 adds the endpoint type
 * (1 = brokers, 2 = controllers; a ZooKeeper-mode broker describes only brokers).
 */
import { array, errorCode, field, message, orMinusOne, throttleTimeMs } from '../schema';
import { AUTHORIZED_OPERATIONS_OMITTED, brokerEndpoint } from './metadata';

export const DescribeClusterRequestData = message(60, 'DescribeClusterRequest', '0-1', '0+', [
  field('includeClusterAuthorizedOperations', 'bool', '0+'),
  field('endpointType', 'int8', '1+', { default: 1 }),
]);

export const DescribeClusterResponseData = message(60, 'DescribeClusterResponse', '0-1', '0+', [
  throttleTimeMs('0+'),
  ...errorCode('0+', '0+'),
  field('endpointType', 'int8', '1+', { default: 1 }),
  field('clusterId', 'string', '0+'),
  orMinusOne('controllerId', 'int32', '0+'),
  array('brokers', '0+', brokerEndpoint('brokerId', '0+')),
  field('clusterAuthorizedOperations', 'int32', '0+', { default: AUTHORIZED_OPERATIONS_OMITTED }),
]);
