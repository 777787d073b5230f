/**
 * Kafka's own metrics over one Engine, by their JMX names, computed from the engine's events and
 * its read-only queries the way each broker, the controller and the consumers compute them
 * (summed over brokers as a dashboard adds each broker's MBean). Pure and deterministic: time is
 * the engine clock; the sparkline samples once per engine second.
 */
import type { Engine, EngineEvent } from '../../index';
import { Meter } from './Meter';
import { SampledRate } from './SampledRate';
import { SampledMax } from './SampledMax';
import type { MetricKind, MetricMoves, MetricsSinceAction, MetricsSnapshot, MetricsView, MetricView } from './types';
import { toScenarioMs } from '../scenarioTime';

/** Sparkline samples kept per metric (one a second: the last minute). */
export const METRIC_SERIES_LENGTH = 60;
const SAMPLE_EVERY_MS = 1000;

interface BrokerMetricDef {
  name: string;
  mbean: string;
  kind: MetricKind;
  unit: string;
  meaning: string;
  moves: MetricMoves;
  rises: string;
  falls: string;
}

const BROKER_METRICS = [
  {
    name: 'UnderReplicatedPartitions',
    mbean: 'kafka.server:type=ReplicaManager,name=UnderReplicatedPartitions',
    kind: 'gauge',
    unit: 'partitions',
    meaning:
      'Partitions whose leader has fewer in-sync replicas than replicas, summed over the live brokers (every topic, the 50 __consumer_offsets partitions too). Should be 0.',
    moves: 'level',
    rises:
      'a follower left an ISR (its broker died, or it fell replica.lag.time.max.ms behind): its leaders have fewer in-sync replicas than replicas',
    falls: "followers caught up to their leader's log end and rejoined the ISR",
  },
  {
    name: 'OfflinePartitionsCount',
    mbean: 'kafka.controller:type=KafkaController,name=OfflinePartitionsCount',
    kind: 'gauge',
    unit: 'partitions',
    meaning:
      'Partitions without a live leader, as the active controller counts them: nobody can produce to or fetch from them.',
    moves: 'level',
    rises:
      'no live replica of the ISR is left to lead (unclean.leader.election.enable=false): the controller marks the partitions offline',
    falls: 'a replica of the ISR came back and the controller elected it leader',
  },
  {
    name: 'ActiveControllerCount',
    mbean: 'kafka.controller:type=KafkaController,name=ActiveControllerCount',
    kind: 'gauge',
    unit: 'controllers',
    meaning: 'Brokers that are the active controller, summed over the cluster: exactly 1 when healthy.',
    moves: 'level',
    rises: 'a broker created the ephemeral /controller znode: it is the controller',
    falls:
      "the controller's broker is gone; /controller stays until its ZooKeeper session expires, then another broker takes it",
  },
  {
    name: 'IsrShrinksPerSec',
    mbean: 'kafka.server:type=ReplicaManager,name=IsrShrinksPerSec',
    kind: 'meter',
    unit: '/s',
    meaning: 'Leaders dropping a follower from the ISR (it fell replica.lag.time.max.ms behind), one-minute rate.',
    moves: 'events',
    rises: 'leaders dropped followers from the ISR (a dead replica, or one more than replica.lag.time.max.ms behind)',
    falls: 'no ISR shrink lately: the one-minute rate decays',
  },
  {
    name: 'IsrExpandsPerSec',
    mbean: 'kafka.server:type=ReplicaManager,name=IsrExpandsPerSec',
    kind: 'meter',
    unit: '/s',
    meaning: 'Leaders taking a caught-up follower back into the ISR, one-minute rate.',
    moves: 'events',
    rises: "followers caught up to their leader's log end and were taken back into the ISR",
    falls: 'no ISR expansion lately: the one-minute rate decays',
  },
  {
    name: 'UncleanLeaderElectionsPerSec',
    mbean: 'kafka.controller:type=ControllerStats,name=UncleanLeaderElectionsPerSec',
    kind: 'meter',
    unit: '/s',
    meaning: 'Leaders elected from outside the ISR (unclean.leader.election.enable): committed records may be lost.',
    moves: 'events',
    rises:
      'the controller elected a leader from outside the ISR (unclean.leader.election.enable=true): committed records may be lost',
    falls: 'no unclean election lately: the one-minute rate decays',
  },
  {
    name: 'LeaderElectionRateAndTimeMs',
    mbean: 'kafka.controller:type=ControllerStats,name=LeaderElectionRateAndTimeMs',
    kind: 'timer',
    unit: '/s',
    meaning:
      "The controller's broker-change events (a broker came or went, so leaders are elected), one-minute rate; the engine's controller handles each in 0 ms.",
    moves: 'events',
    rises:
      'the controller handled a BrokerChange (/brokers/ids changed) and elected leaders for the partitions it touched',
    falls: 'no broker change lately: the one-minute rate decays',
  },
  {
    name: 'BytesInPerSec',
    mbean: 'kafka.server:type=BrokerTopicMetrics,name=BytesInPerSec',
    kind: 'meter',
    unit: 'B/s',
    meaning: 'Bytes appended to leader logs (produce and coordinator writes), one-minute rate.',
    moves: 'traffic',
    rises: "leaders append more bytes (produce requests, the coordinators' writes to __consumer_offsets)",
    falls: 'leaders append fewer bytes: produce requests are refused or wait for a leader, or producers send less',
  },
  {
    name: 'MessagesInPerSec',
    mbean: 'kafka.server:type=BrokerTopicMetrics,name=MessagesInPerSec',
    kind: 'meter',
    unit: '/s',
    meaning: 'Records appended to leader logs, one-minute rate.',
    moves: 'traffic',
    rises: 'leaders append more records',
    falls: 'leaders append fewer records: produce requests are refused or wait for a leader, or producers send less',
  },
  {
    name: 'FailedProduceRequestsPerSec',
    mbean: 'kafka.server:type=BrokerTopicMetrics,name=FailedProduceRequestsPerSec',
    kind: 'meter',
    unit: '/s',
    meaning:
      'Produce appends a leader refused (NOT_ENOUGH_REPLICAS and the like; NOT_LEADER_OR_FOLLOWER and UNKNOWN_TOPIC_OR_PARTITION are not counted, as in ReplicaManager.appendToLocalLog), one-minute rate.',
    moves: 'events',
    rises:
      'leaders refused produce appends (NOT_ENOUGH_REPLICAS: acks=all and an ISR smaller than min.insync.replicas)',
    falls: 'no refused produce lately: the one-minute rate decays',
  },
  {
    name: 'RequestQueueTimeMs',
    mbean: 'kafka.network:type=RequestMetrics,name=RequestQueueTimeMs,request=Produce',
    kind: 'histogram',
    unit: 'ms',
    meaning:
      "Time a produce request waits in the broker's request queue before a handler thread takes it. The engine's brokers handle each request as it arrives, so it is 0 (FIDELITY.md).",
    moves: 'never',
    rises: '',
    falls: '',
  },
] as const satisfies readonly BrokerMetricDef[];

