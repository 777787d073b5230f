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
 * A batch that fails for good (a non-retriable error) leaves a hole in its partition's
 * sequences. As Kafka's TransactionManager does for an idempotent producer, the producer then
 * bumps its epoch locally (same producer id, epoch + 1; bumpIdempotentProducerEpoch) and starts
 * that partition's sequences again at 0, rewriting the batches still unresolved there; the
 * broker takes a new epoch at sequence 0. Only an exhausted epoch asks for a new producer id.
 */
import { NO_SEQUENCE, type ProducerBatch } from './ProducerBatch';

export interface ProducerIdAndEpoch {
  producerId: number;
  epoch: number;
}

export class TransactionManager {
  producerIdAndEpoch: ProducerIdAndEpoch | null = null;
  /** Set when a batch failed for good after it may have been written: sequences need a fresh producer id. */
  resetRequired = false;
  private readonly nextSequence = new Map<string, number>();
  private readonly lastAckedSequence = new Map<string, number>();
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
    this.inflight.clear();
    this.partitionEpochs.clear();
    this.epochBumpRequired = false;
    this.partitionsToRewriteSequences.clear();
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
    for (const tp of tps) this.startSequencesAtBeginning(tp);
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

  handleCompletedBatch(tp: string, batch: ProducerBatch): void {
    const last = batch.baseSequence + batch.recordCount - 1;
    if (last > this.lastAcked(tp)) this.lastAckedSequence.set(tp, last);
    this.removeInFlightBatch(tp, batch);
  }

  /**
   * Whether a batch that came back with OUT_OF_ORDER_SEQUENCE_NUMBER may simply be retried:
   * yes if an earlier sequence is still unresolved (the gap is the earlier batch's, and it will
   * be resent first). If this batch is the very next one the broker should accept, the broker
   * lost our state and retrying cannot help.
   */
  canRetryOutOfOrder(tp: string, batch: ProducerBatch): boolean {
    // A batch renumbered by an epoch bump was refused under its old numbers: send it again.
    return batch.sequenceHasBeenReset || batch.baseSequence !== this.lastAcked(tp) + 1;
  }
}
