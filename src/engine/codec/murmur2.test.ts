import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KafkaError } from '../errors';
import { defaultPartition, murmur2, toPositive } from './murmur2';

const bytes = (s: string) => new TextEncoder().encode(s);

describe('murmur2', () => {
  // apache/kafka clients/src/test/java/org/apache/kafka/common/utils/UtilsTest.java testMurmur2
  it.each([
    ['21', -973932308],
    ['foobar', -790332482],
    ['a-little-bit-long-string', -985981536],
    ['a-little-bit-longer-string', -1486304829],
    ['lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8', -58897971],
    ['abc', 479470107],
  ])('hashes %j like Kafka', (key, hash) => {
    expect(murmur2(bytes(key))).toBe(hash);
  });

  it('always returns a signed 32-bit int (property)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (b) => {
        const h = murmur2(b);
        expect(h).toBe(h | 0);
      }),
    );
  });
});

describe('toPositive and defaultPartition', () => {
  it('clears the sign bit like Utils.toPositive (not Math.abs)', () => {
    expect(toPositive(-2147483648)).toBe(0);
    expect(toPositive(-1)).toBe(2147483647);
    expect(toPositive(-790332482)).toBe(1357151166);
  });

  it('maps a key as toPositive(murmur2(key)) % numPartitions', () => {
    // -790332482 & 0x7fffffff = 1357151166; 1357151166 % 10 = 6 and % 50 = 16
    expect(defaultPartition(bytes('foobar'), 10)).toBe(6);
    expect(defaultPartition(bytes('foobar'), 50)).toBe(16);
    expect(defaultPartition(bytes('21'), 1)).toBe(0);
  });

  it('rejects a non-positive partition count with INVALID_PARTITIONS', () => {
    expect(() => defaultPartition(bytes('k'), 0)).toThrow(KafkaError);
    try {
      defaultPartition(bytes('k'), 0);
    } catch (e) {
      expect((e as KafkaError).code).toBe('INVALID_PARTITIONS');
    }
  });
});
