/**
 * The idempotent producer's bookkeeping (the idempotence half of Kafka's TransactionManager).
 *
 * The broker gives the producer an id and epoch (InitProducerId). Every batch then carries
 * (producerId, producerEpoch, baseSequence), where sequences count records per partition from 0.
 * The leader accepts a batch only if its baseSequence is exactly one past the last sequence it
 * holds for that producer; a batch it already holds is answered as a duplicate, a gap is
 * OUT_OF_ORDER_SEQUENCE_NUMBER. So a retry can never be written twice, and a later batch can
 * never overtake an earlier one that failed: ordering and exactly-once append per partition
 * with up to 5 requests in flight.
 *
 * Client side this means: a sequence is fixed the first time a batch is drained and kept on
 * retries; retried batches go back into the queue in sequence order; a retried batch is only
 * sent again once it is the first one in flight for its partition.
 *
 * A hole in a partition's sequences is mended as Kafka 3.9's TransactionManager does for an
 * idempotent producer: the producer bumps its epoch locally (same producer id, epoch + 1;
 * bumpIdempotentProducerEpoch) and starts that partition's sequences again at 0, rewriting the
 * batches still unresolved there; the broker takes a new epoch at sequence 0. It bumps for a
 * batch refused for good with retries left, for OUT_OF_ORDER_SEQUENCE_NUMBER on the batch next in
 * line (the leader lost this producer's state), for UNKNOWN_PRODUCER_ID, and for a partition left
 * unresolved: a batch that expired after it was sent may or may not be in the log, so nothing new
 * is drained there until every batch in flight has come back; if the last acknowledged sequence
 * then does not reach the partition's next one, the epoch is bumped (maybeResolveSequences).
 * Only an exhausted epoch asks for a new producer id.
 */
import { NO_SEQUENCE, type ProducerBatch } from './ProducerBatch';

import type { ErrorCode } from '../cluster/requests';

export interface ProducerIdAndEpoch {
  producerId: number;
  epoch: number;
}

export class TransactionManager {
  producerIdAndEpoch: ProducerIdAndEpoch | null = null;
  /** Set when the epoch is exhausted (resetIdempotentProducerId): the next sender pass asks for a new producer id. */
  resetRequired = false;
  private readonly nextSequence = new Map<string, number>();
  private readonly lastAckedSequence = new Map<string, number>();
  /** The last offset the broker acknowledged per partition (TxnPartitionEntry.lastAckedOffset). */
  private readonly lastAckedOffsets = new Map<string, number>();
  /**
   * Partitions where a batch expired after it was sent, with the sequence that would follow it
   * (partitionsWithUnresolvedSequences): whether the broker holds it is unknown until the
   * partition's other batches in flight come back.
   */
  private readonly partitionsWithUnresolvedSequences = new Map<string, number>();
  /** In-flight batches per partition, sorted by baseSequence. */
  private readonly inflight = new Map<string, ProducerBatch[]>();
  /** The producer id and epoch each partition's sequences belong to (TxnPartitionEntry.producerIdAndEpoch). */
  private readonly partitionEpochs = new Map<string, ProducerIdAndEpoch>();
  private epochBumpRequired = false;
  private readonly partitionsToRewriteSequences = new Set<string>();

  hasProducerId(): boolean {
    return this.producerIdAndEpoch !== null && !this.resetRequired;
  }

  setProducerIdAndEpoch(pid: ProducerIdAndEpoch): void {
    this.producerIdAndEpoch = pid;
    this.resetRequired = false;
    this.nextSequence.clear();
    this.lastAckedSequence.clear();
    this.lastAckedOffsets.clear();
    this.inflight.clear();
    this.partitionEpochs.clear();
    this.epochBumpRequired = false;
    this.partitionsToRewriteSequences.clear();
    this.partitionsWithUnresolvedSequences.clear();
  }

  /** A batch of this partition failed for good: bump the epoch at the next sender pass (requestEpochBumpForPartition). */
  requestEpochBumpForPartition(tp: string): void {
    this.epochBumpRequired = true;
    this.partitionsToRewriteSequences.add(tp);
  }

