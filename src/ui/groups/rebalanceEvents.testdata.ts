/** Board events of one eager rebalance, shaped as the engine emits them (tests only). */
import type { EngineEvent } from '../../engine/apps/types';
import { toEngineMs } from '../../worker/client';

const at = (ms: number) => toEngineMs(ms);

export function request(
  api: 'LeaveGroup' | 'JoinGroup' | 'SyncGroup' | 'Heartbeat',
  from: string,
  ms: number,
): EngineEvent {
  return {
    type: 'groupRequestSent',
    id: ms,
    api,
    from,
    toBroker: 1,
    sentAtMs: at(ms),
    arriveAtMs: at(ms + 1),
    body: { api, groupId: 'billing' } as never,
  };
}

export function state(from: string, to: string, generationId: number, ms: number): EngineEvent {
  return {
    type: 'groupStateChanged',
    groupId: 'billing',
    coordinator: 1,
    from,
    to,
    generationId,
    atMs: at(ms),
    reason: 'test',
  } as EngineEvent;
}

/** An eager rebalance after c1 leaves billing, in the order Kafka's coordinator and clients emit it. */
export const leaveRebalance: EngineEvent[] = [
  request('LeaveGroup', 'c1', 100),
  state('Stable', 'PreparingRebalance', 1, 101),
  request('Heartbeat', 'c2', 900),
  {
    type: 'consumerRebalanceCallback',
    consumerId: 'c2',
    groupId: 'billing',
    callback: 'onPartitionsRevoked',
    partitions: [{ topic: 'orders', partition: 3 }],
    generationId: 1,
    atMs: at(902),
  },
  request('JoinGroup', 'c2', 902),
  state('PreparingRebalance', 'CompletingRebalance', 2, 903),
  request('SyncGroup', 'c2', 904),
  state('CompletingRebalance', 'Stable', 2, 905),
  {
    type: 'consumerRebalanceCallback',
    consumerId: 'c2',
    groupId: 'billing',
    callback: 'onPartitionsAssigned',
    partitions: [{ topic: 'orders', partition: 3 }],
    generationId: 2,
    atMs: at(906),
  },
];
