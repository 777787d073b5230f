/**
 * ListOffsets (key 2), versions 1-9: the offset for a timestamp, or for -2 (earliest) and -1
 * (latest). v2 adds the isolation level, v4 the current leader epoch and the answer's leader
 * epoch (KIP-320), v6 is the first flexible version, v7 adds -3 (max timestamp, KIP-734), v8 -4
 * (local log start, KIP-405) and v9 -5 (last tiered offset).
 */
import { field, message, perTopic } from '../schema';

export const ListOffsetsRequestData = message(2, 'ListOffsetsRequest', '1-9', '6+', [
  field('replicaId', 'int32', '0+'),
  field('isolationLevel', 'int8', '2+'),
  perTopic('topics', [
    field('partitionIndex', 'int32', '0+'),
    field('currentLeaderEpoch', 'int32', '4+', { default: -1 }),
    field('timestamp', 'int64', '0+'),
  ]),
]);

export const ListOffsetsResponseData = message(2, 'ListOffsetsResponse', '1-9', '6+', [
  field('throttleTimeMs', 'int32', '2+'),
  perTopic('topics', [
    field('partitionIndex', 'int32', '0+'),
    field('errorCode', 'int16', '0+'),
    field('timestamp', 'int64', '1+', { default: -1 }),
    field('offset', 'int64', '1+', { default: -1 }),
    field('leaderEpoch', 'int32', '4+', { default: -1 }),
  ]),
]);
