/**
 * The shapes every assignor shares, named as Kafka's ConsumerPartitionAssignor names them: each
 * member's Subscription (topics, plus what it owned and in which generation), and the
 * GroupAssignment the group leader computes and hands back through SyncGroup.
 */

/** The `partition.assignment.strategy` names, spelled as the assignors' name() returns them. */
export type AssignmentStrategy = 'range' | 'roundrobin' | 'sticky' | 'cooperative-sticky';

export const ASSIGNMENT_STRATEGIES: readonly AssignmentStrategy[] = [
  'range',
  'roundrobin',
  'sticky',
  'cooperative-sticky',
];

export interface TopicPartition {
  topic: string;
  partition: number;
}

/** One member's subscription as the group leader sees it in the JoinGroup response. */
export interface MemberSubscription {
  memberId: string;
  /** `group.instance.id` of a static member; range and roundrobin order static members by it. */
  groupInstanceId?: string;
  topics: string[];
  /** What the member owned before this rebalance (the sticky assignors keep as much as they can). */
  ownedPartitions?: TopicPartition[];
  /** The generation those owned partitions belong to; absent means "unknown" (Kafka's Optional.empty). */
  generation?: number;
}

/** Member id to its partitions, every member present, each list sorted by topic then partition. */
export type GroupAssignment = Record<string, TopicPartition[]>;

/** Topic name to its partition count, as in the metadata the leader assigns from. */
export type PartitionsPerTopic = Record<string, number>;

/**
 * One decision of an assignor, for the UI to replay: who got which partition and why.
 * `keep` = retained from the member's previous assignment; `assign` = handed out fresh;
 * `move` = taken from another member to balance; `revoke` = withheld this generation because its
 * previous owner must give it up first (cooperative-sticky only).
 */
export interface AssignmentStep {
  action: 'assign' | 'keep' | 'move' | 'revoke';
  memberId: string;
  topic: string;
  partition: number;
  fromMemberId?: string;
  reason: string;
}

export interface AssignmentExplanation {
  strategy: AssignmentStrategy;
  assignment: GroupAssignment;
  steps: AssignmentStep[];
  /**
   * Which of AbstractStickyAssignor's two algorithms ran: `constrained` when every member
   * subscribes to the same topics, `general` otherwise. Absent for range and roundrobin.
   */
  stickyPath?: 'constrained' | 'general';
  /**
   * cooperative-sticky only: partitions left out of this generation's assignment because they
   * are moving; their new owner receives them in the follow-up rebalance.
   */
  revokedThisGeneration?: { topic: string; partition: number; from: string; to: string }[];
}