  /**
   * Run by the sender before it drains (bumpIdempotentEpochAndResetIdIfNeeded): epoch + 1 under
   * the same producer id, or, with the epoch at Short.MAX_VALUE, a new InitProducerId. Returns
   * the new id and epoch if it bumped.
   */
  bumpIdempotentEpochIfNeeded(): ProducerIdAndEpoch | null {
    const pid = this.producerIdAndEpoch;
    if (!this.epochBumpRequired || !pid) return null;
    this.epochBumpRequired = false;
    const tps = [...this.partitionsToRewriteSequences];
    this.partitionsToRewriteSequences.clear();
    if (pid.epoch >= 32767) {
      this.resetRequired = true; // resetIdempotentProducerId
      return null;
    }
    const bumped = { producerId: pid.producerId, epoch: pid.epoch + 1 };
    this.producerIdAndEpoch = bumped;
    for (const tp of tps) {
      this.startSequencesAtBeginning(tp);
      this.partitionsWithUnresolvedSequences.delete(tp);
    }
    return bumped;
  }

  /**
   * Renumbers the partition's unresolved batches from 0 under the current epoch and forgets its
   * last acknowledged sequence (TxnPartitionEntry.startSequencesAtBeginning).
   */
  private startSequencesAtBeginning(tp: string): void {
    const pid = this.producerIdAndEpoch;
    if (!pid) return;
    let sequence = 0;
    for (const b of this.inflight.get(tp) ?? []) {
      b.producerId = pid.producerId;
      b.producerEpoch = pid.epoch;
      b.baseSequence = sequence;
      b.sequenceHasBeenReset = true;
      sequence += b.recordCount;
    }
    this.partitionEpochs.set(tp, pid);
    this.nextSequence.set(tp, sequence);
    this.lastAckedSequence.delete(tp);
  }

  /** Whether the partition's sequences belong to an older epoch than the producer's (hasStaleProducerIdAndEpoch). */
  hasStaleProducerIdAndEpoch(tp: string): boolean {
    const pid = this.producerIdAndEpoch;
    const own = this.partitionEpochs.get(tp);
    return pid !== null && own !== undefined && (own.producerId !== pid.producerId || own.epoch !== pid.epoch);
  }

  /**
   * Once a stale partition has nothing in flight, its next batch starts at sequence 0 under the
   * current epoch (maybeUpdateProducerIdAndEpoch).
   */
  maybeUpdateProducerIdAndEpoch(tp: string): void {
    if (this.hasStaleProducerIdAndEpoch(tp) && this.inFlightCount(tp) === 0) this.startSequencesAtBeginning(tp);
  }

  sequenceNumber(tp: string): number {
    return this.nextSequence.get(tp) ?? 0;
  }

  /** Stamps a batch with the producer id, epoch and the partition's next sequence. */
  assignSequence(tp: string, batch: ProducerBatch): void {
    const pid = this.producerIdAndEpoch;
    if (!pid) throw new Error('no producer id');
    batch.producerId = pid.producerId;
    batch.producerEpoch = pid.epoch;
    batch.baseSequence = this.sequenceNumber(tp);
    if (!this.partitionEpochs.has(tp)) this.partitionEpochs.set(tp, pid);
    // Sequences are int32 and wrap (DefaultRecordBatch.incrementSequence).
    this.nextSequence.set(tp, (batch.baseSequence + batch.recordCount) % 2147483648);
  }

  addInFlightBatch(tp: string, batch: ProducerBatch): void {
    let list = this.inflight.get(tp);
    if (!list) this.inflight.set(tp, (list = []));
    if (list.includes(batch)) return;
    list.push(batch);
    list.sort((a, b) => a.baseSequence - b.baseSequence);
  }

  removeInFlightBatch(tp: string, batch: ProducerBatch): void {
    const list = this.inflight.get(tp);
    if (!list) return;
    const i = list.indexOf(batch);
    if (i >= 0) list.splice(i, 1);
  }

  inFlightCount(tp: string): number {
    return this.inflight.get(tp)?.length ?? 0;
  }

  firstInFlightSequence(tp: string): number {
    return this.inflight.get(tp)?.[0]?.baseSequence ?? NO_SEQUENCE;
  }

  lastAcked(tp: string): number {
    return this.lastAckedSequence.get(tp) ?? -1;
  }

  /** `baseOffset` -1 when the broker named no offset (a duplicate): the last acked offset stays. */
  handleCompletedBatch(tp: string, batch: ProducerBatch, baseOffset = -1): void {
    const last = batch.baseSequence + batch.recordCount - 1;
    if (last > this.lastAcked(tp)) this.lastAckedSequence.set(tp, last);
    if (baseOffset >= 0) {
      const lastOffset = baseOffset + batch.recordCount - 1;
      if (lastOffset > (this.lastAckedOffsets.get(tp) ?? -1)) this.lastAckedOffsets.set(tp, lastOffset);
    }
    this.removeInFlightBatch(tp, batch);
  }

