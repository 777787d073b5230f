import { tpKey } from '../TopicPartition';
/**
 * The bridge between the application and the Sender (Kafka's RecordAccumulator), as the seeds
 * draw it: `send()` only appends a record to the last open batch of its partition's queue; the
 * Sender, separately, asks which leaders have batches worth sending (`ready`) and takes them
 * (`drain`), one batch per partition per request, up to max.request.size.
 *
 * A batch is sendable when it is full (no room for another record, or a newer batch already
 * queues behind it) or when it has lingered `linger.ms` since creation; a batch that came back
 * for a retry waits after its last attempt, exponentially longer per attempt (KIP-580:
 * `retry.backoff.ms` doubling up to `retry.backoff.max.ms`, +/-20 % jitter). A batch older than
 * `delivery.timeout.ms` expires. With max.in.flight.requests.per.connection = 1 a partition is
 * muted while it has a request in flight, which is Kafka's classic way to keep order.
 */
import { ExponentialBackoff, RETRY_BACKOFF_EXP_BASE, RETRY_BACKOFF_JITTER } from '../ExponentialBackoff';
import { Rng } from '../Rng';
import { MAX_IN_FLIGHT_FOR_IDEMPOTENCE, type ProducerConfig } from './ProducerConfig';
import type { ProducerEventSink, WantedEventType } from './events';
import { BufferPool } from './BufferPool';
import { estimateSizeInBytesUpperBound, firstBufferSize, type PendingRecord, ProducerBatch } from './ProducerBatch';
import type { ProducerMetadata } from './ProducerMetadata';
import type { TransactionManager } from './TransactionManager';

export interface ReadyCheckResult {
  readyNodes: Set<number>;
  /** ms until some not-yet-ready batch may become ready (Infinity if none). */
  nextReadyCheckDelayMs: number;
  /**
   * The same moment as an absolute time: the Sender wakes at it. Kafka's clock counts whole
   * milliseconds, ours may not (a 1000 ms session timeout gives heartbeats every 333.33 ms), and
   * `now + (readyAt - now)` can round back to `now`: a wake-up that finds the batch still backing
   * off, forever. Waking at `readyAt` itself, compared with the same `now < readyAt`, cannot.
   */
  nextReadyCheckMs: number;
  unknownLeaderTopics: Set<string>;
}

interface PartitionQueue {
  topic: string;
  partition: number;
  key: string;
  batches: ProducerBatch[];
}

export class RecordAccumulator {
  private readonly queues = new Map<string, PartitionQueue>();
  /** The same queues by topic then partition: the append path avoids building a key string. */
  private readonly byTopic = new Map<string, PartitionQueue[]>();
  private readonly muted = new Set<string>();
  private readonly drainIndex = new Map<number, number>();
  /** NodeLatencyStats per leader: when it last had data ready, and when it last could drain it. */
  private readonly nodeStats = new Map<number, { readyTimeMs: number; drainTimeMs: number }>();
  private nextBatchId = 1;
  /** Batch buffers (Kafka's RecordAccumulator.free). */
  readonly free: BufferPool;
  /** The producer is closing: every batch is sendable at once, lingering no more. */
  private closing = false;
  /**
   * Told each topic's queue lengths at every readiness check (partitionReady's queueSizes, for
   * BuiltInPartitioner.updatePartitionLoadStats): null when adaptive partitioning is off or some
   * partition has had no batch yet.
   */
  onPartitionLoad:
    | ((topic: string, queueSizes: number[] | null, partitionIds: number[], length: number) => void)
    | null = null;

  constructor(
    private readonly producer: string,
    private readonly config: ProducerConfig,
    private readonly emit: ProducerEventSink,
    private readonly transactionManager: TransactionManager | null,
    /** Whether anyone takes an event type: recordAppended (one per record) is skipped if not. */
    private readonly wants: (type: WantedEventType) => boolean = () => true,
    /** Draws the retry backoff's jitter. */
    rng: Rng = new Rng(0),
  ) {
    this.retryBackoff = new ExponentialBackoff(
      config.retryBackoffMs,
      RETRY_BACKOFF_EXP_BASE,
      config.retryBackoffMaxMs,
      RETRY_BACKOFF_JITTER,
      rng,
    );
    this.free = new BufferPool(firstBufferSize(config.batchSize), config.bufferMemory);
  }

