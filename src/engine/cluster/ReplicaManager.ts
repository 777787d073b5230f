import { isKafkaError } from '../errors';
import { wholeBatches } from '../codec/logInputStream';
import { formatReplicationOffsetCheckpoint } from './checkpoint';
import type { BrokerServices } from './BrokerServices';
import { DelayedFetchPurgatory } from './DelayedFetch';
import { DelayedProduce, DelayedProducePurgatory, PendingProduce } from './DelayedProduce';
import type { ClusterEvent } from './events';
import { tpKey } from '../TopicPartition';
import type { HostedLog, LogManager } from './LogManager';
import { Partition } from './Partition';
import { fetchOffsetForTimestamp, getPartitionOrError, lastOffsetForLeaderEpoch } from './ReplicaOffsets';
import type { ReplicaAppendInfo } from './ReplicaLog';
import { readBatches, readBatchHeaders } from './ReplicaLog';
import {
  type AlterPartitionResponse,
  CONSUMER_REPLICA_ID,
  type ErrorCode,
  type FetchPartitionResponse,
  type FetchRequest,
  type FetchResponse,
  type LeaderAndIsrPartitionState,
  type ListOffsetsRequest,
  type ListOffsetsResponse,
  type OffsetsForLeaderEpochRequest,
  type OffsetsForLeaderEpochResponse,
  type ProducePartitionResponse,
  type ProduceRequest,
  type ProduceResponse,
} from './requests';
import type { TopicConfig } from './TopicConfig';

export type { HostedLog } from './HostedLog';

const EMPTY_RECORDS = new Uint8Array(0);

function emptyFetchPartition(partitionIndex: number, errorCode: ErrorCode, hw = -1, lso = -1): FetchPartitionResponse {
  return {
    partitionIndex,
    errorCode,
    highWatermark: hw,
    lastStableOffset: hw,
    logStartOffset: lso,
    divergingEpoch: null,
    records: EMPTY_RECORDS,
  };
}

/** Why a replica's log was cut (the replicaTruncated event's reason). */
type TruncateReason = Extract<ClusterEvent, { type: 'replicaTruncated' }>['reason'];
/**
 * A broker's replicas (Kafka's ReplicaManager): the Partition objects it hosts, leader appends
 * for Produce (with the acks=all purgatory, DelayedProduce), reads for Fetch (consumers up to
 * the high watermark, followers up to the LEO, with the long-poll purgatory DelayedFetch),
 * leader-epoch lookups, and the periodic ISR check that asks the controller to drop followers
 * that have not caught up within replica.lag.time.max.ms.
 *
 * Logs outlive the process: they belong to the LogManager (the broker's disk and page cache);
 * `partitions` — the in-memory replica state — is rebuilt from controller requests after a restart.
 */
export class ReplicaManager {
  readonly partitions = new Map<string, Partition>();
  private readonly lastCheckpoint = new Map<string, string>();
  private readonly producePurgatory: DelayedProducePurgatory;
  private readonly fetchPurgatory: DelayedFetchPurgatory;

  constructor(
    private readonly brokerId: number,
    readonly logManager: LogManager,
    private readonly services: BrokerServices,
  ) {
    this.producePurgatory = new DelayedProducePurgatory(brokerId, services, this.partitions);
    this.fetchPurgatory = new DelayedFetchPurgatory(
      services,
      this.partitions,
      (request, isFollower) => this.buildFetchResponse(request, isFollower).response,
    );
  }

  /** The broker's logs on disk (the LogManager's), by topic-partition key. */
  get logs(): Map<string, HostedLog> {
    return this.logManager.logs;
  }

  /** Kafka's UnderReplicatedPartitions gauge (ReplicaManager): the partitions it leads that are under-replicated. */
  underReplicatedPartitionCount(): number {
    let n = 0;
    for (const p of this.partitions.values()) if (p.isUnderReplicated) n++;
    return n;
  }

  private emit(e: ClusterEvent): void {
    this.services.emit(e);
  }

  private now(): number {
    return this.services.scheduler.now();
  }

  /** The process died: forget in-memory replica state; the logs stay on disk. */
  onProcessDown(): void {
    this.partitions.clear();
    this.producePurgatory.clear();
    this.fetchPurgatory.clear();
  }

