/**
 * CreateTopics (key 19), versions 2-7 (0-1 are gone in Kafka 4.0): topics with a partition count
 * and replication factor (-1: the broker's num.partitions / default.replication.factor, KIP-464,
 * v4+) or a manual assignment, and configs; validateOnly checks without creating. v5 is flexible
 * and answers the created topic's partitions, replication factor and configs (KIP-525); v7 adds
 * the topic id.
 */
import { field, message } from '../schema';

export const CreateTopicsRequestData = message(19, 'CreateTopicsRequest', '2-7', '5+', [
  field(
    'topics',
    {
      arrayOf: [
        field('name', 'string', '0+'),
        field('numPartitions', 'int32', '0+'),
        field('replicationFactor', 'int16', '0+'),
        field(
          'assignments',
          { arrayOf: [field('partitionIndex', 'int32', '0+'), field('brokerIds', { arrayOf: 'int32' }, '0+')] },
          '0+',
        ),
        field(
          'configs',
          { arrayOf: [field('name', 'string', '0+'), field('value', 'string', '0+', { nullable: '0+' })] },
          '0+',
        ),
      ],
    },
    '0+',
  ),
  field('timeoutMs', 'int32', '0+', { default: 60_000 }),
  field('validateOnly', 'bool', '1+'),
]);

const createdConfig = [
  field('name', 'string', '5+'),
  field('value', 'string', '5+', { nullable: '5+' }),
  field('readOnly', 'bool', '5+'),
  field('configSource', 'int8', '5+', { default: -1 }),
  field('isSensitive', 'bool', '5+'),
];

export const CreateTopicsResponseData = message(19, 'CreateTopicsResponse', '2-7', '5+', [
  field('throttleTimeMs', 'int32', '2+'),
  field(
    'topics',
    {
      arrayOf: [
        field('name', 'string', '0+'),
        field('topicId', 'uuid', '7+'),
        field('errorCode', 'int16', '0+'),
        field('errorMessage', 'string', '1+', { nullable: '0+', default: null }),
        field('topicConfigErrorCode', 'int16', '5+', { tag: 0 }),
        field('numPartitions', 'int32', '5+', { default: -1 }),
        field('replicationFactor', 'int16', '5+', { default: -1 }),
        field('configs', { arrayOf: createdConfig }, '5+', { nullable: '5+', default: null }),
      ],
    },
    '0+',
  ),
]);
