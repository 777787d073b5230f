/**
 * Topic deletion in Kafka 3.9's ZooKeeper-mode controller (kafka.controller.TopicDeletionManager,
 * KafkaController.processTopicDeletionStopReplicaResponseReceived, ControllerBrokerRequestBatch
 * .sendStopReplicaRequests), checked against TopicDeletionManagerTest and DeleteTopicTest.
 */
import { describe, expect, it } from 'vitest';
import type { ClusterEvent } from './events';
import type { StopReplicaRequest } from './requests';
import { startCluster } from './testing';

const QUICK = { 'zookeeper.session.timeout.ms': 1000 };

function setup() {
  const { cluster, events } = startCluster(11, 3, QUICK);
  cluster.createTopic({ name: 't', partitions: 2, replicationFactor: 3, fixedStartIndex: 0 });
  cluster.tick(500);
  const controller = () => {
    const c = cluster.activeController()?.controller;
    if (!c) throw new Error('no active controller');
    return c;
  };
  const states = (partition: number) => [1, 2, 3].map((r) => controller().replicaStateMachine.state('t', partition, r));
  return { cluster, events, controller, states };
}

/** The controller requests each broker got, in order, as "<api>" or "StopReplica(delete)". */
function controllerRequests(events: ClusterEvent[], from: number, to: string) {
  return events.slice(from).flatMap((e) => {
    if (e.type !== 'messageSent' || e.kind !== 'request' || e.to !== to) return [];
    const api = e.body.api;
    if (api === 'StopReplica')
      return [(e.body as StopReplicaRequest).partitions.some((p) => p.deletePartition) ? 'StopReplica(delete)' : api];
    return api === 'LeaderAndIsr' || api === 'UpdateMetadata' ? [api] : [];
  });
}

