/**
 * The Admin client's APIs about a partition's log on its brokers: DeleteRecords (key 21, 0-2,
 * flexible from 2: move each partition's log start offset up, -1 meaning the high watermark),
 * DescribeLogDirs (key 35, 0-4, flexible from 2: each log dir of the broker asked and the size of
 * every replica in it; v3 adds a top-level error, v4 the volume's total and usable bytes,
 * KIP-827) and DescribeProducers (key 61, 0, flexible: a partition leader's active idempotent and
 * transactional producers, KIP-664).
 */
import { array, errorCode, field, fields, message, nullableString, orMinusOne, throttleTimeMs } from '../schema';

export const DeleteRecordsRequestData = message(21, 'DeleteRecordsRequest', '0-2', '2+', [
  array('topics', '0+', [
    field('name', 'string', '0+'),
    array('partitions', '0+', fields('0+', { partitionIndex: 'int32', offset: 'int64' })),
  ]),
  field('timeoutMs', 'int32', '0+'),
]);

export const DeleteRecordsResponseData = message(21, 'DeleteRecordsResponse', '0-2', '2+', [
  throttleTimeMs('0+'),
  array('topics', '0+', [
    field('name', 'string', '0+'),
    array('partitions', '0+', [
      ...fields('0+', { partitionIndex: 'int32', lowWatermark: 'int64' }),
      ...errorCode('0+'),
    ]),
  ]),
]);

export const DescribeLogDirsRequestData = message(35, 'DescribeLogDirsRequest', '0-4', '2+', [
  array('topics', '0+', [field('topic', 'string', '0+'), array('partitions', '0+', 'int32')], {
    nullable: '0+',
    default: null,
  }),
]);

export const DescribeLogDirsResponseData = message(35, 'DescribeLogDirsResponse', '0-4', '2+', [
  throttleTimeMs('0+'),
  field('errorCode', 'int16', '3+'),
  array('results', '0+', [
    ...errorCode('0+'),
    field('logDir', 'string', '0+'),
    array('topics', '0+', [
      field('name', 'string', '0+'),
      array(
        'partitions',
        '0+',
        fields('0+', { partitionIndex: 'int32', partitionSize: 'int64', offsetLag: 'int64', isFutureKey: 'bool' }),
      ),
    ]),
    orMinusOne('totalBytes', 'int64', '4+'),
    orMinusOne('usableBytes', 'int64', '4+'),
  ]),
]);

export const DescribeProducersRequestData = message(61, 'DescribeProducersRequest', '0', '0+', [
  array('topics', '0+', [field('name', 'string', '0+'), array('partitionIndexes', '0+', 'int32')]),
]);

export const DescribeProducersResponseData = message(61, 'DescribeProducersResponse', '0', '0+', [
  throttleTimeMs('0+'),
  array('topics', '0+', [
    field('name', 'string', '0+'),
    array('partitions', '0+', [
      field('partitionIndex', 'int32', '0+'),
      field('errorCode', 'int16', '0+'),
      nullableString('errorMessage', '0+'),
      array('activeProducers', '0+', [
        ...fields('0+', { producerId: 'int64', producerEpoch: 'int32' }),
        orMinusOne('lastSequence', 'int32', '0+'),
        orMinusOne('lastTimestamp', 'int64', '0+'),
        field('coordinatorEpoch', 'int32', '0+'),
        orMinusOne('currentTxnStartOffset', 'int64', '0+'),
      ]),
    ]),
  ]),
]);
