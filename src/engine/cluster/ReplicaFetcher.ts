import type { BrokerServices } from './BrokerServices';
import type { ResponseMessage } from './Network';
import type { Partition } from './Partition';
import { tpKey } from '../TopicPartition';
import type { ReplicaManager } from './ReplicaManager';
import {
  brokerNodeId,
  EARLIEST_TIMESTAMP,
  type FetchRequest,
  type FetchResponse,
  LATEST_TIMESTAMP,
  type ListOffsetsResponse,
  type OffsetsForLeaderEpochResponse,
} from './requests';
import type { TaskId } from './Scheduler';

/**
 * A follower broker's fetcher for one leader broker (Kafka's ReplicaFetcherThread, one per
 * source broker). It loops: a Fetch for every partition it follows from that leader at the
 * follower's LEO, or, while some partition is still truncating, OffsetsForLeaderEpoch (KIP-101)
 * for those first. The leader holds the fetch up to replica.fetch.wait.max.ms when it has
 * nothing new; the next fetch goes out as soon as a response is processed. Errors back off for
 * replica.fetch.backoff.ms.
 *
 * Kafka 3.9 truncates on fetch (KIP-595, IBP >= 2.7; AbstractFetcherThread.partitionFetchState):
 * a partition whose log has a leader-epoch cache starts fetching at once at its LEO, and every
 * fetch carries the epoch of its last record (lastFetchedEpoch); a leader whose log disagrees
 * answers with a divergingEpoch instead of records. A partition without epochs truncates to its
 * high watermark first. A fetch the leader finds out of range goes through Kafka's
 * fetchOffsetAndTruncate: ListOffsets LATEST at the leader; a leader ending below this replica
 * means truncating to its end; otherwise ListOffsets EARLIEST, and a leader starting past this
 * replica's end means dropping the whole log and starting again at the leader's log start.
 *
 * Truncation (AbstractFetcherThread.getOffsetTruncationState), from a divergingEpoch or an
 * OffsetsForLeaderEpoch answer: if the follower has the leader's epoch too, truncate to the
 * smaller of the two end offsets; if not, truncate to where the follower's own (lower) epoch
 * ends and fetch again with that epoch; if the follower has no epoch that old, truncate to the
 * leader's offset; with no usable answer, fall back to the high watermark. So a follower never
 * appends after, nor counts towards the ISR with, a log the leader does not share.
 */
interface FetchState {
  partition: Partition;
  leaderEpoch: number;
  /** outOfRangeLatest / outOfRangeEarliest: fetchOffsetAndTruncate's two ListOffsets round trips. */
  state: 'truncating' | 'fetching' | 'outOfRangeLatest' | 'outOfRangeEarliest';
}

export class ReplicaFetcher {
  private readonly states = new Map<string, FetchState>();
  private inFlight: number | null = null;
  private wakeAt: number | null = null;
  private stopped = false;

  constructor(
    private readonly brokerId: number,
    readonly leaderId: number,
    private readonly services: BrokerServices,
    private readonly replicaManager: ReplicaManager,
  ) {}

  get size(): number {
    return this.states.size;
  }

  /**
   * Kafka's partitionFetchState with truncation on fetch: a log with a leader-epoch cache fetches
   * at once (the leader's divergingEpoch says where to truncate), one without epochs truncates to
   * its high watermark first. (The manager removes a partition before adding it again, as
   * Kafka's makeFollowers does, so there is no earlier state to keep.)
   */
  addPartition(p: Partition): void {
    const state = p.log.latestEpoch() === null ? 'truncating' : 'fetching';
    this.states.set(tpKey(p.topic, p.partition), { partition: p, leaderEpoch: p.leaderEpoch, state });
    this.maybeSend();
  }

  removePartition(topic: string, partition: number): void {
    this.states.delete(tpKey(topic, partition));
  }

  shutdown(): void {
    this.stopped = true;
    if (this.inFlight !== null) this.services.network.abandon(this.inFlight);
    this.inFlight = null;
    this.states.clear();
  }

  private get node(): string {
    return brokerNodeId(this.brokerId);
  }

  private valid(s: FetchState): boolean {
    const p = s.partition;
    return p.leaderId === this.leaderId && p.leaderEpoch === s.leaderEpoch && !p.isLeader;
  }