  topicConfig(topic: string): TopicConfig {
    return this.services.topicConfig(topic);
  }

  // ------------------------------------------------------------------ logs

  getOrCreatePartition(topic: string, partition: number): Partition {
    const key = tpKey(topic, partition);
    const existing = this.partitions.get(key);
    if (existing) return existing;
    const hosted = this.logManager.getOrCreateLog(topic, partition);
    const p = new Partition(topic, partition, this.brokerId, hosted.log, this.topicConfig(topic), hosted.dir, {
      now: this.services.scheduler.now(),
      expirationMs: this.services.config['producer.id.expiration.ms'],
    });
    p.highWatermark = Math.min(hosted.checkpointedHighWatermark, hosted.log.logEndOffset());
    hosted.log.setHighWatermark?.(p.highWatermark);
    this.partitions.set(key, p);
    return p;
  }

  /**
   * The broker's periodic producer-id expiry (every producer.id.expiration.check.interval.ms,
   * ProducerStateManager.removeExpiredProducers on each log): producers idle for
   * producer.id.expiration.ms are forgotten, so their next batch is accepted at any sequence.
   */
  removeExpiredProducers(): void {
    const now = this.services.scheduler.now();
    const ms = this.services.config['producer.id.expiration.ms'];
    for (const p of this.partitions.values()) p.producerState.removeExpiredProducers(now, ms);
  }

  deletePartition(topic: string, partition: number): void {
    this.partitions.delete(tpKey(topic, partition));
    this.logManager.deleteLog(topic, partition);
  }

  /** Kafka's checkpointHighWatermarks: one replication-offset-checkpoint file per log dir. */
  checkpointHighWatermarks(): void {
    for (const [key, p] of this.partitions) {
      const hosted = this.logs.get(key);
      if (hosted) hosted.checkpointedHighWatermark = p.highWatermark;
    }
    for (const dir of this.logManager.logDirs) {
      const entries: { topic: string; partition: number; offset: number }[] = [];
      for (const h of this.logs.values())
        if (h.dir === dir)
          entries.push({ topic: h.topic, partition: h.partition, offset: h.checkpointedHighWatermark });
      const text = formatReplicationOffsetCheckpoint(entries);
      // Unchanged since the last write: nothing to write (an idle cluster does not touch the disk).
      if (this.lastCheckpoint.get(dir) === text) continue;
      this.lastCheckpoint.set(dir, text);
      this.services.writeHighWatermarkCheckpoint(this.brokerId, dir, text);
    }
  }

  /** Writes every log dir's checkpoint again, changed or not (the Store lost its files). */
  rewriteHighWatermarkCheckpoints(): void {
    this.lastCheckpoint.clear();
    this.checkpointHighWatermarks();
  }

  // ------------------------------------------------------------------ LeaderAndIsr

  /** Applies one partition state from the controller; returns the error for that partition. */
  becomeLeaderOrFollower(state: LeaderAndIsrPartitionState): { error: ErrorCode; becameFollowerOf: number | null } {
    const key = tpKey(state.topicName, state.partitionIndex);
    const current = this.partitions.get(key);
    if (current && state.leaderEpoch < current.leaderEpoch)
      return { error: 'FENCED_LEADER_EPOCH', becameFollowerOf: null };
    if (current && state.leaderEpoch === current.leaderEpoch && state.partitionEpoch <= current.partitionEpoch)
      return { error: 'NONE', becameFollowerOf: null };
    if (!state.replicas.includes(this.brokerId)) return { error: 'NONE', becameFollowerOf: null };
    const p = this.getOrCreatePartition(state.topicName, state.partitionIndex);
    p.config = this.topicConfig(state.topicName);
    p.log.updateConfig?.(p.config);
    const now = this.now();
    if (state.leader === this.brokerId) {
      p.makeLeader(state, now);
      this.reportRole('becameLeader', p, state, now);
      this.maybeIncrementHighWatermark(p);
      this.completeDelayedFor(key);
      return { error: 'NONE', becameFollowerOf: null };
    }
    p.makeFollower(state);
    this.reportRole('becameFollower', p, state, now);
    this.completeDelayedFor(key);
    return { error: 'NONE', becameFollowerOf: state.leader >= 0 ? state.leader : null };
  }

