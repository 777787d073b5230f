/**
 * A producer client (Kafka's KafkaProducer): the application side. `send()` serializes nothing
 * (records arrive as bytes), picks the partition, and appends to the RecordAccumulator; the
 * Sender, running on the engine's scheduler, does all network work. Every record ends with
 * exactly one delivery report, emitted as a `delivery-report` event (Kafka's callback):
 * partition, offset and timestamp, or Kafka's error name.
 *
 * Records for a topic the producer has no metadata for yet wait (Kafka blocks in send() for up
 * to max.block.ms), asking again while brokers answer that they do not know the topic (a broker
 * just restarted may not have heard of it yet). After max.block.ms they fail with
 * UNKNOWN_TOPIC_OR_PARTITION (Kafka's "Topic X not present in metadata after N ms" timeout).
 */
import type { Network, NetworkEndpoint } from '../cluster/Network';
import type { NodeId } from '../cluster/requests';
import type { Scheduler } from '../cluster/Scheduler';
import { KafkaError, type KafkaErrorCode } from '../errors';
import { Rng } from '../Rng';
import type { ProducerEvent, ProducerEventSink, WantedEventType } from './events';
import { type PartitionChoice, Partitioner, type TopicPartitionsView } from './Partitioner';
import {
  estimateSizeInBytesUpperBound,
  headerlessSizeUpperBound,
  type PendingRecord,
  type ProducerBatch,
} from './ProducerBatch';
import { type ProducerConfig, type ProducerConfigInput, resolveProducerConfig } from './ProducerConfig';
import { ProducerMetadata } from './ProducerMetadata';
import type { DeliveryReport, ProducerRecord, RecordHeader } from './ProducerRecord';
import { RecordAccumulator } from './RecordAccumulator';
import { Sender } from './Sender';
import { TransactionManager } from './TransactionManager';

export interface ProducerContext {
  scheduler: Scheduler;
  network: Network;
  rng: Rng;
  emit: (event: ProducerEvent) => void;
  /**
   * Whether anyone takes events of a type (default: everyone takes everything). The per-record
   * events (recordPartitioned, recordAppended, deliveryReport) are not built when nobody does.
   */
  wants?: (type: WantedEventType) => boolean;
  /** Broker ids to ask for metadata first (bootstrap.servers). */
  bootstrapBrokers: readonly number[];
}

const NO_HEADERS: RecordHeader[] = [];
const wantsEverything = () => true;

interface WaitingRecord {
  sendId: number;
  record: ProducerRecord;
  timestamp: number;
  /** When waiting for metadata gives up (send time + max.block.ms). */
  deadlineMs: number;
}

export class KafkaProducer {
  readonly clientId: string;
  readonly config: ProducerConfig;
  readonly node: NodeId;
  private readonly scheduler: Scheduler;
  private readonly network: Network;
  private readonly emit: ProducerEventSink;
  private readonly wants: (type: WantedEventType) => boolean;
  private readonly partitioner: Partitioner;
  private readonly metadata: ProducerMetadata;
  private readonly accumulator: RecordAccumulator;
  readonly transactionManager: TransactionManager | null;
  private readonly sender: Sender;
  private readonly waiting: WaitingRecord[] = [];
  /** Topics with records in `waiting`: later records of these topics queue behind them. */
  private readonly waitingTopics = new Set<string>();
  private nextSendId = 1;
  private unfinished = 0;
  /** The PendingRecord place() fills for each record; null while in use. */
  private scratch: PendingRecord | null = { sendId: 0, key: null, value: null, headers: NO_HEADERS, timestamp: 0 };
  private acknowledged = 0;
  private failed = 0;
  /** close() was called: no more sends; the producer finishes what it has, then leaves. */
  private closing = false;
  private closed = false;