  maybeSend(): void {
    if (this.stopped || this.inFlight !== null || this.wakeAt !== null) return;
    let truncatingCount = 0;
    for (const [key, s] of this.states) {
      if (!this.valid(s)) this.states.delete(key);
      else if (s.state === 'truncating') truncatingCount++;
    }
    if (this.states.size === 0) return;
    const truncating = truncatingCount === 0 ? [] : [...this.states.values()].filter((s) => s.state === 'truncating');
    // A partition with an empty epoch cache has nothing to compare: start fetching at its LEO.
    for (const s of truncating) {
      if (s.partition.log.latestEpoch() === null) {
        this.replicaManager.truncate(s.partition, s.partition.highWatermark, 'highWatermarkFallback', null);
        s.state = 'fetching';
      }
    }
    const stillTruncating = truncating.filter((s) => s.state === 'truncating');
    const to = brokerNodeId(this.leaderId);
    const outOfRange = [...this.states.values()].filter(
      (s) => s.state === 'outOfRangeLatest' || s.state === 'outOfRangeEarliest',
    );
    let cid: number;
    if (outOfRange.length > 0) {
      // RemoteLeaderEndPoint.fetchLatestOffset / fetchEarliestOffset: ListOffsets as a replica.
      cid = this.services.network.send(this.node, to, {
        api: 'ListOffsets',
        replicaId: this.brokerId,
        isolationLevel: 0,
        topics: groupByTopic(outOfRange).map(([name, list]) => ({
          name,
          partitions: list.map((s) => ({
            partitionIndex: s.partition.partition,
            currentLeaderEpoch: s.leaderEpoch,
            timestamp: s.state === 'outOfRangeLatest' ? LATEST_TIMESTAMP : EARLIEST_TIMESTAMP,
          })),
        })),
      });
    } else if (stillTruncating.length > 0) {
      cid = this.services.network.send(this.node, to, {
        api: 'OffsetsForLeaderEpoch',
        replicaId: this.brokerId,
        topics: groupByTopic(stillTruncating).map(([topic, list]) => ({
          topic,
          partitions: list.map((s) => ({
            partition: s.partition.partition,
            currentLeaderEpoch: s.leaderEpoch,
            leaderEpoch: s.partition.log.latestEpoch() ?? -1,
          })),
        })),
      });
    } else {
      const c = this.services.config;
      const topics: FetchRequest['topics'] = [];
      for (const st of this.states.values()) {
        const p = st.partition;
        let entry: FetchRequest['topics'][number] | undefined;
        for (const t of topics) if (t.topic === p.topic) entry = t;
        if (!entry) {
          entry = { topic: p.topic, partitions: [] };
          topics.push(entry);
        }
        entry.partitions.push({
          partition: p.partition,
          currentLeaderEpoch: st.leaderEpoch,
          fetchOffset: p.logEndOffset(),
          lastFetchedEpoch: p.log.latestEpoch() ?? -1,
          logStartOffset: p.log.logStartOffset(),
          partitionMaxBytes: c['replica.fetch.max.bytes'],
        });
      }
      cid = this.services.network.send(this.node, to, {
        api: 'Fetch',
        replicaId: this.brokerId,
        maxWaitMs: c['replica.fetch.wait.max.ms'],
        minBytes: c['replica.fetch.min.bytes'],
        maxBytes: c['replica.fetch.max.bytes'],
        isolationLevel: 0,
        topics,
      });
    }
    this.inFlight = cid;
    const s = this.services.scheduler;
    this.timeoutTask = s.scheduleCall(s.now() + this.services.config['replica.socket.timeout.ms'], this.timeoutFn, cid);
  }

  /** The socket timeout of the request in flight, cancelled when its answer comes. */
  private timeoutTask: TaskId = -1;

  /** replica.socket.timeout.ms passed without a response to request `cid`. */
  private readonly timeoutFn = (cid: number) => {
    if (this.inFlight !== cid) return;
    this.services.network.abandon(cid);
    this.inFlight = null;
    this.backoff();
  };

  private backoff(): void {
    if (this.stopped || this.wakeAt !== null) return;
    const at = this.services.scheduler.now() + this.services.config['replica.fetch.backoff.ms'];
    this.wakeAt = at;
    this.services.scheduler.scheduleAt(at, () => {
      if (this.wakeAt !== at) return;
      this.wakeAt = null;
      this.maybeSend();
    });
  }

  onDisconnect(correlationId: number): void {
    if (this.inFlight !== correlationId) return;
    this.inFlight = null;
    this.backoff();
  }

  onResponse(message: ResponseMessage): void {
    if (this.stopped || message.correlationId !== this.inFlight) return;
    this.inFlight = null;
    this.services.scheduler.cancel(this.timeoutTask);
    const body = message.body;
    let failed = false;
    if (body.api === 'OffsetsForLeaderEpoch') failed = this.processEpochs(body);
    else if (body.api === 'Fetch') failed = this.processFetch(body);
    else if (body.api === 'ListOffsets') failed = this.processListOffsets(body);
    if (failed) this.backoff();
    else this.maybeSend();
  }

  /**
   * AbstractFetcherThread.fetchOffsetAndTruncate, one answer at a time: the leader's end below
   * this replica's (an unclean election) means truncating to it; otherwise the leader's start past
   * this replica's end (retention deleted what it would fetch next) means dropping the whole log
   * and starting at the leader's log start; else fetching goes on from this replica's end.
   */
  private processListOffsets(body: ListOffsetsResponse): boolean {
    let failed = false;
    for (const t of body.topics)
      for (const r of t.partitions) {
        const s = this.states.get(tpKey(t.name, r.partitionIndex));
        if (!s || !this.valid(s) || (s.state !== 'outOfRangeLatest' && s.state !== 'outOfRangeEarliest')) continue;
        if (r.errorCode !== 'NONE') {
          failed = true;
          continue;
        }
        const replicaEnd = s.partition.logEndOffset();
        if (s.state === 'outOfRangeLatest') {
          if (r.offset < replicaEnd) {
            this.replicaManager.truncate(s.partition, r.offset, 'leaderLogEndOffset', null);
            s.state = 'fetching';
          } else s.state = 'outOfRangeEarliest';
        } else {
          if (r.offset > replicaEnd) this.replicaManager.truncateFullyAndStartAt(s.partition, r.offset);
          s.state = 'fetching';
        }
      }
    return failed;
  }

