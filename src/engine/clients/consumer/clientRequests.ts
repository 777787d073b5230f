import type {
  ConsumerFetchRequest,
  ConsumerFetchResponse,
  ConsumerListOffsetsRequest,
  ConsumerListOffsetsResponse,
  ConsumerOffsetsForLeaderEpochRequest,
  ConsumerOffsetsForLeaderEpochResponse,
} from './fetchProtocol';
import { toPortRecords } from './portRecords';
import type { KafkaErrorCode } from '../../errors';
import {
  CONSUMER_REPLICA_ID,
  type FetchPartition,
  type FetchRequest,
  type FetchResponse,
  type ListOffsetsRequest,
  type ListOffsetsResponse,
  type OffsetsForLeaderEpochRequest,
  type OffsetsForLeaderEpochResponse,
} from '../../cluster/requests';

/**
 * The simulated consumers speak Fetch, ListOffsets and OffsetsForLeaderEpoch in a reduced form
 * (`fetchProtocol.ts`: one flat partition list, records decoded). On the network they are the
 * requests a real consumer sends (replicaId -1), built and read at the client as Kafka's Fetcher
 * builds a FetchRequest and parses its FetchResponse: the request as the broker's, the broker's
 * answer as the consumer's.
 */

/** Partitions grouped by topic in first-seen order, each keeping its place in the request. */
function byTopic<P extends { topic: string }>(partitions: readonly P[]): { topic: string; partitions: P[] }[] {
  const topics: { topic: string; partitions: P[] }[] = [];
  for (const p of partitions) {
    let t = topics.find((x) => x.topic === p.topic);
    if (!t) {
      t = { topic: p.topic, partitions: [] };
      topics.push(t);
    }
    t.partitions.push(p);
  }
  return topics;
}

const key = (topic: string, partition: number) => `${topic}\u0000${partition}`;

export function fetchRequestOf(req: ConsumerFetchRequest): FetchRequest {
  return {
    api: 'Fetch',
    replicaId: CONSUMER_REPLICA_ID,
    maxWaitMs: req.maxWaitMs,
    minBytes: req.minBytes,
    maxBytes: req.maxBytes,
    isolationLevel: 0,
    topics: byTopic(req.partitions).map((t) => ({
      topic: t.topic,
      partitions: t.partitions.map(
        (p): FetchPartition => ({
          partition: p.partition,
          currentLeaderEpoch: p.currentLeaderEpoch,
          fetchOffset: p.fetchOffset,
          lastFetchedEpoch: -1,
          logStartOffset: -1,
          partitionMaxBytes: p.partitionMaxBytes,
        }),
      ),
    })),
  };
}

/** The records from the fetch offset up to the high watermark, in the request's partition order. */
export function consumerFetchResponseOf(req: ConsumerFetchRequest, r: FetchResponse): ConsumerFetchResponse {
  const answered = new Map<string, FetchResponse['responses'][number]['partitions'][number]>();
  for (const t of r.responses) for (const p of t.partitions) answered.set(key(t.topic, p.partitionIndex), p);
  return {
    api: 'Fetch',
    partitions: req.partitions.map((fp) => {
      const p = answered.get(key(fp.topic, fp.partition));
      if (!p) return { ...fp, errorCode: 'UNKNOWN_SERVER_ERROR', highWatermark: -1, logStartOffset: -1, records: [] };
      const ok = p.errorCode === 'NONE';
      return {
        topic: fp.topic,
        partition: fp.partition,
        errorCode: p.errorCode as KafkaErrorCode | 'NONE',
        highWatermark: p.highWatermark,
        logStartOffset: p.logStartOffset,
        records: ok
          ? toPortRecords(p.records).filter((x) => x.offset >= fp.fetchOffset && x.offset < p.highWatermark)
          : [],
      };
    }),
  };
}

export function listOffsetsRequestOf(req: ConsumerListOffsetsRequest): ListOffsetsRequest {
  return {
    api: 'ListOffsets',
    replicaId: CONSUMER_REPLICA_ID,
    isolationLevel: 0,
    topics: byTopic(req.partitions).map((t) => ({
      name: t.topic,
      partitions: t.partitions.map((p) => ({
        partitionIndex: p.partition,
        currentLeaderEpoch: -1,
        timestamp: p.timestamp,
      })),
    })),
  };
}

export function consumerListOffsetsResponseOf(
  req: ConsumerListOffsetsRequest,
  r: ListOffsetsResponse,
): ConsumerListOffsetsResponse {
  const answered = new Map<string, ListOffsetsResponse['topics'][number]['partitions'][number]>();
  for (const t of r.topics) for (const p of t.partitions) answered.set(key(t.name, p.partitionIndex), p);
  return {
    api: 'ListOffsets',
    partitions: req.partitions.map((lp) => {
      const p = answered.get(key(lp.topic, lp.partition));
      const errorCode = (p?.errorCode ?? 'UNKNOWN_SERVER_ERROR') as KafkaErrorCode | 'NONE';
      return {
        topic: lp.topic,
        partition: lp.partition,
        errorCode,
        offset: errorCode === 'NONE' ? (p?.offset ?? -1) : -1,
      };
    }),
  };
}

export function offsetsForLeaderEpochRequestOf(
  req: ConsumerOffsetsForLeaderEpochRequest,
): OffsetsForLeaderEpochRequest {
  return {
    api: 'OffsetsForLeaderEpoch',
    replicaId: CONSUMER_REPLICA_ID,
    topics: byTopic(req.partitions).map((t) => ({
      topic: t.topic,
      partitions: t.partitions.map((p) => ({
        partition: p.partition,
        currentLeaderEpoch: p.currentLeaderEpoch,
        leaderEpoch: p.leaderEpoch,
      })),
    })),
  };
}

export function consumerOffsetsForLeaderEpochResponseOf(
  req: ConsumerOffsetsForLeaderEpochRequest,
  r: OffsetsForLeaderEpochResponse,
): ConsumerOffsetsForLeaderEpochResponse {
  const answered = new Map<string, OffsetsForLeaderEpochResponse['topics'][number]['partitions'][number]>();
  for (const t of r.topics) for (const p of t.partitions) answered.set(key(t.topic, p.partition), p);
  return {
    api: 'OffsetsForLeaderEpoch',
    partitions: req.partitions.map((op) => {
      const p = answered.get(key(op.topic, op.partition));
      if (!p)
        return {
          topic: op.topic,
          partition: op.partition,
          errorCode: 'UNKNOWN_SERVER_ERROR',
          leaderEpoch: -1,
          endOffset: -1,
        };
      return {
        topic: op.topic,
        partition: op.partition,
        errorCode: p.errorCode as KafkaErrorCode | 'NONE',
        leaderEpoch: p.leaderEpoch,
        endOffset: p.endOffset,
      };
    }),
  };
}