  /** A done batch's buffer goes back to the pool (RecordAccumulator.deallocate); see BufferPool. */
  deallocate(batch: ProducerBatch): void {
    const buffer = batch.releaseBuffer();
    if (buffer) this.free.deallocate(buffer);
  }

  private queue(topic: string, partition: number): PartitionQueue {
    let list = this.byTopic.get(topic);
    if (!list) this.byTopic.set(topic, (list = []));
    let q = list[partition];
    if (!q) {
      const key = tpKey(topic, partition);
      q = { topic, partition, key, batches: [] };
      list[partition] = q;
      this.queues.set(key, q);
    }
    return q;
  }

  /** Whether the partition's last open batch can take this record (else append opens a new batch). */
  hasRoomFor(topic: string, partition: number, record: PendingRecord): boolean {
    const q = this.byTopic.get(topic)?.[partition];
    const last = q?.batches[q.batches.length - 1];
    return last?.hasRoomFor(record) === true;
  }

  /**
   * Whether the partition's last batch is full or closed, or it has none (RecordAccumulator.allBatchesFull):
   * the built-in partitioner only switches away from a partition at a batch boundary.
   */
  allBatchesFull(topic: string, partition: number): boolean {
    const q = this.byTopic.get(topic)?.[partition];
    const last = q?.batches[q.batches.length - 1];
    return last === undefined || last.isFull();
  }

  /**
   * Closes the partition's last batch for appends if this record will not fit in it, as
   * RecordAccumulator.tryAppend does before opening a new one (closeForRecordAppends); the
   * built-in partitioner then sees all batches full and may complete a held-back switch.
   */
  closeIfNoRoom(topic: string, partition: number, record: PendingRecord, now: number): void {
    const q = this.byTopic.get(topic)?.[partition];
    const last = q?.batches[q.batches.length - 1];
    if (last && last.state === 'open' && !last.hasRoomFor(record)) this.seal(last, 'full', now);
  }

  /**
   * How much the last append grew its batch (RecordAppendResult.appendedBytes): the record, plus
   * the batch header when it opened a new batch.
   */
  lastAppendedBytes = 0;

  private readonly retryBackoff: ExponentialBackoff;
  /**
   * Whether the last drain() left a batch behind because its own backoff draw was longer than the
   * one ready() drew: the Sender then checks again at once (Kafka: pollTimeout 0 while nodes are ready).
   */
  drainBackedOff = false;

  /**
   * Appends a record to its partition's last open batch, opening a new batch when it does not
   * fit; returns the batch it went into (the recordAppended event says whether it is new).
   */
  append(topic: string, partition: number, record: PendingRecord, now: number): ProducerBatch {
    const q = this.queue(topic, partition);
    const last = q.batches[q.batches.length - 1];
    if (last && last.state === 'open') {
      const bytes = last.tryAppend(record);
      if (bytes > 0) {
        this.lastAppendedBytes = bytes;
        this.appended(last, record, bytes, false, now);
        return last;
      }
      this.seal(last, 'full', now);
    }
    // RecordAccumulator.append: the buffer holds batch.size or the first record's upper bound.
    const size = Math.max(
      this.config.batchSize,
      estimateSizeInBytesUpperBound(record.key, record.value, record.headers),
    );
    const batch = new ProducerBatch(this.nextBatchId++, topic, partition, now, size, this.free);
    const bytes = batch.tryAppend(record); // the first record always fits
    q.batches.push(batch);
    this.lastAppendedBytes = batch.sizeInBytes;
    this.appended(batch, record, bytes, true, now);
    return batch;
  }

  private appended(batch: ProducerBatch, record: PendingRecord, bytes: number, newBatch: boolean, now: number): void {
    if (!this.wants('recordAppended')) return;
    this.emit({
      type: 'recordAppended',
      producer: this.producer,
      sendId: record.sendId,
      topic: batch.topic,
      partition: batch.partition,
      batchId: batch.id,
      bytes,
      batchBytes: batch.sizeInBytes,
      batchRecords: batch.recordCount,
      newBatch,
      atMs: now,
    });
  }

