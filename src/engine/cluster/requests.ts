import type { GroupRequest, GroupResponse } from '../clients/consumer/groupProtocol';
import type { KafkaErrorCode } from '../errors';

/**
 * The requests and responses that travel over the simulated network, named and shaped after
 * Kafka's protocol messages (clients/src/main/resources/common/message/*.json): field names as
 * in those schemas, camel-cased, error codes by Kafka's error name ('NONE' for success).
 *
 * Every message is a discriminated union member on `api` (Kafka's ApiKeys name). Records travel
 * as encoded RecordBatch v2 bytes, exactly what Kafka puts on the wire.
 */

export type ErrorCode = KafkaErrorCode | 'NONE';

/** acks: 0 (no response), 1 (leader appended), -1 ("all": every ISR member has the batch). */
export type Acks = 0 | 1 | -1;

// ---------------------------------------------------------------- Produce (api key 0)

export interface ProducePartitionData {
  partition: number;
  /** One RecordBatch v2, already encoded by the producer (baseOffset 0; the leader assigns offsets). */
  records: Uint8Array;
}

export interface ProduceTopicData {
  topic: string;
  partitions: ProducePartitionData[];
}

export interface ProduceRequest {
  api: 'Produce';
  transactionalId: string | null;
  acks: Acks;
  /** How long the leader may wait for the ISR when acks=-1 before REQUEST_TIMED_OUT. */
  timeoutMs: number;
  topicData: ProduceTopicData[];
}

export interface RecordError {
  batchIndex: number;
  batchIndexErrorMessage: string | null;
}

export interface ProducePartitionResponse {
  partition: number;
  errorCode: ErrorCode;
  /** Offset given to the first record of the batch, -1 on error. */
  baseOffset: number;
  /** -1 unless the topic uses LogAppendTime. */
  logAppendTimeMs: number;
  logStartOffset: number;
  recordErrors: RecordError[];
  errorMessage: string | null;
}

export interface ProduceResponse {
  api: 'Produce';
  responses: { topic: string; partitions: ProducePartitionResponse[] }[];
  throttleTimeMs: number;
}

// ---------------------------------------------------------------- Metadata (api key 3)

export interface MetadataRequest {
  api: 'Metadata';
  /** null: every topic. */
  topics: string[] | null;
  allowAutoTopicCreation: boolean;
}

export interface MetadataBroker {
  nodeId: number;
  host: string;
  port: number;
  rack: string | null;
}

export interface MetadataPartition {
  errorCode: ErrorCode;
  partitionIndex: number;
  /** -1 when the partition has no leader (offline). */
  leaderId: number;
  leaderEpoch: number;
  replicaNodes: number[];
  isrNodes: number[];
  offlineReplicas: number[];
}

export interface MetadataTopic {
  errorCode: ErrorCode;
  name: string;
  isInternal: boolean;
  partitions: MetadataPartition[];
}

export interface MetadataResponse {
  api: 'Metadata';
  throttleTimeMs: number;
  brokers: MetadataBroker[];
  clusterId: string;
  /** -1 when there is no controller. */
  controllerId: number;
  topics: MetadataTopic[];
}

// ---------------------------------------------------------------- InitProducerId (api key 22)

export interface InitProducerIdRequest {
  api: 'InitProducerId';
  transactionalId: string | null;
  transactionTimeoutMs: number;
  /** -1 for a new producer. */
  producerId: number;
  producerEpoch: number;
}

export interface InitProducerIdResponse {
  api: 'InitProducerId';
  throttleTimeMs: number;
  errorCode: ErrorCode;
  producerId: number;
  producerEpoch: number;
}

// ---------------------------------------------------------------- Fetch (api key 1)

/** replicaId in Fetch / ListOffsets / OffsetsForLeaderEpoch when the caller is a client. */
export const CONSUMER_REPLICA_ID = -1;

export interface FetchPartition {
  partition: number;
  /** The fetcher's view of the leader epoch (-1: unknown); a stale one is FENCED_LEADER_EPOCH. */
  currentLeaderEpoch: number;
  fetchOffset: number;
  /** For a follower fetch: the epoch of the last record the follower holds (KIP-320), -1 if none. */
  lastFetchedEpoch: number;
  logStartOffset: number;
  partitionMaxBytes: number;
}

