import { ClassicGroup, ClassicGroupMember, type ClassicGroupState } from './ClassicGroup';
import type { OffsetsRecord } from './CoordinatorContext';
import {
  encodeGroupMetadataKey,
  encodeGroupMetadataValue,
  type GroupMetadataValue,
} from '../../clients/consumer/offsetsSchema';

/**
 * A classic group as a GroupMetadata record of __consumer_offsets, and back (Kafka's
 * GroupCoordinatorRecordHelpers.newGroupMetadataRecord and GroupMetadataManager.loadGroup).
 */
export function groupMetadataRecord(group: ClassicGroup, assignments?: Map<string, Uint8Array>): OffsetsRecord {
  const protocol = group.protocolName;
  const value: GroupMetadataValue = {
    version: 3,
    protocolType: group.protocolType ?? 'consumer',
    generation: group.generationId,
    protocol,
    leader: group.leaderId,
    currentStateTimestamp: group.currentStateTimestamp,
    members:
      protocol === null
        ? []
        : group.allMemberMetadata().map((m) => ({
            memberId: m.memberId,
            groupInstanceId: m.groupInstanceId,
            clientId: m.clientId,
            clientHost: m.clientHost,
            rebalanceTimeout: m.rebalanceTimeoutMs,
            sessionTimeout: m.sessionTimeoutMs,
            subscription: m.metadata(protocol),
            assignment: assignments?.get(m.memberId) ?? m.assignment,
          })),
  };
  return { key: encodeGroupMetadataKey(group.groupId), value: encodeGroupMetadataValue(value) };
}

/** A group loaded from its record: Empty if it has no members, else Stable with every member's assignment. */
export function loadGroup(groupId: string, value: GroupMetadataValue, nowMs: number): ClassicGroup {
  const state: ClassicGroupState = value.members.length === 0 ? 'Empty' : 'Stable';
  const group = new ClassicGroup(groupId, state, value.currentStateTimestamp);
  group.generationId = value.generation;
  group.protocolType = value.protocolType;
  group.protocolName = value.protocol;
  for (const m of value.members) {
    const member = new ClassicGroupMember(
      m.memberId,
      m.groupInstanceId,
      m.clientId,
      m.clientHost,
      m.rebalanceTimeout,
      m.sessionTimeout,
      value.protocolType,
      value.protocol === null ? [] : [{ name: value.protocol, metadata: m.subscription }],
    );
    member.assignment = m.assignment;
    member.lastHeartbeatMs = nowMs;
    group.add(member);
  }
  group.leaderId = value.leader;
  // GroupMetadataManager.loadGroup: the subscription is known again once the group is loaded.
  group.subscribedTopics = group.computeSubscribedTopics();
  return group;
}
