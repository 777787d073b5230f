/**
 * Assignor benchmarks: the group of 2,000 members, all subscribed to 100 topics of 1,000
 * partitions (100,000 partitions), assigned by each `partition.assignment.strategy` through the
 * public assignPartitions (validation, numbering and building the result objects included).
 * The sticky assignors are timed twice: from scratch, and the realistic rebalance — every member
 * reports what it owned in the previous generation, one member has left and a new one joined.
 * Each figure is the median of 5 runs after a warm-up run. One more figure, without a target in
 * the issue: the general sticky algorithm, when the 2,000 members subscribe to different subsets.
 */
import { createRequire } from 'node:module';
import { assignPartitions } from '../src/engine/clients/consumer/assignors/assignPartitions';
import type {
  AssignmentStrategy,
  GroupAssignment,
  MemberSubscription,
} from '../src/engine/clients/consumer/assignors/types';
import { type BenchSuite, percentile, timeMicros } from './harness';

const require = createRequire(import.meta.url);
type KafkajsAssigner = (deps: {
  cluster: { findTopicPartitionMetadata(topic: string): { partitionId: number }[] };
}) => {
  assign(group: { members: { memberId: string }[]; topics: string[] }): Promise<unknown[]>;
};
const kafkajsRoundRobin = require('kafkajs/src/consumer/assigners/roundRobinAssigner') as KafkajsAssigner;

const MEMBERS = 2_000;
const TOPICS = 100;
const PARTITIONS_PER_TOPIC = 1_000;

const topics = Array.from({ length: TOPICS }, (_, i) => `topic-${String(i).padStart(3, '0')}`);
const partitionsPerTopic = Object.fromEntries(topics.map((t) => [t, PARTITIONS_PER_TOPIC]));
const members: MemberSubscription[] = Array.from({ length: MEMBERS }, (_, i) => ({
  memberId: `consumer-${i}-${(i * 2654435761) >>> 0}`,
  topics,
}));

function medianMs(fn: () => void, runs = 5): number {
  fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push(timeMicros(fn) / 1000);
  return percentile(
    times.sort((a, b) => a - b),
    50,
  );
}

/** The next generation's subscriptions: member 0 left, a new member joined, everyone reports what it owned. */
function nextGeneration(previous: GroupAssignment, generation: number): MemberSubscription[] {
  const next = members.slice(1).map((m) => ({ ...m, ownedPartitions: previous[m.memberId] ?? [], generation }));
  next.push({ memberId: 'consumer-new', topics, ownedPartitions: [], generation });
  return next;
}

/** kafkajs's RoundRobinAssigner on the same group (it also encodes each MemberAssignment, and assumes equal subscriptions). */
async function kafkajsRoundRobinMs(): Promise<number> {
  const partitionMetadata = Array.from({ length: PARTITIONS_PER_TOPIC }, (_, partitionId) => ({ partitionId }));
  const assigner = kafkajsRoundRobin({ cluster: { findTopicPartitionMetadata: () => partitionMetadata } });
  const group = { members: members.map((m) => ({ memberId: m.memberId })), topics };
  await assigner.assign(group);
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const start = process.hrtime.bigint();
    await assigner.assign(group);
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return percentile(
    times.sort((a, b) => a - b),
    50,
  );
}

const suite: BenchSuite = {
  name: 'assignors',
  async run(report) {
    const peerRoundRobin = await kafkajsRoundRobinMs();
    const total = TOPICS * PARTITIONS_PER_TOPIC;
    for (const strategy of ['range', 'roundrobin', 'sticky', 'cooperative-sticky'] as AssignmentStrategy[]) {
      const sticky = strategy === 'sticky' || strategy === 'cooperative-sticky';
      let result: GroupAssignment = {};
      const ms = medianMs(() => {
        result = assignPartitions(strategy, members, partitionsPerTopic);
      });
      const assigned = Object.values(result).reduce((n, l) => n + l.length, 0);
      if (assigned !== total) throw new Error(`${strategy} assigned ${assigned} of ${total} partitions`);
      const peer = strategy === 'roundrobin' ? peerRoundRobin : undefined;
      report({
        name: `${strategy}: ${MEMBERS} members, ${total} partitions`,
        value: ms,
        unit: 'ms',
        ...(peer === undefined ? {} : { peer, ratio: peer / ms }),
        target: sticky ? '<= 2,000 ms' : '<= 200 ms',
        met: ms <= (sticky ? 2000 : 200),
      });
      if (sticky) {
        const next = nextGeneration(result, 1);
        let moved: GroupAssignment = {};
        const msOwned = medianMs(() => {
          moved = assignPartitions(strategy, next, partitionsPerTopic);
        });
        const kept = next.reduce((n, m) => {
          const now = new Set((moved[m.memberId] ?? []).map((tp) => `${tp.topic}-${tp.partition}`));
          return n + (m.ownedPartitions ?? []).filter((tp) => now.has(`${tp.topic}-${tp.partition}`)).length;
        }, 0);
        report({
          name: `${strategy} rebalance with owned partitions (kept ${kept})`,
          value: msOwned,
          unit: 'ms',
          target: '<= 2,000 ms',
          met: msOwned <= 2000,
        });
      }
    }

    // The general algorithm: every member subscribes to its own subset of the 100 topics.
    const mixed = members.map((m, i) => ({
      ...m,
      topics: topics.filter((_, t) => (t * 7919 + i * 104729) % 97 < 1 + (i % 60)),
    }));
    const subscribed = new Set(mixed.flatMap((m) => m.topics)).size * PARTITIONS_PER_TOPIC;
    let general: GroupAssignment = {};
    const msGeneral = medianMs(() => {
      general = assignPartitions('sticky', mixed, partitionsPerTopic);
    }, 3);
    const assignedGeneral = Object.values(general).reduce((n, l) => n + l.length, 0);
    if (assignedGeneral !== subscribed) throw new Error(`general path assigned ${assignedGeneral} of ${subscribed}`);
    report({ name: `sticky, general path (different subscriptions)`, value: msGeneral, unit: 'ms' });
  },
};

export default suite;
