import type { ControllerContext, LeaderIsrAndControllerEpoch } from './ControllerContext';
import type { Watcher } from './CoordinationStore';
import type { LeaderAndIsrValue } from './events';
import { reassignPartitionLeaderElection } from './PartitionLeaderElectionAlgorithms';
import type { ReplicaStateMachine } from './ReplicaStateMachine';
import { type TopicAssignmentZnode, topicPath } from './ZkData';
import type { ErrorCode } from './requests';

const REASSIGN_PATH = '/admin/reassign_partitions';

export interface Reassignment {
  topic: string;
  partition: number;
  original: number[];
  target: number[];
  /** Phase B has begun: in memory RS = TRS, AR = RR = [] (step B2), though ZooKeeper keeps ORS + TRS until B6. */
  completing?: boolean;
}

/** What the reassignment needs of the controller beyond its state machines' context. */
export interface ReassignmentContext extends ControllerContext {
  isActive(): boolean;
  /** Still the controller and in touch with the store (else the write must not happen). */
  canWrite(): boolean;
  watch(): { sessionId: number; watcher: Watcher };
  /** The topic's assignment as in its znode (not counting a reassignment's extra replicas). */
  assignment(topic: string): number[][];
  readonly replicaStateMachine: ReplicaStateMachine;
  /** UpdateMetadata for these partitions to every live broker. */
  updateMetadata(partitions: [string, number][]): void;
  /** TopicDeletionManager.markTopicIneligibleForDeletion: no deletion while a partition moves. */
  markTopicIneligibleForDeletion(topic: string): void;
  /** TopicDeletionManager.resumeDeletionForTopics, once a move of the topic completed. */
  resumeDeletionForTopic(topic: string): void;
}

/**
 * The controller's partition reassignments (KafkaController.onPartitionReassignment and its
 * phases): the partitions being moved, with their original (ORS) and target (TRS) replicas.
 */
export class PartitionReassignment {
  private readonly reassignments = new Map<string, Reassignment>();

  constructor(private readonly ctx: ReassignmentContext) {}

  private get zk() {
    return this.ctx.services.zk;
  }

  get(topic: string, partition: number): Reassignment | undefined {
    return this.reassignments.get(`${topic}-${partition}`);
  }

  clear(): void {
    this.reassignments.clear();
  }

  /** The topic was deleted: its moves end with it (ListPartitionReassignments shows none). */
  forgetTopic(topic: string): void {
    for (const [key, r] of [...this.reassignments]) if (r.topic === topic) this.reassignments.delete(key);
  }

  /** The partition's replicas while it moves: RS = TRS + ORS (TRS alone once Phase B began). */
  replicasOf(topic: string, partition: number, base: readonly number[]): number[] {
    const r = this.get(topic, partition);
    if (!r) return [...base];
    if (r.completing) return [...r.target];
    return [...new Set([...r.target, ...r.original])];
  }

  /** The adding (AR) and removing (RR) replicas that LeaderAndIsr carries. */
  addingRemoving(topic: string, partition: number): { adding: number[]; removing: number[] } {
    const r = this.get(topic, partition);
    if (!r || r.completing) return { adding: [], removing: [] };
    return {
      adding: r.target.filter((x) => !r.original.includes(x)),
      removing: r.original.filter((x) => !r.target.includes(x)),
    };
  }

  /** For the UI: the partitions this controller is moving. */
  inProgress(): { topic: string; partition: number; original: number[]; target: number[] }[] {
    return [...this.reassignments.values()].map((r) => ({ ...r, original: [...r.original], target: [...r.target] }));
  }

  /** A partition of the topic is being moved (in memory, or in the topic znode's adding/removing replicas). */
  isTopicBeingReassigned(topic: string): boolean {
    for (const r of this.reassignments.values()) if (r.topic === topic) return true;
    const d = this.zk.tryGetData(topicPath(topic)) as TopicAssignmentZnode | null;
    const moving = (m: Record<string, number[]> | undefined) => Object.values(m ?? {}).some((x) => x.length > 0);
    return !!d && (moving(d.adding_replicas) || moving(d.removing_replicas));
  }

