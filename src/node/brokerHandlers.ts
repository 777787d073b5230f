/**
 * The APIs a broker answers from its ReplicaManager and metadata (Metadata, Produce, Fetch,
 * ListOffsets, InitProducerId, OffsetForLeaderEpoch), each a translation: wire message -> the
 * engine's own request (sent to the broker, whose KafkaApis answers it as it answers the engine's
 * clients) -> wire answer.
 */
import {
  type Acks,
  type ErrorCode,
  type FetchPartition,
  type FetchRequest,
  type MetadataResponse,
  type ProduceResponse,
  ZERO_UUID,
} from '../engine/index';
import { type ApiHandler, type ClientConnection, handler } from './apiHandler';
import { errorNumber, numbered, numberedPartitions } from './errorNumber';
import { brokerRelay } from './relay';
import { topicIdOf, topicNameOf, UNKNOWN_TOPIC_ID } from './topicIds';

const metadata = brokerRelay(
  'Metadata',
  ({ body, version }) => {
    const { topics } = body;
    // v0 asks for every topic with an empty list; v1+ with null.
    const names = topics === null || (version === 0 && topics.length === 0) ? null : topics.map((t) => t.name ?? '');
    return { api: 'Metadata', topics: names, allowAutoTopicCreation: body.allowAutoTopicCreation };
  },
  (res, { connection }) => ({
    throttleTimeMs: res.throttleTimeMs,
    brokers: wireBrokers(res, connection),
    clusterId: res.clusterId,
    controllerId: res.controllerId,
    topics: res.topics.map((t) => ({
      errorCode: errorNumber(t.errorCode),
      name: t.name,
      topicId: t.errorCode === 'NONE' && t.name ? topicIdOf(connection.engine, t.name) : ZERO_UUID,
      isInternal: t.isInternal,
      partitions: t.partitions.map(numbered),
    })),
  }),
);

/** Clients connect where the brokers listen on this machine, not to their simulated host names. */
export function wireBrokers(res: MetadataResponse, connection: ClientConnection) {
  return res.brokers.map((b) => ({ nodeId: b.nodeId, ...connection.listenerOf(b.nodeId), rack: b.rack }));
}

/** Kafka's acks values; any other is INVALID_REQUIRED_ACKS (ProduceRequest.validate). */
function isAcks(n: number): n is Acks {
  return n === 0 || n === 1 || n === -1;
}

