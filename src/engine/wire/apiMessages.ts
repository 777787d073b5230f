/**
 * Each API's request and response schema, by Kafka's name for the API (ApiKeys, in the messages'
 * own spelling: `Produce` for ProduceRequest / ProduceResponse), and the TypeScript types of both
 * inferred from the tables: `WireRequest<'Produce'>` is what a decoded Produce request holds,
 * `WireResponse<'Produce'>` what its answer may hold. A name not in the table is a compile error.
 */
import {
  AlterConfigsRequestData,
  AlterConfigsResponseData,
  IncrementalAlterConfigsRequestData,
  IncrementalAlterConfigsResponseData,
} from './apis/alterConfigs';
import { ApiVersionsRequestData, ApiVersionsResponseData } from './apis/apiVersions';
import { CreateTopicsRequestData, CreateTopicsResponseData } from './apis/createTopics';
import { DescribeClusterRequestData, DescribeClusterResponseData } from './apis/describeCluster';
import { DescribeConfigsRequestData, DescribeConfigsResponseData } from './apis/describeConfigs';
import { FetchRequestData, FetchResponseData } from './apis/fetch';
import {
  DescribeGroupsRequestData,
  DescribeGroupsResponseData,
  ListGroupsRequestData,
  ListGroupsResponseData,
} from './apis/groupAdmin';
import {
  DeleteGroupsRequestData,
  DeleteGroupsResponseData,
  OffsetDeleteRequestData,
  OffsetDeleteResponseData,
} from './apis/groupDeletion';
import {
  FindCoordinatorRequestData,
  FindCoordinatorResponseData,
  HeartbeatRequestData,
  HeartbeatResponseData,
  JoinGroupRequestData,
  JoinGroupResponseData,
  LeaveGroupRequestData,
  LeaveGroupResponseData,
  OffsetCommitRequestData,
  OffsetCommitResponseData,
  OffsetFetchRequestData,
  OffsetFetchResponseData,
  SyncGroupRequestData,
  SyncGroupResponseData,
} from './apis/groups';
import { InitProducerIdRequestData, InitProducerIdResponseData } from './apis/initProducerId';
import { ListOffsetsRequestData, ListOffsetsResponseData } from './apis/listOffsets';
import {
  DeleteRecordsRequestData,
  DeleteRecordsResponseData,
  DescribeLogDirsRequestData,
  DescribeLogDirsResponseData,
  DescribeProducersRequestData,
  DescribeProducersResponseData,
} from './apis/logAdmin';
import { MetadataRequestData, MetadataResponseData } from './apis/metadata';
import { OffsetForLeaderEpochRequestData, OffsetForLeaderEpochResponseData } from './apis/offsetForLeaderEpoch';
import {
  AlterPartitionReassignmentsRequestData,
  AlterPartitionReassignmentsResponseData,
  ElectLeadersRequestData,
  ElectLeadersResponseData,
  ListPartitionReassignmentsRequestData,
  ListPartitionReassignmentsResponseData,
} from './apis/partitionAdmin';
import { ProduceRequestData, ProduceResponseData } from './apis/produce';
import {
  CreatePartitionsRequestData,
  CreatePartitionsResponseData,
  DeleteTopicsRequestData,
  DeleteTopicsResponseData,
} from './apis/topicAdmin';
import type { WireMessage, WireMessageToEncode } from './messageTypes';
import type { Field, MessageSchema } from './schema';

/** A request and its response: the response's api key must be the request's, or it does not compile. */
export function requestAndResponse<K extends number, Q extends readonly Field[], R extends readonly Field[]>(
  request: MessageSchema<K, Q>,
  response: MessageSchema<NoInfer<K>, R>,
) {
  return { request, response };
}

