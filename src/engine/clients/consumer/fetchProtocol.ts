import type { KafkaErrorCode } from '../../errors';
import type { PortRecord } from './ClusterPort';
import type { GroupRequest, GroupResponse } from './groupProtocol';

/**
 * The consumer's data-path requests (Kafka's Fetch, ListOffsets and OffsetsForLeaderEpoch,
 * clients/src/main/resources/common/message/{Fetch,ListOffsets,OffsetForLeaderEpoch}Request.json),
 * reduced to the fields a consumer uses.
 * Records travel decoded: the broker side reads them from the leader's log up to the high
 * watermark.
 */
export interface ConsumerFetchRequest {
  api: 'Fetch';
  /** fetch.max.wait.ms: how long the leader may hold the request waiting for fetch.min.bytes. */
  maxWaitMs: number;
  minBytes: number;
  /** fetch.max.bytes over all partitions (the first record is returned even if larger). */
  maxBytes: number;
  partitions: {
    topic: string;
    partition: number;
    /** KIP-320: the leader epoch the consumer's metadata knows (-1: none); the leader fences an older one. */
    currentLeaderEpoch: number;
    fetchOffset: number;
    partitionMaxBytes: number;
  }[];
}

export interface ConsumerFetchResponse {
  api: 'Fetch';
  partitions: {
    topic: string;
    partition: number;
    errorCode: KafkaErrorCode | 'NONE';
    highWatermark: number;
    logStartOffset: number;
    records: PortRecord[];
  }[];
}

/** timestamp -2 = earliest, -1 = latest (Kafka's ListOffsetsRequest.EARLIEST/LATEST_TIMESTAMP). */
export interface ConsumerListOffsetsRequest {
  api: 'ListOffsets';
  partitions: { topic: string; partition: number; timestamp: -1 | -2 }[];
}

export interface ConsumerListOffsetsResponse {
  api: 'ListOffsets';
  partitions: { topic: string; partition: number; errorCode: KafkaErrorCode | 'NONE'; offset: number }[];
}

/**
 * OffsetsForLeaderEpoch from a consumer (replicaId -1, KIP-320): for each partition, the end
 * offset of `leaderEpoch` (the epoch of the position) on the leader at `currentLeaderEpoch`.
 */
export interface ConsumerOffsetsForLeaderEpochRequest {
  api: 'OffsetsForLeaderEpoch';
  partitions: { topic: string; partition: number; currentLeaderEpoch: number; leaderEpoch: number }[];
}

export interface ConsumerOffsetsForLeaderEpochResponse {
  api: 'OffsetsForLeaderEpoch';
  partitions: {
    topic: string;
    partition: number;
    errorCode: KafkaErrorCode | 'NONE';
    /** The largest epoch <= the one asked for, and where it ends (-1 / -1: unknown). */
    leaderEpoch: number;
    endOffset: number;
  }[];
}

export type ConsumerRequest =
  | GroupRequest
  | ConsumerFetchRequest
  | ConsumerListOffsetsRequest
  | ConsumerOffsetsForLeaderEpochRequest;
export type ConsumerResponse =
  | GroupResponse
  | ConsumerFetchResponse
  | ConsumerListOffsetsResponse
  | ConsumerOffsetsForLeaderEpochResponse;
export type ConsumerResponseFor<R extends ConsumerRequest> = Extract<ConsumerResponse, { api: R['api'] }>;
