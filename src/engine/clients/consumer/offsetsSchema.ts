import { CorruptRecordError } from '../../errors';
import { SchemaReader, SchemaWriter } from './SchemaBuffer';

/**
 * The record schemas of the `__consumer_offsets` topic, byte for byte as Kafka writes them
 * (group-coordinator/src/main/resources/common/message/{OffsetCommitKey,OffsetCommitValue,
 * GroupMetadataKey,GroupMetadataValue}.json; all versions used here are non-flexible).
 *
 * Every key starts with an int16 version that also says what the record is:
 *   0, 1  OffsetCommitKey     group STRING, topic STRING, partition INT32
 *   2     GroupMetadataKey    group STRING
 * Values start with their own int16 version:
 *   OffsetCommitValue   offset INT64, leaderEpoch INT32 (v3+), metadata STRING,
 *                       commitTimestamp INT64, expireTimestamp INT64 (v1 only)
 *   GroupMetadataValue  protocolType STRING, generation INT32, protocol NULLABLE_STRING,
 *                       leader NULLABLE_STRING, currentStateTimestamp INT64 (v2+),
 *                       members ARRAY of MemberMetadata
 *   MemberMetadata      memberId STRING, groupInstanceId NULLABLE_STRING (v3+), clientId STRING,
 *                       clientHost STRING, rebalanceTimeout INT32 (v1+), sessionTimeout INT32,
 *                       subscription BYTES, assignment BYTES
 * A null value is a tombstone: the offset was deleted or the group is gone, and compaction
 * eventually removes the key.
 *
 * The member's subscription and assignment bytes are the consumer protocol's own schemas
 * (clients/src/main/resources/common/message/ConsumerProtocol{Subscription,Assignment}.json):
 *   Subscription  version INT16, topics ARRAY of STRING, userData NULLABLE_BYTES,
 *                 ownedPartitions ARRAY of (topic STRING, partitions ARRAY of INT32) (v1+),
 *                 generationId INT32 (v2+), rackId NULLABLE_STRING (v3+)
 *   Assignment    version INT16, assignedPartitions ARRAY of (topic, partitions), userData NULLABLE_BYTES
 */

export interface OffsetCommitKey {
  type: 'OffsetCommitKey';
  version: 0 | 1;
  group: string;
  topic: string;
  partition: number;
}

export interface GroupMetadataKey {
  type: 'GroupMetadataKey';
  version: 2;
  group: string;
}

export type OffsetsRecordKey = OffsetCommitKey | GroupMetadataKey;

export interface OffsetCommitValue {
  version: 0 | 1 | 2 | 3;
  offset: number;
  /** -1 when unknown; only written from version 3. */
  leaderEpoch: number;
  metadata: string;
  commitTimestamp: number;
  /** Only version 1 carries it; -1 otherwise. */
  expireTimestamp: number;
}

export interface MemberMetadata {
  memberId: string;
  groupInstanceId: string | null;
  clientId: string;
  clientHost: string;
  rebalanceTimeout: number;
  sessionTimeout: number;
  subscription: Uint8Array;
  assignment: Uint8Array;
}

export interface GroupMetadataValue {
  version: 0 | 1 | 2 | 3;
  protocolType: string;
  generation: number;
  protocol: string | null;
  leader: string | null;
  currentStateTimestamp: number;
  members: MemberMetadata[];
}

export interface TopicPartitions {
  topic: string;
  partitions: number[];
}

export interface ConsumerProtocolSubscription {
  version: 0 | 1 | 2 | 3;
  topics: string[];
  userData: Uint8Array | null;
  ownedPartitions: TopicPartitions[];
  generationId: number;
  rackId: string | null;
}

export interface ConsumerProtocolAssignment {
  version: 0 | 1 | 2 | 3;
  assignedPartitions: TopicPartitions[];
  userData: Uint8Array | null;
}

// ---------------------------------------------------------------- keys

export function encodeOffsetCommitKey(group: string, topic: string, partition: number, version: 0 | 1 = 1): Uint8Array {
  return new SchemaWriter().int16(version).string(group).string(topic).int32(partition).toBytes();
}

export function encodeGroupMetadataKey(group: string): Uint8Array {
  return new SchemaWriter().int16(2).string(group).toBytes();
}

