import type { KafkaErrorCode } from '../errors';
import type { PortRecord } from './ClusterPort';
import type { GroupRequest, GroupResponse } from './groupProtocol';

/**
 * The consumer's data-path requests (Kafka's Fetch and ListOffsets, clients/src/main/resources/
 * common/message/{Fetch,ListOffsets}Request.json), reduced to the fields a consumer uses.
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
  partitions: { topic: string; partition: number; fetchOffset: number; partitionMaxBytes: number }[];
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

export type ConsumerRequest = GroupRequest | ConsumerFetchRequest | ConsumerListOffsetsRequest;
export type ConsumerResponse = GroupResponse | ConsumerFetchResponse | ConsumerListOffsetsResponse;
export type ConsumerResponseFor<R extends ConsumerRequest> = Extract<ConsumerResponse, { api: R['api'] }>;
