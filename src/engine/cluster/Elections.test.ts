import { describe, expect, it } from 'vitest';
import type { Cluster } from './Cluster';
import { checkReplicationInvariants } from './invariants';
import { createMinIsrTopic, makeBatch, QUICK_FAILOVER_CONFIG, startCluster, TestClient } from './testing';

function setup(brokers = 3) {
  const { cluster, events } = startCluster(5, brokers, {
    ...QUICK_FAILOVER_CONFIG,
    'replica.fetch.backoff.ms': 100,
    'replica.socket.timeout.ms': 1000,
  });
  createMinIsrTopic(cluster);
  return { cluster, events, client: new TestClient(cluster) };
}

const state = (c: Cluster) => c.zk.getData('/brokers/topics/t/partitions/0/state').data as Record<string, unknown>;

// Kafka 3.9 in ZooKeeper mode: ZkReplicaStateMachine.doRemoveReplicasFromIsr takes a dead replica
// out of the ISR unless it is the last member ("adjustedIsr = if (isr.size == 1) isr else ..."),
// and a dead leader leaves the partition with leader -1 (UncleanLeaderElectionTest's
// waitForNoLeaderAndIsrHasOldLeaderId). KRaft's eligible leader replicas (KIP-966) do not exist.
describe('ZooKeeper mode never empties the ISR (doRemoveReplicasFromIsr)', () => {
  // Broker 4 hosts no replica of t (replicas [1,2,3]): it is there to be the controller when 1 dies.
  it('replicas leave the ISR one by one, down to its last member; there is no ELR', () => {
    const { cluster } = setup(4);
    cluster.killBroker(3);
    cluster.tick(1500);
    expect(state(cluster)).toMatchObject({ leader: 1, isr: [1, 2] });
    cluster.killBroker(2);
    cluster.tick(1500);
    expect(state(cluster)).toMatchObject({ leader: 1, isr: [1] });
    expect(state(cluster)).not.toHaveProperty('elr');
    const epoch = state(cluster).leader_epoch as number;
    cluster.killBroker(1);
    cluster.tick(1500);
    // The last member stays in the ISR; the partition has no leader (one more epoch bump).
    expect(state(cluster)).toMatchObject({ leader: -1, isr: [1], leader_epoch: epoch + 1 });
  });

  it('two ISR members dying together: the lower id goes, the last one stays', () => {
    const { cluster } = setup(4);
    cluster.killBroker(3);
    cluster.tick(1500);
    expect(state(cluster)).toMatchObject({ leader: 1, isr: [1, 2] });
    const epoch = state(cluster).leader_epoch as number;
    cluster.killBroker(1);
    cluster.killBroker(2);
    cluster.tick(1500);
    // Replica 1 (the leader) leaves: leader -1, ISR [2]; replica 2 is the last member: ISR [2].
    expect(state(cluster)).toMatchObject({ leader: -1, isr: [2], leader_epoch: epoch + 2 });
    // 1 comes back first: not in the ISR, so no clean leader; 2 comes back and leads.
    cluster.restartBroker(1);
    cluster.tick(1500);
    expect(state(cluster)).toMatchObject({ leader: -1, isr: [2] });
    cluster.restartBroker(2);
    cluster.tick(1500);
    expect(state(cluster)).toMatchObject({ leader: 2 });
  });

  it('the high watermark stops while the ISR is below min.insync.replicas (Partition.maybeIncrementLeaderHW)', () => {
    const { cluster, client } = setup();
    expect(client.produce(1, 't', 0, makeBatch(['a']), -1)?.errorCode).toBe('NONE');
    cluster.killBroker(2);
    cluster.killBroker(3);
    cluster.tick(1500);
    expect(client.produce(1, 't', 0, makeBatch(['b']), 1)?.errorCode).toBe('NONE');
    cluster.tick(500);
    const p = cluster.broker(1).replicaManager.partitions.get('t-0');
    expect(p?.logEndOffset()).toBe(2);
    expect(p?.highWatermark).toBe(1);
  });

  it('the last ISR member back after a power failure is elected again, and the others follow its log', () => {
    const { cluster, client, events } = setup(4);
    expect(client.produce(1, 't', 0, makeBatch(['a', 'b', 'c']), -1)?.errorCode).toBe('NONE');
    cluster.tick(200);
    // 2 and 3 crash (page cache intact); 1 is alone in the ISR.
    cluster.killBroker(2);
    cluster.killBroker(3);
    cluster.tick(1500);
    expect(state(cluster)).toMatchObject({ leader: 1, isr: [1] });
    // Now 1 loses its power: every unflushed byte of it is gone.
    cluster.powerFailBroker(1);
    cluster.tick(1500);
    expect(state(cluster)).toMatchObject({ leader: -1, isr: [1] });
    // 2 and 3 are back first: neither is in the ISR, unclean election is off, no leader.
    cluster.restartBroker(2);
    cluster.restartBroker(3);
    cluster.tick(1500);
    expect(state(cluster)).toMatchObject({ leader: -1, isr: [1] });
    const restartedAt = cluster.scheduler.now();
    cluster.restartBroker(1);
    cluster.tick(5000);
    // No unclean-shutdown fencing in ZooKeeper mode: 1 registers as any broker and leads again.
    expect(cluster.zk.getData('/brokers/ids/1').data).not.toHaveProperty('unclean_shutdown');
    expect(state(cluster).leader).toBe(1);
    expect(events.some((e) => e.type === 'becameLeader' && e.broker === 1 && e.atMs >= restartedAt)).toBe(true);
    expect(events.some((e) => e.type === 'uncleanLeaderElection')).toBe(false);
    // The power failure took all three acknowledged records from 1's log: lost, and the
    // simulation says so (Kafka cannot tell); 2 and 3 truncate to the new leader's empty log.
    const leaderEnd = cluster.broker(1).replicaManager.partitions.get('t-0')?.logEndOffset();
    expect(leaderEnd).toBe(0);
    expect(events.filter((e) => e.type === 'committedRecordsLost')).toMatchObject([
      { topic: 't', partition: 0, newLeader: 1, lostCommittedOffsets: { from: 0, to: 3 } },
    ]);
    for (const id of [2, 3])
      expect(cluster.broker(id).replicaManager.partitions.get('t-0')?.logEndOffset()).toBe(leaderEnd);
    expect(state(cluster).isr).toEqual(expect.arrayContaining([1, 2, 3]));
  });

  it('a power-failed broker never leads from a stale registration of its previous incarnation', () => {
    const { cluster, client } = setup();
    expect(client.produce(1, 't', 0, makeBatch(['a', 'b']), -1)?.errorCode).toBe('NONE');
    cluster.tick(200);
    // 3 power-fails and restarts at once: its old /brokers/ids/3 lingers until the session expires.
    cluster.powerFailBroker(3);
    cluster.restartBroker(3);
    // A controller request addressed to the old incarnation is refused (no broker epoch yet).
    cluster.tick(10);
    const rejected = cluster.broker(3).brokerEpoch;
    expect(rejected).toBe(-1);
    cluster.killBroker(1);
    cluster.tick(3000);
    expect(state(cluster).leader).toBe(2);
    cluster.tick(3000);
    for (const id of [1, 2, 3]) {
      if (cluster.broker(id).state === 'down') continue;
      expect(cluster.broker(id).replicaManager.partitions.get('t-0')?.logEndOffset()).toBe(2);
    }
    expect(checkReplicationInvariants(cluster)).toEqual([]);
  });
});

