/**
 * The cluster's replication path without the producer client: a bare client sends produce
 * requests (pre-encoded batches of 148 100-byte records, acks=all) to the leader of an RF 3
 * partition on 3 brokers; the leader appends to its UnifiedLog, both followers fetch and
 * append to theirs, the HW advances and the purgatory answers. Records/s of engine CPU time,
 * against the raw UnifiedLog append of the same batches (ratio = replicated / raw; 1/3 means
 * "three replicas cost three appends").
 *
 * Also: how long (simulated) a controller failover and a leader failover take with the
 * defaults the UI uses, and the CPU cost of a snapshot() of a busy cluster.
 */
import { ManualClock } from '../src/engine/Clock';
import { Cluster } from '../src/engine/cluster/Cluster';
import { PartitionLogReplica } from '../src/engine/cluster/PartitionLogReplica';
import type { ProduceRequest } from '../src/engine/cluster/requests';
import { encodeRecordBatch } from '../src/engine/codec/recordBatch';
import { Engine } from '../src/engine/engine';
import { UnifiedLog } from '../src/engine/log/UnifiedLog';
import type { Store } from '../src/engine/Store';
import { type BenchSuite, cpuMicros, makeBatchInput, RECORDS_PER_BATCH } from './harness';

const BATCHES = 1500;

const batches = Array.from({ length: 16 }, (_, i) => encodeRecordBatch(makeBatchInput(i)));

function rawRate(): number {
  const run = (n: number) => {
    const log = new UnifiedLog({ dir: 'bench-0', clock: new ManualClock(0) });
    for (let i = 0; i < n; i++) log.appendAsLeader(batches[i % batches.length] as Uint8Array, 0);
  };
  run(200);
  const start = cpuMicros();
  run(BATCHES);
  return (BATCHES * RECORDS_PER_BATCH) / ((cpuMicros() - start) / 1e6);
}

function newCluster(): Cluster {
  const clock = new ManualClock(0);
  const cluster = new Cluster({
    clock,
    seed: 1,
    emit: () => {},
    logFactory: (_b, _d, topic, partition) =>
      new PartitionLogReplica(new UnifiedLog({ dir: `${topic}-${partition}`, clock })),
  });
  for (const id of [1, 2, 3]) cluster.addBroker({ id });
  cluster.tick(100);
  cluster.createTopic({ name: 't', partitions: 1, replicationFactor: 3, fixedStartIndex: 0 });
  cluster.tick(200);
  return cluster;
}

/** Replicated acks=all appends, `inFlight` requests at a time. */
function replicatedRate(inFlight: number): number {
  const run = (n: number) => {
    const cluster = newCluster();
    let acked = 0;
    let sent = 0;
    const send = () => {
      const request: ProduceRequest = {
        api: 'Produce',
        transactionalId: null,
        acks: -1,
        timeoutMs: 30_000,
        topicData: [
          { topic: 't', partitions: [{ partition: 0, records: batches[sent % batches.length] as Uint8Array }] },
        ],
      };
      sent++;
      cluster.network.send('bench-client', 'broker-1', request);
    };
    cluster.network.attach('bench-client', {
      onResponse: () => {
        acked++;
        if (sent < n) send();
      },
    });
    const start = cpuMicros();
    for (let i = 0; i < Math.min(inFlight, n); i++) send();
    while (acked < n) cluster.tick(1);
    return cpuMicros() - start;
  };
  const micros = run(BATCHES);
  return (BATCHES * RECORDS_PER_BATCH) / (micros / 1e6);
}

/**
 * Rounds of (raw, replicated) measured alternately, medians reported. The replicated path takes
 * several full runs to reach its steady speed (measured: 0.77M, 1.02M, 1.13M, 1.25M, 2.2M records/s
 * over its first five runs, while the raw append is steady from the first), so each path is
 * warmed up with full-size runs first and a round is never its first run.
 */
const WARM_UP_RUNS = 3;
const ROUNDS = 5;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