  constructor(input: ProducerConfigInput, context: ProducerContext, defaultClientId = 'producer-1') {
    this.config = resolveProducerConfig(input, defaultClientId);
    this.clientId = this.config.clientId;
    this.node = this.clientId;
    if (/^broker-\d+$/.test(this.node)) {
      throw new KafkaError('INVALID_CONFIG', `client.id ${this.node} is reserved for brokers`, { key: 'client.id' });
    }
    this.scheduler = context.scheduler;
    this.network = context.network;
    this.emit = context.emit;
    this.wants = context.wants ?? wantsEverything;
    const rng = context.rng.fork();
    this.partitioner = new Partitioner(
      this.config.partitioner,
      rng,
      this.config.batchSize,
      this.config.partitionerIgnoreKeys,
    );
    this.metadata = new ProducerMetadata(context.bootstrapBrokers, {
      retryBackoffMs: this.config.retryBackoffMs,
      retryBackoffMaxMs: this.config.retryBackoffMaxMs,
      metadataMaxAgeMs: this.config.metadataMaxAgeMs,
      // Its own stream, derived without drawing from the shared Rng (as the accumulator's).
      rng: new Rng((rng.seed ^ 0x1b873593) >>> 0),
    });
    this.transactionManager = this.config.enableIdempotence ? new TransactionManager() : null;
    // The backoff's stream is derived from the producer's seed without drawing from the shared
    // Rng, so adding it moved no other seeded choice.
    this.accumulator = new RecordAccumulator(
      this.node,
      this.config,
      this.emit,
      this.transactionManager,
      this.wants,
      new Rng((rng.seed ^ 0x5bd1e995) >>> 0),
    );
    // KIP-794's adaptive partitioning: the readiness check hands the queue lengths to the partitioner.
    if (this.config.partitioner === 'sticky')
      this.accumulator.onPartitionLoad = (topic, sizes, ids, length) =>
        this.partitioner.updatePartitionLoadStats(topic, sizes, ids, length);
    this.sender = new Sender(
      this.node,
      this.config,
      this.accumulator,
      this.metadata,
      this.transactionManager,
      this.scheduler,
      this.network,
      this.emit,
      this.wants,
      {
        completeBatch: (b, baseOffset, logAppendTimeMs) => this.onBatchComplete(b, baseOffset, logAppendTimeMs),
        failBatch: (b, error, message) => this.onBatchFailed(b, error, message),
        metadataUpdated: () => this.placeWaitingRecords(),
      },
    );
    const endpoint: NetworkEndpoint = {
      onResponse: (m) => this.sender.onResponse(m),
      onDisconnect: (_peer, correlationId) => this.sender.onDisconnect(correlationId),
    };
    this.network.attach(this.node, endpoint);
    this.emit({ type: 'producerCreated', producer: this.node, config: { ...this.config }, atMs: this.scheduler.now() });
    this.sender.wakeup();
  }

  /**
   * Hands a record to the producer; returns its send id (the key of its delivery report).
   * Bad input (a record bigger than max.request.size) gets its report at once and changes nothing.
   */
  send(record: ProducerRecord): number {
    if (this.closing) throw new KafkaError('INVALID_REQUEST', `producer ${this.clientId} is closed`);
    const sendId = this.nextSendId++;
    this.unfinished++;
    const now = this.scheduler.now();
    const timestamp = record.timestamp ?? now;
    if (!this.surelyFits(record)) this.checkRecordSize(sendId, record, timestamp, now);
    else this.afterSizeCheck(sendId, record, timestamp, now);
    return sendId;
  }

  /** Whether a record without headers fits by a bound that needs no varint sizing (the common case). */
  private surelyFits(record: ProducerRecord): boolean {
    if (record.headers !== undefined && record.headers.length > 0) return false;
    const bound = headerlessSizeUpperBound(record.key, record.value);
    return bound <= this.config.maxRequestSize && bound <= this.config.bufferMemory;
  }

  /** Kafka's ensureValidRecordSize: the batch this record alone would make must fit max.request.size. */
  private checkRecordSize(sendId: number, record: ProducerRecord, timestamp: number, now: number): void {
    const size = estimateSizeInBytesUpperBound(record.key, record.value, record.headers ?? NO_HEADERS);
    // RecordTooLargeException, whose Errors name is MESSAGE_TOO_LARGE; one message per limit.
    const tooLarge =
      size > this.config.maxRequestSize
        ? `The message is ${size} bytes when serialized which is larger than ${this.config.maxRequestSize}, which is the value of the max.request.size configuration.`
        : size > this.config.bufferMemory
          ? `The message is ${size} bytes when serialized which is larger than the total memory buffer you have configured with the buffer.memory configuration.`
          : null;
    if (tooLarge !== null) {
      this.failUnplaced(sendId, record, timestamp, 'MESSAGE_TOO_LARGE', tooLarge);
      return;
    }
    this.afterSizeCheck(sendId, record, timestamp, now);
  }

  /** Places the record now, or lets it wait for the topic's metadata. */
  private afterSizeCheck(sendId: number, record: ProducerRecord, timestamp: number, now: number): void {
    const view = this.metadata.view(record.topic);
    if (view === null || this.waitingTopics.has(record.topic)) {
      const w: WaitingRecord = { sendId, record, timestamp, deadlineMs: this.scheduler.now() + this.config.maxBlockMs };
      // No metadata yet (or records before us still wait for it): wait, keeping send order.
      this.waiting.push(w);
      this.waitingTopics.add(record.topic);
      this.emit({
        type: 'recordWaitingForMetadata',
        producer: this.node,
        sendId,
        topic: record.topic,
        atMs: this.scheduler.now(),
      });
      if (!this.sender.pendingTopics.includes(record.topic)) {
        this.sender.pendingTopics = [...this.sender.pendingTopics, record.topic];
        this.metadata.requestUpdateForNewTopics();
      } else this.metadata.requestUpdate();
      this.sender.wakeup();
      this.scheduler.scheduleAt(w.deadlineMs, () => this.placeWaitingRecords());
      return;
    }
    this.place(sendId, record, timestamp, view, now);
  }

