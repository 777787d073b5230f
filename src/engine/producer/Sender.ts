/**
 * The Sender: the producer's I/O side (Kafka's Sender thread), distinct from the application
 * side that only appends to the RecordAccumulator. Each run it
 *   1. gets a producer id first if the producer is idempotent (InitProducerId);
 *   2. refreshes metadata when asked to or when it is older than metadata.max.age.ms;
 *   3. asks the accumulator which leaders have sendable batches, drains them into one
 *      ProduceRequest per leader, as long as that leader has fewer than
 *      max.in.flight.requests.per.connection requests outstanding;
 *   4. expires batches older than delivery.timeout.ms, queued or in flight alike
 *      (getExpiredInflightBatches): an expired batch in flight fails at once, its request stays
 *      outstanding, and its late answer only tells the TransactionManager what the broker did;
 * and then sleeps until the earliest moment something can change (linger, backoff, timeouts).
 *
 * Responses complete batches: success gives every record its offset (baseOffset + index); a
 * retriable error (NOT_LEADER_OR_FOLLOWER, NOT_ENOUGH_REPLICAS, NOT_ENOUGH_REPLICAS_AFTER_APPEND,
 * REQUEST_TIMED_OUT, UNKNOWN_TOPIC_OR_PARTITION, ...) puts the batch back for a retry after
 * retry.backoff.ms, while retries and delivery.timeout.ms allow; anything else fails its records.
 * A request with no answer within request.timeout.ms fails as REQUEST_TIMED_OUT and, like
 * Kafka's NetworkClient, drops the connection: the other requests outstanding to that broker
 * fail with NETWORK_EXCEPTION, and any late answer is ignored.
 *
 * Responses are read per connection in the order the requests were sent, as over one TCP
 * connection to a Kafka broker (which also handles a connection's requests one at a time). An
 * answer that overtakes an earlier, still unanswered request waits behind it; if the earlier one
 * times out, the connection drops and takes the waiting answer with it. This is what lets the
 * idempotent producer's five in-flight batches always fall inside the broker's five-batch
 * duplicate cache.
 */
import type { Network, ResponseMessage } from '../cluster/Network';
import type {
  ErrorCode,
  InitProducerIdResponse,
  MetadataResponse,
  NodeId,
  ProducePartitionResponse,
  ProduceRequest,
  ProduceResponse,
} from '../cluster/requests';
import { brokerNodeId } from '../cluster/requests';
import type { Scheduler, TaskId } from '../cluster/Scheduler';
import type { KafkaErrorCode } from '../errors';
import type { BatchInRequest, ProducerEventSink, WantedEventType } from './events';
import type { ProducerBatch } from './ProducerBatch';
import type { ProducerConfig } from './ProducerConfig';
import type { ProducerMetadata } from './ProducerMetadata';
import { tpKey } from '../TopicPartition';
import type { RecordAccumulator } from './RecordAccumulator';
import type { TransactionManager } from './TransactionManager';

/** Errors after which the same batch may succeed if sent again (Kafka's RetriableException family). */
const RETRIABLE: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'NOT_LEADER_OR_FOLLOWER',
  'LEADER_NOT_AVAILABLE',
  'NOT_ENOUGH_REPLICAS',
  'NOT_ENOUGH_REPLICAS_AFTER_APPEND',
  'REQUEST_TIMED_OUT',
  'NETWORK_EXCEPTION',
  'UNKNOWN_TOPIC_OR_PARTITION',
  'CORRUPT_MESSAGE',
  'KAFKA_STORAGE_ERROR',
  'FENCED_LEADER_EPOCH',
  'UNKNOWN_LEADER_EPOCH',
]);

/** Errors that mean our metadata is stale: ask again before retrying. */
const INVALID_METADATA: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'NOT_LEADER_OR_FOLLOWER',
  'LEADER_NOT_AVAILABLE',
  'UNKNOWN_TOPIC_OR_PARTITION',
  'NETWORK_EXCEPTION',
  'REQUEST_TIMED_OUT',
  'FENCED_LEADER_EPOCH',
  'UNKNOWN_LEADER_EPOCH',
  'KAFKA_STORAGE_ERROR',
]);

