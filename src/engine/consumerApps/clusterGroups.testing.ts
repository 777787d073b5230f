/**
 * A three-broker Cluster with consumer groups on it, wired as the engine wires them: each
 * broker's KafkaApis reaches its GroupCoordinator (told as LeaderAndIsr lands), and the groups'
 * consumers are nodes on the cluster's network. The brokers have registered (100 ms) when it
 * returns; `__consumer_offsets` is not created yet.
 */
import { ManualClock } from '../Clock';
import { Cluster } from '../cluster/Cluster';
import type { ClusterOptions } from '../cluster/ClusterOptions';
import type { ClusterEvent } from '../cluster/events';
import type { GroupEvent } from '../clients/consumer/groupEvents';
import { Rng } from '../Rng';
import { ClusterConsumerPort } from './ClusterConsumerPort';
import { ConsumerGroups, type ConsumerGroupsDeps } from './ConsumerGroups';

export interface ClusterGroupsOptions {
  /** The cluster's seed. */
  seed: number;
  /** The seed of the groups' Rng. */
  groupsSeed: number;
  clusterEmit?: (e: ClusterEvent) => void;
  groupEmit?: (e: GroupEvent) => void;
  brokerConfig?: ClusterOptions['brokerConfig'];
  coordinatorConfig?: ConsumerGroupsDeps['coordinatorConfig'];
  /** Whether the groups get the cluster's coordination store (for legacy ZooKeeper consumers). */
  zk?: boolean;
}

export function clusterWithGroups(o: ClusterGroupsOptions) {
  let groups: ConsumerGroups | undefined;
  const cluster = new Cluster({
    clock: new ManualClock(0),
    seed: o.seed,
    emit: o.clusterEmit ?? (() => {}),
    ...(o.brokerConfig ? { brokerConfig: o.brokerConfig } : {}),
    groupCoordinator: (brokerId) => groups?.coordinatorOn(brokerId),
  });
  for (let i = 1; i <= 3; i++) cluster.addBroker({ id: i });
  cluster.tick(100);
  const port = new ClusterConsumerPort(cluster);
  groups = new ConsumerGroups({
    scheduler: cluster.scheduler,
    port,
    rng: new Rng(o.groupsSeed),
    emit: o.groupEmit ?? (() => {}),
    ...(o.coordinatorConfig ? { coordinatorConfig: o.coordinatorConfig } : {}),
    ...(o.zk ? { zk: cluster.zk } : {}),
    network: cluster.network,
  });
  return { cluster, port, groups };
}
