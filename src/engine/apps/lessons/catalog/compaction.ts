import type { CleanupView } from '../../../index';
import { partitionLog, recordsIn, segmentBases } from '../facts';
import type { LessonAction, LessonWorld } from '../types';
import { ELECTIONS, lesson, PAYMENTS, row } from './scenarios';

/** The keys k0..k9 written `n` times over, 900-byte values, so segments roll. */
function rounds(n: number): LessonAction[] {
  return Array.from({ length: n }, () => ({
    op: 'produceRecords' as const,
    topic: PAYMENTS,
    from: 0,
    count: 10,
    keyPrefix: 'k',
    valueBytes: 900,
  }));
}

function compacted(w: LessonWorld): Extract<CleanupView, { kind: 'compaction' }> | null {
  const c = partitionLog(w, PAYMENTS, 0)?.lastCleanup;
  return c?.kind === 'compaction' ? c : null;
}

function activeBase(w: LessonWorld): number | null {
  return partitionLog(w, PAYMENTS, 0)?.segments.find((s) => s.active)?.baseOffset ?? null;
}

/** Log compaction keeps the latest record per key; a tombstone (null value) marks a key deleted. */
export const compaction = lesson(ELECTIONS, 'compaction', 'storage', {
  title: 'Compaction and tombstones',
  source: 'Kafka’s documentation: log compaction (cleanup.policy=compact)',
  steps: [
    {
      text: 'The keys k0..k9 were each written 20 times (200 records of 900 bytes) to payments, whose cleanup.policy is still delete: most records now have a later record with the same key, and the log rolled a few segments.',
      look: row(PAYMENTS),
      actions: rounds(20),
      until: recordsIn(PAYMENTS, 0, 200),
      observe: (w) => ({ segments: segmentBases(w, PAYMENTS, 0) }),
    },
    {
      text: 'payments switched to cleanup.policy=compact, and the log cleaner (every 2 s here) compacted payments-0: superseded records are gone from the closed segments, the survivors keep their offsets (offsets now have gaps).',
      look: row(PAYMENTS),
      actions: [{ op: 'alterTopicConfig', topic: PAYMENTS, configs: { 'cleanup.policy': 'compact' } }],
      until: { label: 'the cleaner compacted payments-0', met: (w) => compacted(w) !== null },
      slow: true,
      observe: (w) => {
        const c = compacted(w);
        return { recordsSuperseded: c?.recordsSuperseded ?? 0, segments: c?.segments ?? [] };
      },
      question: {
        prompt:
          'payments switches to cleanup.policy=compact next: the log cleaner keeps only the latest record of each key. Will it compact the active segment too?',
        choices: ['yes', 'no'],
        answer: (w) => {
          const active = activeBase(w);
          return active !== null && (compacted(w)?.segments ?? []).includes(active) ? 'yes' : 'no';
        },
        because: (w) =>
          `the cleaner rewrites closed segments only (up to the active segment, Kafka’s LogCleaner never cleans it); it rewrote ${(compacted(w)?.segments ?? []).join(', ') || 'none'}, and the active segment ${activeBase(w) ?? '?'} is still appended to as it was.`,
      },
    },
    {
      text: 'A tombstone for k3 was written: key k3, null value. Compaction keeps it for delete.retention.ms (24 h by default) so every reader learns k3 is deleted; only after that would the cleaner drop it.',
      look: row(PAYMENTS),
      actions: [{ op: 'produceRecord', topic: PAYMENTS, key: 'k3', value: null, headers: [] }],
      until: {
        label: 'the tombstone is in the log',
        met: (w) => lastRecord(w)?.key === 'k3',
      },
      observe: (w) => ({ tombstoneKey: lastRecord(w)?.key ?? null, tombstoneValue: lastRecord(w)?.value ?? null }),
    },
  ],
});

function lastRecord(w: LessonWorld) {
  const end = partitionLog(w, PAYMENTS, 0)?.logEndOffset ?? 0;
  return end > 0 ? w.lookup(PAYMENTS, 0, { kind: 'offset', value: end - 1 }).answer : null;
}
