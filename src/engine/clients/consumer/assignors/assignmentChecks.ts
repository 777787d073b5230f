/**
 * Invariants every group assignment must satisfy, as Kafka's assignor tests state them
 * (AbstractStickyAssignorTest.verifyValidityAndBalance): each partition with a subscriber is owned
 * by exactly one member, only members subscribed to its topic own it, and — for the sticky
 * assignors — no member 2+ partitions short of another shares a topic with it. Returned as a list
 * of problems (empty when valid) so tests, the coordinator and the UI can all use them.
 */
import type { GroupAssignment, MemberSubscription, PartitionsPerTopic } from './types';

export function validityProblems(
  members: readonly MemberSubscription[],
  partitionsPerTopic: PartitionsPerTopic,
  assignment: GroupAssignment,
  options: { requireAllAssigned?: boolean } = {},
): string[] {
  const problems: string[] = [];
  const owners = new Map<string, string>();
  const subscribedTopics = new Set(members.flatMap((m) => m.topics));
  for (const m of members) {
    const list = assignment[m.memberId];
    if (list === undefined) {
      problems.push(`member ${m.memberId} is missing from the assignment`);
      continue;
    }
    for (const tp of list) {
      const key = `${tp.topic}-${tp.partition}`;
      if (!m.topics.includes(tp.topic))
        problems.push(`${key} is assigned to ${m.memberId}, which does not subscribe to ${tp.topic}`);
      if (tp.partition < 0 || tp.partition >= (partitionsPerTopic[tp.topic] ?? 0))
        problems.push(`${key} does not exist`);
      const other = owners.get(key);
      if (other !== undefined) problems.push(`${key} is assigned to both ${other} and ${m.memberId}`);
      owners.set(key, m.memberId);
    }
  }
  if (Object.keys(assignment).length !== members.length)
    problems.push('the assignment has members that are not in the group');
  if (options.requireAllAssigned ?? true) {
    for (const topic of subscribedTopics) {
      for (let p = 0; p < (partitionsPerTopic[topic] ?? 0); p++) {
        if (!owners.has(`${topic}-${p}`)) problems.push(`${topic}-${p} has subscribers but no owner`);
      }
    }
  }
  return problems;
}

/**
 * Kafka's balance rule for the sticky assignors: if two members' sizes differ by 2 or more, they
 * must not share a topic among their partitions (else one could have been moved).
 */
export function balanceProblems(assignment: GroupAssignment): string[] {
  const problems: string[] = [];
  const entries = Object.entries(assignment);
  for (let i = 0; i < entries.length; i++) {
    for (let j = i + 1; j < entries.length; j++) {
      const [a, la] = entries[i] as [string, { topic: string }[]];
      const [b, lb] = entries[j] as [string, { topic: string }[]];
      if (Math.abs(la.length - lb.length) <= 1) continue;
      const topicsA = new Set(la.map((tp) => tp.topic));
      const shared = lb.find((tp) => topicsA.has(tp.topic));
      if (shared !== undefined) {
        problems.push(`${a} has ${la.length} and ${b} has ${lb.length}, yet both hold partitions of ${shared.topic}`);
      }
    }
  }
  return problems;
}

/** Kafka's isFullyBalanced: every member's size within one of every other's. */
export function isFullyBalanced(assignment: GroupAssignment): boolean {
  const sizes = Object.values(assignment).map((l) => l.length);
  return sizes.length === 0 || Math.max(...sizes) - Math.min(...sizes) <= 1;
}