type InFlight =
  | { api: 'Produce'; correlationId: number; broker: number; batches: ProducerBatch[]; timeout: TaskId }
  | { api: 'Metadata'; correlationId: number; broker: number; timeout: TaskId }
  | { api: 'InitProducerId'; correlationId: number; broker: number; timeout: TaskId };

export interface SenderHooks {
  /** Called with every batch outcome: success (offset per record) or a final error. */
  completeBatch(batch: ProducerBatch, baseOffset: number, logAppendTimeMs: number): void;
  failBatch(batch: ProducerBatch, error: KafkaErrorCode, message: string): void;
  /** Metadata changed: the application side may place records that were waiting for it. */
  metadataUpdated(): void;
}

export class Sender {
  private readonly inFlight = new Map<number, InFlight>();
  private readonly inFlightPerBroker = new Map<number, number>();
  /** Per broker connection: correlation ids awaiting an answer, in send order. */
  private readonly connectionQueue = new Map<number, number[]>();
  /** Answers that arrived ahead of an earlier request on their connection. */
  private readonly received = new Map<number, ResponseMessage>();
  private wakeAt = Number.POSITIVE_INFINITY;
  private wakeTask: TaskId | null = null;
  private nextBrokerIndex = 0;
  private lastInitPidAttemptMs = Number.NEGATIVE_INFINITY;
  private closed = false;
  /** When a request to each broker last failed (timeout or reset): such brokers are asked last. */
  private readonly brokerFailedAtMs = new Map<number, number>();
  /** Topics the application is waiting to learn about (set by the producer). */
  pendingTopics: string[] = [];

  constructor(
    private readonly node: NodeId,
    private readonly config: ProducerConfig,
    private readonly accumulator: RecordAccumulator,
    private readonly metadata: ProducerMetadata,
    private readonly transactionManager: TransactionManager | null,
    private readonly scheduler: Scheduler,
    private readonly network: Network,
    private readonly emit: ProducerEventSink,
    private readonly wants: (type: WantedEventType) => boolean,
    private readonly hooks: SenderHooks,
  ) {}

  /** Makes sure the sender runs at `atMs` (default now) or earlier. */
  wakeup(atMs = this.scheduler.now()): void {
    if (this.closed || atMs >= this.wakeAt) return;
    if (this.wakeTask !== null) this.scheduler.cancel(this.wakeTask);
    this.wakeAt = atMs;
    this.wakeTask = this.scheduler.scheduleAt(atMs, () => {
      this.wakeTask = null;
      this.wakeAt = Number.POSITIVE_INFINITY;
      this.runOnce();
    });
  }

  close(): void {
    this.closed = true;
    if (this.wakeTask !== null) this.scheduler.cancel(this.wakeTask);
    for (const f of this.inFlight.values()) {
      this.scheduler.cancel(f.timeout);
      this.network.abandon(f.correlationId);
    }
  }

  /** Forgets every produce request in flight and returns their batches (a forced close). */
  abortInFlight(): ProducerBatch[] {
    const batches: ProducerBatch[] = [];
    for (const f of [...this.inFlight.values()]) {
      this.network.abandon(f.correlationId);
      this.untrack(f.correlationId);
      // An expired batch already has its report (ProducerBatch.done refuses a second one).
      if (f.api === 'Produce') batches.push(...f.batches.filter((b) => b.state !== 'done'));
    }
    return batches;
  }

  get inFlightRequests(): number {
    return this.inFlight.size;
  }

