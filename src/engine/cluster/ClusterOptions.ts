/** What a Cluster is built with, and the options of its topic and broker commands. */
import type { ManualClock } from '../Clock';
import type { GroupCoordinator } from '../coordinator/group/GroupCoordinator';
import type { BrokerConfigInput } from './BrokerConfig';
import type { ZnodePersister } from './CoordinationStore';
import type { ClusterEvent } from './events';
import type { HostedLog } from './HostedLog';
import type { ReplicaLog } from './ReplicaLog';
import type { TopicConfigOverrides } from './TopicConfig';

export interface ClusterOptions {
  clock: ManualClock;
  seed: number;
  emit(event: ClusterEvent): void;
  /**
   * Whether anyone takes events of a type (default: yes). The events sent once per message or
   * per append (messageSent, messageDelivered, logAppended, ...) are not built when nobody does,
   * except the ones the cluster itself keeps books from.
   */
  wants?: (type: ClusterEvent['type']) => boolean;
  brokerConfig?: BrokerConfigInput;
  /** Topic-level defaults for every topic (e.g. a small segment.bytes for the UI). */
  topicDefaults?: TopicConfigOverrides;
  networkLatencyMs?: number;
  clusterId?: string;
  /** Opens a replica's log; MemoryReplicaLog by default. */
  logFactory?: (brokerId: number, logDir: string, topic: string, partition: number) => ReplicaLog;
  onDeleteLog?: (brokerId: number, logDir: string, topic: string, partition: number) => void;
  /**
   * A broker wrote its replication-offset-checkpoint for a log dir (every
   * replica.high.watermark.checkpoint.interval.ms): the text to store at
   * `<log dir>/replication-offset-checkpoint`, in Kafka's format (formatReplicationOffsetCheckpoint).
   */
  onHighWatermarkCheckpoint?: (brokerId: number, logDir: string, text: string) => void;
  /**
   * A broker's log cleaner checkpointed what it cleaned in a log dir: the text to store at
   * `<log dir>/cleaner-offset-checkpoint`, in Kafka's format (formatOffsetCheckpoint).
   */
  onCleanerCheckpoint?: (brokerId: number, logDir: string, text: string) => void;
  /** A broker wrote (text) or deleted (null) a log dir file: its checkpoints of recovery points and log start offsets, `.kafka_cleanshutdown`. */
  onLogDirFile?: (brokerId: number, logDir: string, fileName: string, text: string | null) => void;
  /** Where the coordination store's persistent znodes are written when they change (ZnodeFiles). */
  onZnodeChange?: ZnodePersister;
  /**
   * The logs a broker finds in one of its log dirs when its process is created (Kafka's
   * LogManager.loadLogs at startup): recovered replica logs with their checkpointed high watermarks.
   */
  loadLogs?: (brokerId: number, logDir: string) => HostedLog[];
  /** The cleaner-offset-checkpoint a log dir holds when a broker's process is created (a restart). */
  readCleanerCheckpoint?: (brokerId: number, logDir: string) => string | null;
  /** The group coordinator in each broker, told by KafkaApis when `__consumer_offsets` leadership moves. */
  groupCoordinator?: (brokerId: number) => GroupCoordinator | undefined;
}

export interface CreateTopicOptions {
  name: string;
  partitions?: number;
  replicationFactor?: number;
  configs?: TopicConfigOverrides;
  /** Explicit replica lists per partition (leader first); partitions/replicationFactor must then be omitted. */
  assignment?: number[][];
  /** Fixes the placement's start index and shift (Kafka's fixedStartIndex). */
  fixedStartIndex?: number;
}

export interface AddBrokerOptions {
  id?: number;
  rack?: string;
  logDirs?: string[];
}
