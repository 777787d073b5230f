import type { SimpleRecord } from '../../codec/memoryRecords';
import type { KafkaErrorCode } from '../../errors';

/**
 * What the consumer-group machinery needs from the cluster, and nothing more. The engine backs
 * it with the real brokers (partition leaders, replication, the high watermark); tests back it
 * with InMemoryClusterPort. Keeping this seam narrow is what lets coordinators and consumers be
 * tested as pure state machines.
 */
export interface PortRecord {
  offset: number;
  timestamp: number;
  key: Uint8Array | null;
  value: Uint8Array | null;
  /** Bytes the record takes in its batch, for fetch size limits. */
  sizeInBytes: number;
  /** The base offset of the record batch holding it (a loading coordinator replays batch by batch). */
  batchBaseOffset?: number;
  /** The partitionLeaderEpoch of its batch (what a consumer's position carries, KIP-320); absent: unknown. */
  leaderEpoch?: number;
}

/** Answers an append: the first offset written, or the error that refused it (then -1). */
export type AppendCallback = (error: KafkaErrorCode | null, baseOffset: number) => void;

export interface ClusterPort {
  /** Live broker ids, ascending. */
  liveBrokers(): number[];
  isBrokerUp(brokerId: number): boolean;
  /** Partition count of a topic, or undefined if it does not exist. */
  partitionCount(topic: string): number | undefined;
  /** Every topic name (internal ones included). */
  topics(): string[];
  /** Whether `brokerId` itself currently leads the partition (its own replica state: O(1)). */
  leads(brokerId: number, topic: string, partition: number): boolean;
  /** The broker leading a partition, or null when it has none (offline). */
  leaderOf(topic: string, partition: number): number | null;
  /**
   * Creates a topic if it does not exist (replication factor capped to live brokers, as the
   * offsets topic is). Returns an error code when it cannot.
   */
  createTopic(
    name: string,
    partitions: number,
    replicationFactor: number,
    configs: Record<string, string>,
  ): KafkaErrorCode | 'NONE';
  /**
   * Appends records to a partition through its leader with acks=all; `done` runs later (on the
   * scheduler) with the first offset, or an error (NOT_LEADER_OR_FOLLOWER, NOT_ENOUGH_REPLICAS...).
   */
  append(topic: string, partition: number, records: SimpleRecord[], done: AppendCallback): void;
  /** The leader epoch of the partition's leader, as metadata reports it; without it epochs are unknown (no validation). */
  leaderEpochOf?(topic: string, partition: number): number | null;
  /** The whole local log of a replica, up to its log end (what a loading coordinator replays). */
  readLocalLog(brokerId: number, topic: string, partition: number): PortRecord[];
  /** Earliest (log start) and latest (high watermark) offsets a consumer may reset to. */
  listOffsets(
    brokerId: number,
    topic: string,
    partition: number,
  ): { errorCode: KafkaErrorCode | 'NONE'; earliest: number; latest: number };
  /**
   * Registers the one listener told when a broker starts or stops leading a partition, for a port
   * that plays the controller itself (InMemoryClusterPort). The engine's brokers tell their group
   * coordinator from KafkaApis instead, as each LeaderAndIsr lands.
   */
  onLeadershipChange?(listener: (brokerId: number, topic: string, partition: number, isLeader: boolean) => void): void;
  /** Registers the one listener told when a broker process goes down, and how. */
  onBrokerDown?(listener: (brokerId: number, how: 'killed' | 'powerFailed' | 'stopped') => void): void;
}
