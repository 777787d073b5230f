import { KafkaError } from '../../errors';
import { type ConsumerConfig, consumerConfig } from './ConsumerConfig';
import { type ConsumerContext, ConsumerCoordinator } from './ConsumerCoordinator';
import type { CommitResult, OffsetsToCommit } from './offsetCommitHandlers';
import { Fetcher } from './Fetcher';
import type { ConsumerListOffsetsResponse } from './fetchProtocol';
import type { TopicPartition } from './assignors/types';
import { OffsetsForLeaderEpochClient, type TruncationReport } from './OffsetsForLeaderEpochClient';
import { type ConsumerRebalanceListener, SubscriptionState, tpString } from './SubscriptionState';

export interface ConsumerRecord {
  topic: string;
  partition: number;
  offset: number;
  timestamp: number;
  key: Uint8Array | null;
  value: Uint8Array | null;
}

/** Commit failures commitSync retries (Kafka's RetriableCommitFailedException causes). */
const RETRIABLE_COMMIT_ERRORS = new Set([
  'COORDINATOR_LOAD_IN_PROGRESS',
  'COORDINATOR_NOT_AVAILABLE',
  'NOT_COORDINATOR',
  'REQUEST_TIMED_OUT',
  'NETWORK_EXCEPTION',
]);

export type ConsumerLifecycle = 'running' | 'closed' | 'crashed';

/**
 * KafkaConsumer, deterministic and driven by the engine's scheduler. The application calls
 * poll(), which never blocks: it drives the group protocol (lookup, join, auto commit), makes sure
 * every assigned partition has a position (committed offset, else auto.offset.reset), hands out
 * at most max.poll.records buffered records and advances the positions past them, and sends the
 * next fetches. commitSync/commitAsync return a CommitResult that completes when the coordinator
 * answers — "sync" means the application waits for it before going on.
 *
 * A crashed consumer simply stops: no more heartbeats, polls or commits, no LeaveGroup. Its
 * partitions go to others after session.timeout.ms, from the last committed offsets.
 */
export class KafkaConsumer {
  readonly config: ConsumerConfig;
  readonly subscriptions: SubscriptionState;
  readonly coordinator: ConsumerCoordinator | null;
  readonly fetcher: Fetcher;
  private readonly validator: OffsetsForLeaderEpochClient;
  lifecycle: ConsumerLifecycle = 'running';
  /** Total records returned by poll(), for the UI. */
  recordsConsumed = 0;
  private pendingError: KafkaError | null = null;
  private readonly ctx: ConsumerContext;

  constructor(ctx: Omit<ConsumerContext, 'config'>, overrides: Record<string, unknown> = {}) {
    this.config = consumerConfig({ 'client.id': ctx.clientId, ...overrides });
    this.ctx = { ...ctx, config: this.config };
    this.subscriptions = new SubscriptionState(this.config['auto.offset.reset']);
    const groupId = this.config['group.id'];
    this.coordinator = groupId === null ? null : new ConsumerCoordinator(this.ctx, this.subscriptions, groupId);
    this.fetcher = new Fetcher(this.ctx, this.subscriptions);
    this.validator = new OffsetsForLeaderEpochClient(this.ctx, this.subscriptions, this.fetcher, (r) =>
      this.onLogTruncation(r),
    );
  }

