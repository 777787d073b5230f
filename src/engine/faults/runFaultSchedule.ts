/**
 * Runs one fault schedule against a real simulated cluster (3 brokers, a topic with
 * replication factor 3 and min.insync.replicas=2) with an idempotent acks=all producer, then
 * heals everything, lets the producer finish, reads every partition's committed log back from
 * its leader and checks the cluster's promises:
 *   - no acknowledged record lost (with unclean election off), or, with it on, every lost one
 *     inside an offset range the engine's `uncleanLeaderElection` event reported; either way,
 *     except those a `committedRecordsLost` event reported (Kafka 3.9 in ZooKeeper mode elects the
 *     ISR's last member again after a power failure took acknowledged records from its log);
 *   - no record written twice, none reordered within a partition (unclean election off and no
 *     records lost: once a leader has lost the producer's state, Kafka's idempotence no longer holds);
 *   - the replication invariant `follower HW <= leader HW <= follower LEO <= leader LEO` for
 *     every in-sync follower (and `follower HW <= leader HW` for every follower), checked after
 *     every step and every 50 ms of simulated time;
 *   - at most one leader per partition per leader epoch;
 *   - every record sent got exactly one delivery report.
 *
 * With `disk`, the replicas are the real log (PartitionLogReplica over a Store, each broker with
 * a write cache a power cut can tear; see BrokerDisks) and every restart recovers through
 * LogLoader; without it, the in-memory replica log, whose power failure cuts at the last flush.
 */
import { ManualClock } from '../Clock';
import { decodeRecordBatches } from '../codec/recordBatch';
import { Cluster } from '../cluster/Cluster';
import type { ClusterEvent } from '../cluster/events';
import { checkReplicationInvariants } from '../cluster/invariants';
import { runBrokerCommand } from '../commands';
import { tpKey } from '../TopicPartition';
import type { ProducerEvent } from '../producer/events';
import { KafkaProducer } from '../producer/KafkaProducer';
import type { ProducerConfigInput } from '../producer/ProducerConfig';
import { Rng } from '../Rng';
import { BrokerDisks, DISK_BROKER_CONFIG, type DiskOptions, type DiskStats, diskTopicDefaults } from './BrokerDisks';
import { checkNoAckedLoss, checkNoDuplicates, checkOrder, type FinalLogs, LeaderEpochWitness } from './checks';
import { describeStep, type FaultSchedule, type FaultStep, generateFaultSchedule } from './FaultSchedule';
import { ProduceHistory } from './ProduceHistory';

export const TOPIC = 'jepsen';
export const BROKERS = [1, 2, 3] as const;

export interface FaultRunOptions {
  uncleanLeaderElection: boolean;
  /**
   * After a restart or heal, wait until every replica is back in sync before the next step
   * (default true: "one broker at a time"). Off, faults may overlap.
   */
  awaitSyncAfterRecovery?: boolean;
  partitions?: number;
  producer?: ProducerConfigInput;
  /** Simulated time allowed at the end for every record to be reported. */
  settleMs?: number;
  /** Run on the real log over this Store, power failures through LogLoader recovery (see BrokerDisks). */
  disk?: DiskOptions;
  /** Debugging: sees every cluster and producer event, and the cluster at the end. */
  observe?: {
    clusterEvent?(e: ClusterEvent): void;
    producerEvent?(e: ProducerEvent): void;
    end?(cluster: Cluster): void;
  };
}

export interface FaultRunResult {
  seed: number;
  violations: string[];
  sent: number;
  acked: number;
  failed: number;
  /** Acknowledged offsets the engine reported lost by unclean elections. */
  declaredLost: number;
  /**
   * Acknowledged offsets the engine reported lost by re-electing the ISR's last member after a
   * power failure took them from its log (ZooKeeper mode's ISR is never empty; Kafka 3.9 loses them).
   */
  lostToPowerFailure: number;
  /** The schedule, one line per step, for a failure message. */
  trace: string[];
  /** Disk mode: power cuts, torn appends, recoveries. */
  disk?: DiskStats;
  /** Segments retention deleted, over every replica (the disk schedules set a small retention.bytes). */
  segmentsDeletedByRetention: number;
}

const dec = new TextDecoder();

