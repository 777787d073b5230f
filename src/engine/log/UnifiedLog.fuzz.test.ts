import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../Clock';
import { decodeRecordBatches } from '../codec';
import type { LogSegment } from './LogSegment';
import { UnifiedLog } from './UnifiedLog';
import { StoreWriter } from './StoreWriter';
import { MapStore, makeBatch, text } from './testSupport';

// Seeded property test in the style of tldraw's recordStoreFuzzing: random appends, rolls,
// truncations and flushes, checking after every step that the incrementally maintained state
// equals state rebuilt from scratch. LOG_FUZZ_RUNS raises the number of runs (npm run soak).
const RUNS = Number(process.env.LOG_FUZZ_RUNS ?? 10);
const T0 = 1_700_000_000_000;

type Op =
  | { kind: 'append'; batches: { records: number; valueSize: number; dt: number }[] }
  | { kind: 'roll' }
  | { kind: 'truncate'; fraction: number }
  | { kind: 'flush' }
  | { kind: 'tick'; ms: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({
      kind: fc.constant('append' as const),
      batches: fc.array(
        fc.record({
          records: fc.integer({ min: 1, max: 6 }),
          valueSize: fc.integer({ min: 0, max: 120 }),
          dt: fc.integer({ min: 0, max: 5000 }),
        }),
        { minLength: 1, maxLength: 3 },
      ),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'roll' as const }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('truncate' as const),
      fraction: fc.double({ min: 0, max: 1, noNaN: true }),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'flush' as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('tick' as const), ms: fc.integer({ min: 0, max: 20_000 }) }) },
);

const configArb = fc.record({
  'segment.bytes': fc.integer({ min: 300, max: 3000 }),
  'index.interval.bytes': fc.integer({ min: 0, max: 600 }),
  'segment.index.bytes': fc.integer({ min: 24, max: 400 }),
  'segment.ms': fc.integer({ min: 1000, max: 60_000 }),
  'flush.messages': fc.integer({ min: 1, max: 50 }),
});

function checkSegment(seg: LogSegment, active: boolean): void {
  // Every index entry points at the start of a batch that ends at the entry's offset.
  const starts = new Map<number, number>();
  for (const h of seg.batches()) starts.set(h.position, h.lastOffset);
  for (let s = 0; s < seg.offsetIndex.entries; s++) {
    const e = seg.offsetIndex.entryInfo(s);
    expect(starts.get(e.position)).toBe(e.offset);
  }
  const rebuilt = seg.rebuiltIndexes();
  expect(seg.offsetIndex.sameEntriesAs(rebuilt.offsetIndex)).toBe(true);
  if (!active) {
    expect(seg.timeIndex.sameEntriesAs(rebuilt.timeIndex)).toBe(true);
  } else {
    // Recovery adds the closing entry a clean close would write; the live active segment has not yet.
    const live = seg.timeIndex.toBytes();
    expect(rebuilt.timeIndex.toBytes().subarray(0, live.length)).toEqual(live);
  }
}

describe('UnifiedLog fuzz: appends, rolls, truncations, flushes', () => {
  for (const seed of [1, 2, 3, 0x5eed]) {
    it(`seed ${seed}: offsets contiguous, indexes equal rebuilt ones, lookup(o) finds record o, reload equals memory`, async () => {
      await fc.assert(
        fc.asyncProperty(configArb, fc.array(opArb, { minLength: 5, maxLength: 40 }), async (config, ops) => {
          const clock = new ManualClock(T0);
          const store = new MapStore();
          const writer = new StoreWriter(store);
          const log = new UnifiedLog({ dir: 'fuzz-0', config, clock, writer });
          const model: string[] = []; // value of the record at each offset
          let ts = T0;
          for (const op of ops) {
            if (op.kind === 'append') {
              for (const b of op.batches) {
                ts += b.dt;
                const first = model.length;
                const values: string[] = [];
                for (let i = 0; i < b.records; i++) values.push(`o${first + i}|`.padEnd(b.valueSize, '#'));
                const bytes = makeBatch(values.map((v) => ({ value: v, timestamp: ts })));
                if (bytes.length > config['segment.bytes']) {
                  // Larger than a segment: refused, and nothing changes.
                  const size = log.size;
                  expect(() => log.appendAsLeader(bytes)).toThrow(/RECORD_LIST_TOO_LARGE/); // UnifiedLog.append: RecordBatchTooLargeException
                  expect(log.size).toBe(size);
                  continue;
                }
                const info = log.appendAsLeader(bytes);
                expect(info.firstOffset).toBe(first);
                model.push(...values);
              }
            } else if (op.kind === 'roll') {
              log.roll();
            } else if (op.kind === 'truncate') {
              const target = Math.floor(op.fraction * model.length);
              log.truncateTo(target);
              // Truncation removes whole batches: the log end is at a batch boundary <= target.
              expect(log.logEndOffset).toBeLessThanOrEqual(Math.max(target, 0));
              model.length = log.logEndOffset;
            } else if (op.kind === 'flush') {
              log.flush();
            } else {
              clock.advance(op.ms);
              log.maybeFlush();
            }
            // Invariants after every step.
            expect(log.logEndOffset).toBe(model.length);
            const segs = log.logSegments;
            for (let i = 0; i < segs.length; i++) {
              const seg = segs[i] as LogSegment;
              checkSegment(seg, i === segs.length - 1);
              const next = segs[i + 1];
              if (next) expect(seg.nextOffset).toBeLessThanOrEqual(next.baseOffset);
            }
          }
          // Offsets are contiguous and every offset finds its own record.
          let expected = 0;
          let offset = 0;
          while (offset < log.logEndOffset) {
            const f = log.fetch(offset, 1 << 20);
            for (const b of decodeRecordBatches(f.records)) {
              for (const r of b.records) {
                expect(b.baseOffset + r.offsetDelta).toBe(expected);
                expect(text(r.value)).toBe(model[expected]);
                expected++;
              }
            }
            offset = f.nextOffset;
          }
          expect(expected).toBe(model.length);
          for (let o = 0; o < model.length; o++) {
            const { answer } = log.lookup(o, { trace: o % 7 === 0 });
            expect(answer.exact).toBe(true);
            expect(text(answer.record?.value)).toBe(model[o]);
          }
          // A power failure now keeps exactly the offsets below the recovery point.
          await writer.settled();
          const crashed = await UnifiedLog.load(store, 'fuzz-0', config, clock);
          expect(crashed.report.segments.every((s) => s.bytesTruncated === 0)).toBe(true);
          expect(crashed.log.logEndOffset).toBe(log.recoveryPoint);
          for (let o = 0; o < crashed.log.logEndOffset; o += 5) {
            expect(text(crashed.log.lookup(o, { trace: false }).answer.record.value)).toBe(model[o]);
          }
          // Flushed state reloads to exactly the same log.
          log.flush();
          await writer.settled();
          const { log: loaded, report } = await UnifiedLog.load(store, 'fuzz-0', config, clock);
          expect(report.segments.every((s) => s.bytesTruncated === 0 && !s.offsetIndex.rebuilt)).toBe(true);
          expect(loaded.logEndOffset).toBe(log.logEndOffset);
          expect(loaded.logSegments.map((s) => s.baseOffset)).toEqual(log.logSegments.map((s) => s.baseOffset));
          for (let i = 0; i < loaded.logSegments.length; i++) {
            expect(loaded.logSegments[i]?.log.copy()).toEqual(log.logSegments[i]?.log.copy());
          }
        }),
        { seed, numRuns: RUNS },
      );
    });
  }
});
