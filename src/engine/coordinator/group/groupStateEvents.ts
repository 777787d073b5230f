import type { ClassicGroup, ClassicGroupState } from './ClassicGroup';
import type { CoordinatorContext } from './CoordinatorContext';
import type { TopicPartition } from '../../clients/consumer/assignors/types';
import { decodeAssignment, fromTopicPartitions } from '../../clients/consumer/offsetsSchema';

// What the coordinator tells the UI about a classic group: state transitions and completed generations.

export function emitGroupState(
  ctx: CoordinatorContext,
  group: ClassicGroup,
  from: ClassicGroupState | null,
  reason: string,
): void {
  ctx.emit({
    type: 'groupStateChanged',
    groupId: group.groupId,
    coordinator: ctx.brokerId,
    from,
    to: group.state,
    generationId: group.generationId,
    atMs: ctx.now(),
    reason,
  });
}

export function emitGroupGeneration(ctx: CoordinatorContext, group: ClassicGroup): void {
  const assignment: Record<string, TopicPartition[]> = {};
  const clientIds: Record<string, string> = {};
  for (const m of group.members.values()) {
    clientIds[m.memberId] = m.clientId;
    let parts: TopicPartition[] = [];
    try {
      if (m.assignment.length > 0) parts = fromTopicPartitions(decodeAssignment(m.assignment).assignedPartitions);
    } catch {
      parts = [];
    }
    assignment[m.memberId] = parts.sort((a, b) =>
      a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : a.partition - b.partition,
    );
  }
  ctx.emit({
    type: 'groupGenerationCompleted',
    groupId: group.groupId,
    coordinator: ctx.brokerId,
    generationId: group.generationId,
    protocolName: group.protocolName,
    leader: group.leaderId,
    assignment,
    clientIds,
    atMs: ctx.now(),
  });
}
