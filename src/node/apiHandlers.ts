/**
 * The APIs the Node host serves, each as a request schema, a response schema and a translation:
 * wire message -> the engine's own request (sent to the broker, whose KafkaApis answers it as it
 * answers the engine's clients) -> wire answer. ApiVersions is answered here, as Kafka's
 * KafkaApis answers it from the broker's own table.
 */
import {
  ApiVersionsRequestData,
  ApiVersionsResponseData,
  type Acks,
  type FetchPartition,
  FetchRequestData,
  FetchResponseData,
  type FetchResponse,
  ListOffsetsRequestData,
  ListOffsetsResponseData,
  type ListOffsetsResponse,
  InitProducerIdRequestData,
  InitProducerIdResponseData,
  type InitProducerIdResponse,
  type MessageSchema,
  MetadataRequestData,
  MetadataResponseData,
  type MetadataResponse,
  ProduceRequestData,
  ProduceResponseData,
  type ProduceResponse,
  type RequestHeader,
  type WireValue,
  ZERO_UUID,
} from '../engine/index';
import { errorNumber } from './errorNumber';
import { GROUP_HANDLERS } from './groupHandlers';
import type { GatewayConnection } from './WireGateway';

export interface HandlerContext {
  connection: GatewayConnection;
  /** The decoded request; null for an ApiVersions request of a version this broker does not know. */
  body: WireValue | null;
  version: number;
  header: RequestHeader;
}

export interface ApiHandler {
  request: MessageSchema;
  response: MessageSchema;
  /** Answers through `reply`, now or later; 'no-response' when Kafka sends nothing back. */
  handle(ctx: HandlerContext, reply: (answer: WireValue) => void): undefined | 'no-response';
}

const apiVersions: ApiHandler = {
  request: ApiVersionsRequestData,
  response: ApiVersionsResponseData,
  handle(ctx, reply) {
    reply({
      errorCode: ctx.body === null ? errorNumber('UNSUPPORTED_VERSION') : 0,
      apiKeys: advertisedApis(),
      throttleTimeMs: 0,
    });
    return undefined;
  },
};

const metadata: ApiHandler = {
  request: MetadataRequestData,
  response: MetadataResponseData,
  handle({ connection, body, version }, reply) {
    const topics = (body?.topics ?? null) as { name: string | null }[] | null;
    // v0 asks for every topic with an empty list; v1+ with null.
    const names = topics === null || (version === 0 && topics.length === 0) ? null : topics.map((t) => t.name ?? '');
    connection.call(
      { api: 'Metadata', topics: names, allowAutoTopicCreation: Boolean(body?.allowAutoTopicCreation) },
      (r) => {
        const res = r as MetadataResponse;
        reply({
          throttleTimeMs: res.throttleTimeMs,
          // Clients connect where the broker listens on this machine, not to its simulated host name.
          brokers: res.brokers.map((b) => ({ nodeId: b.nodeId, ...connection.listenerOf(b.nodeId), rack: b.rack })),
          clusterId: res.clusterId,
          controllerId: res.controllerId,
          topics: res.topics.map((t) => ({
            errorCode: errorNumber(t.errorCode),
            name: t.name,
            topicId: ZERO_UUID,
            isInternal: t.isInternal,
            partitions: t.partitions.map((p) => ({ ...p, errorCode: errorNumber(p.errorCode) })),
          })),
        });
      },
    );
    return undefined;
  },
};

interface WireProduce {
  transactionalId: string | null;
  acks: number;
  timeoutMs: number;
  topicData: { name: string; partitionData: { index: number; records: Uint8Array | null }[] }[];
}

const produce: ApiHandler = {
  request: ProduceRequestData,
  response: ProduceResponseData,
  handle({ connection, body }, reply) {
    const b = body ?? {};
    const req: WireProduce = {
      transactionalId: (b.transactionalId as string | null) ?? null,
      acks: Number(b.acks),
      timeoutMs: Number(b.timeoutMs),
      topicData: (b.topicData ?? []) as WireProduce['topicData'],
    };
    if (req.acks !== 0 && req.acks !== 1 && req.acks !== -1) {
      // ProduceRequest.validate: any other acks is INVALID_REQUIRED_ACKS for every partition.
      reply({
        responses: req.topicData.map((t) => ({
          name: t.name,
          partitionResponses: t.partitionData.map((p) => ({
            index: p.index,
            errorCode: errorNumber('INVALID_REQUIRED_ACKS'),
            baseOffset: -1,
          })),
        })),
      });
      return undefined;
    }
    // ProduceRequest.validateRecords: from v3 on, only RecordBatch v2 (magic 2, the byte after
    // baseOffset, batchLength and partitionLeaderEpoch) is accepted.
    const oldFormat = req.topicData.some((t) =>
      t.partitionData.some((p) => p.records !== null && p.records.length > 16 && p.records[16] !== 2),
    );
    if (oldFormat) {
      reply({
        responses: req.topicData.map((t) => ({
          name: t.name,
          partitionResponses: t.partitionData.map((p) => ({
            index: p.index,
            errorCode: errorNumber('INVALID_RECORD'),
            baseOffset: -1,
            errorMessage: 'Produce requests with version 3 and above may only carry RecordBatch v2 (magic 2)',
          })),
        })),
      });
      return undefined;
    }
    const acks = req.acks as Acks;
    connection.call(
      {
        api: 'Produce',
        transactionalId: req.transactionalId,
        acks,
        timeoutMs: req.timeoutMs,
        topicData: req.topicData.map((t) => ({
          topic: t.name,
          partitions: t.partitionData.map((p) => ({ partition: p.index, records: p.records ?? new Uint8Array(0) })),
        })),
      },
      acks === 0
        ? undefined
        : (r) => {
            const res = r as ProduceResponse;
            reply({
              responses: res.responses.map((t) => ({
                name: t.topic,
                partitionResponses: t.partitions.map((p) => ({
                  index: p.partition,
                  errorCode: errorNumber(p.errorCode),
                  baseOffset: p.baseOffset,
                  logAppendTimeMs: p.logAppendTimeMs,
                  logStartOffset: p.logStartOffset,
                  recordErrors: p.recordErrors,
                  errorMessage: p.errorMessage,
                })),
              })),
              throttleTimeMs: res.throttleTimeMs,
            });
          },
    );
    return acks === 0 ? 'no-response' : undefined;
  },
};

