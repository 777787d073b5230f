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

/** A request and its response: the same api key, or a compile error. */
function api<const K extends number, Q extends readonly Field[], R extends readonly Field[]>(
  request: MessageSchema<K, Q>,
  response: MessageSchema<K, R>,
) {
  return { request, response };
}

/** Every API glassbox has schemas for, in api key order. */
export const WIRE_APIS = {
  Produce: api(ProduceRequestData, ProduceResponseData),
  Fetch: api(FetchRequestData, FetchResponseData),
  ListOffsets: api(ListOffsetsRequestData, ListOffsetsResponseData),
  Metadata: api(MetadataRequestData, MetadataResponseData),
  OffsetCommit: api(OffsetCommitRequestData, OffsetCommitResponseData),
  OffsetFetch: api(OffsetFetchRequestData, OffsetFetchResponseData),
  FindCoordinator: api(FindCoordinatorRequestData, FindCoordinatorResponseData),
  JoinGroup: api(JoinGroupRequestData, JoinGroupResponseData),
  Heartbeat: api(HeartbeatRequestData, HeartbeatResponseData),
  LeaveGroup: api(LeaveGroupRequestData, LeaveGroupResponseData),
  SyncGroup: api(SyncGroupRequestData, SyncGroupResponseData),
  DescribeGroups: api(DescribeGroupsRequestData, DescribeGroupsResponseData),
  ListGroups: api(ListGroupsRequestData, ListGroupsResponseData),
  ApiVersions: api(ApiVersionsRequestData, ApiVersionsResponseData),
  CreateTopics: api(CreateTopicsRequestData, CreateTopicsResponseData),
  DeleteTopics: api(DeleteTopicsRequestData, DeleteTopicsResponseData),
  DeleteRecords: api(DeleteRecordsRequestData, DeleteRecordsResponseData),
  InitProducerId: api(InitProducerIdRequestData, InitProducerIdResponseData),
  OffsetForLeaderEpoch: api(OffsetForLeaderEpochRequestData, OffsetForLeaderEpochResponseData),
  DescribeConfigs: api(DescribeConfigsRequestData, DescribeConfigsResponseData),
  AlterConfigs: api(AlterConfigsRequestData, AlterConfigsResponseData),
  DescribeLogDirs: api(DescribeLogDirsRequestData, DescribeLogDirsResponseData),
  CreatePartitions: api(CreatePartitionsRequestData, CreatePartitionsResponseData),
  DeleteGroups: api(DeleteGroupsRequestData, DeleteGroupsResponseData),
  ElectLeaders: api(ElectLeadersRequestData, ElectLeadersResponseData),
  IncrementalAlterConfigs: api(IncrementalAlterConfigsRequestData, IncrementalAlterConfigsResponseData),
  AlterPartitionReassignments: api(AlterPartitionReassignmentsRequestData, AlterPartitionReassignmentsResponseData),
  ListPartitionReassignments: api(ListPartitionReassignmentsRequestData, ListPartitionReassignmentsResponseData),
  OffsetDelete: api(OffsetDeleteRequestData, OffsetDeleteResponseData),
  DescribeCluster: api(DescribeClusterRequestData, DescribeClusterResponseData),
  DescribeProducers: api(DescribeProducersRequestData, DescribeProducersResponseData),
};

/** An API's name: `'Produce'`, `'Fetch'`, ... */
export type WireApi = keyof typeof WIRE_APIS;

/** A decoded request of API `A`: every field present (a field its version lacks holds its default). */
export type WireRequest<A extends WireApi> = WireMessage<(typeof WIRE_APIS)[A]['request']>;

/** An answer of API `A` to encode: a field left out is written as its default; an unknown one does not compile. */
export type WireResponse<A extends WireApi> = WireMessageToEncode<(typeof WIRE_APIS)[A]['response']>;
