/**
 * Produce (key 0), versions 3-11 (v3 is the first that carries RecordBatch v2 and a
 * transactional id; 0-2 carry the old message formats). Per partition one `records` field with
 * the client's batches; the answer per partition: error, base offset, log-append time (v2+), log
 * start offset (v5+), per-record errors and a message (v8+), and from v10 the current leader as
 * a tagged field (KIP-951), with the leaders' endpoints tagged on the response.
 */
import { field, message, perTopic } from '../schema';

export const ProduceRequestData = message(0, 'ProduceRequest', '3-11', '9+', [
  field('transactionalId', 'string', '3+', { nullable: '3+', default: null }),
  field('acks', 'int16', '0+'),
  field('timeoutMs', 'int32', '0+'),
  field(
    'topicData',
    {
      arrayOf: [
        field('name', 'string', '0+'),
        field(
          'partitionData',
          { arrayOf: [field('index', 'int32', '0+'), field('records', 'records', '0+', { nullable: '0+' })] },
          '0+',
        ),
      ],
    },
    '0+',
  ),
]);

export const ProduceResponseData = message(0, 'ProduceResponse', '3-11', '9+', [
  perTopic(
    'responses',
    [
      field('index', 'int32', '0+'),
      field('errorCode', 'int16', '0+'),
      field('baseOffset', 'int64', '0+'),
      field('logAppendTimeMs', 'int64', '2+', { default: -1 }),
      field('logStartOffset', 'int64', '5+', { default: -1 }),
      field(
        'recordErrors',
        {
          arrayOf: [
            field('batchIndex', 'int32', '8+'),
            field('batchIndexErrorMessage', 'string', '8+', { nullable: '8+', default: null }),
          ],
        },
        '8+',
      ),
      field('errorMessage', 'string', '8+', { nullable: '8+', default: null }),
      field(
        'currentLeader',
        {
          struct: [
            field('leaderId', 'int32', '10+', { default: -1 }),
            field('leaderEpoch', 'int32', '10+', { default: -1 }),
          ],
        },
        '10+',
        { tag: 0 },
      ),
    ],
    { partitions: 'partitionResponses' },
  ),
  field('throttleTimeMs', 'int32', '1+', { default: 0 }),
  field(
    'nodeEndpoints',
    {
      arrayOf: [
        field('nodeId', 'int32', '10+'),
        field('host', 'string', '10+'),
        field('port', 'int32', '10+'),
        field('rack', 'string', '10+', { nullable: '10+', default: null }),
      ],
    },
    '10+',
    { tag: 0 },
  ),
]);
