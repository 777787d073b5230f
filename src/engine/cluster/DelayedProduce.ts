import type { BrokerServices } from './BrokerServices';
import { tpKey } from '../TopicPartition';
import type { Partition } from './Partition';
import type { ErrorCode, ProducePartitionResponse, ProduceResponse } from './requests';
import type { TaskId } from './Scheduler';

/** A produce request waiting for its partitions' answers (some wait in the purgatory). */
export class PendingProduce {
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
export class DelayedProduce {
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

/**
 * The produce purgatory (Kafka's DelayedOperationPurgatory[DelayedProduce], watched per
 * partition): acks=all batches wait here until the leader's high watermark reaches them, the
 * leader loses its leadership, or request.timeout.ms passes (an ISR below min.insync.replicas
 * freezes the HW, so such a batch waits for the ISR to recover or times out). Each partition's batches wait in append order, so in requiredOffset order.
 */
export class DelayedProducePurgatory {
  /** acks=all batches waiting, per partition, in append order (so in requiredOffset order). */
  private delayedProduces = new Map<string, DelayedProduce[]>();

  constructor(
    private readonly brokerId: number,
    private readonly services: BrokerServices,
    private readonly partitions: ReadonlyMap<string, Partition>,
  ) {}

  /** The process died: nothing waits any more (the timers find their batches gone). */
  clear(): void {
    this.delayedProduces = new Map();
  }

  /** Parks a batch until it completes or `timeoutMs` passes. */
  watch(delayed: DelayedProduce, timeoutMs: number, now: number): void {
    const key = tpKey(delayed.topic, delayed.partition);
    const waiting = this.delayedProduces.get(key);
    if (waiting) waiting.push(delayed);
    else this.delayedProduces.set(key, [delayed]);
    delayed.timer = this.services.scheduler.scheduleCall(now + timeoutMs, this.expireProduceFn, delayed);
  }

  /** Kafka's checkAndComplete for one partition's key. */
  checkAndComplete(key: string): void {
    const waiting = this.delayedProduces.get(key);
    if (!waiting) return;
    let any = false;
    for (const d of waiting) {
      // In offset order: once one must keep waiting for the HW, so must the rest (unless
      // leadership changed, which every tryComplete sees the same way).
      if (this.tryCompleteProduce(d)) any = true;
      else break;
    }
    if (any) this.prune(key);
  }

  /** Kafka's DelayedProduce.tryComplete via Partition.checkEnoughReplicasReachOffset. */
  private tryCompleteProduce(d: DelayedProduce): boolean {
    if (d.done) return true;
    const p = this.partitions.get(tpKey(d.topic, d.partition));
    let code: ErrorCode | null = null;
    // Not the leader any more: a leader change completes the waiting batches at once (makeFollower
    // calls completeDelayedFetchOrProduceRequests), so a new epoch under the same leader keeps them.
    if (!p?.isLeader) code = 'NOT_LEADER_OR_FOLLOWER';
    else {
      // An ISR that fell below min ISR after the append freezes the HW, so the batch waits: for
      // the ISR to recover, or for request.timeout.ms (REQUEST_TIMED_OUT).
      const check = p.checkEnoughReplicasReachOffset(d.requiredOffset);
      if (check.done || check.error !== 'NONE') code = check.error;
    }
    if (code === null) return false;
    this.finishProduce(d, code);
    return true;
  }

  private finishProduce(d: DelayedProduce, code: ErrorCode): void {
    d.done = true;
    this.services.scheduler.cancel(d.timer);
    const now = this.services.scheduler.now();
    if (this.services.wants('produceCompleted'))
      this.services.emit({
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

  private expireProduce(d: DelayedProduce): void {
    if (d.done) return;
    const key = tpKey(d.topic, d.partition);
    const waiting = this.delayedProduces.get(key);
    if (!waiting?.includes(d)) return; // the process restarted since
    if (!this.tryCompleteProduce(d)) this.finishProduce(d, 'REQUEST_TIMED_OUT');
    this.prune(key);
  }

  private prune(key: string): void {
    const waiting = this.delayedProduces.get(key);
    if (!waiting) return;
    const rest = waiting.filter((x) => !x.done);
    if (rest.length === 0) this.delayedProduces.delete(key);
    else this.delayedProduces.set(key, rest);
  }
}