class NullStore implements Store {
  async list() {
    return [];
  }
  async read() {
    return null;
  }
  async write() {}
  async append() {}
  async truncate() {}
  async delete() {}
}

const suite: BenchSuite = {
  name: 'cluster',
  run(report) {
    for (let i = 0; i < WARM_UP_RUNS; i++) {
      rawRate();
      for (const inFlight of [1, 5]) replicatedRate(inFlight);
    }
    const raws: number[] = [];
    const rates = new Map<number, number[]>([
      [1, []],
      [5, []],
    ]);
    for (let i = 0; i < ROUNDS; i++) {
      raws.push(rawRate());
      for (const [inFlight, list] of rates) list.push(replicatedRate(inFlight));
    }
    const raw = median(raws);
    report({
      name: 'raw UnifiedLog.appendAsLeader (148 x 100-byte records/batch)',
      value: raw,
      unit: 'records/s CPU',
    });
    for (const inFlight of [1, 5]) {
      const rate = median(rates.get(inFlight) as number[]);
      const ratio = rate / raw;
      report({
        name: `replicated acks=all, RF 3, ${inFlight} request(s) in flight`,
        value: rate,
        unit: 'records/s CPU',
        peer: raw,
        ratio,
        target: 'replication <= 3x the raw append (ratio >= 0.33)',
        met: ratio >= 1 / 3,
      });
    }

    // Failover times (simulated ms) with zookeeper.session.timeout.ms = 6000.
    const e = new Engine({
      seed: 3,
      store: new NullStore(),
      clock: new ManualClock(0),
      brokerConfig: { 'zookeeper.session.timeout.ms': 6000 },
      brokers: [{ id: 1 }, { id: 2 }, { id: 3 }],
    });
    e.tick(100);
    e.createTopic({ name: 'a', partitions: 12, replicationFactor: 3 });
    e.tick(500);
    const killedAt = e.now();
    e.killBroker(1);
    let failoverMs = -1;
    while (e.now() - killedAt < 30_000) {
      e.tick(10);
      const s = e.snapshot();
      if (
        s.controller &&
        s.controller.broker !== 1 &&
        s.topics[0]?.partitions.every((p) => p.leader !== 1 && p.leader >= 0)
      ) {
        failoverMs = e.now() - killedAt;
        break;
      }
    }
    report({
      name: 'controller + leader failover after a kill (session timeout 6 s)',
      value: failoverMs,
      unit: 'ms simulated',
    });
    const start = process.hrtime.bigint();
    const N = 200;
    for (let i = 0; i < N; i++) e.snapshot();
    const us = Number(process.hrtime.bigint() - start) / 1000 / N;
    report({ name: 'snapshot() of 3 brokers x 12 partitions', value: us, unit: 'us' });

    // A bigger cluster: 6 brokers, 600 partitions at RF 3 (1800 replicas).
    const big = new Cluster({
      clock: new ManualClock(0),
      seed: 1,
      emit: () => {},
      brokerConfig: { 'zookeeper.session.timeout.ms': 6000 },
    });
    for (const id of [1, 2, 3, 4, 5, 6]) big.addBroker({ id });
    big.tick(200);
    let t0 = cpuMicros();
    big.createTopic({ name: 'big', partitions: 600, replicationFactor: 3 });
    big.tick(2000);
    report({
      name: 'create 600 partitions (RF 3, 6 brokers) until all led',
      value: (cpuMicros() - t0) / 1000,
      unit: 'ms CPU',
    });
    t0 = cpuMicros();
    big.killBroker(1);
    big.tick(8000);
    report({
      name: 'controller + 200 leaders fail over (600 partitions)',
      value: (cpuMicros() - t0) / 1000,
      unit: 'ms CPU',
    });
    t0 = cpuMicros();
    big.tick(60_000);
    report({ name: 'one idle simulated minute (600 partitions)', value: (cpuMicros() - t0) / 1000, unit: 'ms CPU' });
  },
};

export default suite;