  /** One pass of the sender loop (Sender.runOnce / sendProducerData). */
  runOnce(): void {
    if (this.closed) return;
    const now = this.scheduler.now();
    let nextWake = Number.POSITIVE_INFINITY;

    nextWake = Math.min(nextWake, this.maybeUpdateMetadata(now));
    this.transactionManager?.maybeResolveSequences();
    this.maybeBumpIdempotentEpoch(now);
    nextWake = Math.min(nextWake, this.maybeInitProducerId(now));

    // Kafka's sender thread loops without pause while there is something to send; here one run
    // keeps draining until no leader can take another request.
    let ready = this.accumulator.ready(this.metadata, now);
    for (let round = 0; ; round++) {
      if (ready.unknownLeaderTopics.size > 0) {
        this.metadata.requestUpdate();
        nextWake = Math.min(nextWake, this.maybeUpdateMetadata(now));
      }
      for (const node of [...ready.readyNodes]) {
        // NetworkClient.ready: no room for another request in flight (KIP-794's latency stats).
        const canDrain = (this.inFlightPerBroker.get(node) ?? 0) < this.config.maxInFlightRequestsPerConnection;
        this.accumulator.updateNodeLatencyStats(node, now, canDrain);
        if (!canDrain) ready.readyNodes.delete(node);
      }
      const drained = this.accumulator.drain(this.metadata, ready.readyNodes, now);
      for (const [broker, batches] of drained) this.sendProduceRequest(broker, batches, now);
      if (round > 1000) {
        nextWake = Math.min(nextWake, now + 1);
        break;
      }
      if (drained.size === 0 && !this.accumulator.drainBackedOff) break;
      ready = this.accumulator.ready(this.metadata, now);
    }

    const expiredInflight = this.expiredInflightBatches(now);
    for (const batch of this.accumulator.expiredBatches(now).concat(expiredInflight.expired)) {
      const tp = tpKey(batch.topic, batch.partition);
      this.failBatch(
        batch,
        'REQUEST_TIMED_OUT',
        `Expiring ${batch.recordCount} record(s) for ${tp}: ${now - batch.createdMs} ms has passed since batch creation`,
      );
      // Sent before, it may be in the log: nothing new is drained for its partition until the
      // batches still in flight there tell (Sender.sendProducerData, markSequenceUnresolved).
      if (this.transactionManager && batch.attempts > 0) {
        this.transactionManager.markSequenceUnresolved(tp, batch);
        nextWake = now; // the next pass resolves it once nothing is in flight
      }
    }

    nextWake = Math.min(
      nextWake,
      ready.nextReadyCheckMs,
      this.accumulator.nextExpiryMs(),
      expiredInflight.nextExpiryMs,
    );
    if (
      this.accumulator.hasUndrained() &&
      ready.readyNodes.size === 0 &&
      ready.nextReadyCheckMs === Number.POSITIVE_INFINITY
    ) {
      // Batches wait on a leader or a producer id: look again after a backoff.
      nextWake = Math.min(nextWake, now + Math.max(1, this.config.retryBackoffMs));
    }
    if (Number.isFinite(nextWake)) this.wakeup(Math.max(now, nextWake));
  }

  /**
   * Sender.getExpiredInflightBatches: batches in flight past delivery.timeout.ms, and when the
   * next one will be. Their requests stay outstanding (and keep a guarantee-order partition muted)
   * until answered or timed out.
   */
  private expiredInflightBatches(now: number): { expired: ProducerBatch[]; nextExpiryMs: number } {
    const expired: ProducerBatch[] = [];
    let nextExpiryMs = Number.POSITIVE_INFINITY;
    for (const f of this.inFlight.values()) {
      if (f.api !== 'Produce') continue;
      for (const b of f.batches) {
        if (b.state === 'done') continue;
        if (b.hasReachedDeliveryTimeout(this.config.deliveryTimeoutMs, now)) expired.push(b);
        else nextExpiryMs = Math.min(nextExpiryMs, b.createdMs + this.config.deliveryTimeoutMs);
      }
    }
    return { expired, nextExpiryMs };
  }

  // ------------------------------------------------------------------ metadata

  /**
   * The broker to ask for metadata or a producer id (Kafka's leastLoadedNode, simplified):
   * rotating over the known brokers, the first one with nothing in flight that has not failed
   * us in the last request.timeout.ms; failing that, the one that failed longest ago.
   */
  private pickBroker(): number | null {
    const brokers = this.metadata.brokers;
    if (brokers.length === 0) return null;
    const now = this.scheduler.now();
    let fallback: number | null = null;
    let fallbackFailedAt = Number.POSITIVE_INFINITY;
    for (let i = 0; i < brokers.length; i++) {
      const b = brokers[(this.nextBrokerIndex + i) % brokers.length] as number;
      const failedAt = this.brokerFailedAtMs.get(b) ?? Number.NEGATIVE_INFINITY;
      const healthy = now - failedAt >= this.config.requestTimeoutMs;
      if (healthy && (this.inFlightPerBroker.get(b) ?? 0) === 0) {
        this.nextBrokerIndex = (this.nextBrokerIndex + i + 1) % brokers.length;
        return b;
      }
      if (failedAt < fallbackFailedAt) {
        fallback = b;
        fallbackFailedAt = failedAt;
      }
    }
    this.nextBrokerIndex = (this.nextBrokerIndex + 1) % brokers.length;
    return fallback ?? (brokers[0] as number);
  }

