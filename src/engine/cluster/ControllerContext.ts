import type { BrokerServices } from './BrokerServices';
import type { LeaderAndIsrValue, LeaderElectionReason } from './events';

/** A partition's `/state` znode as the controller reads it. */
export type LeaderIsrAndControllerEpoch = LeaderAndIsrValue & { controllerEpoch: number };

/**
 * What the controller's state machines share with it (Kafka's ControllerContext plus the zk
 * client and request batch they are handed): the live brokers, the partitions' replicas and
 * `/state` znodes, and the one conditional write that changes a partition's leader and ISR.
 */
export interface ControllerContext {
  readonly services: BrokerServices;
  /** Live broker id -> broker epoch (the czxid of its `/brokers/ids/<id>` znode). */
  liveBrokers(): ReadonlyMap<number, number>;
  /** Brokers in controlled shutdown: never elected leader. */
  shuttingDown(): ReadonlySet<number>;
  now(): number;
  /** Every partition of every known topic, topics sorted. */
  allPartitions(): [string, number][];
  /** The partition's replicas: the assignment, or target + original while it is reassigned. */
  replicasOf(topic: string, partition: number): number[];
  readState(topic: string, partition: number): LeaderIsrAndControllerEpoch | null;
  /** Writes the partition's `/state` (conditional on `old`'s version) and reports it; null when refused. */
  writeState(
    topic: string,
    partition: number,
    next: { leader: number; leaderEpoch: number; isr: number[] },
    old: LeaderAndIsrValue | null,
    reason: LeaderElectionReason,
  ): LeaderAndIsrValue | null;
  /** LeaderAndIsr to the partition's live replicas but `except`, UpdateMetadata to every live broker. */
  propagate(topic: string, partition: number, v: LeaderAndIsrValue, isNew?: boolean, except?: number): void;
  /** StopReplica for the partition to `broker`, in the controller's request batch. */
  addStopReplica(broker: number, topic: string, partition: number, deletePartition: boolean): void;
  /** TopicDeletionManager.isTopicQueuedUpForDeletion. */
  isTopicQueuedUpForDeletion(topic: string): boolean;
}