  /** A partition's fetch state if a response about it still applies: still ours, and in `state`. */
  private stateIn(topic: string, partition: number, state: FetchState['state']): FetchState | null {
    const s = this.states.get(tpKey(topic, partition));
    return s && this.valid(s) && s.state === state ? s : null;
  }

  private processEpochs(body: OffsetsForLeaderEpochResponse): boolean {
    let failed = false;
    for (const t of body.topics)
      for (const r of t.partitions) {
        const s = this.stateIn(t.topic, r.partition, 'truncating');
        if (s === null) continue;
        if (r.errorCode !== 'NONE') failed = true;
        else if (this.truncateToEpochEndOffset(s.partition, { epoch: r.leaderEpoch, endOffset: r.endOffset }))
          s.state = 'fetching';
      }
    return failed;
  }

  /**
   * AbstractFetcherThread.getOffsetTruncationState, then the truncation: where this replica's
   * log stops agreeing with the leader's, given the leader's end offset for an epoch (from
   * OffsetsForLeaderEpoch, or a fetch response's divergingEpoch). Returns whether truncation is
   * complete; if not, the leader named an epoch this replica never had, the log was cut back to
   * where its own lower epoch ends, and the leader is asked again.
   */
  private truncateToEpochEndOffset(p: Partition, leader: { epoch: number; endOffset: number }): boolean {
    const replicaEnd = p.logEndOffset();
    if (leader.endOffset < 0) {
      // The leader knows no such epoch: fall back to the high watermark (the initial fetch offset).
      this.replicaManager.truncate(p, Math.min(p.highWatermark, replicaEnd), 'highWatermarkFallback', leader);
      return true;
    }
    const mine = p.log.endOffsetForEpoch(leader.epoch);
    if (mine.endOffset < 0) {
      // This replica tracked no epoch at or below the leader's: the leader's offset decides.
      this.replicaManager.truncate(p, Math.min(leader.endOffset, replicaEnd), 'divergingEpoch', leader);
      return true;
    }
    if (mine.epoch !== leader.epoch) {
      // We lack the leader's epoch: cut back to where our lower epoch ends, then ask again.
      this.replicaManager.truncate(p, Math.min(mine.endOffset, replicaEnd), 'divergingEpoch', leader);
      return false;
    }
    this.replicaManager.truncate(p, Math.min(mine.endOffset, leader.endOffset, replicaEnd), 'divergingEpoch', leader);
    return true;
  }

  /**
   * ReplicaFetcherThread.processPartitionData: the follower's log starts where the leader's does
   * (DeleteRecords on the leader reaches its followers this way). A start past what this replica
   * has committed yet waits for a later fetch.
   */
  private followLogStartOffset(p: Partition, leaderLogStartOffset: number): void {
    if (leaderLogStartOffset <= p.log.logStartOffset() || leaderLogStartOffset > p.highWatermark) return;
    try {
      p.log.maybeIncrementLogStartOffset?.(leaderLogStartOffset);
    } catch {
      // The log's own high watermark has not caught up yet: the next fetch carries the start again.
    }
  }

  private processFetch(body: FetchResponse): boolean {
    let failed = false;
    for (const t of body.responses) {
      for (const r of t.partitions) {
        const s = this.stateIn(t.topic, r.partitionIndex, 'fetching');
        if (!s) continue;
        if (r.errorCode === 'NONE' && r.divergingEpoch) {
          // KIP-595 truncation on fetch: the leader says our last fetched epoch ends earlier (or
          // is not in its log). Truncate, and keep fetching (Kafka's
          // updateFetchOffsetAndMaybeMarkTruncationComplete): the next fetch carries the epoch we
          // now end with, so if truncation is not complete the leader says so again.
          this.truncateToEpochEndOffset(s.partition, r.divergingEpoch);
        } else if (r.errorCode === 'NONE') {
          try {
            this.replicaManager.appendAsFollower(s.partition, r.records, r.highWatermark);
            this.followLogStartOffset(s.partition, r.logStartOffset);
          } catch {
            // Records that no longer line up with our log: find the truncation point again.
            s.state = 'truncating';
          }
        } else if (r.errorCode === 'OFFSET_OUT_OF_RANGE') {
          // handleOutOfRangeError -> fetchOffsetAndTruncate (processListOffsets), asked at once.
          s.state = 'outOfRangeLatest';
        } else {
          failed = true;
        }
      }
    }
    return failed;
  }
}

function groupByTopic(states: FetchState[]): [string, FetchState[]][] {
  const m = new Map<string, FetchState[]>();
  for (const s of states) {
    const list = m.get(s.partition.topic) ?? [];
    list.push(s);
    m.set(s.partition.topic, list);
  }
  return [...m.entries()];
}
