// Public surface of the engine. A plain list of re-exports; append yours below.
export type {
  CompressionType,
  DefaultRecord,
  RecordBatch,
  RecordBatchHeader,
  RecordBatchInput,
  RecordHeader,
  SimpleRecord,
  TimestampType,
} from './codec';
export {
  crc32c,
  decodeRecordBatches,
  defaultPartition,
  encodeRecordBatch,
  murmur2,
  RECORD_BATCH_OVERHEAD,
  readBatchHeader,
  toPositive,
  validateBatchCrc,
  withRecords,
} from './codec';
export type { DumpOptions, DumpOutput, DumpSiblings, SegmentFileKind } from './codec/dumpLog';
export { dumpSegmentFile, segmentFileKind } from './codec/dumpLog';
export type { AssignReplicasOptions, BrokerRackInfo, PlacementStep } from './cluster/ReplicaPlacement';
export {
  assignReplicasToBrokers,
  assignReplicasToBrokersWithSteps,
  getRackAlternatedBrokerList,
} from './cluster/ReplicaPlacement';
export * from './cluster/requests';
export type {
  AssignmentExplanation,
  AssignmentStep,
  AssignmentStrategy,
  GroupAssignment,
  MemberSubscription,
  PartitionsPerTopic,
  TopicPartition,
} from './clients/consumer/assignors/types';
export { ASSIGNMENT_STRATEGIES } from './clients/consumer/assignors/types';
export { assignPartitions, explainAssignment } from './clients/consumer/assignors/assignPartitions';
export {
  groupCoordinatorPartition,
  DEFAULT_OFFSETS_TOPIC_NUM_PARTITIONS,
} from './coordinator/group/groupCoordinatorPartition';
export { javaStringHashCode } from './clients/consumer/javaStringHashCode';
// producer
export type { BatchInRequest, ProducerEvent } from './producer/events';
export { KafkaProducer } from './producer/KafkaProducer';
export type { PartitionChoice, PartitionerStrategy, TopicPartitionsView } from './producer/Partitioner';
export { Partitioner } from './producer/Partitioner';
export type { ProducerConfig, ProducerConfigInput } from './producer/ProducerConfig';
export { PRODUCER_DEFAULTS, resolveProducerConfig } from './producer/ProducerConfig';
export type { DeliveryReport, ProducerRecord } from './producer/ProducerRecord';
// cluster + facade
export type { BrokerConfig, BrokerConfigInput } from './cluster/BrokerConfig';
export { createBrokerConfig, KAFKA_DEFAULT_BROKER_CONFIG } from './cluster/BrokerConfig';
export type {
  ActiveProducer,
  DeleteRecordsResult,
  ElectionResult,
  ElectionType,
  LogDirDescription,
  OngoingReassignment,
} from './cluster/AdminOperations';
export {
  DELETE_TO_HIGH_WATERMARK,
  deleteRecordsOnLeader,
  describeLogDirs,
  describeProducers,
  electLeaders,
  isInternalTopic,
  listPartitionReassignments,
  lowWatermarkIfLeader,
} from './cluster/AdminOperations';
export type { AddBrokerOptions, CreateTopicOptions } from './cluster/Cluster';
export { Cluster } from './cluster/Cluster';
export type { ConfigSource, ConfigSynonym, ConfigValueType, DescribedConfig } from './cluster/ConfigDescriber';
export {
  describeBrokerConfigs,
  describeDefaultBrokerConfigs,
  describeTopicConfigs,
  topicConfigEntries,
} from './cluster/ConfigDescriber';
export { brokerConfigOverrides } from './cluster/DynamicBrokerConfig';
export type { StoredCluster } from './cluster/StoredCluster';
export { readStoredCluster } from './cluster/StoredCluster';
export { readStoredZnodes, ZOOKEEPER_DIR, znodeFile } from './cluster/ZnodeFiles';
export type { CoordinationEvent, ZnodeSnapshot } from './cluster/CoordinationStore';
export type { BrokerDownHow, ClusterEvent, LeaderAndIsrValue, LeaderElectionReason } from './cluster/events';
export { checkReplicationInvariants } from './cluster/invariants';
export type { MessageCause, NetworkEvent } from './cluster/Network';
export type { SegmentSummary } from './cluster/ReplicaLog';
export type { PartitionState } from './cluster/PartitionStateMachine';
export type { ReplicaState } from './cluster/ReplicaStateMachine';
export { tpKey } from './TopicPartition';
export { validateTopicName } from './cluster/TopicConfig';
export type { TopicConfigOverrides } from './cluster/TopicConfig';
export type {
  EngineEvent,
  EngineOptions,
  EngineSnapshot,
  PartitionSnapshot,
  ReplicaSnapshot,
} from './engine';
export { Engine, replicaDir } from './engine';
// consumer groups: coordinator, offsets in __consumer_offsets, consumers, legacy ZooKeeper consumer
export type { ClassicGroupState } from './coordinator/group/ClassicGroup';
export type {
  CommitMode,
  ConsumerAppState,
  ConsumerGroupsSnapshot,
  GroupProtocol,
} from './consumerApps/ConsumerApplications';
export { COMMIT_MODES } from './consumerApps/ConsumerApplications';
export type { ConsumerConfig, GroupCoordinatorConfig } from './clients/consumer/ConsumerConfig';
export {
  CONSUMER_DEFAULTS,
  consumerConfig,
  GROUP_COORDINATOR_DEFAULTS,
  groupCoordinatorConfig,
} from './clients/consumer/ConsumerConfig';
export type { ConsumerGroupDescribeRow, ConsumerSnapshot, GroupSnapshot } from './consumerApps/ConsumerGroups';
export { ConsumerGroups, lag } from './consumerApps/ConsumerGroups';
export { OFFSETS_TOPIC } from './coordinator/group/GroupCoordinator';
export type { GroupEvent } from './clients/consumer/groupEvents';
export type * from './clients/consumer/groupProtocol';
export { type ConsumerRecord, KafkaConsumer } from './clients/consumer/KafkaConsumer';
// the __consumer_offsets key/value schemas and the consumer protocol's Subscription/Assignment
export * from './clients/consumer/offsetsSchema';
export type { ConsumerRebalanceListener } from './clients/consumer/SubscriptionState';
export { type ZkConsumerConfig, ZookeeperConsumerConnector } from './clients/consumer/ZookeeperConsumerConnector';
// log (partition log: segments, indexes, traced lookup, recovery, retention, compaction)
export type {
  CleanerResult,
  FetchDataInfo,
  EpochEntry,
  LogAppendInfo,
  LogConfig,
  LogConfigInput,
  LogRecoveryReport,
  LookupStep,
  LookupStepKind,
  OffsetLookupAnswer,
  RetentionResult,
  SegmentInfo,
  SegmentLoadReport,
  StoreOperation,
  TimestampLookupAnswer,
} from './log';
export {
  createLogConfig,
  GLASSBOX_DEMO_LOG_CONFIG,
  KAFKA_DEFAULT_LOG_CONFIG,
  LeaderEpochFileCache,
  UnifiedLog,
  StoreWriter,
} from './log';
export type { ProducerRecordInput, ProducerSnapshot, SendManyOptions } from './producer/ProducerRegistry';
export { ProducerRegistry } from './producer/ProducerRegistry';
// views: the plain data a host sends its page, and the builders that read them from engine state
export type * from './views/types';
export type { LeaderReplica, ReplicationGauges } from './queries';
export { DataPath } from './views/DataPath';
export {
  bytesToText,
  cleanupView,
  headerFields,
  lookupView,
  MAX_DRAWN_SEGMENTS,
  partitionView,
  recordWindow,
  segmentDump,
} from './views/logViews';
export { recoveryView } from './views/recoveryView';
export { serializeError } from './views/serializeError';
// what a host injects and catches: clock, randomness, store, errors
export type { Clock } from './Clock';
export { ManualClock } from './Clock';
export { Rng } from './Rng';
export type { Store } from './Store';
export type { KafkaErrorCode } from './errors';
export { isKafkaError, KAFKA_ERROR_NUMBERS, KafkaError } from './errors';
// Kafka's wire protocol (the Node host's gateway) and the one byte codec it is written over
export * from './wire/index';
export { ByteReader, ByteWriter } from './codec/bytes';
export type { LostWithStore } from './engine';
export { ensureNoCollision, hasCollision } from './cluster/TopicCollision';
export type { CrashReport } from './consumerApps/ConsumerApplications';
export { ConsumerApplications } from './consumerApps/ConsumerApplications';
export { decodeBatchRecords, LOG_OVERHEAD, NO_PARTITION_LEADER_EPOCH } from './codec';
// zstd's WebAssembly encoder loads asynchronously: each host awaits it once before an engine runs.
export { loadZstdEncoder } from './codec/zstdCodec';
export type { RetentionReason } from './log';
export { indexFileName, logFileName, parseSegmentFileName, timeIndexFileName } from './log';
export { SegmentNotLoadedError } from './log/SegmentCache';
export {
  type BrokerCommand,
  BROKER_COMMAND_OPS,
  type EngineCommand,
  type EngineCommandOp,
  type EngineCommandResult,
  type EngineCommandTable,
  isBrokerCommand,
  isBrokerCommandOp,
  runBrokerCommand,
} from './commands';