  private reportRole(
    type: 'becameLeader' | 'becameFollower',
    p: Partition,
    state: LeaderAndIsrPartitionState,
    now: number,
  ): void {
    this.emit({
      type,
      broker: this.brokerId,
      topic: p.topic,
      partition: p.partition,
      leader: state.leader,
      leaderEpoch: state.leaderEpoch,
      isr: [...state.isr],
      logEndOffset: p.logEndOffset(),
      highWatermark: p.highWatermark,
      atMs: now,
    });
  }

  // ------------------------------------------------------------------ produce

  handleProduce(request: ProduceRequest, respond: (r: ProduceResponse) => void): void {
    const now = this.now();
    const pending = new PendingProduce(request.acks, respond);
    for (const td of request.topicData) {
      const entry = { topic: td.topic, partitions: [] as ProducePartitionResponse[] };
      pending.responses.push(entry);
      for (const pd of td.partitions) {
        const slot = entry.partitions.length;
        const outcome = this.appendToLeader(td.topic, pd.partition, pd.records, request.acks, request.timeoutMs, now);
        if (outcome instanceof DelayedProduce) {
          entry.partitions.push(this.errorResponse(pd.partition, 'REQUEST_TIMED_OUT', null));
          outcome.pending = pending;
          outcome.topicIndex = pending.responses.length - 1;
          outcome.slot = slot;
          pending.waiting++;
        } else entry.partitions.push(outcome);
      }
    }
    pending.maybeFinish();
  }

  private errorResponse(partition: number, errorCode: ErrorCode, message: string | null, logStartOffset = -1) {
    return {
      partition,
      errorCode,
      baseOffset: -1,
      logAppendTimeMs: -1,
      logStartOffset,
      recordErrors: [],
      errorMessage: message,
    } satisfies ProducePartitionResponse;
  }

  private appendToLeader(
    topic: string,
    partitionIndex: number,
    records: Uint8Array,
    acks: number,
    timeoutMs: number,
    now: number,
  ): ProducePartitionResponse | DelayedProduce {
    const p = this.partitions.get(tpKey(topic, partitionIndex));
    if (!p) {
      const known = this.services.metadataHasPartition(topic, partitionIndex);
      const code: ErrorCode = known ? 'NOT_LEADER_OR_FOLLOWER' : 'UNKNOWN_TOPIC_OR_PARTITION';
      this.reportProduce(topic, partitionIndex, acks, code, -1, -1, false, now);
      return this.errorResponse(partitionIndex, code, null);
    }
    if (!p.isLeader) {
      this.reportProduce(topic, partitionIndex, acks, 'NOT_LEADER_OR_FOLLOWER', -1, -1, false, now);
      return this.errorResponse(partitionIndex, 'NOT_LEADER_OR_FOLLOWER', null);
    }
    // Kafka's appendRecordsToLeader: acks=all refused before the write while the ISR is below
    // the effective min ISR (min.insync.replicas capped by the replication factor).
    const minIsr = p.effectiveMinIsr();
    if (acks === -1 && p.isr.length < minIsr) {
      const msg = `The size of the current ISR [${p.isr.join(', ')}] is insufficient to satisfy the min.isr requirement of ${minIsr} for partition ${topic}-${partitionIndex}`;
      this.reportProduce(topic, partitionIndex, acks, 'NOT_ENOUGH_REPLICAS', -1, -1, false, now);
      return this.errorResponse(partitionIndex, 'NOT_ENOUGH_REPLICAS', msg, p.log.logStartOffset());
    }
    let baseOffset: number;
    let lastOffset: number;
    let duplicate = false;
    try {
      const headers = readBatchHeaders(records);
      // Idempotence: every batch is checked before anything is written.
      const dups = headers.map((h) => p.producerState.checkLeaderAppend(h));
      if (dups.every((d) => d !== null)) {
        readBatches(records); // a duplicate is still refused if corrupt (the log checks the rest)
        duplicate = true;
        baseOffset = (dups[0] as { firstOffset: number }).firstOffset;
        lastOffset = (dups[dups.length - 1] as { lastOffset: number }).lastOffset;
      } else {
        const info = p.log.appendAsLeader(records, p.leaderEpoch, p.config['max.message.bytes']);
        for (const h of info.batches) p.producerState.update(h);
        baseOffset = info.firstOffset;
        lastOffset = info.lastOffset;
        this.logAppended(p, info, 'leader');
        this.maybeIncrementHighWatermark(p);
        this.fetchPurgatory.checkAndComplete(tpKey(topic, partitionIndex));
      }
    } catch (e) {
      const code: ErrorCode = isKafkaError(e) ? e.code : 'UNKNOWN_SERVER_ERROR';
      this.reportProduce(topic, partitionIndex, acks, code, -1, -1, false, now);
      return this.errorResponse(partitionIndex, code, e instanceof Error ? e.message : null, p.log.logStartOffset());
    }
    this.reportProduce(topic, partitionIndex, acks, 'NONE', baseOffset, lastOffset, duplicate, now);
    const ok: ProducePartitionResponse = {
      partition: partitionIndex,
      errorCode: 'NONE',
      baseOffset,
      logAppendTimeMs: -1,
      logStartOffset: p.log.logStartOffset(),
      recordErrors: [],
      errorMessage: null,
    };
    if (acks !== -1 || p.highWatermark > lastOffset) return ok;
    const delayed = new DelayedProduce(topic, partitionIndex, lastOffset + 1, baseOffset, p.leaderEpoch, now);
    this.producePurgatory.watch(delayed, timeoutMs, now);
    return delayed;
  }