  /**
   * A truncation validation found: told to the page, and with auto.offset.reset none thrown by
   * the next poll() as LogTruncationException (an OffsetOutOfRangeException: Kafka gives it no
   * error code of its own).
   */
  private onLogTruncation({ truncation: t, outcome }: TruncationReport): void {
    this.ctx.emit({
      type: 'consumerLogTruncation',
      consumerId: this.clientId,
      groupId: this.groupId,
      topic: t.topic,
      partition: t.partition,
      fetchOffset: t.fetchPosition.offset,
      offsetEpoch: t.fetchPosition.offsetEpoch,
      divergentOffset: t.divergentOffset?.offset ?? null,
      divergentEpoch: t.divergentOffset?.leaderEpoch ?? null,
      outcome,
      atMs: this.ctx.scheduler.now(),
    });
    if (outcome !== 'LogTruncationException') return;
    const key = tpString(t);
    const at = t.divergentOffset
      ? `${t.divergentOffset.offset} (epoch ${t.divergentOffset.leaderEpoch})`
      : 'an unknown offset (the leader has no such epoch)';
    this.pendingError = new KafkaError(
      'OFFSET_OUT_OF_RANGE',
      `Detected truncated partitions: ${key} at fetch offset ${t.fetchPosition.offset} (epoch ${t.fetchPosition.offsetEpoch}), divergent at ${at}`,
      {
        exception: 'LogTruncationException',
        topic: t.topic,
        partition: t.partition,
        offset: t.fetchPosition.offset,
        divergentOffset: t.divergentOffset?.offset ?? null,
      },
    );
  }

  get clientId(): string {
    return this.ctx.clientId;
  }

  get groupId(): string | null {
    return this.config['group.id'];
  }

  private ensureOpen(): void {
    if (this.lifecycle !== 'running')
      throw new KafkaError('INVALID_REQUEST', `This consumer has already been ${this.lifecycle}.`);
  }

  subscribe(topics: string[], listener: ConsumerRebalanceListener = {}): void {
    this.ensureOpen();
    if (!this.coordinator) {
      throw new KafkaError(
        'INVALID_GROUP_ID',
        'To use the group management or offset commit APIs, you must provide a valid group.id in the consumer configuration.',
      );
    }
    if (topics.some((t) => t.trim() === ''))
      throw new KafkaError(
        'INVALID_TOPIC_EXCEPTION',
        'Topic collection to subscribe to cannot contain null or empty topic',
      );
    if (this.subscriptions.type === 'USER_ASSIGNED') {
      throw new KafkaError('INVALID_REQUEST', 'Subscription to topics, partitions and pattern are mutually exclusive');
    }
    const changed =
      this.subscriptions.type !== 'AUTO_TOPICS' || topics.slice().sort().join() !== this.subscriptions.topics.join();
    this.subscriptions.subscribe(topics, listener);
    if (changed) this.coordinator.requestRejoin(`subscription changed to [${this.subscriptions.topics.join(', ')}]`);
  }

  assign(partitions: TopicPartition[]): void {
    this.ensureOpen();
    if (this.subscriptions.type === 'AUTO_TOPICS') {
      throw new KafkaError('INVALID_REQUEST', 'Subscription to topics, partitions and pattern are mutually exclusive');
    }
    this.subscriptions.assignManually(partitions);
  }

  assignment(): TopicPartition[] {
    return this.subscriptions.assignedPartitions();
  }

  position(tp: TopicPartition): number | null {
    return this.subscriptions.state(tp)?.position ?? null;
  }

  seek(tp: TopicPartition, offset: number): void {
    this.ensureOpen();
    const s = this.subscriptions.state(tp);
    if (!s) throw new KafkaError('INVALID_REQUEST', `No current assignment for partition ${tpString(tp)}`);
    if (!Number.isInteger(offset) || offset < 0)
      throw new KafkaError('INVALID_REQUEST', `seek offset must not be a negative number (${offset})`);
    // A seek names no epoch: nothing to validate (KafkaConsumer.seek(partition, offset)).
    this.subscriptions.seekUnvalidated(tp, {
      offset,
      offsetEpoch: null,
      currentLeader: this.fetcher.currentLeader(tp.topic, tp.partition),
    });
    this.fetcher.clear(tp.topic, tp.partition);
  }

  seekToBeginning(partitions: TopicPartition[]): void {
    this.requestReset(partitions, -2);
  }

  seekToEnd(partitions: TopicPartition[]): void {
    this.requestReset(partitions, -1);
  }

