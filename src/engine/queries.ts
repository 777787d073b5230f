/**
 * What a host asks the engine: read-only answers built from the brokers' own state, so that no
 * host reaches into a broker's replica manager or the coordination store's internals. The Engine
 * facade exposes each of these as a method; the view builders in ./views call them.
 *
 * Times in the answers are relative to `originMs` (the engine time a scenario started at), the
 * one time base the page shows.
 */
import type { Cluster } from './cluster/Cluster';
import type { LeaderReplica } from './cluster/LeaderReplica';
import { PartitionLogReplica } from './cluster/PartitionLogReplica';
import { tpKey } from './TopicPartition';
import type { BoardBrokerView, BoardPartitionView, BoardReplicaView, BoardTopicView, ZnodeView } from './views/types';

export type { LeaderReplica };

/**
 * The leader replica of a partition; when there is no live leader (all replicas down), the
 * replica holding the most data, so the page still shows the files on disk.
 */
export function leaderReplica(cluster: Cluster, topic: string, partition: number): LeaderReplica | null {
  const key = tpKey(topic, partition);
  const state = cluster.partitionState(topic, partition);
  const candidates = state && state.leader >= 0 ? [state.leader] : (cluster.assignment(topic)[partition] ?? []);
  let best: LeaderReplica | null = null;
  for (const id of candidates) {
    const manager = cluster.brokers.get(id)?.replicaManager;
    const hosted = manager?.logs.get(key);
    // Only a replica backed by a segmented log has files to show (the in-memory ReplicaLog has none).
    const log = hosted?.log instanceof PartitionLogReplica ? hosted.log.log : null;
    if (!manager || !hosted || !log) continue;
    const p = manager.partitions.get(key);
    const r: LeaderReplica = {
      broker: id,
      log,
      highWatermark: p?.highWatermark ?? Math.min(hosted.checkpointedHighWatermark, log.logEndOffset),
      isr: [...(state?.isr ?? [])],
      leaderEpoch: state?.leader_epoch ?? -1,
    };
    if (!best || r.log.logEndOffset > best.log.logEndOffset) best = r;
  }
  return best;
}

/** Each assigned replica of a partition: its role, ISR membership, LEO, HW and ISR lag timer. */
export function replicaStates(cluster: Cluster, topic: string, partition: number): BoardReplicaView[] {
  const now = cluster.scheduler.now();
  const live = new Set(cluster.liveBrokerIds());
  const state = cluster.partitionState(topic, partition);
  const leader = state?.leader ?? -1;
  const isr = state?.isr ?? [];
  const key = tpKey(topic, partition);
  const leaderPartition = cluster.brokers.get(leader)?.replicaManager.partitions.get(key);
  return (cluster.assignment(topic)[partition] ?? []).map((b) => {
    const broker = cluster.brokers.get(b);
    const part = broker?.replicaManager.partitions.get(key);
    const log = part?.log ?? broker?.replicaManager.logs.get(key)?.log;
    const up = !!broker && broker.state !== 'down' && live.has(b);
    const follower = leaderPartition?.isLeader ? leaderPartition.followers.get(b) : undefined;
    return {
      broker: b,
      role: !up ? 'offline' : b === leader ? 'leader' : 'follower',
      inIsr: isr.includes(b),
      logEndOffset: log?.logEndOffset() ?? 0,
      highWatermark: part?.highWatermark ?? 0,
      lagMs: follower && follower.lastCaughtUpTimeMs > 0 ? Math.max(0, now - follower.lastCaughtUpTimeMs) : null,
    };
  });
}

/** A partition's state as the controller decided it (the state znode) and its replicas report it. */
export function partitionState(cluster: Cluster, topic: string, partition: number): BoardPartitionView {
  const live = new Set(cluster.liveBrokerIds());
  const state = cluster.partitionState(topic, partition);
  const leader = state?.leader ?? -1;
  return {
    topic,
    partition,
    replicas: [...(cluster.assignment(topic)[partition] ?? [])],
    leader,
    leaderEpoch: state?.leader_epoch ?? -1,
    isr: [...(state?.isr ?? [])],
    offline: leader < 0 || !live.has(leader),
    replicaStates: replicaStates(cluster, topic, partition),
    committed: cluster.committed.get(tpKey(topic, partition)) ?? 0,
  };
}

