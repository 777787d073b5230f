import { partitionLog } from '../facts';
import type { LessonWorld } from '../types';
import { after } from './posts';
import { ELECTIONS, lesson, PAYMENTS } from './scenarios';

const ACCUMULATOR = { kind: 'accumulator' } as const;

function batches(w: LessonWorld, fromOffset = 0): number {
  return w.batchCount(PAYMENTS, 0, fromOffset);
}

function logEnd(w: LessonWorld): number {
  return partitionLog(w, PAYMENTS, 0)?.logEndOffset ?? 0;
}

/** The producer batches records per partition (RecordAccumulator: batch.size, linger.ms). */
export const accumulator = lesson(ELECTIONS, 'accumulator', 'producer', {
  title: 'Accumulator, linger.ms and batches',
  source: after('practice', 'batching for throughput; Kafka’s RecordAccumulator'),
  steps: [
    {
      text: 'linger.ms=0: a batch is ready as soon as it has a record, and the sender takes it on its next run. 20 records were sent at one engine instant, before the sender ran: they travel as one batch, at once.',
      look: ACCUMULATOR,
      actions: [
        { op: 'configureProducer', settings: { 'linger.ms': 0 } },
        ...Array.from({ length: 20 }, (_, i) => ({
          op: 'produceRecord' as const,
          topic: PAYMENTS,
          key: null,
          value: `r${i}`,
          headers: [],
        })),
      ],
      until: { label: '20 records are in payments-0', met: (w) => logEnd(w) >= 20 },
      observe: (w) => ({ batches: batches(w) }),
    },
    {
      text: 'linger.ms=200 now: the accumulator held the 20 records in one open batch for 200 ms (or until batch.size, 16 KiB, would be full), then the sender took it in one produce request. Compare how long this step waited with the first one.',
      look: ACCUMULATOR,
      actions: [
        { op: 'configureProducer', settings: { 'linger.ms': 200 } },
        { op: 'produceRecords', topic: PAYMENTS, from: 0, count: 20, keyPrefix: null, valueBytes: 10 },
      ],
      until: { label: '40 records are in payments-0', met: (w) => logEnd(w) >= 40 },
      slow: true,
      observe: (w) => ({ batches: batches(w) }),
      question: {
        prompt:
          'linger.ms is set to 200 and 20 more small records are sent together. How many new batches will reach the log?',
        choices: ['1', '2', '10', '20'],
        answer: (w) => String(batches(w, 20)),
        because: (w) =>
          `records for one partition go into its open batch until the batch is full (batch.size) or has waited linger.ms; 20 records of 10 bytes are far below 16 KiB, so ${batches(w, 20)} batch${batches(w, 20) === 1 ? '' : 'es'} left after 200 ms.`,
      },
    },
    {
      text: 'batch.size caps a batch: 60 records of 1,000 bytes cannot fit one 16 KiB batch, so the accumulator sealed a batch whenever the next record would not fit.',
      look: ACCUMULATOR,
      actions: [{ op: 'produceRecords', topic: PAYMENTS, from: 0, count: 60, keyPrefix: null, valueBytes: 1000 }],
      until: { label: '100 records are in payments-0', met: (w) => logEnd(w) >= 100 },
      observe: (w) => ({ batches: batches(w) }),
    },
  ],
});