  /**
   * Kafka's ReplicaAssignment of a partition as the topic znode holds it: RS with its adding (AR)
   * and removing (RR) replicas; ORS = RS - AR, TRS = RS - RR. Null when nothing moves.
   */
  private zkReassignment(topic: string, partition: number): Reassignment | null {
    const d = this.zk.tryGetData(topicPath(topic)) as TopicAssignmentZnode | null;
    const replicas = d?.partitions[String(partition)];
    const adding = d?.adding_replicas?.[String(partition)] ?? [];
    const removing = d?.removing_replicas?.[String(partition)] ?? [];
    if (!replicas || (adding.length === 0 && removing.length === 0)) return null;
    return {
      topic,
      partition,
      original: replicas.filter((x) => !adding.includes(x)),
      target: replicas.filter((x) => !removing.includes(x)),
    };
  }

  /**
   * KafkaController.maybeBuildReassignment: a partition already being moved is reassigned from
   * its original replicas (ORS) to the new target, replacing the move (no target: back to ORS);
   * one not moving is reassigned from its current replicas, or nothing without a target.
   */
  private maybeBuildReassignment(
    topic: string,
    partition: number,
    target: readonly number[] | null,
  ): Reassignment | null {
    const existing = this.get(topic, partition) ?? this.zkReassignment(topic, partition);
    if (existing)
      return { topic, partition, original: [...existing.original], target: [...(target ?? existing.original)] };
    const assigned = this.ctx.assignment(topic)[partition];
    if (!assigned || target === null) return null;
    return { topic, partition, original: [...assigned], target: [...target] };
  }

  /**
   * The /admin/reassign_partitions watch: PartitionReassignmentHandler acts on the znode's
   * creation only (a data change or a deletion just sets the watch again).
   */
  onReassignZnodeEvent(type: string): void {
    if (type === 'NodeCreated') this.processZkPartitionReassignment();
    else this.zk.exists(REASSIGN_PATH, this.ctx.watch());
  }

  /**
   * KafkaController.initializePartitionReassignments on failover: the znode's entries first (they
   * replace a move of the same partition), then the moves the topic znodes record are resumed.
   */
  initializePartitionReassignments(): void {
    const fromZk = this.processZkPartitionReassignment();
    for (const [topic, partition] of this.ctx.allPartitions()) {
      if (fromZk.has(`${topic}-${partition}`) || this.get(topic, partition)) continue;
      const r = this.zkReassignment(topic, partition);
      if (r) this.onPartitionReassignment(r);
    }
  }

  /**
   * KafkaController.processZkPartitionReassignment: every entry of /admin/reassign_partitions
   * goes through maybeBuildReassignment and maybeTriggerPartitionReassignment, so an entry for a
   * partition already being moved (by AlterPartitionReassignments, say) replaces that move as the
   * API would. The entries stay in the znode until their move completes; the ones that failed
   * (the topic is being deleted, or unknown) leave it at once. Returns the partitions reassigned.
   */
  private processZkPartitionReassignment(): Set<string> {
    const ctx = this.ctx;
    const reassigned = new Set<string>();
    if (!ctx.isActive() || !this.zk.exists(REASSIGN_PATH, ctx.watch())) return reassigned;
    const d = this.zk.getData(REASSIGN_PATH).data as {
      partitions: { topic: string; partition: number; replicas: number[] }[];
    } | null;
    const failed: { topic: string; partition: number }[] = [];
    for (const e of d?.partitions ?? []) {
      const r = this.maybeBuildReassignment(e.topic, e.partition, e.replicas);
      if (r && this.maybeTriggerPartitionReassignment(r) === 'NONE') reassigned.add(`${e.topic}-${e.partition}`);
      else failed.push(e);
    }
    for (const f of failed) this.removeFromReassignZnode(f.topic, f.partition);
    return reassigned;
  }

  /** KafkaController.maybeTriggerPartitionReassignment: not for a topic being deleted or a partition not there. */
  private maybeTriggerPartitionReassignment(r: Reassignment): ErrorCode {
    if (this.ctx.isTopicQueuedUpForDeletion(r.topic)) return 'UNKNOWN_TOPIC_OR_PARTITION';
    if (!this.ctx.assignment(r.topic)[r.partition] || !this.ctx.readState(r.topic, r.partition))
      return 'UNKNOWN_TOPIC_OR_PARTITION';
    this.onPartitionReassignment(r);
    return 'NONE';
  }

  /** KafkaController.isReassignmentComplete: nothing is added or removed, or every target replica is in the ISR. */
  private isReassignmentComplete(r: Reassignment, state: LeaderAndIsrValue): boolean {
    const moving = r.target.some((x) => !r.original.includes(x)) || r.original.some((x) => !r.target.includes(x));
    return !moving || r.target.every((x) => state.isr.includes(x));
  }