/** A topic with the configs the page shows and every partition's state. */
export function topicState(cluster: Cluster, topic: string): BoardTopicView {
  const config = cluster.topicConfig(topic);
  return {
    name: topic,
    internal: topic.startsWith('__'),
    minInsyncReplicas: config['min.insync.replicas'],
    uncleanLeaderElection: config['unclean.leader.election.enable'],
    retentionMs: config['retention.ms'],
    retentionBytes: config['retention.bytes'],
    cleanupPolicy: config['cleanup.policy'].join(','),
    partitions: cluster.assignment(topic).map((_, p) => partitionState(cluster, topic, p)),
  };
}

/** The active controller's broker id (null while none is elected) and the controller epoch. */
export function controllerState(cluster: Cluster): { id: number | null; epoch: number } {
  return { id: cluster.activeController()?.id ?? null, epoch: cluster.controllerEpoch() };
}

/**
 * Every broker by id: process state, registration, isolation, controllership and its ZooKeeper
 * session. `leaderCount` says how many partitions each leads (the caller already counted them).
 */
export function brokerStates(
  cluster: Cluster,
  leaderCount: ReadonlyMap<number, number>,
  originMs = 0,
): BoardBrokerView[] {
  const live = new Set(cluster.liveBrokerIds());
  const controller = controllerState(cluster).id;
  return [...cluster.brokers.values()]
    .sort((a, b) => a.id - b.id)
    .map((b) => {
      const session = cluster.zk.session(b.sessionId);
      return {
        id: b.id,
        rack: b.rack,
        state: b.state,
        alive: live.has(b.id),
        isolated: cluster.network.isIsolated(b.node),
        controller: b.id === controller,
        sessionId: b.sessionId,
        lastHeartbeatMs: session ? session.lastHeartbeatMs - originMs : null,
        leaderCount: leaderCount.get(b.id) ?? 0,
      };
    });
}

/** The znode tree with the watches set on each node (ZooKeeper's `wchp`); data JSON cut to `maxData`. */
export function znodes(cluster: Cluster, originMs = 0, maxData = Number.POSITIVE_INFINITY): ZnodeView[] {
  return cluster.zk.snapshot().map((n) => {
    let data = n.data === null || n.data === undefined ? '' : JSON.stringify(n.data);
    if (data.length > maxData) data = `${data.slice(0, maxData - 1)}…`;
    const watches = cluster.zk.watchCount(n.path);
    return {
      path: n.path,
      data,
      ephemeral: n.ephemeralOwner !== 0,
      owner: n.owner,
      version: n.version,
      dataWatches: watches.data,
      childWatches: watches.child,
      mtimeMs: n.mtime - originMs,
    };
  });
}

/**
 * The cluster's replication gauges as Kafka's JMX reports them, summed over the live brokers (a
 * dashboard adds each broker's MBean): kafka.server ReplicaManager UnderReplicatedPartitions,
 * kafka.controller KafkaController OfflinePartitionsCount and ActiveControllerCount (which only
 * the active controller reports as non-zero). Every topic counts, `__consumer_offsets` included.
 */
export interface ReplicationGauges {
  underReplicatedPartitions: number;
  offlinePartitionsCount: number;
  activeControllerCount: number;
}

export function replicationGauges(cluster: Cluster): ReplicationGauges {
  const out: ReplicationGauges = { underReplicatedPartitions: 0, offlinePartitionsCount: 0, activeControllerCount: 0 };
  for (const b of cluster.brokers.values()) {
    if (b.state === 'down') continue;
    out.underReplicatedPartitions += b.replicaManager.underReplicatedPartitionCount();
    if (b.controller.active) {
      out.activeControllerCount++;
      out.offlinePartitionsCount += b.controller.offlinePartitionCount();
    }
  }
  return out;
}
