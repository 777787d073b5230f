import { describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../engine/apps/types';
import { narrate, shortMemberIds } from './narrate';
import { toEngineMs } from '../../worker/client';

const at = (ms: number) => toEngineMs(ms);

type Leadership = [leader: number, leaderEpoch: number, isr: number[]];

/** The controller's partitionStateChanged at 7001 ms (epoch 1), from `before` to `after` (partition epoch 0 -> 1). */
function stateChange(
  topic: string,
  partition: number,
  [leader, leaderEpoch, isr]: Leadership,
  after: Leadership,
  reason: 'offlinePartition' | 'replicaOffline',
): EngineEvent {
  return {
    type: 'partitionStateChanged',
    topic,
    partition,
    old: { leader, leaderEpoch, isr, partitionEpoch: 0 },
    new: { leader: after[0], leaderEpoch: after[1], isr: after[2], partitionEpoch: 1 },
    reason,
    controllerEpoch: 1,
    atMs: at(7001),
  };
}

describe('narrate', () => {
  it('tells a broker failure as Kafka handles it: session expiry, ephemeral node, watch, first live ISR member, new epoch', () => {
    const events: EngineEvent[] = [
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
      stateChange('orders', 1, [2, 0, [2, 3, 1]], [3, 1, [3, 1]], 'offlinePartition'),
      stateChange('orders', 0, [1, 0, [1, 2, 3]], [1, 0, [1, 3]], 'replicaOffline'),
      ...[0, 1, 2].map((p) => stateChange('__consumer_offsets', p, [2, 0, [2, 1]], [1, 1, [1]], 'offlinePartition')),
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

describe('shortMemberIds', () => {
  it('cuts each member id to its client id, dashes in the client id kept, other words untouched', () => {
    expect(
      shortMemberIds(
        'analytics: Empty → PreparingRebalance (generation 0; member c4-443dcd22-9443-4a5c-8b4f-cfdcc4479565 joined).',
      ),
    ).toBe('analytics: Empty → PreparingRebalance (generation 0; member c4 joined).');
    expect(shortMemberIds('leader app-consumer-1-0a1b2c3d-0000-4000-8000-00000000abcd, 2 members')).toBe(
      'leader app-consumer-1, 2 members',
    );
    expect(shortMemberIds('__consumer_offsets-10 (abs(hash("g")) % 50 = 10)')).toBe(
      '__consumer_offsets-10 (abs(hash("g")) % 50 = 10)',
    );
  });

  it('keeps the full sentence on a shortened rebalance line, none on a line that was already short', () => {
    const n = narrate([
      {
        type: 'groupMemberRemoved',
        groupId: 'g',
        memberId: 'c1-443dcd22-9443-4a5c-8b4f-cfdcc4479565',
        reason: 'session timeout',
        atMs: at(5),
      } as EngineEvent,
      {
        type: 'groupGenerationCompleted',
        groupId: 'g',
        generationId: 2,
        protocolName: 'range',
        assignment: {},
        atMs: at(6),
      } as unknown as EngineEvent,
    ]);
    expect(n.groupStory[0]).toMatchObject({
      text: 'g: member c1 removed (session timeout).',
      full: 'g: member c1-443dcd22-9443-4a5c-8b4f-cfdcc4479565 removed (session timeout).',
    });
    expect(n.groupStory[1]?.full).toBeUndefined();
  });
});