/** Every API glassbox has schemas for, in api key order. */
export const WIRE_APIS = {
  Produce: requestAndResponse(ProduceRequestData, ProduceResponseData),
  Fetch: requestAndResponse(FetchRequestData, FetchResponseData),
  ListOffsets: requestAndResponse(ListOffsetsRequestData, ListOffsetsResponseData),
  Metadata: requestAndResponse(MetadataRequestData, MetadataResponseData),
  OffsetCommit: requestAndResponse(OffsetCommitRequestData, OffsetCommitResponseData),
  OffsetFetch: requestAndResponse(OffsetFetchRequestData, OffsetFetchResponseData),
  FindCoordinator: requestAndResponse(FindCoordinatorRequestData, FindCoordinatorResponseData),
  JoinGroup: requestAndResponse(JoinGroupRequestData, JoinGroupResponseData),
  Heartbeat: requestAndResponse(HeartbeatRequestData, HeartbeatResponseData),
  LeaveGroup: requestAndResponse(LeaveGroupRequestData, LeaveGroupResponseData),
  SyncGroup: requestAndResponse(SyncGroupRequestData, SyncGroupResponseData),
  DescribeGroups: requestAndResponse(DescribeGroupsRequestData, DescribeGroupsResponseData),
  ListGroups: requestAndResponse(ListGroupsRequestData, ListGroupsResponseData),
  ApiVersions: requestAndResponse(ApiVersionsRequestData, ApiVersionsResponseData),
  CreateTopics: requestAndResponse(CreateTopicsRequestData, CreateTopicsResponseData),
  DeleteTopics: requestAndResponse(DeleteTopicsRequestData, DeleteTopicsResponseData),
  DeleteRecords: requestAndResponse(DeleteRecordsRequestData, DeleteRecordsResponseData),
  InitProducerId: requestAndResponse(InitProducerIdRequestData, InitProducerIdResponseData),
  OffsetForLeaderEpoch: requestAndResponse(OffsetForLeaderEpochRequestData, OffsetForLeaderEpochResponseData),
  DescribeConfigs: requestAndResponse(DescribeConfigsRequestData, DescribeConfigsResponseData),
  AlterConfigs: requestAndResponse(AlterConfigsRequestData, AlterConfigsResponseData),
  DescribeLogDirs: requestAndResponse(DescribeLogDirsRequestData, DescribeLogDirsResponseData),
  CreatePartitions: requestAndResponse(CreatePartitionsRequestData, CreatePartitionsResponseData),
  DeleteGroups: requestAndResponse(DeleteGroupsRequestData, DeleteGroupsResponseData),
  ElectLeaders: requestAndResponse(ElectLeadersRequestData, ElectLeadersResponseData),
  IncrementalAlterConfigs: requestAndResponse(IncrementalAlterConfigsRequestData, IncrementalAlterConfigsResponseData),
  AlterPartitionReassignments: requestAndResponse(
    AlterPartitionReassignmentsRequestData,
    AlterPartitionReassignmentsResponseData,
  ),
  ListPartitionReassignments: requestAndResponse(
    ListPartitionReassignmentsRequestData,
    ListPartitionReassignmentsResponseData,
  ),
  OffsetDelete: requestAndResponse(OffsetDeleteRequestData, OffsetDeleteResponseData),
  DescribeCluster: requestAndResponse(DescribeClusterRequestData, DescribeClusterResponseData),
  DescribeProducers: requestAndResponse(DescribeProducersRequestData, DescribeProducersResponseData),
};

/** An API's name: `'Produce'`, `'Fetch'`, ... */
export type WireApi = keyof typeof WIRE_APIS;

/** A decoded request of API `A`: every field present (a field its version lacks holds its default). */
export type WireRequest<A extends WireApi> = WireMessage<(typeof WIRE_APIS)[A]['request']>;

/** An answer of API `A` to encode: a field left out is written as its default; an unknown one does not compile. */
export type WireResponse<A extends WireApi> = WireMessageToEncode<(typeof WIRE_APIS)[A]['response']>;