  private seal(batch: ProducerBatch, reason: 'full' | 'linger', now: number): void {
    batch.state = 'closed';
    if (!this.wants('batchSealed')) return;
    this.emit({
      type: 'batchSealed',
      producer: this.producer,
      batchId: batch.id,
      topic: batch.topic,
      partition: batch.partition,
      reason,
      records: batch.recordCount,
      bytes: batch.sizeInBytes,
      atMs: now,
    });
  }

  /**
   * RecordAccumulator.shouldBackoff: whether a retried batch is still inside its retry backoff,
   * with the jitter drawn anew at every check (retryBackoff.backoff(attempts - 1)). A retry bound
   * for a newer leader epoch than its last attempt goes at once: the old leader's trouble is not
   * the new one's (ProducerBatch.hasLeaderChangedForTheOngoingRetry).
   */
  private backingOff(batch: ProducerBatch, metadata: ProducerMetadata, now: number): boolean {
    batch.maybeUpdateLeaderEpoch(metadata.leaderEpochFor(batch.topic, batch.partition));
    if (batch.hasLeaderChangedForTheOngoingRetry()) return false;
    return batch.attempts > 0 && now - batch.lastAttemptMs < this.retryBackoff.backoff(batch.attempts - 1);
  }

  /** Which leaders have a sendable batch, and when to look again (RecordAccumulator.ready). */
  ready(metadata: ProducerMetadata, now: number): ReadyCheckResult {
    const readyNodes = new Set<number>();
    const unknownLeaderTopics = new Set<string>();
    let nextReadyCheckMs = Number.POSITIVE_INFINITY;
    for (const q of this.queues.values()) {
      const batch = q.batches[0];
      if (!batch) continue;
      const key = q.key;
      const leader = metadata.leaderFor(q.topic, q.partition);
      if (leader === null) {
        batch.maybeUpdateLeaderEpoch(metadata.leaderEpochFor(q.topic, q.partition));
        unknownLeaderTopics.add(q.topic);
        continue;
      }
      if (readyNodes.has(leader) || this.muted.has(key)) continue;
      const backingOff = this.backingOff(batch, metadata, now);
      // Kafka: waited = now - lastAttempt, sendable once waited >= (backing off ? the retry
      // backoff : linger.ms). The same test on the absolute moment it becomes true:
      // partitionReady draws the backoff again for timeToWaitMs.
      const readyAtMs =
        batch.lastAttemptMs + (backingOff ? this.retryBackoff.backoff(batch.attempts - 1) : this.config.lingerMs);
      const full = q.batches.length > 1 || batch.isFull() || this.closing;
      const expired = now >= readyAtMs;
      if ((full || expired) && !backingOff) readyNodes.add(leader);
      else nextReadyCheckMs = Math.min(nextReadyCheckMs, readyAtMs);
    }
    if (this.onPartitionLoad) this.reportPartitionLoad(metadata, this.onPartitionLoad);
    const nextReadyCheckDelayMs = Math.max(0, nextReadyCheckMs - now);
    return { readyNodes, nextReadyCheckDelayMs, nextReadyCheckMs, unknownLeaderTopics };
  }

  /**
   * RecordAccumulator.partitionReady's queue sizes, per topic: once every partition has a queue
   * (an entry in the batches map), the length of each one with a leader, in partition order; an
   * empty queue counts 0.
   */
  private reportPartitionLoad(
    metadata: ProducerMetadata,
    report: NonNullable<RecordAccumulator['onPartitionLoad']>,
  ): void {
    for (const [topic, list] of this.byTopic) {
      let count = 0;
      for (const q of list) if (q !== undefined) count++;
      const numPartitions = metadata.view(topic)?.numPartitions ?? Number.POSITIVE_INFINITY;
      if (!this.config.adaptivePartitioning || count < numPartitions) {
        report(topic, null, [], 0);
        continue;
      }
      const sizes = new Array<number>(count).fill(0);
      const ids = new Array<number>(count).fill(0);
      // partitionReady's queueSizesIndex: an empty queue keeps whatever its slot holds, and a
      // partition whose leader has not drained for partitioner.availability.timeout.ms gives its
      // slot to the next one (Kafka's exact walk, leftovers included).
      let index = -1;
      const timeout = this.config.partitionAvailabilityTimeoutMs;
      for (const q of list) {
        if (q === undefined) continue;
        const leader = metadata.leaderFor(topic, q.partition);
        if (leader === null) continue;
        index++;
        ids[index] = q.partition;
        if (q.batches.length === 0) continue;
        sizes[index] = q.batches.length;
        const stats = timeout > 0 ? this.nodeStats.get(leader) : undefined;
        if (stats && stats.readyTimeMs - stats.drainTimeMs > timeout) index--;
      }
      const length = index + 1;
      report(topic, sizes, ids, length);
    }
  }

