import type { GroupCoordinator } from '../coordinator/group/GroupCoordinator';
import type { ErrorCode } from './requests';
import type { Rng } from '../Rng';
import type { BrokerConfig } from './BrokerConfig';
import type { CoordinationStore } from './CoordinationStore';
import type { ClusterEvent } from './events';
import type { Network } from './Network';
import type { HostedLog } from './HostedLog';
import type { ReplicaLog } from './ReplicaLog';
import type { KafkaRequest } from './requests';
import type { Scheduler } from './Scheduler';
import type { TopicConfig, TopicConfigOverrides } from './TopicConfig';

/** What the cluster gives every broker: time, the network, the coordination store, disks. */
export interface ClusterServices {
  /**
   * ZooKeeper-mode AutoTopicCreationManager: writes a new topic's znodes with the broker's
   * num.partitions and default.replication.factor; the error name when it cannot.
   */
  autoCreateTopic(topic: string): ErrorCode;
  /** A fresh topic id (Uuid.randomUuid's form) for a topic znode that has none. */
  newTopicId(topic: string): string;
  scheduler: Scheduler;
  network: Network;
  zk: CoordinationStore;
  emit(event: ClusterEvent): void;
  /** Whether anyone takes events of a type: per-append events are skipped when nobody does. */
  wants(type: ClusterEvent['type']): boolean;
  rng: Rng;
  config: BrokerConfig;
  clusterId: string;
  /** Opens (or creates) the log of a replica in a broker's log dir. */
  newLog(brokerId: number, logDir: string, topic: string, partition: number): ReplicaLog;
  deleteLog(brokerId: number, logDir: string, topic: string, partition: number): void;
  /** The effective config of a topic (broker defaults + /config/topics/<topic>). */
  topicConfig(topic: string): TopicConfig;
  /** The topic's config over extra broker-level defaults (a broker's dynamic log configs). */
  topicConfigOver(topic: string, brokerDefaults: TopicConfigOverrides): TopicConfig;
  /** Called by the controller before it elects an out-of-sync leader: reports what will be lost. */
  reportUncleanElection(topic: string, partition: number, newLeader: number): void;
  /** Stores a log dir's replication-offset-checkpoint text. */
  writeHighWatermarkCheckpoint(brokerId: number, logDir: string, text: string): void;
  /** Stores a log dir's cleaner-offset-checkpoint text. */
  writeCleanerCheckpoint(brokerId: number, logDir: string, text: string): void;
  /**
   * Stores (null: deletes) a file of a log dir by name: recovery-point-offset-checkpoint,
   * log-start-offset-checkpoint, .kafka_cleanshutdown. Without it the files exist nowhere.
   */
  writeLogDirFile?(brokerId: number, logDir: string, fileName: string, text: string | null): void;
  /** The logs already on a log dir when the broker's process is created (a restart from the Store). */
  loadLogs(brokerId: number, logDir: string): HostedLog[];
  /** The cleaner-offset-checkpoint text a log dir holds when the broker's process is created, if any. */
  readCleanerCheckpoint?(brokerId: number, logDir: string): string | null;
  /**
   * The group coordinator running in a broker, if the host runs one: a broker service its
   * KafkaApis dispatches the group APIs to, and tells when a LeaderAndIsr or StopReplica moves a
   * `__consumer_offsets` partition (onElection / onResignation).
   */
  groupCoordinator?(brokerId: number): GroupCoordinator | undefined;
}

/** ClusterServices plus what is bound to one broker. */
export interface BrokerServices extends ClusterServices {
  /** Whether this broker's metadata cache knows the partition (NOT_LEADER vs UNKNOWN_TOPIC). */
  metadataHasPartition(topic: string, partition: number): boolean;
  /** Whether this broker's metadata cache counts the broker alive (ZkMetadataCache.hasAliveBroker). */
  metadataHasAliveBroker(id: number): boolean;
  /** Sends a request to the active controller; false when none is known or reachable. */
  sendToController(request: KafkaRequest): boolean;
  brokerEpoch(): number;
}
