import { IllegalStateException } from '../errors';
import type { ControllerContext } from './ControllerContext';
import type { LeaderElectionReason } from './events';
import {
  offlinePartitionLeaderElection,
  preferredReplicaPartitionLeaderElection,
} from './PartitionLeaderElectionAlgorithms';

/** Kafka's PartitionState (kafka/controller/PartitionStateMachine.scala). */
export type PartitionState = 'NewPartition' | 'OnlinePartition' | 'OfflinePartition' | 'NonExistentPartition';

/**
 * Each state's validPreviousStates, as PartitionStateMachine.scala declares them: a partition is
 * created New, goes Online once it has a leader, Offline when it loses it (or its first election
 * fails), and NonExistent only from Offline (topic deletion).
 */
export const PARTITION_VALID_PREVIOUS_STATES: Readonly<Record<PartitionState, readonly PartitionState[]>> = {
  NewPartition: ['NonExistentPartition'],
  OnlinePartition: ['NewPartition', 'OnlinePartition', 'OfflinePartition'],
  OfflinePartition: ['NewPartition', 'OnlinePartition', 'OfflinePartition'],
  NonExistentPartition: ['OfflinePartition'],
};

const key = (topic: string, partition: number) => `${topic}-${partition}`;

/**
 * Kafka's (ZooKeeper-mode) PartitionStateMachine: the active controller's state of every
 * partition, changed only along PARTITION_VALID_PREVIOUS_STATES. Moving to OnlinePartition
 * initializes a New partition's leader and ISR or elects a leader for an Online or Offline one,
 * writing `/state` and telling the replicas (ControllerContext.writeState / propagate). An
 * invalid transition is refused with an IllegalStateException and changes nothing, as Kafka's
 * logInvalidTransition skips the partition.
 */
export class PartitionStateMachine {
  private readonly states = new Map<string, PartitionState>();

  constructor(private readonly ctx: ControllerContext) {}

  state(topic: string, partition: number): PartitionState {
    return this.states.get(key(topic, partition)) ?? 'NonExistentPartition';
  }

  /**
   * Kafka's initializePartitionState on controller failover: a partition with a `/state` znode is
   * Online if its leader is alive, Offline if not; one without is New.
   */
  startup(): void {
    this.states.clear();
    for (const [topic, partition] of this.ctx.allPartitions()) {
      const s = this.ctx.readState(topic, partition);
      const state: PartitionState = !s
        ? 'NewPartition'
        : this.ctx.liveBrokers().has(s.leader)
          ? 'OnlinePartition'
          : 'OfflinePartition';
      this.states.set(key(topic, partition), state);
    }
  }

  /** Kafka's shutdown: a controller that resigns forgets every partition's state. */
  shutdown(): void {
    this.states.clear();
  }

  /**
   * Moves the partition to `target` if its current state is one of the target's valid previous
   * states; otherwise returns the IllegalStateException Kafka logs and leaves the state as it was.
   */
  transition(topic: string, partition: number, target: PartitionState): IllegalStateException | null {
    const current = this.state(topic, partition);
    if (!PARTITION_VALID_PREVIOUS_STATES[target].includes(current)) {
      return new IllegalStateException(
        `Partition ${topic}-${partition} should be in one of [${PARTITION_VALID_PREVIOUS_STATES[target].join(', ')}] states before moving to ${target} state. Instead it is in ${current} state`,
      );
    }
    if (target === 'NonExistentPartition') this.states.delete(key(topic, partition));
    else this.states.set(key(topic, partition), target);
    return null;
  }

  /**
   * NewPartition -> OnlinePartition (Kafka's initializeLeaderAndIsrForPartitions): leader = the
   * first live replica, ISR = the live replicas. With none alive the partition stays New.
   */
  initializeLeaderAndIsr(topic: string, partition: number): void {
    if (this.refused(topic, partition, 'OnlinePartition')) return;
    const ctx = this.ctx;
    const live = ctx.replicasOf(topic, partition).filter((r) => ctx.liveBrokers().has(r));
    if (live.length === 0) {
      ctx.services.emit({ type: 'partitionOffline', topic, partition, lastLeader: -1, isr: [], atMs: ctx.now() });
      return;
    }
    const value = ctx.writeState(
      topic,
      partition,
      { leader: live[0] as number, leaderEpoch: 0, isr: live },
      null,
      'newPartition',
    );
    if (!value) return;
    this.transition(topic, partition, 'OnlinePartition');
    ctx.propagate(topic, partition, value, true);
  }