  private writeAssignment(topic: string, partition: number, replicas: number[], r: Reassignment | null): void {
    if (!this.ctx.canWrite()) return;
    const d = this.zk.tryGetData(topicPath(topic)) as TopicAssignmentZnode | null;
    if (!d) return;
    d.partitions[String(partition)] = replicas;
    const key = String(partition);
    if (r) {
      d.adding_replicas[key] = r.target.filter((x) => !r.original.includes(x));
      d.removing_replicas[key] = r.original.filter((x) => !r.target.includes(x));
    } else {
      delete d.adding_replicas[key];
      delete d.removing_replicas[key];
    }
    this.zk.setData(topicPath(topic), d);
    this.zk.getData(topicPath(topic), this.ctx.watch());
  }

  /** Completes every reassignment whose target has joined the ISR (after an ISR change or a broker's return). */
  checkReassignments(): void {
    if (!this.ctx.isActive()) return;
    for (const [key, r] of [...this.reassignments]) {
      const state = this.ctx.readState(r.topic, r.partition);
      if (!state || !this.isReassignmentComplete(r, state)) continue;
      if (!this.completeReassignment(r, state)) continue;
      this.reassignments.delete(key);
    }
  }

  /**
   * Phase B of KafkaController.onPartitionReassignment, once the target replicas are all in the
   * ISR: B1 the adding replicas go OnlineReplica; B2 RS = TRS in memory; B3 the leader moves into
   * the target by ReassignPartitionLeaderElection if it is not there (or is dead), else only its
   * epoch is bumped (moveReassignedPartitionLeaderIfRequired); B4/B5 each removed replica goes
   * OfflineReplica, leaving the ISR with a write and an epoch bump of its own, then is deleted;
   * B6 ZooKeeper gets RS = TRS; B7 the partition leaves /admin/reassign_partitions. Returns false
   * (nothing changed) when no target replica can lead.
   */
  private completeReassignment(r: Reassignment, state: LeaderIsrAndControllerEpoch): boolean {
    const ctx = this.ctx;
    const { topic, partition } = r;
    const live = new Set(ctx.liveBrokers().keys());
    const leaderStays = r.target.includes(state.leader) && live.has(state.leader);
    const leader = leaderStays ? state.leader : reassignPartitionLeaderElection(r.target, state.isr, live);
    if (leader === null) return false;
    const adding = r.target.filter((x) => !r.original.includes(x));
    const removing = r.original.filter((x) => !r.target.includes(x));
    ctx.replicaStateMachine.handleStateChanges(topic, partition, adding, 'OnlineReplica'); // B1
    r.completing = true; // B2
    const value = ctx.writeState(
      topic,
      partition,
      { leader, leaderEpoch: state.leaderEpoch + 1, isr: state.isr },
      state,
      'reassignment',
    ); // B3
    if (value) ctx.propagate(topic, partition, value);
    this.stopRemovedReplicasOfReassignedPartition(topic, partition, removing); // B4, B5
    this.writeAssignment(topic, partition, r.target, null); // B6
    ctx.services.emit({
      type: 'reassignmentCompleted',
      topic,
      partition,
      originalReplicas: r.original,
      targetReplicas: r.target,
      atMs: ctx.now(),
    });
    this.removeFromReassignZnode(topic, partition, r.target); // B7
    ctx.updateMetadata([[topic, partition]]); // B8
    ctx.resumeDeletionForTopic(topic);
    return true;
  }

  /**
   * KafkaController.stopRemovedReplicasOfReassignedPartition: the replicas go OfflineReplica
   * (leaving the ISR), are stopped and deleted (StopReplica with delete), then NonExistentReplica.
   */
  private stopRemovedReplicasOfReassignedPartition(topic: string, partition: number, removing: number[]): void {
    const ctx = this.ctx;
    ctx.replicaStateMachine.offlineReplicas(topic, partition, removing);
    ctx.replicaStateMachine.deleteReplicas(topic, partition, removing);
  }

  /**
   * KafkaController.processApiPartitionReassignment (AlterPartitionReassignments): each partition
   * is reassigned from its original replicas (ORS: those before any move in progress) to the new
   * target, replacing a move in progress; null replicas cancel it (the target is ORS again), and
   * are NO_REASSIGNMENT_IN_PROGRESS where nothing moves. The latest reassignment wins: the
   * partitions leave /admin/reassign_partitions (maybeRemoveFromZkReassignment). Not written to
   * that znode, they live in the topic znode's adding and removing replicas.
   */
  processApiPartitionReassignment(
    moves: readonly { topic: string; partition: number; replicas: readonly number[] | null }[],
  ): ErrorCode[] {
    const results: (ErrorCode | Reassignment)[] = moves.map((m) => {
      if (!this.ctx.assignment(m.topic)[m.partition]) return 'UNKNOWN_TOPIC_OR_PARTITION';
      return this.maybeBuildReassignment(m.topic, m.partition, m.replicas) ?? 'NO_REASSIGNMENT_IN_PROGRESS';
    });
    for (const r of results) if (typeof r !== 'string') this.removeFromReassignZnode(r.topic, r.partition);
    return results.map((r) => (typeof r === 'string' ? r : this.maybeTriggerPartitionReassignment(r)));
  }

