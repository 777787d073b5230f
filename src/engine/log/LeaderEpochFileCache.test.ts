import { describe, expect, it } from 'vitest';
import { isKafkaError } from '../errors';
import { LeaderEpochFileCache, UNDEFINED_EPOCH, UNDEFINED_EPOCH_OFFSET } from './LeaderEpochFileCache';

// Cases and values from apache/kafka
// storage/src/test/java/org/apache/kafka/storage/internals/epoch/LeaderEpochFileCacheTest.java
// (endOffsetFor(epoch, logEndOffset) there returns Map.entry(epoch, offset); here {epoch, endOffset}).
const undef = { epoch: UNDEFINED_EPOCH, endOffset: UNDEFINED_EPOCH_OFFSET };
const cache = (...pairs: [number, number][]) => {
  const c = new LeaderEpochFileCache();
  for (const [e, o] of pairs) c.assign(e, o);
  return c;
};

describe('LeaderEpochFileCache (Kafka LeaderEpochFileCacheTest)', () => {
  it('assign keeps the first start offset of an epoch and enforces increasing epochs and offsets', () => {
    expect(cache([2, 6], [2, 10]).entries).toEqual([{ epoch: 2, startOffset: 6 }]); // shouldNotOverwriteOffset...
    expect(cache([2, 9], [3, 9]).entries).toEqual([{ epoch: 3, startOffset: 9 }]); // shouldEnforceMonotonicallyIncreasingStartOffsets
    expect(cache([2, 6], [3, 5]).entries).toEqual([{ epoch: 3, startOffset: 5 }]); // shouldEnforceOffsetsIncreaseMonotonically
    const c = cache([1, 5], [2, 6], [1, 7]); // shouldEnforceMonotonicallyIncreasingEpochs
    expect(c.latestEpoch).toBe(1);
    expect(c.endOffsetFor(1, 8)).toEqual({ epoch: 1, endOffset: 8 });
    expect(c.endOffsetFor(2, 8)).toEqual(undef);
    expect(c.entries).toEqual([{ epoch: 1, startOffset: 7 }]);
  });

  it('endOffsetFor: undefined cases, the latest epoch, earlier epochs, and epochs below the first', () => {
    expect(cache().endOffsetFor(0, 0)).toEqual(undef); // shouldReturnUnsupportedIfNoEpochRecorded
    expect(cache([2, 11], [3, 12]).endOffsetFor(UNDEFINED_EPOCH, 0)).toEqual(undef);
    expect(cache([5, 11], [6, 12], [7, 13]).endOffsetFor(4, 0)).toEqual({ epoch: 4, endOffset: 11 });
    expect(cache([2, 100]).endOffsetFor(3, 100)).toEqual(undef);
    expect(cache([2, 6]).endOffsetFor(2, 7)).toEqual({ epoch: 2, endOffset: 7 });
    // shouldIncreaseAndTrackEpochsAsFollowerReceivesManyMessages
    const f = cache([0, 0], [0, 1], [0, 2], [1, 3], [1, 4], [1, 5], [2, 6], [2, 7], [2, 8]);
    expect(f.endOffsetFor(2, 9)).toEqual({ epoch: 2, endOffset: 9 });
    expect(f.endOffsetFor(0, 9)).toEqual({ epoch: 0, endOffset: 3 });
    expect(f.endOffsetFor(1, 9)).toEqual({ epoch: 1, endOffset: 6 });
  });

  it('truncateFromEnd / truncateFromStart as in Kafka, ignoring UNDEFINED_EPOCH_OFFSET', () => {
    const base = (): [number, number][] => [
      [2, 6],
      [3, 8],
      [4, 11],
    ];
    const t = (fn: (c: LeaderEpochFileCache) => void) => {
      const c = cache(...base());
      fn(c);
      return c.entries.map((e) => [e.epoch, e.startOffset]);
    };
    expect(t((c) => c.truncateFromEnd(8))).toEqual([[2, 6]]);
    expect(t((c) => c.truncateFromEnd(9))).toEqual([
      [2, 6],
      [3, 8],
    ]);
    expect(t((c) => c.truncateFromStart(8))).toEqual([
      [3, 8],
      [4, 11],
    ]);
    expect(t((c) => c.truncateFromStart(1))).toEqual(base());
    expect(t((c) => c.truncateFromStart(6))).toEqual(base());
    expect(t((c) => c.truncateFromStart(11))).toEqual([[4, 11]]);
    expect(t((c) => c.truncateFromStart(9))).toEqual([
      [3, 9],
      [4, 11],
    ]);
    expect(t((c) => c.truncateFromStart(15))).toEqual([[4, 15]]);
    expect(t((c) => c.truncateFromStart(UNDEFINED_EPOCH_OFFSET))).toEqual(base());
    expect(t((c) => c.truncateFromEnd(UNDEFINED_EPOCH_OFFSET))).toEqual(base());
    expect(t((c) => c.clear())).toEqual([]);
  });

  it('epochForOffset (shouldFetchEpochForGivenOffset)', () => {
    const c = cache([0, 10], [1, 20], [5, 30]);
    expect([25, 20, 30, 50, 5].map((o) => c.epochForOffset(o))).toEqual([1, 1, 5, 5, null]);
  });

  it("reads and writes Kafka's leader-epoch-checkpoint text, rejecting malformed files", () => {
    // The real file from a Kafka 3.7.0 broker (shared/vectors/real_segments.json).
    expect(LeaderEpochFileCache.parse('0\n1\n0 0\n').entries).toEqual([{ epoch: 0, startOffset: 0 }]);
    expect(cache([2, 6], [3, 8]).serialize()).toBe('0\n2\n2 6\n3 8\n');
    for (const bad of ['1\n0\n', '0\n2\n1 1\n', '0\n1\nx y\n']) {
      try {
        LeaderEpochFileCache.parse(bad);
        expect.unreachable();
      } catch (e) {
        expect(isKafkaError(e, 'KAFKA_STORAGE_ERROR')).toBe(true);
      }
    }
  });
});
