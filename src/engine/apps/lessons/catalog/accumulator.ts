import { partitionLog } from '../facts';
import type { LessonWorld } from '../types';
import { ELECTIONS, lesson, PAYMENTS } from './scenarios';

function batches(w: LessonWorld): number {
  return w.batchCount(PAYMENTS, 0);
}

/** seed 001: the producer batches records per partition (RecordAccumulator: batch.size, linger.ms). */
export const accumulator = lesson(ELECTIONS, 'accumulator', 'producer', {
  title: 'Accumulator, linger.ms and batches',
  source: 'seed 001: batching for throughput; Kafka’s RecordAccumulator',
  steps: [
    {
      text: 'linger.ms=0: a batch is ready as soon as it has a record, and the sender takes it on its next run. 20 records were sent at one engine instant, before the sender ran: they travel as one batch, at once.',
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
      until: {
        label: '20 records are in payments-0',
        met: (w) => (partitionLog(w, PAYMENTS, 0)?.logEndOffset ?? 0) >= 20,
      },
      observe: (w) => ({ batches: batches(w) }),
    },
    {
      text: 'Now linger.ms=200: the accumulator holds a batch up to 200 ms (or until batch.size, 16 KiB, is full) before the sender takes it.',
      actions: [{ op: 'configureProducer', settings: { 'linger.ms': 200 } }],
      question: {
        prompt: '20 more records, sent together. How many new batches reach the log?',
        choices: ['1', '2', '10', '20'],
        answer: () => '1',
      },
    },
    {
      text: '20 records were sent at one instant: they wait in one open batch for linger.ms (200 ms), then travel in one produce request. Compare how long this step waited with the first one.',
      actions: [{ op: 'produceRecords', topic: PAYMENTS, from: 0, count: 20, keyPrefix: null, valueBytes: 10 }],
      until: {
        label: '40 records are in payments-0',
        met: (w) => (partitionLog(w, PAYMENTS, 0)?.logEndOffset ?? 0) >= 40,
      },
      slow: true,
      observe: (w) => ({ batches: batches(w) }),
    },
    {
      text: 'batch.size caps a batch: 60 records of 1,000 bytes cannot fit one 16 KiB batch, so the accumulator seals a batch whenever the next record would not fit.',
      actions: [{ op: 'produceRecords', topic: PAYMENTS, from: 0, count: 60, keyPrefix: null, valueBytes: 1000 }],
      until: {
        label: '100 records are in payments-0',
        met: (w) => (partitionLog(w, PAYMENTS, 0)?.logEndOffset ?? 0) >= 100,
      },
      observe: (w) => ({ batches: batches(w) }),
    },
  ],
});