describe('TopicDeletionManager (Kafka 3.9, ZooKeeper mode)', () => {
  // TopicDeletionManagerTest.testBasicDeletion: after enqueueTopicsForDeletion the partitions are
  // NonExistentPartition and the replicas ReplicaDeletionStarted; only completeReplicaDeletion (the
  // StopReplica answers) lets completeDeleteTopic remove the topic.
  it('testBasicDeletion: the replicas wait in ReplicaDeletionStarted for their StopReplica answers', () => {
    const { cluster, controller, states } = setup();
    cluster.deleteTopic('t');
    // Step until the controller has handled the deletion: the StopReplica requests are in flight.
    for (let i = 0; i < 50 && controller().partitionStateMachine.state('t', 0) !== 'NonExistentPartition'; i++)
      cluster.tick(1);
    expect(controller().partitionStateMachine.state('t', 0)).toBe('NonExistentPartition');
    expect(states(0)).toEqual(['ReplicaDeletionStarted', 'ReplicaDeletionStarted', 'ReplicaDeletionStarted']);
    expect(cluster.zk.exists('/brokers/topics/t')).not.toBeNull();
    expect(cluster.zk.exists('/admin/delete_topics/t')).not.toBeNull();
    cluster.tick(500);
    expect(cluster.zk.exists('/brokers/topics/t')).toBeNull();
    expect(cluster.zk.exists('/config/topics/t')).toBeNull();
    expect(cluster.zk.exists('/admin/delete_topics/t')).toBeNull();
    expect(states(0)).toEqual(['NonExistentReplica', 'NonExistentReplica', 'NonExistentReplica']);
  });

  // ControllerBrokerRequestBatch.sendRequestsToBrokers: LeaderAndIsr, then UpdateMetadata, then one
  // StopReplica per broker carrying every partition (addStopReplicaRequestForBrokers merges the
  // OfflineReplica and ReplicaDeletionStarted requests, delete winning), leader epoch -2 while the
  // topic is queued for deletion (ControllerContext.leaderEpoch, EpochDuringDelete).
  it('sends one StopReplica per broker after the batch UpdateMetadata, with delete and epoch -2', () => {
    const { cluster, events } = setup();
    const from = events.length;
    cluster.deleteTopic('t');
    cluster.tick(500);
    expect(controllerRequests(events, from, 'broker-2')).toEqual([
      'UpdateMetadata',
      'StopReplica(delete)',
      'UpdateMetadata',
    ]);
    const stops = events
      .slice(from)
      .flatMap((e) =>
        e.type === 'messageSent' && e.kind === 'request' && e.body.api === 'StopReplica'
          ? [e.body as StopReplicaRequest]
          : [],
      );
    expect(stops).toHaveLength(3);
    for (const s of stops)
      expect(s.partitions).toEqual([
        { topicName: 't', partitionIndex: 0, leaderEpoch: -2, deletePartition: true },
        { topicName: 't', partitionIndex: 1, leaderEpoch: -2, deletePartition: true },
      ]);
  });

  // TopicDeletionManagerTest.testDeletionWithBrokerOffline and
  // DeleteTopicTest.testResumeDeleteTopicWithRecoveredFollower: a replica on a dead broker is
  // ReplicaDeletionIneligible, the topic is ineligible for deletion and /admin/delete_topics/<t>
  // stays; the live replicas are deleted (ReplicaDeletionSuccessful) and the failed one goes back
  // to OfflineReplica (retryDeletionForIneligibleReplicas). When the broker returns
  // (onBrokerStartup -> resumeDeletionForTopics) its replica is deleted and the topic goes.
  it('testDeletionWithBrokerOffline: a dead broker halts the deletion until it returns', () => {
    const { cluster, controller, states } = setup();
    const victim = [1, 2, 3].find((b) => b !== cluster.activeController()?.id) as number;
    cluster.killBroker(victim);
    cluster.tick(1500);
    cluster.deleteTopic('t');
    cluster.tick(500);
    const expected = [1, 2, 3].map((r) => (r === victim ? 'OfflineReplica' : 'ReplicaDeletionSuccessful'));
    expect(states(0)).toEqual(expected);
    expect(states(1)).toEqual(expected);
    expect(controller().topicDeletionManager.isTopicQueuedUpForDeletion('t')).toBe(true);
    expect(controller().topicDeletionManager.isTopicIneligibleForDeletion('t')).toBe(true);
    expect(cluster.zk.exists('/admin/delete_topics/t')).not.toBeNull();
    expect(cluster.zk.exists('/brokers/topics/t')).not.toBeNull();
    for (const b of [1, 2, 3].filter((x) => x !== victim))
      expect(cluster.broker(b).replicaManager.logs.has('t-0')).toBe(false);
    expect(cluster.broker(victim).replicaManager.logs.has('t-0')).toBe(true);
    // The brokers stopped serving the topic at once (UpdateMetadata with leader -2).
    expect(cluster.broker(controller().liveBrokerIds()[0] as number).metadata.allTopics()).not.toContain('t');

    cluster.restartBroker(victim);
    cluster.tick(1500);
    expect(cluster.zk.exists('/brokers/topics/t')).toBeNull();
    expect(cluster.zk.exists('/admin/delete_topics/t')).toBeNull();
    expect(cluster.broker(victim).replicaManager.logs.size).toBe(0);
    expect(controller().topicDeletionManager.isTopicQueuedUpForDeletion('t')).toBe(false);
  });

  // KafkaController.onReplicasBecomeOffline -> TopicDeletionManager.failReplicaDeletion
  // (TopicDeletionManagerTest.testBrokerFailureAfterDeletionStarted): a broker that dies before
  // answering its StopReplica leaves its replica ReplicaDeletionIneligible, not Started for ever.
  it('testBrokerFailureAfterDeletionStarted: a replica whose broker dies before answering fails its deletion', () => {
    const { cluster, controller, states } = setup();
    const victim = [1, 2, 3].find((b) => b !== cluster.activeController()?.id) as number;
    cluster.network.isolate(cluster.broker(victim).node);
    cluster.deleteTopic('t');
    cluster.tick(100);
    expect(states(0)[victim - 1]).toBe('ReplicaDeletionStarted');
    expect(cluster.zk.exists('/brokers/topics/t')).not.toBeNull();
    cluster.tick(3000); // its session expires: the controller sees the broker gone
    expect(states(0)[victim - 1]).toBe('OfflineReplica');
    expect(controller().topicDeletionManager.isTopicIneligibleForDeletion('t')).toBe(true);
    expect(cluster.zk.exists('/admin/delete_topics/t')).not.toBeNull();
    cluster.network.heal(cluster.broker(victim).node);
    cluster.tick(5000);
    expect(cluster.zk.exists('/brokers/topics/t')).toBeNull();
  });

  // KafkaController.processTopicDeletion calls markTopicIneligibleForDeletion for a topic being
  // reassigned before enqueueTopicsForDeletion, and that marks only topics already queued
  // (topicsToBeDeleted & topics): a move in progress does not stop a new deletion, whose
  // StopReplica goes to the moving replicas too (ORS + TRS).
  it('a move in progress does not halt a new deletion (markTopicIneligibleForDeletion marks queued topics only)', () => {
    const { cluster, controller } = setup();
    cluster.addBroker({ id: 4 });
    cluster.tick(500);
    expect(cluster.alterPartitionReassignments([{ topic: 't', partition: 0, replicas: [1, 2, 4] }])).toEqual(['NONE']);
    cluster.deleteTopic('t');
    cluster.tick(1);
    expect(controller().topicDeletionManager.isTopicIneligibleForDeletion('t')).toBe(false);
    expect(controller().replicaStateMachine.state('t', 0, 4)).toBe('ReplicaDeletionStarted');
    cluster.tick(2000);
    expect(cluster.zk.exists('/brokers/topics/t')).toBeNull();
    expect(controller().reassignmentsInProgress()).toEqual([]);
  });

  // KafkaController.maybeTriggerPartitionReassignment (DeleteTopicTest.testPartitionReassignmentDuringDeleteTopic):
  // a partition of a topic queued for deletion is not reassigned: UNKNOWN_TOPIC_OR_PARTITION.
  it('testPartitionReassignmentDuringDeleteTopic: no reassignment of a topic being deleted', () => {
    const { cluster } = setup();
    const victim = [1, 2, 3].find((b) => b !== cluster.activeController()?.id) as number;
    cluster.killBroker(victim);
    cluster.tick(1500);
    cluster.deleteTopic('t');
    cluster.tick(500);
    expect(cluster.zk.exists('/brokers/topics/t')).not.toBeNull(); // halted: queued, not gone
    expect(cluster.alterPartitionReassignments([{ topic: 't', partition: 0, replicas: [1, 2, 3] }])).toEqual([
      'UNKNOWN_TOPIC_OR_PARTITION',
    ]);
  });
});

