import { describe, expect, it } from 'vitest';
import { clusterWithGroups } from '../../consumerApps/clusterGroups.testing';
import type { ClusterEvent } from '../../cluster/events';
import { OFFSETS_TOPIC } from './GroupCoordinator';
import type { GroupEvent } from '../../clients/consumer/groupEvents';

/**
 * Kafka 3.9 ZooKeeper mode: KafkaApis.handleLeaderAndIsrRequest hands the partitions whose role
 * changed to RequestHandlerHelper.onLeadershipChange, which calls GroupCoordinator.onElection
 * (handleGroupImmigration: schedule the load) for `__consumer_offsets` partitions this broker now
 * leads and onResignation (handleGroupEmigration) for those it now follows; StopReplica resigns
 * too. The coordinator never polls for leadership: it moves in the instant the request lands.
 */
function setup() {
  const events: (ClusterEvent | GroupEvent)[] = [];
  const { cluster, groups } = clusterWithGroups({
    seed: 5,
    groupsSeed: 3,
    clusterEmit: (e) => events.push(e),
    groupEmit: (e) => events.push(e),
    brokerConfig: { 'zookeeper.session.timeout.ms': 6000 },
    coordinatorConfig: { 'offsets.topic.num.partitions': 6 },
    zk: true,
  });
  return { cluster, groups, events };
}

type RoleEvent = Extract<ClusterEvent, { type: 'becameLeader' | 'becameFollower' }>;
/** When an event happened (every event this test looks for carries `atMs`). */
const at = (e: ClusterEvent | GroupEvent | undefined) => (e && 'atMs' in e ? e.atMs : undefined);
const roles = (events: (ClusterEvent | GroupEvent)[], type: RoleEvent['type']) =>
  events.filter((e): e is RoleEvent => e.type === type && (e as RoleEvent).topic === OFFSETS_TOPIC);

describe('GroupCoordinator.onElection / onResignation follow LeaderAndIsr', () => {
  it('each offsets partition starts loading on its leader in the instant its LeaderAndIsr lands', () => {
    const { cluster, groups, events } = setup();
    expect(groups.ensureOffsetsTopic()).toBe(true);
    cluster.tick(1_000);
    const elected = roles(events, 'becameLeader');
    expect(elected.map((e) => e.partition).sort()).toEqual([0, 1, 2, 3, 4, 5]);
    for (const e of elected) {
      const loading = events.find(
        (x) => x.type === 'coordinatorLoading' && x.broker === e.broker && x.offsetsPartition === e.partition,
      );
      expect(at(loading), `partition ${e.partition} on broker ${e.broker}`).toBe(e.atMs);
      expect(groups.coordinators.get(e.broker)?.shards.get(e.partition)?.loaded).toBe(true);
    }
  });

  it('a preferred election moves a partition: the old leader unloads as it becomes follower, the new one loads then', () => {
    const { cluster, groups, events } = setup();
    groups.ensureOffsetsTopic();
    cluster.tick(1_000);
    const first = roles(events, 'becameLeader').find((e) => e.partition === 0) as RoleEvent;
    // Kill the preferred leader: partition 0 moves; bring it back and elect it again.
    cluster.killBroker(first.broker);
    cluster.tick(10_000);
    const standIn = cluster.partitionState(OFFSETS_TOPIC, 0)?.leader as number;
    expect(standIn).not.toBe(first.broker);
    expect(groups.coordinators.get(standIn)?.shards.has(0)).toBe(true);
    cluster.restartBroker(first.broker);
    cluster.tick(10_000);
    const mark = events.length;
    cluster.electPreferredLeaders([{ topic: OFFSETS_TOPIC, partition: 0 }]);
    cluster.tick(1_000);
    const since = events.slice(mark);
    const resigned = roles(since, 'becameFollower').find((e) => e.broker === standIn && e.partition === 0);
    const unloaded = since.find(
      (x) => x.type === 'coordinatorUnloaded' && x.broker === standIn && x.offsetsPartition === 0,
    );
    expect(at(unloaded)).toBe(resigned?.atMs);
    const reelected = roles(since, 'becameLeader').find((e) => e.broker === first.broker && e.partition === 0);
    const loading = since.find(
      (x) => x.type === 'coordinatorLoading' && x.broker === first.broker && x.offsetsPartition === 0,
    );
    expect(at(loading)).toBe(reelected?.atMs);
    expect(groups.coordinators.get(standIn)?.shards.has(0)).toBe(false);
    expect(groups.coordinators.get(first.broker)?.shards.get(0)?.loaded).toBe(true);
  });
});