describe('leader epochs', () => {
  it('every leader change bumps the leader epoch and each epoch has one leader', () => {
    const { cluster } = setup();
    const epochs: number[] = [];
    for (const victim of [1, 2, 3, 1]) {
      const before = state(cluster).leader_epoch as number;
      epochs.push(before);
      if (cluster.broker(victim).state !== 'down') cluster.killBroker(victim);
      cluster.tick(2000);
      cluster.restartBroker(victim);
      cluster.tick(3000);
      expect(state(cluster).leader_epoch as number).toBeGreaterThan(before);
    }
    for (const [, byEpoch] of cluster.leadersByEpoch) expect(byEpoch.size).toBeGreaterThan(1);
    expect(cluster.violations).toEqual([]);
  });

  it('a new leader records its epoch start offset, so a returning replica finds where it diverged', () => {
    const { cluster } = setup();
    cluster.killBroker(1);
    cluster.tick(2000);
    const leader = cluster.broker(state(cluster).leader as number).replicaManager.partitions.get('t-0');
    expect(leader?.log.epochEntries().at(-1)).toEqual({ epoch: state(cluster).leader_epoch, startOffset: 0 });
  });
});

describe('stray replicas', () => {
  // DeleteTopicTest.testResumeDeleteTopicWithRecoveredFollower: the deletion waits for the broker
  // that was down (TopicDeletionManager), whose StopReplica deletes the log once it is back.
  it('a broker that was down while its topic was deleted loses the log when it returns', () => {
    const { cluster } = setup();
    cluster.killBroker(3);
    cluster.tick(1500);
    cluster.deleteTopic('t');
    cluster.tick(500);
    expect(cluster.topicNames()).toEqual(['t']);
    expect(cluster.broker(3).replicaManager.logs.size).toBe(1);
    cluster.restartBroker(3);
    cluster.tick(500);
    expect(cluster.broker(3).replicaManager.logs.size).toBe(0);
  });
});

