import { partitionState } from '../facts';
import { after } from './posts';
import { ELECTIONS, lesson, PAYMENTS, row } from './scenarios';

/** The reassign tool, and the preferred leader (the first assigned replica). */
export const reassignment = lesson(ELECTIONS, 'reassignment', 'controller', {
  title: 'Reassignment and the preferred leader',
  source: after('architecture', 'reassignment and the preferred leader'),
  steps: [
    {
      text: 'payments-0 is on [1, 2, 3]: broker 1, the first replica, is its preferred leader and leads it. A reassignment to [3, 2, 1] was written to /admin/reassign_partitions.',
      look: row(PAYMENTS),
      actions: [{ op: 'reassignPartitions', topic: PAYMENTS, partition: 0, replicas: [3, 2, 1] }],
      until: {
        label: 'the reassignment completed',
        met: (w) =>
          partitionState(w, PAYMENTS, 0)?.replicas.join(',') === '3,2,1' &&
          !w.view.znodes.some((z) => z.path === '/admin/reassign_partitions'),
      },
      observe: (w) => ({
        replicas: partitionState(w, PAYMENTS, 0)?.replicas ?? [],
        leader: partitionState(w, PAYMENTS, 0)?.leader ?? null,
      }),
      question: {
        prompt:
          'payments-0 is on [1, 2, 3] and broker 1 leads it. It is reassigned to [3, 2, 1] next. Who will lead it once the reassignment completes (no preferred-leader election yet)?',
        choices: ['1', '2', '3'],
        answer: (w) => String(partitionState(w, PAYMENTS, 0)?.leader ?? ''),
        because: (w) =>
          `a reassignment to the same replicas in another order moves no data, and the controller moves leadership only if the leader left the replica set; broker ${partitionState(w, PAYMENTS, 0)?.leader ?? '?'} still leads, though broker 3 is now the preferred (first) replica.`,
      },
    },
    {
      text: 'A preferred-leader election was run: the controller moves leadership to the first replica, broker 3, with a new leader epoch.',
      look: row(PAYMENTS),
      actions: [{ op: 'electPreferredLeaders' }],
      until: { label: 'broker 3 leads', met: (w) => partitionState(w, PAYMENTS, 0)?.leader === 3 },
      observe: (w) => ({
        leader: partitionState(w, PAYMENTS, 0)?.leader ?? null,
        leaderEpoch: partitionState(w, PAYMENTS, 0)?.leaderEpoch ?? null,
      }),
    },
  ],
});
