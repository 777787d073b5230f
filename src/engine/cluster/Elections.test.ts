import { describe, expect, it } from 'vitest';
import { ManualClock } from '../Clock';
import { Cluster } from './Cluster';
import type { ClusterEvent } from './events';
import { checkReplicationInvariants } from './invariants';
import { makeBatch, TestClient } from './testing';

function setup(brokers = 3) {
  const events: ClusterEvent[] = [];
  const cluster = new Cluster({
    clock: new ManualClock(0),
    seed: 5,
    emit: (e) => events.push(e),
    brokerConfig: {
      'zookeeper.session.timeout.ms': 1000,
      'replica.lag.time.max.ms': 1000,
      'replica.fetch.wait.max.ms': 50,
      'replica.fetch.backoff.ms': 100,
      'replica.socket.timeout.ms': 1000,
      'auto.leader.rebalance.enable': false,
    },
  });
  for (let i = 1; i <= brokers; i++) cluster.addBroker({ id: i });
  cluster.tick(200);
  cluster.createTopic({
    name: 't',
    partitions: 1,
    replicationFactor: 3,
    fixedStartIndex: 0,
    configs: { 'min.insync.replicas': 2 },
  });
  cluster.tick(300);
  return { cluster, events, client: new TestClient(cluster) };
}

const state = (c: Cluster) => c.zk.getData('/brokers/topics/t/partitions/0/state').data as Record<string, unknown>;

describe('eligible leader replicas and unclean shutdowns (KIP-966)', () => {
  it('replicas that leave an ISR already below min.insync.replicas become eligible leaders', () => {
    const { cluster } = setup();
    cluster.killBroker(3);
    cluster.tick(1500); // ISR [1,2]: still at min.insync.replicas, no ELR
    expect(state(cluster)).toMatchObject({ leader: 1, isr: [1, 2] });
    expect(state(cluster).elr).toBeUndefined();
    cluster.killBroker(2);
    cluster.tick(1500); // ISR [1] < 2: 2 joins the ELR
    expect(state(cluster)).toMatchObject({ leader: 1, isr: [1], elr: [2] });
  });

  it('the high watermark stops while the ISR is below min.insync.replicas', () => {
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

  it('after the last ISR member power-fails, a clean ELR replica leads: nothing acknowledged is lost', () => {
    const { cluster, client, events } = setup();
    expect(client.produce(1, 't', 0, makeBatch(['a', 'b', 'c']), -1)?.errorCode).toBe('NONE');
    cluster.tick(200);
    // 2 and 3 crash (page cache intact) and wait to re-register; 1 is alone in the ISR.
    cluster.killBroker(2);
    cluster.killBroker(3);
    cluster.tick(1500);
    expect(state(cluster)).toMatchObject({ leader: 1, isr: [1] });
    // Now 1 loses its power: every unflushed byte of it is gone.
    cluster.powerFailBroker(1);
    cluster.restartBroker(1);
    cluster.restartBroker(2);
    cluster.restartBroker(3);
    cluster.tick(5000);
    const s = state(cluster);
    expect(s.leader === 2 || s.leader === 3).toBe(true);
    // 1 came back from an unclean shutdown: it registered saying so and never led again.
    expect(
      events.some(
        (e) =>
          e.type === 'znodeCreated' &&
          e.path === '/brokers/ids/1' &&
          (e.data as { unclean_shutdown?: boolean }).unclean_shutdown === true,
      ),
    ).toBe(true);
    const down = events.find((e) => e.type === 'brokerDown' && e.broker === 1);
    const powerFailedAt = down?.type === 'brokerDown' ? down.atMs : 0;
    expect(events.some((e) => e.type === 'becameLeader' && e.broker === 1 && e.atMs > powerFailedAt)).toBe(false);
    for (const id of [1, 2, 3]) expect(cluster.broker(id).replicaManager.partitions.get('t-0')?.logEndOffset()).toBe(3);
    expect(checkReplicationInvariants(cluster)).toEqual([]);
    expect(cluster.zk.getData('/brokers/ids/1').data).toMatchObject({ unclean_shutdown: false });
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
  it('a broker that was down while its topic was deleted drops the stray log at start-up', () => {
    const { cluster } = setup();
    cluster.killBroker(3);
    cluster.tick(1500);
    cluster.deleteTopic('t');
    cluster.tick(500);
    expect(cluster.topicNames()).toEqual([]);
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
    const events: ClusterEvent[] = [];
    const cluster = new Cluster({
      clock: new ManualClock(0),
      seed: 9,
      emit: (e) => events.push(e),
      brokerConfig: { 'zookeeper.session.timeout.ms': 1000, 'replica.fetch.wait.max.ms': 500 },
    });
    cluster.addBroker({ id: 1 });
    cluster.addBroker({ id: 2 });
    cluster.tick(200);
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
    const events: ClusterEvent[] = [];
    const cluster = new Cluster({
      clock: new ManualClock(0),
      seed: 2,
      emit: (e) => events.push(e),
      brokerConfig: { 'controlled.shutdown.max.retries': 2, 'controlled.shutdown.retry.backoff.ms': 1000 },
    });
    cluster.addBroker({ id: 1 });
    cluster.addBroker({ id: 2 });
    cluster.tick(200);
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

// Kafka 3.9 UncleanLeaderElectionTest.testTopicUncleanLeaderElectionEnableWithAlterTopicConfigs:
// TopicConfigHandler tells the controller (KafkaController.enableTopicUncleanLeaderElection), and
// processTopicUncleanLeaderElectionEnable runs triggerOnlinePartitionStateChange for the topic.
describe('unclean.leader.election.enable turned on for a topic', () => {
  it('elects a leader for its offline partition at once; with the leader alive, nothing changes', () => {
    const events: ClusterEvent[] = [];
    const cluster = new Cluster({
      clock: new ManualClock(0),
      seed: 4,
      emit: (e) => events.push(e),
      brokerConfig: { 'zookeeper.session.timeout.ms': 1000, 'auto.leader.rebalance.enable': false },
    });
    cluster.addBroker({ id: 1 });
    cluster.addBroker({ id: 2 });
    cluster.tick(200);
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
    // At once: the controller elected 2 within the config change, no broker event needed.
    expect(cluster.partitionState('t', 0)).toMatchObject({ leader: 2, isr: [2] });
    expect(events.filter((e) => e.type === 'uncleanLeaderElection')).toHaveLength(1);
    cluster.tick(500);
    // "second" was lost to the unclean election; "third" follows "first".
    expect(client.produce(2, 't', 0, makeBatch(['third']), -1)).toMatchObject({ errorCode: 'NONE', baseOffset: 1 });
  });
});
