import { partitionLog, recordsIn, segmentBases, segmentName } from '../facts';
import type { LessonWorld } from '../types';
import { after } from './posts';
import { ELECTIONS, lesson, PAYMENTS, row } from './scenarios';

const paymentsSegments = (w: LessonWorld) => segmentBases(w, PAYMENTS, 0);

/** A partition is a directory of segments, each named by its first offset. */
export const segments = lesson(ELECTIONS, 'segments', 'storage', {
  title: 'Segments and their file names',
  source: after('architecture', 'partition directories and segment files'),
  steps: [
    {
      text: 'payments-0 is a directory with one segment: 00000000000000000000.log, .index and .timeindex. segment.bytes is 64 KiB here (Kafka: 1 GiB) so rolls come quickly.',
      look: row(PAYMENTS),
    },
    {
      text: '70 records of 1,000 bytes were sent: when the next batch would have passed segment.bytes, the log rolled a new segment.',
      look: row(PAYMENTS),
      actions: [{ op: 'produceRecords', topic: PAYMENTS, from: 0, count: 70, keyPrefix: 'p', valueBytes: 1000 }],
      until: {
        label: 'payments-0 has 70 records and a second segment',
        met: (w) => (partitionLog(w, PAYMENTS, 0)?.logEndOffset ?? 0) >= 70 && paymentsSegments(w).length >= 2,
      },
      slow: true,
      observe: (w) => ({
        segments: paymentsSegments(w).map(segmentName),
        logEndOffset: partitionLog(w, PAYMENTS, 0)?.logEndOffset ?? 0,
      }),
      question: {
        prompt:
          '70 records of 1,000 bytes go to payments-0 next; 64 KiB holds about 64 of them, so the log will roll once. What will the second segment’s files be named after?',
        choices: [
          'the offset of its first record',
          'the last offset of the segment before it plus one message number',
          'a counter: 1, 2, 3',
        ],
        answer: (w) => {
          const [first, second] = partitionLog(w, PAYMENTS, 0)?.segments ?? [];
          return first && second && second.baseOffset === first.nextOffset
            ? 'the offset of its first record'
            : 'a counter: 1, 2, 3';
        },
        because: (w) => {
          const second = paymentsSegments(w)[1] ?? -1;
          return `its files are ${segmentName(second)}.log, .index and .timeindex: ${second} is the offset of the first record it holds (its base offset), padded to 20 digits. The source post counts messages from 1; Kafka counts offsets from 0.`;
        },
      },
    },
    {
      text: '80 more records of 1,000 bytes were sent: the log rolled again each time the active segment was full.',
      look: row(PAYMENTS),
      actions: [{ op: 'produceRecords', topic: PAYMENTS, from: 70, count: 80, keyPrefix: 'p', valueBytes: 1000 }],
      until: recordsIn(PAYMENTS, 0, 150),
      observe: (w) => ({ segments: paymentsSegments(w).map(segmentName) }),
      question: {
        prompt: '80 more records of 1,000 bytes go to payments-0 next (150 in all). How many .log files will it have?',
        choices: ['1', '2', '3', '4'],
        answer: (w) => String(paymentsSegments(w).length),
        because: (w) =>
          `a segment takes batches until the next one would pass segment.bytes (64 KiB, here ${paymentsSegments(w)[1] ?? '?'} records of 1,000 bytes), then the log rolls; ${partitionLog(w, PAYMENTS, 0)?.logEndOffset ?? 0} records fill ${paymentsSegments(w).length - 1} segments and start one more.`,
      },
    },
    {
      text: 'Only the newest segment is active: appends go there. The older ones are closed: no append touches them again. Retention deletes closed segments whole, and with cleanup.policy=compact the log cleaner rewrites them (the compaction lesson).',
      look: row(PAYMENTS),
      observe: (w) => ({
        active: (partitionLog(w, PAYMENTS, 0)?.segments ?? [])
          .filter((s) => s.active)
          .map((s) => segmentName(s.baseOffset)),
      }),
    },
  ],
});