// KIP-101 ("Alter Replication Protocol to use Leader Epoch rather than High Watermark for
// Truncation"), scenario 1: a follower that restarts before learning the new high watermark
// must not truncate to its stale HW, or an acknowledged record disappears at the next election.
describe('KIP-101 scenario 1', () => {
  it('a restarted follower keeps records above its stale high watermark', () => {
    const { cluster, events } = startCluster(9, 2, {
      'zookeeper.session.timeout.ms': 1000,
      'replica.fetch.wait.max.ms': 500,
    });
    cluster.createTopic({ name: 't', partitions: 1, replicationFactor: 2, fixedStartIndex: 0 });
    cluster.tick(600);
    const client = new TestClient(cluster);
    const r = client.produce(1, 't', 0, makeBatch(['m1', 'm2']), -1);
    expect(r).toMatchObject({ errorCode: 'NONE', baseOffset: 0 });
    const follower = cluster.broker(2).replicaManager.partitions.get('t-0');
    expect(follower?.logEndOffset()).toBe(2);
    expect(follower?.highWatermark).toBe(0); // the fetch that tells it HW = 2 is still parked at the leader
    cluster.killBroker(2);
    cluster.restartBroker(2);
    cluster.tick(1500);
    cluster.killBroker(1);
    cluster.tick(1500);
    expect(cluster.partitionState('t', 0)?.leader).toBe(2);
    expect(cluster.broker(2).replicaManager.partitions.get('t-0')?.logEndOffset()).toBe(2);
    expect(events.some((e) => e.type === 'replicaTruncated' && e.broker === 2)).toBe(false);
  });
});

describe('controlled shutdown', () => {
  it('retries while a partition has nowhere to go, then stops anyway (controlled.shutdown.max.retries)', () => {
    const { cluster, events } = startCluster(2, 2, {
      'controlled.shutdown.max.retries': 2,
      'controlled.shutdown.retry.backoff.ms': 1000,
    });
    cluster.createTopic({ name: 'solo', assignment: [[2]] });
    cluster.tick(200);
    cluster.stopBroker(2);
    cluster.tick(500);
    expect(cluster.broker(2).state).toBe('shuttingDown');
    cluster.tick(5000);
    const attempts = events.filter((e) => e.type === 'controlledShutdown' && e.broker === 2);
    expect(attempts.length).toBe(3); // the first try and two retries
    expect(attempts.every((e) => e.type === 'controlledShutdown' && e.remaining === 1)).toBe(true);
    expect(cluster.broker(2).state).toBe('down');
    cluster.tick(500);
    expect(cluster.partitionState('solo', 0)?.leader).toBe(-1);
  });
});