  /** Partitions and appends one record (KafkaProducer.doSend). */
  private place(
    sendId: number,
    record: ProducerRecord,
    timestamp: number,
    view: TopicPartitionsView,
    now: number,
  ): void {
    let choice: PartitionChoice;
    try {
      choice = this.partitioner.partition(record.topic, record.key, record.partition, view);
    } catch (e) {
      const code: KafkaErrorCode = e instanceof KafkaError ? e.code : 'INVALID_REQUEST';
      this.failUnplaced(sendId, record, timestamp, code, String(e));
      return;
    }
    // One object reused for every record (the accumulator copies what it needs and keeps none);
    // a send made from inside an event listener, while it is in use, gets its own.
    const reused = this.scratch;
    let pending: PendingRecord;
    if (reused) {
      this.scratch = null;
      reused.sendId = sendId;
      reused.key = record.key;
      reused.value = record.value;
      reused.headers = record.headers ?? NO_HEADERS;
      reused.timestamp = timestamp;
      pending = reused;
    } else {
      pending = { sendId, key: record.key, value: record.value, headers: record.headers ?? NO_HEADERS, timestamp };
    }
    const builtIn = this.partitioner.isBuiltInChoice(choice);
    if (builtIn) {
      // KIP-794: a switch held back by an open batch happens once that batch is full (or is
      // closed because this record does not fit), before the record is appended
      // (RecordAccumulator.partitionChanged).
      this.accumulator.closeIfNoRoom(record.topic, choice.partition, pending, now);
      if (this.accumulator.allBatchesFull(record.topic, choice.partition))
        choice = this.partitioner.completeDeferredSwitch(record.topic, view) ?? choice;
    } else if (!this.accumulator.hasRoomFor(record.topic, choice.partition, pending)) {
      // KIP-480 (abortOnNewBatch): a new batch is due, so the 2.4-3.2 sticky partition moves on
      // first and the record is placed again.
      const moved = this.partitioner.onNewBatch(record.topic, view, choice.partition);
      if (moved && choice.strategy === 'sticky') choice = moved;
      // KafkaProducer.doSend calls partition() again after abortForNewBatch, so RoundRobinPartitioner's
      // counter steps twice for a record that opens a batch and the first pick is skipped (KAFKA-9965).
      else if (choice.strategy === 'round-robin')
        choice = this.partitioner.partition(record.topic, record.key, record.partition, view);
    }
    if (this.wants('recordPartitioned'))
      this.emit({ type: 'recordPartitioned', producer: this.node, sendId, choice, atMs: now });
    this.accumulator.append(record.topic, choice.partition, pending, now);
    if (builtIn)
      this.partitioner.onAppended(
        record.topic,
        this.accumulator.lastAppendedBytes,
        view,
        this.accumulator.allBatchesFull(record.topic, choice.partition),
      );
    if (reused) {
      reused.key = null;
      reused.value = null; // hold no application bytes between sends
      this.scratch = reused;
    }
    this.sender.wakeup();
  }

  private placeWaitingRecords(): void {
    if (this.closed) return;
    const now = this.scheduler.now();
    const still: WaitingRecord[] = [];
    const blocked = new Set<string>();
    for (const w of this.waiting.splice(0)) {
      const topic = w.record.topic;
      const view = this.metadata.view(topic);
      if (view !== null && !blocked.has(topic)) this.place(w.sendId, w.record, w.timestamp, view, now);
      else if (now >= w.deadlineMs) {
        this.failUnplaced(
          w.sendId,
          w.record,
          w.timestamp,
          'UNKNOWN_TOPIC_OR_PARTITION',
          `Topic ${topic} not present in metadata after ${this.config.maxBlockMs} ms.`,
        );
      } else {
        still.push(w);
        blocked.add(topic);
      }
    }
    this.waiting.push(...still);
    this.waitingTopics.clear();
    for (const t of blocked) this.waitingTopics.add(t);
    // Keep asking about topics still waited for, and about any the application asked for that
    // are still unknown (partitionsFor).
    this.sender.pendingTopics = this.sender.pendingTopics.filter(
      (t) => blocked.has(t) || this.metadata.view(t) === null,
    );
    for (const t of blocked) if (!this.sender.pendingTopics.includes(t)) this.sender.pendingTopics.push(t);
    if (still.length > 0) {
      this.metadata.requestUpdate();
      this.sender.wakeup();
    }
  }

