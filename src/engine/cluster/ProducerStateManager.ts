import type { ProducerSnapshotEntry, RecordBatchHeader } from '../codec';
import { KafkaError } from '../errors';

/**
 * Per-partition producer state for the idempotent producer (Kafka's ProducerStateManager):
 * for each producer id, its epoch and the metadata of its last five batches (Kafka keeps
 * NUM_BATCHES_TO_RETAIN = 5, which is why max.in.flight.requests.per.connection <= 5 keeps
 * idempotence exact).
 *
 * Rules applied to a leader append of a batch from producer P with epoch E, sequences [s, t]:
 *  - E below P's epoch: INVALID_PRODUCER_EPOCH (a zombie producer is fenced).
 *  - the same [s, t] is one of the five cached batches: a duplicate (a retry whose first try
 *    was written): not appended again, answered with the original offsets.
 *  - s must be the last sequence + 1 (or 0 for a new epoch), otherwise
 *    OUT_OF_ORDER_SEQUENCE_NUMBER: a gap means an earlier batch is missing, and accepting this
 *    one would reorder records.
 *  - a producer id with no state at all is accepted at any sequence (KIP-360): its earlier
 *    batches may simply have been deleted by retention.
 * Followers apply the same state without checks, so a new leader can keep deduplicating.
 */
export interface BatchMetadata {
  firstSeq: number;
  lastSeq: number;
  firstOffset: number;
  lastOffset: number;
  timestamp: number;
}

export interface ProducerStateEntry {
  producerId: number;
  producerEpoch: number;
  batches: BatchMetadata[];
}

export const NUM_BATCHES_TO_RETAIN = 5;

export class ProducerStateManager {
  private readonly producers = new Map<number, ProducerStateEntry>();

  /**
   * Checks a batch about to be appended by the leader. Returns the cached metadata if it is a
   * duplicate, null if it may be appended; throws the Kafka error otherwise.
   */
  checkLeaderAppend(h: RecordBatchHeader): BatchMetadata | null {
    if (h.producerId < 0) return null;
    const entry = this.producers.get(h.producerId);
    const lastSeq = h.baseSequence + h.lastOffsetDelta;
    // No state for this producer id (never seen, or its batches were all removed): any sequence
    // is accepted (KIP-360; ProducerAppendInfo.checkSequence with NO_PRODUCER_EPOCH).
    if (!entry) return null;
    if (h.producerEpoch < entry.producerEpoch)
      throw new KafkaError('INVALID_PRODUCER_EPOCH', `epoch ${h.producerEpoch} is older than ${entry.producerEpoch}`, {
        producerId: h.producerId,
      });
    if (h.producerEpoch > entry.producerEpoch) {
      if (h.baseSequence !== 0)
        throw new KafkaError('OUT_OF_ORDER_SEQUENCE_NUMBER', `new epoch ${h.producerEpoch} must start at sequence 0`, {
          producerId: h.producerId,
          expected: 0,
          received: h.baseSequence,
        });
      return null;
    }
    const dup = entry.batches.find((b) => b.firstSeq === h.baseSequence && b.lastSeq === lastSeq);
    if (dup) return { ...dup };
    const last = entry.batches[entry.batches.length - 1];
    const expected = last ? (last.lastSeq + 1) % 2147483648 : 0;
    if (h.baseSequence !== expected)
      throw new KafkaError(
        'OUT_OF_ORDER_SEQUENCE_NUMBER',
        `out of order sequence: expected ${expected}, got ${h.baseSequence}`,
        {
          producerId: h.producerId,
          expected,
          received: h.baseSequence,
        },
      );
    return null;
  }

  /** Records an appended batch (leader or follower). */
  update(h: RecordBatchHeader): void {
    if (h.producerId < 0) return;
    let entry = this.producers.get(h.producerId);
    if (!entry || h.producerEpoch > entry.producerEpoch) {
      entry = { producerId: h.producerId, producerEpoch: h.producerEpoch, batches: [] };
      this.producers.set(h.producerId, entry);
    }
    entry.batches.push({
      firstSeq: h.baseSequence,
      lastSeq: h.baseSequence + h.lastOffsetDelta,
      firstOffset: h.baseOffset,
      lastOffset: h.lastOffset,
      timestamp: h.maxTimestamp,
    });
    if (entry.batches.length > NUM_BATCHES_TO_RETAIN) entry.batches.shift();
  }

  /** Rebuilds the state from the log's batches (after truncation or on load). */
  rebuild(headers: readonly RecordBatchHeader[]): void {
    this.producers.clear();
    for (const h of headers) this.update(h);
  }

  /**
   * ProducerStateManager.writeSnapshot's entries: per producer (by id), its epoch and last batch;
   * no coordinator epoch and no ongoing transaction (glassbox has no transactions).
   */
  snapshotEntries(): ProducerSnapshotEntry[] {
    const out: ProducerSnapshotEntry[] = [];
    for (const e of this.entries()) {
      const last = e.batches[e.batches.length - 1];
      if (!last) continue;
      out.push({
        producerId: e.producerId,
        producerEpoch: e.producerEpoch,
        lastSequence: last.lastSeq,
        lastOffset: last.lastOffset,
        offsetDelta: last.lastOffset - last.firstOffset,
        timestamp: last.timestamp,
        coordinatorEpoch: -1,
        currentTxnFirstOffset: -1,
      });
    }
    return out;
  }

  /**
   * ProducerStateManager.loadFromSnapshot: the state is the snapshot's, less the producers
   * already expired at `now` (each keeps just its last batch, as Kafka's snapshot does).
   */
  loadSnapshot(entries: readonly ProducerSnapshotEntry[], now: number, expirationMs: number): void {
    this.producers.clear();
    for (const s of entries) {
      if (now - s.timestamp >= expirationMs) continue;
      const batches: BatchMetadata[] =
        s.lastOffset >= 0
          ? [
              {
                firstSeq:
                  s.lastSequence - s.offsetDelta < 0
                    ? s.lastSequence - s.offsetDelta + 2147483648
                    : s.lastSequence - s.offsetDelta,
                lastSeq: s.lastSequence,
                firstOffset: s.lastOffset - s.offsetDelta,
                lastOffset: s.lastOffset,
                timestamp: s.timestamp,
              },
            ]
          : [];
      this.producers.set(s.producerId, { producerId: s.producerId, producerEpoch: s.producerEpoch, batches });
    }
  }

  /**
   * ProducerStateManager.removeExpiredProducers: forgets every producer whose last batch is at
   * least producer.id.expiration.ms old (none is in a transaction here). Returns their ids.
   */
  removeExpiredProducers(now: number, expirationMs: number): number[] {
    const removed: number[] = [];
    for (const [id, e] of this.producers) {
      const last = e.batches[e.batches.length - 1];
      if (last && now - last.timestamp >= expirationMs) removed.push(id);
    }
    for (const id of removed) this.producers.delete(id);
    return removed.sort((a, b) => a - b);
  }

  entries(): ProducerStateEntry[] {
    return [...this.producers.values()]
      .sort((a, b) => a.producerId - b.producerId)
      .map((e) => ({ ...e, batches: e.batches.map((b) => ({ ...b })) }));
  }
}
