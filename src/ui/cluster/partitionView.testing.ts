/** A partition view for the board's tests: orders-0 on brokers 1 (leader), 2 and 3. */
import type { BoardPartitionView } from '../../engine/apps/types';

/** orders-0 led by broker 1, all in sync at leader epoch 0 unless `over` says otherwise. */
export function ordersPartition(
  replicaStates: BoardPartitionView['replicaStates'],
  over: Partial<BoardPartitionView> = {},
): BoardPartitionView {
  return {
    topic: 'orders',
    partition: 0,
    replicas: [1, 2, 3],
    leader: 1,
    leaderEpoch: 0,
    isr: [1, 2, 3],
    offline: false,
    committed: 0,
    replicaStates,
    ...over,
  };
}
