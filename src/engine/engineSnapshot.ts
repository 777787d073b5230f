/**
 * The engine's state as plain data (Engine.snapshot): every broker, topic, partition state and
 * replica as the cluster holds them right now, for views, tests and the page. Read-only: building
 * it changes nothing.
 */
import type { Cluster } from './cluster/Cluster';
import type { ZnodeSnapshot } from './cluster/CoordinationStore';
import type { Partition } from './cluster/Partition';
import type { ProducerStateEntry } from './cluster/ProducerStateManager';
import type { SegmentSummary } from './cluster/ReplicaLog';
import type { TopicConfigOverrides } from './cluster/TopicConfig';
import type { ConsumerGroupsSnapshot } from './consumerApps/ConsumerApplications';
import type { EpochEntry } from './log/LeaderEpochFileCache';
import type { ProducerSnapshot } from './producer/ProducerRegistry';

export interface ReplicaSnapshot {
  broker: number;
  topic: string;
  partition: number;
  logDir: string;
  /** Whether the broker process currently holds replica state (false while it is down). */
  online: boolean;
  role: 'leader' | 'follower' | 'none';
  leader: number;
  leaderEpoch: number;
  isr: number[];
  logStartOffset: number;
  logEndOffset: number;
  highWatermark: number;
  /** Leader only: what it knows of each follower. */
  followers: { broker: number; logEndOffset: number; lastCaughtUpTimeMs: number; inIsr: boolean }[];
  pendingIsrChange: { change: 'shrink' | 'expand'; newIsr: number[] } | null;
  segments: SegmentSummary[];
  leaderEpochs: EpochEntry[];
  producers: ProducerStateEntry[];
}

export interface PartitionSnapshot {
  partition: number;
  replicas: number[];
  leader: number;
  leaderEpoch: number;
  isr: number[];
  controllerEpoch: number;
  offline: boolean;
  offlineReplicas: number[];
  preferredLeader: number;
  /** The highest offset committed so far (the highest high watermark any leader reached). */
  committedOffset: number;
  reassignment: { original: number[]; target: number[] } | null;
}

export interface EngineSnapshot {
  nowMs: number;
  controller: { broker: number; epoch: number } | null;
  controllerEpoch: number;
  brokers: {
    id: number;
    rack: string | null;
    state: 'running' | 'shuttingDown' | 'down';
    downHow: 'killed' | 'powerFailed' | 'stopped' | null;
    isolated: boolean;
    registered: boolean;
    brokerEpoch: number;
    sessionId: number;
    logDirs: { path: string; partitions: number }[];
    isController: boolean;
  }[];
  racks: string[];
  znodes: ZnodeSnapshot[];
  sessions: { id: number; owner: string; lastHeartbeatMs: number; timeoutMs: number }[];
  topics: {
    name: string;
    configs: TopicConfigOverrides;
    partitions: PartitionSnapshot[];
  }[];
  replicas: ReplicaSnapshot[];
  networkLatencyMs: number;
  /** Messages in flight, with send and arrival times (the UI interpolates their positions). */
  messagesInFlight: ReturnType<Cluster['network']['inFlight']>;
  /** Consumer groups: coordinator groups, consumers, legacy ZooKeeper consumers, applications. */
  consumerGroups: ConsumerGroupsSnapshot;
  /** Producers: config, producer id, accumulator queues, requests in flight. */
  producers: ProducerSnapshot[];
}

