import { partitionState, replicaLogEndOffsets } from '../facts';
import type { JournalEntry } from '../journal';
import type { LessonWorld } from '../types';
import { ELECTIONS, lesson, PAYMENTS } from './scenarios';

function removals(w: LessonWorld): JournalEntry[] {
  return w.journal.filter(
    (e) =>
      (e.kind === 'leaderIsr' && e.topic === PAYMENTS && e.change === 'shrink') ||
      (e.kind === 'controllerState' && e.topic === PAYMENTS && !e.isr.includes(3)),
  );
}

/** Who removes a replica from the ISR: the leader's lag check, or the controller when a session expires. */
export const isr = lesson(ELECTIONS, 'isr', 'replication', {
  title: 'ISR shrink and expand: who removes the replica',
  source: 'seed 000: ISR, LEO and HW',
  note: 'Two things can take a replica out of the ISR: the partition leader, when the follower has not caught up for replica.lag.time.max.ms (here 5 s), and the controller, when the broker’s ZooKeeper session expires (here 6 s). Whichever comes first does it.',
  steps: [
    {
      text: 'payments-0 has replicas 1, 2, 3, all in sync. Broker 3 was cut off the network: it stops fetching, and stops heart-beating to ZooKeeper.',
      actions: [{ op: 'isolateBroker', broker: 3 }],
      question: {
        prompt: 'Who will remove broker 3 from the ISR first?',
        choices: ['the leader (replica.lag.time.max.ms)', 'the controller (session expiry)'],
        answer: (w) => {
          const first = removals(w)[0];
          return first?.kind === 'controllerState'
            ? 'the controller (session expiry)'
            : 'the leader (replica.lag.time.max.ms)';
        },
      },
      until: { label: 'broker 3 left the ISR', met: (w) => !(partitionState(w, PAYMENTS, 0)?.isr.includes(3) ?? true) },
      slow: true,
      observe: (w) => {
        const first = removals(w)[0];
        return {
          isr: partitionState(w, PAYMENTS, 0)?.isr ?? [],
          removedBy: first
            ? first.kind === 'leaderIsr'
              ? `leader ${first.broker}`
              : `controller (${first.kind === 'controllerState' ? first.reason : ''})`
            : null,
        };
      },
    },
    {
      text: '30 records were written while broker 3 is away: the high watermark moves with brokers 1 and 2 only.',
      actions: [{ op: 'produceRecords', topic: PAYMENTS, from: 0, count: 30, keyPrefix: 'p', valueBytes: 100 }],
      until: { label: 'the HW reached 30', met: (w) => (partitionState(w, PAYMENTS, 0)?.committed ?? 0) >= 30 },
      observe: (w) => ({ replicaLeo: replicaLogEndOffsets(w, PAYMENTS, 0) }),
    },
    {
      text: 'Broker 3 was healed: it registers again, fetches what it missed, and once its LEO reaches the leader’s high watermark the leader adds it back (an ISR expand).',
      actions: [{ op: 'healBroker', broker: 3 }],
      until: {
        label: 'broker 3 is back in the ISR',
        met: (w) => partitionState(w, PAYMENTS, 0)?.isr.includes(3) ?? false,
      },
      observe: (w) => ({
        isr: partitionState(w, PAYMENTS, 0)?.isr ?? [],
        expandedBy: w.journal.some((e) => e.kind === 'leaderIsr' && e.change === 'expand') ? 'leader' : 'controller',
      }),
    },
  ],
});