export interface FetchRequest {
  api: 'Fetch';
  /** A broker id for a follower fetch; CONSUMER_REPLICA_ID (-1) for a consumer. */
  replicaId: number;
  maxWaitMs: number;
  minBytes: number;
  maxBytes: number;
  /** 0 READ_UNCOMMITTED, 1 READ_COMMITTED. Consumers read up to the high watermark either way. */
  isolationLevel: 0 | 1;
  topics: { topic: string; partitions: FetchPartition[] }[];
}

export interface FetchPartitionResponse {
  partitionIndex: number;
  errorCode: ErrorCode;
  highWatermark: number;
  lastStableOffset: number;
  logStartOffset: number;
  /** Set when the follower's log diverges from the leader's at its last fetched epoch. */
  divergingEpoch: { epoch: number; endOffset: number } | null;
  /** Concatenated RecordBatches; empty when nothing to return. */
  records: Uint8Array;
}

export interface FetchResponse {
  api: 'Fetch';
  throttleTimeMs: number;
  errorCode: ErrorCode;
  responses: { topic: string; partitions: FetchPartitionResponse[] }[];
}

// ---------------------------------------------------------------- ListOffsets (api key 2)

// ListOffsets' special timestamps are the log's (OffsetLookup answers them).
export { EARLIEST_TIMESTAMP, LATEST_TIMESTAMP } from '../log/OffsetLookup';
/** ListOffsetsRequest.EARLIEST_LOCAL_TIMESTAMP (KIP-405): without tiered storage, the log start. */
export const EARLIEST_LOCAL_TIMESTAMP = -4;
/** ListOffsetsRequest.LATEST_TIERED_TIMESTAMP (KIP-1005): the highest offset in remote storage. */
export const LATEST_TIERED_TIMESTAMP = -5;
/** The newest ListOffsets version Kafka 3.9 serves. */
export const LIST_OFFSETS_MAX_VERSION = 9;
/** KafkaApis.handleListOffsetRequestV1AndAbove's timestampMinSupportedVersion: special timestamp -> first version that knows it. */
export const LIST_OFFSETS_TIMESTAMP_MIN_VERSION: ReadonlyMap<number, number> = new Map([
  [-2, 1],
  [-1, 1],
  [-3, 7],
  [-4, 8],
  [-5, 9],
]);

export interface ListOffsetsRequest {
  api: 'ListOffsets';
  /** The request's version on the wire; the newest (LIST_OFFSETS_MAX_VERSION) when omitted. */
  version?: number;
  replicaId: number;
  isolationLevel: 0 | 1;
  topics: { name: string; partitions: { partitionIndex: number; currentLeaderEpoch: number; timestamp: number }[] }[];
}

export interface ListOffsetsResponse {
  api: 'ListOffsets';
  throttleTimeMs: number;
  topics: {
    name: string;
    partitions: {
      partitionIndex: number;
      errorCode: ErrorCode;
      timestamp: number;
      offset: number;
      leaderEpoch: number;
    }[];
  }[];
}

// ---------------------------------------------------------------- OffsetsForLeaderEpoch (api key 23)

export interface OffsetsForLeaderEpochRequest {
  api: 'OffsetsForLeaderEpoch';
  replicaId: number;
  topics: { topic: string; partitions: { partition: number; currentLeaderEpoch: number; leaderEpoch: number }[] }[];
}

export interface OffsetsForLeaderEpochResponse {
  api: 'OffsetsForLeaderEpoch';
  throttleTimeMs: number;
  topics: {
    topic: string;
    partitions: { errorCode: ErrorCode; partition: number; leaderEpoch: number; endOffset: number }[];
  }[];
}

// ---------------------------------------------------------------- controller -> broker

export interface LeaderAndIsrPartitionState {
  topicName: string;
  partitionIndex: number;
  controllerEpoch: number;
  leader: number;
  leaderEpoch: number;
  isr: number[];
  /** The znode version of the partition state (Kafka's zkVersion / partitionEpoch). */
  partitionEpoch: number;
  replicas: number[];
  addingReplicas: number[];
  removingReplicas: number[];
  isNew: boolean;
}

export interface LeaderAndIsrRequest {
  api: 'LeaderAndIsr';
  controllerId: number;
  controllerEpoch: number;
  brokerEpoch: number;
  partitionStates: LeaderAndIsrPartitionState[];
  liveLeaders: number[];
}

export interface LeaderAndIsrResponse {
  api: 'LeaderAndIsr';
  errorCode: ErrorCode;
  partitionErrors: { topicName: string; partitionIndex: number; errorCode: ErrorCode }[];
}

