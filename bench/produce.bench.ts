/**
 * The produce path, end to end, against the raw log append it is built on.
 *
 * Full path: a KafkaProducer (accumulator, sender; acks=all, idempotent, batch.size 16384,
 * 100-byte values) sends to a 3-broker cluster with a replication-factor-3 topic; the leader
 * validates and appends, both followers fetch and append, the high watermark advances and the
 * producer gets its acknowledgements. Measured in records per second of CPU time spent inside
 * the engine (process.cpuUsage around the synchronous engine calls: send() and tick()), since
 * simulated network latency is not real time.
 *
 * Peer: the raw log append as the log benchmark defines it (bench/log.bench.ts): encode a batch
 * of the same records (the bytes the producer's batches build) and UnifiedLog.appendAsLeader it
 * (CRC check, offsets, copy, index), in the same process. Both are measured in alternating rounds
 * and reported as medians. Target from issue 3: replication costs at most 3x the raw append,
 * i.e. ratio >= 0.33.
 */
import { ManualClock } from '../src/engine/Clock';
import { encodeRecordBatch, type RecordBatchInput } from '../src/engine/codec/recordBatch';
import { Engine } from '../src/engine/engine';
import { UnifiedLog } from '../src/engine/log/UnifiedLog';
import type { Store } from '../src/engine/Store';
import { type BenchSuite, cpuMicros, makeBatchInput, RECORDS_PER_BATCH } from './harness';

const VALUE_BYTES = 100;
const TOTAL_RECORDS = 200_000;

/** Records/s of CPU time for encode + UnifiedLog.appendAsLeader of 100-byte-record batches. */
export function rawAppendRate(): number {
  const inputs = Array.from({ length: 16 }, (_, i) => makeBatchInput(i));
  const run = (n: number) => {
    const log = new UnifiedLog({ dir: 'bench-0', clock: new ManualClock(0) });
    for (let i = 0; i < n; i++) log.appendAsLeader(encodeRecordBatch(inputs[i % inputs.length] as RecordBatchInput), 0);
  };
  run(200); // warm up
  const nBatches = Math.ceil(TOTAL_RECORDS / RECORDS_PER_BATCH);
  const start = cpuMicros();
  run(nBatches);
  const micros = cpuMicros() - start;
  return (nBatches * RECORDS_PER_BATCH) / (micros / 1e6);
}

/** Nothing is flushed in this run (flush.ms is Kafka's "never"), so the Store is never used. */
const nullStore: Store = {
  list: async () => [],
  read: async () => null,
  write: async () => {},
  append: async () => {},
  truncate: async () => {},
  delete: async () => {},
};

export interface ProducePathResult {
  recordsPerSecond: number;
  acknowledged: number;
}

/**
 * Records/s of engine CPU for the whole replicated produce path: 3 brokers, RF 3, acks=all,
 * an idempotent producer with Kafka's defaults (batch.size 16384, linger.ms 5), 100-byte values.
 * The application sends in bursts of `burst` records between 5 ms ticks of simulated time.
 */
export function producePathRate(
  totalRecords = TOTAL_RECORDS,
  burst = 2000,
  options: { deliveryReports?: boolean } = {},
): ProducePathResult {
  const engine = new Engine({
    seed: 1,
    store: nullStore,
    brokers: [{ id: 1 }, { id: 2 }, { id: 3 }],
    brokerConfig: { 'auto.leader.rebalance.enable': false },
  });
  engine.tick(500);
  engine.createTopic({ name: 'bench', partitions: 1, replicationFactor: 3, configs: { 'min.insync.replicas': 2 } });
  engine.tick(500);
  // As the worker's engine is wired (ClusterApps): events go to listeners as they happen and
  // the drain buffer keeps none. The application here takes no per-record delivery reports (it
  // reads the producer's counts, like an application sending without a callback), so the
  // per-record events nobody takes (recordPartitioned, recordAppended, deliveryReport) are not
  // built; every record is still completed.
  engine.maxBufferedEvents = 0;
  // With deliveryReports, the application takes a report per record (a callback on every send),
  // so the engine builds the per-record deliveryReport events: the figure shows what that costs.
  let reported = 0;
  if (options.deliveryReports) {
    engine.subscribe(
      (e) => {
        if (e.type === 'deliveryReport' && e.report.error === null) reported++;
      },
      ['deliveryReport'],
    );
  }
  const producer = engine.producers.get(engine.producers.create({ acks: 'all' }));
  producer.partitionsFor('bench');
  engine.tick(100);
  engine.drainEvents();
  const values = Array.from({ length: 64 }, (_, i) => new Uint8Array(VALUE_BYTES).fill(i));
  const start = cpuMicros();
  let sent = 0;
  const before = producer.acknowledgedRecords;
  const acknowledged = () => producer.acknowledgedRecords - before;
  while (acknowledged() < totalRecords) {
    if (producer.failedRecords > 0) throw new Error(`${producer.failedRecords} records failed`);
    for (let i = 0; i < burst && sent < totalRecords; i++, sent++) {
      producer.send({ topic: 'bench', partition: 0, key: null, value: values[sent % values.length] as Uint8Array });
    }
    engine.tick(5);
  }
  const micros = cpuMicros() - start;
  if (options.deliveryReports && reported < totalRecords) {
    throw new Error(`only ${reported} of ${totalRecords} delivery reports arrived`);
  }
  return { recordsPerSecond: totalRecords / (micros / 1e6), acknowledged: acknowledged() };
}

/**
 * Rounds of (raw, full) measured alternately: on a shared machine one round can land in a busy
 * moment. Seven, because the produce path keeps speeding up over its first few runs (the heap
 * grows to its working size; the raw append settles after one), so three medians sat in that climb.
 */
const ROUNDS = 7;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1] as number;
}

const suite: BenchSuite = {
  name: 'produce',
  run(report) {
    // Warm up with a full-size run: the first runs of the produce path are far slower than the
    // rest (JIT tiers, heap sizing), and a round should not pay for them.
    producePathRate();
    const raws: number[] = [];
    const fulls: number[] = [];
    const withReports: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      raws.push(rawAppendRate());
      fulls.push(producePathRate().recordsPerSecond);
      if (i % 2 === 0)
        withReports.push(producePathRate(TOTAL_RECORDS, 2000, { deliveryReports: true }).recordsPerSecond);
    }
    // Medians of rounds taken side by side, so the ratio compares the two under the same load.
    const raw = median(raws);
    const full = median(fulls);
    const ratio = full / raw;
    report({ name: 'raw log append: encode + appendAsLeader (100-byte records)', value: raw, unit: 'records/s CPU' });
    report({
      name: 'produce path: 3 brokers, RF 3, acks=all (100-byte records)',
      value: full,
      unit: 'records/s CPU',
      peer: raw,
      ratio,
      target: 'ratio >= 0.33 (replication at most 3x the raw append)',
      met: ratio >= 0.33,
    });
    const reports = median(withReports);
    report({
      name: 'produce path, with a delivery report per record',
      value: reports,
      unit: 'records/s CPU',
      peer: raw,
      ratio: reports / raw,
    });
  },
};

export default suite;
