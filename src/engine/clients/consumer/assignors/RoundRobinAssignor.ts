/**
 * Kafka's RoundRobinAssignor (`roundrobin`): every subscribed partition of every topic, sorted by
 * topic then partition, is dealt to the members in a circle (members sorted static-first as in
 * MemberInfo). A member not subscribed to a partition's topic is skipped, and the circle moves on.
 *
 * With identical subscriptions this balances to within one partition. With different
 * subscriptions it is the seeds' "consumption chaos": the circle's position carries over from one
 * topic to the next, so which member gets which topic's partitions depends on the other topics,
 * and the result can be far from balanced.
 */
import type { AssignmentRecorder } from './AssignmentRecorder';
import { compareMemberInfo, type GroupSubscription } from './GroupSubscription';

export function roundRobinAssign(group: GroupSubscription, recorder?: AssignmentRecorder): number[][] {
  const assignment: number[][] = group.members.map(() => []);
  const circle = group.members.map((_, i) => i).sort((a, b) => compareMemberInfo(group.members[a]!, group.members[b]!));
  if (circle.length === 0) return assignment;
  let position = 0;
  for (let id = 0; id < group.numPartitions; id++) {
    const t = group.partitionTopic[id] as number;
    let skipped = 0;
    // Every topic in the group's numbering has at least one subscriber, so this loop ends.
    while (!group.subscribes(circle[position] as number, t)) {
      position = (position + 1) % circle.length;
      skipped++;
    }
    const member = circle[position] as number;
    (assignment[member] as number[]).push(id);
    position = (position + 1) % circle.length;
    recorder?.record(
      'assign',
      member,
      id,
      skipped === 0
        ? 'next member in the circle'
        : `next member in the circle subscribed to ${group.topics[t]} (skipped ${skipped} not subscribed)`,
    );
  }
  return assignment;
}