  private reportProduce(
    topic: string,
    partition: number,
    acks: number,
    errorCode: ErrorCode,
    baseOffset: number,
    lastOffset: number,
    duplicate: boolean,
    atMs: number,
  ): void {
    if (this.services.wants('produceHandled'))
      this.emit({
        type: 'produceHandled',
        broker: this.brokerId,
        topic,
        partition,
        acks,
        errorCode,
        baseOffset,
        lastOffset,
        duplicate,
        atMs,
      });
  }

  /** Something changed for the partition (HW, leadership, ISR): what waits on it may complete. */
  private completeDelayedFor(key: string): void {
    this.producePurgatory.checkAndComplete(key);
    this.fetchPurgatory.checkAndComplete(key);
  }

  // ------------------------------------------------------------------ high watermark / ISR

  maybeIncrementHighWatermark(p: Partition): void {
    const old = p.maybeIncrementLeaderHighWatermark(
      this.now(),
      this.services.config['replica.lag.time.max.ms'],
      (broker) => this.services.metadataHasAliveBroker(broker),
    );
    if (old === null) return;
    this.highWatermarkMoved(p, old, 'leader');
    this.completeDelayedFor(tpKey(p.topic, p.partition));
  }

  /** Kafka's maybeShrinkIsr, run every replica.lag.time.max.ms / 2. */
  maybeShrinkIsr(): void {
    const now = this.now();
    const lagMax = this.services.config['replica.lag.time.max.ms'];
    for (const p of this.partitions.values()) {
      if (!p.isLeader || p.pendingIsr) continue;
      const lagging = p.outOfSyncReplicas(now, lagMax);
      if (lagging.length === 0) continue;
      const out = new Set(lagging.map((l) => l.replica));
      this.sendAlterPartition(
        p,
        p.isr.filter((r) => !out.has(r)),
        'shrink',
        lagging,
      );
    }
  }

  private maybeExpandIsr(p: Partition, follower: number): void {
    if (p.pendingIsr || !p.canJoinIsr(follower)) return;
    this.sendAlterPartition(p, [...p.isr, follower], 'expand', []);
  }

