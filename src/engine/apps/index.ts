/**
 * The application layer's one entry: the applications and the scenario around one Engine
 * (ClusterApps), the page's producer, the seeds' lookup example, and the types a host and the
 * page exchange about them. It reaches the engine only through engine/index.ts, as any host does.
 */
export {
  ClusterApps,
  DEMO_TOPIC_DEFAULTS,
  PROCESSING_MS_PER_RECORD,
  type AppsStorage,
  type HostDeployment,
  type SendOutcome,
} from './ClusterApps';
export { cleanupConfigs } from './topicCleanupConfigs';
export type { BoardRead, ConsumerEntry, GroupSettings } from './managers/Board';
export { DEMO_BROKER_CONFIG, DEMO_CONSUMER_CONFIG } from './demoConfig';
export { comparePartitions } from './comparePartitions';
/** For a link's parser, which reads broker actions by the engine's own list of them. */
export { isBrokerCommandOp } from '../index';
export { buildBoardView, type BoardSource } from './boardViews';
export { packLag } from './managers/LagSampler';
export { PRESETS, type Preset } from './presets';
export {
  DEFAULT_PRODUCER_SETTINGS,
  PANEL_CLIENT_ID,
  PRODUCER_EVENT_TYPES,
  panelProducerConfig,
  ProducerApp,
  type ProducerAppSpec,
} from './ProducerApp';
export {
  addSeedsLookupExample,
  appendRecords,
  buildSeedsLog,
  SEEDS_CONFIGS,
  SEEDS_SEGMENTS,
  SEEDS_TARGET,
  SEEDS_TOPIC,
} from './demo';
export { validateUserTopicName } from './userTopicName';
export * from './types';
export * from './scenarioTime';
export { checkAdvance, checkSendCount, lookupTarget, MAX_ADVANCE_MS, MAX_PRODUCE_MANY_RECORDS } from './requests';
export { RecordJourney } from './RecordJourney';
export type { HostedRun } from './HostedRun';
export { sameScenario } from './sameScenario';
export { lostPartitions } from './lostPartitions';
export { discardView, storedTopics } from './discardView';
export {
  type ImportedSegment,
  type ImportPlan,
  importPartitionFiles,
  importRefused,
  parsePartitionDir,
  validateLogFile,
} from './importPartition';
export { SendJob } from './SendJob';
export { replayEnd, ScenarioReplay } from './ScenarioReplay';
export { RecordWindows } from './RecordWindows';
export { ContentVersion } from './ContentVersion';
export {
  LESSONS,
  LessonJournal,
  lessonSummary,
  lessonWorld,
  probeStep,
  type LessonAction,
  type LessonProbe,
  type LessonSummary,
} from './lessons';
export {
  exportPartitionZip,
  importPartitionZip,
  MAX_IMPORT_BYTES,
  MAX_IMPORT_ENTRIES,
  MAX_IMPORT_INDEX_BYTES,
} from './partitionZip';
export { currentActionOp, currentTimedAction, LEGACY_ACTION_OPS } from './legacyActionOps';
export { CLUSTER_META_PATH, type ClusterMeta, readClusterMeta, writeClusterMeta } from './clusterMeta';
export {
  CHECKPOINT_EVERY_MS,
  MAX_CHECKPOINTS,
  MOMENT_KINDS,
  MOMENT_LABELS,
  type ForkView,
  type MomentKind,
  nextMoment,
  Replica,
  type ReplaySource,
  SegmentRolls,
  TimeMachine,
  type TimeMachineOptions,
  type TravelView,
  type ShownPast,
  TimeTravel,
} from './travel';
