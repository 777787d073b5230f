import { describe, expect, it } from 'vitest';
import { type RecordBatchHeader, readBatchHeader } from '../codec';
import { ProducerStateManager } from './ProducerStateManager';
import { errorCodeOf, makeBatch } from './testing';

/** A batch header as the leader sees it after assigning `baseOffset`. */
function header(
  producerId: number,
  producerEpoch: number,
  baseSequence: number,
  count: number,
  baseOffset: number,
): RecordBatchHeader {
  const h = readBatchHeader(
    makeBatch(
      Array.from({ length: count }, (_, i) => `v${i}`),
      { producerId, producerEpoch, baseSequence },
    ),
    0,
  );
  return { ...h, baseOffset, lastOffset: baseOffset + h.lastOffsetDelta };
}

// Behaviour as in apache/kafka storage/src/test/java/org/apache/kafka/storage/internals/log/ProducerStateManagerTest.java
// (testBasicIdMapping, testProducerSequenceWrapAround, testProducerFencing / testDuplicateBatch-style checks).
describe('ProducerStateManager', () => {
  it('accepts sequences in order and rejects a gap (OUT_OF_ORDER_SEQUENCE_NUMBER)', () => {
    const m = new ProducerStateManager();
    const first = header(7, 0, 0, 3, 0);
    expect(m.checkLeaderAppend(first)).toBeNull();
    m.update(first);
    const next = header(7, 0, 3, 2, 3);
    expect(m.checkLeaderAppend(next)).toBeNull();
    m.update(next);
    expect(errorCodeOf(() => m.checkLeaderAppend(header(7, 0, 6, 1, 5)))).toBe('OUT_OF_ORDER_SEQUENCE_NUMBER');
  });

  it('accepts any sequence from a producer id it has no state for (KIP-360, ProducerAppendInfo.checkSequence)', () => {
    // Kafka 3.9 ProducerAppendInfo.checkSequence: the new entry has NO_PRODUCER_EPOCH, so neither
    // the new-epoch rule nor the in-sequence rule applies (ProducerStateManagerTest
    // testProducerSequenceWithWrapAroundBatchRecord / "accept writes with any sequence number").
    const m = new ProducerStateManager();
    expect(errorCodeOf(() => m.checkLeaderAppend(header(8, 0, 4, 1, 5)))).toBeUndefined();
    m.update(header(8, 0, 4, 1, 5));
    // Once it has state, the usual rules hold again.
    expect(errorCodeOf(() => m.checkLeaderAppend(header(8, 0, 7, 1, 6)))).toBe('OUT_OF_ORDER_SEQUENCE_NUMBER');
    expect(errorCodeOf(() => m.checkLeaderAppend(header(8, 0, 5, 1, 6)))).toBeUndefined();
  });

  it('recognises a retried batch among the last five and returns its original offsets', () => {
    const m = new ProducerStateManager();
    let offset = 0;
    for (let seq = 0; seq < 12; seq += 2) {
      const h = header(1, 0, seq, 2, offset);
      expect(m.checkLeaderAppend(h)).toBeNull();
      m.update(h);
      offset += 2;
    }
    // Batches at sequences 2..11 are the last five; 0-1 has been forgotten.
    expect(m.checkLeaderAppend(header(1, 0, 4, 2, 99))).toMatchObject({
      firstSeq: 4,
      lastSeq: 5,
      firstOffset: 4,
      lastOffset: 5,
    });
    expect(errorCodeOf(() => m.checkLeaderAppend(header(1, 0, 0, 2, 99)))).toBe('OUT_OF_ORDER_SEQUENCE_NUMBER');
    expect(m.entries()[0]?.batches.length).toBe(5);
  });

  it('fences an older producer epoch and makes a new epoch start at sequence 0', () => {
    const m = new ProducerStateManager();
    m.update(header(3, 2, 0, 1, 0));
    expect(errorCodeOf(() => m.checkLeaderAppend(header(3, 1, 1, 1, 1)))).toBe('INVALID_PRODUCER_EPOCH');
    expect(errorCodeOf(() => m.checkLeaderAppend(header(3, 3, 5, 1, 1)))).toBe('OUT_OF_ORDER_SEQUENCE_NUMBER');
    expect(m.checkLeaderAppend(header(3, 3, 0, 1, 1))).toBeNull();
  });

  it('wraps the sequence after Integer.MAX_VALUE', () => {
    const m = new ProducerStateManager();
    m.update(header(4, 0, 2147483646, 2, 0)); // sequences MAX-1, MAX
    expect(m.checkLeaderAppend(header(4, 0, 0, 1, 2))).toBeNull();
  });

  it('ignores non-idempotent batches and rebuilds from a log', () => {
    const m = new ProducerStateManager();
    expect(m.checkLeaderAppend(header(-1, -1, -1, 1, 0))).toBeNull();
    m.rebuild([header(9, 0, 0, 2, 0), header(9, 0, 2, 2, 2)]);
    expect(m.checkLeaderAppend(header(9, 0, 4, 1, 4))).toBeNull();
    expect(m.checkLeaderAppend(header(9, 0, 2, 2, 4))).toMatchObject({ firstOffset: 2 });
  });
});
