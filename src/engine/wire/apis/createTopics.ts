/**
 * CreateTopics (key 19), versions 2-7 (0-1 are gone in Kafka 4.0): topics with a partition count
 * and replication factor (-1: the broker's num.partitions / default.replication.factor, KIP-464,
 * v4+) or a manual assignment, and configs; validateOnly checks without creating. v5 is flexible
 * and answers the created topic's partitions, replication factor and configs (KIP-525); v7 adds
 * the topic id.
 */
import { array, errorCode, field, fields, message, orMinusOne, throttleTimeMs } from '../schema';
import { configNameAndValue } from './describeConfigs';

export const CreateTopicsRequestData = message(19, 'CreateTopicsRequest', '2-7', '5+', [
  array('topics', '0+', [
    ...fields('0+', { name: 'string', numPartitions: 'int32', replicationFactor: 'int16' }),
    array('assignments', '0+', [field('partitionIndex', 'int32', '0+'), array('brokerIds', '0+', 'int32')]),
    array('configs', '0+', configNameAndValue('0+')),
  ]),
  field('timeoutMs', 'int32', '0+', { default: 60_000 }),
  field('validateOnly', 'bool', '1+'),
]);

export const CreateTopicsResponseData = message(19, 'CreateTopicsResponse', '2-7', '5+', [
  throttleTimeMs('2+'),
  array('topics', '0+', [
    field('name', 'string', '0+'),
    field('topicId', 'uuid', '7+'),
    ...errorCode('0+', '1+'),
    field('topicConfigErrorCode', 'int16', '5+', { tag: 0 }),
    orMinusOne('numPartitions', 'int32', '5+'),
    orMinusOne('replicationFactor', 'int16', '5+'),
    array(
      'configs',
      '5+',
      [
        ...configNameAndValue('5+'),
        field('readOnly', 'bool', '5+'),
        orMinusOne('configSource', 'int8', '5+'),
        field('isSensitive', 'bool', '5+'),
      ],
      { nullable: '5+', default: null },
    ),
  ]),
]);
