/**
 * OffsetForLeaderEpoch (key 23), versions 2-4 (Kafka 3.9 still knows 0-1; 4.0 drops them): for
 * each partition, where the requested leader epoch ended in the leader's log (KIP-101/KIP-320).
 * v2 adds the current leader epoch (fencing) and the throttle time, v3 the replica id (-1 for a
 * consumer; the default -2 is Kafka's "debug" reader), v4 is flexible.
 */
import { errorCode, field, message, orMinusOne, perTopic, throttleTimeMs } from '../schema';

export const OffsetForLeaderEpochRequestData = message(23, 'OffsetForLeaderEpochRequest', '2-4', '4+', [
  field('replicaId', 'int32', '3+', { default: -2 }),
  perTopic(
    'topics',
    [
      field('partition', 'int32', '0+'),
      orMinusOne('currentLeaderEpoch', 'int32', '2+'),
      field('leaderEpoch', 'int32', '0+'),
    ],
    { topic: 'topic' },
  ),
]);

export const OffsetForLeaderEpochResponseData = message(23, 'OffsetForLeaderEpochResponse', '2-4', '4+', [
  throttleTimeMs('2+'),
  perTopic(
    'topics',
    [
      ...errorCode('0+'),
      field('partition', 'int32', '0+'),
      orMinusOne('leaderEpoch', 'int32', '1+'),
      field('endOffset', 'int64', '0+'),
    ],
    { topic: 'topic' },
  ),
]);
