/**
 * Metadata (key 3): the brokers, the controller and each topic's partitions with their leader,
 * leader epoch, replicas, ISR and offline replicas. Versions 0-12 as Kafka 3.9 defines them:
 * v1 adds racks, the controller and `isInternal` and makes a null topic list mean "all topics"
 * (v0 says so with an empty list); v2 the cluster id; v3 the throttle time; v4 lets the client
 * ask for auto-creation; v5 offline replicas; v7 leader epochs; v8-10 authorized operations;
 * v9 is the first flexible version; v10 topic ids; v12 may name a topic by id only (null name).
 */
import { field, message } from '../schema';

export const MetadataRequestData = message(3, 'MetadataRequest', '0-12', '9+', [
  field(
    'topics',
    { arrayOf: [field('topicId', 'uuid', '10+'), field('name', 'string', '0+', { nullable: '10+' })] },
    '0+',
    { nullable: '1+' },
  ),
  field('allowAutoTopicCreation', 'bool', '4+', { default: true }),
  field('includeClusterAuthorizedOperations', 'bool', '8-10'),
  field('includeTopicAuthorizedOperations', 'bool', '8+'),
]);

/** Kafka's "not requested" value for authorized operations. */
export const AUTHORIZED_OPERATIONS_OMITTED = -2147483648;

export const MetadataResponseData = message(3, 'MetadataResponse', '0-12', '9+', [
  field('throttleTimeMs', 'int32', '3+'),
  field(
    'brokers',
    {
      arrayOf: [
        field('nodeId', 'int32', '0+'),
        field('host', 'string', '0+'),
        field('port', 'int32', '0+'),
        field('rack', 'string', '1+', { nullable: '1+', default: null }),
      ],
    },
    '0+',
  ),
  field('clusterId', 'string', '2+', { nullable: '2+', default: null }),
  field('controllerId', 'int32', '1+', { default: -1 }),
  field(
    'topics',
    {
      arrayOf: [
        field('errorCode', 'int16', '0+'),
        field('name', 'string', '0+', { nullable: '12+' }),
        field('topicId', 'uuid', '10+'),
        field('isInternal', 'bool', '1+', { default: false }),
        field(
          'partitions',
          {
            arrayOf: [
              field('errorCode', 'int16', '0+'),
              field('partitionIndex', 'int32', '0+'),
              field('leaderId', 'int32', '0+'),
              field('leaderEpoch', 'int32', '7+', { default: -1 }),
              field('replicaNodes', { arrayOf: 'int32' }, '0+'),
              field('isrNodes', { arrayOf: 'int32' }, '0+'),
              field('offlineReplicas', { arrayOf: 'int32' }, '5+'),
            ],
          },
          '0+',
        ),
        field('topicAuthorizedOperations', 'int32', '8+', { default: AUTHORIZED_OPERATIONS_OMITTED }),
      ],
    },
    '0+',
  ),
  field('clusterAuthorizedOperations', 'int32', '8-10', { default: AUTHORIZED_OPERATIONS_OMITTED }),
]);