export interface UpdateMetadataRequest {
  api: 'UpdateMetadata';
  controllerId: number;
  controllerEpoch: number;
  brokerEpoch: number;
  partitionStates: (LeaderAndIsrPartitionState & { offlineReplicas: number[] })[];
  liveBrokers: MetadataBroker[];
  /** Topics removed from the cluster (a deletion). */
  deletedTopics: string[];
}

export interface UpdateMetadataResponse {
  api: 'UpdateMetadata';
  errorCode: ErrorCode;
}

export interface StopReplicaRequest {
  api: 'StopReplica';
  controllerId: number;
  controllerEpoch: number;
  brokerEpoch: number;
  partitions: { topicName: string; partitionIndex: number; leaderEpoch: number; deletePartition: boolean }[];
}

export interface StopReplicaResponse {
  api: 'StopReplica';
  errorCode: ErrorCode;
  partitionErrors: { topicName: string; partitionIndex: number; errorCode: ErrorCode }[];
}

// ---------------------------------------------------------------- broker -> controller

/** A leader asks the controller to change a partition's ISR (KIP-497, AlterIsr / AlterPartition). */
export interface AlterPartitionRequest {
  api: 'AlterPartition';
  brokerId: number;
  brokerEpoch: number;
  topics: {
    topicName: string;
    partitions: { partitionIndex: number; leaderEpoch: number; newIsr: number[]; partitionEpoch: number }[];
  }[];
}

export interface AlterPartitionResponse {
  api: 'AlterPartition';
  errorCode: ErrorCode;
  topics: {
    topicName: string;
    partitions: {
      partitionIndex: number;
      errorCode: ErrorCode;
      leaderId: number;
      leaderEpoch: number;
      isr: number[];
      partitionEpoch: number;
    }[];
  }[];
}

export interface ControlledShutdownRequest {
  api: 'ControlledShutdown';
  brokerId: number;
  brokerEpoch: number;
}

export interface ControlledShutdownResponse {
  api: 'ControlledShutdown';
  errorCode: ErrorCode;
  remainingPartitions: { topicName: string; partitionIndex: number }[];
}

// ---------------------------------------------------------------- unions

export type KafkaRequest =
  | ProduceRequest
  | FetchRequest
  | ListOffsetsRequest
  | MetadataRequest
  | InitProducerIdRequest
  | OffsetsForLeaderEpochRequest
  | LeaderAndIsrRequest
  | UpdateMetadataRequest
  | StopReplicaRequest
  | AlterPartitionRequest
  | ControlledShutdownRequest
  | GroupRequest;

export type KafkaResponse =
  | ProduceResponse
  | FetchResponse
  | ListOffsetsResponse
  | MetadataResponse
  | InitProducerIdResponse
  | OffsetsForLeaderEpochResponse
  | LeaderAndIsrResponse
  | UpdateMetadataResponse
  | StopReplicaResponse
  | AlterPartitionResponse
  | ControlledShutdownResponse
  | GroupResponse;

export type ApiName = KafkaRequest['api'];

/** The response type that answers a request type. */
export type ResponseFor<R extends KafkaRequest> = Extract<KafkaResponse, { api: R['api'] }>;

/** Kafka's ApiKeys numbers, for display. */
export const API_KEYS: Readonly<Record<ApiName, number>> = {
  Produce: 0,
  Fetch: 1,
  ListOffsets: 2,
  Metadata: 3,
  LeaderAndIsr: 4,
  StopReplica: 5,
  UpdateMetadata: 6,
  ControlledShutdown: 7,
  OffsetCommit: 8,
  OffsetFetch: 9,
  FindCoordinator: 10,
  JoinGroup: 11,
  Heartbeat: 12,
  LeaveGroup: 13,
  SyncGroup: 14,
  DescribeGroups: 15,
  ListGroups: 16,
  InitProducerId: 22,
  OffsetsForLeaderEpoch: 23,
  AlterPartition: 56,
};

// ---------------------------------------------------------------- network addresses

/**
 * A node on the simulated network: `broker-<id>` for brokers, anything else (e.g.
 * `producer-1`, `consumer-a`) for clients. Clients register with the Network to send requests
 * and receive responses.
 */
export type NodeId = string;

export function brokerNodeId(brokerId: number): NodeId {
  return `broker-${brokerId}`;
}

/** The broker id of a `broker-<id>` node, or null for a client node. */
export function brokerIdOf(node: NodeId): number | null {
  const m = /^broker-(\d+)$/.exec(node);
  return m ? Number(m[1]) : null;
}
