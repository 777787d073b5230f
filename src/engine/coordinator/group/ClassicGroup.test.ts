import { describe, expect, it } from 'vitest';
import { decodeGroupMetadataValue, encodeGroupMetadataValue } from '../../clients/consumer/offsetsSchema';
import { ClassicGroup, ClassicGroupMember } from './ClassicGroup';
import { groupMetadataRecord } from './GroupMetadataRecords';

// Kafka 3.9's ZooKeeper-mode GroupMetadata keeps its members in a Scala 2.13 mutable.HashMap:
// allMemberMetadata, currentMemberMetadata, summary and GroupMetadataManager.groupMetadataValue
// all list them in that map's order, and selectProtocol's tie goes by `groupBy`'s immutable
// HashMap order (core/.../coordinator/group/GroupMetadata.scala, GroupMetadataTest).
const noBytes = new Uint8Array(0);
function member(id: string, protocols: string[]): ClassicGroupMember {
  return new ClassicGroupMember(
    id,
    null,
    'clientId',
    '/127.0.0.1',
    30000,
    10000,
    'consumer',
    protocols.map((name) => ({ name, metadata: new Uint8Array([id.charCodeAt(0)]) })),
  );
}

describe('ClassicGroup in Scala HashMap order (Kafka 3.9 GroupMetadataTest)', () => {
  it('testSelectProtocol: a one-one tie between range and roundrobin goes to roundrobin, whoever joined first', () => {
    const group = new ClassicGroup('groupId', 'Empty', 0);
    group.add(member('memberId', ['range', 'roundrobin']));
    expect(group.selectProtocol()).toBe('range');
    group.add(member('otherMemberId', ['roundrobin', 'range']));
    // GroupMetadataTest allows either; Scala 2.13's groupBy builds an immutable.HashMap in which
    // "roundrobin" (improved hash slot 7) comes before "range" (slot 20), and maxBy keeps the first.
    expect(group.selectProtocol()).toBe('roundrobin');
    group.add(member('lastMemberId', ['roundrobin', 'range']));
    expect(group.selectProtocol()).toBe('roundrobin');
  });

  it('GroupMetadata.summary (DescribeGroups) lists the members in HashMap order, not join order', () => {
    const group = new ClassicGroup('g', 'Empty', 0);
    // 16 buckets: "a" (97) and "q" (113) share bucket 1 ("a" first, smaller hash), "b" (98) is in bucket 2.
    for (const id of ['q', 'b', 'a']) group.add(member(id, ['range']));
    expect(group.allMemberMetadata().map((m) => m.memberId)).toEqual(['a', 'q', 'b']);
    expect(group.summary().members.map((m) => m.memberId)).toEqual(['a', 'q', 'b']);
  });

  it('GroupMetadataManager.groupMetadataValue writes the members in HashMap order (record bytes)', () => {
    const group = new ClassicGroup('g', 'Empty', 0);
    for (const id of ['q', 'b', 'a']) group.add(member(id, ['range']));
    group.transitionTo('PreparingRebalance', 0);
    group.initNextGeneration(5);
    const record = groupMetadataRecord(group);
    const value = decodeGroupMetadataValue(record.value as Uint8Array);
    expect(value.members.map((m) => m.memberId)).toEqual(['a', 'q', 'b']);
    const expected = encodeGroupMetadataValue({
      version: 3,
      protocolType: 'consumer',
      generation: 1,
      protocol: 'range',
      leader: 'q',
      currentStateTimestamp: 5,
      members: ['a', 'q', 'b'].map((id) => ({
        memberId: id,
        groupInstanceId: null,
        clientId: 'clientId',
        clientHost: '/127.0.0.1',
        rebalanceTimeout: 30000,
        sessionTimeout: 10000,
        subscription: new Uint8Array([id.charCodeAt(0)]),
        assignment: noBytes,
      })),
    });
    expect(record.value).toEqual(expected);
  });
});