const produce = handler('Produce', ({ connection, body: req, version }, reply) => {
  // Refused before anything is appended: every partition gets the same error.
  const refuse = (code: ErrorCode, errorMessage: string | null = null) =>
    reply({
      responses: req.topicData.map((t) => ({
        name: t.name,
        partitionResponses: t.partitionData.map((p) => ({
          index: p.index,
          errorCode: errorNumber(code),
          baseOffset: -1,
          errorMessage,
        })),
      })),
    });
  const acks = req.acks;
  if (!isAcks(acks)) {
    refuse('INVALID_REQUIRED_ACKS');
    return undefined;
  }
  // ProduceRequest.validateRecords: from v3 on, only RecordBatch v2 (magic 2, the byte after
  // baseOffset, batchLength and partitionLeaderEpoch) is accepted.
  const oldFormat = req.topicData.some((t) =>
    t.partitionData.some((p) => p.records !== null && p.records.length > 16 && p.records[16] !== 2),
  );
  if (oldFormat) {
    refuse('INVALID_RECORD', 'Produce requests with version 3 and above may only carry RecordBatch v2 (magic 2)');
    return undefined;
  }
  // ProduceRequest.validateRecords, per partition in KafkaApis.handleProduceRequest: before v7 a
  // partition whose first batch is zstd (attributes' low byte at 22) is answered
  // UNSUPPORTED_COMPRESSION_TYPE and the others are appended.
  const zstdBeforeV7 = (records: Uint8Array | null) =>
    version < 7 && records !== null && records.length > 22 && ((records[22] as number) & 7) === 4;
  const refused = new Set<string>();
  for (const t of req.topicData)
    for (const p of t.partitionData) if (zstdBeforeV7(p.records)) refused.add(`${t.name}\u0000${p.index}`);
  const accepted = req.topicData
    .map((t) => ({
      topic: t.name,
      partitions: t.partitionData
        .filter((p) => !refused.has(`${t.name}\u0000${p.index}`))
        .map((p) => ({ partition: p.index, records: p.records ?? new Uint8Array(0) })),
    }))
    .filter((t) => t.partitions.length > 0);
  const answer = (res: ProduceResponse | null) => {
    const appended = new Map(
      (res?.responses ?? []).flatMap((t) => t.partitions.map((p) => [`${t.topic}\u0000${p.partition}`, p] as const)),
    );
    reply({
      responses: req.topicData.map((t) => ({
        name: t.name,
        partitionResponses: t.partitionData.map((q) => {
          const p = appended.get(`${t.name}\u0000${q.index}`);
          if (!p) {
            return {
              index: q.index,
              errorCode: errorNumber('UNSUPPORTED_COMPRESSION_TYPE'),
              baseOffset: -1,
              errorMessage: `Produce requests with version ${version} are not allowed to use ZStandard compression`,
            };
          }
          return {
            index: p.partition,
            errorCode: errorNumber(p.errorCode),
            baseOffset: p.baseOffset,
            logAppendTimeMs: p.logAppendTimeMs,
            logStartOffset: p.logStartOffset,
            recordErrors: p.recordErrors,
            errorMessage: p.errorMessage,
          };
        }),
      })),
      throttleTimeMs: res?.throttleTimeMs ?? 0,
    });
  };
  if (accepted.length === 0) {
    if (acks !== 0) answer(null);
    return acks === 0 ? 'no-response' : undefined;
  }
  connection.call(
    { api: 'Produce', transactionalId: req.transactionalId, acks, timeoutMs: req.timeoutMs, topicData: accepted },
    acks === 0 ? undefined : answer,
  );
  return acks === 0 ? 'no-response' : undefined;
});

const initProducerId = brokerRelay(
  'InitProducerId',
  // v0-2 have no producer id and epoch: the decoded -1, a new producer.
  ({ body: { transactionalId, transactionTimeoutMs, producerId, producerEpoch } }) => ({
    api: 'InitProducerId',
    transactionalId,
    transactionTimeoutMs,
    producerId,
    producerEpoch,
  }),
  ({ api: _, ...res }) => numbered(res),
);

/** Only consumers come in from outside: a client may not read as a follower (replica id -1). */
function asConsumer(b: { isolationLevel: number }): { replicaId: -1; isolationLevel: 0 | 1 } {
  return { replicaId: -1, isolationLevel: b.isolationLevel === 1 ? 1 : 0 };
}

/**
 * A Fetch partition answered with an error and nothing else (Kafka's
 * FetchResponse.partitionResponse(partition, error)): no offsets known (-1), no records.
 */
function fetchPartitionError(partitionIndex: number, errorCode: number) {
  return {
    partitionIndex,
    errorCode,
    highWatermark: -1,
    lastStableOffset: -1,
    logStartOffset: -1,
    abortedTransactions: null,
    preferredReadReplica: -1,
    records: null,
  };
}

/**
 * Fetch: a full fetch every time. The answer's session id 0 tells a client that the broker keeps
 * no fetch session for it (KIP-227), so it sends every partition each time; long polls wait in
 * the broker's fetch purgatory (max.wait.ms, min.bytes) as the engine's own consumers' do.
 */
