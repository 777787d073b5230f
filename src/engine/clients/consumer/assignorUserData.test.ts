import { describe, expect, it } from 'vitest';
import {
  decodeStickyAssignorUserData,
  encodeStickyAssignorUserData,
  memberData,
  subscriptionUserData,
} from './assignorUserData';
import { type ConsumerProtocolSubscription, toTopicPartitions } from './offsetsSchema';
import { SchemaWriter } from './SchemaBuffer';

/**
 * The sticky assignors' userData and AbstractStickyAssignor.memberData, after Kafka 3.9's
 * StickyAssignorTest (testMemberDataWithInconsistentData, testMemberDataWillHonorUserData,
 * testSchemaBackwardCompatibility) and CooperativeStickyAssignorTest (testEncodeAndDecodeGeneration,
 * testDecodeGeneration, testMemberDataWillHonorUserData's cooperative twin: ownedPartitions wins).
 */

const tp = (topic: string, partition: number) => ({ topic, partition });

function subscription(over: Partial<ConsumerProtocolSubscription>): ConsumerProtocolSubscription {
  return {
    version: 3,
    topics: ['topic'],
    userData: null,
    ownedPartitions: [],
    generationId: -1,
    rackId: null,
    ...over,
  };
}

describe('StickyAssignor userData', () => {
  it('round-trips the previous assignment and generation (STICKY_ASSIGNOR_USER_DATA_V1)', () => {
    const partitions = [tp('topic1', 0), tp('topic2', 1)];
    expect(decodeStickyAssignorUserData(encodeStickyAssignorUserData({ partitions, generation: 5 }))).toEqual({
      ownedPartitions: partitions,
      generation: 5,
    });
  });

  it('testSchemaBackwardCompatibility: V0 userData (no generation) reads as an unknown generation', () => {
    const w = new SchemaWriter();
    w.array(toTopicPartitions([tp('topic', 0), tp('topic', 2)]), (t) => {
      w.string(t.topic).array(t.partitions, (p) => w.int32(p));
    });
    expect(decodeStickyAssignorUserData(w.toBytes())).toEqual({ ownedPartitions: [tp('topic', 0), tp('topic', 2)] });
  });

  it('no userData before the first assignment; afterwards the remembered assignment', () => {
    expect(subscriptionUserData('sticky', null)).toBeNull();
    const bytes = subscriptionUserData('sticky', { partitions: [tp('topic', 1)], generation: 3 });
    expect(memberData('sticky', subscription({ userData: bytes }))).toEqual({
      ownedPartitions: [tp('topic', 1)],
      generation: 3,
    });
    expect(subscriptionUserData('range', { partitions: [tp('topic', 1)], generation: 3 })).toBeNull();
  });

  it('testMemberDataWillHonorUserData / testMemberDataWithInconsistentData: the eager sticky reads only userData', () => {
    const owned = [tp('topic1', 0), tp('topic2', 1)];
    const userData = encodeStickyAssignorUserData({ partitions: owned, generation: 9 });
    const sub = subscription({ userData, ownedPartitions: toTopicPartitions([tp('topic1', 1)]), generationId: 10 });
    expect(memberData('sticky', sub)).toEqual({ ownedPartitions: owned, generation: 9 });
  });

  it('corrupt userData: nothing to stick to', () => {
    expect(memberData('sticky', subscription({ userData: new Uint8Array([0, 0, 0, 9, 1]) }))).toEqual({
      ownedPartitions: [],
    });
  });
});

describe('CooperativeStickyAssignor memberData', () => {
  it('a v2+ subscription: ownedPartitions and generationId, whatever the userData says', () => {
    const sub = subscription({
      userData: subscriptionUserData('cooperative-sticky', { partitions: [], generation: 1 }),
      ownedPartitions: toTopicPartitions([tp('topic', 0)]),
      generationId: 4,
    });
    expect(memberData('cooperative-sticky', sub)).toEqual({ ownedPartitions: [tp('topic', 0)], generation: 4 });
  });

  it('testEncodeAndDecodeGeneration / testDecodeGeneration: an older subscription takes the generation from userData', () => {
    const userData = subscriptionUserData('cooperative-sticky', { partitions: [], generation: 7 });
    expect(memberData('cooperative-sticky', subscription({ version: 1, userData }))).toEqual({
      ownedPartitions: [],
      generation: 7,
    });
    // Unreadable: DEFAULT_GENERATION; absent: unknown.
    expect(memberData('cooperative-sticky', subscription({ userData: new Uint8Array(1) })).generation).toBe(-1);
    expect(memberData('cooperative-sticky', subscription({})).generation).toBeUndefined();
  });
});
