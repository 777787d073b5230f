import { describe, expect, it } from 'vitest';
import { checkReplicationInvariants } from './invariants';
import { errorCodeOf, startCluster } from './testing';

/**
 * ZkAdminManager.createTopics with a manual assignment: it checks no broker ids ("we don't check
 * that replicaAssignment contains unknown brokers - unlike in add-partitions case"), only
 * AdminZkClient.validateTopicCreate's consistent replication factor and no duplicates; the
 * controller then finds no live replica for a partition placed only on unregistered brokers
 * (PartitionStateMachine.initializeLeaderAndIsrForPartitions: "no live replicas"), which stays
 * offline, while one with a registered replica is led by it.
 */
describe('CreateTopics with a manual assignment (ZkAdminManager.createTopics)', () => {
  it('accepts brokers that never registered; a partition with none registered stays offline', () => {
    const { cluster } = startCluster(3, 3, {});
    cluster.createTopic({
      name: 'far',
      assignment: [
        [1, 9],
        [9, 8],
      ],
    });
    cluster.tick(500);
    expect(cluster.assignment('far')).toEqual([
      [1, 9],
      [9, 8],
    ]);
    expect(cluster.partitionState('far', 0)).toMatchObject({ leader: 1, isr: [1] });
    expect(cluster.partitionState('far', 1)?.leader ?? -1).toBe(-1);
    expect(checkReplicationInvariants(cluster)).toEqual([]);
  });

  it('still refuses duplicates and an inconsistent replication factor (AdminZkClient.validateTopicCreate)', () => {
    const { cluster } = startCluster(3, 3, {});
    expect(errorCodeOf(() => cluster.createTopic({ name: 'dup', assignment: [[1, 1]] }))).toBe(
      'INVALID_REPLICA_ASSIGNMENT',
    );
    expect(errorCodeOf(() => cluster.createTopic({ name: 'rf', assignment: [[1, 2], [3]] }))).toBe(
      'INVALID_REPLICA_ASSIGNMENT',
    );
  });
});