  private requestReset(partitions: TopicPartition[], timestamp: -1 | -2): void {
    for (const tp of partitions) {
      const s = this.subscriptions.state(tp);
      if (!s) continue;
      this.subscriptions.requestOffsetReset(tp, timestamp === -2 ? 'earliest' : 'latest');
      this.fetcher.clear(tp.topic, tp.partition);
      this.resetOffset(tp, timestamp, timestamp === -2 ? 'earliest' : 'latest');
    }
  }

  /**
   * Returns the records ready now (never waits). Throws the error a real poll would throw:
   * OFFSET_OUT_OF_RANGE (NoOffsetForPartitionException / OffsetOutOfRangeException) when
   * auto.offset.reset is none, or a fatal group error.
   */
  poll(): ConsumerRecord[] {
    this.ensureOpen();
    if (this.subscriptions.type === 'NONE') {
      throw new KafkaError('INVALID_REQUEST', 'Consumer is not subscribed to any topics or assigned any partitions');
    }
    const stable = this.coordinator ? this.coordinator.poll() : true;
    if (this.pendingError) {
      const e = this.pendingError;
      this.pendingError = null;
      throw e;
    }
    if (!stable && this.subscriptions.type === 'AUTO_TOPICS' && this.subscriptions.assignedPartitions().length === 0)
      return [];
    this.updateFetchPositions();
    if (this.pendingError) {
      const e = this.pendingError;
      this.pendingError = null;
      throw e;
    }
    const out = this.drain();
    this.fetcher.sendFetches();
    if (out.length > 0) {
      const summary = new Map<string, { topic: string; partition: number; fromOffset: number; count: number }>();
      for (const r of out) {
        const k = tpString(r);
        const s = summary.get(k);
        if (s) s.count++;
        else summary.set(k, { topic: r.topic, partition: r.partition, fromOffset: r.offset, count: 1 });
      }
      this.ctx.emit({
        type: 'consumerPolled',
        consumerId: this.clientId,
        groupId: this.groupId,
        records: [...summary.values()],
        atMs: this.ctx.scheduler.now(),
      });
    }
    this.recordsConsumed += out.length;
    return out;
  }

  private drain(): ConsumerRecord[] {
    const max = this.config['max.poll.records'];
    const out: ConsumerRecord[] = [];
    const completed = this.fetcher.completed;
    while (out.length < max && completed.length > 0) {
      const c = completed[0];
      if (!c) break;
      const s = this.subscriptions.state(c);
      // FetchCollector: a partition no longer fetchable (awaiting validation or a reset) returns nothing.
      if (!s || !this.subscriptions.hasValidPosition(s) || s.position === null || c.records.length === 0) {
        completed.shift();
        continue;
      }
      // Skip what is below the position (a compacted or partially drained fetch); drop stale data.
      while (c.records.length > 0 && (c.records[0]?.offset ?? 0) < s.position) c.records.shift();
      if (c.records.length === 0) {
        completed.shift();
        continue;
      }
      const take = c.records.splice(0, max - out.length);
      for (const r of take)
        out.push({
          topic: c.topic,
          partition: c.partition,
          offset: r.offset,
          timestamp: r.timestamp,
          key: r.key,
          value: r.value,
        });
      // The position carries the epoch of the last record returned (FetchCollector: nextInLineFetch.lastEpoch).
      const last = take[take.length - 1];
      if (last) {
        s.position = last.offset + 1;
        s.offsetEpoch = last.leaderEpoch ?? null;
      }
      if (c.records.length === 0) completed.shift();
    }
    return out;
  }