  private sendAlterPartition(
    p: Partition,
    newIsr: number[],
    change: 'shrink' | 'expand',
    lagging: { replica: number; lagMs: number }[],
  ): void {
    const now = this.now();
    p.pendingIsr = { newIsr, change, sentAtMs: now };
    this.emit({
      type: 'isrChangeRequested',
      broker: this.brokerId,
      topic: p.topic,
      partition: p.partition,
      change,
      oldIsr: [...p.isr],
      newIsr: [...newIsr],
      lagging,
      atMs: now,
    });
    const sent = this.services.sendToController({
      api: 'AlterPartition',
      brokerId: this.brokerId,
      brokerEpoch: this.services.brokerEpoch(),
      topics: [
        {
          topicName: p.topic,
          partitions: [
            { partitionIndex: p.partition, leaderEpoch: p.leaderEpoch, newIsr, partitionEpoch: p.partitionEpoch },
          ],
        },
      ],
    });
    // No controller to ask, or it never answers: give up so the check can try again later.
    const retryAfter = sent
      ? this.services.config['controller.socket.timeout.ms']
      : this.services.config['replica.fetch.backoff.ms'];
    const pending = p.pendingIsr;
    this.services.scheduler.schedule(retryAfter, () => {
      if (p.pendingIsr === pending) p.pendingIsr = null;
    });
  }

  handleAlterPartitionResponse(response: AlterPartitionResponse): void {
    for (const t of response.topics) {
      for (const r of t.partitions) {
        const p = this.partitions.get(tpKey(t.topicName, r.partitionIndex));
        if (!p) continue;
        p.pendingIsr = null;
        if (r.errorCode !== 'NONE' || response.errorCode !== 'NONE') continue;
        if (r.leaderEpoch !== p.leaderEpoch) continue;
        p.isr = [...r.isr];
        p.partitionEpoch = r.partitionEpoch;
        this.maybeIncrementHighWatermark(p);
        this.completeDelayedFor(tpKey(p.topic, p.partition));
      }
    }
  }

  // ------------------------------------------------------------------ fetch

  handleFetch(request: FetchRequest, respond: (r: FetchResponse) => void): void {
    const isFollower = request.replicaId !== CONSUMER_REPLICA_ID;
    const first = this.buildFetchResponse(request, isFollower);
    if (request.maxWaitMs <= 0 || first.bytes >= request.minBytes || first.errors) {
      respond(first.response);
      return;
    }
    this.fetchPurgatory.watch(request, isFollower, respond);
  }

  private buildFetchResponse(
    request: FetchRequest,
    isFollower: boolean,
  ): { response: FetchResponse; bytes: number; errors: boolean } {
    let bytes = 0;
    let errors = false;
    const responses: FetchResponse['responses'] = [];
    // ReplicaManager.readFromLocalLog: the response's max_bytes is shared by the partitions in
    // request order, each read limited to min(partition_max_bytes, what is left); only the first
    // partition that returns records may exceed it (minOneMessage, so a batch larger than either
    // limit is still delivered), the ones after get what fits or nothing.
    let limitBytes = Math.max(0, request.maxBytes);
    let minOneMessage = true;
    for (const t of request.topics) {
      const partitions: FetchPartitionResponse[] = [];
      for (const fp of t.partitions) {
        const maxBytes = Math.min(Math.max(0, fp.partitionMaxBytes), limitBytes);
        const r = this.readPartition(t.topic, fp, request.replicaId, isFollower, maxBytes, minOneMessage);
        if (r.records.length > 0) minOneMessage = false;
        limitBytes = Math.max(0, limitBytes - r.records.length);
        bytes += r.records.length;
        if (r.errorCode !== 'NONE') errors = true;
        partitions.push(r);
      }
      responses.push({ topic: t.topic, partitions });
    }
    return { response: { api: 'Fetch', throttleTimeMs: 0, errorCode: 'NONE', responses }, bytes, errors };
  }