export function encodeOffsetsKey(key: OffsetsRecordKey): Uint8Array {
  return key.type === 'GroupMetadataKey'
    ? encodeGroupMetadataKey(key.group)
    : encodeOffsetCommitKey(key.group, key.topic, key.partition, key.version);
}

export function decodeOffsetsKey(bytes: Uint8Array): OffsetsRecordKey {
  const r = new SchemaReader(bytes, '__consumer_offsets key');
  const version = r.int16('version');
  if (version === 0 || version === 1) {
    const group = r.string('group');
    const topic = r.string('topic');
    const partition = r.int32('partition');
    r.end();
    return { type: 'OffsetCommitKey', version, group, topic, partition };
  }
  if (version === 2) {
    const group = r.string('group');
    r.end();
    return { type: 'GroupMetadataKey', version: 2, group };
  }
  throw new CorruptRecordError(`__consumer_offsets key version ${version} is not one this coordinator knows`, {
    version,
  });
}

// ---------------------------------------------------------------- offset commit value

function valueVersion(r: SchemaReader, what: string): 0 | 1 | 2 | 3 {
  const v = r.int16('version');
  if (v === 0 || v === 1 || v === 2 || v === 3) return v;
  throw new CorruptRecordError(`${what} version ${v} is not supported (0-3)`, { version: v });
}

export function encodeOffsetCommitValue(v: OffsetCommitValue): Uint8Array {
  const w = new SchemaWriter().int16(v.version).int64(v.offset);
  if (v.version >= 3) w.int32(v.leaderEpoch);
  w.string(v.metadata).int64(v.commitTimestamp);
  if (v.version === 1) w.int64(v.expireTimestamp);
  return w.toBytes();
}

export function decodeOffsetCommitValue(bytes: Uint8Array): OffsetCommitValue {
  const r = new SchemaReader(bytes, 'OffsetCommitValue');
  const version = valueVersion(r, 'OffsetCommitValue');
  const offset = r.int64('offset');
  const leaderEpoch = version >= 3 ? r.int32('leaderEpoch') : -1;
  const metadata = r.string('metadata');
  const commitTimestamp = r.int64('commitTimestamp');
  const expireTimestamp = version === 1 ? r.int64('expireTimestamp') : -1;
  r.end();
  return { version, offset, leaderEpoch, metadata, commitTimestamp, expireTimestamp };
}

// ---------------------------------------------------------------- group metadata value

export function encodeGroupMetadataValue(v: GroupMetadataValue): Uint8Array {
  const w = new SchemaWriter()
    .int16(v.version)
    .string(v.protocolType)
    .int32(v.generation)
    .nullableString(v.protocol)
    .nullableString(v.leader);
  if (v.version >= 2) w.int64(v.currentStateTimestamp);
  w.array(v.members, (m) => {
    w.string(m.memberId);
    if (v.version >= 3) w.nullableString(m.groupInstanceId);
    w.string(m.clientId).string(m.clientHost);
    if (v.version >= 1) w.int32(m.rebalanceTimeout);
    w.int32(m.sessionTimeout).nullableBytes(m.subscription).nullableBytes(m.assignment);
  });
  return w.toBytes();
}

export function decodeGroupMetadataValue(bytes: Uint8Array): GroupMetadataValue {
  const r = new SchemaReader(bytes, 'GroupMetadataValue');
  const version = valueVersion(r, 'GroupMetadataValue');
  const protocolType = r.string('protocolType');
  const generation = r.int32('generation');
  const protocol = r.nullableString('protocol');
  const leader = r.nullableString('leader');
  const currentStateTimestamp = version >= 2 ? r.int64('currentStateTimestamp') : -1;
  const members = r.array('members', 2 + 2 + 2 + 4 + 4 + 4, () => {
    const memberId = r.string('memberId');
    const groupInstanceId = version >= 3 ? r.nullableString('groupInstanceId') : null;
    const clientId = r.string('clientId');
    const clientHost = r.string('clientHost');
    const sessionOrRebalance = r.int32('rebalanceTimeout');
    const rebalanceTimeout = version >= 1 ? sessionOrRebalance : -1;
    const sessionTimeout = version >= 1 ? r.int32('sessionTimeout') : sessionOrRebalance;
    const subscription = r.bytesField('subscription');
    const assignment = r.bytesField('assignment');
    return {
      memberId,
      groupInstanceId,
      clientId,
      clientHost,
      rebalanceTimeout,
      sessionTimeout,
      subscription,
      assignment,
    };
  });
  r.end();
  return { version, protocolType, generation, protocol, leader, currentStateTimestamp, members };
}

