import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REAL_PARTITIONS } from '../engine/codec/fixtures/kafka-3.7.0/expected';
import { encodeRecordBatch } from '../engine/codec/recordBatch';
import { main } from './dumpLog';

const ROOT = join(import.meta.dirname, '..', '..');
const FIXTURES = join(ROOT, 'src', 'engine', 'codec', 'fixtures', 'kafka-3.7.0');

const tempDirs: string[] = [];
afterAll(() => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'dump-log-'));
  tempDirs.push(dir);
  return dir;
}

function run(args: string[]): { status: number; out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  const status = main(args, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { status, out, err };
}

function glassboxLog(dir: string): string {
  const batch = encodeRecordBatch({
    baseOffset: 42,
    partitionLeaderEpoch: 0,
    attributes: 0,
    lastOffsetDelta: 0,
    baseTimestamp: 1_000,
    maxTimestamp: 1_000,
    producerId: -1,
    producerEpoch: -1,
    baseSequence: -1,
    records: [
      {
        attributes: 0,
        timestampDelta: 0,
        offsetDelta: 0,
        key: null,
        value: new TextEncoder().encode('hello'),
        headers: [],
      },
    ],
  });
  const path = join(dir, '00000000000000000042.log');
  writeFileSync(path, batch);
  return path;
}

describe('dump-log CLI', () => {
  it('dumps a real Kafka .log, .index and .timeindex with exit status 0', () => {
    const dir = join(FIXTURES, '__consumer_offsets-6');
    const files = ['log', 'index', 'timeindex'].map((s) => join(dir, `00000000000000000000.${s}`));
    const r = run(files);
    expect(r.status).toBe(0);
    expect(r.err).toEqual([]);
    const p = REAL_PARTITIONS[0];
    if (!p) throw new Error('no fixture');
    expect(r.out[0]).toBe(`Dumping ${files[0]}`);
    expect(r.out[1]).toBe('Log starting offset: 0');
    expect(r.out[2]).toBe(
      'baseOffset: 0 lastOffset: 0 count: 1 baseSequence: -1 lastSequence: -1 producerId: -1 producerEpoch: -1 partitionLeaderEpoch: 0 isTransactional: false isControl: false deleteHorizonMs: OptionalLong.empty position: 0 CreateTime: 1769791662955 size: 1780 magic: 2 compresscodec: none crc: 3425803576 isvalid: true',
    );
    expect(r.out.slice(2, 2 + p.batches.length).map((l) => Number(/crc: (\d+)/.exec(l)?.[1]))).toEqual(
      p.batches.map((b) => b.crc),
    );
    expect(r.out.slice(15)).toEqual([
      `Dumping ${files[1]}`,
      'offset: 3 position: 4730',
      'offset: 7 position: 9571',
      `Dumping ${files[2]}`,
      'timestamp: 1769791783399 offset: 3',
      'timestamp: 1769792518093 offset: 7',
      'timestamp: 1769793578176 offset: 12',
    ]);
  });

  it('accepts Kafka-style --files a,b and --print-data on a glassbox-written file', () => {
    const dir = tempDir();
    const path = glassboxLog(dir);
    const r = run(['--files', path, '--print-data']);
    expect(r.status).toBe(0);
    expect(r.out[1]).toBe('Log starting offset: 42');
    expect(r.out[3]).toBe(
      '| offset: 42 CreateTime: 1000 keySize: -1 valueSize: 5 sequence: -1 headerKeys: [] payload: hello',
    );
  });

  it('exits 1 with a located report for a corrupt file, 2 for a missing one or no arguments', () => {
    const dir = tempDir();
    const path = glassboxLog(dir);
    writeFileSync(path, new Uint8Array(30).fill(0xff));
    const r = run([path]);
    expect(r.status).toBe(1);
    expect(r.err[0]).toMatch(/00000000000000000042\.log: position 0: corrupt batch header: /);
    expect(run([join(dir, 'missing.log')]).status).toBe(2);
    expect(run([]).status).toBe(2);
  });

  it('runs as `npm run dump-log` does (tsx), printing no stack trace on corruption', () => {
    const dir = tempDir();
    const path = glassboxLog(dir);
    writeFileSync(path, new Uint8Array([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 99, 1, 2, 3]));
    const tsx = join(ROOT, 'node_modules', '.bin', 'tsx');
    const r = spawnSync(tsx, ['src/cli/dumpLog.ts', path], { cwd: ROOT, encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stdout).toContain(`Dumping ${path}`);
    expect(r.stdout).toContain('Found 15 invalid bytes at the end of 00000000000000000042.log');
    expect(r.stderr).toContain('position 0: torn tail: 15 bytes');
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});
