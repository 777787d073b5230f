import { describe, expect, it } from 'vitest';
import { ManualClock } from '../Clock';
import { UnifiedLog } from '../log/UnifiedLog';
import { StoreWriter } from '../log/StoreWriter';
import { MapStore, makeBatch, makeRecords } from '../log/testSupport';
import { Rng } from '../Rng';
import { LazyStore } from './LazyStore';

const bytes = (...v: number[]) => Uint8Array.from(v);

describe('LazyStore: a disk behind a write cache that a power cut can take', () => {
  it('shows every operation to reads at once, but puts it on the disk (and settles it) only at sync', async () => {
    const disk = new MapStore();
    const cache = new LazyStore(disk);
    let settled = 0;
    void cache.append('d/a.log', bytes(1, 2, 3)).then(() => settled++);
    void cache.truncate('d/a.log', 2).then(() => settled++);
    void cache.write('d/b', bytes(9)).then(() => settled++);
    void cache.delete('d/b').then(() => settled++);
    expect(await cache.read('d/a.log')).toEqual(bytes(1, 2));
    expect(await cache.read('d/b')).toBeNull();
    expect(await cache.list('d/')).toEqual(['d/a.log']);
    expect(disk.files.size).toBe(0);
    expect(settled).toBe(0);
    expect(cache.inFlightCount).toBe(4);

    cache.sync();
    await Promise.resolve();
    await Promise.resolve();
    expect(settled).toBe(4);
    expect(disk.files.get('d/a.log')).toEqual(bytes(1, 2));
    expect(disk.files.has('d/b')).toBe(false);
    expect(cache.inFlightCount).toBe(0);
  });

  it('keeps a prefix of the operations in flight at a power cut, tears the append it interrupts, and loses the rest', async () => {
    let tornSeen = 0;
    for (let seed = 1; seed <= 200; seed++) {
      const disk = new MapStore();
      const cache = new LazyStore(disk);
      void cache.append('f', bytes(0)); // settles only once synced: not awaited
      cache.sync();
      const appends = [bytes(1, 2, 3, 4), bytes(5, 6, 7), bytes(8, 9)];
      for (const a of appends) void cache.append('f', a);
      const cut = cache.powerCut(new Rng(seed));
      const onDisk = disk.files.get('f') as Uint8Array;
      // What landed: the synced byte, the whole appends before the cut, and the torn one's prefix.
      const whole = appends.slice(0, cut.landed).reduce((n, a) => n + a.length, 1);
      expect(onDisk.length).toBe(whole + (cut.torn?.bytesLanded ?? 0));
      expect(onDisk).toEqual(bytes(0, 1, 2, 3, 4, 5, 6, 7, 8, 9).subarray(0, onDisk.length));
      expect(cut.landed + (cut.torn ? 1 : 0) + cut.lost).toBe(3);
      if (cut.torn) {
        tornSeen++;
        expect(cut.torn.bytesLanded).toBeGreaterThan(0);
        expect(cut.torn.bytesLost).toBeGreaterThan(0);
      }
      // A machine without power writes nothing; after power-on it writes again.
      void cache.append('f', bytes(42));
      cache.sync();
      expect(disk.files.get('f')?.length).toBe(onDisk.length);
      expect(await cache.read('f')).toEqual(onDisk);
      cache.powerOn();
      void cache.append('f', bytes(42));
      cache.sync();
      expect(disk.files.get('f')?.length).toBe(onDisk.length + 1);
    }
    expect(tornSeen).toBeGreaterThan(50);
  });

  it('never tears whole-file writes (checkpoints are written to a temporary file and renamed)', async () => {
    for (let seed = 1; seed <= 50; seed++) {
      const disk = new MapStore();
      const cache = new LazyStore(disk);
      void cache.write('cp', bytes(1, 2, 3, 4, 5, 6));
      const cut = cache.powerCut(new Rng(seed));
      expect(cut.torn).toBeNull();
      const f = disk.files.get('cp');
      expect(f === undefined || f.length === 6).toBe(true);
    }
  });

  it('a torn batch at the end of a segment is cut off by LogLoader recovery, the batches before it kept', async () => {
    // Kafka's LogSegment.recover: read batches until one fails its length or CRC check, truncate
    // the segment there and rebuild the indexes from what is valid.
    const clock = new ManualClock(0);
    let torn = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const disk = new MapStore();
      const cache = new LazyStore(disk);
      const writer = new StoreWriter(cache);
      const config = { 'flush.messages': 1, 'index.interval.bytes': 1 };
      const log = new UnifiedLog({ dir: 't-0', config, clock, writer });
      log.appendAsLeader(makeBatch(makeRecords(3)), 0);
      log.appendAsLeader(makeBatch(makeRecords(2)), 0);
      cache.sync();
      log.appendAsLeader(makeBatch(makeRecords(4)), 0); // in flight at the cut
      const cut = cache.powerCut(new Rng(seed));
      cache.powerOn();
      const { log: recovered, report } = await UnifiedLog.load(cache, 't-0', config, clock);
      const segment = report.segments[0];
      if (cut.torn?.path.endsWith('.log')) {
        torn++;
        expect(recovered.logEndOffset).toBe(5);
        expect(segment?.bytesTruncated).toBe(cut.torn.bytesLanded);
      } else {
        expect([5, 9]).toContain(recovered.logEndOffset);
        expect(segment?.bytesTruncated).toBe(0);
      }
      expect(recovered.fetch(0, Number.MAX_SAFE_INTEGER).batches.at(-1)?.lastOffset).toBe(recovered.logEndOffset - 1);
    }
    expect(torn).toBeGreaterThan(5);
  });
});