// Kafka 3.9 ControllerIntegrationTest.testControlledShutdown / ...RejectControlledShutdownRequestWithStaleBrokerEpoch,
// on KafkaController.doControlledShutdown: the requests come straight to the controller (the
// brokers keep running), as the test calls controller.controlledShutdown.
describe('ControlledShutdown at the controller (KafkaController.doControlledShutdown)', () => {
  type Answer = Extract<import('./requests').KafkaResponse, { api: 'ControlledShutdown' }>;
  function setup() {
    const { cluster, events } = startCluster(3, 3, { 'auto.leader.rebalance.enable': false });
    cluster.createTopic({ name: 'test', assignment: [[1, 2, 3]] });
    cluster.tick(500);
    const client = new TestClient(cluster);
    const shutdown = (id: number, brokerEpoch = cluster.broker(id).brokerEpoch) =>
      client.call<Answer>(
        cluster.activeController()?.id ?? -1,
        { api: 'ControlledShutdown', brokerId: id, brokerEpoch },
        1000,
      );
    return { cluster, events, client, shutdown };
  }

  it('testControlledShutdown: followers leave the ISR and stop fetching; the last replica keeps leading', () => {
    const { cluster, client, shutdown } = setup();
    const logEnd = (b: number) => cluster.broker(b).replicaManager.logs.get('test-0')?.log.logEndOffset();
    expect(shutdown(3)).toMatchObject({ errorCode: 'NONE', remainingPartitions: [] });
    cluster.tick(2000);
    expect(cluster.partitionState('test', 0)).toMatchObject({ leader: 1, isr: [1, 2] });
    // StopReplica (no delete) stopped broker 3's fetcher: it copies nothing more.
    expect(client.produce(1, 'test', 0, makeBatch(['a', 'b']), -1)?.errorCode).toBe('NONE');
    cluster.tick(2000);
    expect([logEnd(1), logEnd(2), logEnd(3)]).toEqual([2, 2, 0]);
    expect(shutdown(2)).toMatchObject({ errorCode: 'NONE', remainingPartitions: [] });
    cluster.tick(2000);
    expect(cluster.partitionState('test', 0)).toMatchObject({ leader: 1, isr: [1] });
    // Every replica is shutting down: the leader does not change, and the partition remains.
    expect(shutdown(1)).toMatchObject({
      errorCode: 'NONE',
      remainingPartitions: [{ topicName: 'test', partitionIndex: 0 }],
    });
    expect(cluster.partitionState('test', 0)).toMatchObject({ leader: 1, isr: [1] });
  });

  it('testControllerRejectControlledShutdownRequestWithStaleBrokerEpoch: STALE_BROKER_EPOCH', () => {
    const { cluster, shutdown } = setup();
    expect(shutdown(2, cluster.broker(2).brokerEpoch - 1)?.errorCode).toBe('STALE_BROKER_EPOCH');
    expect(cluster.partitionState('test', 0)?.isr).toEqual([1, 2, 3]);
  });
});

// Kafka 3.9 UncleanLeaderElectionTest.testTopicUncleanLeaderElectionEnableWithAlterTopicConfigs:
// TopicConfigHandler tells the controller (KafkaController.enableTopicUncleanLeaderElection), and
// processTopicUncleanLeaderElectionEnable runs triggerOnlinePartitionStateChange for the topic.
describe('unclean.leader.election.enable turned on for a topic', () => {
  it('elects a leader for its offline partition at once; with the leader alive, nothing changes', () => {
    const { cluster, events } = startCluster(4, 2, {
      'zookeeper.session.timeout.ms': 1000,
      'auto.leader.rebalance.enable': false,
    });
    cluster.createTopic({ name: 't', assignment: [[1, 2]] });
    cluster.tick(500);
    const client = new TestClient(cluster);
    expect(client.produce(1, 't', 0, makeBatch(['first']), -1)?.errorCode).toBe('NONE');
    // The leader is alive: enabling (and disabling) unclean election moves nothing.
    const epoch = cluster.partitionState('t', 0)?.leader_epoch;
    cluster.alterTopicConfig('t', { 'unclean.leader.election.enable': 'true' });
    cluster.tick(500);
    cluster.alterTopicConfig('t', { 'unclean.leader.election.enable': 'false' });
    cluster.tick(500);
    expect(cluster.partitionState('t', 0)).toMatchObject({ leader: 1, leader_epoch: epoch });

    cluster.killBroker(2);
    cluster.tick(1500);
    expect(client.produce(1, 't', 0, makeBatch(['second']), -1)?.errorCode).toBe('NONE');
    cluster.killBroker(1);
    cluster.tick(1500);
    cluster.restartBroker(2);
    cluster.tick(1500);
    // No unclean election to the non-ISR follower: no leader, the ISR keeps the old leader.
    expect(cluster.partitionState('t', 0)).toMatchObject({ leader: -1, isr: [1] });
    expect(events.some((e) => e.type === 'uncleanLeaderElection')).toBe(false);

    cluster.alterTopicConfig('t', { 'unclean.leader.election.enable': 'true' });
    // Not within the write: the controller's broker hears of it through /config/changes
    // (ZkConfigManager -> TopicConfigHandler.processConfigChanges), one watch delivery later,
    // and elects 2 then, with no broker event needed.
    expect(cluster.partitionState('t', 0)).toMatchObject({ leader: -1 });
    cluster.tick(0);
    expect(cluster.partitionState('t', 0)).toMatchObject({ leader: 2, isr: [2] });
    expect(events.filter((e) => e.type === 'uncleanLeaderElection')).toHaveLength(1);
    cluster.tick(500);
    // "second" was lost to the unclean election; "third" follows "first".
    expect(client.produce(2, 't', 0, makeBatch(['third']), -1)).toMatchObject({ errorCode: 'NONE', baseOffset: 1 });
  });
});
