import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../Clock';
import { decodeRecordBatches } from '../codec';
import { UnifiedLog } from './UnifiedLog';
import { StoreWriter } from './StoreWriter';
import { MapStore, makeBatch, text } from './testSupport';

// Seeded property test for compaction: random keyed appends (with tombstones), rolls, clock moves
// and cleaner passes, checked against a model of what compaction may and must keep.
const RUNS = Number(process.env.LOG_FUZZ_RUNS ?? 15);
const T0 = 1_700_000_000_000;
const RETENTION = 10_000;

type Op =
  | { kind: 'append'; records: { key: number; tombstone: boolean }[] }
  | { kind: 'roll' }
  | { kind: 'tick'; ms: number }
  | { kind: 'compact' };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('append' as const),
      records: fc.array(fc.record({ key: fc.integer({ min: 0, max: 6 }), tombstone: fc.boolean() }), {
        minLength: 1,
        maxLength: 4,
      }),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'roll' as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('tick' as const), ms: fc.integer({ min: 0, max: 8000 }) }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'compact' as const }) },
);

interface Written {
  offset: number;
  key: string;
  value: string | null;
  timestamp: number;
}

function contents(log: UnifiedLog): Written[] {
  const out: Written[] = [];
  let offset = log.logStartOffset;
  while (offset < log.logEndOffset) {
    const f = log.fetch(offset, 1 << 20);
    if (f.batches.length === 0) break;
    for (const b of decodeRecordBatches(f.records)) {
      for (const r of b.records) {
        out.push({
          offset: b.baseOffset + r.offsetDelta,
          key: text(r.key) as string,
          value: text(r.value),
          timestamp: b.baseTimestamp + r.timestampDelta,
        });
      }
    }
    offset = f.nextOffset;
  }
  return out;
}

describe('LogCleaner fuzz', () => {
  for (const seed of [7, 8, 9]) {
    it(`seed ${seed}: compaction keeps every key's latest record, never moves an offset, index entries stay sound`, async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 250, max: 1200 }),
          fc.array(opArb, { minLength: 5, maxLength: 40 }),
          async (segmentBytes, ops) => {
            const clock = new ManualClock(T0);
            const store = new MapStore();
            const writer = new StoreWriter(store);
            const config = {
              'cleanup.policy': 'compact',
              'segment.bytes': segmentBytes,
              'index.interval.bytes': 64,
              'delete.retention.ms': RETENTION,
            };
            const log = new UnifiedLog({ dir: 'cmp-0', config, clock, writer });
            const all: Written[] = [];
            const horizons = new Map<number, number>();
            for (const op of ops) {
              if (op.kind === 'append') {
                const recs = op.records.map((r) => ({
                  key: `k${r.key}`,
                  value: r.tombstone ? null : `v${all.length}-${r.key}`,
                  timestamp: clock.now(),
                }));
                const bytes = makeBatch(recs);
                if (bytes.length > segmentBytes) continue;
                const info = log.appendAsLeader(bytes);
                recs.forEach((r, i) => {
                  all.push({ offset: info.firstOffset + i, key: r.key, value: r.value, timestamp: r.timestamp });
                });
              } else if (op.kind === 'roll') {
                log.roll();
              } else if (op.kind === 'tick') {
                clock.advance(op.ms);
              } else {
                const before = contents(log);
                const activeBase = log.activeSegment.baseOffset;
                log.updateHighWatermark(log.logEndOffset);
                log.compact();
                const after = contents(log);
                // Nothing new appears and nothing moves: every record after is one from before.
                const byOffset = new Map(before.map((w) => [w.offset, w]));
                for (const w of after) expect(byOffset.get(w.offset)).toEqual(w);
                // The active segment is untouched.
                expect(after.filter((w) => w.offset >= activeBase)).toEqual(
                  before.filter((w) => w.offset >= activeBase),
                );
                // Each key's latest record below the active segment survives, unless it is an expired tombstone.
                const latest = new Map<string, Written>();
                for (const w of before) if (w.offset < activeBase) latest.set(w.key, w);
                // KIP-534: the first pass keeping a tombstone stamps its horizon (now + retention);
                // a pass at or past the horizon removes it.
                for (const w of latest.values()) {
                  const horizon = w.value === null ? horizons.get(w.offset) : undefined;
                  const expired = horizon !== undefined && clock.now() >= horizon;
                  if (w.value === null && horizon === undefined) horizons.set(w.offset, clock.now() + RETENTION);
                  expect(after.some((a) => a.offset === w.offset)).toBe(!expired);
                }
                // And nothing else survives below the active segment.
                for (const w of after) if (w.offset < activeBase) expect(latest.get(w.key)?.offset).toBe(w.offset);
              }
              expect(log.logEndOffset).toBe(all.length);
              // A cleaned segment's .index has an entry per read-buffer chunk (Cleaner.cleanInto ->
              // LogSegment.append: the chunk's max offset at the chunk's first byte), not a
              // per-batch rebuild's: each entry points at a batch start at or below its offset.
              for (const seg of log.logSegments) {
                if (seg === log.activeSegment) continue;
                const starts = new Map<number, number>();
                let position = 0;
                for (const b of decodeRecordBatches(seg.log.view())) {
                  starts.set(position, b.baseOffset);
                  position += b.batchLength + 12;
                }
                for (let slot = 0; slot < seg.offsetIndex.entries; slot++) {
                  const e = seg.offsetIndex.entryInfo(slot);
                  expect(starts.get(e.position)).toBeLessThanOrEqual(e.offset);
                  expect(e.offset).toBeLessThan(seg.nextOffset);
                }
              }
            }
            // Every offset still answers: itself if kept, else the next kept record.
            const kept = contents(log).map((w) => w.offset);
            for (let o = log.logStartOffset; o < log.logEndOffset; o++) {
              const next = kept.find((k) => k >= o);
              if (next === undefined) continue;
              expect(log.lookup(o, { trace: false }).answer.record?.offset).toBe(next);
            }
            log.flush();
            await writer.settled();
            const { log: loaded, report } = await UnifiedLog.load(store, 'cmp-0', config, clock);
            expect(report.segments.every((s) => s.bytesTruncated === 0)).toBe(true);
            expect(contents(loaded)).toEqual(contents(log));
          },
        ),
        { seed, numRuns: RUNS },
      );
    });
  }
});