  private hasInFlight(api: InFlight['api']): boolean {
    for (const f of this.inFlight.values()) if (f.api === api) return true;
    return false;
  }

  /** Sends a Metadata request if one is due; returns when to look again. */
  private maybeUpdateMetadata(now: number): number {
    if (this.hasInFlight('Metadata')) return Number.POSITIVE_INFINITY;
    const dueMs = this.metadata.nextUpdateMs(now);
    if (now < dueMs) return dueMs;
    const broker = this.pickBroker();
    if (broker === null) return Number.POSITIVE_INFINITY;
    const topics = this.metadata.topicNames().concat(this.pendingTopics);
    const uniqueTopics = [...new Set(topics)].sort();
    this.emit({ type: 'producerMetadataRequested', producer: this.node, broker, topics: uniqueTopics, atMs: now });
    const correlationId = this.network.send(this.node, brokerNodeId(broker), {
      api: 'Metadata',
      topics: uniqueTopics,
      allowAutoTopicCreation: false,
    });
    this.track({ api: 'Metadata', correlationId, broker, timeout: this.scheduleTimeout(correlationId) });
    return Number.POSITIVE_INFINITY;
  }

  /** A batch failed for good: same producer id, epoch + 1, no InitProducerId (bumpIdempotentEpochAndResetIdIfNeeded). */
  private maybeBumpIdempotentEpoch(now: number): void {
    const bumped = this.transactionManager?.bumpIdempotentEpochIfNeeded();
    if (bumped)
      this.emit({
        type: 'producerIdAssigned',
        producer: this.node,
        producerId: bumped.producerId,
        producerEpoch: bumped.epoch,
        atMs: now,
      });
  }

  private maybeInitProducerId(now: number): number {
    const tm = this.transactionManager;
    if (!tm || tm.hasProducerId() || this.hasInFlight('InitProducerId')) return Number.POSITIVE_INFINITY;
    // A reset waits until nothing of the old producer id is in flight.
    if (tm.resetRequired && this.hasInFlight('Produce')) return Number.POSITIVE_INFINITY;
    const earliest = this.lastInitPidAttemptMs + this.config.retryBackoffMs;
    if (now < earliest) return earliest;
    const broker = this.pickBroker();
    if (broker === null) return Number.POSITIVE_INFINITY;
    this.lastInitPidAttemptMs = now;
    this.emit({ type: 'producerIdRequested', producer: this.node, broker, atMs: now });
    const correlationId = this.network.send(this.node, brokerNodeId(broker), {
      api: 'InitProducerId',
      transactionalId: null,
      transactionTimeoutMs: 60000,
      producerId: -1,
      producerEpoch: -1,
    });
    this.track({ api: 'InitProducerId', correlationId, broker, timeout: this.scheduleTimeout(correlationId) });
    return Number.POSITIVE_INFINITY;
  }

  // ------------------------------------------------------------------ produce

