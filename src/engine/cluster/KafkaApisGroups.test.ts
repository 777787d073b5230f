import { describe, expect, it } from 'vitest';
import { ManualClock } from '../Clock';
import { ClusterConsumerPort } from '../consumer/ClusterConsumerPort';
import { ConsumerGroups } from '../consumer/ConsumerGroups';
import { OFFSETS_TOPIC } from '../consumer/GroupCoordinator';
import { groupCoordinatorPartition } from '../consumer/groupCoordinatorPartition';
import type { GroupResponse, JoinGroupRequest } from '../consumer/groupProtocol';
import { Rng } from '../Rng';
import { Cluster } from './Cluster';

/**
 * Kafka's KafkaApis.handle: `case ApiKeys.JOIN_GROUP => handleJoinGroupRequest(request)` and its
 * siblings hand each group API to the broker's GroupCoordinator, which answers NOT_COORDINATOR
 * for a group whose `__consumer_offsets` partition this broker does not lead.
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
    onGroupRequest: (brokerId, request, respond) => cluster.brokers.get(brokerId)?.onGroupRequest(request, respond),
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

describe('KafkaApis dispatches the group APIs to the broker GroupCoordinator', () => {
  it('JoinGroup at the coordinator: handleJoinGroupRequest → GroupCoordinator.handleJoinGroup (KIP-394 MEMBER_ID_REQUIRED)', () => {
    const { cluster, coordinator } = setup();
    const answers: GroupResponse[] = [];
    cluster.broker(coordinator).onGroupRequest(join(true), (r) => answers.push(r));
    expect(answers).toMatchObject([{ api: 'JoinGroup', errorCode: 'MEMBER_ID_REQUIRED' }]);
  });

  it('JoinGroup, OffsetFetch and DescribeGroups at another broker: NOT_COORDINATOR', () => {
    const { cluster, coordinator } = setup();
    const other = [1, 2, 3].find((b) => b !== coordinator) as number;
    const answers: GroupResponse[] = [];
    const broker = cluster.broker(other);
    broker.onGroupRequest(join(false), (r) => answers.push(r));
    broker.onGroupRequest({ api: 'OffsetFetch', groupId: 'g', topics: null, requireStable: false }, (r) =>
      answers.push(r),
    );
    broker.onGroupRequest({ api: 'DescribeGroups', groups: ['g'] }, (r) => answers.push(r));
    expect(answers).toMatchObject([
      { api: 'JoinGroup', errorCode: 'NOT_COORDINATOR' },
      { api: 'OffsetFetch', errorCode: 'NOT_COORDINATOR' },
      { api: 'DescribeGroups', groups: [{ groupId: 'g', errorCode: 'NOT_COORDINATOR' }] },
    ]);
  });
});
