import { describe, expect, it } from 'vitest';
import { ManualClock } from '../Clock';
import { decodeRecordBatches } from '../codec';
import { Rng } from '../Rng';
import { Cluster } from './Cluster';
import { checkReplicationInvariants } from './invariants';
import type { ProduceResponse } from './requests';
import { makeBatch } from './testing';

/**
 * Seeded cluster fuzzing: acks=all appends to an RF 3, min.insync.replicas=2 topic while the
 * schedule kills, power-fails, isolates, stops (controlled shutdown) and restarts brokers one at
 * a time, and reassigns partitions and runs preferred elections in between. After every step
 * and every 25 ms: the replication invariants. At the end: every acknowledged record is in the
 * leader's log at the offset it was acknowledged with, and every in-sync replica holds the same
 * records below the high watermark. A failing seed is in the test name, to replay.
 *
 * GLASSBOX_CLUSTER_FUZZ=<n> runs n seeds (default 5).
 */
const SEEDS = Number(
  (globalThis as { process?: { env?: Record<string, string> } }).process?.env?.GLASSBOX_CLUSTER_FUZZ ?? 5,
);
const BROKERS = [1, 2, 3, 4];
const PARTITIONS = 3;

function run(seed: number): string[] {
  const rng = new Rng(seed);
  const clock = new ManualClock(0);
  const violations: string[] = [];
  const cluster = new Cluster({
    clock,
    seed,
    emit: (e) => {
      // KIP-101: truncation never goes below a high watermark this replica had seen (no unclean
      // elections here; a power failure loses what it loses before the replica restarts).
      if (e.type === 'replicaTruncated' && e.reason !== 'powerFailure' && e.newLogEndOffset < e.oldHighWatermark)
        violations.push(
          `${e.atMs}ms broker ${e.broker} truncated ${e.topic}-${e.partition} to ${e.newLogEndOffset} below its HW ${e.oldHighWatermark}`,
        );
    },
    brokerConfig: {
      'zookeeper.session.timeout.ms': 800,
      'replica.lag.time.max.ms': 600,
      'replica.fetch.wait.max.ms': 40,
      'replica.fetch.backoff.ms': 60,
      'replica.socket.timeout.ms': 800,
      'controller.socket.timeout.ms': 800,
      'controlled.shutdown.retry.backoff.ms': 200,
      'auto.leader.rebalance.enable': false,
    },
  });
  for (const id of BROKERS) cluster.addBroker({ id });
  cluster.tick(300);
  cluster.createTopic({
    name: 'f',
    partitions: PARTITIONS,
    replicationFactor: 3,
    configs: { 'min.insync.replicas': 2 },
  });
  cluster.tick(300);

  // acks=all appends: one outstanding request per partition, to the leader per the store.
  const acked: { partition: number; offset: number; value: string }[] = [];
  const outstanding = new Map<number, { partition: number; value: string }>();
  const busy = new Set<number>();
  let n = 0;
  cluster.network.attach('fuzz-client', {
    onResponse: (m) => {
      const req = outstanding.get(m.correlationId);
      if (!req) return;
      outstanding.delete(m.correlationId);
      busy.delete(req.partition);
      const r = (m.body as ProduceResponse).responses[0]?.partitions[0];
      if (r?.errorCode === 'NONE') acked.push({ partition: req.partition, offset: r.baseOffset, value: req.value });
    },
    onDisconnect: (_peer, cid) => {
      const req = outstanding.get(cid);
      if (req) busy.delete(req.partition);
      outstanding.delete(cid);
    },
  });
  const produce = () => {
    for (let p = 0; p < PARTITIONS; p++) {
      if (busy.has(p)) continue;
      const leader = cluster.partitionState('f', p)?.leader ?? -1;
      if (leader < 0) continue;
      const value = `s${seed}-${n++}`;
      const cid = cluster.network.send('fuzz-client', `broker-${leader}`, {
        api: 'Produce',
        transactionalId: null,
        acks: -1,
        timeoutMs: 500,
        topicData: [{ topic: 'f', partitions: [{ partition: p, records: makeBatch([value]) }] }],
      });
      outstanding.set(cid, { partition: p, value });
      busy.add(p);
      // A request lost to an isolation is given up after a while.
      cluster.scheduler.schedule(1000, () => {
        if (outstanding.delete(cid)) busy.delete(p);
      });
    }
  };
  const tick = (ms: number) => {
    for (let t = 0; t < ms; t += 25) {
      produce();
      cluster.tick(25);
      for (const v of checkReplicationInvariants(cluster)) violations.push(`${clock.now()}ms ${v}`);
    }
  };
  // Fully recovered: every broker running and registered, every partition led with all three
  // replicas in its ISR, and each replica following the current leader epoch.
  const inSync = () => {
    if (cluster.liveBrokerIds().length !== BROKERS.length) return false;
    if ([...cluster.brokers.values()].some((b) => b.state !== 'running' || b.brokerEpoch < 0)) return false;
    for (let p = 0; p < PARTITIONS; p++) {
      const s = cluster.partitionState('f', p);
      if (!s || s.leader < 0 || s.isr.length !== 3) return false;
      for (const id of s.isr) {
        const local = cluster.brokers.get(id)?.replicaManager.partitions.get(`f-${p}`);
        if (!local || local.leaderEpoch !== s.leader_epoch) return false;
      }
    }
    return true;
  };

  const trace: string[] = [];
  for (let step = 0; step < 16; step++) {
    const x = rng.next();
    const victim = rng.pick(BROKERS);
    if (x < 0.45) {
      const how = rng.nextInt(4);
      trace.push(`${clock.now()} fault ${how} on ${victim}`);
      if (how === 0) cluster.killBroker(victim);
      else if (how === 1) cluster.powerFailBroker(victim);
      else if (how === 2) cluster.stopBroker(victim);
      else cluster.isolateBroker(victim);
      tick(200 + rng.nextInt(1500));
      if (how === 3) cluster.healBroker(victim);
      else if (cluster.broker(victim).state === 'down') cluster.restartBroker(victim);
      else {
        tick(2000); // a controlled shutdown finishing
        if (cluster.broker(victim).state === 'down') cluster.restartBroker(victim);
      }
      // One broker in trouble at a time: wait until every partition is fully in sync again.
      for (let w = 0; w < 40 && !inSync(); w++) tick(250);
    } else if (x < 0.6) {
      const p = rng.nextInt(PARTITIONS);
      const target = [...BROKERS].sort(() => rng.next() - 0.5).slice(0, 3);
      trace.push(`${clock.now()} reassign f-${p} to ${target}`);
      if (!cluster.zk.exists('/admin/reassign_partitions'))
        cluster.reassignPartitions([{ topic: 'f', partition: p, replicas: target }]);
      tick(1500);
    } else if (x < 0.7) {
      trace.push(`${clock.now()} preferred election`);
      if (!cluster.zk.exists('/admin/preferred_replica_election')) cluster.electPreferredLeaders();
      tick(300);
    } else {
      tick(100 + rng.nextInt(800));
    }
  }
  for (let w = 0; w < 60 && !inSync(); w++) tick(250);
  tick(1000);

  // Every acknowledged record at its offset in the leader's log.
  for (let p = 0; p < PARTITIONS; p++) {
    const leader = cluster.partitionState('f', p)?.leader ?? -1;
    const log = cluster.brokers.get(leader)?.replicaManager.partitions.get(`f-${p}`);
    if (!log) {
      violations.push(`f-${p} has no leader at the end`);
      continue;
    }
    const values = new Map<number, string>();
    for (const b of decodeRecordBatches(log.log.read(0, Number.MAX_SAFE_INTEGER, log.logEndOffset())))
      for (const r of b.records)
        values.set(b.baseOffset + r.offsetDelta, new TextDecoder().decode(r.value ?? new Uint8Array()));
    for (const a of acked.filter((x) => x.partition === p)) {
      if (values.get(a.offset) !== a.value)
        violations.push(`acked ${a.value} at f-${p}@${a.offset} is ${values.get(a.offset) ?? 'missing'}`);
    }
    // In-sync replicas agree below the high watermark.
    const hw = log.highWatermark;
    const reference = log.log.read(0, Number.MAX_SAFE_INTEGER, hw);
    for (const id of cluster.partitionState('f', p)?.isr ?? []) {
      const r = cluster.brokers.get(id)?.replicaManager.partitions.get(`f-${p}`);
      const bytes = r?.log.read(0, Number.MAX_SAFE_INTEGER, hw);
      const same =
        bytes &&
        decodeRecordBatches(bytes)
          .map((b) => b.baseOffset)
          .join() ===
          decodeRecordBatches(reference)
            .map((b) => b.baseOffset)
            .join();
      if (!same) violations.push(`replica ${id} of f-${p} differs from the leader below HW ${hw}`);
    }
  }
  if (acked.length < 20) violations.push(`only ${acked.length} records acknowledged`);
  return violations.length > 0 ? [...violations.slice(0, 10), ...trace] : [];
}

describe('cluster fuzzing (faults one at a time, reassignments, preferred elections)', () => {
  for (let seed = 1; seed <= SEEDS; seed++) {
    it(`seed ${seed}`, () => {
      expect(run(seed)).toEqual([]);
    });
  }
});
