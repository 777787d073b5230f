import { isKafkaError } from '../errors';
import type { BrokerServices } from './BrokerServices';
import type { ClusterEvent } from './events';
import { Partition } from './Partition';
import type { ReplicaLog } from './ReplicaLog';
import { readBatches } from './ReplicaLog';
import {
  type AlterPartitionResponse,
  CONSUMER_REPLICA_ID,
  EARLIEST_TIMESTAMP,
  type ErrorCode,
  type FetchPartitionResponse,
  type FetchRequest,
  type FetchResponse,
  LATEST_TIMESTAMP,
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

/**
 * A broker's replicas (Kafka's ReplicaManager): the Partition objects it hosts, leader appends
 * for Produce (with the acks=all purgatory, DelayedProduce), reads for Fetch (consumers up to
 * the high watermark, followers up to the LEO, with the long-poll purgatory DelayedFetch),
 * leader-epoch lookups, and the periodic ISR check that asks the controller to drop followers
 * that have not caught up within replica.lag.time.max.ms.
 *
 * Logs outlive the process: `logs` is the broker's disk (and page cache); `partitions` — the
 * in-memory replica state — is rebuilt from controller requests after a restart.
 */
export interface HostedLog {
  topic: string;
  partition: number;
  dir: string;
  log: ReplicaLog;
  /** replication-offset-checkpoint: the HW last written to disk. */
  checkpointedHighWatermark: number;
}

interface DelayedProduce {
  topic: string;
  partition: number;
  requiredOffset: number;
  baseOffset: number;
  leaderEpoch: number;
  createdMs: number;
  deadlineMs: number;
  respond: (r: ProducePartitionResponse) => void;
  done: boolean;
}

interface DelayedFetch {
  keys: string[];
  deadlineMs: number;
  complete: () => boolean;
  expire: () => void;
  done: boolean;
}

export const tpKey = (topic: string, partition: number): string => `${topic}-${partition}`;

export class ReplicaManager {
  readonly logs = new Map<string, HostedLog>();
  readonly partitions = new Map<string, Partition>();
  private delayedProduces: DelayedProduce[] = [];
  private delayedFetches: DelayedFetch[] = [];

  constructor(
    private readonly brokerId: number,
    private readonly logDirs: string[],
    private readonly services: BrokerServices,
  ) {}

  private emit(e: ClusterEvent): void {
    this.services.emit(e);
  }

  private now(): number {
    return this.services.scheduler.now();
  }

  /** The process died: forget in-memory replica state; the logs stay on disk. */
  onProcessDown(): void {
    this.partitions.clear();
    this.delayedProduces = [];
    this.delayedFetches = [];
  }

  topicConfig(topic: string): TopicConfig {
    return this.services.topicConfig(topic);
  }

  // ------------------------------------------------------------------ logs

  /** Kafka's LogManager.nextLogDirs: the dir holding the fewest partitions. */
  private chooseLogDir(): string {
    let best = this.logDirs[0] as string;
    let bestCount = Number.POSITIVE_INFINITY;
    for (const dir of this.logDirs) {
      const count = [...this.logs.values()].filter((l) => l.dir === dir).length;
      if (count < bestCount) {
        best = dir;
        bestCount = count;
      }
    }
    return best;
  }

  getOrCreatePartition(topic: string, partition: number): Partition {
    const key = tpKey(topic, partition);
    const existing = this.partitions.get(key);
    if (existing) return existing;
    let hosted = this.logs.get(key);
    if (!hosted) {
      const dir = this.chooseLogDir();
      hosted = {
        topic,
        partition,
        dir,
        log: this.services.newLog(this.brokerId, dir, topic, partition),
        checkpointedHighWatermark: 0,
      };
      this.logs.set(key, hosted);
    }
    const p = new Partition(topic, partition, this.brokerId, hosted.log, this.topicConfig(topic), hosted.dir);
    p.highWatermark = Math.min(hosted.checkpointedHighWatermark, hosted.log.logEndOffset());
    hosted.log.setHighWatermark?.(p.highWatermark);
    this.partitions.set(key, p);
    return p;
  }

  deletePartition(topic: string, partition: number): void {
    const key = tpKey(topic, partition);
    const hosted = this.logs.get(key);
    this.partitions.delete(key);
    this.logs.delete(key);
    if (hosted) this.services.deleteLog(this.brokerId, hosted.dir, topic, partition);
  }

  checkpointHighWatermarks(): void {
    for (const [key, p] of this.partitions) {
      const hosted = this.logs.get(key);
      if (hosted) hosted.checkpointedHighWatermark = p.highWatermark;
    }
  }

  flushAll(): void {
    for (const h of this.logs.values()) h.log.flush();
  }

  /** The log flusher (flush.ms) and the retention check, run periodically by the broker. */
  maybeFlushLogs(): void {
    const now = this.now();
    for (const h of this.logs.values()) h.log.maybeFlush?.(now);
  }

  cleanupLogs(): void {
    const now = this.now();
    for (const h of this.logs.values()) h.log.deleteOldSegments?.(now);
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
      this.emit({
        type: 'becameLeader',
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
      this.maybeIncrementHighWatermark(p);
      this.completeDelayedFor(key);
      return { error: 'NONE', becameFollowerOf: null };
    }
    p.makeFollower(state);
    this.emit({
      type: 'becameFollower',
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
    this.completeDelayedFor(key);
    return { error: 'NONE', becameFollowerOf: state.leader >= 0 ? state.leader : null };
  }

  // ------------------------------------------------------------------ produce

  handleProduce(request: ProduceRequest, respond: (r: ProduceResponse) => void): void {
    const now = this.now();
    const results: { topic: string; partitions: (ProducePartitionResponse | null)[] }[] = [];
    let waiting = 0;
    const finish = () => {
      if (request.acks === 0) return;
      respond({
        api: 'Produce',
        responses: results.map((r) => ({ topic: r.topic, partitions: r.partitions as ProducePartitionResponse[] })),
        throttleTimeMs: 0,
      });
    };
    for (const td of request.topicData) {
      const entry = { topic: td.topic, partitions: [] as (ProducePartitionResponse | null)[] };
      results.push(entry);
      for (const pd of td.partitions) {
        const slot = entry.partitions.length;
        entry.partitions.push(null);
        const outcome = this.appendToLeader(td.topic, pd.partition, pd.records, request.acks, request.timeoutMs, now);
        if (outcome.kind === 'done') entry.partitions[slot] = outcome.response;
        else {
          waiting++;
          outcome.delayed.respond = (r) => {
            entry.partitions[slot] = r;
            waiting--;
            if (waiting === 0) finish();
          };
        }
      }
    }
    if (waiting === 0) finish();
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
  ): { kind: 'done'; response: ProducePartitionResponse } | { kind: 'delayed'; delayed: DelayedProduce } {
    const p = this.partitions.get(tpKey(topic, partitionIndex));
    const report = (errorCode: ErrorCode, baseOffset = -1, lastOffset = -1, duplicate = false) =>
      this.emit({
        type: 'produceHandled',
        broker: this.brokerId,
        topic,
        partition: partitionIndex,
        acks,
        errorCode,
        baseOffset,
        lastOffset,
        duplicate,
        atMs: now,
      });
    if (!p) {
      const known = this.services.metadataHasPartition(topic, partitionIndex);
      const code: ErrorCode = known ? 'NOT_LEADER_OR_FOLLOWER' : 'UNKNOWN_TOPIC_OR_PARTITION';
      report(code);
      return { kind: 'done', response: this.errorResponse(partitionIndex, code, null) };
    }
    if (!p.isLeader) {
      report('NOT_LEADER_OR_FOLLOWER');
      return { kind: 'done', response: this.errorResponse(partitionIndex, 'NOT_LEADER_OR_FOLLOWER', null) };
    }
    const minIsr = p.config['min.insync.replicas'];
    if (acks === -1 && p.isr.length < minIsr) {
      const msg = `The size of the current ISR [${p.isr.join(', ')}] is insufficient to satisfy the min.isr requirement of ${minIsr}`;
      report('NOT_ENOUGH_REPLICAS');
      return {
        kind: 'done',
        response: this.errorResponse(partitionIndex, 'NOT_ENOUGH_REPLICAS', msg, p.log.logStartOffset()),
      };
    }
    let baseOffset: number;
    let lastOffset: number;
    let duplicate = false;
    try {
      const headers = readBatches(records);
      // Idempotence: every batch is checked before anything is written.
      const dups = headers.map((h) => p.producerState.checkLeaderAppend(h));
      if (dups.every((d) => d !== null)) {
        duplicate = true;
        baseOffset = (dups[0] as { firstOffset: number }).firstOffset;
        lastOffset = (dups[dups.length - 1] as { lastOffset: number }).lastOffset;
      } else {
        const info = p.log.appendAsLeader(records, p.leaderEpoch, p.config['max.message.bytes']);
        for (const h of info.batches) p.producerState.update(h);
        baseOffset = info.firstOffset;
        lastOffset = info.lastOffset;
        this.emit({
          type: 'logAppended',
          broker: this.brokerId,
          topic,
          partition: partitionIndex,
          role: 'leader',
          firstOffset: info.firstOffset,
          lastOffset: info.lastOffset,
          bytes: info.validBytes,
          logEndOffset: p.logEndOffset(),
          atMs: now,
        });
        this.maybeIncrementHighWatermark(p);
        this.completeDelayedFetches(tpKey(topic, partitionIndex));
      }
    } catch (e) {
      const code: ErrorCode = isKafkaError(e) ? e.code : 'UNKNOWN_SERVER_ERROR';
      report(code);
      return {
        kind: 'done',
        response: this.errorResponse(
          partitionIndex,
          code,
          e instanceof Error ? e.message : null,
          p.log.logStartOffset(),
        ),
      };
    }
    report('NONE', baseOffset, lastOffset, duplicate);
    const ok: ProducePartitionResponse = {
      partition: partitionIndex,
      errorCode: 'NONE',
      baseOffset,
      logAppendTimeMs: -1,
      logStartOffset: p.log.logStartOffset(),
      recordErrors: [],
      errorMessage: null,
    };
    if (acks !== -1 || p.highWatermark > lastOffset) return { kind: 'done', response: ok };
    const delayed: DelayedProduce = {
      topic,
      partition: partitionIndex,
      requiredOffset: lastOffset + 1,
      baseOffset,
      leaderEpoch: p.leaderEpoch,
      createdMs: now,
      deadlineMs: now + timeoutMs,
      respond: () => {},
      done: false,
    };
    this.delayedProduces.push(delayed);
    this.services.scheduler.schedule(timeoutMs, () => this.expireProduce(delayed));
    return { kind: 'delayed', delayed };
  }

  /** Kafka's DelayedProduce.tryComplete via Partition.checkEnoughReplicasReachOffset. */
  private tryCompleteProduce(d: DelayedProduce): boolean {
    if (d.done) return true;
    const p = this.partitions.get(tpKey(d.topic, d.partition));
    let code: ErrorCode | null = null;
    if (!p?.isLeader || p.leaderEpoch !== d.leaderEpoch) code = 'NOT_LEADER_OR_FOLLOWER';
    else if (p.highWatermark >= d.requiredOffset)
      code = p.isr.length >= p.config['min.insync.replicas'] ? 'NONE' : 'NOT_ENOUGH_REPLICAS_AFTER_APPEND';
    if (code === null) return false;
    this.finishProduce(d, code);
    return true;
  }

  private finishProduce(d: DelayedProduce, code: ErrorCode): void {
    d.done = true;
    const now = this.now();
    this.emit({
      type: 'produceCompleted',
      broker: this.brokerId,
      topic: d.topic,
      partition: d.partition,
      errorCode: code,
      baseOffset: code === 'NONE' ? d.baseOffset : -1,
      waitedMs: now - d.createdMs,
      atMs: now,
    });
    d.respond({
      partition: d.partition,
      errorCode: code,
      baseOffset: code === 'NONE' ? d.baseOffset : -1,
      logAppendTimeMs: -1,
      logStartOffset: this.partitions.get(tpKey(d.topic, d.partition))?.log.logStartOffset() ?? -1,
      recordErrors: [],
      errorMessage: null,
    });
  }

  private expireProduce(d: DelayedProduce): void {
    if (d.done || !this.delayedProduces.includes(d)) return;
    if (!this.tryCompleteProduce(d)) this.finishProduce(d, 'REQUEST_TIMED_OUT');
    this.delayedProduces = this.delayedProduces.filter((x) => !x.done);
  }

  private completeDelayedFor(key: string): void {
    let any = false;
    for (const d of this.delayedProduces)
      if (tpKey(d.topic, d.partition) === key && this.tryCompleteProduce(d)) any = true;
    if (any) this.delayedProduces = this.delayedProduces.filter((x) => !x.done);
    this.completeDelayedFetches(key);
  }

  // ------------------------------------------------------------------ high watermark / ISR

  maybeIncrementHighWatermark(p: Partition): void {
    const old = p.maybeIncrementLeaderHighWatermark();
    if (old === null) return;
    p.log.setHighWatermark?.(p.highWatermark);
    this.emit({
      type: 'highWatermarkChanged',
      broker: this.brokerId,
      topic: p.topic,
      partition: p.partition,
      old,
      new: p.highWatermark,
      role: 'leader',
      atMs: this.now(),
    });
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
    const build = (): { response: FetchResponse; bytes: number; errors: boolean } => {
      let bytes = 0;
      let errors = false;
      const responses = request.topics.map((t) => ({
        topic: t.topic,
        partitions: t.partitions.map((fp) => {
          const r = this.readPartition(t.topic, fp, request.replicaId, isFollower);
          bytes += r.records.length;
          if (r.errorCode !== 'NONE') errors = true;
          return r;
        }),
      }));
      return { response: { api: 'Fetch', throttleTimeMs: 0, errorCode: 'NONE', responses }, bytes, errors };
    };
    const first = build();
    if (request.maxWaitMs <= 0 || first.bytes >= request.minBytes || first.errors) {
      respond(first.response);
      return;
    }
    // Long poll: hold the fetch until data arrives (for a consumer: until the HW moves) or maxWait.
    const keys = request.topics.flatMap((t) => t.partitions.map((p) => tpKey(t.topic, p.partition)));
    const delayed: DelayedFetch = {
      keys,
      deadlineMs: this.now() + request.maxWaitMs,
      done: false,
      complete: () => {
        const again = this.peekFetchBytes(request, isFollower);
        if (again < request.minBytes) return false;
        delayed.done = true;
        respond(build().response);
        return true;
      },
      expire: () => {
        if (delayed.done) return;
        delayed.done = true;
        respond(build().response);
      },
    };
    this.delayedFetches.push(delayed);
    this.services.scheduler.schedule(request.maxWaitMs, () => {
      delayed.expire();
      this.delayedFetches = this.delayedFetches.filter((d) => !d.done);
    });
  }

  private peekFetchBytes(request: FetchRequest, isFollower: boolean): number {
    let n = 0;
    for (const t of request.topics) {
      for (const fp of t.partitions) {
        const p = this.partitions.get(tpKey(t.topic, fp.partition));
        if (!p?.isLeader) return Number.POSITIVE_INFINITY; // an error answers at once
        const end = isFollower ? p.logEndOffset() : p.highWatermark;
        if (end > fp.fetchOffset) n += 1;
      }
    }
    return n;
  }

  private completeDelayedFetches(key: string): void {
    if (this.delayedFetches.length === 0) return;
    for (const d of this.delayedFetches) if (!d.done && d.keys.includes(key)) d.complete();
    this.delayedFetches = this.delayedFetches.filter((d) => !d.done);
  }

  private readPartition(
    topic: string,
    fp: FetchRequest['topics'][number]['partitions'][number],
    replicaId: number,
    isFollower: boolean,
  ): FetchPartitionResponse {
    const p = this.partitions.get(tpKey(topic, fp.partition));
    const empty = (errorCode: ErrorCode, hw = -1, lso = -1): FetchPartitionResponse => ({
      partitionIndex: fp.partition,
      errorCode,
      highWatermark: hw,
      lastStableOffset: hw,
      logStartOffset: lso,
      divergingEpoch: null,
      records: new Uint8Array(0),
    });
    if (!p)
      return empty(
        this.services.metadataHasPartition(topic, fp.partition)
          ? 'NOT_LEADER_OR_FOLLOWER'
          : 'UNKNOWN_TOPIC_OR_PARTITION',
      );
    if (!p.isLeader) return empty('NOT_LEADER_OR_FOLLOWER');
    if (fp.currentLeaderEpoch >= 0 && fp.currentLeaderEpoch < p.leaderEpoch) return empty('FENCED_LEADER_EPOCH');
    if (fp.currentLeaderEpoch > p.leaderEpoch) return empty('UNKNOWN_LEADER_EPOCH');
    const now = this.now();
    const log = p.log;
    if (isFollower) {
      if (!p.replicas.includes(replicaId)) return empty('NOT_LEADER_OR_FOLLOWER');
      const s = p.updateFollowerFetchState(replicaId, fp.fetchOffset, now);
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
      return empty('OFFSET_OUT_OF_RANGE', p.highWatermark, log.logStartOffset());
    let records: Uint8Array = new Uint8Array(0);
    if (fp.fetchOffset < maxOffset) {
      try {
        records = log.read(fp.fetchOffset, Math.max(1, fp.partitionMaxBytes), maxOffset);
      } catch (e) {
        return empty(isKafkaError(e) ? e.code : 'UNKNOWN_SERVER_ERROR', p.highWatermark, log.logStartOffset());
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

  /** A follower's append of fetched records; returns the new LEO. */
  appendAsFollower(p: Partition, records: Uint8Array, leaderHw: number): void {
    const now = this.now();
    if (records.length > 0) {
      const info = p.log.appendAsFollower(records);
      for (const h of info.batches) p.producerState.update(h);
      if (info.batches.length > 0)
        this.emit({
          type: 'logAppended',
          broker: this.brokerId,
          topic: p.topic,
          partition: p.partition,
          role: 'follower',
          firstOffset: info.firstOffset,
          lastOffset: info.lastOffset,
          bytes: info.validBytes,
          logEndOffset: p.logEndOffset(),
          atMs: now,
        });
    }
    const old = p.updateFollowerHighWatermark(leaderHw);
    if (old !== null) p.log.setHighWatermark?.(p.highWatermark);
    if (old !== null)
      this.emit({
        type: 'highWatermarkChanged',
        broker: this.brokerId,
        topic: p.topic,
        partition: p.partition,
        old,
        new: p.highWatermark,
        role: 'follower',
        atMs: now,
      });
  }

  /** Truncates a follower's log (KIP-101); never below its high watermark unless the leader says so. */
  truncate(
    p: Partition,
    offset: number,
    reason: 'divergingEpoch' | 'highWatermarkFallback' | 'powerFailure' | 'becomeFollower',
    leaderEpochEndOffset: { epoch: number; endOffset: number } | null,
  ): void {
    const old = p.logEndOffset();
    if (offset >= old) return;
    p.log.truncateTo(offset);
    p.producerState.rebuild(p.log.batchHeaders());
    if (p.highWatermark > p.logEndOffset()) p.highWatermark = p.logEndOffset();
    p.log.setHighWatermark?.(p.highWatermark);
    this.emit({
      type: 'replicaTruncated',
      broker: this.brokerId,
      topic: p.topic,
      partition: p.partition,
      oldLogEndOffset: old,
      newLogEndOffset: p.logEndOffset(),
      highWatermark: p.highWatermark,
      reason,
      leaderEpochEndOffset,
      atMs: this.now(),
    });
  }

  // ------------------------------------------------------------------ epochs & offsets

  handleOffsetsForLeaderEpoch(request: OffsetsForLeaderEpochRequest): OffsetsForLeaderEpochResponse {
    return {
      api: 'OffsetsForLeaderEpoch',
      throttleTimeMs: 0,
      topics: request.topics.map((t) => ({
        topic: t.topic,
        partitions: t.partitions.map((rp) => {
          const p = this.partitions.get(tpKey(t.topic, rp.partition));
          const fail = (errorCode: ErrorCode) => ({
            errorCode,
            partition: rp.partition,
            leaderEpoch: -1,
            endOffset: -1,
          });
          if (!p)
            return fail(
              this.services.metadataHasPartition(t.topic, rp.partition)
                ? 'NOT_LEADER_OR_FOLLOWER'
                : 'UNKNOWN_TOPIC_OR_PARTITION',
            );
          if (!p.isLeader) return fail('NOT_LEADER_OR_FOLLOWER');
          if (rp.currentLeaderEpoch >= 0 && rp.currentLeaderEpoch < p.leaderEpoch) return fail('FENCED_LEADER_EPOCH');
          if (rp.currentLeaderEpoch > p.leaderEpoch) return fail('UNKNOWN_LEADER_EPOCH');
          const r = p.log.endOffsetForEpoch(rp.leaderEpoch);
          return {
            errorCode: 'NONE' as ErrorCode,
            partition: rp.partition,
            leaderEpoch: r.epoch,
            endOffset: r.endOffset,
          };
        }),
      })),
    };
  }

  handleListOffsets(request: ListOffsetsRequest): ListOffsetsResponse {
    return {
      api: 'ListOffsets',
      throttleTimeMs: 0,
      topics: request.topics.map((t) => ({
        name: t.name,
        partitions: t.partitions.map((lp) => {
          const p = this.partitions.get(tpKey(t.name, lp.partitionIndex));
          const fail = (errorCode: ErrorCode) => ({
            partitionIndex: lp.partitionIndex,
            errorCode,
            timestamp: -1,
            offset: -1,
            leaderEpoch: -1,
          });
          if (!p)
            return fail(
              this.services.metadataHasPartition(t.name, lp.partitionIndex)
                ? 'NOT_LEADER_OR_FOLLOWER'
                : 'UNKNOWN_TOPIC_OR_PARTITION',
            );
          if (!p.isLeader) return fail('NOT_LEADER_OR_FOLLOWER');
          if (lp.currentLeaderEpoch >= 0 && lp.currentLeaderEpoch < p.leaderEpoch) return fail('FENCED_LEADER_EPOCH');
          const consumer = request.replicaId === CONSUMER_REPLICA_ID;
          let offset: number;
          if (lp.timestamp === EARLIEST_TIMESTAMP) offset = p.log.logStartOffset();
          else if (lp.timestamp === LATEST_TIMESTAMP) offset = consumer ? p.highWatermark : p.logEndOffset();
          else {
            // First offset whose batch maxTimestamp >= the target, among committed records.
            const limit = consumer ? p.highWatermark : p.logEndOffset();
            const hit = p.log.batchHeaders().find((h) => h.maxTimestamp >= lp.timestamp && h.baseOffset < limit);
            if (!hit)
              return {
                partitionIndex: lp.partitionIndex,
                errorCode: 'NONE' as ErrorCode,
                timestamp: -1,
                offset: -1,
                leaderEpoch: p.leaderEpoch,
              };
            return {
              partitionIndex: lp.partitionIndex,
              errorCode: 'NONE' as ErrorCode,
              timestamp: hit.maxTimestamp,
              offset: hit.baseOffset,
              leaderEpoch: hit.partitionLeaderEpoch,
            };
          }
          return {
            partitionIndex: lp.partitionIndex,
            errorCode: 'NONE' as ErrorCode,
            timestamp: -1,
            offset,
            leaderEpoch: p.leaderEpoch,
          };
        }),
      })),
    };
  }

  /** A power failure: unflushed bytes vanish from every log on this machine. */
  loseUnflushed(): number {
    let lost = 0;
    for (const h of this.logs.values()) {
      const before = h.log.segments().reduce((n, s) => n + s.unflushedBytes, 0);
      const oldEnd = h.log.logEndOffset();
      h.log.loseUnflushed();
      lost += before;
      if (h.log.logEndOffset() < oldEnd)
        this.emit({
          type: 'replicaTruncated',
          broker: this.brokerId,
          topic: h.topic,
          partition: h.partition,
          oldLogEndOffset: oldEnd,
          newLogEndOffset: h.log.logEndOffset(),
          highWatermark: Math.min(h.checkpointedHighWatermark, h.log.logEndOffset()),
          reason: 'powerFailure',
          leaderEpochEndOffset: null,
          atMs: this.now(),
        });
    }
    return lost;
  }
}
