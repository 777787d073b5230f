import { describe, expect, it } from 'vitest';
import { isKafkaError } from '../../errors';
import { groupCoordinatorPartition } from './groupCoordinatorPartition';
import { javaStringHashCode, kafkaAbs } from '../../clients/consumer/javaStringHashCode';

describe('javaStringHashCode', () => {
  it('matches java.lang.String.hashCode', () => {
    // Values a JVM returns (OpenJDK 17): "hello".hashCode() == 99162322, "".hashCode() == 0.
    expect(javaStringHashCode('hello')).toBe(99162322);
    expect(javaStringHashCode('')).toBe(0);
    // From a real broker: group 'DEVSmileCDR' has hashCode 551467806.
    expect(javaStringHashCode('DEVSmileCDR')).toBe(551467806);
  });

  it('overflows as a 32-bit int: "polygenelubricants" hashes to Integer.MIN_VALUE', () => {
    expect(javaStringHashCode('polygenelubricants')).toBe(-2147483648);
    expect(javaStringHashCode('consumer1')).toBe(-421004549);
  });

  it('hashes UTF-16 code units, surrogate pairs included', () => {
    // U+1F600 is the surrogate pair D83D DE00: 0xD83D * 31 + 0xDE00.
    expect(javaStringHashCode('\u{1F600}')).toBe(0xd83d * 31 + 0xde00);
  });
});

describe('kafkaAbs (Utils.abs)', () => {
  it('maps Integer.MIN_VALUE to 0 and is Math.abs otherwise', () => {
    // apache/kafka clients/src/main/java/org/apache/kafka/common/utils/Utils.java abs
    expect(kafkaAbs(-2147483648)).toBe(0);
    expect(kafkaAbs(-5)).toBe(5);
    expect(kafkaAbs(2147483647)).toBe(2147483647);
  });
});

describe('groupCoordinatorPartition', () => {
  it('puts a group in partition abs(hashCode) % offsets.topic.num.partitions, default 50', () => {
    // From a real broker: 'DEVSmileCDR' lives in __consumer_offsets partition 6 of 50.
    expect(groupCoordinatorPartition('DEVSmileCDR')).toBe(6);
    expect(groupCoordinatorPartition('DEVSmileCDR', 50)).toBe(6);
    expect(groupCoordinatorPartition('DEVSmileCDR', 7)).toBe(551467806 % 7);
  });

  it('uses Utils.abs, so a MIN_VALUE hash lands in partition 0 (not a negative partition)', () => {
    expect(groupCoordinatorPartition('polygenelubricants')).toBe(0);
    // A negative hash: abs, not the sign-bit mask the producer partitioner uses.
    expect(groupCoordinatorPartition('consumer1')).toBe(421004549 % 50);
  });

  it('rejects a non-positive partition count with INVALID_CONFIG', () => {
    for (const n of [0, -1, 1.5, Number.NaN]) {
      try {
        groupCoordinatorPartition('g', n);
        expect.unreachable();
      } catch (e) {
        expect(isKafkaError(e, 'INVALID_CONFIG')).toBe(true);
      }
    }
  });
});
