import { partitionLog, segmentBases } from '../facts';
import { after } from './posts';
import { ELECTIONS, lesson, PAYMENTS, row } from './scenarios';

/** Old segments are deleted whole; the active segment never is. */
export const retention = lesson(ELECTIONS, 'retention', 'storage', {
  title: 'Retention deletes whole segments',
  source: after('architecture', 'segment files and their deletion'),
  steps: [
    {
      text: '200 records of 1,000 bytes were written: payments-0 now has four segments of at most 64 KiB.',
      look: row(PAYMENTS),
      actions: [{ op: 'produceRecords', topic: PAYMENTS, from: 0, count: 200, keyPrefix: 'r', valueBytes: 1000 }],
      until: {
        label: 'payments-0 has four segments',
        met: (w) => (partitionLog(w, PAYMENTS, 0)?.segmentCount ?? 0) >= 4,
      },
      observe: (w) => ({ segments: segmentBases(w, PAYMENTS, 0) }),
    },
    {
      text: 'retention.bytes=70000 was set on payments. Every 2 s the broker’s retention check deletes the oldest segments, whole files, as long as what remains is still at least retention.bytes; the log start offset moves up to the first kept segment.',
      look: row(PAYMENTS),
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
      question: {
        prompt:
          'payments-0 has four segments: three closed ones of about 64 KiB and the active one. retention.bytes is set to 70,000 next. How many segments will it keep?',
        choices: ['1', '2', '3', '4'],
        answer: (w) => String(partitionLog(w, PAYMENTS, 0)?.segments.length ?? 0),
        because: (w) => {
          const kept = partitionLog(w, PAYMENTS, 0)?.segments ?? [];
          const bytes = kept.reduce((n, s) => n + (s.files.find((f) => f.name.endsWith('.log'))?.bytes ?? 0), 0);
          return `the retention check deletes the oldest segments, whole files, only while what is left stays at least retention.bytes, and never the active one: ${kept.length} segments (${bytes.toLocaleString('en-US')} bytes) remain; deleting one more would leave less than 70,000.`;
        },
      },
    },
  ],
});
