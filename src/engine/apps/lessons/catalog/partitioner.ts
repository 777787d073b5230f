import { partitionLog, partitionState } from '../facts';
import type { LessonStep, LessonWorld } from '../types';
import { after } from './posts';
import { EMPTY4, lesson, row } from './scenarios';

const TOPIC = 'users';
const PARTITIONS = 4;

function ends(w: LessonWorld): number[] {
  return Array.from({ length: PARTITIONS }, (_, p) => partitionLog(w, TOPIC, p)?.logEndOffset ?? 0);
}

/** Eight null-key records from `from` under `mode`; Next waits till users holds `total`, then the ends are recorded. */
function eightNullKeyRecords(
  mode: 'round-robin' | 'sticky',
  from: number,
  total: number,
): Pick<LessonStep, 'actions' | 'until' | 'observe' | 'look'> {
  return {
    look: row(TOPIC, 0),
    actions: [
      { op: 'configureProducer', settings: { partitioner: mode } },
      { op: 'produceRecords', topic: TOPIC, from, count: 8, keyPrefix: null, valueBytes: 20 },
    ],
    until: { label: `${total} records are in users`, met: (w) => ends(w).reduce((a, b) => a + b, 0) >= total },
    observe: (w) => ({ logEndOffsets: ends(w) }),
  };
}

/** Kafka's BuiltInPartitioner: murmur2 for keys; sticky (>= 2.4) or round-robin for null keys. */
export const partitioner = lesson(EMPTY4, 'partitioner', 'producer', {
  title: 'Which partition? murmur2, sticky and round-robin',
  source: after('architecture', 'producers pick the partition; Kafka’s BuiltInPartitioner'),
  steps: [
    {
      text: 'Topic users was created with 4 partitions, numbered 0 to 3. A keyed record goes to toPositive(murmur2(key bytes)) % 4, with Kafka’s Java murmur2 (seed 0x9747b28c).',
      look: row(TOPIC, 0),
      actions: [{ op: 'createTopic', name: TOPIC, partitions: PARTITIONS, replicationFactor: 2, startIndex: 0 }],
      until: {
        label: 'every users partition has a leader',
        met: (w) =>
          Array.from({ length: PARTITIONS }, (_, p) => partitionState(w, TOPIC, p)).every((p) => p && p.leader >= 0),
      },
    },
    {
      text: 'The record with key user-7 was sent: it landed where murmur2 says. Every record with that key lands there, which is what keeps one key’s records in order.',
      look: row(TOPIC, 0),
      actions: [{ op: 'produceRecord', topic: TOPIC, key: 'user-7', value: 'signed up', headers: [] }],
      until: { label: 'the record is in a partition', met: (w) => ends(w).reduce((a, b) => a + b, 0) >= 1 },
      observe: (w) => ({ logEndOffsets: ends(w) }),
      question: {
        prompt: 'A record with key user-7 is sent to users (4 partitions) next. Which partition will it go to?',
        choices: ['users-0', 'users-1', 'users-2', 'users-3'],
        // Where it landed, read from the logs (the partitioner's own formula is the because).
        answer: (w) => `users-${ends(w).findIndex((n) => n > 0)}`,
        because: (w) =>
          `toPositive(murmur2("user-7")) % 4 = ${w.partitionForKey('user-7', PARTITIONS)}: Kafka’s BuiltInPartitioner hashes the key bytes with murmur2 and takes the remainder by the partition count.`,
      },
    },
    {
      text: 'The partitioner switched to round-robin (the classic null-key behaviour the source post describes) and 8 records without a key were sent at once. The counter goes 0, 1, 2, …, but Kafka 3.9’s producer asks the partitioner again whenever a record would open a new batch (KafkaProducer.doSend after abortForNewBatch, KAFKA-9965): each pick of a partition without an open batch is skipped, so with 4 partitions they land on 1 and 3 only.',
      ...eightNullKeyRecords('round-robin', 0, 9),
    },
    {
      text: 'Back to sticky (Kafka >= 2.4) and 8 more null-key records: the producer sticks to one partition until a batch is sent, so they arrive together in one batch.',
      ...eightNullKeyRecords('sticky', 8, 17),
      question: {
        prompt:
          'The partitioner switches back to sticky (Kafka >= 2.4) and 8 more records without a key are sent together. How many partitions will they go to?',
        choices: ['1', '2', '4', '8'],
        because: () =>
          'the sticky partitioner keeps choosing one partition for null-key records until the batch it is filling is sent; 8 small records sent at one instant fill one batch.',
        answer: (w) => {
          // Before the sticky records: user-7's one record and the round-robin's four on 1 and 3.
          const k = w.partitionForKey('user-7', PARTITIONS);
          const grew = ends(w).filter((n, p) => n > (p % 2 === 1 ? 4 : 0) + (p === k ? 1 : 0)).length;
          return String(grew);
        },
      },
    },
  ],
});
