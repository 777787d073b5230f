/**
 * The Admin client's topic APIs beside CreateTopics: CreatePartitions (key 37, 0-3, flexible from
 * 2: grow a topic to a new count, optionally with each new partition's replicas; validateOnly) and
 * DeleteTopics (key 20, 0-6, flexible from 4: v5 answers an error message, v6 names topics by name
 * or by id, KIP-516).
 */
import { array, errorCode, field, message, nullableString, throttleTimeMs } from '../schema';

export const CreatePartitionsRequestData = message(37, 'CreatePartitionsRequest', '0-3', '2+', [
  array('topics', '0+', [
    field('name', 'string', '0+'),
    field('count', 'int32', '0+'),
    array('assignments', '0+', [array('brokerIds', '0+', 'int32')], { nullable: '0+', default: null }),
  ]),
  field('timeoutMs', 'int32', '0+'),
  field('validateOnly', 'bool', '0+'),
]);

export const CreatePartitionsResponseData = message(37, 'CreatePartitionsResponse', '0-3', '2+', [
  throttleTimeMs('0+'),
  array('results', '0+', [field('name', 'string', '0+'), ...errorCode('0+', '0+')]),
]);

export const DeleteTopicsRequestData = message(20, 'DeleteTopicsRequest', '0-6', '4+', [
  array('topics', '6+', [nullableString('name', '6+'), field('topicId', 'uuid', '6+')]),
  array('topicNames', '0-5', 'string'),
  field('timeoutMs', 'int32', '0+'),
]);

export const DeleteTopicsResponseData = message(20, 'DeleteTopicsResponse', '0-6', '4+', [
  throttleTimeMs('1+'),
  array('responses', '0+', [
    field('name', 'string', '0+', { nullable: '6+' }),
    field('topicId', 'uuid', '6+'),
    ...errorCode('0+'),
    nullableString('errorMessage', '5+'),
  ]),
]);