  /**
   * KafkaConsumer.updateFetchPositions: validate positions after a leader change
   * (OffsetsForLeaderEpoch), then committed offsets for partitions without a position, else
   * auto.offset.reset.
   */
  private updateFetchPositions(): void {
    this.validator.validatePositionsIfNeeded();
    if (this.pendingError) return;
    for (const key of [...this.fetcher.outOfRange]) {
      this.fetcher.outOfRange.delete(key);
      const s = this.subscriptions.states().find((x) => tpString(x) === key);
      if (!s) continue;
      const strategy = this.config['auto.offset.reset'];
      if (strategy === 'none') {
        this.pendingError = new KafkaError(
          'OFFSET_OUT_OF_RANGE',
          `Fetch position ${s.position} is out of range for partition ${key}`,
          {
            exception: 'OffsetOutOfRangeException',
            topic: s.topic,
            partition: s.partition,
            offset: s.position,
          },
        );
        return;
      }
      this.subscriptions.requestOffsetReset(s, strategy);
      this.resetOffset(s, strategy === 'earliest' ? -2 : -1, strategy);
    }
    // Resets still to send (KafkaConsumer.resetPositions): asked by validation for an unknown
    // epoch, or a seekToBeginning / seekToEnd whose ListOffsets could not go out yet.
    for (const s of this.subscriptions.states()) {
      if (s.resetStrategy === null || s.awaitingReset) continue;
      if (s.resetStrategy === 'none') this.resetWithStrategy(s);
      else this.resetOffset(s, s.resetStrategy === 'earliest' ? -2 : -1, s.resetStrategy);
    }
    const missing = this.subscriptions
      .states()
      .filter((s) => s.position === null && !s.awaitingCommitted && !s.awaitingReset && s.resetStrategy === null);
    if (missing.length === 0) return;
    if (this.coordinator) {
      for (const s of missing) s.awaitingCommitted = true;
      this.coordinator.fetchCommitted(missing, (committed) => {
        for (const s of missing) {
          s.awaitingCommitted = false;
          if (!this.subscriptions.isAssigned(s) || s.position !== null || committed === null) continue;
          const c = committed.get(tpString(s));
          // A committed offset with its leader epoch is validated against the leader before fetching.
          if (c && c.offset >= 0)
            this.subscriptions.seekUnvalidated(s, {
              offset: c.offset,
              offsetEpoch: c.leaderEpoch >= 0 ? c.leaderEpoch : null,
              currentLeader: this.fetcher.currentLeader(s.topic, s.partition),
            });
          else this.resetWithStrategy(s);
        }
      });
    } else {
      for (const s of missing) this.resetWithStrategy(s);
    }
  }

  private resetWithStrategy(tp: TopicPartition): void {
    const strategy = this.config['auto.offset.reset'];
    if (strategy === 'none') {
      this.pendingError = new KafkaError(
        'OFFSET_OUT_OF_RANGE',
        `Undefined offset with no reset policy for partitions: [${tpString(tp)}]`,
        {
          exception: 'NoOffsetForPartitionException',
          topic: tp.topic,
          partition: tp.partition,
        },
      );
      return;
    }
    this.resetOffset(tp, strategy === 'earliest' ? -2 : -1, strategy);
  }

  private resetOffset(tp: TopicPartition, timestamp: -1 | -2, strategy: string): void {
    const s = this.subscriptions.state(tp);
    const leader = this.fetcher.leaderFor(tp.topic, tp.partition);
    if (!s || leader === null) return;
    s.awaitingReset = true;
    this.ctx.network.send(
      this.clientId,
      leader,
      { api: 'ListOffsets', partitions: [{ topic: tp.topic, partition: tp.partition, timestamp }] },
      (r) => {
        s.awaitingReset = false;
        const p = r?.api === 'ListOffsets' ? (r as ConsumerListOffsetsResponse).partitions[0] : undefined;
        // Disconnected, timed out or not the leader any more: ask for metadata, retry at the next poll.
        if (p?.errorCode !== 'NONE') {
          this.fetcher.requestMetadataUpdate();
          return;
        }
        if (!this.subscriptions.isAssigned(tp) || s.position !== null) return;
        this.subscriptions.seekValidated(tp, {
          offset: p.offset,
          offsetEpoch: null,
          currentLeader: this.fetcher.currentLeader(tp.topic, tp.partition),
        });
        this.ctx.emit({
          type: 'consumerOffsetReset',
          consumerId: this.clientId,
          topic: tp.topic,
          partition: tp.partition,
          strategy,
          offset: p.offset,
          atMs: this.ctx.scheduler.now(),
        });
      },
    );
  }