  /**
   * KafkaController.onPartitionReassignment, for the znode's entries, the API's and a move resumed
   * on failover: the topic cannot be deleted meanwhile; updateCurrentReassignment (if the move
   * changes: U1 the topic znode gets RS = TRS + ORS, U2 in memory, and replicas a replaced move had
   * added that the new one does not keep are stopped at once), then Phase A or, already complete
   * (a cancel, a reorder), Phase B.
   */
  private onPartitionReassignment(r: Reassignment): void {
    const ctx = this.ctx;
    const { topic, partition } = r;
    const key = `${topic}-${partition}`;
    const state = ctx.readState(topic, partition);
    if (!state) return;
    ctx.markTopicIneligibleForDeletion(topic);
    const previous = this.reassignments.get(key);
    const before = ctx.replicasOf(topic, partition);
    this.reassignments.set(key, r);
    const after = ctx.replicasOf(topic, partition);
    const same = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((x, i) => x === b[i]);
    const unchanged = previous && same(previous.original, r.original) && same(previous.target, r.target);
    if (!unchanged) this.updateCurrentReassignment(r, previous, before, after);
    const current = ctx.readState(topic, partition) ?? state;
    if (this.isReassignmentComplete(r, current)) {
      if (this.completeReassignment(r, current)) this.reassignments.delete(key);
      return;
    }
    // A1: bump the leader epoch and send LeaderAndIsr with the new RS, AR and RR.
    const value = ctx.writeState(
      topic,
      partition,
      { leader: current.leader, leaderEpoch: current.leaderEpoch + 1, isr: current.isr },
      current,
      'reassignment',
    );
    if (value) ctx.propagate(topic, partition, value);
    // A2: the adding replicas go NewReplica.
    const adding = r.target.filter((x) => !r.original.includes(x));
    ctx.replicaStateMachine.handleStateChanges(topic, partition, adding, 'NewReplica');
  }

  /** U1-U3 of onPartitionReassignment: the new move recorded, the replicas it no longer needs stopped. */
  private updateCurrentReassignment(
    r: Reassignment,
    previous: Reassignment | undefined,
    before: readonly number[],
    after: readonly number[],
  ): void {
    const ctx = this.ctx;
    const { topic, partition } = r;
    ctx.services.emit({
      type: 'reassignmentStarted',
      topic,
      partition,
      originalReplicas: [...r.original],
      targetReplicas: [...r.target],
      ...(previous ? { replacedTargetReplicas: [...previous.target] } : {}),
      atMs: ctx.now(),
    });
    this.writeAssignment(topic, partition, [...after], r); // U1
    const unneeded = before.filter((x) => !after.includes(x));
    if (unneeded.length > 0) this.stopRemovedReplicasOfReassignedPartition(topic, partition, unneeded); // U3
  }

  /**
   * maybeRemoveFromZkReassignment: the partition's entry leaves /admin/reassign_partitions (at
   * completion only if it asked for the replicas the move ended with).
   */
  private removeFromReassignZnode(topic: string, partition: number, completedTarget?: readonly number[]): void {
    if (!this.ctx.canWrite()) return;
    const d = this.zk.tryGetData(REASSIGN_PATH) as {
      version: 1;
      partitions: { topic: string; partition: number; replicas: number[] }[];
    } | null;
    if (!d) return;
    const matches = (replicas: readonly number[]) =>
      !completedTarget ||
      (replicas.length === completedTarget.length && replicas.every((x, i) => x === completedTarget[i]));
    const rest = d.partitions.filter((p) => !(p.topic === topic && p.partition === partition && matches(p.replicas)));
    if (rest.length === d.partitions.length) return;
    if (rest.length === 0) this.zk.delete(REASSIGN_PATH);
    else this.zk.setData(REASSIGN_PATH, { ...d, partitions: rest });
    this.zk.exists(REASSIGN_PATH, this.ctx.watch());
  }
}