  /**
   * RecordAccumulator.updateNodeLatencyStats, from the Sender's readiness loop: a ready leader the
   * Sender can send to (`canDrain`) resets its latency; one it cannot only moves its ready time.
   */
  updateNodeLatencyStats(node: number, now: number, canDrain: boolean): void {
    if (this.config.partitionAvailabilityTimeoutMs <= 0) return;
    let stats = this.nodeStats.get(node);
    if (!stats) {
      stats = { readyTimeMs: now, drainTimeMs: now };
      this.nodeStats.set(node, stats);
    }
    if (canDrain) stats.drainTimeMs = now;
    stats.readyTimeMs = now;
  }

  /**
   * Takes, for each ready leader, at most one batch per partition it leads, rotating the start
   * partition between calls so no partition starves (RecordAccumulator.drain). Idempotent
   * batches get their sequence here, the first time they leave.
   */
  drain(metadata: ProducerMetadata, readyNodes: Iterable<number>, now: number): Map<number, ProducerBatch[]> {
    const out = new Map<number, ProducerBatch[]>();
    this.drainBackedOff = false;
    for (const node of readyNodes) {
      const parts: PartitionQueue[] = [];
      for (const q of this.queues.values()) if (metadata.leaderFor(q.topic, q.partition) === node) parts.push(q);
      if (parts.length === 0) continue;
      const ready: ProducerBatch[] = [];
      let size = 0;
      const start = (this.drainIndex.get(node) ?? 0) % parts.length;
      for (let i = 0; i < parts.length; i++) {
        const q = parts[(start + i) % parts.length] as PartitionQueue;
        const key = q.key;
        this.drainIndex.set(node, (start + i + 1) % parts.length);
        if (this.muted.has(key)) continue;
        const first = q.batches[0];
        if (!first) continue;
        if (this.backingOff(first, metadata, now)) {
          this.drainBackedOff = true;
          continue;
        }
        if (size + first.sizeInBytes > this.config.maxRequestSize && ready.length > 0) break;
        if (this.shouldStopDrainBatchesForPartition(first, key)) break;
        q.batches.shift();
        if (first.state === 'open') {
          this.seal(first, first.isFull() ? 'full' : 'linger', now);
        }
        const tm = this.transactionManager;
        if (tm && !first.hasSequence()) {
          tm.maybeUpdateProducerIdAndEpoch(key);
          tm.assignSequence(key, first);
        }
        if (tm) tm.addInFlightBatch(key, first);
        first.state = 'in-flight';
        size += first.sizeInBytes;
        ready.push(first);
      }
      if (ready.length > 0) out.set(node, ready);
    }
    return out;
  }

  private shouldStopDrainBatchesForPartition(first: ProducerBatch, key: string): boolean {
    const tm = this.transactionManager;
    if (!tm) return false;
    if (!tm.hasProducerId()) return true;
    // The broker remembers only the last 5 batches per producer for duplicate detection, so no
    // more than 5 unresolved batches per partition, whichever connections they travel on.
    if (!first.hasSequence() && tm.inFlightCount(key) >= MAX_IN_FLIGHT_FOR_IDEMPOTENCE) return true;
    // No new batch under the new epoch while batches of the old one are unresolved here.
    if (!first.hasSequence() && tm.inFlightCount(key) > 0 && tm.hasStaleProducerIdAndEpoch(key)) return true;
    // No new batch while an expired batch's fate is unknown (hasUnresolvedSequence).
    if (!first.hasSequence() && tm.hasUnresolvedSequence(key)) return true;
    // A retried batch must not overtake an earlier batch that is still in flight.
    const firstInFlight = tm.firstInFlightSequence(key);
    return firstInFlight !== -1 && first.hasSequence() && first.baseSequence !== firstInFlight;
  }

