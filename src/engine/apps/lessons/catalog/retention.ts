import { partitionLog } from '../facts';
import { ELECTIONS, lesson, PAYMENTS } from './scenarios';

/** seed 000: old segments are deleted whole; the active segment never is. */
export const retention = lesson(ELECTIONS, 'retention', 'storage', {
  title: 'Retention deletes whole segments',
  source: 'seed 000: segment files and deletion',
  steps: [
    {
      text: '200 records of 1,000 bytes were written: payments-0 now has four segments of at most 64 KiB.',
      actions: [{ op: 'produceRecords', topic: PAYMENTS, from: 0, count: 200, keyPrefix: 'r', valueBytes: 1000 }],
      until: {
        label: 'payments-0 has four segments',
        met: (w) => (partitionLog(w, PAYMENTS, 0)?.segmentCount ?? 0) >= 4,
      },
      observe: (w) => ({ segments: (partitionLog(w, PAYMENTS, 0)?.segments ?? []).map((s) => s.baseOffset) }),
      question: {
        prompt: 'retention.bytes is set to 70,000 next. Which segment can retention never delete?',
        choices: ['the oldest', 'the largest', 'the active (newest) one'],
        answer: (w) => {
          const s = partitionLog(w, PAYMENTS, 0)?.segments ?? [];
          return s[s.length - 1]?.active ? 'the active (newest) one' : 'the oldest';
        },
      },
    },
    {
      text: 'retention.bytes=70000 was set on payments. Every 2 s the broker’s retention check deletes the oldest segments, whole files, as long as what remains is still at least retention.bytes; the log start offset moves up to the first kept segment.',
      actions: [{ op: 'alterTopicConfig', topic: PAYMENTS, configs: { 'retention.bytes': '70000' } }],
      until: {
        label: 'the log start offset moved',
        met: (w) => (partitionLog(w, PAYMENTS, 0)?.logStartOffset ?? 0) > 0,
      },
      slow: true,
      observe: (w) => {
        const l = partitionLog(w, PAYMENTS, 0);
        return {
          logStartOffset: l?.logStartOffset ?? null,
          segments: (l?.segments ?? []).map((s) => s.baseOffset),
        };
      },
    },
  ],
});
