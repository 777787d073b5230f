import { partitionState } from '../facts';
import { ELECTIONS, lesson } from './scenarios';

const TOPIC = 'ledger';

/** acks=all needs min.insync.replicas in the ISR, or the leader answers NOT_ENOUGH_REPLICAS. */
export const acks = lesson(ELECTIONS, 'acks', 'producer', {
  title: 'acks, min.insync.replicas and NOT_ENOUGH_REPLICAS',
  source: 'seed 000: the ISR and committed messages; Kafka’s acks and min.insync.replicas',
  steps: [
    {
      text: 'Topic ledger was created: 1 partition, 3 replicas on brokers 1, 2, 3, min.insync.replicas=2. The producer (acks=all) sent a first record: all three replicas have it.',
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
        met: (w) => partitionState(w, TOPIC, 0)?.isr.length === 3 && w.panel.acked >= 1,
      },
      observe: (w) => ({
        leader: partitionState(w, TOPIC, 0)?.leader ?? null,
        isr: partitionState(w, TOPIC, 0)?.isr ?? [],
      }),
    },
    {
      text: 'Brokers 2 and 3 were cut off the network. Their fetches stop; watch ledger-0’s ISR shrink to the leader alone.',
      actions: [
        { op: 'isolateBroker', broker: 2 },
        { op: 'isolateBroker', broker: 3 },
      ],
      until: { label: 'ledger-0’s ISR is [1]', met: (w) => partitionState(w, TOPIC, 0)?.isr.length === 1 },
      slow: true,
      observe: (w) => ({ isr: partitionState(w, TOPIC, 0)?.isr ?? [] }),
      question: {
        prompt: 'ISR [1], min.insync.replicas=2, acks=all. What does the leader answer the next record?',
        choices: ['acknowledged', 'NOT_ENOUGH_REPLICAS', 'it waits for the followers'],
        answer: (w) => {
          const t = w.view.topics.find((x) => x.name === TOPIC);
          const isr = partitionState(w, TOPIC, 0)?.isr.length ?? 0;
          return t && isr < t.minInsyncReplicas ? 'NOT_ENOUGH_REPLICAS' : 'acknowledged';
        },
      },
    },
    {
      text: 'One record was sent with acks=all: the leader refuses it with NOT_ENOUGH_REPLICAS before appending (the producer retries it until delivery.timeout.ms).',
      actions: [{ op: 'produceRecord', topic: TOPIC, key: 'tx-1', value: '100 EUR', headers: [] }],
      until: {
        label: 'the leader refused a produce',
        met: (w) => w.journal.some((e) => e.kind === 'produceRefused' && e.topic === TOPIC),
      },
      observe: (w) => ({
        refused: [
          ...new Set(
            w.journal
              .filter((e) => e.kind === 'produceRefused' && e.topic === TOPIC)
              .map((e) => (e.kind === 'produceRefused' ? e.error : '')),
          ),
        ],
      }),
    },
    {
      text: 'Brokers 2 and 3 were healed: they fetch what they missed and rejoin the ISR; with 3 in sync (>= min.insync.replicas) the leader accepts the retried record and acknowledges it. (With acks=1 the leader alone would have acknowledged it at once, and lost it if broker 1 had died.)',
      actions: [
        { op: 'healBroker', broker: 2 },
        { op: 'healBroker', broker: 3 },
      ],
      until: { label: 'the retried record was acknowledged', met: (w) => w.panel.acked >= 2 },
      observe: (w) => ({ acked: w.panel.acked, isr: partitionState(w, TOPIC, 0)?.isr ?? [] }),
    },
  ],
});
