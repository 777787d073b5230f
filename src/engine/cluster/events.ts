import type { DeletedSegment } from '../log/UnifiedLog';
import type { CoordinationEvent } from './CoordinationStore';
import type { MessageCause, NetworkEvent } from './Network';
import type { PlacementStep } from './ReplicaPlacement';
import type { ErrorCode } from './requests';

/**
 * Everything the cluster reports, one discriminated union on `type`. Each event carries the
 * time and enough before/after values for the UI to animate it without asking again.
 */

export interface LeaderAndIsrValue {
  leader: number;
  leaderEpoch: number;
  isr: number[];
  partitionEpoch: number;
}

export type LeaderElectionReason =
  | 'newPartition'
  | 'offlinePartition'
  | 'uncleanElection'
  | 'preferredReplica'
  | 'controlledShutdown'
  | 'reassignment'
  | 'replicaOffline'
  | 'isrChange';

export type BrokerDownHow = 'killed' | 'powerFailed' | 'stopped';

export type ClusterEvent =
  | NetworkEvent
  | CoordinationEvent
  | { type: 'brokerStarted'; broker: number; rack: string | null; logDirs: string[]; atMs: number }
  | { type: 'brokerRegistered'; broker: number; brokerEpoch: number; atMs: number }
  | { type: 'brokerDown'; broker: number; how: BrokerDownHow; lostUnflushedBytes: number; atMs: number }
  | { type: 'brokerAdded'; broker: number; rack: string | null; atMs: number }
  | {
      type: 'replicaCreated';
      broker: number;
      topic: string;
      partition: number;
      /** The log.dir chosen: the one holding the fewest partitions (counts before this one). */
      logDir: string;
      partitionsPerLogDir: Record<string, number>;
      atMs: number;
    }
  | {
      type: 'logRetention';
      broker: number;
      topic: string;
      partition: number;
      deletedSegments: number;
      logStartOffset: number;
      /** The deleted segments (oldest first) and the limit each one broke, when the log reports them. */
      deleted?: DeletedSegment[];
      atMs: number;
    }
  | {
      type: 'logCompacted';
      broker: number;
      topic: string;
      partition: number;
      recordsSuperseded: number;
      tombstonesRemoved: number;
      bytesBefore: number;
      bytesAfter: number;
      /** Base offsets of the cleaned segments (each replaces the group of segments it was merged from). */
      cleanedSegments?: number[];
      /** The log's dirty ratio when the cleaner chose it (LogToClean.cleanableRatio). */
      dirtyRatio?: number;
      atMs: number;
    }
  | { type: 'replicaDeleted'; broker: number; topic: string; partition: number; logDir: string; atMs: number }
  | { type: 'controllerElected'; broker: number; controllerEpoch: number; previousEpoch: number; atMs: number }
  | { type: 'controllerResigned'; broker: number; controllerEpoch: number; atMs: number }
  | {
      type: 'staleControllerRequestRejected';
      broker: number;
      api: string;
      requestControllerEpoch: number;
      knownControllerEpoch: number;
      atMs: number;
    }
  | {
      type: 'topicCreated';
      topic: string;
      partitions: number;
      replicationFactor: number;
      assignment: number[][];
      configs: Record<string, unknown>;
      placementSteps: PlacementStep[];
      atMs: number;
    }
  | { type: 'partitionsAdded'; topic: string; oldCount: number; newCount: number; assignment: number[][]; atMs: number }
  | { type: 'topicDeletionStarted'; topic: string; atMs: number }
  | { type: 'topicDeleted'; topic: string; atMs: number }
  | {
      type: 'topicConfigChanged';
      topic: string;
      old: Record<string, unknown>;
      new: Record<string, unknown>;
      atMs: number;
    }
  | {
      type: 'partitionStateChanged';
      topic: string;
      partition: number;
      old: LeaderAndIsrValue | null;
      new: LeaderAndIsrValue;
      reason: LeaderElectionReason;
      controllerEpoch: number;
      atMs: number;
    }
  | { type: 'partitionOffline'; topic: string; partition: number; lastLeader: number; isr: number[]; atMs: number }
  | {
      type: 'uncleanLeaderElection';
      topic: string;
      partition: number;
      newLeader: number;
      newLeaderLogEndOffset: number;
      /** Records at offsets [from, to) that existed on some replica and will be truncated away. */
      lostOffsets: { from: number; to: number } | null;
      /** Of those, the ones that had been committed (below the highest high watermark): acknowledged data lost. */
      lostCommittedOffsets: { from: number; to: number } | null;
      atMs: number;
    }
  | {
      /**
       * A replica became leader with a log ending below the highest high watermark: the ISR's
       * last member, back after a power failure took committed records from its log (ZooKeeper
       * mode elects it again). Acknowledged records at [from, to) are lost. Seen by the
       * simulation (Cluster), not by Kafka, which cannot tell.
       */
      type: 'committedRecordsLost';
      topic: string;
      partition: number;
      newLeader: number;
      newLeaderLogEndOffset: number;
      lostCommittedOffsets: { from: number; to: number };
      atMs: number;
    }
  | {
      type: 'becameLeader' | 'becameFollower';
      broker: number;
      topic: string;
      partition: number;
      leader: number;
      leaderEpoch: number;
      isr: number[];
      logEndOffset: number;
      highWatermark: number;
      atMs: number;
    }
  | {
      type: 'logAppended';
      broker: number;
      topic: string;
      partition: number;
      role: 'leader' | 'follower';
      firstOffset: number;
      lastOffset: number;
      bytes: number;
      logEndOffset: number;
      /** The delivery this append happened in (a Produce request to a leader, a Fetch response to a follower). */
      cause: MessageCause | null;
      atMs: number;
    }
  | {
      type: 'highWatermarkChanged';
      broker: number;
      topic: string;
      partition: number;
      old: number;
      new: number;
      role: 'leader' | 'follower';
      /**
       * The delivery the HW moved in: on a leader, the follower's Fetch request whose offset moved
       * it (or the Produce request, with an ISR of one; an AlterPartition response that shrank the
       * ISR); on a follower, the leader's Fetch response that carried it. Null when no message did.
       */
      cause: MessageCause | null;
      atMs: number;
    }
  | {
      /** The leader learned a new LEO for a follower (from the offset of its fetch). */
      type: 'followerStateUpdated';
      leader: number;
      follower: number;
      topic: string;
      partition: number;
      followerLogEndOffset: number;
      lastCaughtUpTimeMs: number;
      atMs: number;
    }
  | {
      type: 'replicaTruncated';
      broker: number;
      topic: string;
      partition: number;
      oldLogEndOffset: number;
      newLogEndOffset: number;
      highWatermark: number;
      /**
       * The HW before: a truncation below it removes records this replica had seen committed —
       * only possible after a power failure or an unclean election.
       */
      oldHighWatermark: number;
      reason:
        | 'divergingEpoch'
        | 'highWatermarkFallback'
        | 'powerFailure'
        | 'becomeFollower'
        | 'leaderLogStartOffset'
        | 'leaderLogEndOffset';
      /** The leader's answer to OffsetsForLeaderEpoch that decided the point, when there was one. */
      leaderEpochEndOffset: { epoch: number; endOffset: number } | null;
      atMs: number;
    }
  | {
      type: 'isrChangeRequested';
      broker: number;
      topic: string;
      partition: number;
      change: 'shrink' | 'expand';
      oldIsr: number[];
      newIsr: number[];
      /** For a shrink: each dropped follower and how long since it was caught up. */
      lagging: { replica: number; lagMs: number }[];
      atMs: number;
    }
  | {
      type: 'produceHandled';
      broker: number;
      topic: string;
      partition: number;
      acks: number;
      errorCode: ErrorCode;
      baseOffset: number;
      lastOffset: number;
      duplicate: boolean;
      atMs: number;
    }
  | {
      type: 'produceCompleted';
      broker: number;
      topic: string;
      partition: number;
      errorCode: ErrorCode;
      baseOffset: number;
      waitedMs: number;
      atMs: number;
    }
  | { type: 'producerIdAllocated'; broker: number; producerId: number; producerEpoch: number; atMs: number }
  | {
      type: 'reassignmentStarted' | 'reassignmentCompleted';
      topic: string;
      partition: number;
      originalReplicas: number[];
      targetReplicas: number[];
      /** The target of the move in progress this one replaces (a cancel's target is the original replicas). */
      replacedTargetReplicas?: number[];
      atMs: number;
    }
  | {
      type: 'preferredLeaderElection';
      trigger: 'manual' | 'auto';
      partitions: { topic: string; partition: number; from: number; to: number }[];
      imbalance?: { broker: number; ratio: number }[];
      atMs: number;
    }
  | { type: 'controlledShutdown'; broker: number; remaining: number; atMs: number }
  | { type: 'invariantViolated'; message: string; atMs: number };
