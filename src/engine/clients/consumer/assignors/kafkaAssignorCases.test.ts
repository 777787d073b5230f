import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { assignPartitions } from './assignPartitions';
import type { AssignmentStrategy, MemberSubscription } from './types';

/**
 * 325 randomized groups (subscriptions, static members, owned partitions with generations,
 * conflicting claims, topics missing from the metadata) with the assignment Kafka's own assignor
 * classes compute for them: apache/kafka @ 1eb7644 clients/src/main/java/org/apache/kafka/clients/
 * consumer/RangeAssignor.java, RoundRobinAssignor.java, internals/AbstractStickyAssignor.java
 * (sticky) and CooperativeStickyAssignor.java's adjustment, run on OpenJDK 17 with each member's
 * owned partitions and generation in the subscription (ConsumerProtocolSubscription v2+) and the
 * Subscription map filled in the order listed. Groups where Kafka itself throws or hands a
 * partition to a member not subscribed to its topic are left out (see StickyAssignor.test.ts).
 */
interface KafkaCase {
  strategy: AssignmentStrategy;
  partitionsPerTopic: Record<string, number>;
  members: MemberSubscription[];
  expected: Record<string, string[]>;
}

const cases = JSON.parse(
  readFileSync(new URL('./testdata/kafka-assignor-cases.json', import.meta.url), 'utf8'),
) as KafkaCase[];

describe('assignments computed by Kafka\u2019s own assignors', () => {
  it('has cases for every strategy', () => {
    for (const s of ['range', 'roundrobin', 'sticky', 'cooperative-sticky']) {
      expect(cases.filter((c) => c.strategy === s).length).toBeGreaterThan(50);
    }
  });

  it.each(cases.map((c, i) => [i, c.strategy, c] as const))('case %i (%s)', (_i, strategy, c) => {
    const a = assignPartitions(strategy, c.members, c.partitionsPerTopic);
    const got = Object.fromEntries(
      Object.entries(a).map(([m, l]) => [m, l.map((tp) => `${tp.topic}-${tp.partition}`)]),
    );
    expect(got).toEqual(c.expected);
  });
});
