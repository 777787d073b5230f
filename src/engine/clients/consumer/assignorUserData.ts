/**
 * What each assignor puts in its Subscription's userData, and how the leader reads a member's
 * previous assignment back (Kafka 3.9 ConsumerPartitionAssignor.subscriptionUserData and
 * AbstractStickyAssignor.memberData with its StickyAssignor / CooperativeStickyAssignor overrides).
 *
 * - sticky is eager: ConsumerCoordinator.onJoinPrepare revokes everything before the
 *   subscription is built, so the subscription's ownedPartitions is empty. The assignor remembers
 *   its last assignment and generation itself (onAssignment) and sends them as userData in the
 *   StickyAssignorUserData schema: V1 = previous_assignment ARRAY of (topic STRING, partitions
 *   ARRAY of INT32), generation INT32; V0 has no generation. The leader reads only the userData.
 * - cooperative-sticky keeps its partitions, so ownedPartitions is accurate; its userData is just
 *   the generation (CooperativeStickyAssignorUserData V0: generation INT32), read only when the
 *   subscription is older than v2 and carries no generationId of its own.
 * - range and roundrobin send no userData and ignore what members owned.
 */
import type { AssignmentStrategy, TopicPartition } from './assignors/types';
import { CorruptRecordError } from '../../errors';
import {
  type ConsumerProtocolSubscription,
  fromTopicPartitions,
  readTopicPartitions,
  toTopicPartitions,
  writeTopicPartitions,
} from './offsetsSchema';
import { SchemaReader, SchemaWriter } from './SchemaBuffer';

/** What an assignor instance remembers from its last onAssignment. */
export interface AssignorMemory {
  partitions: TopicPartition[];
  generation: number;
}

/** A member's previous assignment as AbstractStickyAssignor.MemberData sees it. */
export interface MemberData {
  ownedPartitions: TopicPartition[];
  /** Absent: Optional.empty(), an unknown generation. */
  generation?: number;
}

export function encodeStickyAssignorUserData(memory: AssignorMemory): Uint8Array {
  const w = new SchemaWriter();
  writeTopicPartitions(w, toTopicPartitions(memory.partitions));
  return w.int32(memory.generation).toBytes();
}

/** Reads V1, falling back to V0 (no generation) as StickyAssignor.deserializeTopicPartitionAssignment does. */
export function decodeStickyAssignorUserData(bytes: Uint8Array): MemberData {
  const r = new SchemaReader(bytes, 'StickyAssignorUserData');
  const ownedPartitions = fromTopicPartitions(readTopicPartitions(r, 'previous_assignment'));
  if (r.remaining() === 0) return { ownedPartitions };
  // Like Kafka's Schema.read, bytes after the known fields are not checked.
  return { ownedPartitions, generation: r.int32('generation') };
}

export function encodeCooperativeStickyAssignorUserData(generation: number): Uint8Array {
  return new SchemaWriter().int32(generation).toBytes();
}

/** The userData `strategy` sends with its subscription, given what it remembers (null: none yet). */
export function subscriptionUserData(strategy: string, memory: AssignorMemory | null): Uint8Array | null {
  if (strategy === 'sticky') return memory === null ? null : encodeStickyAssignorUserData(memory);
  if (strategy === 'cooperative-sticky') return encodeCooperativeStickyAssignorUserData(memory?.generation ?? -1);
  return null;
}

/** The leader's view of what a member owned before this rebalance, as `strategy` reads it. */
export function memberData(strategy: AssignmentStrategy, sub: ConsumerProtocolSubscription): MemberData {
  if (strategy === 'sticky') {
    // No userData, or one that cannot be read: nothing to stick to (DEFAULT_GENERATION in Kafka).
    if (sub.userData === null || sub.userData.length === 0) return { ownedPartitions: [] };
    try {
      return decodeStickyAssignorUserData(sub.userData);
    } catch (e) {
      if (e instanceof CorruptRecordError) return { ownedPartitions: [] };
      throw e;
    }
  }
  const ownedPartitions = fromTopicPartitions(sub.ownedPartitions);
  if (sub.generationId >= 0) return { ownedPartitions, generation: sub.generationId };
  if (strategy === 'cooperative-sticky' && sub.userData !== null) {
    // CooperativeStickyAssignor.memberData: an unreadable generation counts as DEFAULT_GENERATION.
    const r = new SchemaReader(sub.userData, 'CooperativeStickyAssignorUserData');
    return { ownedPartitions, generation: r.remaining() >= 4 ? r.int32('generation') : -1 };
  }
  return { ownedPartitions };
}