const fetch = handler('Fetch', (ctx, reply) => {
  const b = ctx.body;
  // v13+ names topics by id (KIP-516); a partition of an id no topic has is UNKNOWN_TOPIC_ID,
  // answered at once (the rest of the fetch does not wait in the purgatory).
  const byId = ctx.version >= 13;
  const unknown: { topicId: string; partitions: FetchPartition[] }[] = [];
  const topics: FetchRequest['topics'] = [];
  // KafkaApis.handleFetchRequest (maybeConvertFetchedData): before v10 a partition of a topic
  // whose compression.type is zstd answers UNSUPPORTED_COMPRESSION_TYPE with no records.
  const zstdBeforeV10: { topic: string; partitions: FetchPartition[] }[] = [];
  const cluster = ctx.connection.engine.cluster;
  for (const t of b.topics) {
    const topic = byId ? topicNameOf(ctx.connection.engine, t.topicId) : t.topic;
    if (topic === null) unknown.push({ topicId: t.topicId, partitions: t.partitions });
    else if (
      ctx.version < 10 &&
      cluster.topicId(topic) !== null &&
      cluster.topicConfig(topic)['compression.type'] === 'zstd'
    )
      zstdBeforeV10.push({ topic, partitions: t.partitions });
    else topics.push({ topic, partitions: t.partitions.map((p) => ({ ...p })) });
  }
  const request: FetchRequest = {
    api: 'Fetch',
    ...asConsumer(b),
    maxWaitMs: unknown.length > 0 ? 0 : b.maxWaitMs,
    minBytes: b.minBytes,
    maxBytes: b.maxBytes,
    topics,
  };
  ctx.connection.call(request, (res) => {
    reply({
      throttleTimeMs: res.throttleTimeMs,
      errorCode: errorNumber(res.errorCode),
      sessionId: 0,
      responses: [
        ...res.responses.map((t) => ({
          topic: t.topic,
          topicId: byId ? topicIdOf(ctx.connection.engine, t.topic) : ZERO_UUID,
          partitions: t.partitions.map((p) => ({
            ...numbered(p),
            divergingEpoch: p.divergingEpoch ?? undefined,
            abortedTransactions: null,
            preferredReadReplica: -1,
          })),
        })),
        ...zstdBeforeV10.map((t) => ({
          topic: t.topic,
          topicId: ZERO_UUID,
          partitions: t.partitions.map((p) =>
            fetchPartitionError(p.partition, errorNumber('UNSUPPORTED_COMPRESSION_TYPE')),
          ),
        })),
        ...unknown.map((t) => ({
          topic: '',
          topicId: t.topicId,
          partitions: t.partitions.map((p) => fetchPartitionError(p.partition, UNKNOWN_TOPIC_ID)),
        })),
      ],
    });
  });
  return undefined;
});

const listOffsets = brokerRelay(
  'ListOffsets',
  ({ body, version }) => {
    const topics = body.topics.map((t) => ({ name: t.name, partitions: t.partitions.map((p) => ({ ...p })) }));
    // The version decides which special timestamps are known and which error a lagging new
    // leader answers (KafkaApis.handleListOffsetRequestV1AndAbove, Partition.fetchOffsetForTimestamp).
    return { api: 'ListOffsets', ...asConsumer(body), topics, version };
  },
  (res) => ({ throttleTimeMs: res.throttleTimeMs, topics: numberedPartitions(res.topics) }),
);

/**
 * OffsetForLeaderEpoch: the leader's LeaderEpochFileCache.endOffsetFor for each partition, fenced
 * by the current leader epoch (FENCED_LEADER_EPOCH / UNKNOWN_LEADER_EPOCH), NOT_LEADER_OR_FOLLOWER
 * off the leader — the broker's ReplicaManager answers, as it answers its followers. Kafka 3.9
 * answers a consumer (-1) and a follower alike.
 */
const offsetForLeaderEpoch = brokerRelay(
  'OffsetForLeaderEpoch',
  ({ body }) => ({ api: 'OffsetsForLeaderEpoch', replicaId: body.replicaId, topics: body.topics }),
  (res) => ({ throttleTimeMs: res.throttleTimeMs, topics: numberedPartitions(res.topics) }),
);

export const BROKER_HANDLERS: readonly ApiHandler[] = [
  metadata,
  produce,
  fetch,
  listOffsets,
  initProducerId,
  offsetForLeaderEpoch,
];