  private offsetsFor(offsets?: Map<string, { topic: string; partition: number; offset: number }>): OffsetsToCommit {
    return offsets ?? this.subscriptions.allConsumed();
  }

  /**
   * Commits (by default every position); the result completes when the coordinator answers.
   * Like ConsumerCoordinator.commitOffsetsSync, retriable failures (the coordinator is loading,
   * moved or unreachable) are retried after retry.backoff.ms until default.api.timeout.ms has
   * passed (then REQUEST_TIMED_OUT, Kafka's TimeoutException); other errors end it at once.
   */
  commitSync(offsets?: { topic: string; partition: number; offset: number }[]): CommitResult {
    this.ensureOpen();
    const deadline = this.ctx.scheduler.now() + this.config['default.api.timeout.ms'];
    const result: CommitResult = { done: false, error: null };
    const attempt = () => {
      if (this.lifecycle !== 'running') {
        result.done = true;
        result.error = 'NETWORK_EXCEPTION';
        return;
      }
      this.commitAsync(offsets, (error) => {
        if (!RETRIABLE_COMMIT_ERRORS.has(error)) {
          result.done = true;
          result.error = error as CommitResult['error'];
          return;
        }
        if (this.ctx.scheduler.now() + this.config['retry.backoff.ms'] >= deadline) {
          result.done = true;
          result.error = 'REQUEST_TIMED_OUT';
          return;
        }
        this.ctx.scheduler.schedule(this.config['retry.backoff.ms'], attempt);
      });
    };
    attempt();
    return result;
  }

  commitAsync(
    offsets?: { topic: string; partition: number; offset: number }[],
    callback?: (error: string) => void,
  ): CommitResult {
    this.ensureOpen();
    if (!this.coordinator) {
      throw new KafkaError(
        'INVALID_GROUP_ID',
        'To use the group management or offset commit APIs, you must provide a valid group.id in the consumer configuration.',
      );
    }
    const map = offsets ? new Map(offsets.map((o) => [tpString(o), o])) : undefined;
    const result: CommitResult = { done: false, error: null };
    const toCommit = this.offsetsFor(map);
    if (toCommit.size === 0) {
      result.done = true;
      result.error = 'NONE';
      return result;
    }
    this.coordinator.commit(toCommit, (error) => {
      result.done = true;
      result.error = error;
      callback?.(error);
    });
    return result;
  }

  /** Orderly shutdown: a last auto commit, then LeaveGroup (dynamic members). */
  close(): void {
    if (this.lifecycle !== 'running') return;
    if (this.coordinator) {
      if (this.config['enable.auto.commit'] && this.subscriptions.allConsumed().size > 0) {
        this.coordinator.commit(this.subscriptions.allConsumed(), () => {});
      }
      this.coordinator.maybeLeaveGroup('the consumer is being closed');
      this.coordinator.close();
    }
    this.lifecycle = 'closed';
    this.ctx.emit({
      type: 'consumerStateChanged',
      consumerId: this.clientId,
      groupId: this.groupId,
      state: 'CLOSED',
      atMs: this.ctx.scheduler.now(),
      reason: 'close()',
    });
  }

  /** The process dies: no goodbye, no commit, and nothing more in or out. */
  crash(): void {
    if (this.lifecycle !== 'running') return;
    this.coordinator?.close();
    this.ctx.network.clientDown(this.clientId);
    this.lifecycle = 'crashed';
    this.ctx.emit({
      type: 'consumerStateChanged',
      consumerId: this.clientId,
      groupId: this.groupId,
      state: 'CRASHED',
      atMs: this.ctx.scheduler.now(),
      reason: 'crash',
    });
  }
}
