import { readProducerSnapshot, writeProducerSnapshot } from '../codec/producerSnapshot';
import { ProducerStateManager } from './ProducerStateManager';
import type { ReplicaLog } from './ReplicaLog';
import type { LeaderAndIsrPartitionState } from './requests';
import type { TopicConfig } from './TopicConfig';

/**
 * One broker's replica of a partition (Kafka's Partition): its local log, its view of the
 * partition's leader, epoch and ISR, its high watermark and — when it leads — what it knows of
 * every follower.
 *
 * Leader bookkeeping per follower (Kafka's Replica state):
 *  - logEndOffset: the follower's LEO as shown by the offset of its last fetch (-1 unknown);
 *  - lastCaughtUpTimeMs: the last time the follower had fetched everything the leader had.
 *    A fetch at the leader's LEO catches it up now; a fetch at or past the leader's LEO as of the
 *    follower's previous fetch catches it up as of that previous fetch.
 * High watermark (leader) = min LEO over the "maximal" ISR (the ISR plus a replica being added
 * by an in-flight AlterPartition), so it never runs ahead of a replica that may become leader.
 * A follower's high watermark is the leader's, as learned from fetch responses, capped by its own LEO.
 */
export interface FollowerState {
  logEndOffset: number;
  lastCaughtUpTimeMs: number;
  lastFetchTimeMs: number;
  lastFetchLeaderLogEndOffset: number;
}

export interface PendingIsrChange {
  newIsr: number[];
  change: 'shrink' | 'expand';
  sentAtMs: number;
}

export class Partition {
  replicas: number[] = [];
  isr: number[] = [];
  addingReplicas: number[] = [];
  removingReplicas: number[] = [];
  leaderId = -1;
  leaderEpoch = -1;
  partitionEpoch = -1;
  controllerEpoch = -1;
  highWatermark = 0;
  /** The leader epoch in which this follower last learned the HW from the leader (-1 never). */
  highWatermarkEpoch = -1;
  /** LEO when this replica became leader: ISR expansion needs a follower to reach it. */
  leaderEpochStartOffset = -1;
  pendingIsr: PendingIsrChange | null = null;
  readonly followers = new Map<number, FollowerState>();
  readonly producerState = new ProducerStateManager();

  constructor(
    readonly topic: string,
    readonly partition: number,
    readonly brokerId: number,
    readonly log: ReplicaLog,
    public config: TopicConfig,
    readonly logDir: string,
    /** Recovery's clock and producer.id.expiration.ms: producers already expired in a snapshot are not loaded. */
    producerIdExpiration: { now: number; expirationMs: number } = { now: 0, expirationMs: Number.POSITIVE_INFINITY },
  ) {
    this.loadProducerState(producerIdExpiration.now, producerIdExpiration.expirationMs);
    log.attachProducerSnapshots?.(() => writeProducerSnapshot(this.producerState.snapshotEntries()));
    // UnifiedLog.rebuildProducerState ends in takeSnapshot at the log end offset: a log this new
    // process found on its disk, with records past its latest snapshot (a crash, or a snapshot
    // never written), gets one there, so the next start-up need not read those batches again.
    const latest = log.latestProducerSnapshot?.()?.offset ?? log.logStartOffset();
    if (log.logEndOffset() > latest) log.takeProducerSnapshot?.();
    log.attachProducerState?.(() => {
      const last = new Map<number, number>();
      for (const e of this.producerState.entries()) {
        const b = e.batches[e.batches.length - 1];
        if (b) last.set(e.producerId, b.lastOffset);
      }
      return last;
    });
  }

  /**
   * UnifiedLog.loadProducerState, at load (LogLoader) and after a truncation (UnifiedLog.truncateTo,
   * ProducerStateManager.truncateAndReload): the latest snapshot inside the log, without the
   * producers expired by `now`, then every batch from its offset on (rebuildProducerState); with
   * no usable snapshot, every batch of the log.
   */
  loadProducerState(now: number, expirationMs: number): void {
    const snapshot = this.log.latestProducerSnapshot?.() ?? null;
    if (!snapshot) {
      this.producerState.rebuild(this.log.batchHeaders());
      return;
    }
    this.producerState.loadSnapshot(readProducerSnapshot(snapshot.bytes), now, expirationMs);
    for (const h of this.log.batchHeaders(snapshot.offset)) this.producerState.update(h);
  }