export type BrokerMetricName = (typeof BROKER_METRICS)[number]['name'];

/** Kafka's errors that appendToLocalLog does not count as a failed produce (they are the client's to retry elsewhere). */
const NOT_COUNTED_AS_FAILED = new Set([
  'NONE',
  'NOT_LEADER_OR_FOLLOWER',
  'UNKNOWN_TOPIC_OR_PARTITION',
  'RECORD_LIST_TOO_LARGE',
  'MESSAGE_TOO_LARGE',
  'CORRUPT_MESSAGE',
  'KAFKA_STORAGE_ERROR',
  'UNKNOWN_TOPIC_ID',
]);

export const METRIC_EVENT_TYPES: readonly EngineEvent['type'][] = [
  'logAppended',
  'produceHandled',
  'partitionStateChanged',
  'uncleanLeaderElection',
  'watchFired',
  'offsetCommitted',
];

interface GroupMetrics {
  commits: SampledRate;
  /** HW − fetch position, sampled each engine second (the consumer records it at each fetch). */
  fetchLag: SampledMax;
  /** The last commit counted: one OffsetCommit writes every partition at one instant. */
  lastCommit: string;
}

export class KafkaMetrics {
  private readonly meters = new Map<BrokerMetricName, Meter>();
  private readonly series = new Map<string, number[]>();
  private readonly groups = new Map<string, GroupMetrics>();
  private sinceAction: MetricsSinceAction | null = null;
  version = 0;

