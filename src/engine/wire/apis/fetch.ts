/**
 * Fetch (key 1), versions 4-12: v4 adds the isolation level and last stable offset (RecordBatch
 * v2 readers), v5 the log start offset, v7 fetch sessions (KIP-227: a broker may answer session
 * id 0, "no session", and every fetch is then a full one), v9 the current leader epoch
 * (KIP-320), v11 the rack of the consumer and the preferred read replica (KIP-392), v12 the
 * first flexible version with the last fetched epoch and a diverging epoch (KIP-595), v13 topic
 * ids in place of topic names (KIP-516).
 */
import { array, errorCode, type Field, field, fields, message, orMinusOne, throttleTimeMs } from '../schema';

/** A topic of a fetch: its name up to v12, its id from v13 (KIP-516), then its partitions. */
function perTopicOrId<const N extends string, const P extends readonly Field[]>(arrayName: N, partitionFields: P) {
  return array(arrayName, '0+', [
    field('topic', 'string', '0-12'),
    field('topicId', 'uuid', '13+'),
    array('partitions', '0+', partitionFields),
  ]);
}

const leaderIdAndEpoch = [orMinusOne('leaderId', 'int32', '12+'), orMinusOne('leaderEpoch', 'int32', '12+')];

export const FetchRequestData = message(1, 'FetchRequest', '4-13', '12+', [
  field('clusterId', 'string', '12+', { nullable: '12+', default: null, tag: 0 }),
  orMinusOne('replicaId', 'int32', '0-14'),
  ...fields('0+', { maxWaitMs: 'int32', minBytes: 'int32' }),
  field('maxBytes', 'int32', '3+', { default: 0x7fffffff }),
  field('isolationLevel', 'int8', '4+'),
  field('sessionId', 'int32', '7+'),
  orMinusOne('sessionEpoch', 'int32', '7+'),
  perTopicOrId('topics', [
    field('partition', 'int32', '0+'),
    orMinusOne('currentLeaderEpoch', 'int32', '9+'),
    field('fetchOffset', 'int64', '0+'),
    orMinusOne('lastFetchedEpoch', 'int32', '12+'),
    orMinusOne('logStartOffset', 'int64', '5+'),
    field('partitionMaxBytes', 'int32', '0+'),
  ]),
  array('forgottenTopicsData', '7+', [
    field('topic', 'string', '7-12'),
    field('topicId', 'uuid', '13+'),
    array('partitions', '7+', 'int32'),
  ]),
  field('rackId', 'string', '11+'),
]);

export const FetchResponseData = message(1, 'FetchResponse', '4-13', '12+', [
  throttleTimeMs('1+'),
  ...errorCode('7+'),
  field('sessionId', 'int32', '7+'),
  perTopicOrId('responses', [
    ...fields('0+', { partitionIndex: 'int32', errorCode: 'int16', highWatermark: 'int64' }),
    orMinusOne('lastStableOffset', 'int64', '4+'),
    orMinusOne('logStartOffset', 'int64', '5+'),
    field(
      'divergingEpoch',
      { struct: [orMinusOne('epoch', 'int32', '12+'), orMinusOne('endOffset', 'int64', '12+')] },
      '12+',
      {
        tag: 0,
      },
    ),
    field('currentLeader', { struct: leaderIdAndEpoch }, '12+', { tag: 1 }),
    array('abortedTransactions', '4+', fields('4+', { producerId: 'int64', firstOffset: 'int64' }), {
      nullable: '4+',
    }),
    orMinusOne('preferredReadReplica', 'int32', '11+'),
    field('records', 'records', '0+', { nullable: '0+' }),
  ]),
]);
