import { partitionLog, segmentName } from '../facts';
import { ELECTIONS, lesson, PAYMENTS } from './scenarios';

/** seed 000: a partition is a directory of segments, each named by its first offset. */
export const segments = lesson(ELECTIONS, 'segments', 'storage', {
  title: 'Segments and their file names',
  source: 'seed 000: partition directories and segment files',
  steps: [
    {
      text: 'payments-0 is a directory with one segment: 00000000000000000000.log, .index and .timeindex. segment.bytes is 64 KiB here (Kafka: 1 GiB) so rolls come quickly.',
      question: {
        prompt: 'About 150 KB of records go to payments-0 next. How many .log files will it have?',
        choices: ['1', '2', '3', '4'],
        // A 1,000-byte value makes a ~1,070-byte batch; 64 KiB holds 61 of them.
        answer: () => '3',
      },
    },
    {
      text: '150 records of 1,000 bytes were sent: each time the active segment would pass segment.bytes, the log rolled a new one, named by the offset of its first record.',
      actions: [{ op: 'produceRecords', topic: PAYMENTS, from: 0, count: 150, keyPrefix: 'p', valueBytes: 1000 }],
      until: {
        label: 'payments-0 has three segments',
        met: (w) => (partitionLog(w, PAYMENTS, 0)?.segmentCount ?? 0) >= 3,
      },
      slow: true,
      observe: (w) => {
        const l = partitionLog(w, PAYMENTS, 0);
        return {
          segments: (l?.segments ?? []).map((s) => segmentName(s.baseOffset)),
          logEndOffset: l?.logEndOffset ?? 0,
        };
      },
      question: {
        prompt: 'What is the second segment named after?',
        choices: [
          'the offset of its first record',
          'the last offset of the segment before it plus one message number',
          'a counter: 1, 2, 3',
        ],
        answer: (w) => {
          const s = partitionLog(w, PAYMENTS, 0)?.segments ?? [];
          const first = s[0];
          const second = s[1];
          return first && second && second.baseOffset === first.nextOffset
            ? 'the offset of its first record'
            : 'a counter: 1, 2, 3';
        },
      },
    },
    {
      text: 'Only the newest segment is active (appended to); the older ones are closed and never change again, which is what lets retention delete whole files.',
      observe: (w) => ({
        active: (partitionLog(w, PAYMENTS, 0)?.segments ?? [])
          .filter((s) => s.active)
          .map((s) => segmentName(s.baseOffset)),
      }),
    },
  ],
});