  private sendProduceRequest(broker: number, batches: ProducerBatch[], now: number): void {
    const byTopic = new Map<string, { partition: number; records: Uint8Array }[]>();
    const described: BatchInRequest[] | null = this.wants('produceRequestSent') ? [] : null;
    for (const b of batches) {
      let list = byTopic.get(b.topic);
      if (!list) byTopic.set(b.topic, (list = []));
      list.push({ partition: b.partition, records: b.encode() });
      b.lastAttemptMs = now;
      if (this.config.maxInFlightRequestsPerConnection === 1) this.accumulator.mutePartition(b.topic, b.partition);
      described?.push({
        batchId: b.id,
        topic: b.topic,
        partition: b.partition,
        records: b.recordCount,
        bytes: b.sizeInBytes,
        attempt: b.attempts + 1,
        producerId: b.producerId,
        producerEpoch: b.producerEpoch,
        baseSequence: b.baseSequence,
      });
    }
    const request: ProduceRequest = {
      api: 'Produce',
      transactionalId: null,
      acks: this.config.acks,
      timeoutMs: this.config.requestTimeoutMs,
      topicData: [...byTopic].map(([topic, partitions]) => ({ topic, partitions })),
    };
    const correlationId = this.network.send(this.node, brokerNodeId(broker), request);
    if (described)
      this.emit({
        type: 'produceRequestSent',
        producer: this.node,
        correlationId,
        broker,
        acks: this.config.acks,
        batches: described,
        atMs: now,
      });
    if (this.config.acks === 0) {
      // Nobody answers: the batch counts as sent the moment it leaves, with offset -1.
      for (const b of batches) {
        if (this.config.maxInFlightRequestsPerConnection === 1) this.accumulator.unmutePartition(b.topic, b.partition);
        this.completeBatch(b, -1, -1);
      }
      return;
    }
    this.track({ api: 'Produce', correlationId, broker, batches, timeout: this.scheduleTimeout(correlationId) });
  }

  private track(f: InFlight): void {
    this.inFlight.set(f.correlationId, f);
    this.inFlightPerBroker.set(f.broker, (this.inFlightPerBroker.get(f.broker) ?? 0) + 1);
    let q = this.connectionQueue.get(f.broker);
    if (!q) this.connectionQueue.set(f.broker, (q = []));
    q.push(f.correlationId);
  }

  private untrack(correlationId: number): InFlight | undefined {
    const f = this.inFlight.get(correlationId);
    if (!f) return undefined;
    this.inFlight.delete(correlationId);
    this.received.delete(correlationId);
    this.scheduler.cancel(f.timeout);
    this.inFlightPerBroker.set(f.broker, (this.inFlightPerBroker.get(f.broker) ?? 1) - 1);
    const q = this.connectionQueue.get(f.broker);
    const i = q ? q.indexOf(correlationId) : -1;
    if (q && i >= 0) q.splice(i, 1);
    return f;
  }

  /** Drops the connection to a broker: everything outstanding on it fails, first one with `firstError`. */
  private disconnect(broker: number, firstCorrelationId: number, firstError: KafkaErrorCode): void {
    this.brokerFailedAtMs.set(broker, this.scheduler.now());
    const onConnection = [...(this.connectionQueue.get(broker) ?? [])];
    for (const c of onConnection) {
      this.network.abandon(c);
      this.failRequest(c, c === firstCorrelationId ? firstError : 'NETWORK_EXCEPTION');
    }
  }

  private scheduleTimeout(correlationId: number): TaskId {
    return this.scheduler.schedule(this.config.requestTimeoutMs, () => this.onRequestTimeout(correlationId));
  }

  private onRequestTimeout(correlationId: number): void {
    const f = this.inFlight.get(correlationId);
    if (!f) return;
    this.emit({
      type: 'producerRequestTimedOut',
      producer: this.node,
      correlationId,
      broker: f.broker,
      api: f.api,
      atMs: this.scheduler.now(),
    });
    // NetworkClient closes the connection: everything outstanding on it is lost.
    this.disconnect(f.broker, correlationId, 'REQUEST_TIMED_OUT');
    this.runOnce();
  }

  /** The network reports the broker's process reset the connection. */
  onDisconnect(correlationId: number): void {
    const f = this.inFlight.get(correlationId);
    if (!f) return;
    this.disconnect(f.broker, correlationId, 'NETWORK_EXCEPTION');
    this.runOnce();
  }

  private failRequest(correlationId: number, error: KafkaErrorCode): void {
    const f = this.untrack(correlationId);
    if (!f) return;
    if (f.api === 'Metadata') this.metadata.failedUpdate(this.scheduler.now()); // NetworkClient.handleFailedRequest
    this.metadata.requestUpdate();
    if (f.api !== 'Produce') return;
    const now = this.scheduler.now();
    for (const b of f.batches) this.handleBatchError(b, error, `${error} from broker ${f.broker}`, now);
  }