/** The replication invariant, read off every running broker's replicas. */
export function checkReplicationInvariant(cluster: Cluster, topic: string, partitions: number): string[] {
  const violations: string[] = [];
  for (let p = 0; p < partitions; p++) {
    const key = tpKey(topic, p);
    const replicas = [...cluster.brokers.values()]
      .filter((b) => b.isRunning)
      .map((b) => b.replicaManager.partitions.get(key))
      .filter((x) => x !== undefined);
    const leaders = replicas.filter((r) => r.isLeader);
    if (leaders.length === 0) continue;
    const leader = leaders.reduce((a, b) => (b.leaderEpoch > a.leaderEpoch ? b : a));
    const lHw = leader.highWatermark;
    const lLeo = leader.logEndOffset();
    if (lHw > lLeo) violations.push(`${key}: leader ${leader.brokerId} HW ${lHw} > LEO ${lLeo}`);
    for (const f of replicas) {
      if (f === leader || f.leaderId !== leader.brokerId || f.leaderEpoch !== leader.leaderEpoch) continue;
      const fHw = f.highWatermark;
      const fLeo = f.logEndOffset();
      if (leader.isr.includes(f.brokerId) && fLeo < lHw) {
        violations.push(`${key}: in-sync follower ${f.brokerId} LEO ${fLeo} < leader ${leader.brokerId} HW ${lHw}`);
      }
      // A follower that has not yet heard from the leader of this epoch may still hold a
      // divergent tail and an HW from the old leader: KIP-101 truncation happens on its first
      // fetch. From then on it is bound by the leader.
      if (f.highWatermarkEpoch !== leader.leaderEpoch) continue;
      if (fHw > lHw) violations.push(`${key}: follower ${f.brokerId} HW ${fHw} > leader ${leader.brokerId} HW ${lHw}`);
      if (fLeo > lLeo) violations.push(`${key}: follower ${f.brokerId} LEO ${fLeo} > leader LEO ${lLeo}`);
    }
  }
  return violations;
}

/** Every replica of every partition running, in the leader's ISR, with the leader's whole log. */
export function fullySynced(cluster: Cluster, topic: string, partitions: number): boolean {
  for (let p = 0; p < partitions; p++) {
    const state = cluster.partitionState(topic, p);
    if (!state || state.leader < 0 || state.isr.length !== cluster.brokers.size) return false;
    const leader = cluster.brokers.get(state.leader)?.replicaManager.partitions.get(tpKey(topic, p));
    if (!leader?.isLeader) return false;
    for (const b of cluster.brokers.values()) {
      const r = b.replicaManager.partitions.get(tpKey(topic, p));
      if (!b.isRunning || !r || r.logEndOffset() !== leader.logEndOffset()) return false;
    }
  }
  return true;
}