  /**
   * @param boardGroups the groups whose client metrics (records-lag-max, commit-rate) are shown
   * @param groupLag a group's largest lag now (null: none known): HW − fetch position over its
   *   consumers' partitions, and HW − committed offset over its partitions
   */
  constructor(
    private readonly engine: Engine,
    private readonly boardGroups: () => readonly string[],
    private readonly groupLag: (group: string) => { fetch: number | null; committed: number | null },
  ) {
    const now = engine.now();
    for (const d of BROKER_METRICS)
      if (d.kind === 'meter' || d.kind === 'timer') this.meters.set(d.name, new Meter(now));
    this.off = engine.subscribe((e) => this.onEvent(e), METRIC_EVENT_TYPES);
    this.sampling = engine.cluster.scheduler.schedulePeriodic(SAMPLE_EVERY_MS, SAMPLE_EVERY_MS, () => this.sample());
  }

  private readonly off: () => void;
  private readonly sampling: { cancel(): void };

  /** Stops listening and sampling. */
  dispose(): void {
    this.off();
    this.sampling.cancel();
  }

  private group(id: string): GroupMetrics {
    let g = this.groups.get(id);
    if (!g) this.groups.set(id, (g = { commits: new SampledRate(), fetchLag: new SampledMax(), lastCommit: '' }));
    return g;
  }

  private mark(name: BrokerMetricName, n = 1): void {
    this.meters.get(name)?.mark(this.engine.now(), n);
    this.version++;
  }

  private onEvent(e: EngineEvent): void {
    switch (e.type) {
      case 'logAppended':
        // BrokerTopicMetrics count what a leader appends; a follower's copy is replication traffic.
        if (e.role !== 'leader') return;
        this.mark('BytesInPerSec', e.bytes);
        this.mark('MessagesInPerSec', e.lastOffset - e.firstOffset + 1);
        return;
      case 'produceHandled':
        if (!NOT_COUNTED_AS_FAILED.has(e.errorCode)) this.mark('FailedProduceRequestsPerSec');
        return;
      case 'partitionStateChanged':
        // Partition.scala marks the meters once the controller accepted the leader's AlterPartition.
        if (e.reason !== 'isrChange' || !e.old) return;
        if (e.new.isr.length < e.old.isr.length) this.mark('IsrShrinksPerSec');
        else if (e.new.isr.length > e.old.isr.length) this.mark('IsrExpandsPerSec');
        return;
      case 'uncleanLeaderElection':
        this.mark('UncleanLeaderElectionsPerSec');
        return;
      case 'watchFired':
        // ControllerState.BrokerChange keeps the old name LeaderElectionRateAndTimeMs for its rate and time.
        if (e.path === '/brokers/ids' && e.watcher === `broker-${this.engine.controllerState().id}`)
          this.mark('LeaderElectionRateAndTimeMs');
        return;
      case 'offsetCommitted': {
        const g = this.group(e.groupId);
        const key = `${e.memberId}@${e.atMs}`;
        if (g.lastCommit === key) return;
        g.lastCommit = key;
        g.commits.record(e.atMs);
        this.version++;
        return;
      }
      default:
        return;
    }
  }

  /** Every metric's value now, by MetricView.id. */
  values(): Record<string, number> {
    const now = this.engine.now();
    const gauges = this.engine.replicationGauges();
    const out: Record<string, number> = {
      UnderReplicatedPartitions: gauges.underReplicatedPartitions,
      OfflinePartitionsCount: gauges.offlinePartitionsCount,
      ActiveControllerCount: gauges.activeControllerCount,
      RequestQueueTimeMs: 0,
    };
    for (const [name, m] of this.meters) out[name] = m.oneMinuteRate(now);
    for (const group of this.boardGroups()) {
      const lag = this.groupLag(group);
      // As if a fetch recorded the lag now, beside what the kept samples hold.
      const sampled = this.groups.get(group)?.fetchLag.measure(now) ?? null;
      out[`records-lag-max-${group}`] = Math.max(sampled ?? 0, lag.fetch ?? 0);
      out[`committed-lag-${group}`] = lag.committed ?? 0;
      out[`commit-rate-${group}`] = this.groups.get(group)?.commits.measure(now) ?? 0;
    }
    return out;
  }

