import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../Clock';
import { isKafkaError, type KafkaError } from '../errors';
import { MapStore, makeBatch, makeRecords } from '../log/testSupport';
import { StoreWriter } from '../log/StoreWriter';
import { DataPath } from '../index';
import { ClusterApps } from './ClusterApps';
import { crc32c } from '../codec/crc32c';
import { ATTRIBUTES_OFFSET, CRC_OFFSET, LAST_OFFSET_DELTA_OFFSET } from '../codec/recordBatch';
import { MAX_IMPORTED_OFFSET } from './importPartition';
import { importPartitionZip, MAX_IMPORT_BYTES } from './partitionZip';
import { MAX_TOPIC_PARTITIONS } from './types';
import { SCENARIO_EPOCH_MS } from './scenarioTime';

const LOG0 = '00000000000000000000.log';
const LOG5 = '00000000000000000005.log';
const LOG10 = '00000000000000000010.log';

function cluster() {
  const store = new MapStore();
  const recovered = new Map();
  const clock = new ManualClock(SCENARIO_EPOCH_MS);
  const apps = new ClusterApps(1, 'empty4', { store, recoveredLogs: recovered, clock });
  apps.tick(300);
  const data = new DataPath(apps.engine, recovered);
  const writer = new StoreWriter(store);
  return {
    apps,
    store,
    importZip: (zip: Uint8Array, name = 'x.zip') => importPartitionZip(data, store, clock, writer, zip, name),
    settled: () => writer.settled(),
  };
}

/** `n` records at offsets base..base+n-1, as one batch. */
function batch(base: number, n: number): Uint8Array {
  return makeBatch(makeRecords(n), { baseOffset: base });
}

/** The import's outcome: the KafkaError it threw, with what the Store and the cluster held before and after. */
async function refused(zip: Uint8Array) {
  const c = cluster();
  await c.settled();
  const filesBefore = await c.store.list('');
  const topicsBefore = c.apps.cluster.topicNames();
  let error: unknown;
  try {
    await c.importZip(zip);
  } catch (e) {
    error = e;
  }
  await c.settled();
  expect(isKafkaError(error), `expected a KafkaError, got ${String(error)}`).toBe(true);
  // A rejected import changes nothing: not one file in the Store, not one topic.
  expect(await c.store.list('')).toEqual(filesBefore);
  expect(c.apps.cluster.topicNames()).toEqual(topicsBefore);
  return error as KafkaError;
}

/** Rewrites the size the zip's central directory declares for `name` (a lying directory). */
function declareSize(zip: Uint8Array, name: string, size: number): Uint8Array {
  const out = zip.slice();
  const view = new DataView(out.buffer);
  const nameBytes = new TextEncoder().encode(name);
  for (let i = 0; i + 46 <= out.length; i++) {
    if (view.getUint32(i, true) !== 0x02014b50) continue;
    const length = view.getUint16(i + 28, true);
    const candidate = out.subarray(i + 46, i + 46 + length);
    if (length === nameBytes.length && candidate.every((b, k) => b === nameBytes[k])) {
      view.setUint32(i + 24, size, true);
      return out;
    }
  }
  throw new Error(`no directory entry ${name}`);
}

describe('import: a valid export', () => {
  it('loads two contiguous segments, skipping the README and a broker checkpoint without inflating them', async () => {
    const c = cluster();
    const zip = zipSync({
      [`orders-2/${LOG0}`]: batch(0, 10),
      [`orders-2/${LOG10}`]: batch(10, 5),
      'orders-2/README.txt': new Uint8Array(100),
      'orders-2/leader-epoch-checkpoint': new Uint8Array(8),
    });
    const result = await c.importZip(declareSize(zip, 'orders-2/README.txt', 1 << 30));
    expect(result).toEqual({ topic: 'orders', partition: 2, records: 15 });
    expect(c.apps.cluster.assignment('orders')).toHaveLength(3);
  });
});

describe('import: segments with a gap', () => {
  it('are accepted, as compaction leaves them (segment 20 whose first batch is 25, after offsets 0-9)', async () => {
    const c = cluster();
    const zip = zipSync({
      [`orders-0/${LOG0}`]: batch(0, 10),
      'orders-0/00000000000000000020.log': batch(25, 5),
    });
    const result = await c.importZip(zip);
    expect(result.topic).toBe('orders');
  });
});

