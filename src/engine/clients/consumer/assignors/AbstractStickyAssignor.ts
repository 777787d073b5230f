/**
 * Kafka's AbstractStickyAssignor, the shared half of `sticky` and `cooperative-sticky`.
 *
 * First it settles who owned what: each member reports its previously owned partitions and the
 * generation they belong to. Walking the members in the leader's HashMap order, a partition
 * claimed by two members goes to the higher generation; claimed by two members of the same
 * generation, it is taken from both (and counts as changing owner). Then it picks the algorithm:
 * the constrained one when all members subscribe to the same topics, the general one otherwise.
 * (Kafka's rack-aware variants of both are not modelled: members here carry no rack.)
 *
 * Checked against Kafka's own classes run on a JVM over thousands of random groups (the fixture
 * in testdata/): the same assignment every time, except where Kafka's would be invalid — it can
 * hand a partition back to an older-generation owner no longer subscribed to its topic (or throw
 * a NullPointerException doing so); glassbox skips that move.
 */
import type { AssignmentRecorder } from './AssignmentRecorder';
import { buildConstrainedAssignment, type StickyBuildResult } from './ConstrainedAssignmentBuilder';
import { buildGeneralAssignment } from './GeneralAssignmentBuilder';
import type { GroupSubscription } from './GroupSubscription';
import { javaHashMapOrder } from './javaHashOrder';

export const DEFAULT_GENERATION = -1;

export interface StickyAssignResult extends StickyBuildResult {
  path: 'constrained' | 'general';
  /** Highest generation any member reported (DEFAULT_GENERATION if none). */
  maxGeneration: number;
}

/**
 * Whether every member subscribes to exactly the same topics (as sent, existing or not). Kafka
 * also lets leading members with an empty subscription through; glassbox does not, since the
 * constrained algorithm would then hand them partitions they never subscribed to.
 */
export function allSubscriptionsEqual(group: GroupSubscription): boolean {
  const first = group.members[0];
  if (first === undefined) return true;
  const topics = new Set(first.subscribedTopics);
  return group.members.every(
    (m) =>
      m.subscribedTopics === first.subscribedTopics ||
      (m.subscribedTopics.length === topics.size && m.subscribedTopics.every((t) => topics.has(t))),
  );
}

export function stickyAssign(group: GroupSubscription, recorder?: AssignmentRecorder): StickyAssignResult {
  const members = group.members;
  if (members.length === 0) {
    return {
      assignment: [],
      partitionsTransferringOwnership: new Map(),
      path: 'constrained',
      maxGeneration: DEFAULT_GENERATION,
    };
  }
  const memberOrder = javaHashMapOrder(members.map((m) => m.memberId));

  // Resolve conflicting claims. `holder` is who keeps a claimed partition (-1: nobody);
  // `claimant` is the last member that claimed it, whose generation later claims compare against.
  const P = group.numPartitions;
  const holder = new Int32Array(P).fill(-1);
  const claimant = new Int32Array(P).fill(-1);
  const partitionsWithMultiplePreviousOwners = new Uint8Array(P);
  let maxGeneration = DEFAULT_GENERATION;
  for (const m of memberOrder) {
    const member = members[m] as (typeof members)[number];
    const memberGeneration = member.generation ?? DEFAULT_GENERATION;
    maxGeneration = Math.max(maxGeneration, memberGeneration);
    for (const p of member.ownedPartitions) {
      const other = claimant[p] as number;
      if (other === -1) {
        holder[p] = m;
        claimant[p] = m;
        continue;
      }
      const otherGeneration = members[other]?.generation ?? DEFAULT_GENERATION;
      if (memberGeneration === otherGeneration) {
        // Two owners in one generation is impossible in a healthy group: trust neither.
        partitionsWithMultiplePreviousOwners[p] = 1;
        holder[p] = -1;
        claimant[p] = m;
      } else if (memberGeneration > otherGeneration) {
        holder[p] = m;
        claimant[p] = m;
      }
      // else: the other member's newer generation keeps it.
    }
  }
  const ownedPartitions = members.map((member, m) => member.ownedPartitions.filter((p) => holder[p] === m));

  const input = { group, memberOrder, ownedPartitions, recorder };
  if (allSubscriptionsEqual(group)) {
    const result = buildConstrainedAssignment(input, partitionsWithMultiplePreviousOwners);
    return { ...result, path: 'constrained', maxGeneration };
  }
  const result = buildGeneralAssignment(input, maxGeneration);
  return { ...result, path: 'general', maxGeneration };
}
