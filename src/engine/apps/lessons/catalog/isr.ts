import { backInIsr, partitionState } from '../facts';
import type { JournalEntry } from '../journal';
import type { LessonWorld } from '../types';
import { paymentsWritten } from './paymentsWritten';
import { after } from './posts';
import { ELECTIONS, lesson, PAYMENTS, row } from './scenarios';

function removals(w: LessonWorld): JournalEntry[] {
  return w.journal.filter(
    (e) =>
      (e.kind === 'leaderIsr' && e.topic === PAYMENTS && e.change === 'shrink') ||
      (e.kind === 'controllerState' && e.topic === PAYMENTS && !e.isr.includes(3)),
  );
}

const LEADER = 'the leader (its ISR check)';
const CONTROLLER = 'the controller (session expiry)';

/** Who removes a replica from the ISR: the leader's lag check, or the controller when a session expires. */
export const isr = lesson(ELECTIONS, 'isr', 'replication', {
  title: 'ISR shrink and expand: who removes the replica',
  source: after('architecture', 'the ISR, LEO and HW'),
  note: 'Two things can take a replica out of the ISR. The partition leader runs its ISR check every replica.lag.time.max.ms / 2 (here every 2.5 s) and removes a follower that has not caught up for replica.lag.time.max.ms (here 5 s): up to 7.5 s after the follower stopped. The controller removes every replica of a broker whose ZooKeeper session expired (zookeeper.session.timeout.ms, here 6 s). Whichever of the two acts first does it.',
  steps: [
    {
      text: 'Broker 3 was cut off the network: it stopped fetching, and stopped heart-beating to ZooKeeper. Watch payments-0’s ISR.',
      look: row(PAYMENTS),
      actions: [{ op: 'isolateBroker', broker: 3 }],
      question: {
        prompt:
          'payments-0 has replicas 1, 2, 3, all in sync. Broker 3 is cut off the network next: it stops fetching and stops heart-beating to ZooKeeper. Who will remove it from the ISR first?',
        choices: [LEADER, CONTROLLER],
        answer: (w) => (removals(w)[0]?.kind === 'controllerState' ? CONTROLLER : LEADER),
        because: (w) => {
          const first = removals(w)[0];
          return first?.kind === 'controllerState'
            ? `broker 3’s ZooKeeper session expired (zookeeper.session.timeout.ms, 6 s) before the leader’s ISR check, which runs every replica.lag.time.max.ms / 2 (2.5 s), found it more than 5 s behind; the controller wrote the new ISR (${first.reason}) and bumped the leader epoch to ${partitionState(w, PAYMENTS, 0)?.leaderEpoch ?? '?'}.`
            : 'the leader’s ISR check, which runs every replica.lag.time.max.ms / 2 (2.5 s), found broker 3 more than 5 s behind before its ZooKeeper session (6 s) expired.';
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
          leaderEpoch: partitionState(w, PAYMENTS, 0)?.leaderEpoch ?? null,
        };
      },
    },
    paymentsWritten(
      '30 records were written while broker 3 is away: the high watermark moves with brokers 1 and 2 only.',
      { count: 30, keyPrefix: 'p', valueBytes: 100 },
    ),
    {
      text: 'Broker 3 was healed: it registers again, fetches what it missed, and once its LEO reaches the leader’s high watermark the leader adds it back (an ISR expand).',
      look: row(PAYMENTS),
      actions: [{ op: 'healBroker', broker: 3 }],
      until: backInIsr(PAYMENTS, 0, 3),
      observe: (w) => ({
        isr: partitionState(w, PAYMENTS, 0)?.isr ?? [],
        expandedBy: w.journal.some((e) => e.kind === 'leaderIsr' && e.change === 'expand') ? 'leader' : 'controller',
      }),
    },
  ],
});