  get isLeader(): boolean {
    return this.leaderId === this.brokerId;
  }

  /**
   * Kafka's Partition.isUnderReplicated: this replica leads and its ISR is smaller than the
   * replication factor (the assigned replicas not being removed by a reassignment).
   */
  get isUnderReplicated(): boolean {
    return this.isLeader && this.replicas.length - this.removingReplicas.length > this.isr.length;
  }

  logEndOffset(): number {
    return this.log.logEndOffset();
  }

  /** The ISR as far as the high watermark is concerned (adds a replica being added). */
  maximalIsr(): number[] {
    if (this.pendingIsr?.change === 'expand') return [...new Set([...this.isr, ...this.pendingIsr.newIsr])];
    return this.isr;
  }

  applyState(state: LeaderAndIsrPartitionState): void {
    this.replicas = [...state.replicas];
    this.isr = [...state.isr];
    this.addingReplicas = [...state.addingReplicas];
    this.removingReplicas = [...state.removingReplicas];
    this.leaderId = state.leader;
    this.leaderEpoch = state.leaderEpoch;
    this.partitionEpoch = state.partitionEpoch;
    this.controllerEpoch = state.controllerEpoch;
    this.pendingIsr = null;
  }

  /** Kafka's makeLeader: reset what we know of followers; ISR members count as caught up now. */
  makeLeader(state: LeaderAndIsrPartitionState, nowMs: number): void {
    this.applyState(state);
    this.leaderEpochStartOffset = this.log.logEndOffset();
    this.log.assignEpochStartOffset(state.leaderEpoch, this.leaderEpochStartOffset);
    this.followers.clear();
    for (const r of this.replicas) {
      if (r === this.brokerId) continue;
      this.followers.set(r, {
        logEndOffset: -1,
        lastCaughtUpTimeMs: this.isr.includes(r) ? nowMs : 0,
        lastFetchTimeMs: nowMs,
        lastFetchLeaderLogEndOffset: this.log.logEndOffset(),
      });
    }
  }

  makeFollower(state: LeaderAndIsrPartitionState): void {
    this.applyState(state);
    this.followers.clear();
    this.leaderEpochStartOffset = -1;
  }

  /** Kafka's updateFollowerFetchState. */
  updateFollowerFetchState(follower: number, fetchOffset: number, nowMs: number): FollowerState {
    let s = this.followers.get(follower);
    if (!s) {
      s = { logEndOffset: -1, lastCaughtUpTimeMs: 0, lastFetchTimeMs: nowMs, lastFetchLeaderLogEndOffset: 0 };
      this.followers.set(follower, s);
    }
    const leaderEnd = this.log.logEndOffset();
    if (fetchOffset >= leaderEnd) s.lastCaughtUpTimeMs = Math.max(s.lastCaughtUpTimeMs, nowMs);
    else if (fetchOffset >= s.lastFetchLeaderLogEndOffset)
      s.lastCaughtUpTimeMs = Math.max(s.lastCaughtUpTimeMs, s.lastFetchTimeMs);
    s.logEndOffset = fetchOffset;
    s.lastFetchLeaderLogEndOffset = leaderEnd;
    s.lastFetchTimeMs = nowMs;
    return s;
  }

  /**
   * Kafka's effectiveMinIsr: min.insync.replicas may be set above the replication factor (nothing
   * refuses it), so the ISR a partition can ever reach caps it.
   */
  effectiveMinIsr(): number {
    return Math.min(this.config['min.insync.replicas'], this.replicas.length);
  }

  /** Kafka's isUnderMinIsr: the committed ISR (not the maximal one) is below the effective min ISR. */
  isUnderMinIsr(): boolean {
    return this.isLeader && this.isr.length < this.effectiveMinIsr();
  }

  /**
   * Kafka's checkEnoughReplicasReachOffset, for an acks=all batch ending before `requiredOffset`:
   * done once the HW reaches it, with NOT_ENOUGH_REPLICAS_AFTER_APPEND if the maximal ISR is below
   * the effective min ISR by then; until then it keeps waiting (error NONE, not done).
   */
  checkEnoughReplicasReachOffset(requiredOffset: number): {
    done: boolean;
    error: 'NONE' | 'NOT_ENOUGH_REPLICAS_AFTER_APPEND' | 'NOT_LEADER_OR_FOLLOWER';
  } {
    if (!this.isLeader) return { done: false, error: 'NOT_LEADER_OR_FOLLOWER' };
    if (this.highWatermark < requiredOffset) return { done: false, error: 'NONE' };
    return {
      done: true,
      error: this.effectiveMinIsr() <= this.maximalIsr().length ? 'NONE' : 'NOT_ENOUGH_REPLICAS_AFTER_APPEND',
    };
  }

