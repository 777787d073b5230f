/**
 * Fetch (key 1), versions 4-12: v4 adds the isolation level and last stable offset (RecordBatch
 * v2 readers), v5 the log start offset, v7 fetch sessions (KIP-227: a broker may answer session
 * id 0, "no session", and every fetch is then a full one), v9 the current leader epoch
 * (KIP-320), v11 the rack of the consumer and the preferred read replica (KIP-392), v12 the
 * first flexible version with the last fetched epoch and a diverging epoch (KIP-595).
 */
import { field, message, perTopic } from '../schema';

const leaderIdAndEpoch = [
  field('leaderId', 'int32', '12+', { default: -1 }),
  field('leaderEpoch', 'int32', '12+', { default: -1 }),
];

export const FetchRequestData = message(1, 'FetchRequest', '4-12', '12+', [
  field('clusterId', 'string', '12+', { nullable: '12+', default: null, tag: 0 }),
  field('replicaId', 'int32', '0-14', { default: -1 }),
  field('maxWaitMs', 'int32', '0+'),
  field('minBytes', 'int32', '0+'),
  field('maxBytes', 'int32', '3+', { default: 0x7fffffff }),
  field('isolationLevel', 'int8', '4+'),
  field('sessionId', 'int32', '7+'),
  field('sessionEpoch', 'int32', '7+', { default: -1 }),
  perTopic(
    'topics',
    [
      field('partition', 'int32', '0+'),
      field('currentLeaderEpoch', 'int32', '9+', { default: -1 }),
      field('fetchOffset', 'int64', '0+'),
      field('lastFetchedEpoch', 'int32', '12+', { default: -1 }),
      field('logStartOffset', 'int64', '5+', { default: -1 }),
      field('partitionMaxBytes', 'int32', '0+'),
    ],
    { topic: 'topic', topicVersions: '0-12' },
  ),
  field(
    'forgottenTopicsData',
    { arrayOf: [field('topic', 'string', '7-12'), field('partitions', { arrayOf: 'int32' }, '7+')] },
    '7+',
  ),
  field('rackId', 'string', '11+'),
]);

export const FetchResponseData = message(1, 'FetchResponse', '4-12', '12+', [
  field('throttleTimeMs', 'int32', '1+'),
  field('errorCode', 'int16', '7+'),
  field('sessionId', 'int32', '7+'),
  perTopic(
    'responses',
    [
      field('partitionIndex', 'int32', '0+'),
      field('errorCode', 'int16', '0+'),
      field('highWatermark', 'int64', '0+'),
      field('lastStableOffset', 'int64', '4+', { default: -1 }),
      field('logStartOffset', 'int64', '5+', { default: -1 }),
      field(
        'divergingEpoch',
        {
          struct: [
            field('epoch', 'int32', '12+', { default: -1 }),
            field('endOffset', 'int64', '12+', { default: -1 }),
          ],
        },
        '12+',
        { tag: 0 },
      ),
      field('currentLeader', { struct: leaderIdAndEpoch }, '12+', { tag: 1 }),
      field(
        'abortedTransactions',
        { arrayOf: [field('producerId', 'int64', '4+'), field('firstOffset', 'int64', '4+')] },
        '4+',
        { nullable: '4+' },
      ),
      field('preferredReadReplica', 'int32', '11+', { default: -1 }),
      field('records', 'records', '0+', { nullable: '0+' }),
    ],
    { topic: 'topic', topicVersions: '0-12' },
  ),
]);
