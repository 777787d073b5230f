import { partitionState, replicaLogEndOffsets } from '../facts';
import { ELECTIONS, lesson, PAYMENTS } from './scenarios';

/** seed 000: unclean.leader.election.enable lets an out-of-sync replica lead, losing what it lacks. */
export const uncleanElection = lesson(ELECTIONS, 'unclean-election', 'replication', {
  title: 'Unclean election loses data',
  source: 'seed 000: unclean.leader.election',
  note: 'The seed says unclean.leader.election defaults to true; since Kafka 0.11 it defaults to false. payments sets it to true here.',
  steps: [
    {
      text: 'payments allows unclean leader election. Broker 3 was cut off the network: watch it fall out of payments-0’s ISR.',
      actions: [{ op: 'isolateBroker', broker: 3 }],
      until: { label: 'broker 3 left the ISR', met: (w) => !(partitionState(w, PAYMENTS, 0)?.isr.includes(3) ?? true) },
      slow: true,
      observe: (w) => ({ isr: partitionState(w, PAYMENTS, 0)?.isr ?? [] }),
    },
    {
      text: '20 records were written: brokers 1 and 2 have them, broker 3 does not.',
      actions: [{ op: 'produceRecords', topic: PAYMENTS, from: 0, count: 20, keyPrefix: 'pay-', valueBytes: 50 }],
      until: { label: 'the HW reached 20', met: (w) => (partitionState(w, PAYMENTS, 0)?.committed ?? 0) >= 20 },
      observe: (w) => ({ replicaLeo: replicaLogEndOffsets(w, PAYMENTS, 0) }),
    },
    {
      text: 'Brokers 1 and 2 were killed: no ISR member is left alive, payments-0 is offline.',
      actions: [
        { op: 'killBroker', broker: 1 },
        { op: 'killBroker', broker: 2 },
      ],
      until: { label: 'brokers 1 and 2 are gone', met: (w) => w.view.brokers.filter((b) => b.alive).length === 0 },
      question: {
        prompt: 'Broker 3 comes back next. How many committed records will be lost?',
        choices: ['0', '10', '20'],
        answer: (w) => {
          const p = partitionState(w, PAYMENTS, 0);
          const b3 = p?.replicaStates.find((r) => r.broker === 3)?.logEndOffset ?? 0;
          return String((p?.committed ?? 0) - b3);
        },
      },
    },
    {
      text: 'Broker 3 was healed: it becomes controller, finds no live ISR member and, since unclean election is allowed, elects itself. The committed offsets it never had are lost (listed in red).',
      actions: [{ op: 'healBroker', broker: 3 }],
      until: { label: 'lost offsets are listed', met: (w) => w.view.lost.some((l) => l.topic === PAYMENTS) },
      slow: true,
      observe: (w) => ({
        leader: partitionState(w, PAYMENTS, 0)?.leader ?? null,
        // LostOffsetsView.to is exclusive: offsets from..to-1 are gone.
        lost: w.view.lost
          .filter((l) => l.topic === PAYMENTS)
          .map((l) => `${l.topic}-${l.partition} offsets ${l.from}-${l.to - 1}`),
      }),
    },
  ],
});
