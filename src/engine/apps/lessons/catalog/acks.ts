import { partitionState } from '../facts';
import type { LessonWorld } from '../types';
import { after } from './posts';
import { ELECTIONS, lesson, row } from './scenarios';

const TOPIC = 'ledger';
const LEDGER = row(TOPIC);

function refusals(w: LessonWorld): string[] {
  return [...new Set(w.journal.flatMap((e) => (e.kind === 'produceRefused' && e.topic === TOPIC ? [e.error] : [])))];
}

function isr(w: LessonWorld): number[] {
  return partitionState(w, TOPIC, 0)?.isr ?? [];
}

/** acks=all needs min.insync.replicas in the ISR, or the leader answers NOT_ENOUGH_REPLICAS. */
export const acks = lesson(ELECTIONS, 'acks', 'producer', {
  title: 'acks and min.insync.replicas: when the leader refuses a write',
  source: after('architecture', 'the ISR and committed messages; Kafka’s acks and min.insync.replicas'),
  steps: [
    {
      text: 'Topic ledger was created: 1 partition, 3 replicas on brokers 1, 2, 3, min.insync.replicas=2. The producer (acks=all) sent a first record: all three replicas have it.',
      look: LEDGER,
      actions: [
        {
          op: 'createTopic',
          name: TOPIC,
          partitions: 1,
          replicationFactor: 3,
          startIndex: 0,
          configs: { 'min.insync.replicas': '2' },
        },
        { op: 'produceRecord', topic: TOPIC, key: 'tx-0', value: '10 EUR', headers: [] },
      ],
      until: {
        label: 'the first record is acknowledged',
        met: (w) => isr(w).length === 3 && w.panel.acked >= 1,
      },
      observe: (w) => ({ leader: partitionState(w, TOPIC, 0)?.leader ?? null, isr: isr(w) }),
    },
    {
      text: 'Brokers 2 and 3 were cut off the network. Their fetches stopped; watch ledger-0’s ISR shrink to the leader alone.',
      look: LEDGER,
      actions: [
        { op: 'isolateBroker', broker: 2 },
        { op: 'isolateBroker', broker: 3 },
      ],
      until: { label: 'ledger-0’s ISR is [1]', met: (w) => isr(w).length === 1 },
      slow: true,
      observe: (w) => ({ isr: isr(w) }),
    },
    {
      text: 'One record was sent with acks=all: the leader answered before appending it (the producer retries it until delivery.timeout.ms).',
      look: LEDGER,
      actions: [{ op: 'produceRecord', topic: TOPIC, key: 'tx-1', value: '100 EUR', headers: [] }],
      until: {
        label: 'the leader answered the produce',
        met: (w) => refusals(w).length > 0 || w.panel.acked >= 2,
      },
      observe: (w) => ({ refused: refusals(w) }),
      question: {
        prompt: 'ISR [1], min.insync.replicas=2, and a record is sent with acks=all next. What will the leader answer?',
        choices: ['acknowledged', 'NOT_ENOUGH_REPLICAS', 'it waits for the followers'],
        answer: (w) => refusals(w)[0] ?? 'acknowledged',
        because: (w) => {
          const t = w.view.topics.find((x) => x.name === TOPIC);
          return `acks=all needs at least min.insync.replicas (${t?.minInsyncReplicas ?? '?'}) replicas in the ISR, and the ISR is [${isr(w).join(', ')}]: the leader refuses the write before appending it, so nothing is written that could not be replicated.`;
        },
      },
    },
    {
      text: 'Broker 2 was healed (broker 3 is still cut off): it fetched what it missed and rejoined the ISR; with 2 in sync, min.insync.replicas is met, so the leader accepted the producer’s retry and acknowledged it once both ISR members had it.',
      look: LEDGER,
      actions: [{ op: 'healBroker', broker: 2 }],
      until: { label: 'the retried record was acknowledged', met: (w) => w.panel.acked >= 2 },
      observe: (w) => ({ acked: w.panel.acked, isr: isr(w) }),
      question: {
        prompt:
          'Only broker 2 is healed next, so the ISR can grow back to [1, 2] while broker 3 stays away. Will the producer’s retry be acknowledged?',
        choices: ['yes, 2 in sync is enough', 'no, acks=all needs all 3 replicas'],
        answer: (w) => (w.panel.acked >= 2 ? 'yes, 2 in sync is enough' : 'no, acks=all needs all 3 replicas'),
        because: (w) =>
          `acks=all waits for every replica in the ISR at that moment, and the leader accepts the write once the ISR has min.insync.replicas members: the ISR is [${isr(w).join(', ')}]. (With acks=1 the leader would have acknowledged at once, alone; had broker 1 then died, ledger-0 would go offline with unclean election off, not lose it: an acks=1 write is lost only by an unclean election or a lost disk.)`,
      },
    },
    {
      text: 'Broker 3 was healed too: it caught up and rejoined the ISR.',
      look: LEDGER,
      actions: [{ op: 'healBroker', broker: 3 }],
      until: { label: 'ledger-0’s ISR is [1, 2, 3]', met: (w) => isr(w).length === 3 },
      observe: (w) => ({ isr: isr(w) }),
    },
  ],
});