  private readPartition(
    topic: string,
    fp: FetchRequest['topics'][number]['partitions'][number],
    replicaId: number,
    isFollower: boolean,
    maxBytes: number,
    minOneMessage: boolean,
  ): FetchPartitionResponse {
    const empty = emptyFetchPartition;
    const p = this.leaderPartitionOrError(topic, fp.partition, fp.currentLeaderEpoch, true);
    if (typeof p === 'string') return empty(fp.partition, p);
    const now = this.now();
    const log = p.log;
    if (isFollower) {
      if (!p.replicas.includes(replicaId)) return empty(fp.partition, 'NOT_LEADER_OR_FOLLOWER');
      const diverging = this.divergingEpoch(p, fp);
      if (diverging === 'OFFSET_OUT_OF_RANGE')
        return empty(fp.partition, 'OFFSET_OUT_OF_RANGE', p.highWatermark, log.logStartOffset());
      // A follower whose log parts from ours is told where, and its position is not recorded: it
      // must neither move the high watermark nor join the ISR on the strength of a log we do not share.
      if (diverging)
        return { ...empty(fp.partition, 'NONE', p.highWatermark, log.logStartOffset()), divergingEpoch: diverging };
      const before = p.followers.get(replicaId)?.logEndOffset;
      const s = p.updateFollowerFetchState(replicaId, fp.fetchOffset, now);
      // Reported when the leader learns a new LEO for the follower (an idle fetch says nothing new).
      if (before !== s.logEndOffset && this.services.wants('followerStateUpdated'))
        this.emit({
          type: 'followerStateUpdated',
          leader: this.brokerId,
          follower: replicaId,
          topic,
          partition: fp.partition,
          followerLogEndOffset: s.logEndOffset,
          lastCaughtUpTimeMs: s.lastCaughtUpTimeMs,
          atMs: now,
        });
      this.maybeExpandIsr(p, replicaId);
      this.maybeIncrementHighWatermark(p);
    }
    const maxOffset = isFollower ? log.logEndOffset() : p.highWatermark;
    if (fp.fetchOffset < log.logStartOffset() || fp.fetchOffset > log.logEndOffset())
      return empty(fp.partition, 'OFFSET_OUT_OF_RANGE', p.highWatermark, log.logStartOffset());
    let records: Uint8Array = EMPTY_RECORDS;
    if (fp.fetchOffset < maxOffset) {
      try {
        records = log.read(fp.fetchOffset, maxBytes, maxOffset, minOneMessage);
      } catch (e) {
        return empty(
          fp.partition,
          isKafkaError(e) ? e.code : 'UNKNOWN_SERVER_ERROR',
          p.highWatermark,
          log.logStartOffset(),
        );
      }
    }
    return {
      partitionIndex: fp.partition,
      errorCode: 'NONE',
      highWatermark: p.highWatermark,
      lastStableOffset: p.highWatermark,
      logStartOffset: log.logStartOffset(),
      divergingEpoch: null,
      records,
    };
  }

  /**
   * Kafka's Partition.readRecords check of a follower fetch's lastFetchedEpoch (KIP-595): the
   * leader's end offset for that epoch; if the leader's log has no such epoch (it answers with a
   * lower one) or that epoch ends before the fetch offset, the follower's log diverges from here
   * and the answer is that end offset instead of records.
   */
  private divergingEpoch(
    p: Partition,
    fp: FetchRequest['topics'][number]['partitions'][number],
  ): { epoch: number; endOffset: number } | 'OFFSET_OUT_OF_RANGE' | null {
    if (fp.lastFetchedEpoch < 0) return null;
    const end = p.log.endOffsetForEpoch(fp.lastFetchedEpoch);
    if (end.endOffset < 0 || end.epoch < 0 || fp.fetchOffset < p.log.logStartOffset()) return 'OFFSET_OUT_OF_RANGE';
    if (end.epoch < fp.lastFetchedEpoch || end.endOffset < fp.fetchOffset) return end;
    return null;
  }

  /** A follower's append of fetched records; returns the new LEO. */
  appendAsFollower(p: Partition, fetched: Uint8Array, leaderHw: number): void {
    // Only whole batches: the fetch may end with the first bytes of one that did not fit, which
    // Kafka's follower leaves out (records.batches() stops there; UnifiedLog.trimInvalidBytes).
    const records = wholeBatches(fetched);
    if (records.length > 0) {
      const info = p.log.appendAsFollower(records);
      for (const h of info.batches) p.producerState.update(h);
      if (info.batches.length > 0) this.logAppended(p, info, 'follower');
    }
    const old = p.updateFollowerHighWatermark(leaderHw);
    if (old !== null) this.highWatermarkMoved(p, old, 'follower');
  }

  /** Tells of an append to `p`'s log, with the message whose delivery caused it (the page's lock-step). */
  private logAppended(p: Partition, info: ReplicaAppendInfo, role: 'leader' | 'follower'): void {
    if (!this.services.wants('logAppended')) return;
    this.emit({
      type: 'logAppended',
      broker: this.brokerId,
      topic: p.topic,
      partition: p.partition,
      role,
      firstOffset: info.firstOffset,
      lastOffset: info.lastOffset,
      bytes: info.validBytes,
      logEndOffset: p.logEndOffset(),
      cause: this.services.network.handling(),
      atMs: this.now(),
    });
  }

