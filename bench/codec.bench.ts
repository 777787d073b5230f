/**
 * Codec benchmarks: RecordBatch v2 encode and decode throughput on the workload
 * (100 records per batch, 100-byte values, short keys), each against kafkajs's own RecordBatch
 * v0 encoder/decoder run on the same records in the same process; plus CRC-32C throughput
 * against kafkajs's table-driven CRC-32C.
 *
 * kafkajs's encoder is async (it awaits compression even for none), so both sides are timed
 * per batch in a loop; the peer also builds its Record encoders, which is part of kafkajs's
 * encoding path just as sizing and writing records is part of ours.
 *
 * Every figure is measured against process CPU time (user + system, all threads) and wall time:
 * the machine is shared, so wall time mostly measures the neighbours. The encode target and all
 * ratios are judged on CPU time, for both sides (see bench/log.bench.ts).
 */
import { createRequire } from 'node:module';
import { crc32c } from '../src/engine/codec/crc32c';
import { type DefaultRecord, decodeRecordBatches, encodeRecordBatch } from '../src/engine/codec/recordBatch';
import type { BenchSuite } from './harness';

const require = createRequire(import.meta.url);

interface KafkajsEncoder {
  buffer: Buffer;
}
type KafkajsRecordBatch = (args: Record<string, unknown>) => Promise<KafkajsEncoder>;
type KafkajsRecord = (args: { offsetDelta: number; timestampDelta: number; key: Buffer; value: Buffer }) => unknown;
type KafkajsBatchDecoder = (decoder: unknown) => Promise<{ records: unknown[] }>;

const { RecordBatch: kafkajsRecordBatch } = require('kafkajs/src/protocol/recordBatch/v0') as {
  RecordBatch: KafkajsRecordBatch;
};
const kafkajsRecord = require('kafkajs/src/protocol/recordBatch/record/v0') as KafkajsRecord;
const kafkajsBatchDecoder = require('kafkajs/src/protocol/recordBatch/v0/decoder') as KafkajsBatchDecoder;
const KafkajsDecoder = require('kafkajs/src/protocol/decoder') as new (buffer: Buffer) => unknown;
const kafkajsCrc32C = require('kafkajs/src/protocol/recordBatch/crc32C') as (buffer: Buffer) => number;

const RECORDS_PER_BATCH = 100;
const VALUE_BYTES = 100;
const BASE_TIMESTAMP = 1_700_000_000_000;

function makeRecords(): Array<{ key: Uint8Array; value: Uint8Array }> {
  const out: Array<{ key: Uint8Array; value: Uint8Array }> = [];
  for (let i = 0; i < RECORDS_PER_BATCH; i++) {
    const value = new Uint8Array(VALUE_BYTES);
    for (let j = 0; j < VALUE_BYTES; j++) value[j] = (i * 31 + j * 7) & 0xff;
    out.push({ key: new TextEncoder().encode(`key-${i}`), value });
  }
  return out;
}

/** Operations per second of process CPU time (user + system) and of wall time. */
interface Rate {
  cpu: number;
  wall: number;
}

function cpuMicros(): number {
  const u = process.cpuUsage();
  return u.user + u.system;
}

/**
 * Runs fn (awaited when it returns a promise) until `cpuBudgetMs` of CPU time has been spent, or
 * eight times that in wall time, and returns its rate against both clocks.
 */
async function rate(fn: () => unknown, opsPerCall: number, cpuBudgetMs = 1000): Promise<Rate> {
  for (let i = 0; i < 20; i++) await fn();
  let calls = 0;
  const wall0 = process.hrtime.bigint();
  const cpu0 = cpuMicros();
  for (;;) {
    for (let i = 0; i < 10; i++) {
      const r = fn();
      if (r instanceof Promise) await r;
    }
    calls += 10;
    const cpuMs = (cpuMicros() - cpu0) / 1000;
    const wallMs = Number(process.hrtime.bigint() - wall0) / 1e6;
    if (cpuMs >= cpuBudgetMs || wallMs >= 8 * cpuBudgetMs) {
      return { cpu: (calls * opsPerCall) / (cpuMs / 1000), wall: (calls * opsPerCall) / (wallMs / 1000) };
    }
  }
}

