import { isKafkaError } from '../errors';
import { SegmentNotLoadedError } from '../log/SegmentCache';
import { formatReplicationOffsetCheckpoint } from './checkpoint';
import type { BrokerServices } from './BrokerServices';
import type { ClusterEvent } from './events';
import { Partition } from './Partition';
import type { ReplicaLog } from './ReplicaLog';
import { readBatches, readBatchHeaders } from './ReplicaLog';
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
import type { TaskId } from './Scheduler';

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

/** A produce request waiting for its partitions' answers (some wait in the purgatory). */
class PendingProduce {
  readonly responses: { topic: string; partitions: ProducePartitionResponse[] }[] = [];
  waiting = 0;

  constructor(
    readonly acks: number,
    private readonly respond: (r: ProduceResponse) => void,
  ) {}

  complete(topicIndex: number, slot: number, r: ProducePartitionResponse): void {
    const entry = this.responses[topicIndex];
    if (entry) entry.partitions[slot] = r;
    this.waiting--;
    this.maybeFinish();
  }

  maybeFinish(): void {
    if (this.waiting > 0 || this.acks === 0) return;
    this.respond({ api: 'Produce', responses: this.responses, throttleTimeMs: 0 });
  }
}

/** acks=all: a batch waiting until the high watermark passes it (Kafka's DelayedProduce). */
class DelayedProduce {
  pending: PendingProduce | null = null;
  topicIndex = 0;
  slot = 0;
  done = false;
  /** The expiry timer, cancelled on completion (Kafka's DelayedOperation.forceComplete). */
  timer: TaskId = -1;

  constructor(
    readonly topic: string,
    readonly partition: number,
    readonly requiredOffset: number,
    readonly baseOffset: number,
    public leaderEpoch: number,
    readonly createdMs: number,
  ) {}
}

/** A fetch held until there is something to return or maxWaitMs passes (Kafka's DelayedFetch). */
class DelayedFetch {
  done = false;
  /** The maxWait timer, cancelled when data completes the fetch first. */
  timer: TaskId = -1;

  constructor(
    readonly request: FetchRequest,
    readonly isFollower: boolean,
    readonly respond: (r: FetchResponse) => void,
    readonly keys: string[],
  ) {}
}

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

export const tpKey = (topic: string, partition: number): string => `${topic}-${partition}`;

