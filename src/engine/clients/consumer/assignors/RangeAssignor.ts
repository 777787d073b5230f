/**
 * Kafka's RangeAssignor (`range`, the default `partition.assignment.strategy`): it works one
 * topic at a time. For each topic the subscribed members are sorted (static members first by
 * group.instance.id, then by member.id), the topic's n partitions are cut into m consecutive
 * ranges of n / m, and the first n % m members get one extra partition.
 *
 * The hazard the seeds point out lives in that "first": the same members win the extra partition
 * of every topic, so with 2 consumers and 3 topics of 3 partitions, C0 gets 6 and C1 gets 3, and
 * the gap grows with every topic subscribed. (Rack-aware matching is not modelled: members here
 * carry no rack.)
 */
import type { AssignmentRecorder } from './AssignmentRecorder';
import { compareMemberInfo, type GroupSubscription } from './GroupSubscription';

export function rangeAssign(group: GroupSubscription, recorder?: AssignmentRecorder): number[][] {
  const assignment: number[][] = group.members.map(() => []);
  const sorted = group.members.map((_, i) => i).sort((a, b) => compareMemberInfo(group.members[a]!, group.members[b]!));
  for (let t = 0; t < group.numTopics; t++) {
    const consumers = sorted.filter((m) => group.subscribes(m, t));
    if (consumers.length === 0) continue;
    const numPartitions = group.partitionCount(t);
    const numPartitionsPerConsumer = Math.floor(numPartitions / consumers.length);
    const consumersWithExtraPartition = numPartitions % consumers.length;
    const base = group.topicStart[t] as number;
    for (let i = 0; i < consumers.length; i++) {
      const start = numPartitionsPerConsumer * i + Math.min(i, consumersWithExtraPartition);
      const length = numPartitionsPerConsumer + (i < consumersWithExtraPartition ? 1 : 0);
      const member = consumers[i] as number;
      const list = assignment[member] as number[];
      for (let p = start; p < start + length; p++) {
        list.push(base + p);
        recorder?.record(
          'assign',
          member,
          base + p,
          `${group.topics[t]}: ${numPartitions} partitions over ${consumers.length} subscribed members = ` +
            `${numPartitionsPerConsumer} each, the first ${consumersWithExtraPartition} in sorted order get one more; ` +
            `member #${i} in that order takes partitions ${start}..${start + length - 1}`,
        );
      }
    }
  }
  return assignment;
}
