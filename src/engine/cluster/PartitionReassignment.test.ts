import { describe, expect, it } from 'vitest';
import { checkReplicationInvariants } from './invariants';
import { startCluster } from './testing';

function setup() {
  const { cluster, events } = startCluster(5, 4, {});
  cluster.createTopic({ name: 'm', assignment: [[1, 2]] });
  cluster.tick(1000);
  const znode = () =>
    cluster.zk.tryGetData('/brokers/topics/m') as {
      partitions: Record<string, number[]>;
      adding_replicas: Record<string, number[]>;
      removing_replicas: Record<string, number[]>;
    };
  const controller = () => cluster.activeController()?.controller;
  return { cluster, events, znode, controller };
}

/**
 * KafkaController.processApiPartitionReassignment / maybeBuildReassignment /
 * updateCurrentReassignment (Kafka 3.9, ZooKeeper mode), as ReassignPartitionsIntegrationTest
 * .testCancellation and KafkaControllerTest exercise them: an API reassignment lives in the topic
 * znode (RS = TRS + ORS, adding and removing replicas), a new one replaces it from the same
 * original replicas, and null replicas cancel it back to them.
 */
describe('AlterPartitionReassignments (KafkaController.processApiPartitionReassignment)', () => {
  it('replaces a move in progress: the original replicas stay ORS, an added replica no longer wanted is stopped at once', () => {
    const { cluster, events, znode, controller } = setup();
    expect(cluster.alterPartitionReassignments([{ topic: 'm', partition: 0, replicas: [1, 3] }])).toEqual(['NONE']);
    expect(znode().partitions['0']).toEqual([1, 3, 2]);
    expect(znode().adding_replicas['0']).toEqual([3]);
    expect(cluster.zk.exists('/admin/reassign_partitions')).toBeNull();
    cluster.tick(1); // the next request: the controller sent this one's LeaderAndIsr meanwhile
    expect(cluster.alterPartitionReassignments([{ topic: 'm', partition: 0, replicas: [1, 4] }])).toEqual(['NONE']);
    expect(znode().partitions['0']).toEqual([1, 4, 2]);
    expect(znode().adding_replicas['0']).toEqual([4]);
    expect(znode().removing_replicas['0']).toEqual([2]);
    expect(controller()?.reassignmentsInProgress()).toEqual([
      { topic: 'm', partition: 0, original: [1, 2], target: [1, 4] },
    ]);
    const replaced = events.filter((e) => e.type === 'reassignmentStarted').at(-1);
    expect(replaced).toMatchObject({
      originalReplicas: [1, 2],
      targetReplicas: [1, 4],
      replacedTargetReplicas: [1, 3],
    });
    cluster.tick(10_000);
    expect(cluster.assignment('m')[0]).toEqual([1, 4]);
    expect(znode().adding_replicas['0']).toBeUndefined();
    // Broker 3's replica was stopped and deleted when the move was replaced.
    expect(cluster.brokers.get(3)?.replicaManager.partitions.has('m-0')).toBe(false);
    expect(checkReplicationInvariants(cluster)).toEqual([]);
  });

  it('cancels a move in progress (null replicas): back to the original replicas, the added ones stopped; nothing to cancel is NO_REASSIGNMENT_IN_PROGRESS', () => {
    const { cluster, events, znode, controller } = setup();
    expect(cluster.alterPartitionReassignments([{ topic: 'm', partition: 0, replicas: null }])).toEqual([
      'NO_REASSIGNMENT_IN_PROGRESS',
    ]);
    cluster.alterPartitionReassignments([{ topic: 'm', partition: 0, replicas: [3, 4] }]);
    expect(znode().partitions['0']).toEqual([3, 4, 1, 2]);
    cluster.tick(1);
    expect(cluster.alterPartitionReassignments([{ topic: 'm', partition: 0, replicas: null }])).toEqual(['NONE']);
    expect(znode().partitions['0']).toEqual([1, 2]);
    expect(znode().adding_replicas['0']).toBeUndefined();
    expect(controller()?.reassignmentsInProgress()).toEqual([]);
    expect(events.filter((e) => e.type === 'reassignmentCompleted').at(-1)).toMatchObject({
      originalReplicas: [1, 2],
      targetReplicas: [1, 2],
    });
    cluster.tick(5000);
    expect(cluster.assignment('m')[0]).toEqual([1, 2]);
    expect(cluster.partitionState('m', 0)?.leader).toBe(1);
    for (const b of [3, 4]) expect(cluster.brokers.get(b)?.replicaManager.partitions.has('m-0')).toBe(false);
    expect(checkReplicationInvariants(cluster)).toEqual([]);
  });

  // KafkaController.processZkPartitionReassignment -> maybeBuildReassignment: an entry of a newly
  // created /admin/reassign_partitions for a partition already being moved is reassigned from the
  // move's original replicas, replacing it (updateCurrentReassignment stops what the new one does
  // not keep), as AlterPartitionReassignments would; the entry leaves the znode at completion.
  it('a /admin/reassign_partitions entry for a partition being moved replaces the move (maybeBuildReassignment)', () => {
    const { cluster, znode, controller } = setup();
    expect(cluster.alterPartitionReassignments([{ topic: 'm', partition: 0, replicas: [1, 3] }])).toEqual(['NONE']);
    cluster.tick(1);
    cluster.reassignPartitions([{ topic: 'm', partition: 0, replicas: [1, 4] }]);
    cluster.tick(1);
    expect(controller()?.reassignmentsInProgress()).toEqual([
      { topic: 'm', partition: 0, original: [1, 2], target: [1, 4] },
    ]);
    expect(znode().partitions['0']).toEqual([1, 4, 2]);
    expect(cluster.zk.exists('/admin/reassign_partitions')).not.toBeNull();
    cluster.tick(10_000);
    expect(cluster.assignment('m')[0]).toEqual([1, 4]);
    expect(cluster.zk.exists('/admin/reassign_partitions')).toBeNull();
    expect(cluster.brokers.get(3)?.replicaManager.partitions.has('m-0')).toBe(false);
    expect(checkReplicationInvariants(cluster)).toEqual([]);
  });

  // KafkaController.initializePartitionReassignments -> maybeResumeReassignments: a new
  // controller resumes the moves the topic znode records (adding/removing replicas), ORS and TRS
  // read from it.
  it('a new controller resumes a move recorded in the topic znode', () => {
    const { cluster, controller } = setup();
    expect(cluster.activeController()?.id).toBe(1);
    cluster.createTopic({ name: 'n', assignment: [[2, 3]] });
    cluster.tick(1000);
    const adding = () =>
      (cluster.zk.tryGetData('/brokers/topics/n') as { adding_replicas: Record<string, number[]> }).adding_replicas[
        '0'
      ];
    // Broker 4 cannot copy yet: the move stays in Phase A.
    const node4 = cluster.brokers.get(4)?.node as string;
    cluster.network.isolate(node4);
    cluster.alterPartitionReassignments([{ topic: 'n', partition: 0, replicas: [2, 4] }]);
    cluster.tick(1);
    cluster.killBroker(1);
    cluster.tick(30_000); // its session expires, another broker takes over
    expect(cluster.activeController()?.id).not.toBe(1);
    expect(controller()?.reassignmentsInProgress()).toEqual([
      { topic: 'n', partition: 0, original: [2, 3], target: [2, 4] },
    ]);
    expect(adding()).toEqual([4]);
    cluster.network.heal(node4);
    cluster.tick(20_000);
    expect(cluster.assignment('n')[0]).toEqual([2, 4]);
    expect(adding()).toBeUndefined();
  });
});
