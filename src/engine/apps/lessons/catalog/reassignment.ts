import { partitionState } from '../facts';
import { ELECTIONS, lesson, PAYMENTS } from './scenarios';

/** seed 000: the reassign tool, and the preferred leader (the first assigned replica). */
export const reassignment = lesson(ELECTIONS, 'reassignment', 'controller', {
  title: 'Reassignment and the preferred leader',
  source: 'seed 000: reassign and the preference leader',
  steps: [
    {
      text: 'payments-0 is on [1, 2, 3]: broker 1, the first replica, is its preferred leader and leads it. A reassignment to [3, 2, 1] was written to /admin/reassign_partitions.',
      actions: [{ op: 'reassign', topic: PAYMENTS, partition: 0, replicas: [3, 2, 1] }],
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
        prompt: 'The replicas are now [3, 2, 1]. Who leads payments-0 until a preferred-leader election runs?',
        choices: ['1', '2', '3'],
        answer: (w) => String(partitionState(w, PAYMENTS, 0)?.leader ?? ''),
      },
    },
    {
      text: 'A preferred-leader election was run: the controller moves leadership to the first replica, broker 3, with a new leader epoch.',
      actions: [{ op: 'preferredElection' }],
      until: { label: 'broker 3 leads', met: (w) => partitionState(w, PAYMENTS, 0)?.leader === 3 },
      observe: (w) => ({
        leader: partitionState(w, PAYMENTS, 0)?.leader ?? null,
        leaderEpoch: partitionState(w, PAYMENTS, 0)?.leaderEpoch ?? null,
      }),
    },
  ],
});
