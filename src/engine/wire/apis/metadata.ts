/**
 * Metadata (key 3): the brokers, the controller and each topic's partitions with their leader,
 * leader epoch, replicas, ISR and offline replicas. Versions 0-12 as Kafka 3.9 defines them:
 * v1 adds racks, the controller and `isInternal` and makes a null topic list mean "all topics"
 * (v0 says so with an empty list); v2 the cluster id; v3 the throttle time; v4 lets the client
 * ask for auto-creation; v5 offline replicas; v7 leader epochs; v8-10 authorized operations;
 * v9 is the first flexible version; v10 topic ids; v12 may name a topic by id only (null name).
 */
import { array, errorCode, field, fields, message, nullableString, orMinusOne, throttleTimeMs } from '../schema';

export const MetadataRequestData = message(3, 'MetadataRequest', '0-12', '9+', [
  array('topics', '0+', [field('topicId', 'uuid', '10+'), field('name', 'string', '0+', { nullable: '10+' })], {
    nullable: '1+',
  }),
  field('allowAutoTopicCreation', 'bool', '4+', { default: true }),
  field('includeClusterAuthorizedOperations', 'bool', '8-10'),
  field('includeTopicAuthorizedOperations', 'bool', '8+'),
]);

/** Kafka's "not requested" value for authorized operations. */
export const AUTHORIZED_OPERATIONS_OMITTED = -2147483648;

/** A broker where clients reach it: its id, host, port and rack (the id's name differs per API). */
export function brokerEndpoint<const N extends string>(idName: N, versionSpec: string, rackSpec = versionSpec) {
  return [
    field(idName, 'int32', versionSpec),
    ...fields(versionSpec, { host: 'string', port: 'int32' }),
    nullableString('rack', rackSpec),
  ];
}

export const MetadataResponseData = message(3, 'MetadataResponse', '0-12', '9+', [
  throttleTimeMs('3+'),
  array('brokers', '0+', brokerEndpoint('nodeId', '0+', '1+')),
  nullableString('clusterId', '2+'),
  orMinusOne('controllerId', 'int32', '1+'),
  array('topics', '0+', [
    ...errorCode('0+'),
    field('name', 'string', '0+', { nullable: '12+' }),
    field('topicId', 'uuid', '10+'),
    field('isInternal', 'bool', '1+', { default: false }),
    array('partitions', '0+', [
      ...fields('0+', { errorCode: 'int16', partitionIndex: 'int32', leaderId: 'int32' }),
      orMinusOne('leaderEpoch', 'int32', '7+'),
      ...fields('0+', { replicaNodes: { arrayOf: 'int32' }, isrNodes: { arrayOf: 'int32' } }),
      array('offlineReplicas', '5+', 'int32'),
    ]),
    field('topicAuthorizedOperations', 'int32', '8+', { default: AUTHORIZED_OPERATIONS_OMITTED }),
  ]),
  field('clusterAuthorizedOperations', 'int32', '8-10', { default: AUTHORIZED_OPERATIONS_OMITTED }),
]);
