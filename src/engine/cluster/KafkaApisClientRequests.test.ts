import { describe, expect, it } from 'vitest';
import { clusterWithGroups } from '../consumerApps/clusterGroups.testing';
import { OFFSETS_TOPIC } from '../coordinator/group/GroupCoordinator';
import { groupCoordinatorPartition } from '../coordinator/group/groupCoordinatorPartition';
import type { JoinGroupRequest } from '../clients/consumer/groupProtocol';
import { CONSUMER_REPLICA_ID, type FetchResponse, type KafkaResponse } from './requests';
import { fetchRequest, makeBatch, TestClient } from './testing';

/**
 * Kafka's KafkaApis.handle: `case ApiKeys.FIND_COORDINATOR => handleFindCoordinatorRequest`
 * names the leader of the group's `__consumer_offsets` partition (getCoordinator);
 * `case ApiKeys.JOIN_GROUP => handleJoinGroupRequest(request)` and its siblings hand each group
 * API to the broker's GroupCoordinator, which answers NOT_COORDINATOR
 * for a group whose `__consumer_offsets` partition this broker does not lead; `case FETCH =>
 * handleFetchRequest` hands a consumer's fetch to ReplicaManager.fetchMessages, where one that
 * finds less than fetch.min.bytes waits in the DelayedFetch purgatory until the high watermark
 * moves or fetch.max.wait.ms passes. Each request travels the cluster's network to the broker,
 * as every client's does.
 */
function setup() {
  const { cluster, groups } = clusterWithGroups({
    seed: 9,
    groupsSeed: 1,
    coordinatorConfig: { 'group.initial.rebalance.delay.ms': 0 },
  });
  groups.ensureOffsetsTopic();
  cluster.tick(1_000);
  const coordinator = cluster.partitionState(OFFSETS_TOPIC, groupCoordinatorPartition('g'))?.leader as number;
  return { cluster, coordinator, client: new TestClient(cluster, 'client-1') };
}

const join = (requireKnownMemberId: boolean): JoinGroupRequest => ({
  api: 'JoinGroup',
  groupId: 'g',
  sessionTimeoutMs: 10_000,
  rebalanceTimeoutMs: 10_000,
  memberId: '',
  groupInstanceId: null,
  protocolType: 'consumer',
  protocols: [{ name: 'range', metadata: new Uint8Array(0) }],
  clientId: 'c1',
  clientHost: '/127.0.0.1',
  requireKnownMemberId,
});

describe("KafkaApis dispatches the engine clients' requests to the broker services", () => {
  it('JoinGroup at the coordinator: handleJoinGroupRequest → GroupCoordinator.handleJoinGroup (KIP-394 MEMBER_ID_REQUIRED)', () => {
    const { coordinator, client } = setup();
    expect(client.call(coordinator, join(true))).toMatchObject({ api: 'JoinGroup', errorCode: 'MEMBER_ID_REQUIRED' });
  });

  it('FindCoordinator at any broker: handleFindCoordinatorRequest names the leader of the group offsets partition', () => {
    const { coordinator, client } = setup();
    for (const b of [1, 2, 3]) {
      expect(client.call(b, { api: 'FindCoordinator', key: 'g', keyType: 0 })).toEqual({
        api: 'FindCoordinator',
        errorCode: 'NONE',
        nodeId: coordinator,
        partition: groupCoordinatorPartition('g'),
      });
    }
  });

  it('JoinGroup, OffsetFetch and DescribeGroups at another broker: NOT_COORDINATOR', () => {
    const { coordinator, client } = setup();
    const other = [1, 2, 3].find((b) => b !== coordinator) as number;
    const answers: (KafkaResponse | undefined)[] = [
      client.call(other, join(false)),
      client.call(other, { api: 'OffsetFetch', groupId: 'g', topics: null, requireStable: false }),
      client.call(other, { api: 'DescribeGroups', groups: ['g'] }),
    ];
    expect(answers).toMatchObject([
      { api: 'JoinGroup', errorCode: 'NOT_COORDINATOR' },
      { api: 'OffsetFetch', errorCode: 'NOT_COORDINATOR' },
      { api: 'DescribeGroups', groups: [{ groupId: 'g', errorCode: 'NOT_COORDINATOR' }] },
    ]);
  });

  it('a consumer Fetch at the high watermark waits in the DelayedFetch purgatory until a produce moves it', () => {
    const { cluster, client } = setup();
    cluster.createTopic({ name: 'orders', partitions: 1, replicationFactor: 3 });
    cluster.tick(1_000);
    const leader = cluster.partitionState('orders', 0)?.leader as number;
    const fetch = (fetchOffset: number) => {
      // A consumer's fetch (replicaId -1), fetch.min.bytes 1.
      return client.send(
        leader,
        fetchRequest('orders', 0, { replicaId: CONSUMER_REPLICA_ID, maxWaitMs: 500, fetchOffset }),
      );
    };
    const answered = (cid: number) => client.responses.get(cid) as FetchResponse | undefined;
    const first = fetch(0);
    cluster.tick(50);
    expect(answered(first)).toBeUndefined();
    const producedAt = cluster.scheduler.now();
    new TestClient(cluster, 'producer-1').produce(leader, 'orders', 0, makeBatch(['a', 'b']));
    const firstAnswer = answered(first);
    expect(firstAnswer?.responses[0]?.partitions[0]).toMatchObject({ errorCode: 'NONE', highWatermark: 2 });
    expect(cluster.scheduler.now() - producedAt).toBeLessThan(500);
    // Nothing more arrives: the next fetch is answered empty once fetch.max.wait.ms has passed.
    const askedAt = cluster.scheduler.now();
    const second = fetch(2);
    let answeredAt = -1;
    for (let t = 0; t < 1_000 && answeredAt < 0; t++) {
      cluster.tick(1);
      if (answered(second)) answeredAt = cluster.scheduler.now();
    }
    // One link latency there, fetch.max.wait.ms held in the purgatory, one latency back.
    expect(answeredAt - askedAt).toBe(500 + 2 * cluster.network.latencyMs);
    expect(answered(second)?.responses[0]?.partitions[0]).toMatchObject({
      errorCode: 'NONE',
      highWatermark: 2,
      records: new Uint8Array(0),
    });
  });
});