describe('StopReplica in the controller request batch', () => {
  // ControllerBrokerRequestBatch.sendRequestsToBrokers (LeaderAndIsr, UpdateMetadata, StopReplica)
  // and KafkaController.onPartitionReassignment B4-B8: a replica a move drops (no LeaderAndIsr:
  // B3 goes to TRS) hears the event's UpdateMetadata, then one StopReplica, delete winning over
  // the OfflineReplica's (addStopReplicaRequestForBrokers' alreadyDelete), never before it.
  it('a replica a reassignment removes gets its StopReplica after the UpdateMetadata of the same event', () => {
    const { cluster, events } = startCluster(13, 4, QUICK);
    cluster.createTopic({ name: 'm', assignment: [[1, 2]] });
    cluster.tick(1000);
    const from = events.length;
    cluster.alterPartitionReassignments([{ topic: 'm', partition: 0, replicas: [3, 4] }]);
    cluster.tick(5000);
    expect(cluster.assignment('m')[0]).toEqual([3, 4]);
    const toBroker2 = controllerRequests(events, from, 'broker-2');
    expect(toBroker2.slice(-2)).toEqual(['UpdateMetadata', 'StopReplica(delete)']);
    expect(toBroker2.filter((r) => r.startsWith('StopReplica'))).toEqual(['StopReplica(delete)']);
  });
});

describe('topic deletion across a controller failover', () => {
  // DeleteTopicTest.testResumeDeleteTopicOnControllerFailover and KafkaController
  // .fetchTopicDeletionsInProgress / TopicDeletionManager.init: a new controller reads
  // /admin/delete_topics, finds the topic ineligible (a replica on a dead broker) and resumes the
  // deletion once that broker is back.
  it('testResumeDeleteTopicOnControllerFailover: the new controller finishes the deletion', () => {
    const { cluster } = startCluster(17, 4, QUICK);
    cluster.createTopic({ name: 't', assignment: [[2, 3, 4]] });
    cluster.tick(500);
    expect(cluster.activeController()?.id).toBe(1);
    cluster.killBroker(4);
    cluster.tick(1500);
    cluster.deleteTopic('t');
    cluster.tick(500);
    expect(cluster.zk.exists('/admin/delete_topics/t')).not.toBeNull();
    cluster.killBroker(1);
    cluster.tick(1500);
    const c = cluster.activeController()?.controller;
    expect(c && cluster.activeController()?.id).not.toBe(1);
    expect(c?.topicDeletionManager.isTopicQueuedUpForDeletion('t')).toBe(true);
    expect(c?.topicDeletionManager.isTopicIneligibleForDeletion('t')).toBe(true);
    expect(cluster.zk.exists('/brokers/topics/t')).not.toBeNull();
    cluster.restartBroker(4);
    cluster.tick(1500);
    expect(cluster.zk.exists('/brokers/topics/t')).toBeNull();
    expect(cluster.zk.exists('/admin/delete_topics/t')).toBeNull();
    expect(cluster.broker(4).replicaManager.logs.size).toBe(0);
  });
});
