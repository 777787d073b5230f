import type { CleanupView } from '../../../index';
import { partitionLog } from '../facts';
import type { LessonAction, LessonWorld } from '../types';
import { ELECTIONS, lesson, PAYMENTS } from './scenarios';

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

/** Log compaction keeps the latest record per key; a tombstone (null value) marks a key deleted. */
export const compaction = lesson(ELECTIONS, 'compaction', 'storage', {
  title: 'Compaction and tombstones',
  source: 'Kafka docs: log compaction (cleanup.policy=compact)',
  steps: [
    {
      text: 'payments switched to cleanup.policy=compact, then the keys k0..k9 were each written 20 times (200 records of 900 bytes): most records now have a later record with the same key.',
      actions: [{ op: 'alterTopicConfig', topic: PAYMENTS, configs: { 'cleanup.policy': 'compact' } }, ...rounds(20)],
      until: {
        label: '200 records are in payments-0',
        met: (w) => (partitionLog(w, PAYMENTS, 0)?.logEndOffset ?? 0) >= 200,
      },
      observe: (w) => ({ segments: (partitionLog(w, PAYMENTS, 0)?.segments ?? []).map((s) => s.baseOffset) }),
      question: {
        prompt:
          'The cleaner rewrites only closed segments and keeps the latest record of each key. Does the active segment get compacted?',
        choices: ['yes', 'no'],
        answer: (w) => {
          const s = partitionLog(w, PAYMENTS, 0)?.segments ?? [];
          return s.length > 1 && s[s.length - 1]?.active ? 'no' : 'yes';
        },
      },
    },
    {
      text: 'The log cleaner (every 2 s here) compacted the closed segments: superseded records are gone, the survivors keep their offsets (offsets now have gaps), the active segment is untouched.',
      until: { label: 'the cleaner compacted payments-0', met: (w) => compacted(w) !== null },
      slow: true,
      observe: (w) => {
        const c = compacted(w);
        return { recordsSuperseded: c?.recordsSuperseded ?? 0, segments: c?.segments ?? [] };
      },
    },
    {
      text: 'A tombstone for k3 was written: key k3, null value. Compaction keeps it for delete.retention.ms (24 h by default) so every reader learns k3 is deleted; only after that would the cleaner drop it.',
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
