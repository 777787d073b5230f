import { describe, expect, it } from 'vitest';
import { ManualClock } from '../Clock';
import { Scheduler } from '../cluster/Scheduler';
import { Rng } from '../Rng';
import type { AssignmentStrategy } from '../clients/consumer/ConsumerConfig';
import { GROUP_COORDINATOR_DEFAULTS } from '../clients/consumer/ConsumerConfig';
import { GroupCoordinatorShard, OFFSETS_TOPIC, ShardTimer } from '../coordinator/group/GroupCoordinator';
import { groupCoordinatorPartition } from '../coordinator/group/groupCoordinatorPartition';
import { GroupTestBed } from './GroupTestBed';
import type { KafkaConsumer } from '../clients/consumer/KafkaConsumer';
import { decodeAssignment, decodeSubscription, fromTopicPartitions } from '../clients/consumer/offsetsSchema';

/**
 * Seeded random schedules of joins, crashes, closes, subscription changes, produced records,
 * commits, coordinator moves, added partitions and compaction. After every step:
 *  - no partition is owned by two members of the current generation (coordinator's view, and the
 *    consumers' own view for those that are STABLE in it);
 *  - in a Stable group every subscribed partition has an owner;
 *  - the coordinator's live state equals the state rebuilt by replaying `__consumer_offsets`
 *    from scratch (offsets always; membership and assignment when Stable or Empty).
 * GROUP_FUZZ_RUNS raises the number of seeds (npm run soak); a seed that fails is pinned below.
 */
const INITIAL_PARTITIONS: Record<string, number> = { t: 4, u: 3 };
const RUNS = Number(process.env.GROUP_FUZZ_RUNS ?? 6);
const STEPS = Number(process.env.GROUP_FUZZ_STEPS ?? 40);

function replayShard(bed: GroupTestBed, partition: number, broker: number): GroupCoordinatorShard {
  const scheduler = new Scheduler(new ManualClock(bed.now()));
  const shard = new GroupCoordinatorShard({
    brokerId: broker,
    offsetsPartition: partition,
    config: GROUP_COORDINATOR_DEFAULTS,
    now: () => bed.now(),
    timer: new ShardTimer(scheduler),
    append: () => {},
    emit: () => {},
    newMemberId: () => 'unused',
  });
  for (const r of bed.port.readLocalLog(broker, OFFSETS_TOPIC, partition)) {
    if (r.key) shard.replay({ key: r.key, value: r.value });
  }
  return shard;
}

function groupView(shard: GroupCoordinatorShard, groupId: string) {
  const g = shard.groupManager.groups.get(groupId);
  return {
    // Sorted: compaction changes the order records are replayed in, not what they say.
    offsets: [...(shard.offsetManager.offsets.get(groupId) ?? new Map())].map(([k, v]) => `${k}=${v.offset}`).sort(),
    group: g
      ? {
          generation: g.generationId,
          protocol: g.protocolName,
          leader: g.leaderId,
          members: [...g.members.values()].map((m) => [m.memberId, [...m.assignment].join(',')]).sort(),
        }
      : null,
  };
}