  private onBatchComplete(batch: ProducerBatch, baseOffset: number, logAppendTimeMs: number): void {
    this.acknowledged += batch.recordCount;
    if (!this.wants('deliveryReport')) {
      this.reported(batch.recordCount);
      return;
    }
    batch.forEachRecord((sendId, timestamp, i) =>
      this.report({
        sendId,
        topic: batch.topic,
        partition: batch.partition,
        offset: baseOffset < 0 ? -1 : baseOffset + i,
        timestamp: logAppendTimeMs >= 0 ? logAppendTimeMs : timestamp,
        error: null,
      }),
    );
  }

  private onBatchFailed(batch: ProducerBatch, error: KafkaErrorCode, message: string): void {
    batch.forEachRecord((sendId, timestamp) =>
      this.report({
        sendId,
        topic: batch.topic,
        partition: batch.partition,
        offset: -1,
        timestamp,
        error,
        message,
      }),
    );
  }

  /** The one report of a record that never reached a batch: no partition chosen (or the one asked for), no offset. */
  private failUnplaced(
    sendId: number,
    record: ProducerRecord,
    timestamp: number,
    error: KafkaErrorCode,
    message: string,
  ): void {
    this.report({
      sendId,
      topic: record.topic,
      partition: record.partition ?? -1,
      offset: -1,
      timestamp,
      error,
      message,
    });
  }

  private report(report: DeliveryReport): void {
    if (report.error !== null) this.failed++;
    this.emit({ type: 'deliveryReport', producer: this.node, report, atMs: this.scheduler.now() });
    this.reported(1);
  }

  /** `n` records have their outcome (reported, or nobody listening for reports). */
  private reported(n: number): void {
    this.unfinished -= n;
    if (this.closing && this.unfinished === 0) this.scheduler.schedule(0, () => this.maybeFinishClose());
  }

  /**
   * The partitions of a topic as this producer knows them (Kafka's partitionsFor), or null if it
   * does not know the topic yet, in which case it asks for it.
   */
  partitionsFor(topic: string): { partition: number; leaderId: number; leaderEpoch: number }[] | null {
    const t = this.metadata.topic(topic);
    if (t) return t.partitions.map((p) => ({ ...p }));
    if (!this.sender.pendingTopics.includes(topic)) this.sender.pendingTopics = [...this.sender.pendingTopics, topic];
    this.metadata.requestUpdateForNewTopics();
    this.sender.wakeup();
    return null;
  }

  /** Records sent but not yet reported. */
  get pendingRecords(): number {
    return this.unfinished;
  }

  /** Records acknowledged so far (an application that takes no delivery reports can count here). */
  get acknowledgedRecords(): number {
    return this.acknowledged;
  }

  /** Records whose delivery report is an error. */
  get failedRecords(): number {
    return this.failed;
  }

  /**
   * Kafka's close(): refuses new sends, sends what is queued without lingering, and leaves the
   * network once every record sent has its report (each still ends in success, or in an error
   * after delivery.timeout.ms or max.block.ms). `force` is close(Duration.ZERO): leave now, and
   * records not yet reported fail with NETWORK_EXCEPTION ("Producer is closed forcefully").
   */
  close(force = false): void {
    if (this.closed) return;
    this.closing = true;
    this.accumulator.beginClose();
    if (force) {
      for (const w of this.waiting.splice(0)) {
        this.failUnplaced(w.sendId, w.record, w.timestamp, 'NETWORK_EXCEPTION', 'Producer is closed forcefully.');
      }
      for (const b of this.accumulator.abortIncompleteBatches().concat(this.sender.abortInFlight())) {
        this.onBatchFailed(b, 'NETWORK_EXCEPTION', 'Producer is closed forcefully.');
      }
    }
    this.sender.wakeup();
    this.maybeFinishClose();
  }

  private maybeFinishClose(): void {
    if (!this.closing || this.closed || this.unfinished > 0) return;
    this.closed = true;
    this.sender.close();
    this.network.detach(this.node, false);
    this.emit({ type: 'producerClosed', producer: this.node, atMs: this.scheduler.now() });
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** The accumulator's queues, for the UI. */
  accumulatorSnapshot() {
    return this.accumulator.snapshot();
  }

  stickyPartitionOf(topic: string): number | null {
    return this.partitioner.stickyPartitionOf(topic);
  }

  get inFlightRequests(): number {
    return this.sender.inFlightRequests;
  }

  get producerIdAndEpoch() {
    return this.transactionManager?.producerIdAndEpoch ?? null;
  }
}