export class ReplicaManager {
  readonly logs = new Map<string, HostedLog>();
  readonly partitions = new Map<string, Partition>();
  private readonly lastCheckpoint = new Map<string, string>();
  /** acks=all batches waiting, per partition, in append order (so in requiredOffset order). */
  private delayedProduces = new Map<string, DelayedProduce[]>();
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
    this.delayedProduces = new Map();
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
      const partitionsPerLogDir: Record<string, number> = {};
      for (const d of this.logDirs) partitionsPerLogDir[d] = 0;
      for (const l of this.logs.values()) partitionsPerLogDir[l.dir] = (partitionsPerLogDir[l.dir] ?? 0) + 1;
      this.emit({
        type: 'replicaCreated',
        broker: this.brokerId,
        topic,
        partition,
        logDir: dir,
        partitionsPerLogDir,
        atMs: this.now(),
      });
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
    if (!hosted) return;
    this.services.deleteLog(this.brokerId, hosted.dir, topic, partition);
    this.emit({
      type: 'replicaDeleted',
      broker: this.brokerId,
      topic,
      partition,
      logDir: hosted.dir,
      atMs: this.now(),
    });
  }

  /** Kafka's checkpointHighWatermarks: one replication-offset-checkpoint file per log dir. */
  checkpointHighWatermarks(): void {
    for (const [key, p] of this.partitions) {
      const hosted = this.logs.get(key);
      if (hosted) hosted.checkpointedHighWatermark = p.highWatermark;
    }
    for (const dir of this.logDirs) {
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

  flushAll(): void {
    for (const h of this.logs.values()) h.log.flush();
  }

  /** The log flusher (flush.ms) and the retention check, run periodically by the broker. */
  maybeFlushLogs(): void {
    const now = this.now();
    for (const h of this.logs.values()) h.log.maybeFlush?.(now);
  }

  /** Kafka's retention check (every log.retention.check.interval.ms). */
  cleanupLogs(): void {
    const now = this.now();
    for (const h of this.logs.values()) {
      const r = h.log.deleteOldSegments?.(now);
      if (r && r.deletedSegments > 0)
        this.emit({
          type: 'logRetention',
          broker: this.brokerId,
          topic: h.topic,
          partition: h.partition,
          deletedSegments: r.deletedSegments,
          logStartOffset: r.logStartOffset,
          ...(r.deleted ? { deleted: r.deleted.map((d) => ({ ...d })) } : {}),
          atMs: now,
        });
    }
  }

  /** Kafka's LogCleaner: a compaction pass over every compacted log (every log.cleaner.backoff.ms). */
  compactLogs(): void {
    const now = this.now();
    for (const h of this.logs.values()) {
      const r = h.log.compact?.(now);
      if (r && r.bytesAfter < r.bytesBefore)
        this.emit({
          type: 'logCompacted',
          broker: this.brokerId,
          topic: h.topic,
          partition: h.partition,
          recordsSuperseded: r.recordsSuperseded,
          tombstonesRemoved: r.tombstonesRemoved,
          bytesBefore: r.bytesBefore,
          bytesAfter: r.bytesAfter,
          ...(r.cleanedSegments ? { cleanedSegments: [...r.cleanedSegments] } : {}),
          atMs: now,
        });
    }
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
      // Still the leader, only a newer epoch (the controller changed the ISR): the log was never
      // truncated, so batches waiting for acks=all keep waiting under the new epoch.
      if (p.isLeader) for (const d of this.delayedProduces.get(key) ?? []) d.leaderEpoch = state.leaderEpoch;
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
    const minIsr = p.config['min.insync.replicas'];
    if (acks === -1 && p.isr.length < minIsr) {
      const msg = `The size of the current ISR [${p.isr.join(', ')}] is insufficient to satisfy the min.isr requirement of ${minIsr}`;
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
        if (this.services.wants('logAppended'))
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
    const key = tpKey(topic, partitionIndex);
    const waiting = this.delayedProduces.get(key);
    if (waiting) waiting.push(delayed);
    else this.delayedProduces.set(key, [delayed]);
    delayed.timer = this.services.scheduler.scheduleCall(now + timeoutMs, this.expireProduceFn, delayed);
    return delayed;
  }

  /** Kafka's DelayedProduce.tryComplete via Partition.checkEnoughReplicasReachOffset. */
  private tryCompleteProduce(d: DelayedProduce): boolean {
    if (d.done) return true;
    const p = this.partitions.get(tpKey(d.topic, d.partition));
    let code: ErrorCode | null = null;
    if (!p?.isLeader || p.leaderEpoch !== d.leaderEpoch) code = 'NOT_LEADER_OR_FOLLOWER';
    else if (p.highWatermark >= d.requiredOffset)
      code = p.isr.length >= p.config['min.insync.replicas'] ? 'NONE' : 'NOT_ENOUGH_REPLICAS_AFTER_APPEND';
    // The ISR fell below min.insync.replicas after the append: Kafka answers this once the HW
    // reaches the batch; here the HW waits for the ISR (KIP-966), so the answer comes now.
    else if (p.isr.length < p.config['min.insync.replicas'] && !p.pendingIsr) code = 'NOT_ENOUGH_REPLICAS_AFTER_APPEND';
    if (code === null) return false;
    this.finishProduce(d, code);
    return true;
  }

  private finishProduce(d: DelayedProduce, code: ErrorCode): void {
    d.done = true;
    this.services.scheduler.cancel(d.timer);
    const now = this.now();
    if (this.services.wants('produceCompleted'))
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
    d.pending?.complete(d.topicIndex, d.slot, {
      partition: d.partition,
      errorCode: code,
      baseOffset: code === 'NONE' ? d.baseOffset : -1,
      logAppendTimeMs: -1,
      logStartOffset: this.partitions.get(tpKey(d.topic, d.partition))?.log.logStartOffset() ?? -1,
      recordErrors: [],
      errorMessage: null,
    });
  }

  private readonly expireProduceFn = (d: DelayedProduce) => this.expireProduce(d);

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

  private expireProduce(d: DelayedProduce): void {
    if (d.done) return;
    const key = tpKey(d.topic, d.partition);
    const waiting = this.delayedProduces.get(key);
    if (!waiting?.includes(d)) return; // the process restarted since
    if (!this.tryCompleteProduce(d)) this.finishProduce(d, 'REQUEST_TIMED_OUT');
    this.prune(key);
  }

  private completeDelayedFor(key: string): void {
    const waiting = this.delayedProduces.get(key);
    if (waiting) {
      let any = false;
      for (const d of waiting) {
        // In offset order: once one must keep waiting for the HW, so must the rest (unless
        // leadership changed, which every tryComplete sees the same way).
        if (this.tryCompleteProduce(d)) any = true;
        else break;
      }
      if (any) this.prune(key);
    }
    this.completeDelayedFetches(key);
  }

  private prune(key: string): void {
    const waiting = this.delayedProduces.get(key);
    if (!waiting) return;
    const rest = waiting.filter((x) => !x.done);
    if (rest.length === 0) this.delayedProduces.delete(key);
    else this.delayedProduces.set(key, rest);
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
    const first = this.buildFetchResponse(request, isFollower);
    if (request.maxWaitMs <= 0 || first.bytes >= request.minBytes || first.errors) {
      respond(first.response);
      return;
    }
    // Long poll: hold the fetch until data arrives (for a consumer: until the HW moves) or maxWait.
    const keys: string[] = [];
    for (const t of request.topics) for (const fp of t.partitions) keys.push(tpKey(t.topic, fp.partition));
    const delayed = new DelayedFetch(request, isFollower, respond, keys);
    this.delayedFetches.push(delayed);
    delayed.timer = this.services.scheduler.scheduleCall(this.now() + request.maxWaitMs, this.expireFetchFn, delayed);
  }

  private readonly expireFetchFn = (d: DelayedFetch) => {
    if (!d.done) {
      d.done = true;
      d.respond(this.buildFetchResponse(d.request, d.isFollower).response);
    }
    this.delayedFetches = this.delayedFetches.filter((x) => !x.done);
  };

  private tryCompleteFetch(d: DelayedFetch): void {
    if (d.done || this.peekFetchBytes(d.request, d.isFollower) < d.request.minBytes) return;
    d.done = true;
    this.services.scheduler.cancel(d.timer);
    d.respond(this.buildFetchResponse(d.request, d.isFollower).response);
  }

  private buildFetchResponse(
    request: FetchRequest,
    isFollower: boolean,
  ): { response: FetchResponse; bytes: number; errors: boolean } {
    let bytes = 0;
    let errors = false;
    const responses: FetchResponse['responses'] = [];
    for (const t of request.topics) {
      const partitions: FetchPartitionResponse[] = [];
      for (const fp of t.partitions) {
        const r = this.readPartition(t.topic, fp, request.replicaId, isFollower);
        bytes += r.records.length;
        if (r.errorCode !== 'NONE') errors = true;
        partitions.push(r);
      }
      responses.push({ topic: t.topic, partitions });
    }
    return { response: { api: 'Fetch', throttleTimeMs: 0, errorCode: 'NONE', responses }, bytes, errors };
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
    let completed = false;
    for (const d of this.delayedFetches) {
      if (d.done || !d.keys.includes(key)) continue;
      this.tryCompleteFetch(d);
      if (d.done) completed = true;
    }
    if (completed) this.delayedFetches = this.delayedFetches.filter((d) => !d.done);
  }

  private readPartition(
    topic: string,
    fp: FetchRequest['topics'][number]['partitions'][number],
    replicaId: number,
    isFollower: boolean,
  ): FetchPartitionResponse {
    const p = this.partitions.get(tpKey(topic, fp.partition));
    const empty = emptyFetchPartition;
    if (!p)
      return empty(
        fp.partition,
        this.services.metadataHasPartition(topic, fp.partition)
          ? 'NOT_LEADER_OR_FOLLOWER'
          : 'UNKNOWN_TOPIC_OR_PARTITION',
      );
    if (!p.isLeader) return empty(fp.partition, 'NOT_LEADER_OR_FOLLOWER');
    if (fp.currentLeaderEpoch >= 0 && fp.currentLeaderEpoch < p.leaderEpoch)
      return empty(fp.partition, 'FENCED_LEADER_EPOCH');
    if (fp.currentLeaderEpoch > p.leaderEpoch) return empty(fp.partition, 'UNKNOWN_LEADER_EPOCH');
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
        records = log.read(fp.fetchOffset, Math.max(1, fp.partitionMaxBytes), maxOffset);
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
  appendAsFollower(p: Partition, records: Uint8Array, leaderHw: number): void {
    const now = this.now();
    if (records.length > 0) {
      const info = p.log.appendAsFollower(records);
      for (const h of info.batches) p.producerState.update(h);
      if (info.batches.length > 0 && this.services.wants('logAppended'))
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
    if (offset >= old) {
      // Nothing to cut, but an epoch this replica started as leader and never wrote to goes.
      p.log.truncateTo(offset);
      return;
    }
    const oldHighWatermark = p.highWatermark;
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
      oldHighWatermark,
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
            // First offset whose timestamp >= the target, among committed records.
            const limit = consumer ? p.highWatermark : p.logEndOffset();
            let answer: ReturnType<NonNullable<ReplicaLog['offsetForTimestamp']>> | undefined;
            try {
              answer = p.log.offsetForTimestamp?.(lp.timestamp);
            } catch (e) {
              // The answer is in a segment being read back from the store: a retriable error
              // (Kafka's KafkaStorageException is retriable too); the client asks again.
              if (!(e instanceof SegmentNotLoadedError)) throw e;
              return {
                partitionIndex: lp.partitionIndex,
                errorCode: 'KAFKA_STORAGE_ERROR' as ErrorCode,
                timestamp: -1,
                offset: -1,
                leaderEpoch: -1,
              };
            }
            const exact = answer;
            if (exact !== undefined) {
              const found = exact !== null && exact.offset < limit;
              return {
                partitionIndex: lp.partitionIndex,
                errorCode: 'NONE' as ErrorCode,
                timestamp: found ? exact.timestamp : -1,
                offset: found ? exact.offset : -1,
                leaderEpoch: found ? (exact.leaderEpoch ?? -1) : -1,
              };
            }
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
          oldHighWatermark: h.checkpointedHighWatermark,
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
