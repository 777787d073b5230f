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
import type { ClassicGroup } from '../src/engine/coordinator/group/ClassicGroup';
import { facadeBed } from '../src/engine/consumerApps/facadeTesting';
import { GroupTestBed } from '../src/engine/consumerApps/GroupTestBed';
import type { KafkaConsumer } from '../src/engine/clients/consumer/KafkaConsumer';
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

/**
 * Coordinator failover on the real cluster, through the Engine facade: three brokers, a
 * 10-member group on a 20-partition topic, `zookeeper.session.timeout.ms` 6 s. The coordinator's
 * broker is killed; measured until every member is STABLE again talking to the new coordinator
 * (the controller's election, the new leader's load of the offsets partition, FindCoordinator
 * and heartbeats): simulated time and engine CPU.
 */
function failover(seed: number): { cpuMs: number; simulatedMs: number; sameGeneration: boolean } {
  const bed = facadeBed({ seed, topicPartitions: 20 });
  const consumers: KafkaConsumer[] = [];
  for (let i = 0; i < 10; i++) {
    const c = bed.e.groups.createConsumer(`c${i}`, { 'group.id': 'bench' });
    c.subscribe(['orders']);
    consumers.push(c);
    const loop = () => {
      if (c.lifecycle !== 'running') return;
      c.poll();
      bed.e.cluster.scheduler.schedule(100, loop);
    };
    bed.e.cluster.scheduler.schedule(0, loop);
  }
  bed.e.tick(15_000);
  const before = bed.group('bench')?.generationId;
  const old = bed.coordinatorOf('bench') as number;
  bed.e.killBroker(old);
  const start = bed.e.now();
  let cpuNs = 0n;
  const settled = () => {
    const now = bed.coordinatorOf('bench');
    return (
      now !== null &&
      now !== old &&
      bed.e.groups.coordinators.get(now)?.shardFor('bench')?.loaded === true &&
      consumers.every((c) => c.coordinator?.coordinator === now && c.coordinator.state === 'STABLE')
    );
  };
  while (!settled()) {
    if (bed.e.now() - start > 120_000) throw new Error('failover did not finish');
    const t0 = process.hrtime.bigint();
    bed.e.tick(10);
    cpuNs += process.hrtime.bigint() - t0;
  }
  return {
    cpuMs: Number(cpuNs) / 1e6,
    simulatedMs: bed.e.now() - start,
    sameGeneration: bed.group('bench')?.generationId === before,
  };
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
    const fo = [1, 2, 3].map(failover);
    const label = 'coordinator failover (broker killed, 10 members, engine facade)';
    report({
      name: `${label}: simulated time to STABLE on the new coordinator`,
      value: median(fo.map((f) => f.simulatedMs)),
      unit: 'ms (simulated)',
    });
    report({ name: `${label}: engine CPU`, value: median(fo.map((f) => f.cpuMs)), unit: 'ms' });
    report({
      name: `${label}: runs keeping their generation`,
      value: fo.filter((f) => f.sameGeneration).length,
      unit: `of ${fo.length}`,
    });
  },
};

export default suite;
