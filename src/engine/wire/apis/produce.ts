/**
 * Produce (key 0), versions 3-11 (v3 is the first that carries RecordBatch v2 and a
 * transactional id; 0-2 carry the old message formats). Per partition one `records` field with
 * the client's batches; the answer per partition: error, base offset, log-append time (v2+), log
 * start offset (v5+), per-record errors and a message (v8+), and from v10 the current leader as
 * a tagged field (KIP-951), with the leaders' endpoints tagged on the response.
 */
import { array, field, fields, message, nullableString, orMinusOne, perTopic } from '../schema';
import { brokerEndpoint } from './metadata';

export const ProduceRequestData = message(0, 'ProduceRequest', '3-11', '9+', [
  nullableString('transactionalId', '3+'),
  ...fields('0+', { acks: 'int16', timeoutMs: 'int32' }),
  perTopic('topicData', [field('index', 'int32', '0+'), field('records', 'records', '0+', { nullable: '0+' })], {
    partitions: 'partitionData',
  }),
]);

export const ProduceResponseData = message(0, 'ProduceResponse', '3-11', '9+', [
  perTopic(
    'responses',
    [
      ...fields('0+', { index: 'int32', errorCode: 'int16', baseOffset: 'int64' }),
      orMinusOne('logAppendTimeMs', 'int64', '2+'),
      orMinusOne('logStartOffset', 'int64', '5+'),
      array('recordErrors', '8+', [field('batchIndex', 'int32', '8+'), nullableString('batchIndexErrorMessage', '8+')]),
      nullableString('errorMessage', '8+'),
      field(
        'currentLeader',
        { struct: [orMinusOne('leaderId', 'int32', '10+'), orMinusOne('leaderEpoch', 'int32', '10+')] },
        '10+',
        {
          tag: 0,
        },
      ),
    ],
    { partitions: 'partitionResponses' },
  ),
  field('throttleTimeMs', 'int32', '1+', { default: 0 }),
  array('nodeEndpoints', '10+', brokerEndpoint('nodeId', '10+'), { tag: 0 }),
]);