  onResponse(message: ResponseMessage): void {
    const f = this.inFlight.get(message.correlationId);
    if (!f) return; // answered after we gave up on it: the connection is gone, nobody reads it
    this.received.set(message.correlationId, message);
    // Read the connection's answers in request order.
    const q = this.connectionQueue.get(f.broker) ?? [];
    for (;;) {
      const head = q[0];
      const m = head === undefined ? undefined : this.received.get(head);
      if (head === undefined || !m) break;
      const g = this.untrack(head);
      if (!g) break;
      const body = m.body;
      if (body.api === 'Metadata') this.handleMetadataResponse(g.broker, body);
      else if (body.api === 'InitProducerId') this.handleInitProducerIdResponse(body);
      else if (body.api === 'Produce' && g.api === 'Produce') this.handleProduceResponse(g.broker, g, body);
    }
    this.runOnce();
  }

  private handleMetadataResponse(broker: number, body: MetadataResponse): void {
    // A broker still starting may answer with no brokers: try again later (handleSuccessfulResponse).
    if (body.brokers.length === 0) {
      this.metadata.failedUpdate(this.scheduler.now());
      return;
    }
    this.metadata.update(body, this.scheduler.now());
    const leaders: { topic: string; partition: number; leaderId: number; leaderEpoch: number }[] = [];
    for (const t of this.metadata.topicNames()) {
      for (const p of this.metadata.topic(t)?.partitions ?? []) {
        leaders.push({ topic: t, partition: p.partition, leaderId: p.leaderId, leaderEpoch: p.leaderEpoch });
      }
    }
    this.emit({ type: 'producerMetadataUpdated', producer: this.node, broker, leaders, atMs: this.scheduler.now() });
    this.hooks.metadataUpdated();
  }

  private handleInitProducerIdResponse(body: InitProducerIdResponse): void {
    const tm = this.transactionManager;
    if (!tm) return;
    if (body.errorCode !== 'NONE') return; // try again after retry.backoff.ms
    tm.setProducerIdAndEpoch({ producerId: body.producerId, epoch: body.producerEpoch });
    this.accumulator.resetSequences();
    this.emit({
      type: 'producerIdAssigned',
      producer: this.node,
      producerId: body.producerId,
      producerEpoch: body.producerEpoch,
      atMs: this.scheduler.now(),
    });
  }

  private handleProduceResponse(broker: number, f: Extract<InFlight, { api: 'Produce' }>, body: ProduceResponse): void {
    const now = this.scheduler.now();
    const byTp = new Map<string, ProducePartitionResponse>();
    for (const t of body.responses) for (const p of t.partitions) byTp.set(tpKey(t.topic, p.partition), p);
    if (this.wants('produceResponseReceived'))
      this.emit({
        type: 'produceResponseReceived',
        producer: this.node,
        correlationId: f.correlationId,
        broker,
        partitions: f.batches.map((b) => {
          const r = byTp.get(tpKey(b.topic, b.partition));
          return {
            batchId: b.id,
            topic: b.topic,
            partition: b.partition,
            errorCode: r?.errorCode ?? 'UNKNOWN_TOPIC_OR_PARTITION',
            baseOffset: r?.baseOffset ?? -1,
          };
        }),
        atMs: now,
      });
    for (const b of f.batches) {
      const r = byTp.get(tpKey(b.topic, b.partition));
      if (this.config.maxInFlightRequestsPerConnection === 1) this.accumulator.unmutePartition(b.topic, b.partition);
      if (!r) {
        this.handleBatchError(b, 'UNKNOWN_TOPIC_OR_PARTITION', 'no response for the partition', now);
        continue;
      }
      if (r.errorCode === 'NONE' || r.errorCode === 'DUPLICATE_SEQUENCE_NUMBER') {
        // A duplicate means the broker already holds this batch: success, even if the offset is unknown.
        if (this.completeBatch(b, r.errorCode === 'NONE' ? r.baseOffset : -1, r.logAppendTimeMs)) this.deallocate(b);
      } else {
        this.handleBatchError(b, r.errorCode, r.errorMessage ?? r.errorCode, now, r.logStartOffset);
      }
    }
  }

