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
 * Peer: the raw PartitionLog.appendAsLeader of the same batches (already encoded: the bytes a
 * leader receives), in the same process. Target from issue 3: replication costs at most 3x the
 * raw append, i.e. ratio >= 0.33.
 */
import { encodeRecordBatch } from '../src/engine/codec/recordBatch';
import { ManualClock } from '../src/engine/Clock';
import { PartitionLog } from '../src/engine/log/PartitionLog';
import type { BenchSuite } from './harness';

const VALUE_BYTES = 100;
/** Records per batch when 100-byte records fill batch.size 16384 (each takes 109-110 bytes). */
const RECORDS_PER_BATCH = 148;
const TOTAL_RECORDS = 200_000;

function cpuMicros(): number {
  const u = process.cpuUsage();
  return u.user + u.system;
}

function makeBatch(seq: number): Uint8Array {
  const records = [];
  for (let i = 0; i < RECORDS_PER_BATCH; i++) {
    const value = new Uint8Array(VALUE_BYTES);
    value.fill((seq + i) & 0xff);
    records.push({ attributes: 0, timestampDelta: 0, offsetDelta: i, key: null, value, headers: [] });
  }
  return encodeRecordBatch({
    baseOffset: 0,
    partitionLeaderEpoch: -1,
    attributes: 0,
    lastOffsetDelta: RECORDS_PER_BATCH - 1,
    baseTimestamp: 1_700_000_000_000,
    maxTimestamp: 1_700_000_000_000,
    producerId: -1,
    producerEpoch: -1,
    baseSequence: -1,
    records,
  });
}

/** Records/s of CPU time for PartitionLog.appendAsLeader of pre-encoded 100-byte-record batches. */
export function rawAppendRate(): number {
  const batches = Array.from({ length: 16 }, (_, i) => makeBatch(i));
  const run = (n: number) => {
    const log = new PartitionLog({ dir: 'bench-0', clock: new ManualClock(0) });
    for (let i = 0; i < n; i++) log.appendAsLeader(batches[i % batches.length] as Uint8Array, 0);
  };
  run(200); // warm up
  const nBatches = Math.ceil(TOTAL_RECORDS / RECORDS_PER_BATCH);
  const start = cpuMicros();
  run(nBatches);
  const micros = cpuMicros() - start;
  return (nBatches * RECORDS_PER_BATCH) / (micros / 1e6);
}

const suite: BenchSuite = {
  name: 'produce',
  run(report) {
    const raw = rawAppendRate();
    report({ name: 'raw PartitionLog.appendAsLeader (100-byte records)', value: raw, unit: 'records/s CPU' });
  },
};

export default suite;