  /** The log keeps the new high watermark (it is checkpointed from there), and the move is told. */
  private highWatermarkMoved(p: Partition, old: number, role: 'leader' | 'follower'): void {
    p.log.setHighWatermark?.(p.highWatermark);
    this.emit({
      type: 'highWatermarkChanged',
      broker: this.brokerId,
      topic: p.topic,
      partition: p.partition,
      old,
      new: p.highWatermark,
      role,
      cause: this.services.network.handling(),
      atMs: this.now(),
    });
  }

  /** Truncates a follower's log (KIP-101); never below its high watermark unless the leader says so. */
  /**
   * Kafka's truncateFullyAndStartAt for a follower that fell behind the leader's log start
   * (retention deleted what it would fetch next): its whole log goes and it starts empty at the
   * leader's log start offset.
   */
  truncateFullyAndStartAt(p: Partition, offset: number): void {
    const old = p.logEndOffset();
    const oldHighWatermark = p.highWatermark;
    p.log.truncateFullyAndStartAt(offset);
    this.logManager.maybeTruncateCleanerCheckpoint(p.topic, p.partition);
    p.producerState.rebuild(p.log.batchHeaders());
    p.highWatermark = offset;
    p.log.setHighWatermark?.(offset);
    this.reportTruncated(p, old, oldHighWatermark, 'leaderLogStartOffset', null);
  }

  /** The replicaTruncated event, once the log has been cut (both truncation paths tell it alike). */
  private reportTruncated(
    p: Partition,
    oldLogEndOffset: number,
    oldHighWatermark: number,
    reason: TruncateReason,
    leaderEpochEndOffset: { epoch: number; endOffset: number } | null,
  ): void {
    this.emit({
      type: 'replicaTruncated',
      broker: this.brokerId,
      topic: p.topic,
      partition: p.partition,
      oldLogEndOffset,
      newLogEndOffset: p.logEndOffset(),
      highWatermark: p.highWatermark,
      oldHighWatermark,
      reason,
      leaderEpochEndOffset,
      atMs: this.now(),
    });
  }

  truncate(
    p: Partition,
    offset: number,
    reason: TruncateReason,
    leaderEpochEndOffset: { epoch: number; endOffset: number } | null,
  ): void {
    const old = p.logEndOffset();
    if (offset >= old) {
      // Nothing to cut, but an epoch this replica started as leader and never wrote to goes.
      p.log.truncateTo(offset);
      return;
    }
    const oldHighWatermark = p.highWatermark;
    const activeBase = this.logManager.activeSegmentBaseOffset(p.topic, p.partition);
    p.log.truncateTo(offset);
    // LogManager.truncateTo: below the active segment, the cleaner checkpoint may have to come back.
    if (activeBase !== null && offset < activeBase)
      this.logManager.maybeTruncateCleanerCheckpoint(p.topic, p.partition);
    p.loadProducerState(this.now(), this.services.config['producer.id.expiration.ms']);
    if (p.highWatermark > p.logEndOffset()) p.highWatermark = p.logEndOffset();
    p.log.setHighWatermark?.(p.highWatermark);
    this.reportTruncated(p, old, oldHighWatermark, reason, leaderEpochEndOffset);
  }

  // ------------------------------------------------------------------ epochs & offsets

  private leaderPartitionOrError(topic: string, partition: number, epoch: number, rejectNewerEpoch: boolean) {
    return getPartitionOrError(this.partitions, this.services, topic, partition, epoch, rejectNewerEpoch);
  }

  handleOffsetsForLeaderEpoch(request: OffsetsForLeaderEpochRequest): OffsetsForLeaderEpochResponse {
    return lastOffsetForLeaderEpoch(this.partitions, this.services, request);
  }

  handleListOffsets(request: ListOffsetsRequest): ListOffsetsResponse {
    return fetchOffsetForTimestamp(this.partitions, this.services, request);
  }
}
