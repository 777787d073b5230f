/**
 * AbstractStickyAssignor's constrained algorithm, used when every member subscribes to the same
 * topics. With P partitions and M members each member ends with minQuota = floor(P / M) or
 * maxQuota = ceil(P / M) partitions, exactly P % M of them with maxQuota.
 *
 * 1. Members keep what they owned, up to quota, walking members in the leader's HashMap order
 *    and each member's owned partitions by (partition, topic): under minQuota keeps all; at or
 *    over maxQuota keeps maxQuota while fewer than P % M members have it; otherwise keeps
 *    minQuota. The rest is given up ("maybe revoked").
 * 2. Everything unowned, by topic then partition, is dealt round-robin to the members below
 *    minQuota (sorted by member id), then one each to members at minQuota until P % M members
 *    reach maxQuota.
 *
 * A partition that ends with a member other than the one that gave it up (or that two members of
 * the same generation both claimed) is "transferring ownership": cooperative-sticky holds it back
 * for one rebalance. O(P log P) overall.
 */
import type { AssignmentRecorder } from './AssignmentRecorder';
import { compareJavaStrings, type GroupSubscription } from './GroupSubscription';

export interface StickyBuildResult {
  assignment: number[][];
  /** partition id -> member that receives it from another member (null: compute it from the owned lists). */
  partitionsTransferringOwnership: Map<number, number> | null;
  /** General algorithm only: whether no topic had partitions moving both ways between two members. */
  isSticky?: boolean;
}

/**
 * What both sticky builders start from (the fields of Kafka's AbstractAssignmentBuilder): the
 * group, its members in the leader's HashMap order, and what each member still validly owns.
 */
export interface StickyBuildInput {
  group: GroupSubscription;
  memberOrder: readonly number[];
  ownedPartitions: readonly (readonly number[])[];
  recorder?: AssignmentRecorder;
}