export async function runFaultSchedule(schedule: FaultSchedule, options: FaultRunOptions): Promise<FaultRunResult> {
  const partitions = options.partitions ?? 2;
  const clock = new ManualClock(0);
  const witness = new LeaderEpochWitness();
  const lostRanges = new Map<string, { from: number; to: number }[]>();
  /** Per partition, the highest log start offset retention moved a log to: records below it may go. */
  const retainedFrom = new Map<string, number>();
  const violations: string[] = [];
  const history = new ProduceHistory();
  const trace: string[] = [];
  let declaredLost = 0;
  /** Ranges a clean election of a power-failed last ISR member lost (allowed whatever the unclean setting). */
  const powerLostRanges = new Map<string, { from: number; to: number }[]>();
  let lostToPowerFailure = 0;
  let segmentsDeletedByRetention = 0;

  const onClusterEvent = (e: ClusterEvent) => {
    options.observe?.clusterEvent?.(e);
    if (e.type === 'becameLeader') witness.observe(e.topic, e.partition, e.leaderEpoch, e.broker);
    else if (e.type === 'invariantViolated') violations.push(`engine: ${e.message} at ${e.atMs}ms`);
    else if (e.type === 'logRetention') {
      segmentsDeletedByRetention += e.deletedSegments;
      const key = tpKey(e.topic, e.partition);
      retainedFrom.set(key, Math.max(retainedFrom.get(key) ?? 0, e.logStartOffset));
    } else if (e.type === 'uncleanLeaderElection' && e.lostCommittedOffsets) {
      const key = tpKey(e.topic, e.partition);
      const list = lostRanges.get(key) ?? [];
      list.push(e.lostCommittedOffsets);
      lostRanges.set(key, list);
      declaredLost += e.lostCommittedOffsets.to - e.lostCommittedOffsets.from;
    } else if (e.type === 'committedRecordsLost') {
      const key = tpKey(e.topic, e.partition);
      powerLostRanges.set(key, [...(powerLostRanges.get(key) ?? []), e.lostCommittedOffsets]);
      lostToPowerFailure += e.lostCommittedOffsets.to - e.lostCommittedOffsets.from;
    }
  };
  // The disks draw from their own stream, so a seed's schedule and cluster are the same in both modes.
  const diskRng = new Rng((schedule.seed ^ 0x6469736b) >>> 0);
  const disks = options.disk ? new BrokerDisks(options.disk, clock, diskRng.fork()) : null;
  const topicDefaults = disks ? diskTopicDefaults(diskRng) : null;
  const cluster = new Cluster({
    clock,
    seed: schedule.seed,
    emit: onClusterEvent,
    networkLatencyMs: 1,
    ...(disks
      ? {
          topicDefaults: topicDefaults ?? {},
          logFactory: (b: number, d: string, t: string, p: number) => disks.newLog(b, d, t, p),
          onHighWatermarkCheckpoint: (b: number, d: string, text: string) => disks.writeCheckpoint(b, d, text),
          onCleanerCheckpoint: (b: number, d: string, text: string) => disks.writeCleanerCheckpoint(b, d, text),
        }
      : {}),
    brokerConfig: {
      'zookeeper.session.timeout.ms': 1000,
      'replica.lag.time.max.ms': 1000,
      'replica.fetch.wait.max.ms': 250,
      'replica.fetch.backoff.ms': 100,
      'replica.socket.timeout.ms': 1000,
      'controller.socket.timeout.ms': 1000,
      'auto.leader.rebalance.enable': false,
      'unclean.leader.election.enable': options.uncleanLeaderElection,
      'min.insync.replicas': 2,
      ...(disks ? DISK_BROKER_CONFIG : {}),
    },
  });
  disks?.attach(cluster);
  for (const id of BROKERS) cluster.addBroker({ id });
  cluster.tick(500);
  cluster.createTopic({
    name: TOPIC,
    partitions,
    replicationFactor: 3,
    configs: {
      'min.insync.replicas': 2,
      'unclean.leader.election.enable': options.uncleanLeaderElection,
    },
  });
  cluster.tick(500);

  const onProducerEvent = (e: ProducerEvent) => {
    options.observe?.producerEvent?.(e);
    if (e.type === 'deliveryReport') history.recordReport(e.report);
  };
  const producer = new KafkaProducer(
    {
      acks: 'all',
      'enable.idempotence': true,
      'linger.ms': 2,
      'request.timeout.ms': 1500,
      'retry.backoff.ms': 50,
      // After an unclean election the new leader may hold a later batch of this producer but not
      // an earlier one (KIP-360 lets a broker without state accept any sequence); the earlier
      // batch then meets OUT_OF_ORDER_SEQUENCE_NUMBER, which Kafka's TransactionManager.canRetry
      // retries while it is not the next sequence: only delivery.timeout.ms ends it. Kafka's
      // default (2 min) there, so every record still gets its one report; an hour otherwise.
      'delivery.timeout.ms': options.uncleanLeaderElection ? 120_000 : 3_600_000,
      // A batch larger than segment.bytes is refused for good (RECORD_LIST_TOO_LARGE, never split):
      // the disk schedules' small segments need batches no larger than a segment.
      ...(topicDefaults ? { 'batch.size': Number(topicDefaults['segment.bytes']) } : {}),
      ...options.producer,
    },
    {
      scheduler: cluster.scheduler,
      network: cluster.network,
      rng: new Rng(schedule.seed ^ 0x5eed),
      emit: onProducerEvent,
      // The checks keep no request bytes from messageSent events, so the producer may reuse batch
      // buffers (BufferPool) here: the schedules exercise that reuse under faults.
      wants: (type) => type !== 'messageSent',
      bootstrapBrokers: [...BROKERS],
    },
  );

  let n = 0;
  const checkInvariant = () => {
    // Ours (ISR followers' LEO against the leader's HW from the moment they are in the ISR) and
    // the cluster's own checker.
    for (const v of checkReplicationInvariant(cluster, TOPIC, partitions)) violations.push(`at ${clock.now()}ms: ${v}`);
    for (const v of checkReplicationInvariants(cluster)) violations.push(`at ${clock.now()}ms: ${v}`);
  };
  const tick = (ms: number) => {
    let left = ms;
    while (left > 0) {
      const step = Math.min(50, left);
      // What the brokers wrote reaches their disks now and then: a power cut between two slices
      // finds the latest operations still in flight.
      disks?.writeBack();
      cluster.tick(step);
      left -= step;
      checkInvariant();
    }
  };
  // "One broker at a time" means one broker out of sync at a time: after a restart or a heal the
  // schedule waits (up to 10 s) until every replica of every partition is back in the ISR with
  // the leader's whole log. Without this, two power failures in a row could take unflushed
  // acknowledged records from two of three replicas, which Kafka does not promise to survive.
  const awaitFullSync = () => {
    if (options.awaitSyncAfterRecovery === false) return;
    for (let waited = 0; waited < 10_000 && !fullySynced(cluster, TOPIC, partitions); waited += 50) tick(50);
    trace.push(
      `${clock.now()}ms ${fullySynced(cluster, TOPIC, partitions) ? 'in sync' : 'still not in sync after 10s'}`,
    );
  };
  const downHow = new Map<number, 'killed' | 'powerFailed'>();
  const apply = async (step: FaultStep) => {
    trace.push(`${clock.now()}ms ${describeStep(step)}`);
    switch (step.op) {
      case 'produce':
        for (let i = 0; i < step.count; i++) {
          n++;
          const value = `v${n}`;
          const key = step.keyed ? `k${n % 5}` : null;
          const sendId = producer.send({
            topic: TOPIC,
            key: key === null ? null : new TextEncoder().encode(key),
            value: new TextEncoder().encode(value),
          });
          history.recordSend(sendId, value, key);
        }
        break;
      case 'tick':
        tick(step.ms);
        break;
      case 'killBroker':
        runBrokerCommand(cluster, step);
        downHow.set(step.broker, 'killed');
        break;
      case 'powerFailBroker':
        if (disks) {
          const cut = disks.powerCut(step.broker);
          trace.push(
            `  power cut: ${cut.landed} of ${cut.inFlight} operations in flight landed${cut.torn ? `, an append to ${cut.torn.path} torn after ${cut.torn.bytesLanded} of ${cut.torn.bytesLanded + cut.torn.bytesLost} bytes` : ''}`,
          );
        }
        runBrokerCommand(cluster, step);
        downHow.set(step.broker, 'powerFailed');
        break;
      case 'restartBroker':
        if (disks) {
          const reports = await disks.restart(step.broker, downHow.get(step.broker) ?? 'killed');
          for (const r of reports) {
            const cut = r.segments.reduce((n, s) => n + s.bytesTruncated, 0);
            trace.push(
              `  recovered ${r.dir}: log end ${r.logEndOffset}, ${r.segments.length} segment(s)${cut > 0 ? `, ${cut} torn bytes truncated` : ''}${r.deletedSegments.length > 0 ? `, ${r.deletedSegments.length} later segment(s) deleted` : ''}`,
            );
          }
        } else {
          runBrokerCommand(cluster, step);
        }
        awaitFullSync();
        break;
      case 'isolateBroker':
        runBrokerCommand(cluster, step);
        break;
      case 'healBroker':
        runBrokerCommand(cluster, step);
        awaitFullSync();
        break;
    }
    checkInvariant();
  };

  try {
    for (const step of schedule.steps) await apply(step);
    // Settle: everything healed by the schedule; give the producer time to finish.
    const settleMs = options.settleMs ?? (options.uncleanLeaderElection ? 150_000 : 30_000);
    for (let waited = 0; waited < settleMs && producer.pendingRecords > 0; waited += 500) tick(500);
    tick(3000); // let followers catch up so the final logs are complete
    checkInvariant();
  } catch (e) {
    const message = e instanceof Error ? (e.stack ?? e.message).split('\n').slice(0, 4).join(' <- ') : String(e);
    return {
      seed: schedule.seed,
      violations: [`the engine threw at ${clock.now()}ms: ${message}`],
      sent: history.sent.size,
      acked: history.acked().length,
      failed: 0,
      declaredLost,
      lostToPowerFailure,
      segmentsDeletedByRetention,
      trace,
      ...(disks ? { disk: disks.stats } : {}),
    };
  }

  // Every record sent gets exactly one report.
  for (const [sendId, s] of history.sent) {
    const count = history.reports.get(sendId)?.length ?? 0;
    if (count !== 1) violations.push(`${s.value} (send ${sendId}) got ${count} delivery reports`);
  }

  // Read back each partition's committed log from its leader.
  const logs: FinalLogs = new Map();
  const logStarts = new Map<string, number>();
  for (let p = 0; p < partitions; p++) {
    const state = cluster.partitionState(TOPIC, p);
    const leader = state ? cluster.brokers.get(state.leader) : undefined;
    const replica = leader?.replicaManager.partitions.get(tpKey(TOPIC, p));
    const log = new Map<number, string>();
    if (replica) {
      // A read stops at the end of the segment it starts in: read on until the high watermark.
      let next = replica.log.logStartOffset();
      logStarts.set(tpKey(TOPIC, p), next);
      while (next < replica.highWatermark) {
        const bytes = replica.log.read(next, Number.MAX_SAFE_INTEGER, replica.highWatermark);
        const batches = decodeRecordBatches(bytes);
        if (batches.length === 0) break;
        for (const batch of batches) {
          for (const r of batch.records) {
            const offset = batch.baseOffset + r.offsetDelta;
            if (offset < replica.highWatermark) log.set(offset, r.value ? dec.decode(r.value) : '');
          }
          next = Math.max(next, batch.baseOffset + batch.lastOffsetDelta + 1);
        }
      }
    } else {
      violations.push(`${TOPIC}-${p} has no leader after healing (state ${JSON.stringify(state)})`);
    }
    logs.set(tpKey(TOPIC, p), log);
  }

  const acked = history.acked();
  // Records retention deleted were not lost (retention never passes the high watermark, so they
  // had been committed and served): those below the final leader's log start, if retention moved a
  // log start that far. An unclean election's reported losses are allowed with it on.
  const excused = new Map<string, { from: number; to: number }[]>();
  for (const [tp, to] of retainedFrom) excused.set(tp, [{ from: 0, to: Math.min(to, logStarts.get(tp) ?? 0) }]);
  if (options.uncleanLeaderElection)
    for (const [tp, ranges] of lostRanges) excused.set(tp, [...(excused.get(tp) ?? []), ...ranges]);
  for (const [tp, ranges] of powerLostRanges) excused.set(tp, [...(excused.get(tp) ?? []), ...ranges]);
  const losses = checkNoAckedLoss(acked, logs, excused);
  if (losses.length > 0 && (options.uncleanLeaderElection || powerLostRanges.size > 0)) {
    // Say what the engine did report, so a failure reads as "lost but not reported".
    const reported = [...lostRanges, ...powerLostRanges].map(
      ([tp, rs]) => `${tp} [${rs.map((r) => `${r.from}, ${r.to})`).join(' [')}`,
    );
    losses.unshift(
      `${losses.length} acknowledged record(s) lost without an uncleanLeaderElection event reporting them (reported: ${reported.join('; ') || 'nothing'})`,
    );
  }
  violations.push(...losses);
  // Exactly-once and order are promised only while no data is lost: after an unclean election
  // a leader may have lost the producer's state (and the producer may have had to start over
  // with a new producer id), so a resend can no longer be recognised. Kafka promises no more.
  if (!options.uncleanLeaderElection && lostToPowerFailure === 0) {
    violations.push(...checkNoDuplicates(logs));
    violations.push(...checkOrder(acked));
  }
  violations.push(...witness.violations);
  if (disks) violations.push(...(await disks.checkDisksMatchLogs()).map((v) => `disk: ${v}`));
  if (!options.uncleanLeaderElection && declaredLost > 0) {
    violations.push(`unclean election off, yet ${declaredLost} committed offsets were reported lost`);
  }
  options.observe?.end?.(cluster);
  producer.close();
  return {
    seed: schedule.seed,
    violations: [...new Set(violations)],
    sent: history.sent.size,
    acked: acked.length,
    failed: history.sent.size - acked.length,
    declaredLost,
    lostToPowerFailure,
    segmentsDeletedByRetention,
    trace,
    ...(disks ? { disk: disks.stats } : {}),
  };
}