  /**
   * Kafka's maybeIncrementLeaderHW: the HW the leader may advance to now (the smallest LEO among
   * the maximal ISR and the followers about to join it); returns the old value when it moved, else
   * null. A caught-up follower outside the ISR holds the HW back too (shouldWaitForReplicaToJoinIsr:
   * it is caught up and, in ZooKeeper mode, its broker is alive in the metadata cache), so the HW
   * never passes a replica that will be in the ISR a moment later. `nowMs` and `lagMaxMs` judge
   * "caught up" (replica.lag.time.max.ms); without them no outside follower waits.
   */
  maybeIncrementLeaderHighWatermark(
    nowMs = 0,
    lagMaxMs = -1,
    isAlive: (broker: number) => boolean = () => false,
  ): number | null {
    if (!this.isLeader) return null;
    // No HW advance while under min ISR (even if the maximal ISR, with a replica being added, would meet it).
    if (this.isUnderMinIsr()) return null;
    const leaderEnd = this.log.logEndOffset();
    let hw = leaderEnd;
    const maximal = this.maximalIsr();
    for (const [r, s] of this.followers) {
      if (s.logEndOffset >= hw) continue;
      // lastCaughtUpTimeMs 0 is Replica.resetReplicaState's "never" (Kafka's clock is never near 0; the engine's may be).
      const waitToJoin =
        lagMaxMs >= 0 && s.lastCaughtUpTimeMs > 0 && Partition.isCaughtUp(s, leaderEnd, nowMs, lagMaxMs) && isAlive(r);
      if (maximal.includes(r) || waitToJoin) hw = s.logEndOffset;
    }
    for (const r of maximal) if (r !== this.brokerId && !this.followers.has(r)) hw = -1;
    if (hw > this.highWatermark) {
      const old = this.highWatermark;
      this.highWatermark = hw;
      return old;
    }
    return null;
  }

  /**
   * Kafka's Replica.isCaughtUp: at the leader's log end, or caught up within the lag allowed. (A
   * follower at the log end of an idle partition stays in sync however long ago it fetched: only
   * the controller, seeing the broker die, takes it out.)
   */
  static isCaughtUp(follower: FollowerState, leaderEndOffset: number, nowMs: number, lagMaxMs: number): boolean {
    return follower.logEndOffset === leaderEndOffset || nowMs - follower.lastCaughtUpTimeMs <= lagMaxMs;
  }

  /** Followers in the ISR that are not caught up (getOutOfSyncReplicas). */
  outOfSyncReplicas(nowMs: number, lagMaxMs: number): { replica: number; lagMs: number }[] {
    const out: { replica: number; lagMs: number }[] = [];
    const leaderEnd = this.log.logEndOffset();
    for (const r of this.isr) {
      if (r === this.brokerId) continue;
      const s = this.followers.get(r);
      if (s && Partition.isCaughtUp(s, leaderEnd, nowMs, lagMaxMs)) continue;
      out.push({ replica: r, lagMs: nowMs - (s?.lastCaughtUpTimeMs ?? 0) });
    }
    return out;
  }

  /** A follower not in the ISR that has reached the HW and this leader's first offset may join. */
  canJoinIsr(follower: number): boolean {
    if (!this.isLeader || this.isr.includes(follower) || !this.replicas.includes(follower)) return false;
    const s = this.followers.get(follower);
    if (!s) return false;
    return s.logEndOffset >= this.highWatermark && s.logEndOffset >= this.leaderEpochStartOffset;
  }

  /** A follower's HW: the leader's, capped by what this replica holds. */
  updateFollowerHighWatermark(leaderHw: number): number | null {
    const hw = Math.min(leaderHw, this.log.logEndOffset());
    this.highWatermarkEpoch = this.leaderEpoch;
    if (hw === this.highWatermark) return null;
    const old = this.highWatermark;
    this.highWatermark = hw;
    return old;
  }
}
