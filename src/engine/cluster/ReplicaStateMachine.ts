import { IllegalStateException } from '../errors';
import type { ControllerContext } from './ControllerContext';

/** Kafka's ReplicaState (kafka/controller/ReplicaStateMachine.scala). */
export type ReplicaState =
  | 'NewReplica'
  | 'OnlineReplica'
  | 'OfflineReplica'
  | 'ReplicaDeletionStarted'
  | 'ReplicaDeletionSuccessful'
  | 'ReplicaDeletionIneligible'
  | 'NonExistentReplica';

/**
 * Each state's validPreviousStates, as ReplicaStateMachine.scala declares them: a replica is New
 * when assigned, Online or Offline with its broker, and leaves through ReplicaDeletionStarted ->
 * ReplicaDeletionSuccessful -> NonExistentReplica (or Ineligible when its broker cannot delete it).
 */
export const REPLICA_VALID_PREVIOUS_STATES: Readonly<Record<ReplicaState, readonly ReplicaState[]>> = {
  NewReplica: ['NonExistentReplica'],
  OnlineReplica: ['NewReplica', 'OnlineReplica', 'OfflineReplica', 'ReplicaDeletionIneligible'],
  OfflineReplica: ['NewReplica', 'OnlineReplica', 'OfflineReplica', 'ReplicaDeletionIneligible'],
  ReplicaDeletionStarted: ['OfflineReplica'],
  ReplicaDeletionSuccessful: ['ReplicaDeletionStarted'],
  ReplicaDeletionIneligible: ['OfflineReplica', 'ReplicaDeletionStarted'],
  NonExistentReplica: ['ReplicaDeletionSuccessful'],
};

const key = (topic: string, partition: number, replica: number) => `${topic}-${partition}-${replica}`;

/**
 * Kafka's ZkReplicaStateMachine: the active controller's state of every replica, changed only
 * along REPLICA_VALID_PREVIOUS_STATES. Moving a replica to OfflineReplica takes it out of the
 * ISR (doRemoveReplicasFromIsr); an invalid transition is refused with an IllegalStateException
 * and changes nothing, as Kafka's logInvalidTransition skips the replica.
 */
export class ReplicaStateMachine {
  private readonly states = new Map<string, ReplicaState>();

  constructor(private readonly ctx: ControllerContext) {}

  state(topic: string, partition: number, replica: number): ReplicaState {
    return this.states.get(key(topic, partition, replica)) ?? 'NonExistentReplica';
  }

  /**
   * Kafka's initializeReplicaState on controller failover: a replica on a live broker is Online,
   * one on a dead broker ReplicaDeletionIneligible (the OfflineReplica transition follows).
   */
  startup(): void {
    this.states.clear();
    const live = this.ctx.liveBrokers();
    for (const [topic, partition] of this.ctx.allPartitions())
      for (const r of this.ctx.replicasOf(topic, partition))
        this.states.set(key(topic, partition, r), live.has(r) ? 'OnlineReplica' : 'ReplicaDeletionIneligible');
  }

  shutdown(): void {
    this.states.clear();
  }

  /**
   * Moves the replica to `target` if its current state is one of the target's valid previous
   * states; otherwise returns the IllegalStateException Kafka logs and leaves the state as it was.
   */
  transition(topic: string, partition: number, replica: number, target: ReplicaState): IllegalStateException | null {
    const current = this.state(topic, partition, replica);
    if (!REPLICA_VALID_PREVIOUS_STATES[target].includes(current)) {
      return new IllegalStateException(
        `Replica ${replica} for partition ${topic}-${partition} should be in one of [${REPLICA_VALID_PREVIOUS_STATES[target].join(', ')}] states before moving to ${target} state. Instead it is in ${current} state`,
      );
    }
    if (target === 'NonExistentReplica') this.states.delete(key(topic, partition, replica));
    else this.states.set(key(topic, partition, replica), target);
    // doHandleStateChanges: OfflineReplica stops the replica, ReplicaDeletionStarted deletes it
    // (StopReplica in the request batch; a dead broker's is dropped there).
    if (target === 'OfflineReplica') this.ctx.addStopReplica(replica, topic, partition, false);
    else if (target === 'ReplicaDeletionStarted') this.ctx.addStopReplica(replica, topic, partition, true);
    return null;
  }

