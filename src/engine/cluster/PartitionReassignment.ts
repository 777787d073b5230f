import type { ControllerContext, LeaderIsrAndControllerEpoch } from './ControllerContext';
import type { Watcher } from './CoordinationStore';
import type { LeaderAndIsrValue } from './events';
import { reassignPartitionLeaderElection } from './PartitionLeaderElectionAlgorithms';
import type { ReplicaStateMachine } from './ReplicaStateMachine';
import { type TopicAssignmentZnode, topicPath } from './ZkData';
import type { ErrorCode, KafkaResponse, StopReplicaRequest } from './requests';

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
  /** StopReplica to a live broker, with this controller's id and epochs. */
  stopReplica(
    broker: number,
    partitions: StopReplicaRequest['partitions'],
    onResponse?: (r: KafkaResponse) => void,
  ): void;
  /** UpdateMetadata for these partitions to every live broker. */
  updateMetadata(partitions: [string, number][]): void;
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

  /**
   * /admin/reassign_partitions, as KafkaController.onPartitionReassignment: U1 writes RS = TRS +
   * ORS. While the target is not yet within the ISR (Phase A), A1 bumps the leader epoch and A2
   * starts the new replicas as followers; once it is (at once for a reorder or a shrink inside
   * the ISR), Phase B completes the move (completeReassignment).
   */
  onPartitionReassignment(): void {
    const ctx = this.ctx;
    if (!this.zk.exists(REASSIGN_PATH, ctx.watch())) return;
    const d = this.zk.getData(REASSIGN_PATH).data as {
      partitions: { topic: string; partition: number; replicas: number[] }[];
    } | null;
    for (const r of d?.partitions ?? []) {
      const key = `${r.topic}-${r.partition}`;
      if (this.reassignments.has(key)) continue;
      const original = ctx.assignment(r.topic)[r.partition];
      const state = ctx.readState(r.topic, r.partition);
      if (!original || !state) continue;
      const reassignment = { topic: r.topic, partition: r.partition, original: [...original], target: [...r.replicas] };
      this.reassignments.set(key, reassignment);
      ctx.services.emit({
        type: 'reassignmentStarted',
        topic: r.topic,
        partition: r.partition,
        originalReplicas: [...original],
        targetReplicas: [...r.replicas],
        atMs: ctx.now(),
      });
      this.writeAssignment(r.topic, r.partition, ctx.replicasOf(r.topic, r.partition), reassignment);
      if (this.isReassignmentComplete(reassignment, state)) continue; // Phase B, below
      // A1: bump the leader epoch and send LeaderAndIsr with the new RS, AR and RR.
      const value = ctx.writeState(
        r.topic,
        r.partition,
        { leader: state.leader, leaderEpoch: state.leaderEpoch + 1, isr: state.isr },
        state,
        'reassignment',
      );
      if (value) ctx.propagate(r.topic, r.partition, value);
      // A2: the adding replicas go NewReplica.
      const adding = r.replicas.filter((x) => !original.includes(x));
      ctx.replicaStateMachine.handleStateChanges(r.topic, r.partition, adding, 'NewReplica');
    }
    this.checkReassignments();
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
    this.removeFromReassignZnode(topic, partition); // B7
    ctx.updateMetadata([[topic, partition]]); // B8
    return true;
  }

  /**
   * KafkaController.stopRemovedReplicasOfReassignedPartition: the replicas go OfflineReplica
   * (leaving the ISR), are stopped and deleted (StopReplica with delete), then NonExistentReplica.
   */
  private stopRemovedReplicasOfReassignedPartition(topic: string, partition: number, removing: number[]): void {
    const ctx = this.ctx;
    ctx.replicaStateMachine.offlineReplicas(topic, partition, removing);
    const leaderEpoch = ctx.readState(topic, partition)?.leaderEpoch ?? -1;
    for (const b of removing)
      if (ctx.liveBrokers().has(b))
        ctx.stopReplica(b, [{ topicName: topic, partitionIndex: partition, leaderEpoch, deletePartition: true }]);
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
    const results: ErrorCode[] = [];
    const toReassign: Reassignment[] = [];
    for (const m of moves) {
      const existing = this.get(m.topic, m.partition);
      const assigned = this.ctx.assignment(m.topic)[m.partition];
      if (!assigned) results.push('UNKNOWN_TOPIC_OR_PARTITION');
      else if (!existing && m.replicas === null) results.push('NO_REASSIGNMENT_IN_PROGRESS');
      else {
        const original = [...(existing ? existing.original : assigned)];
        toReassign.push({ topic: m.topic, partition: m.partition, original, target: [...(m.replicas ?? original)] });
        results.push('NONE');
      }
    }
    for (const r of toReassign) this.removeFromReassignZnode(r.topic, r.partition);
    for (const r of toReassign) this.onApiPartitionReassignment(r);
    return results;
  }

  /**
   * KafkaController.onPartitionReassignment for an API reassignment: updateCurrentReassignment
   * (U1 the topic znode gets RS = TRS + ORS, U2 in memory, and replicas a replaced move had added
   * that the new one does not keep are stopped at once), then Phase A or, already complete (a
   * cancel, a reorder), Phase B.
   */
  private onApiPartitionReassignment(r: Reassignment): void {
    const ctx = this.ctx;
    const { topic, partition } = r;
    const key = `${topic}-${partition}`;
    const state = ctx.readState(topic, partition);
    if (!state) return;
    const previous = this.reassignments.get(key);
    const before = ctx.replicasOf(topic, partition);
    this.reassignments.set(key, r);
    const after = ctx.replicasOf(topic, partition);
    ctx.services.emit({
      type: 'reassignmentStarted',
      topic,
      partition,
      originalReplicas: [...r.original],
      targetReplicas: [...r.target],
      ...(previous ? { replacedTargetReplicas: [...previous.target] } : {}),
      atMs: ctx.now(),
    });
    this.writeAssignment(topic, partition, after, r); // U1
    const unneeded = before.filter((x) => !after.includes(x));
    if (unneeded.length > 0) this.stopRemovedReplicasOfReassignedPartition(topic, partition, unneeded);
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

  private removeFromReassignZnode(topic: string, partition: number): void {
    if (!this.ctx.canWrite()) return;
    const d = this.zk.tryGetData(REASSIGN_PATH) as {
      version: 1;
      partitions: { topic: string; partition: number }[];
    } | null;
    if (!d) return;
    const rest = d.partitions.filter((p) => !(p.topic === topic && p.partition === partition));
    if (rest.length === d.partitions.length) return;
    if (rest.length === 0) this.zk.delete(REASSIGN_PATH);
    else this.zk.setData(REASSIGN_PATH, { ...d, partitions: rest });
    this.zk.exists(REASSIGN_PATH, this.ctx.watch());
  }
}
