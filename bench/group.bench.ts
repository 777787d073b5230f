/**
 * A full rebalance of a 100-member consumer group, driven through the classic coordinator
 * protocol end to end: every member is a KafkaConsumer whose application polls every 100 ms;
 * a 101st member joins, the coordinator moves to PreparingRebalance, each member learns it from
 * a heartbeat (REBALANCE_IN_PROGRESS), revokes (eager range), rejoins, the leader runs the range
 * assignor over 101 subscriptions, SyncGroup hands out 1,000 partitions, the assignment is
 * written to __consumer_offsets, and every member is STABLE in the new generation.
 *
 * Measured: engine CPU time spent inside the scheduler from the join until the last member is
 * stable (predicate checks between steps excluded), plus what it took in simulated time,
 * scheduler tasks and messages. Also the formation of the group from nothing (100 members
 * joining an empty group, group.initial.rebalance.delay.ms = 3000). Medians of 5 runs after a
 * warm-up. The in-memory ClusterPort stands in for the brokers' data path, so the figure is the
 * group machinery's own cost.
 */
import type { ClassicGroup } from '../src/engine/consumer/ClassicGroup';
import { GroupTestBed } from '../src/engine/consumer/GroupTestBed';
import type { KafkaConsumer } from '../src/engine/consumer/KafkaConsumer';
import { type BenchSuite, percentile } from './harness';

const MEMBERS = 100;
const PARTITIONS = 1_000;

interface Measured {
  cpuMs: number;
  simulatedMs: number;
  tasks: number;
  messages: number;
}

/** Steps simulated time 1 ms at a time until pred holds, timing only the engine's work. */
function runMeasured(bed: GroupTestBed, pred: () => boolean, maxMs = 120_000): Measured {
  let cpuNs = 0n;
  let tasks = 0;
  const startSim = bed.now();
  const startMsgs = bed.groups.network.requestsDelivered + bed.groups.network.responsesDelivered;
  while (!pred()) {
    if (bed.now() - startSim > maxMs) throw new Error('rebalance did not finish');
    const t0 = process.hrtime.bigint();
    tasks += bed.scheduler.runUntil(bed.now() + 1);
    cpuNs += process.hrtime.bigint() - t0;
  }
  return {
    cpuMs: Number(cpuNs) / 1e6,
    simulatedMs: bed.now() - startSim,
    tasks,
    messages: bed.groups.network.requestsDelivered + bed.groups.network.responsesDelivered - startMsgs,
  };
}

/** Checked between steps without decoding anything, so it does not disturb the measurement. */
function allStable(bed: GroupTestBed, consumers: KafkaConsumer[], generation: number): boolean {
  let g: ClassicGroup | undefined;
  for (const c of bed.groups.coordinators.values()) {
    for (const shard of c.shards.values()) g ??= shard.groupManager.groups.get('bench');
  }
  if (g?.state !== 'Stable' || g.generationId !== generation || g.size !== consumers.length) return false;
  return consumers.every(
    (c) =>
      c.coordinator?.state === 'STABLE' && c.coordinator.generationId === generation && !c.coordinator.rejoinNeeded,
  );
}

function once(): { formation: Measured; rebalance: Measured } {
  const bed = new GroupTestBed({ seed: 1, keepEvents: false });
  bed.port.createTopic('events', PARTITIONS, 3);
  const consumers: KafkaConsumer[] = [];
  const add = (i: number) => {
    const c = bed.consumer(`consumer-${i}`, { 'group.id': 'bench', 'partition.assignment.strategy': ['range'] });
    c.subscribe(['events']);
    bed.pollEvery(c, 100);
    consumers.push(c);
  };
  for (let i = 0; i < MEMBERS; i++) add(i);
  const formation = runMeasured(bed, () => allStable(bed, consumers, 1));
  bed.run(5_000);
  add(MEMBERS);
  const rebalance = runMeasured(bed, () => allStable(bed, consumers, 2));
  const owned = consumers.reduce((n, c) => n + c.assignment().length, 0);
  if (owned !== PARTITIONS) throw new Error(`after the rebalance ${owned} of ${PARTITIONS} partitions are owned`);
  return { formation, rebalance };
}

function median(xs: number[]): number {
  return percentile(
    [...xs].sort((a, b) => a - b),
    50,
  );
}

const suite: BenchSuite = {
  name: 'group',
  run(report) {
    once(); // warm-up
    const runs = Array.from({ length: 5 }, once);
    for (const phase of ['rebalance', 'formation'] as const) {
      const ms = runs.map((r) => r[phase]);
      const label =
        phase === 'rebalance'
          ? `full rebalance of a ${MEMBERS}-member group (+1 joins, ${PARTITIONS} partitions, range)`
          : `formation of a ${MEMBERS}-member group from empty (initial delay 3 s)`;
      report({ name: `${label}: engine CPU`, value: median(ms.map((m) => m.cpuMs)), unit: 'ms' });
      report({ name: `${label}: simulated time`, value: median(ms.map((m) => m.simulatedMs)), unit: 'ms (simulated)' });
      report({ name: `${label}: scheduler tasks`, value: median(ms.map((m) => m.tasks)), unit: 'tasks' });
      report({ name: `${label}: messages delivered`, value: median(ms.map((m) => m.messages)), unit: 'messages' });
    }
  },
};

export default suite;