  /** Every value, and every meter's count, now: what an action is compared with. */
  snapshot(): MetricsSnapshot {
    const counts: Record<string, number> = {};
    for (const [name, m] of this.meters) counts[name] = m.count;
    return { values: this.values(), counts };
  }

  private sample(): void {
    const now = this.engine.now();
    for (const group of this.boardGroups()) {
      const fetch = this.groupLag(group).fetch;
      if (fetch !== null) this.group(group).fetchLag.record(now, fetch);
    }
    const values = this.values();
    for (const [id, v] of Object.entries(values)) {
      const s = this.series.get(id) ?? [];
      s.push(v);
      if (s.length > METRIC_SERIES_LENGTH) s.shift();
      this.series.set(id, s);
    }
    this.version++;
  }

  /** A person acted (`before`: snapshot() just before it ran): keep it, to show what the action changed. */
  markAction(label: string, before: MetricsSnapshot): void {
    this.sinceAction = {
      label,
      atMs: toScenarioMs(this.engine.now()),
      before: before.values,
      beforeCounts: before.counts,
    };
    this.version++;
  }

  view(): MetricsView {
    const values = this.values();
    const metrics: MetricView[] = BROKER_METRICS.map((d) => ({
      name: d.name,
      id: d.name,
      mbean: d.mbean,
      kind: d.kind,
      value: values[d.name] ?? 0,
      unit: d.unit,
      count: this.meters.get(d.name)?.count ?? null,
      series: [...(this.series.get(d.name) ?? [])],
      meaning: d.meaning,
      group: null,
      moves: d.moves,
      rises: d.rises,
      falls: d.falls,
    }));
    for (const group of [...this.boardGroups()].sort()) {
      const client = `kafka.consumer:type=consumer-fetch-manager-metrics,client-id=<${group}'s consumers>`;
      const row = (id: string, rest: Omit<MetricView, 'id' | 'value' | 'count' | 'series' | 'group'>): MetricView => ({
        id,
        value: values[id] ?? 0,
        count: null,
        series: [...(this.series.get(id) ?? [])],
        group,
        ...rest,
      });
      metrics.push(
        row(`records-lag-max-${group}`, {
          name: 'records-lag-max',
          mbean: client,
          kind: 'gauge',
          unit: 'records',
          meaning: `records-lag-max (HW − fetch position): the largest gap, over the partitions ${group}'s consumers own, between the high watermark their last fetch reported and their fetch position: records the brokers have committed that the consumer has not fetched yet. The consumer records it at each fetch and keeps the largest of its two 30 s samples.`,
          moves: 'lag',
          rises:
            "the high watermark runs ahead of the consumers' fetch positions: records arrive faster than they fetch, or they stopped fetching (a rebalance, a coordinator move)",
          falls: 'the consumers fetched up to the high watermark',
        }),
        row(`committed-lag-${group}`, {
          name: 'committed lag',
          mbean: `kafka-consumer-groups --describe --group ${group} (the LAG column)`,
          kind: 'gauge',
          unit: 'records',
          meaning: `committed lag (HW − committed offset): the largest gap, over ${group}'s partitions, between the high watermark and the offset the group committed to __consumer_offsets. A consumer taking a partition over starts at the committed offset, so this is what it would read again or still has to read; kafka-consumer-groups --describe prints it as LAG. Not a client metric: the tool computes it.`,
          moves: 'lag',
          rises:
            "the group's committed offsets fall behind the high watermark: commits stopped (a rebalance, a coordinator move) or the consumers are behind",
          falls: 'the group committed offsets closer to the high watermark',
        }),
        row(`commit-rate-${group}`, {
          name: 'commit-rate',
          mbean: `kafka.consumer:type=consumer-coordinator-metrics,client-id=<${group}'s consumers>`,
          kind: 'rate',
          unit: '/s',
          meaning: `Offset commits ${group}'s consumers make per second (over Kafka's two 30 s samples).`,
          moves: 'traffic',
          rises: 'more OffsetCommit requests reach the group coordinator',
          falls: 'fewer commits: members stop committing while the group rebalances or its coordinator moves',
        }),
      );
    }
    return { version: this.version, atMs: toScenarioMs(this.engine.now()), metrics, sinceAction: this.sinceAction };
  }
}