  hasUnresolvedSequence(tp: string): boolean {
    return this.partitionsWithUnresolvedSequences.has(tp);
  }

  hasUnresolvedSequences(): boolean {
    return this.partitionsWithUnresolvedSequences.size > 0;
  }

  /** An expired batch that had been sent: its partition waits to learn whether it was written (markSequenceUnresolved). */
  markSequenceUnresolved(tp: string, batch: ProducerBatch): void {
    const next = batch.baseSequence + batch.recordCount;
    this.partitionsWithUnresolvedSequences.set(
      tp,
      Math.max(this.partitionsWithUnresolvedSequences.get(tp) ?? next, next),
    );
  }

  /**
   * Run at the start of every sender pass (maybeResolveSequences): an unresolved partition with
   * nothing in flight is resolved if the broker acknowledged everything up to its next sequence
   * (a later batch succeeded, so the expired one was written); otherwise its epoch is bumped.
   */
  maybeResolveSequences(): void {
    for (const tp of [...this.partitionsWithUnresolvedSequences.keys()]) {
      if (this.inFlightCount(tp) > 0) continue;
      if (!this.isNextSequence(tp, this.sequenceNumber(tp))) this.requestEpochBumpForPartition(tp);
      this.partitionsWithUnresolvedSequences.delete(tp);
    }
  }

  private isNextSequence(tp: string, sequence: number): boolean {
    return sequence - this.lastAcked(tp) === 1;
  }

  private isNextSequenceForUnresolvedPartition(tp: string, sequence: number): boolean {
    return this.partitionsWithUnresolvedSequences.get(tp) === sequence;
  }

  /**
   * TransactionManager.canRetry for an idempotent producer: whether a batch refused with
   * UNKNOWN_PRODUCER_ID or OUT_OF_ORDER_SEQUENCE_NUMBER is sent again, requesting an epoch bump
   * where the refusal shows a real gap. Null for any other error (retriable or not decides).
   */
  canRetry(tp: string, batch: ProducerBatch, error: ErrorCode, logStartOffset: number): boolean | null {
    if (error === 'UNKNOWN_PRODUCER_ID') {
      // Without the log start offset nothing can be told yet; a renumbered batch was refused
      // under its old numbers. Otherwise the broker lost our state (retention removed the head
      // of the log, or not): a new epoch starts the partition at sequence 0.
      if (logStartOffset === -1 || batch.sequenceHasBeenReset) return true;
      this.requestEpochBumpForPartition(tp);
      return true;
    }
    if (error === 'OUT_OF_ORDER_SEQUENCE_NUMBER') {
      // Not the next batch: the gap is an earlier batch's, which is resent first.
      if (
        !this.hasUnresolvedSequence(tp) &&
        (batch.sequenceHasBeenReset || !this.isNextSequence(tp, batch.baseSequence))
      )
        return true;
      // The next batch itself, or the one right after an unresolved sequence: a real gap.
      if (!this.hasUnresolvedSequence(tp) || this.isNextSequenceForUnresolvedPartition(tp, batch.baseSequence))
        this.requestEpochBumpForPartition(tp);
      return true;
    }
    return null;
  }

  /**
   * A batch failed for good (handleFailedBatch). OUT_OF_ORDER_SEQUENCE_NUMBER leaves a gap in the
   * log: bump. UNKNOWN_PRODUCER_ID: the broker has no state, so the partition starts at 0. Any
   * other error bumps only if the batch had retries left (`adjustSequenceNumbers`): after the
   * last retry nobody knows whether the broker wrote it.
   */
  handleFailedBatch(tp: string, batch: ProducerBatch, error: ErrorCode, adjustSequenceNumbers: boolean): void {
    this.removeInFlightBatch(tp, batch);
    if (error === 'OUT_OF_ORDER_SEQUENCE_NUMBER') this.requestEpochBumpForPartition(tp);
    else if (error === 'UNKNOWN_PRODUCER_ID') this.resetSequenceForPartition(tp);
    else if (adjustSequenceNumbers) this.requestEpochBumpForPartition(tp);
  }

  /** Forgets a partition's sequences (resetSequenceForPartition): its next batch starts at 0. */
  private resetSequenceForPartition(tp: string): void {
    this.nextSequence.delete(tp);
    this.lastAckedSequence.delete(tp);
    this.lastAckedOffsets.delete(tp);
    this.inflight.delete(tp);
    this.partitionEpochs.delete(tp);
    this.partitionsWithUnresolvedSequences.delete(tp);
  }
}