export function buildConstrainedAssignment(
  { group, memberOrder, ownedPartitions, recorder }: StickyBuildInput,
  partitionsWithMultiplePreviousOwners: Uint8Array,
): StickyBuildResult {
  const members = group.members;
  const numberOfConsumers = members.length;
  const totalPartitionsCount = group.numPartitions;
  const T = group.numTopics;
  const minQuota = Math.floor(totalPartitionsCount / numberOfConsumers);
  const maxQuota = Math.ceil(totalPartitionsCount / numberOfConsumers);
  const expectedNumMembersWithOverMinQuotaPartitions = totalPartitionsCount % numberOfConsumers;
  let currentNumMembersWithOverMinQuotaPartitions = 0;

  const assignment: number[][] = members.map(() => []);
  const assigned = new Uint8Array(totalPartitionsCount);
  const maybeRevokedPartitions = new Int32Array(totalPartitionsCount).fill(-1);
  const unfilledMembersWithUnderMinQuotaPartitions: number[] = [];
  let unfilledMembersWithExactlyMinQuotaPartitions: number[] = [];
  const partitionsTransferringOwnership = new Map<number, number>();

  const keep = (member: number, partitions: readonly number[], reason: string) => {
    const list = assignment[member] as number[];
    for (const p of partitions) {
      list.push(p);
      assigned[p] = 1;
      recorder?.record('keep', member, p, reason);
    }
  };

  // Step 1: reassign previously owned partitions, up to the quota.
  for (const consumer of memberOrder) {
    const owned = (ownedPartitions[consumer] as readonly number[]).filter(
      (p) => partitionsWithMultiplePreviousOwners[p] !== 1,
    );
    // Kafka sorts owned partitions by partition number, then topic, before cutting at the quota.
    const sortKey = (p: number) => group.partitionOf(p) * T + (group.partitionTopic[p] as number);
    owned.sort((a, b) => sortKey(a) - sortKey(b));
    if (owned.length < minQuota) {
      keep(consumer, owned, `owned it; ${owned.length} owned is under minQuota ${minQuota}, so it keeps them all`);
      unfilledMembersWithUnderMinQuotaPartitions.push(consumer);
    } else if (
      owned.length >= maxQuota &&
      currentNumMembersWithOverMinQuotaPartitions < expectedNumMembersWithOverMinQuotaPartitions
    ) {
      currentNumMembersWithOverMinQuotaPartitions++;
      if (currentNumMembersWithOverMinQuotaPartitions === expectedNumMembersWithOverMinQuotaPartitions) {
        unfilledMembersWithExactlyMinQuotaPartitions = [];
      }
      keep(consumer, owned.slice(0, maxQuota), `owned it; keeps maxQuota ${maxQuota} of its ${owned.length}`);
      for (const p of owned.slice(maxQuota)) maybeRevokedPartitions[p] = consumer;
    } else {
      keep(consumer, owned.slice(0, minQuota), `owned it; keeps minQuota ${minQuota} of its ${owned.length}`);
      for (const p of owned.slice(minQuota)) maybeRevokedPartitions[p] = consumer;
      if (currentNumMembersWithOverMinQuotaPartitions < expectedNumMembersWithOverMinQuotaPartitions) {
        unfilledMembersWithExactlyMinQuotaPartitions.push(consumer);
      }
    }
  }

  const byMemberId = (a: number, b: number) =>
    compareJavaStrings((members[a] as { memberId: string }).memberId, (members[b] as { memberId: string }).memberId);
  unfilledMembersWithUnderMinQuotaPartitions.sort(byMemberId);
  unfilledMembersWithExactlyMinQuotaPartitions.sort(byMemberId);

  const assignNewPartition = (partition: number, consumer: number): number => {
    const list = assignment[consumer] as number[];
    list.push(partition);
    const previousOwner = maybeRevokedPartitions[partition] as number;
    const transferring =
      (previousOwner !== -1 && previousOwner !== consumer) || partitionsWithMultiplePreviousOwners[partition] === 1;
    if (transferring) partitionsTransferringOwnership.set(partition, consumer);
    if (recorder !== undefined) {
      if (previousOwner !== -1 && previousOwner !== consumer) {
        recorder.record(
          'move',
          consumer,
          partition,
          `its owner was over quota; dealt to a member below quota`,
          previousOwner,
        );
      } else if (partitionsWithMultiplePreviousOwners[partition] === 1) {
        recorder.record(
          'assign',
          consumer,
          partition,
          'claimed by two members of the same generation, so neither keeps it',
        );
      } else {
        recorder.record('assign', consumer, partition, 'unowned; dealt round-robin to members below quota');
      }
    }
    return list.length;
  };

  // Step 2: round-robin the unassigned partitions. `cursor` plays the LinkedList iterator over
  // the under-minQuota members: it wraps to the head when exhausted, and a member reaching
  // minQuota is removed at the cursor and queued behind the members exactly at minQuota.
  let cursor = 0;
  let exactlyHead = 0;
  for (let partition = 0; partition < totalPartitionsCount; partition++) {
    if (assigned[partition] === 1) continue;
    let consumer: number;
    let fromIterator = true;
    if (cursor < unfilledMembersWithUnderMinQuotaPartitions.length) {
      consumer = unfilledMembersWithUnderMinQuotaPartitions[cursor++] as number;
    } else if (unfilledMembersWithUnderMinQuotaPartitions.length === 0) {
      if (exactlyHead >= unfilledMembersWithExactlyMinQuotaPartitions.length) {
        // Kafka throws IllegalStateException here: the quotas add up, so it cannot happen.
        throw new Error('sticky assignor: no more unfilled consumers to be assigned');
      }
      consumer = unfilledMembersWithExactlyMinQuotaPartitions[exactlyHead++] as number;
      fromIterator = false;
    } else {
      cursor = 0;
      consumer = unfilledMembersWithUnderMinQuotaPartitions[cursor++] as number;
    }
    const currentAssignedCount = assignNewPartition(partition, consumer);
    if (currentAssignedCount === minQuota) {
      if (fromIterator) {
        cursor--;
        unfilledMembersWithUnderMinQuotaPartitions.splice(cursor, 1);
      }
      unfilledMembersWithExactlyMinQuotaPartitions.push(consumer);
    } else if (currentAssignedCount === maxQuota) {
      currentNumMembersWithOverMinQuotaPartitions++;
    }
  }
  return { assignment, partitionsTransferringOwnership };
}