// ---------------------------------------------------------------- consumer protocol

/** An ARRAY of (topic STRING, partitions ARRAY of INT32), as several consumer-protocol schemas lay it out. */
export function readTopicPartitions(r: SchemaReader, field: string): TopicPartitions[] {
  return r.array(field, 6, () => ({
    topic: r.string('topic'),
    partitions: r.array('partitions', 4, () => r.int32('partition')),
  }));
}

export function writeTopicPartitions(w: SchemaWriter, list: readonly TopicPartitions[]): void {
  w.array(list, (tp) => {
    w.string(tp.topic).array(tp.partitions, (p) => w.int32(p));
  });
}

export function encodeSubscription(s: ConsumerProtocolSubscription): Uint8Array {
  const w = new SchemaWriter().int16(s.version);
  w.array(s.topics, (t) => w.string(t));
  w.nullableBytes(s.userData);
  if (s.version >= 1) writeTopicPartitions(w, s.ownedPartitions);
  if (s.version >= 2) w.int32(s.generationId);
  if (s.version >= 3) w.nullableString(s.rackId);
  return w.toBytes();
}

/**
 * Like Kafka's ConsumerProtocol, a newer version is read with the newest known layout: new
 * versions may only append fields, so trailing bytes beyond what we know are ignored (only a
 * known version, `raw` <= 3, must end exactly).
 */
function readProtocolVersion(r: SchemaReader, what: string): { raw: number; version: 0 | 1 | 2 | 3 } {
  const raw = r.int16('version');
  if (raw < 0) throw new CorruptRecordError(`${what} version ${raw}`);
  return { raw, version: Math.min(raw, 3) as 0 | 1 | 2 | 3 };
}

export function decodeSubscription(bytes: Uint8Array): ConsumerProtocolSubscription {
  const r = new SchemaReader(bytes, 'ConsumerProtocolSubscription');
  const { raw, version } = readProtocolVersion(r, 'ConsumerProtocolSubscription');
  const topics = r.array('topics', 2, () => r.string('topic'));
  const userData = r.nullableBytes('userData');
  const ownedPartitions = version >= 1 ? readTopicPartitions(r, 'ownedPartitions') : [];
  const generationId = version >= 2 ? r.int32('generationId') : -1;
  const rackId = version >= 3 ? r.nullableString('rackId') : null;
  if (raw <= 3) r.end();
  return { version, topics, userData, ownedPartitions, generationId, rackId };
}

export function encodeAssignment(a: ConsumerProtocolAssignment): Uint8Array {
  const w = new SchemaWriter().int16(a.version);
  writeTopicPartitions(w, a.assignedPartitions);
  w.nullableBytes(a.userData);
  return w.toBytes();
}

export function decodeAssignment(bytes: Uint8Array): ConsumerProtocolAssignment {
  const r = new SchemaReader(bytes, 'ConsumerProtocolAssignment');
  const { raw, version } = readProtocolVersion(r, 'ConsumerProtocolAssignment');
  const assignedPartitions = readTopicPartitions(r, 'assignedPartitions');
  const userData = r.nullableBytes('userData');
  if (raw <= 3) r.end();
  return { version, assignedPartitions, userData };
}

/** Groups a flat partition list by topic, topics and partitions sorted (the wire order Kafka uses). */
export function toTopicPartitions(list: readonly { topic: string; partition: number }[]): TopicPartitions[] {
  const byTopic = new Map<string, number[]>();
  for (const { topic, partition } of list) {
    const ps = byTopic.get(topic);
    if (ps) ps.push(partition);
    else byTopic.set(topic, [partition]);
  }
  return [...byTopic.keys()].sort().map((topic) => ({
    topic,
    partitions: (byTopic.get(topic) ?? []).sort((a, b) => a - b),
  }));
}

export function fromTopicPartitions(list: readonly TopicPartitions[]): { topic: string; partition: number }[] {
  return list.flatMap((tp) => tp.partitions.map((partition) => ({ topic: tp.topic, partition })));
}