const initProducerId: ApiHandler = {
  request: InitProducerIdRequestData,
  response: InitProducerIdResponseData,
  handle({ connection, body }, reply) {
    const b = body ?? {};
    connection.call(
      {
        api: 'InitProducerId',
        transactionalId: (b.transactionalId as string | null) ?? null,
        transactionTimeoutMs: Number(b.transactionTimeoutMs ?? 0),
        producerId: Number(b.producerId ?? -1),
        producerEpoch: Number(b.producerEpoch ?? -1),
      },
      (r) => {
        const res = r as InitProducerIdResponse;
        reply({
          throttleTimeMs: res.throttleTimeMs,
          errorCode: errorNumber(res.errorCode),
          producerId: res.producerId,
          producerEpoch: res.producerEpoch,
        });
      },
    );
    return undefined;
  },
};

interface WireFetch {
  replicaId: number;
  maxWaitMs: number;
  minBytes: number;
  maxBytes: number;
  isolationLevel: number;
  topics: { topic: string; partitions: FetchPartition[] }[];
}

/**
 * Fetch: a full fetch every time. The answer's session id 0 tells a client that the broker keeps
 * no fetch session for it (KIP-227), so it sends every partition each time; long polls wait in
 * the broker's fetch purgatory (max.wait.ms, min.bytes) as the engine's own consumers' do.
 */
const fetch: ApiHandler = {
  request: FetchRequestData,
  response: FetchResponseData,
  handle({ connection, body }, reply) {
    const b = (body ?? {}) as Partial<WireFetch>;
    connection.call(
      {
        api: 'Fetch',
        // Only consumers come in from outside: a client may not fetch as a follower.
        replicaId: -1,
        maxWaitMs: Number(b.maxWaitMs ?? 0),
        minBytes: Number(b.minBytes ?? 0),
        maxBytes: Number(b.maxBytes ?? 0x7fffffff),
        isolationLevel: b.isolationLevel === 1 ? 1 : 0,
        topics: (b.topics ?? []).map((t) => ({
          topic: t.topic,
          partitions: t.partitions.map((p) => ({ ...p })),
        })),
      },
      (r) => {
        const res = r as FetchResponse;
        reply({
          throttleTimeMs: res.throttleTimeMs,
          errorCode: errorNumber(res.errorCode),
          sessionId: 0,
          responses: res.responses.map((t) => ({
            topic: t.topic,
            partitions: t.partitions.map((p) => ({
              partitionIndex: p.partitionIndex,
              errorCode: errorNumber(p.errorCode),
              highWatermark: p.highWatermark,
              lastStableOffset: p.lastStableOffset,
              logStartOffset: p.logStartOffset,
              ...(p.divergingEpoch ? { divergingEpoch: p.divergingEpoch } : {}),
              abortedTransactions: null,
              preferredReadReplica: -1,
              records: p.records,
            })),
          })),
        });
      },
    );
    return undefined;
  },
};

interface WireListOffsets {
  isolationLevel: number;
  topics: { name: string; partitions: { partitionIndex: number; currentLeaderEpoch: number; timestamp: number }[] }[];
}

const listOffsets: ApiHandler = {
  request: ListOffsetsRequestData,
  response: ListOffsetsResponseData,
  handle({ connection, body }, reply) {
    const b = (body ?? {}) as Partial<WireListOffsets>;
    connection.call(
      {
        api: 'ListOffsets',
        replicaId: -1,
        isolationLevel: b.isolationLevel === 1 ? 1 : 0,
        topics: (b.topics ?? []).map((t) => ({ name: t.name, partitions: t.partitions.map((p) => ({ ...p })) })),
      },
      (r) => {
        const res = r as ListOffsetsResponse;
        reply({
          throttleTimeMs: res.throttleTimeMs,
          topics: res.topics.map((t) => ({
            name: t.name,
            partitions: t.partitions.map((p) => ({ ...p, errorCode: errorNumber(p.errorCode) })),
          })),
        });
      },
    );
    return undefined;
  },
};

/** What ApiVersions advertises: exactly the served versions. */
export function advertisedApis(): { apiKey: number; minVersion: number; maxVersion: number }[] {
  return [...SERVED.values()]
    .map(({ request }) => ({ apiKey: request.apiKey, minVersion: request.valid.lo, maxVersion: request.valid.hi }))
    .sort((a, b) => a.apiKey - b.apiKey);
}

/** Served APIs by api key. */
export const SERVED: ReadonlyMap<number, ApiHandler> = new Map(
  [apiVersions, metadata, produce, fetch, listOffsets, initProducerId, ...GROUP_HANDLERS].map((h) => [
    h.request.apiKey,
    h,
  ]),
);
