/**
 * The groups real Kafka clients form over the wire (the Node host's kafkajs, librdkafka, ...
 * consumers): not on the board, so they are read from their coordinators, as
 * `kafka-consumer-groups --describe --members` would. Each member is a consumer chip named by its
 * member id, with the client.id it joined with and the assignment its group's leader client
 * computed (the ConsumerProtocolAssignment bytes of its SyncGroup, decoded by the coordinator's
 * snapshot).
 */
import type { Engine } from '../index';
import { comparePartitions } from './comparePartitions';
import type { BoardRead } from './managers/Board';
import type { BoardConsumerView, BoardGroupView } from './types';

/** The groups a host's real clients made: every coordinator group the board does not hold. */
export function clientGroupIds(engine: Engine, board: BoardRead, shown: boolean): string[] {
  if (!shown) return [];
  return engine.groups.groupIds().filter((g) => !board.groups.has(g));
}

type Membership = Omit<BoardGroupView, 'generations' | 'lag' | 'delivery' | 'lagNow'>;

/** One real clients' group and its members as consumer chips; null when its coordinator has forgotten it. */
export function clientGroupView(
  engine: Engine,
  groupId: string,
): { group: Membership; consumers: BoardConsumerView[] } | null {
  const snap = engine.groups.groupSnapshot(groupId);
  if (!snap) return null;
  const consumers = snap.members.map((m): BoardConsumerView => {
    const partitions = m.assignment.map((a) => `${a.topic}-${a.partition}`).sort(comparePartitions);
    return {
      name: m.memberId,
      group: groupId,
      lifecycle: 'running',
      memberState: snap.state,
      memberId: m.memberId,
      generation: snap.generationId,
      partitions,
      positions: [],
      recordsConsumed: 0,
      inHand: 0,
      truncation: null,
      client: { clientId: m.clientId, clientHost: m.clientHost, assignment: m.assignmentBytes },
    };
  });
  return {
    group: {
      groupId,
      assignor: 'range',
      protocol: 'coordinator',
      commitMode: 'auto',
      state: snap.state,
      generation: snap.generationId,
      coordinator: snap.coordinator,
      offsetsPartition: snap.offsetsPartition,
      leader: snap.leader,
      initialRebalanceDelayMs: snap.initialRebalanceDelayMs,
      members: consumers.map((c) => ({ memberId: c.memberId, name: c.name, partitions: c.partitions })),
      awaitingCoordinator: null,
      clients: { protocolType: snap.protocolType, protocolName: snap.protocolName },
    },
    consumers,
  };
}
