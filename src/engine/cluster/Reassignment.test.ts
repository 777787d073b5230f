/**
 * Partition reassignment's leader-epoch bumps, as Kafka 3.9's ZooKeeper-mode controller makes
 * them (KafkaController.onPartitionReassignment, moveReassignedPartitionLeaderIfRequired,
 * ZkReplicaStateMachine.doRemoveReplicasFromIsr), checked against ControllerIntegrationTest.
 */
import { describe, expect, it } from 'vitest';
import type { Engine, EngineEvent } from '../engine';
import { engineWithTopic } from './testing';

const cluster = (brokers: number, assignment: number[][]) => engineWithTopic(brokers, assignment, 7);

const partition = (e: Engine) => e.snapshot().topics[0]?.partitions[0];

/** The /state writes for t-0 made after `from`, as [reason, leader, leaderEpoch, isr]. */
function stateWrites(events: EngineEvent[], from: number) {
  return events
    .slice(from)
    .flatMap((ev) =>
      ev.type === 'partitionStateChanged' && ev.topic === 't' && ev.partition === 0
        ? [[ev.reason, ev.new.leader, ev.new.leaderEpoch, [...ev.new.isr].sort()]]
        : [],
    );
}

describe('Partition reassignment (KafkaController.onPartitionReassignment, Kafka 3.9)', () => {
  // ControllerIntegrationTest.testPartitionReassignment: [controller] -> [other] ends at
  // InitialLeaderEpoch + 3 (A1, the B3 ReassignPartitionLeaderElection, the B4 OfflineReplica).
  it('testPartitionReassignment: moving [1] to [2] bumps the leader epoch three times', () => {
    const { e } = cluster(2, [[1]]);
    expect(partition(e)).toMatchObject({ leader: 1, leaderEpoch: 0 });
    e.reassignPartitions([{ topic: 't', partition: 0, replicas: [2] }]);
    e.tick(3000);
    expect(partition(e)).toMatchObject({ replicas: [2], leader: 2, leaderEpoch: 3, isr: [2], reassignment: null });
  });

  // Issue 25 item 6: A1, B3 (ReassignPartitionLeaderElection), then B4's OfflineReplica for 1 and
  // then 2, each a ZooKeeper write of its own (doRemoveReplicasFromIsr runs per replica id).
  it('moving [1,2] to [3,4] bumps the leader epoch four times, removing 1 and then 2 from the ISR one write each', () => {
    const { e, events } = cluster(4, [[1, 2]]);
    const from = events.length;
    e.reassignPartitions([{ topic: 't', partition: 0, replicas: [3, 4] }]);
    e.tick(3000);
    expect(partition(e)).toMatchObject({ replicas: [3, 4], leader: 3, leaderEpoch: 4, reassignment: null });
    expect(stateWrites(events, from).filter(([reason]) => reason !== 'isrChange')).toEqual([
      ['reassignment', 1, 1, [1, 2]], // A1
      ['reassignment', 3, 2, [1, 2, 3, 4]], // B3: the leader moves into the target
      ['replicaOffline', 3, 3, [2, 3, 4]], // B4: replica 1 leaves the ISR
      ['replicaOffline', 3, 4, [3, 4]], // B4: replica 2 leaves the ISR
    ]);
  });

  // Issue 25 item 5: a reorder inside the ISR is complete at once (isReassignmentComplete), so
  // Phase A is skipped; the leader is in the target and alive, so B3 only bumps its epoch
  // (updateLeaderEpochAndSendRequest): +1, and the leader does not move to the new first replica.
  it('a reorder-only reassignment is complete at once and bumps the leader epoch once', () => {
    const { e, events } = cluster(2, [[1, 2]]);
    e.tick(1000);
    expect(partition(e)).toMatchObject({ leader: 1, leaderEpoch: 0 });
    const from = events.length;
    e.reassignPartitions([{ topic: 't', partition: 0, replicas: [2, 1] }]);
    e.tick(100);
    expect(partition(e)).toMatchObject({ replicas: [2, 1], leader: 1, leaderEpoch: 1, reassignment: null });
    expect(stateWrites(events, from)).toEqual([['reassignment', 1, 1, [1, 2]]]);
    expect(events.slice(from).filter((ev) => ev.type === 'reassignmentCompleted')).toHaveLength(1);
  });
});