function runSeed(seed: number): void {
  const rng = new Rng(seed);
  const bed = new GroupTestBed({
    seed,
    keepEvents: false,
    coordinatorConfig: { 'group.initial.rebalance.delay.ms': rng.nextInt(2) * 500 },
  });
  const strategy = rng.pick<AssignmentStrategy>(['range', 'roundrobin', 'sticky', 'cooperative-sticky']);
  bed.port.createTopic('t', 4, 3);
  bed.port.createTopic('u', 3, 3);
  const consumers: KafkaConsumer[] = [];
  let nextId = 0;
  const groupId = 'fuzz';
  const partition = () => groupCoordinatorPartition(groupId);
  const topicsFor = () => (rng.nextInt(3) === 0 ? ['t'] : ['t', 'u']);
  const context = (step: number, what: string) => `seed ${seed} (${strategy}), step ${step}: ${what}`;

  for (let step = 0; step < STEPS; step++) {
    const running = consumers.filter((c) => c.lifecycle === 'running');
    const op = rng.nextInt(12);
    let what = '';
    if (op <= 2 || running.length === 0) {
      const c = bed.consumer(`c${nextId++}`, {
        'group.id': groupId,
        'partition.assignment.strategy': [strategy],
        'session.timeout.ms': 10_000,
        'max.poll.interval.ms': 30_000,
        'auto.commit.interval.ms': 1_000,
        'auto.offset.reset': 'earliest',
      });
      c.subscribe(topicsFor());
      bed.pollEvery(c, 50 + rng.nextInt(100));
      consumers.push(c);
      what = `join ${c.clientId}`;
    } else if (op === 3) {
      const c = rng.pick(running);
      c.crash();
      what = `crash ${c.clientId}`;
    } else if (op === 4) {
      const c = rng.pick(running);
      c.close();
      what = `close ${c.clientId}`;
    } else if (op === 5) {
      const c = rng.pick(running);
      c.subscribe(topicsFor());
      what = `resubscribe ${c.clientId}`;
    } else if (op === 6) {
      bed.port.produce(rng.pick(['t', 'u']), 0, ['x', 'y', 'z']);
      what = 'produce';
    } else if (op === 7) {
      const brokers = bed.port.liveBrokers();
      bed.port.setLeader(OFFSETS_TOPIC, partition(), rng.pick(brokers));
      what = 'move coordinator';
    } else if (op === 8 && (bed.port.partitionCount('u') ?? 0) < 6) {
      bed.port.addPartitions('u', (bed.port.partitionCount('u') ?? 0) + 1);
      what = 'add partition to u';
    } else if (op === 9) {
      bed.port.compact(OFFSETS_TOPIC, partition());
      what = 'compact __consumer_offsets';
    } else {
      what = 'wait';
    }
    bed.run(rng.nextInt(6_000));

    const leader = bed.port.leaderOf(OFFSETS_TOPIC, partition());
    const live = leader === null ? undefined : bed.groups.coordinators.get(leader)?.shards.get(partition());
    // A coordinator still replaying its partition serves nothing yet (COORDINATOR_LOAD_IN_PROGRESS).
    if (!live || leader === null || !live.loaded) continue;
    const group = live.groupManager.groups.get(groupId);
    // 1. one owner per partition in the current generation (coordinator view)
    if (group && (group.is('Stable') || group.is('CompletingRebalance'))) {
      const owners = new Map<string, string>();
      for (const m of group.members.values()) {
        if (m.assignment.length === 0) continue;
        for (const tp of fromTopicPartitions(decodeAssignment(m.assignment).assignedPartitions)) {
          const k = `${tp.topic}-${tp.partition}`;
          expect(owners.has(k), context(step, `${what}: ${k} owned by ${owners.get(k)} and ${m.memberId}`)).toBe(false);
          owners.set(k, m.memberId);
        }
      }
      // 2. a Stable group leaves no partition its members subscribe to unowned (partitions that
      //    existed from the start; added ones wait for the leader's rejoin). Cooperative-sticky may
      //    hold a moving partition back for one generation.
      if (group.is('Stable') && strategy !== 'cooperative-sticky' && group.protocolName !== null) {
        const protocol = group.protocolName;
        const subscribed = new Set(
          [...group.members.values()].flatMap((m) => decodeSubscription(m.metadata(protocol)).topics),
        );
        for (const t of subscribed) {
          for (let p = 0; p < (INITIAL_PARTITIONS[t] ?? 0); p++) {
            expect(owners.has(`${t}-${p}`), context(step, `${what}: ${t}-${p} unowned in a Stable group`)).toBe(true);
          }
        }
      }
      // consumers' own view: STABLE members of this generation hold disjoint partitions
      const claimed = new Map<string, string>();
      for (const c of consumers) {
        if (
          c.lifecycle !== 'running' ||
          c.coordinator?.state !== 'STABLE' ||
          c.coordinator.generationId !== group.generationId
        )
          continue;
        for (const tp of c.assignment()) {
          const k = `${tp.topic}-${tp.partition}`;
          expect(claimed.has(k), context(step, `${what}: ${k} claimed by ${claimed.get(k)} and ${c.clientId}`)).toBe(
            false,
          );
          claimed.set(k, c.clientId);
        }
      }
    }
    // 3. live state == replay of the partition (let an in-flight append land first)
    let same = false;
    for (let i = 0; i < 10 && !same; i++) {
      const replayed = groupView(replayShard(bed, partition(), leader), groupId);
      const current = groupView(live, groupId);
      const comparable = !group || group.is('Stable') || group.is('Empty');
      same =
        JSON.stringify(replayed.offsets) === JSON.stringify(current.offsets) &&
        (!comparable || JSON.stringify(replayed.group) === JSON.stringify(current.group));
      if (!same && i === 9) expect(replayed, context(step, `${what}: live state differs from replay`)).toEqual(current);
      if (!same) bed.run(1);
    }
  }
}

describe('consumer groups under seeded random schedules', () => {
  for (let seed = 1; seed <= RUNS; seed++) {
    it(`seed ${seed}`, () => runSeed(seed));
  }
});
