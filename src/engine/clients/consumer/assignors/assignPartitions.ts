/**
 * The group leader's assignment step: run the `partition.assignment.strategy` the group agreed on
 * over the members' subscriptions and the topics' partition counts, as the real consumer leader
 * does between JoinGroup and SyncGroup. Every member appears in the result (idle members with an
 * empty list) and each list is sorted by topic, then partition.
 *
 * How a coordinator drives it (as KafkaConsumer's ConsumerCoordinator does):
 * - range, roundrobin: owned partitions and generations are ignored.
 * - sticky (eager): every member revokes everything before rejoining, but still reports what it
 *   had and in which generation (Kafka puts that in the subscription's user data); pass that as
 *   ownedPartitions/generation and most partitions come back to the same member.
 * - cooperative-sticky: members keep consuming and report what they own now. Partitions that
 *   must change hands are withheld (explainAssignment's revokedThisGeneration); their owners revoke
 *   them on seeing the new assignment and rejoin, and the follow-up rebalance assigns them.
 * - Members array order stands for the order of the leader's member map: with equal claims Kafka
 *   breaks ties by its HashMap order, which glassbox reproduces from this order.
 */
import { KafkaError } from '../../../errors';
import { stickyAssign } from './AbstractStickyAssignor';
import { AssignmentRecorder } from './AssignmentRecorder';
import { adjustAssignment, computePartitionsTransferringOwnership } from './CooperativeStickyAssignor';
import { GroupSubscription } from './GroupSubscription';
import { rangeAssign } from './RangeAssignor';
import { roundRobinAssign } from './RoundRobinAssignor';
import {
  ASSIGNMENT_STRATEGIES,
  type AssignmentExplanation,
  type AssignmentStrategy,
  type GroupAssignment,
  type MemberSubscription,
  type PartitionsPerTopic,
} from './types';

function run(
  strategy: AssignmentStrategy,
  members: readonly MemberSubscription[],
  partitionsPerTopic: PartitionsPerTopic,
  explain: boolean,
): AssignmentExplanation {
  if (!ASSIGNMENT_STRATEGIES.includes(strategy)) {
    throw new KafkaError('INCONSISTENT_GROUP_PROTOCOL', `unknown partition.assignment.strategy ${String(strategy)}`, {
      strategy,
    });
  }
  const group = new GroupSubscription(members, partitionsPerTopic);
  const recorder = explain ? new AssignmentRecorder(group) : undefined;
  if (strategy === 'range' || strategy === 'roundrobin') {
    const lists = strategy === 'range' ? rangeAssign(group, recorder) : roundRobinAssign(group, recorder);
    return { strategy, assignment: group.toGroupAssignment(lists), steps: recorder?.steps ?? [] };
  }
  const result = stickyAssign(group, recorder);
  const explanation: AssignmentExplanation = {
    strategy,
    assignment: {},
    steps: [],
    stickyPath: result.path,
  };
  if (strategy === 'cooperative-sticky') {
    const transferring =
      result.partitionsTransferringOwnership ?? computePartitionsTransferringOwnership(group, result.assignment);
    explanation.revokedThisGeneration = adjustAssignment(group, result.assignment, transferring, recorder);
  }
  explanation.assignment = group.toGroupAssignment(result.assignment);
  explanation.steps = recorder?.steps ?? [];
  return explanation;
}

/**
 * The assignment Kafka's assignor named `strategy` computes for these members and partitions.
 * Throws KafkaError INCONSISTENT_GROUP_PROTOCOL for an unknown strategy, INVALID_PARTITIONS for a
 * bad partition count, INVALID_REQUEST for malformed members (duplicate ids, bad owned partitions).
 */
export function assignPartitions(
  strategy: AssignmentStrategy,
  members: readonly MemberSubscription[],
  partitionsPerTopic: PartitionsPerTopic,
): GroupAssignment {
  return run(strategy, members, partitionsPerTopic, false).assignment;
}

/** The same assignment with every decision the assignor made, in order, for the UI to replay. */
export function explainAssignment(
  strategy: AssignmentStrategy,
  members: readonly MemberSubscription[],
  partitionsPerTopic: PartitionsPerTopic,
): AssignmentExplanation {
  return run(strategy, members, partitionsPerTopic, true);
}