/** The cluster's snapshot at `nowMs`, with the groups' and producers' own snapshots. */
export function clusterSnapshot(
  c: Cluster,
  nowMs: number,
  consumerGroups: EngineSnapshot['consumerGroups'],
  producers: EngineSnapshot['producers'],
): EngineSnapshot {
  const controller = c.activeController();
  const registered = new Set(c.liveBrokerIds());
  const brokers = [...c.brokers.values()]
    .sort((a, b) => a.id - b.id)
    .map((b) => ({
      id: b.id,
      rack: b.rack,
      state: b.state,
      downHow: b.downHow,
      isolated: c.network.isIsolated(b.node),
      registered: registered.has(b.id),
      brokerEpoch: b.brokerEpoch,
      sessionId: b.sessionId,
      logDirs: b.logDirs.map((path) => ({
        path,
        partitions: [...b.replicaManager.logs.values()].filter((l) => l.dir === path).length,
      })),
      isController: controller?.id === b.id,
    }));
  const racks = [...new Set(brokers.map((b) => b.rack).filter((r): r is string => r !== null))].sort();
  const reassigning = new Map(
    (controller?.controller.reassignmentsInProgress() ?? []).map((r) => [`${r.topic}-${r.partition}`, r]),
  );
  const topics = c.topicNames().map((name) => {
    const assignment = c.assignment(name);
    return {
      name,
      configs: c.topicOverrides(name),
      partitions: assignment.map((replicas, partition) => {
        const s = c.partitionState(name, partition);
        const r = reassigning.get(`${name}-${partition}`);
        return {
          partition,
          replicas: [...replicas],
          leader: s?.leader ?? -1,
          leaderEpoch: s?.leader_epoch ?? -1,
          isr: [...(s?.isr ?? [])],
          controllerEpoch: s?.controller_epoch ?? -1,
          offline: !s || s.leader < 0,
          offlineReplicas: replicas.filter((id) => !registered.has(id)),
          preferredLeader: replicas[0] ?? -1,
          committedOffset: c.highestHighWatermark.get(`${name}-${partition}`) ?? 0,
          reassignment: r ? { original: [...r.original], target: [...r.target] } : null,
        };
      }),
    };
  });
  const replicas: ReplicaSnapshot[] = [];
  for (const b of [...c.brokers.values()].sort((x, y) => x.id - y.id)) {
    for (const [key, hosted] of [...b.replicaManager.logs.entries()].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))) {
      const p: Partition | undefined = b.replicaManager.partitions.get(key);
      const log = hosted.log;
      replicas.push({
        broker: b.id,
        topic: hosted.topic,
        partition: hosted.partition,
        logDir: hosted.dir,
        online: p !== undefined && b.state !== 'down',
        role: !p ? 'none' : p.isLeader ? 'leader' : p.leaderId >= 0 ? 'follower' : 'none',
        leader: p?.leaderId ?? -1,
        leaderEpoch: p?.leaderEpoch ?? -1,
        isr: [...(p?.isr ?? [])],
        logStartOffset: log.logStartOffset(),
        logEndOffset: log.logEndOffset(),
        highWatermark: p?.highWatermark ?? Math.min(hosted.checkpointedHighWatermark, log.logEndOffset()),
        followers:
          p?.isLeader === true
            ? [...p.followers.entries()]
                .sort(([x], [y]) => x - y)
                .map(([broker, f]) => ({
                  broker,
                  logEndOffset: f.logEndOffset,
                  lastCaughtUpTimeMs: f.lastCaughtUpTimeMs,
                  inIsr: p.isr.includes(broker),
                }))
            : [],
        pendingIsrChange: p?.pendingIsr ? { change: p.pendingIsr.change, newIsr: [...p.pendingIsr.newIsr] } : null,
        segments: log.segments(),
        leaderEpochs: log.epochEntries(),
        producers: p?.producerState.entries() ?? [],
      });
    }
  }
  return {
    nowMs,
    controller: controller ? { broker: controller.id, epoch: controller.controller.epoch } : null,
    controllerEpoch: c.controllerEpoch(),
    brokers,
    racks,
    znodes: c.zk.snapshot(),
    sessions: c.zk.liveSessions().map((s) => ({
      id: s.id,
      owner: s.owner,
      lastHeartbeatMs: s.lastHeartbeatMs,
      timeoutMs: s.timeoutMs,
    })),
    topics,
    replicas,
    networkLatencyMs: c.network.latencyMs,
    messagesInFlight: c.network.inFlight(),
    consumerGroups,
    producers,
  };
}