  /** Each of `replicas` to `target`; returns the refusals. */
  handleStateChanges(
    topic: string,
    partition: number,
    replicas: readonly number[],
    target: ReplicaState,
  ): IllegalStateException[] {
    const refused: IllegalStateException[] = [];
    for (const r of replicas) {
      const e = this.transition(topic, partition, r, target);
      if (e) refused.push(e);
    }
    return refused;
  }

  /** Every replica of the topic's partitions (`partitions` its partition count) now in `state`. */
  replicasInState(
    topic: string,
    partitions: number,
    state: ReplicaState,
  ): { topic: string; partition: number; replica: number }[] {
    const out: { topic: string; partition: number; replica: number }[] = [];
    for (let p = 0; p < partitions; p++)
      for (const r of this.ctx.replicasOf(topic, p))
        if (this.state(topic, p, r) === state) out.push({ topic, partition: p, replica: r });
    return out;
  }

  /**
   * KafkaController.stopRemovedReplicasOfReassignedPartition's B4/B5 for replicas a reassignment
   * dropped: Offline -> ReplicaDeletionStarted (StopReplica with delete) -> ReplicaDeletionSuccessful
   * -> NonExistentReplica at once: Kafka 3.9 does not wait for these answers either (its TODO).
   */
  deleteReplicas(topic: string, partition: number, replicas: readonly number[]): void {
    for (const target of [
      'OfflineReplica',
      'ReplicaDeletionStarted',
      'ReplicaDeletionSuccessful',
      'NonExistentReplica',
    ] as const)
      this.handleStateChanges(topic, partition, replicas, target);
  }

  /**
   * OfflineReplica for each of `replicas`, in order: one in the ISR leaves it with a write and an
   * epoch bump of its own (Kafka's ZkReplicaStateMachine calls doRemoveReplicasFromIsr once per
   * replica id); a leader that leaves makes the partition leaderless, and the ISR keeps its last
   * member. Returns the leader it took away (-1 if none), and whether a write was refused (the
   * replicas after it were left as they were).
   */
  offlineReplicas(
    topic: string,
    partition: number,
    replicas: readonly number[],
  ): { cleared: number; refused: boolean } {
    const ctx = this.ctx;
    let cleared = -1;
    let state = ctx.readState(topic, partition);
    for (const replica of replicas) {
      if (this.transition(topic, partition, replica, 'OfflineReplica')) continue;
      if (!state?.isr.includes(replica)) continue;
      const leader = replica === state.leader ? -1 : state.leader;
      const isr = state.isr.length === 1 ? state.isr : state.isr.filter((r) => r !== replica);
      const value = ctx.writeState(
        topic,
        partition,
        { leader, leaderEpoch: state.leaderEpoch + 1, isr },
        state,
        'replicaOffline',
      );
      if (!value) return { cleared, refused: true };
      if (leader < 0 && state.leader >= 0) cleared = state.leader;
      // The LeaderAndIsr goes to the other replicas: not to the one taken out, and to none while
      // the topic is queued for deletion.
      if (!ctx.isTopicQueuedUpForDeletion(topic)) ctx.propagate(topic, partition, value, false, replica);
      state = ctx.readState(topic, partition);
    }
    return { cleared, refused: false };
  }

  /**
   * OfflineReplica for every dead replica of the partition; those in the ISR leave it in broker
   * order (offlineReplicas). Returns the leader it took away (-1 if none), for the election that
   * follows.
   */
  offlineDeadReplicas(topic: string, partition: number): number {
    const ctx = this.ctx;
    const live = ctx.liveBrokers();
    const deadReplicas = ctx.replicasOf(topic, partition).filter((r) => !live.has(r));
    const isr = ctx.readState(topic, partition)?.isr ?? [];
    const deadInIsr = isr.filter((r) => !live.has(r)).sort((a, b) => a - b);
    const { cleared, refused } = this.offlineReplicas(topic, partition, deadInIsr);
    if (refused) return cleared;
    this.handleStateChanges(topic, partition, deadReplicas, 'OfflineReplica');
    return cleared;
  }
}
