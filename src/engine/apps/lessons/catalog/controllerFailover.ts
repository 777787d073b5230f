import { backInIsr, partitionState } from '../facts';
import { after } from './posts';
import { ELECTIONS, lesson, PAYMENTS, row } from './scenarios';

/** The controller, its epoch, and leader election from the ISR. */
export const controllerFailover = lesson(ELECTIONS, 'controller-failover', 'controller', {
  title: 'Controller failover and epochs',
  source: after('architecture', 'the controller elects leaders from the ISR'),
  steps: [
    {
      look: { kind: 'broker', broker: 1 },
      text: 'Broker 1 is the controller (/controller, /controller_epoch) and leads payments-0 (leader epoch in /brokers/topics/payments/partitions/0/state).',
      observe: (w) => ({
        controller: w.view.controller,
        controllerEpoch: w.view.controllerEpoch,
        leader: partitionState(w, PAYMENTS, 0)?.leader ?? null,
        leaderEpoch: partitionState(w, PAYMENTS, 0)?.leaderEpoch ?? null,
      }),
    },
    {
      text: 'Broker 1 was killed (kill -9). Nothing happens until its ZooKeeper session expires; then /controller and /brokers/ids/1 vanish, another broker wins /controller with controller epoch + 1 and elects a new leader from the ISR with a higher leader epoch (every leader or ISR change the controller writes bumps it).',
      look: row(PAYMENTS),
      actions: [{ op: 'killBroker', broker: 1 }],
      question: {
        prompt:
          'payments-0 is on replicas [1, 2, 3], all in sync, and broker 1 leads it (and is the controller). Broker 1 is killed next. Which broker will lead payments-0 afterwards?',
        choices: ['1', '2', '3', 'none'],
        answer: (w) => String(partitionState(w, PAYMENTS, 0)?.leader ?? 'none'),
        // The controller's OfflinePartitionLeaderElectionStrategy: the first live replica, in assignment order, that is in the ISR.
        because: (w) => {
          const p = partitionState(w, PAYMENTS, 0);
          return `the new controller (broker ${w.view.controller ?? '?'}) elects the first replica in assignment order [${p?.replicas.join(', ') ?? ''}] that is alive and in the ISR: broker ${p?.leader ?? '?'}.`;
        },
      },
      until: {
        label: 'a new controller elected a new leader',
        met: (w) =>
          w.view.controller !== null && w.view.controller !== 1 && (partitionState(w, PAYMENTS, 0)?.leader ?? 1) !== 1,
      },
      slow: true,
      observe: (w) => ({
        controller: w.view.controller,
        controllerEpoch: w.view.controllerEpoch,
        leader: partitionState(w, PAYMENTS, 0)?.leader ?? null,
        leaderEpoch: partitionState(w, PAYMENTS, 0)?.leaderEpoch ?? null,
        isr: partitionState(w, PAYMENTS, 0)?.isr ?? [],
      }),
    },
    {
      text: 'Broker 1 restarted: it registers, becomes a follower (the controller stays where it is), catches up and rejoins the ISR.',
      look: row(PAYMENTS),
      actions: [{ op: 'restartBroker', broker: 1 }],
      until: backInIsr(PAYMENTS, 0, 1),
      observe: (w) => ({ controller: w.view.controller, leader: partitionState(w, PAYMENTS, 0)?.leader ?? null }),
    },
  ],
});
