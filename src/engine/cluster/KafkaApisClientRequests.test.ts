import { describe, expect, it } from 'vitest';
import { ManualClock } from '../Clock';
import { ClusterConsumerPort } from '../consumer/ClusterConsumerPort';
import { ConsumerGroups } from '../consumer/ConsumerGroups';
import { OFFSETS_TOPIC } from '../consumer/GroupCoordinator';
import { groupCoordinatorPartition } from '../consumer/groupCoordinatorPartition';
import type { ConsumerFetchResponse, ConsumerResponse } from '../consumer/fetchProtocol';
import type { JoinGroupRequest } from '../consumer/groupProtocol';
import { Rng } from '../Rng';
import { Cluster } from './Cluster';
import { makeBatch, TestClient } from './testing';

/**
 * Kafka's KafkaApis.handle: `case ApiKeys.FIND_COORDINATOR => handleFindCoordinatorRequest`
 * names the leader of the group's `__consumer_offsets` partition (getCoordinator);
 * `case ApiKeys.JOIN_GROUP => handleJoinGroupRequest(request)` and its siblings hand each group
 * API to the broker's GroupCoordinator, which answers NOT_COORDINATOR
 * for a group whose `__consumer_offsets` partition this broker does not lead; `case FETCH =>
 * handleFetchRequest` hands a consumer's fetch to ReplicaManager.fetchMessages, where one that
 * finds less than fetch.min.bytes waits in the DelayedFetch purgatory until the high watermark
 * moves or fetch.max.wait.ms passes.
 */
function setup() {
  let groups: ConsumerGroups | undefined;
  const cluster = new Cluster({
    clock: new ManualClock(0),
    seed: 9,
    emit: () => {},
    groupCoordinator: (brokerId) => groups?.coordinatorOn(brokerId),
  });
  for (let i = 1; i <= 3; i++) cluster.addBroker({ id: i });
  cluster.tick(100);
  groups = new ConsumerGroups({
    scheduler: cluster.scheduler,
    port: new ClusterConsumerPort(cluster),
    rng: new Rng(1),
    emit: () => {},
    coordinatorConfig: { 'group.initial.rebalance.delay.ms': 0 },
    onClientRequest: (brokerId, request, respond) => cluster.brokers.get(brokerId)?.onClientRequest(request, respond),
  });
  groups.ensureOffsetsTopic();
  cluster.tick(1_000);
  const coordinator = cluster.partitionState(OFFSETS_TOPIC, groupCoordinatorPartition('g'))?.leader as number;
  return { cluster, coordinator };
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
    const { cluster, coordinator } = setup();
    const answers: ConsumerResponse[] = [];
    cluster.broker(coordinator).onClientRequest(join(true), (r) => answers.push(r));
    expect(answers).toMatchObject([{ api: 'JoinGroup', errorCode: 'MEMBER_ID_REQUIRED' }]);
  });

  it('FindCoordinator at any broker: handleFindCoordinatorRequest names the leader of the group offsets partition', () => {
    const { cluster, coordinator } = setup();
    for (const b of [1, 2, 3]) {
      const answers: ConsumerResponse[] = [];
      cluster.broker(b).onClientRequest({ api: 'FindCoordinator', key: 'g', keyType: 0 }, (r) => answers.push(r));
      expect(answers).toEqual([
        { api: 'FindCoordinator', errorCode: 'NONE', nodeId: coordinator, partition: groupCoordinatorPartition('g') },
      ]);
    }
  });

  it('JoinGroup, OffsetFetch and DescribeGroups at another broker: NOT_COORDINATOR', () => {
    const { cluster, coordinator } = setup();
    const other = [1, 2, 3].find((b) => b !== coordinator) as number;
    const answers: ConsumerResponse[] = [];
    const broker = cluster.broker(other);
    broker.onClientRequest(join(false), (r) => answers.push(r));
    broker.onClientRequest({ api: 'OffsetFetch', groupId: 'g', topics: null, requireStable: false }, (r) =>
      answers.push(r),
    );
    broker.onClientRequest({ api: 'DescribeGroups', groups: ['g'] }, (r) => answers.push(r));
    expect(answers).toMatchObject([
      { api: 'JoinGroup', errorCode: 'NOT_COORDINATOR' },
      { api: 'OffsetFetch', errorCode: 'NOT_COORDINATOR' },
      { api: 'DescribeGroups', groups: [{ groupId: 'g', errorCode: 'NOT_COORDINATOR' }] },
    ]);
  });

  it('a consumer Fetch at the high watermark waits in the DelayedFetch purgatory until a produce moves it', () => {
    const { cluster } = setup();
    cluster.createTopic({ name: 'orders', partitions: 1, replicationFactor: 3 });
    cluster.tick(1_000);
    const leader = cluster.partitionState('orders', 0)?.leader as number;
    const answers: { atMs: number; response: ConsumerFetchResponse }[] = [];
    const fetch = (fetchOffset: number) =>
      cluster.broker(leader).onClientRequest(
        {
          api: 'Fetch',
          maxWaitMs: 500,
          minBytes: 1,
          maxBytes: 52_428_800,
          partitions: [
            { topic: 'orders', partition: 0, currentLeaderEpoch: -1, fetchOffset, partitionMaxBytes: 1_048_576 },
          ],
        },
        (r) => answers.push({ atMs: cluster.scheduler.now(), response: r as ConsumerFetchResponse }),
      );
    fetch(0);
    expect(answers).toEqual([]);
    const producedAt = cluster.scheduler.now();
    new TestClient(cluster).produce(leader, 'orders', 0, makeBatch(['a', 'b']));
    expect(answers).toHaveLength(1);
    const first = answers[0] as (typeof answers)[number];
    expect(first.atMs - producedAt).toBeLessThan(500);
    expect(first.response.partitions[0]?.records.map((r) => r.offset)).toEqual([0, 1]);
    // Nothing more arrives: the next fetch is answered empty once fetch.max.wait.ms has passed.
    const askedAt = cluster.scheduler.now();
    fetch(2);
    cluster.tick(1_000);
    expect(answers).toHaveLength(2);
    expect((answers[1]?.atMs ?? 0) - askedAt).toBe(500);
    expect(answers[1]?.response.partitions[0]).toMatchObject({ errorCode: 'NONE', highWatermark: 2, records: [] });
  });
});
