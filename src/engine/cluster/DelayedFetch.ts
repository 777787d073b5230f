import type { BrokerServices } from './BrokerServices';
import { tpKey } from '../TopicPartition';
import type { Partition } from './Partition';
import type { FetchRequest, FetchResponse } from './requests';
import type { TaskId } from './Scheduler';

/** A fetch held until there is something to return or maxWaitMs passes (Kafka's DelayedFetch). */
export class DelayedFetch {
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

/**
 * The fetch purgatory (Kafka's DelayedOperationPurgatory[DelayedFetch]): a long-poll fetch that
 * found less than minBytes waits here, watched by each of its partitions, until there is data to
 * return (for a consumer: the high watermark moved; for a follower: the log end moved), one of
 * its partitions can only answer with an error, or maxWaitMs passes. Either way it is answered
 * by reading the logs again (`read`, the ReplicaManager's readFromLocalLog).
 */
export class DelayedFetchPurgatory {
  private delayedFetches: DelayedFetch[] = [];

  constructor(
    private readonly services: BrokerServices,
    private readonly partitions: ReadonlyMap<string, Partition>,
    private readonly read: (request: FetchRequest, isFollower: boolean) => FetchResponse,
  ) {}

  /** The process died: nothing waits any more. */
  clear(): void {
    this.delayedFetches = [];
  }

  /** Long poll: holds the fetch until data arrives (for a consumer: until the HW moves) or maxWait. */
  watch(request: FetchRequest, isFollower: boolean, respond: (r: FetchResponse) => void): void {
    const keys: string[] = [];
    for (const t of request.topics) for (const fp of t.partitions) keys.push(tpKey(t.topic, fp.partition));
    const delayed = new DelayedFetch(request, isFollower, respond, keys);
    this.delayedFetches.push(delayed);
    delayed.timer = this.services.scheduler.scheduleCall(
      this.services.scheduler.now() + request.maxWaitMs,
      this.expireFetchFn,
      delayed,
    );
  }

  private readonly expireFetchFn = (d: DelayedFetch) => {
    if (!d.done) {
      d.done = true;
      d.respond(this.read(d.request, d.isFollower));
    }
    this.delayedFetches = this.delayedFetches.filter((x) => !x.done);
  };

  /** Kafka's checkAndComplete for one partition's key. */
  checkAndComplete(key: string): void {
    if (this.delayedFetches.length === 0) return;
    let completed = false;
    for (const d of this.delayedFetches) {
      if (d.done || !d.keys.includes(key)) continue;
      this.tryCompleteFetch(d);
      if (d.done) completed = true;
    }
    if (completed) this.delayedFetches = this.delayedFetches.filter((d) => !d.done);
  }

  /** Kafka's DelayedFetch.tryComplete: enough to return, or an error to return at once. */
  private tryCompleteFetch(d: DelayedFetch): void {
    if (d.done || this.peekFetchBytes(d.request, d.isFollower) < d.request.minBytes) return;
    d.done = true;
    this.services.scheduler.cancel(d.timer);
    d.respond(this.read(d.request, d.isFollower));
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
}