/** The schedule shape of the "one broker at a time, unclean election off" suite (CI and soak). */
export const CLEAN_SHAPE = { steps: 12, maxTickMs: 1500, maxTroubled: 1 } as const;
/** The shape of the "unclean election on, two brokers may be down" suite. */
export const UNCLEAN_SHAPE = { steps: 24, maxTickMs: 1500, maxTroubled: 2 } as const;

export function runCleanSchedule(
  seed: number,
  producer: ProducerConfigInput = {},
  disk?: DiskOptions,
): Promise<FaultRunResult> {
  return runFaultSchedule(generateFaultSchedule(seed, { brokers: BROKERS, ...CLEAN_SHAPE }), {
    uncleanLeaderElection: false,
    producer,
    ...(disk ? { disk } : {}),
  });
}

export function runUncleanSchedule(seed: number, disk?: DiskOptions): Promise<FaultRunResult> {
  return runFaultSchedule(generateFaultSchedule(seed, { brokers: BROKERS, ...UNCLEAN_SHAPE }), {
    uncleanLeaderElection: true,
    awaitSyncAfterRecovery: false,
    ...(disk ? { disk } : {}),
  });
}

/** A failure message that replays: the seed, what broke, and the schedule step by step. */
export function explainRun(r: FaultRunResult): string {
  return `seed ${r.seed}: ${r.violations.length} violation(s)\n  ${r.violations.slice(0, 12).join('\n  ')}\nschedule:\n  ${r.trace.join('\n  ')}`;
}
