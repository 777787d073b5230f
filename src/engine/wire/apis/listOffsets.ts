/**
 * ListOffsets (key 2), versions 1-9: the offset for a timestamp, or for -2 (earliest) and -1
 * (latest). v2 adds the isolation level, v4 the current leader epoch and the answer's leader
 * epoch (KIP-320), v6 is the first flexible version, v7 adds -3 (max timestamp, KIP-734), v8 -4
 * (local log start, KIP-405) and v9 -5 (last tiered offset).
 */
import { field, fields, message, orMinusOne, perTopic, throttleTimeMs } from '../schema';

export const ListOffsetsRequestData = message(2, 'ListOffsetsRequest', '1-9', '6+', [
  field('replicaId', 'int32', '0+'),
  field('isolationLevel', 'int8', '2+'),
  perTopic('topics', [
    field('partitionIndex', 'int32', '0+'),
    orMinusOne('currentLeaderEpoch', 'int32', '4+'),
    field('timestamp', 'int64', '0+'),
  ]),
]);

export const ListOffsetsResponseData = message(2, 'ListOffsetsResponse', '1-9', '6+', [
  throttleTimeMs('2+'),
  perTopic('topics', [
    ...fields('0+', { partitionIndex: 'int32', errorCode: 'int16' }),
    orMinusOne('timestamp', 'int64', '1+'),
    orMinusOne('offset', 'int64', '1+'),
    orMinusOne('leaderEpoch', 'int32', '4+'),
  ]),
]);