describe('import: refused before one byte is written', () => {
  it(`a folder wide-5000/ or x-99999999/ is INVALID_PARTITIONS (at most ${MAX_TOPIC_PARTITIONS} partitions)`, async () => {
    for (const dir of ['wide-5000', 'x-99999999', `p-${MAX_TOPIC_PARTITIONS}`]) {
      const e = await refused(zipSync({ [`${dir}/${LOG0}`]: batch(0, 1) }));
      expect(e.code).toBe('INVALID_PARTITIONS');
      expect(e.message).toContain(String(MAX_TOPIC_PARTITIONS));
    }
  });

  it('a zip bomb is refused from its directory: a .log declaring more than the cap is never inflated', async () => {
    const zip = zipSync({ [`orders-0/${LOG0}`]: new Uint8Array(1 << 20) }, { level: 9 });
    const e = await refused(declareSize(zip, `orders-0/${LOG0}`, MAX_IMPORT_BYTES + 1));
    expect(e.code).toBe('INVALID_REQUEST');
    expect(e.details.declaredSize).toBe(MAX_IMPORT_BYTES + 1);
  });

  it('a lying directory is caught while inflating: the entry stops at the size it declared', async () => {
    // 2 MiB of zeros deflate to a few KiB; the directory claims 4 KiB.
    const zip = zipSync({ [`orders-0/${LOG0}`]: new Uint8Array(2 << 20) }, { level: 1 });
    expect(zip.length).toBeLessThan(64 * 1024);
    const e = await refused(declareSize(zip, `orders-0/${LOG0}`, 4096));
    expect(e.code).toBe('CORRUPT_MESSAGE');
    expect(e.message).toContain('declares 4096');
  });

  it('overlapping segments are CORRUPT_MESSAGE: segment 5 beside segment 0 holding offsets 0-9', async () => {
    // Segment 5 holding 10..14 (not backwards inside its own file) still overlaps 5..9.
    for (const seg5 of [batch(10, 5), new Uint8Array(0)]) {
      const e = await refused(zipSync({ [`orders-0/${LOG0}`]: batch(0, 10), [`orders-0/${LOG5}`]: seg5 }));
      expect(e.code).toBe('CORRUPT_MESSAGE');
      expect(e.message).toContain('overlaps');
      expect(e.details.file).toBe(`orders-0/${LOG5}`);
    }
  });

  it('a batch below its segment base offset is CORRUPT_MESSAGE (LogSegment.ensureOffsetInRange)', async () => {
    const e = await refused(zipSync({ [`orders-0/${LOG5}`]: batch(0, 3) }));
    expect(e.code).toBe('CORRUPT_MESSAGE');
  });

  it('unknown files and other layouts are INVALID_REQUEST', async () => {
    const log = { [`orders-0/${LOG0}`]: batch(0, 1) };
    for (const extra of ['orders-0/evil.exe', 'orders-0/0.log', 'orders-0/nested/x.log', 'top.txt']) {
      const e = await refused(zipSync({ ...log, [extra]: new Uint8Array(1) }));
      expect(e.code).toBe('INVALID_REQUEST');
    }
    expect((await refused(zipSync({ ...log, [`other-0/${LOG0}`]: batch(0, 1) }))).code).toBe('INVALID_REQUEST');
    expect((await refused(new TextEncoder().encode('not a zip'))).code).toBe('INVALID_REQUEST');
  });

  it('a topic name Kafka refuses (too long, internal "__") writes nothing', async () => {
    const long = 'a'.repeat(250);
    expect((await refused(zipSync({ [`${long}-0/${LOG0}`]: batch(0, 1) }))).code).toBe('INVALID_TOPIC_EXCEPTION');
    expect((await refused(zipSync({ [`__secret-0/${LOG0}`]: batch(0, 1) }))).code).toBe('INVALID_TOPIC_EXCEPTION');
  });

  it('a flipped bit in the second segment writes nothing, not even the valid first segment', async () => {
    const second = batch(10, 5);
    second[second.length - 1] = (second[second.length - 1] as number) ^ 1;
    const e = await refused(zipSync({ [`orders-0/${LOG0}`]: batch(0, 10), [`orders-0/${LOG10}`]: second }));
    expect(e.code).toBe('CORRUPT_MESSAGE');
    expect(e.message).toContain('CRC');
  });
});

