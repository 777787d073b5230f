/**
 * snappy, lz4 and zstd between real clients and the Node host. Producers compress with their own
 * codecs and the broker stores their batches as sent (`compression.type` producer): zstd from
 * kcat 1.7.1 (librdkafka 2.0.2 on Debian), snappy (raw snappy, no xerial header) and lz4 frames
 * from @platformatic/kafka 1.35.0's WebAssembly codecs. librdkafka 2.0.2 compresses snappy and
 * lz4 only for a broker that advertises Produce v0 (rd_kafka_msgset_writer_select_caps), which
 * the host does not serve (Produce 3-11), so it sends those uncompressed. A topic whose
 * compression.type names a codec gets every batch rebuilt in it by the leader (LogValidator), and
 * librdkafka reads back what glassbox wrote. kcat comes from apt (`.ci/run` installs it); without
 * it its tests are skipped and their names say why.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { ProduceAcks, Producer as PltProducer, stringSerializers } from '@platformatic/kafka';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeRecordBatches, readBatchHeader } from '../engine/index';
import type { NodeHost } from './NodeHost';
import { freePortRange } from './freePorts';
import { startDemoHost, until } from './wireTesting';

const PORT = await freePortRange(8);
const BOOTSTRAP = `127.0.0.1:${PORT}`;
const KCAT = '/usr/bin/kcat';
const kcatMissing = existsSync(KCAT) ? null : `${KCAT} not found (apt-get install kcat)`;
if (kcatMissing) console.warn(`RealClientCodecs: skipping: ${kcatMissing}`);
const skipped = kcatMissing ? ` [skipped: ${kcatMissing}]` : '';
const CODEC_IDS = { snappy: 2, lz4: 3, zstd: 4 } as const;
const RECORDS = 500;

let host: NodeHost;
beforeAll(async () => {
  host = await startDemoHost(PORT);
});
afterAll(async () => {
  await host?.stop();
});

/** The codec id (attributes bits 0-2) of every batch the partition's leader holds. */
function storedCodecs(topic: string): number[] {
  const leader = host.engine.leaderReplica(topic, 0);
  if (!leader) return [];
  const bytes = leader.log.fetch(0, 1 << 26).records;
  const codecs: number[] = [];
  for (let at = 0; at < bytes.length; ) {
    const h = readBatchHeader(bytes, at);
    codecs.push(h.attributes & 7);
    at += h.sizeInBytes;
  }
  return codecs;
}

async function topic(name: string, configs: Record<string, string> = {}): Promise<void> {
  host.engine.createTopic({ name, partitions: 1, replicationFactor: 3, configs });
  await until(() => host.engine.partitionState(name, 0).isr.length === 3, 15_000);
}

/** Values that compress: a repeated word and a counter. */
const VALUES = Array.from({ length: RECORDS }, (_, i) => `record-${'ab'.repeat(i % 40)}-${i}`);

async function produceWithKcat(name: string, codec: string): Promise<string[]> {
  const values = VALUES;
  await run(
    KCAT,
    ['-b', BOOTSTRAP, '-P', '-t', name, '-z', codec, '-X', 'acks=all', '-X', 'linger.ms=50'],
    `${values.join('\n')}\n`,
  );
  await until(() => (host.engine.leaderReplica(name, 0)?.highWatermark ?? 0) === RECORDS, 15_000);
  return values;
}

async function readWithKcat(name: string): Promise<string[]> {
  const { stdout } = await run(KCAT, ['-b', BOOTSTRAP, '-C', '-t', name, '-o', 'beginning', '-e', '-q']);
  return stdout.split('\n').filter((l) => l.length > 0);
}

describe('a client compresses, the broker keeps its codec (compression.type producer)', () => {
  it.skipIf(kcatMissing !== null)(
    `kcat -z zstd: every batch stored as zstd, every record read back in order${skipped}`,
    async () => {
      await topic('from-kcat-zstd');
      const values = await produceWithKcat('from-kcat-zstd', 'zstd');
      const codecs = storedCodecs('from-kcat-zstd');
      expect(codecs.length).toBeGreaterThan(0);
      expect(new Set(codecs)).toEqual(new Set([CODEC_IDS.zstd]));
      expect(await readWithKcat('from-kcat-zstd')).toEqual(values);
    },
  );

  it.each(['snappy', 'lz4'] as const)(
    '@platformatic/kafka compression %s: every batch stored in that codec, the records as sent',
    async (codec) => {
      const name = `from-platformatic-${codec}`;
      await topic(name);
      const producer = new PltProducer({
        clientId: `platformatic-${codec}`,
        bootstrapBrokers: [BOOTSTRAP],
        serializers: stringSerializers,
        acks: ProduceAcks.ALL,
        compression: codec,
      });
      try {
        for (let at = 0; at < RECORDS; at += 100) {
          const messages = VALUES.slice(at, at + 100).map((value) => ({ topic: name, partition: 0, value }));
          await producer.send({ messages });
        }
      } finally {
        await producer.close();
      }
      await until(() => (host.engine.leaderReplica(name, 0)?.highWatermark ?? 0) === RECORDS, 15_000);
      expect(new Set(storedCodecs(name))).toEqual(new Set([CODEC_IDS[codec]]));
      const bytes = host.engine.leaderReplica(name, 0)?.log.fetch(0, 1 << 26).records ?? new Uint8Array(0);
      const decoder = new TextDecoder();
      const stored = decodeRecordBatches(bytes).flatMap((b) =>
        b.records.map((r) => decoder.decode(r.value ?? undefined)),
      );
      expect(stored).toEqual(VALUES);
      if (kcatMissing === null) expect(await readWithKcat(name)).toEqual(VALUES);
    },
  );
});

describe('the leader recompresses to the topic codec, librdkafka reads what glassbox wrote', () => {
  it.skipIf(kcatMissing !== null).each(['snappy', 'lz4', 'zstd'] as const)(
    `compression.type %s: kcat's uncompressed batches are stored in the topic codec and read back${skipped}`,
    async (codec) => {
      const name = `to-${codec}`;
      await topic(name, { 'compression.type': codec });
      const values = await produceWithKcat(name, 'none');
      expect(new Set(storedCodecs(name))).toEqual(new Set([CODEC_IDS[codec]]));
      // The followers fetched the leader's bytes as they are.
      for (const r of host.engine.partitionState(name, 0).replicaStates) expect(r.logEndOffset).toBe(RECORDS);
      expect(await readWithKcat(name)).toEqual(values);
    },
  );
});

/** Runs a client without blocking the event loop (the brokers answer from this same process). */
function run(file: string, args: string[], input?: string): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = execFile(file, args, { timeout: 60_000, maxBuffer: 64 << 20 }, (err, stdout, stderr) =>
      err ? reject(new Error(`${file} ${args.join(' ')}: ${err.message}\n${stderr}`)) : resolve({ stdout, stderr }),
    );
    child.stdin?.end(input ?? '');
  });
}