  /**
   * OfflinePartition (or Online) -> OnlinePartition with Kafka's offline election: the first live
   * ISR replica of the assignment, else, with unclean.leader.election.enable, the first live
   * replica. No leader: the partition is Offline and nothing is written (Kafka's failed
   * election). `lastLeader`: the leader it had until just now, if the state already says -1 (a
   * new controller took a dead leader away first). `allowUnclean`: an admin's ElectLeaders UNCLEAN
   * (OfflinePartitionLeaderElectionStrategy(true)), whatever the topic's config says.
   */
  electOffline(topic: string, partition: number, lastLeader = -1, allowUnclean = false): void {
    const ctx = this.ctx;
    const state = ctx.readState(topic, partition);
    if (!state || this.refused(topic, partition, 'OnlinePartition')) return;
    const assignment = ctx.replicasOf(topic, partition);
    const live = new Set([...ctx.liveBrokers().keys()].filter((r) => !ctx.shuttingDown().has(r)));
    let leader: number | undefined;
    let reason: LeaderElectionReason = 'offlinePartition';
    let isr = state.isr.filter((r) => ctx.liveBrokers().has(r));
    const clean = offlinePartitionLeaderElection(assignment, state.isr, live, false);
    if (clean) leader = clean.leader;
    else {
      const unclean = offlinePartitionLeaderElection(
        assignment,
        [],
        live,
        allowUnclean || ctx.services.topicConfig(topic)['unclean.leader.election.enable'],
      );
      if (unclean) {
        leader = unclean.leader;
        reason = 'uncleanElection';
        isr = [leader];
      }
    }
    // The dead leader's OfflineReplica transition clears the leader, keeping the ISR's last member.
    if (leader === undefined) {
      this.transition(topic, partition, 'OfflinePartition');
      const last = state.leader >= 0 ? state.leader : lastLeader;
      if (last >= 0)
        ctx.services.emit({
          type: 'partitionOffline',
          topic,
          partition,
          lastLeader: last,
          isr: [...state.isr],
          atMs: ctx.now(),
        });
      return;
    }
    if (reason === 'uncleanElection') ctx.services.reportUncleanElection(topic, partition, leader);
    const value = ctx.writeState(topic, partition, { leader, leaderEpoch: state.leaderEpoch + 1, isr }, state, reason);
    if (!value) return;
    this.transition(topic, partition, 'OnlinePartition');
    ctx.propagate(topic, partition, value);
  }

  /**
   * OnlinePartition -> OnlinePartition with Kafka's preferred replica election, for each given
   * partition whose preferred (first) replica is alive, in the ISR and not shutting down.
   * Returns those that moved.
   */
  electPreferred(
    partitions: [string, number][],
    trigger: 'manual' | 'auto',
    imbalance?: { broker: number; ratio: number }[],
  ): { topic: string; partition: number; from: number; to: number }[] {
    const ctx = this.ctx;
    const moved: { topic: string; partition: number; from: number; to: number }[] = [];
    for (const [topic, partition] of partitions) {
      const state = ctx.readState(topic, partition);
      const replicas = ctx.replicasOf(topic, partition);
      const preferred = replicas[0];
      if (!state || preferred === undefined || state.leader === preferred) continue;
      if (
        preferredReplicaPartitionLeaderElection(replicas, state.isr, new Set(ctx.liveBrokers().keys())) === null ||
        ctx.shuttingDown().has(preferred) ||
        this.refused(topic, partition, 'OnlinePartition')
      )
        continue;
      const value = ctx.writeState(
        topic,
        partition,
        { leader: preferred, leaderEpoch: state.leaderEpoch + 1, isr: state.isr },
        state,
        'preferredReplica',
      );
      if (value) {
        this.transition(topic, partition, 'OnlinePartition');
        ctx.propagate(topic, partition, value);
        moved.push({ topic, partition, from: state.leader, to: preferred });
      }
    }
    ctx.services.emit({ type: 'preferredLeaderElection', trigger, partitions: moved, imbalance, atMs: ctx.now() });
    return moved;
  }

  /** Whether moving to `target` is invalid now (the check Kafka makes before acting on a partition). */
  private refused(topic: string, partition: number, target: PartitionState): boolean {
    const current = this.state(topic, partition);
    return !PARTITION_VALID_PREVIOUS_STATES[target].includes(current);
  }
}
