import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CompressionType } from './compression';
import { crc32c } from './crc32c';
import { dumpLog, dumpOffsetIndex, dumpSegmentFile, dumpTimeIndex, readOffsetIndexEntries } from './dumpLog';
import { REAL_PARTITIONS } from './fixtures/kafka-3.7.0/expected';
import { batchAttributes, type DefaultRecord, encodeRecordBatch, lastSequence } from './recordBatch';
import { loadZstdEncoder } from './zstdCodec';

const FIXTURES = join(import.meta.dirname, 'fixtures', 'kafka-3.7.0');
const read = (p: string) => new Uint8Array(readFileSync(join(FIXTURES, p)));
const utf8 = (s: string) => new TextEncoder().encode(s);

/** The batch line DumpLogSegments prints, built from the collector's decoded values (not our formatter). */
function expectedBatchLine(b: (typeof REAL_PARTITIONS)[number]['batches'][number]): string {
  return (
    `baseOffset: ${b.baseOffset} lastOffset: ${b.lastOffset} count: ${b.recordsCount}` +
    ` baseSequence: ${b.baseSequence} lastSequence: ${lastSequence(b.baseSequence, b.lastOffset - b.baseOffset)}` +
    ` producerId: ${b.producerId} producerEpoch: ${b.producerEpoch} partitionLeaderEpoch: ${b.partitionLeaderEpoch}` +
    ' isTransactional: false isControl: false deleteHorizonMs: OptionalLong.empty' +
    ` position: ${b.position} CreateTime: ${b.maxTimestamp} size: ${b.sizeInBytes} magic: 2 compresscodec: none` +
    ` crc: ${b.crc} isvalid: true`
  );
}