describe('import: the topic name', () => {
  it("is moved aside when it would collide ('.' vs '_') with an existing topic", async () => {
    const c = cluster();
    c.apps.cluster.createTopic({ name: 'col.x', partitions: 1, replicationFactor: 1 });
    const result = await c.importZip(zipSync({ [`col_x-0/${LOG0}`]: batch(0, 2) }));
    expect(result.topic).toBe('col_x-imported');
  });
});

/** `bytes` (one batch) with its lastOffsetDelta set to `delta` and the CRC made right again, so only the offsets lie. */
function withLastOffsetDelta(bytes: Uint8Array, delta: number): Uint8Array {
  const out = bytes.slice();
  const view = new DataView(out.buffer);
  view.setInt32(LAST_OFFSET_DELTA_OFFSET, delta);
  view.setUint32(CRC_OFFSET, crc32c(out, ATTRIBUTES_OFFSET));
  return out;
}

describe("import: a batch's offset range (Kafka's LogValidator.validateBatch)", () => {
  // DefaultRecordBatch.ensureValid checks the size and the CRC; the offsets are LogValidator's:
  // validateBatch refuses countFromOffsets = lastOffset - baseOffset + 1 <= 0 ("Batch has an
  // invalid offset range") and a count that does not fit it ("Inconsistent batch offset range").
  // A log on disk may hold fewer records than offsets (compaction), never more.
  it('a negative lastOffsetDelta with a valid CRC is CORRUPT_MESSAGE, not "0 records"', async () => {
    const e = await refused(zipSync({ [`neg-0/${LOG0}`]: withLastOffsetDelta(batch(0, 4), -5) }));
    expect(e.code).toBe('CORRUPT_MESSAGE');
    expect(e.message).toContain('invalid offset range [0, -5]');
    expect(e.details).toMatchObject({ file: `neg-0/${LOG0}`, position: 0 });
  });

  it('four records in a batch whose offsets hold two are CORRUPT_MESSAGE', async () => {
    const e = await refused(zipSync({ [`short-0/${LOG0}`]: withLastOffsetDelta(batch(0, 4), 1) }));
    expect(e.code).toBe('CORRUPT_MESSAGE');
  });

  it('a compacted batch (2 records over offsets 0-3) is still accepted', async () => {
    const c = cluster();
    const result = await c.importZip(zipSync({ [`compacted-0/${LOG0}`]: withLastOffsetDelta(batch(0, 2), 3) }));
    expect(result).toEqual({ topic: 'compacted', partition: 0, records: 4 });
  });
});

describe('import: offsets near 2^53', () => {
  it('a log ending past MAX_IMPORTED_OFFSET is OFFSET_OUT_OF_RANGE, nothing written (edge-0/00009007199254740980.log)', async () => {
    const base = 9007199254740980;
    const e = await refused(zipSync({ [`edge-0/${String(base).padStart(20, '0')}.log`]: batch(base, 4) }));
    expect(e.code).toBe('OFFSET_OUT_OF_RANGE');
    expect(e.details.limit).toBe(MAX_IMPORTED_OFFSET);
  });

  it('an empty segment named past the limit is OFFSET_OUT_OF_RANGE too', async () => {
    const e = await refused(zipSync({ 'edge-0/00009007199254740980.log': new Uint8Array(0) }));
    expect(e.code).toBe('OFFSET_OUT_OF_RANGE');
  });

  it('leaves every imported log room for one segment of offsets (Integer.MAX_VALUE) below 2^53 - 1', async () => {
    expect(MAX_IMPORTED_OFFSET + 2 ** 31 - 1).toBe(Number.MAX_SAFE_INTEGER);
    const c = cluster();
    const base = MAX_IMPORTED_OFFSET - 3;
    const result = await c.importZip(zipSync({ [`high-0/${String(base).padStart(20, '0')}.log`]: batch(base, 4) }));
    expect(result.records).toBe(4);
  });
});
