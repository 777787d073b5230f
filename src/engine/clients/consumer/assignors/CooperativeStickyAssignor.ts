/**
 * Kafka's CooperativeStickyAssignor (`cooperative-sticky`): the sticky assignment, made safe for
 * the incremental cooperative protocol. Members keep consuming through a rebalance, so a
 * partition must never be owned by two members at once: a partition that moves from A to B is
 * first left out of B's assignment. A sees it missing and revokes it; that revocation triggers a
 * follow-up rebalance, in which nobody owns it any more and B receives it.
 */
import type { AssignmentRecorder } from './AssignmentRecorder';
import type { GroupSubscription } from './GroupSubscription';

/**
 * Partitions assigned to a member that did not own them while another member owned them and is
 * losing them (CooperativeStickyAssignor.computePartitionsTransferringOwnership): what the
 * general algorithm needs, since it does not track transfers itself.
 */
export function computePartitionsTransferringOwnership(
  group: GroupSubscription,
  assignment: readonly (readonly number[])[],
): Map<number, number> {
  const P = group.numPartitions;
  const ownedBy: Set<number>[] = group.members.map((m) => new Set(m.ownedPartitions));
  const allAddedPartitions = new Map<number, number>();
  const allRevokedPartitions = new Uint8Array(P);
  group.members.forEach((_, m) => {
    const owned = ownedBy[m] as Set<number>;
    const assigned = new Set(assignment[m]);
    for (const p of assigned) if (!owned.has(p)) allAddedPartitions.set(p, m);
    for (const p of owned) if (!assigned.has(p)) allRevokedPartitions[p] = 1;
  });
  for (const p of [...allAddedPartitions.keys()]) if (allRevokedPartitions[p] !== 1) allAddedPartitions.delete(p);
  return allAddedPartitions;
}

/** Removes the transferring partitions from their new owners' assignments (adjustAssignment). */
export function adjustAssignment(
  group: GroupSubscription,
  assignment: number[][],
  partitionsTransferringOwnership: ReadonlyMap<number, number>,
  recorder?: AssignmentRecorder,
): { topic: string; partition: number; from: string; to: string }[] {
  if (partitionsTransferringOwnership.size === 0) return [];
  const byMember = new Map<number, Set<number>>();
  for (const [p, m] of partitionsTransferringOwnership) {
    let set = byMember.get(m);
    if (set === undefined) {
      set = new Set();
      byMember.set(m, set);
    }
    set.add(p);
  }
  for (const [m, set] of byMember) assignment[m] = (assignment[m] as number[]).filter((p) => !set.has(p));

  // Who has to give each one up (for the UI): the members that reported owning it.
  const owners = new Map<number, number[]>();
  group.members.forEach((member, m) => {
    for (const p of member.ownedPartitions) {
      if (partitionsTransferringOwnership.has(p)) {
        const list = owners.get(p) ?? [];
        list.push(m);
        owners.set(p, list);
      }
    }
  });
  const revoked: { topic: string; partition: number; from: string; to: string }[] = [];
  for (const [p, to] of [...partitionsTransferringOwnership].sort((a, b) => a[0] - b[0])) {
    const from = (owners.get(p) ?? []).filter((m) => m !== to);
    const fromIds = from.map((m) => group.members[m]?.memberId as string).join(',');
    revoked.push({ ...group.topicPartition(p), from: fromIds, to: group.members[to]?.memberId as string });
    recorder?.record(
      'revoke',
      to,
      p,
      `moving from ${fromIds} to ${group.members[to]?.memberId}: withheld this generation until ${fromIds} revokes it; assigned in the next rebalance`,
      from[0],
    );
  }
  return revoked;
}