describe('dump of real Kafka 3.7.0 segments', () => {
  for (const partition of REAL_PARTITIONS) {
    it(`prints ${partition.dir}/00000000000000000000.log like kafka-dump-log`, () => {
      const path = `${partition.dir}/00000000000000000000.log`;
      const out = dumpLog(path, read(path));
      expect(out.stdout).toEqual([
        `Dumping ${path}`,
        'Log starting offset: 0',
        ...partition.batches.map(expectedBatchLine),
      ]);
      expect(out.stderr).toEqual([]);
      expect(out.ok).toBe(true);
    });
  }

  it('prints the record lines of the idempotent TestTopicPatient-0 batches with --print-data', () => {
    const path = 'TestTopicPatient-0/00000000000000000000.log';
    const out = dumpLog(path, read(path), { printData: true });
    const records = out.stdout.filter((l) => l.startsWith('| '));
    expect(records).toHaveLength(3);
    expect(records[0]).toMatch(
      /^\| offset: 0 CreateTime: 1769792698283 keySize: -1 valueSize: 1831 sequence: 0 headerKeys: \[\] payload: \{\r\n {2}"resourceType" : "Patient",/,
    );
    expect(records[2]).toMatch(
      /^\| offset: 2 CreateTime: 1769793578165 keySize: -1 valueSize: 324 sequence: 0 headerKeys: \[\] payload: /,
    );
  });

  it('prints the offset and time indexes of __consumer_offsets-6 and finds them consistent with the log', () => {
    const p = REAL_PARTITIONS[0];
    if (!p?.index || !p.timeindex) throw new Error('fixture facts missing');
    const log = read('__consumer_offsets-6/00000000000000000000.log');
    const index = read('__consumer_offsets-6/00000000000000000000.index');
    const idx = dumpOffsetIndex('__consumer_offsets-6/00000000000000000000.index', index, log);
    expect(idx.stdout.slice(1)).toEqual(p.index.map(([o, pos]) => `offset: ${o} position: ${pos}`));
    expect(idx.ok).toBe(true);
    const t = dumpTimeIndex(
      '__consumer_offsets-6/00000000000000000000.timeindex',
      read('__consumer_offsets-6/00000000000000000000.timeindex'),
      index,
      log,
    );
    expect(t.stdout).toEqual([
      'Dumping __consumer_offsets-6/00000000000000000000.timeindex',
      ...p.timeindex.map(([ts, o]) => `timestamp: ${ts} offset: ${o}`),
    ]);
    expect(t.stderr).toEqual([]);
  });

  it('describes KRaft snapshot control records like DumpLogSegments', () => {
    const out = dumpSegmentFile('bootstrap.checkpoint', read('bootstrap.checkpoint'), { deepIteration: true });
    expect(out.stdout[1]).toBe('KRaft bootstrap snapshot');
    expect(out.stdout.filter((l) => l.startsWith('|'))).toEqual([
      '| offset: 0 CreateTime: 1769791430952 keySize: 4 valueSize: 11 sequence: -1 headerKeys: [] SnapshotHeader {"version":0,"lastContainedLogTimestamp":0}',
      '| offset: 1 CreateTime: 1769791430996 keySize: -1 valueSize: 23 sequence: -1 headerKeys: []',
      '| offset: 2 CreateTime: 1769791430997 keySize: 4 valueSize: 3 sequence: -1 headerKeys: [] SnapshotFooter {"version":0}',
    ]);
  });
});

describe('golden output of a real broker, rebuilt from its fields', () => {
  // fvaleri/strimzi-debugging sessions/009/README.md: `kafka-dump-log.sh --deep-iteration --print-data-log`
  // on output-topic-0 of a transactional read-process-write app — a transactional data batch and
  // its COMMIT marker. Encoding the same fields must give Kafka's exact sizes and CRCs, and the
  // dump must print Kafka's exact lines.
  it('reproduces a transactional batch and its COMMIT control batch byte for byte', () => {
    const data = encodeRecordBatch({
      baseOffset: 0,
      partitionLeaderEpoch: 0,
      attributes: batchAttributes({ transactional: true }),
      lastOffsetDelta: 0,
      baseTimestamp: 1742739702864,
      maxTimestamp: 1742739702864,
      producerId: 1,
      producerEpoch: 0,
      baseSequence: 0,
      records: [
        { attributes: 0, timestampDelta: 0, offsetDelta: 0, key: null, value: utf8('tset a si siht'), headers: [] },
      ],
    });
    const marker = encodeRecordBatch({
      baseOffset: 1,
      partitionLeaderEpoch: 0,
      attributes: batchAttributes({ transactional: true, control: true }),
      lastOffsetDelta: 0,
      baseTimestamp: 1742739703234,
      maxTimestamp: 1742739703234,
      producerId: 1,
      producerEpoch: 0,
      baseSequence: -1,
      // ControlRecordType key (version 0, type 1 = COMMIT); EndTransactionMarker value (version 0, coordinatorEpoch 0).
      records: [
        {
          attributes: 0,
          timestampDelta: 0,
          offsetDelta: 0,
          key: Uint8Array.from([0, 0, 0, 1]),
          value: Uint8Array.from([0, 0, 0, 0, 0, 0]),
          headers: [],
        },
      ],
    });
    const log = new Uint8Array(data.length + marker.length);
    log.set(data);
    log.set(marker, data.length);
    const path = '/var/lib/kafka/data/kafka-log10/output-topic-0/00000000000000000000.log';
    expect(dumpLog(path, log, { printData: true }).stdout).toEqual([
      `Dumping ${path}`,
      'Log starting offset: 0',
      'baseOffset: 0 lastOffset: 0 count: 1 baseSequence: 0 lastSequence: 0 producerId: 1 producerEpoch: 0 partitionLeaderEpoch: 0 isTransactional: true isControl: false deleteHorizonMs: OptionalLong.empty position: 0 CreateTime: 1742739702864 size: 82 magic: 2 compresscodec: none crc: 758896000 isvalid: true',
      '| offset: 0 CreateTime: 1742739702864 keySize: -1 valueSize: 14 sequence: 0 headerKeys: [] payload: tset a si siht',
      'baseOffset: 1 lastOffset: 1 count: 1 baseSequence: -1 lastSequence: -1 producerId: 1 producerEpoch: 0 partitionLeaderEpoch: 0 isTransactional: true isControl: true deleteHorizonMs: OptionalLong.empty position: 82 CreateTime: 1742739703234 size: 78 magic: 2 compresscodec: none crc: 2557578104 isvalid: true',
      '| offset: 1 CreateTime: 1742739703234 keySize: 4 valueSize: 6 sequence: -1 headerKeys: [] endTxnMarker: COMMIT coordinatorEpoch: 0',
    ]);
  });
});

function glassboxSegment(codec: CompressionType = 'gzip'): { log: Uint8Array; positions: number[] } {
  const parts: Uint8Array[] = [];
  const positions: number[] = [];
  let position = 0;
  for (let b = 0; b < 3; b++) {
    const records: DefaultRecord[] = [0, 1].map((i) => ({
      attributes: 0,
      timestampDelta: i * 5,
      offsetDelta: i,
      key: i === 0 ? utf8(`key-${b}`) : null,
      value: utf8(`value-${b}-${i}`),
      headers:
        i === 0
          ? [
              { key: 'trace', value: utf8('x') },
              { key: 'span', value: null },
            ]
          : [],
    }));
    const bytes = encodeRecordBatch({
      baseOffset: 100 + b * 2,
      partitionLeaderEpoch: 4,
      attributes: batchAttributes({ compression: b === 2 ? codec : 'none' }),
      lastOffsetDelta: 1,
      baseTimestamp: 1_000 + b * 100,
      maxTimestamp: 1_005 + b * 100,
      producerId: 7,
      producerEpoch: 0,
      baseSequence: b * 2,
      records,
    });
    parts.push(bytes);
    positions.push(position);
    position += bytes.length;
  }
  const log = new Uint8Array(position);
  parts.forEach((p, i) => {
    log.set(p, positions[i]);
  });
  return { log, positions };
}

describe('dump of a glassbox-written segment', () => {
  it('prints batches and records, including gzip', () => {
    const { log, positions } = glassboxSegment();
    const out = dumpLog('t-0/00000000000000000100.log', log, { printData: true });
    expect(out.ok).toBe(true);
    expect(out.stdout[1]).toBe('Log starting offset: 100');
    expect(out.stdout[2]).toMatch(
      new RegExp(
        `^baseOffset: 100 lastOffset: 101 count: 2 baseSequence: 0 lastSequence: 1 producerId: 7 producerEpoch: 0 partitionLeaderEpoch: 4 isTransactional: false isControl: false deleteHorizonMs: OptionalLong.empty position: 0 CreateTime: 1005 size: ${positions[1]} magic: 2 compresscodec: none crc: \\d+ isvalid: true$`,
      ),
    );
    expect(out.stdout[3]).toBe(
      '| offset: 100 CreateTime: 1000 keySize: 5 valueSize: 9 sequence: 0 headerKeys: [trace,span] key: key-0 payload: value-0-0',
    );
    expect(out.stdout[4]).toBe(
      '| offset: 101 CreateTime: 1005 keySize: -1 valueSize: 9 sequence: 1 headerKeys: [] payload: value-0-1',
    );
    expect(out.stdout[8]).toContain(`position: ${positions[2]} CreateTime: 1205`);
    expect(out.stdout[8]).toContain('compresscodec: gzip');
    expect(out.stdout[9]).toBe(
      '| offset: 104 CreateTime: 1200 keySize: 5 valueSize: 9 sequence: 4 headerKeys: [trace,span] key: key-2 payload: value-2-0',
    );
  });

  // DumpLogSegments prints each batch's codec by CompressionType name and its records inflated.
  it.each(['snappy', 'lz4', 'zstd'] as const)(
    'prints a %s batch and its records (DumpLogSegments.dumpLog)',
    async (codec) => {
      await loadZstdEncoder();
      const { log } = glassboxSegment(codec);
      const out = dumpLog('t-0/00000000000000000100.log', log, { printData: true });
      expect(out.ok).toBe(true);
      expect(out.stdout[8]).toContain(`compresscodec: ${codec}`);
      expect(out.stdout[9]).toBe(
        '| offset: 104 CreateTime: 1200 keySize: 5 valueSize: 9 sequence: 4 headerKeys: [trace,span] key: key-2 payload: value-2-0',
      );
    },
  );

  it('stops an index at the zero-filled tail of a preallocated file and checks entries against the log', () => {
    const { log, positions } = glassboxSegment();
    const index = new Uint8Array(8 * 16); // preallocated: one real entry, then zeros
    const view = new DataView(index.buffer);
    view.setInt32(0, 3); // relative offset 3 = offset 103, the last offset of the batch at positions[1]
    view.setInt32(4, positions[1] as number);
    expect(readOffsetIndexEntries(index, 100)).toEqual([{ offset: 103, position: positions[1] }]);
    const ok = dumpOffsetIndex('t-0/00000000000000000100.index', index, log);
    expect(ok.stdout).toEqual(['Dumping t-0/00000000000000000100.index', `offset: 103 position: ${positions[1]}`]);
    expect(ok.ok).toBe(true);

    view.setInt32(0, 2); // now it names offset 102, but the batch there ends at 103
    const bad = dumpOffsetIndex('t-0/00000000000000000100.index', index, log);
    expect(bad.stderr).toEqual([
      'Mismatches in :t-0/00000000000000000100.index',
      '  Index offset: 102, log offset: 103',
    ]);
    expect(bad.ok).toBe(false);
  });

  it('reports an empty index as Kafka does', () => {
    expect(dumpOffsetIndex('00000000000000000000.index', new Uint8Array(0)).stdout).toEqual([
      'Dumping 00000000000000000000.index',
      '00000000000000000000.index is empty.',
    ]);
  });

  it('checks a time index against the batch max timestamps', () => {
    const { log } = glassboxSegment();
    const timeindex = new Uint8Array(12 * 4);
    const view = new DataView(timeindex.buffer);
    view.setBigInt64(0, 1105n);
    view.setInt32(8, 3);
    view.setBigInt64(12, 1200n); // wrong: the batch ending at 105 has max timestamp 1205
    view.setInt32(20, 5);
    const out = dumpTimeIndex('t-0/00000000000000000100.timeindex', timeindex, null, log);
    expect(out.stdout.slice(1)).toEqual(['timestamp: 1105 offset: 103', 'timestamp: 1200 offset: 105']);
    expect(out.stderr).toEqual([
      'Found timestamp mismatch in :t-0/00000000000000000100.timeindex',
      '  Index timestamp: 1200, log timestamp: 1205',
    ]);
  });
});

describe('corrupt files: a report of where, not a stack trace', () => {
  it('prints isvalid: false for a CRC mismatch and names the position', () => {
    const { log, positions } = glassboxSegment();
    const at = (positions[1] as number) + 70;
    log[at] = (log[at] as number) ^ 0x10;
    const out = dumpLog('00000000000000000100.log', log, { printData: true });
    expect(out.ok).toBe(false);
    expect(out.stdout.filter((l) => l.includes('isvalid: false'))).toHaveLength(1);
    expect(out.stderr[0]).toMatch(
      new RegExp(`^00000000000000000100.log: position ${positions[1]}: CRC mismatch: stored crc \\d+, computed \\d+$`),
    );
  });

  it('reports a torn tail like Kafka and as a problem', () => {
    const { log, positions } = glassboxSegment();
    const torn = log.subarray(0, log.length - 10);
    const out = dumpLog('00000000000000000100.log', torn);
    const tail = torn.length - (positions[2] as number);
    expect(out.stdout.at(-1)).toBe(`Found ${tail} invalid bytes at the end of 00000000000000000100.log`);
    expect(out.stderr).toEqual([
      `00000000000000000100.log: position ${positions[2]}: torn tail: ${tail} bytes do not hold a complete batch`,
    ]);
  });

  it('reports a corrupt header (bad magic) with its position and stops', () => {
    const { log, positions } = glassboxSegment();
    log[(positions[1] as number) + 16] = 7;
    const out = dumpLog('00000000000000000100.log', log);
    expect(out.stdout).toHaveLength(3);
    expect(out.stderr[0]).toMatch(
      new RegExp(`^00000000000000000100.log: position ${positions[1]}: corrupt batch header: .*magic 7`),
    );
  });

  it('still decodes a batch whose records are malformed under a valid CRC, reporting it', () => {
    const { log, positions } = glassboxSegment();
    const start = positions[1] as number;
    const end = positions[2] as number;
    log[start + 61] = 0x7f; // first record length: zigzag -64
    new DataView(log.buffer).setUint32(start + 17, crc32c(log, start + 21, end));
    const out = dumpLog('00000000000000000100.log', log, { printData: true });
    expect(out.ok).toBe(false);
    expect(out.stdout.some((l) => l.startsWith(`baseOffset: 102`) && l.endsWith('isvalid: true'))).toBe(true);
    expect(out.stderr[0]).toMatch(new RegExp(`position ${start}: records not printed: CORRUPT_MESSAGE`));
  });
});
