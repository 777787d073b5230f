import { describe, expect, it } from 'vitest';
import type { PlaneEvent } from '../../engine/apps/types';
import { PLANE_EPOCH_MS } from '../../worker/client';
import { narrate } from './narrate';

const at = (ms: number) => PLANE_EPOCH_MS + ms;

describe('narrate', () => {
  it('tells a broker failure as Kafka handles it: session expiry, ephemeral node, watch, first live ISR member, new epoch', () => {
    const events: PlaneEvent[] = [
      { type: 'sessionExpired', sessionId: 3, owner: 'broker-2', lastHeartbeatMs: at(1000), atMs: at(7000) },
      {
        type: 'znodeDeleted',
        path: '/brokers/ids/2',
        oldData: {},
        reason: 'sessionExpired',
        zxid: 40,
        owner: 'broker-2',
        atMs: at(7000),
      },
      {
        type: 'watchFired',
        path: '/brokers/ids',
        event: 'NodeChildrenChanged',
        watcher: 'controller-1',
        atMs: at(7000),
      },
      {
        type: 'partitionStateChanged',
        topic: 'orders',
        partition: 1,
        old: { leader: 2, leaderEpoch: 0, isr: [2, 3, 1], partitionEpoch: 0 },
        new: { leader: 3, leaderEpoch: 1, isr: [3, 1], partitionEpoch: 1 },
        reason: 'offlinePartition',
        controllerEpoch: 1,
        atMs: at(7001),
      },
      {
        type: 'partitionStateChanged',
        topic: 'orders',
        partition: 0,
        old: { leader: 1, leaderEpoch: 0, isr: [1, 2, 3], partitionEpoch: 0 },
        new: { leader: 1, leaderEpoch: 0, isr: [1, 3], partitionEpoch: 1 },
        reason: 'replicaOffline',
        controllerEpoch: 1,
        atMs: at(7001),
      },
      ...[0, 1, 2].map(
        (p): PlaneEvent => ({
          type: 'partitionStateChanged',
          topic: '__consumer_offsets',
          partition: p,
          old: { leader: 2, leaderEpoch: 0, isr: [2, 1], partitionEpoch: 0 },
          new: { leader: 1, leaderEpoch: 1, isr: [1], partitionEpoch: 1 },
          reason: 'offlinePartition',
          controllerEpoch: 1,
          atMs: at(7001),
        }),
      ),
    ];
    const n = narrate(events);
    expect(n.story.map((l) => l.text)).toEqual([
      'ZooKeeper expired the session of broker-2: nothing heard for 6000 ms (zookeeper.session.timeout.ms).',
      "Ephemeral znode /brokers/ids/2 deleted: its owner's session expired.",
      'Watch fired on /brokers/ids (NodeChildrenChanged) at controller-1.',
      'Controller (epoch 1) chose broker 3, the first live member of ISR [2, 3, 1], to lead orders-1; leader epoch 0 → 1.',
      'ISR of orders-0: [1, 2, 3] → [1, 3] (a replica went offline); leader 1 stays.',
      'Controller (epoch 1) also moved the leaders of 3 __consumer_offsets partitions; group coordinators move with them.',
    ]);
    expect(n.story[0]?.atMs).toBe(7000);
    expect(n.znodes).toEqual({ '/brokers/ids/2': 7000 });
  });

  it('says which offsets an unclean election lost, and why a broker is a group’s coordinator', () => {
    const n = narrate(
      [
        {
          type: 'uncleanLeaderElection',
          topic: 'payments',
          partition: 0,
          newLeader: 3,
          newLeaderLogEndOffset: 20,
          lostOffsets: { from: 20, to: 40 },
          lostCommittedOffsets: { from: 20, to: 40 },
          atMs: at(30_000),
        },
        {
          type: 'groupRequestSent',
          id: 1,
          api: 'JoinGroup',
          from: 'c1',
          toBroker: 2,
          sentAtMs: at(100),
          arriveAtMs: at(101),
          body: {
            api: 'JoinGroup',
            groupId: 'billing',
            sessionTimeoutMs: 10_000,
            rebalanceTimeoutMs: 300_000,
            memberId: '',
            groupInstanceId: null,
            protocolType: 'consumer',
            protocols: [],
            clientId: 'c1',
            clientHost: '/127.0.0.1',
          },
        },
      ],
      { billing: 9 },
    );
    expect(n.story.map((l) => [l.tone, l.text])).toEqual([
      [
        'bad',
        'Unclean election on payments-0: broker 3 leads with LEO 20; offsets 20–39 are lost (20 of them acknowledged).',
      ],
    ]);
    expect(n.groupStory.map((l) => l.text)).toEqual([
      'c1 → broker 2: JoinGroup. Broker 2 is the coordinator because it leads __consumer_offsets-9 (abs(hash("billing")) % 50 = 9).',
    ]);
  });
});