  /** Puts a batch back for a retry, in sequence order among retried batches (insertInSequenceOrder). */
  reenqueue(batch: ProducerBatch, now: number): void {
    batch.attempts++;
    batch.lastAttemptMs = now;
    // The wait without jitter, for the retry event; the readiness checks draw their own.
    batch.retryBackoffMs = this.retryBackoff.term(batch.attempts - 1);
    batch.state = 'closed';
    this.putBack(batch);
  }

  /** At the head of its queue, or, with a sequence, before the first queued batch after it (insertInSequenceOrder). */
  private putBack(batch: ProducerBatch): void {
    const q = this.queue(batch.topic, batch.partition);
    if (!batch.hasSequence()) {
      q.batches.unshift(batch);
      return;
    }
    let i = 0;
    while (i < q.batches.length) {
      const b = q.batches[i] as ProducerBatch;
      if (!b.hasSequence() || b.baseSequence > batch.baseSequence) break;
      i++;
    }
    q.batches.splice(i, 0, batch);
  }

  /**
   * Splits a batch the broker refused as too large into batches of up to batch.size bytes and
   * puts them back at the head of the queue, in order (Kafka's RecordAccumulator.splitAndReenqueue
   * over ProducerBatch.split(batchSize)). The parts count as never tried: no retry is used up and
   * no backoff is waited. Idempotent parts keep the original's sequence range.
   */
  splitAndReenqueue(batch: ProducerBatch): ProducerBatch[] {
    const parts = batch.split(this.config.batchSize, () => this.nextBatchId++);
    const tm = this.transactionManager;
    const key = tpKey(batch.topic, batch.partition);
    if (tm && batch.hasSequence()) {
      tm.removeInFlightBatch(key, batch);
      for (const b of parts) tm.addInFlightBatch(key, b);
    }
    for (const b of [...parts].reverse()) this.putBack(b);
    return parts;
  }

  beginClose(): void {
    this.closing = true;
  }

  /** Takes every queued batch out (a forced close fails them). */
  abortIncompleteBatches(): ProducerBatch[] {
    const out: ProducerBatch[] = [];
    for (const q of this.queues.values()) out.push(...q.batches.splice(0));
    return out;
  }

  /** Removes and returns queued batches older than delivery.timeout.ms. */
  expiredBatches(now: number): ProducerBatch[] {
    const expired: ProducerBatch[] = [];
    for (const q of this.queues.values()) {
      while (q.batches.length > 0) {
        const b = q.batches[0] as ProducerBatch;
        if (!b.hasReachedDeliveryTimeout(this.config.deliveryTimeoutMs, now)) break;
        q.batches.shift();
        expired.push(b);
      }
    }
    return expired;
  }

  /** When the oldest queued batch will expire (Infinity if none). */
  nextExpiryMs(): number {
    let next = Number.POSITIVE_INFINITY;
    for (const q of this.queues.values()) {
      const b = q.batches[0];
      if (b) next = Math.min(next, b.createdMs + this.config.deliveryTimeoutMs);
    }
    return next;
  }

  mutePartition(topic: string, partition: number): void {
    this.muted.add(tpKey(topic, partition));
  }

  unmutePartition(topic: string, partition: number): void {
    this.muted.delete(tpKey(topic, partition));
  }

  /** Clears the sequence of every queued batch (after the producer id was reset). */
  resetSequences(): void {
    for (const q of this.queues.values()) {
      for (const b of q.batches) {
        b.baseSequence = -1;
        b.producerId = -1;
        b.producerEpoch = -1;
      }
    }
  }

  hasUndrained(): boolean {
    for (const q of this.queues.values()) if (q.batches.length > 0) return true;
    return false;
  }

  /** A snapshot of the queues for the UI and tests. */
  snapshot(): {
    topic: string;
    partition: number;
    batches: { id: number; records: number; bytes: number; state: string }[];
  }[] {
    return [...this.queues.values()]
      .filter((q) => q.batches.length > 0)
      .map((q) => ({
        topic: q.topic,
        partition: q.partition,
        batches: q.batches.map((b) => ({ id: b.id, records: b.recordCount, bytes: b.sizeInBytes, state: b.state })),
      }));
  }
}
