import { partitionState } from '../facts';
import type { LessonWorld } from '../types';
import { paymentsWritten } from './paymentsWritten';
import { after } from './posts';
import { ELECTIONS, lesson, PAYMENTS, row } from './scenarios';

function lostCount(w: LessonWorld): number {
  return w.view.lost.filter((l) => l.topic === PAYMENTS).reduce((n, l) => n + l.to - l.from, 0);
}

/** unclean.leader.election.enable lets an out-of-sync replica lead, losing what it lacks. */
export const uncleanElection = lesson(ELECTIONS, 'unclean-election', 'replication', {
  title: 'Unclean election loses data',
  source: after('architecture', 'unclean.leader.election'),
  note: 'The source post says unclean.leader.election defaults to true; since Kafka 0.11 it defaults to false. payments sets it to true here.',
  steps: [
    {
      text: 'payments allows unclean leader election. Broker 3 was cut off the network: watch it fall out of payments-0’s ISR.',
      look: row(PAYMENTS),
      actions: [{ op: 'isolateBroker', broker: 3 }],
      until: { label: 'broker 3 left the ISR', met: (w) => !(partitionState(w, PAYMENTS, 0)?.isr.includes(3) ?? true) },
      slow: true,
      observe: (w) => ({ isr: partitionState(w, PAYMENTS, 0)?.isr ?? [] }),
    },
    paymentsWritten('20 records were written: brokers 1 and 2 have them, broker 3 does not.', {
      count: 20,
      keyPrefix: 'pay-',
      valueBytes: 50,
    }),
    {
      text: 'Brokers 1 and 2 were killed: no ISR member is left alive, payments-0 is offline.',
      look: row(PAYMENTS),
      actions: [
        { op: 'killBroker', broker: 1 },
        { op: 'killBroker', broker: 2 },
      ],
      until: { label: 'brokers 1 and 2 are gone', met: (w) => w.view.brokers.filter((b) => b.alive).length === 0 },
    },
    {
      text: 'Broker 3 was healed: it becomes controller, finds no live ISR member and, since unclean election is allowed, elects itself. The committed offsets it never had are lost (listed in red).',
      look: row(PAYMENTS),
      actions: [{ op: 'healBroker', broker: 3 }],
      question: {
        prompt:
          'Broker 3 comes back next, the only broker alive, and unclean leader election is allowed. How many committed records will be lost?',
        choices: ['0', '10', '20'],
        answer: (w) => String(lostCount(w)),
        because: (w) =>
          `broker 3 was out of the ISR while ${lostCount(w)} records were committed on brokers 1 and 2; an unclean election makes it leader with the log it has, so those offsets are gone (brokers 1 and 2 truncate to it when they return).`,
      },
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
