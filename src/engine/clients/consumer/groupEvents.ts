import type { GroupApiName, GroupRequest, GroupResponse } from './groupProtocol';
import type { AssignmentStep, TopicPartition } from './assignors/types';

/**
 * A classic group's state by the name DescribeGroups reports (Kafka's ClassicGroupState), spelled
 * here so the client library's events do not import the broker's group coordinator.
 */
export type GroupStateName = 'Empty' | 'PreparingRebalance' | 'CompletingRebalance' | 'Stable' | 'Dead';

/**
 * Everything the consumer-group machinery does, as events the UI can animate: each request and
 * response between a consumer and a broker (with send and arrival times, so it can be drawn in
 * flight), each group state transition, each new generation with its full assignment, each
 * offset commit, each poll. Times are simulated milliseconds from the engine clock.
 */

export type ConsumerApiName = GroupApiName | 'Fetch' | 'ListOffsets' | 'OffsetsForLeaderEpoch' | 'Metadata';

/** A member joining a group or leaving it, and why. */
interface GroupMemberChange {
  groupId: string;
  memberId: string;
  groupInstanceId: string | null;
  reason: string;
  atMs: number;
}

export type GroupEvent =
  | {
      type: 'groupRequestSent';
      id: number;
      api: ConsumerApiName;
      from: string;
      toBroker: number;
      sentAtMs: number;
      arriveAtMs: number;
      /** When the client gives up on it (request.timeout.ms; rebalance.timeout.ms + 5 s for JoinGroup). Always set by the engine. */
      timeoutAtMs?: number;
      body: GroupRequest | { api: 'Fetch' | 'ListOffsets' | 'OffsetsForLeaderEpoch' | 'Metadata'; summary: string };
    }
  | {
      type: 'groupResponseSent';
      id: number;
      /** The id of the groupRequestSent this answers. */
      requestId: number;
      api: ConsumerApiName;
      fromBroker: number;
      to: string;
      sentAtMs: number;
      arriveAtMs: number;
      errorCode: string;
      body: GroupResponse | { api: 'Fetch' | 'ListOffsets' | 'OffsetsForLeaderEpoch' | 'Metadata'; summary: string };
    }
  | {
      /** A message lost on the way (its id is the groupRequestSent / groupResponseSent id). */
      type: 'groupMessageDropped';
      id: number;
      api: ConsumerApiName;
      kind: 'request' | 'response';
      /** Node ids: the consumer's id, or `broker-<id>`. */
      from: string;
      to: string;
      atMs: number;
      reason: 'senderDown' | 'receiverDown' | 'receiverUnreachable' | 'senderUnreachable' | 'requestAbandoned';
    }
  | {
      /** The client gave up on a request: the connection was reset or refused, or it timed out. */
      type: 'groupRequestFailed';
      id: number;
      api: ConsumerApiName;
      from: string;
      toBroker: number;
      reason: 'disconnected' | 'timedOut';
      atMs: number;
    }
  | {
      type: 'groupStateChanged';
      groupId: string;
      coordinator: number;
      from: GroupStateName | null;
      to: GroupStateName;
      generationId: number;
      atMs: number;
      reason: string;
    }
  | {
      type: 'groupGenerationCompleted';
      groupId: string;
      coordinator: number;
      generationId: number;
      protocolName: string | null;
      leader: string | null;
      /** memberId -> partitions, sorted; every member present. */
      assignment: Record<string, TopicPartition[]>;
      /** memberId -> client.id (the consumer's node on the network), to draw each member. */
      clientIds: Record<string, string>;
      atMs: number;
    }
  | ({ type: 'groupMemberAdded' } & GroupMemberChange)
  | ({ type: 'groupMemberRemoved' } & GroupMemberChange)
  | {
      type: 'groupMemberReplaced';
      groupId: string;
      oldMemberId: string;
      newMemberId: string;
      groupInstanceId: string;
      atMs: number;
    }
  | {
      /** A broker became leader of an offsets partition and starts replaying it. */
      type: 'coordinatorLoading';
      broker: number;
      offsetsPartition: number;
      batches: number;
      records: number;
      /** How long the replay takes; requests meanwhile get COORDINATOR_LOAD_IN_PROGRESS. */
      loadMs: number;
      completesAtMs: number;
      atMs: number;
    }
  | {
      type: 'coordinatorLoaded';
      broker: number;
      offsetsPartition: number;
      groups: string[];
      recordsReplayed: number;
      loadMs: number;
      atMs: number;
    }
  | {
      type: 'coordinatorUnloaded';
      broker: number;
      offsetsPartition: number;
      groups: string[];
      recordsReplayed: number;
      atMs: number;
    }
  | {
      /** The group leader ran the assignor between JoinGroup and SyncGroup. */
      type: 'groupAssignmentComputed';
      consumerId: string;
      groupId: string;
      generationId: number;
      strategy: string;
      subscriptions: Record<string, string[]>;
      partitionsPerTopic: Record<string, number>;
      assignment: Record<string, TopicPartition[]>;
      /** Every decision of the assignor, in order (null for very large groups). */
      steps: AssignmentStep[] | null;
      revokedThisGeneration: { topic: string; partition: number; from: string; to: string }[];
      atMs: number;
    }
  | { type: 'offsetsExpired'; groupIds: string[]; tombstones: number; offsetsPartition: number; atMs: number }
  | {
      type: 'offsetCommitted';
      groupId: string;
      topic: string;
      partition: number;
      offset: number;
      memberId: string;
      offsetsPartition: number;
      atMs: number;
    }
  | {
      type: 'consumerPolled';
      consumerId: string;
      groupId: string | null;
      records: { topic: string; partition: number; fromOffset: number; count: number }[];
      atMs: number;
    }
  | {
      type: 'consumerRebalanceCallback';
      consumerId: string;
      groupId: string;
      callback: 'onPartitionsRevoked' | 'onPartitionsAssigned' | 'onPartitionsLost';
      partitions: TopicPartition[];
      generationId: number;
      atMs: number;
    }
  | {
      type: 'consumerStateChanged';
      consumerId: string;
      groupId: string | null;
      state: string;
      atMs: number;
      reason: string;
    }
  | {
      type: 'consumerOffsetReset';
      consumerId: string;
      topic: string;
      partition: number;
      strategy: string;
      offset: number;
      atMs: number;
    }
  | {
      /**
       * KIP-320: validating a position against a new leader (OffsetsForLeaderEpoch) found the
       * leader's log for the position's epoch ends before it: records the consumer read are gone
       * (an unclean election). `divergentOffset` is that end (null: the leader knows no such epoch);
       * `outcome` what the consumer did: seek back to it, reset per auto.offset.reset, or throw
       * LogTruncationException (auto.offset.reset none).
       */
      type: 'consumerLogTruncation';
      consumerId: string;
      groupId: string | null;
      topic: string;
      partition: number;
      fetchOffset: number;
      offsetEpoch: number | null;
      /** Where the leader's log for that epoch ends (null: the leader has no such epoch). */
      divergentOffset: number | null;
      divergentEpoch: number | null;
      outcome: 'seek' | 'reset' | 'LogTruncationException';
      atMs: number;
    }
  | { type: 'consumerError'; consumerId: string; error: string; message: string; atMs: number }
  | {
      /** One step of the legacy ZooKeeper consumer's self-rebalance (seed 002). */
      type: 'zkRebalance';
      consumerId: string;
      groupId: string;
      phase:
        | 'registered'
        | 'watchFired'
        | 'started'
        | 'released'
        | 'noBrokers'
        | 'assigned'
        | 'ownershipConflict'
        | 'backoff'
        | 'succeeded'
        | 'failed';
      attempt: number;
      partitions: TopicPartition[];
      atMs: number;
      reason?: string;
      path?: string;
      watchType?: string;
      consumers?: string[];
      owners?: string[];
      backoffMs?: number;
    };