  /** Sender.canRetry: time and retries left, then the TransactionManager's word on sequence errors. */
  private canRetry(batch: ProducerBatch, error: ErrorCode, now: number, logStartOffset: number): boolean {
    if (batch.state === 'done') return false; // expired while in flight: its report is out
    if (batch.hasReachedDeliveryTimeout(this.config.deliveryTimeoutMs, now)) return false;
    if (batch.attempts >= this.config.retries) return false;
    const tm = this.transactionManager;
    const bySequence = tm ? tm.canRetry(tpKey(batch.topic, batch.partition), batch, error, logStartOffset) : null;
    if (bySequence !== null) return bySequence;
    return RETRIABLE.has(error);
  }

  private handleBatchError(
    batch: ProducerBatch,
    error: KafkaErrorCode,
    message: string,
    now: number,
    logStartOffset = -1,
  ): void {
    if (INVALID_METADATA.has(error)) this.metadata.requestUpdate();
    if (this.config.maxInFlightRequestsPerConnection === 1)
      this.accumulator.unmutePartition(batch.topic, batch.partition);
    if (
      error === 'MESSAGE_TOO_LARGE' &&
      batch.recordCount > 1 &&
      batch.state !== 'done' &&
      !batch.hasReachedDeliveryTimeout(this.config.deliveryTimeoutMs, now)
    ) {
      // Too big for the topic's max.message.bytes: send it again in smaller pieces.
      const parts = this.accumulator.splitAndReenqueue(batch);
      this.emit({
        type: 'batchSplit',
        producer: this.node,
        batchId: batch.id,
        topic: batch.topic,
        partition: batch.partition,
        into: parts.map((b) => ({ batchId: b.id, records: b.recordCount, baseSequence: b.baseSequence })),
        atMs: now,
      });
      return;
    }
    if (this.canRetry(batch, error, now, logStartOffset)) {
      this.accumulator.reenqueue(batch, now);
      this.emit({
        type: 'batchRetried',
        producer: this.node,
        batchId: batch.id,
        topic: batch.topic,
        partition: batch.partition,
        error,
        attempt: batch.attempts,
        retryAtMs: now + batch.retryBackoffMs,
        atMs: now,
      });
      return;
    }
    // Sender.completeBatch: only a batch that had retries left may have its partition's sequences
    // adjusted; after the last retry nobody knows whether the broker wrote it.
    this.failBatch(batch, error, message, batch.attempts < this.config.retries);
  }

  /**
   * Hands a batch's buffer back to the pool once its request was answered. Nothing reads it any
   * more: the leader copied the bytes into its log, the answered request is off the network, and
   * a batch sent more than once keeps its buffer (ProducerBatch.releaseBuffer). The network's
   * messageSent event carries the request bytes, so while anyone takes those events the buffer
   * is left to them.
   */
  private deallocate(batch: ProducerBatch): void {
    if (this.wants('messageSent')) return;
    this.accumulator.deallocate(batch);
  }

  /**
   * The TransactionManager always learns the outcome, even a late one for a batch that already
   * expired (its acknowledged sequence resolves the partition); the report goes out only once
   * (ProducerBatch.done). Returns whether this completed the batch.
   */
  private completeBatch(batch: ProducerBatch, baseOffset: number, logAppendTimeMs: number): boolean {
    this.transactionManager?.handleCompletedBatch(tpKey(batch.topic, batch.partition), batch, baseOffset);
    if (batch.state === 'done') return false;
    batch.state = 'done';
    this.hooks.completeBatch(batch, baseOffset, logAppendTimeMs);
    return true;
  }

  private failBatch(batch: ProducerBatch, error: KafkaErrorCode, message: string, adjustSequenceNumbers = false): void {
    const tm = this.transactionManager;
    // Its sequence numbers may now be a hole the broker never sees filled (TransactionManager.handleFailedBatch).
    if (tm && batch.hasSequence())
      tm.handleFailedBatch(tpKey(batch.topic, batch.partition), batch, error, adjustSequenceNumbers);
    if (batch.state === 'done') return;
    batch.state = 'done';
    this.hooks.failBatch(batch, error, message);
  }
}