const suite: BenchSuite = {
  name: 'codec',
  async run(report) {
    const raw = makeRecords();
    const records: DefaultRecord[] = raw.map((r, i) => ({
      attributes: 0,
      timestampDelta: i,
      offsetDelta: i,
      key: r.key,
      value: r.value,
      headers: [],
    }));
    const batchInput = {
      baseOffset: 0,
      partitionLeaderEpoch: 0,
      attributes: 0,
      lastOffsetDelta: RECORDS_PER_BATCH - 1,
      baseTimestamp: BASE_TIMESTAMP,
      maxTimestamp: BASE_TIMESTAMP + RECORDS_PER_BATCH - 1,
      producerId: -1,
      producerEpoch: 0,
      baseSequence: 0,
      records,
    };
    const kafkajsKeys = raw.map((r) => Buffer.from(r.key));
    const kafkajsValues = raw.map((r) => Buffer.from(r.value));
    const kafkajsEncode = () =>
      kafkajsRecordBatch({
        firstOffset: '0',
        firstTimestamp: BASE_TIMESTAMP,
        maxTimestamp: BASE_TIMESTAMP + RECORDS_PER_BATCH - 1,
        lastOffsetDelta: RECORDS_PER_BATCH - 1,
        records: kafkajsKeys.map((key, i) =>
          kafkajsRecord({ offsetDelta: i, timestampDelta: i, key, value: kafkajsValues[i] as Buffer }),
        ),
      });

    // Same records, same bytes: the two encoders must agree before their speed is compared.
    const ours = encodeRecordBatch(batchInput);
    const theirs = (await kafkajsEncode()).buffer;
    if (Buffer.compare(Buffer.from(ours), theirs) !== 0) {
      throw new Error('glassbox and kafkajs encode the benchmark batch differently');
    }

    // Encode: glassbox vs kafkajs, records/s.
    const peerEncode = await rate(kafkajsEncode, RECORDS_PER_BATCH);
    const encode = await rate(() => encodeRecordBatch(batchInput), RECORDS_PER_BATCH);
    const encodeRatio = encode.cpu / peerEncode.cpu;
    report({
      name: 'RecordBatch encode (100 x 100 B records/batch), per CPU second',
      value: encode.cpu,
      unit: 'records/s',
      peer: peerEncode.cpu,
      ratio: encodeRatio,
      target: '>= 1,000,000 records/s and >= 3x kafkajs, on CPU time',
      met: encode.cpu >= 1_000_000 && encodeRatio >= 3,
    });
    report({
      name: 'RecordBatch encode, per wall second (shared machine)',
      value: encode.wall,
      unit: 'records/s',
      peer: peerEncode.wall,
      ratio: encode.wall / peerEncode.wall,
    });

    // Decode: a 100-batch buffer, as a fetch or a log recovery reads it.
    const BATCHES = 100;
    const log = new Uint8Array(ours.length * BATCHES);
    for (let i = 0; i < BATCHES; i++) {
      const b = encodeRecordBatch({ ...batchInput, baseOffset: i * RECORDS_PER_BATCH });
      log.set(b, i * ours.length);
    }
    const decode = await rate(() => decodeRecordBatches(log), BATCHES * RECORDS_PER_BATCH);
    const oneBatch = Buffer.from(ours);
    const peerDecode = await rate(() => kafkajsBatchDecoder(new KafkajsDecoder(oneBatch)), RECORDS_PER_BATCH);
    report({
      name: 'RecordBatch decode (100 x 100 B records/batch), per CPU second',
      value: decode.cpu,
      unit: 'records/s',
      peer: peerDecode.cpu,
      ratio: decode.cpu / peerDecode.cpu,
    });
    report({
      name: 'RecordBatch decode, per wall second (shared machine)',
      value: decode.wall,
      unit: 'records/s',
      peer: peerDecode.wall,
      ratio: decode.wall / peerDecode.wall,
    });

    // CRC-32C over 1 MiB.
    const mib = new Uint8Array(1 << 20);
    for (let i = 0; i < mib.length; i++) mib[i] = (i * 2654435761) >>> 24;
    const mibBuffer = Buffer.from(mib);
    if (crc32c(mib) !== kafkajsCrc32C(mibBuffer) >>> 0) throw new Error('CRC-32C disagrees with kafkajs');
    const crc = await rate(() => crc32c(mib), 1);
    const peerCrc = await rate(() => kafkajsCrc32C(mibBuffer), 1);
    report({
      name: 'CRC-32C throughput (slicing-by-16), per CPU second',
      value: crc.cpu,
      unit: 'MiB/s',
      peer: peerCrc.cpu,
      ratio: crc.cpu / peerCrc.cpu,
    });
    report({
      name: 'CRC-32C throughput, per wall second (shared machine)',
      value: crc.wall,
      unit: 'MiB/s',
      peer: peerCrc.wall,
      ratio: crc.wall / peerCrc.wall,
    });
  },
};

export default suite;
