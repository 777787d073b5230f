import type { Scheduler } from '../cluster/Scheduler';
import { KafkaError } from '../errors';
import type { AssignmentStrategy } from '../clients/consumer/ConsumerConfig';
import { ASSIGNMENT_STRATEGIES, consumerConfig } from '../clients/consumer/ConsumerConfig';
import type { ConsumerGroupDescribeRow, ConsumerGroups, ConsumerSnapshot, GroupSnapshot } from './ConsumerGroups';
import { DeliveryLedger } from './DeliveryLedger';
import type { KafkaConsumer } from '../clients/consumer/KafkaConsumer';
import type { ZookeeperConsumerConnector } from '../clients/consumer/ZookeeperConsumerConnector';

/** Which rebalance protocol a group uses: the broker-side coordinator, or 0.8's ZooKeeper self-rebalance. */
export type GroupProtocol = 'coordinator' | 'zookeeper';

/** Everything about consumer groups the UI draws, structured-clone safe. */
export interface ConsumerGroupsSnapshot {
  apps: ConsumerAppState[];
  groups: (GroupSnapshot & {
    protocol: GroupProtocol;
    assignor: AssignmentStrategy | null;
    commitMode: CommitMode;
    describe: ConsumerGroupDescribeRow[];
  })[];
  consumers: ConsumerSnapshot[];
  /** `__consumer_offsets` partitions a coordinator is replaying now (their groups answer COORDINATOR_LOAD_IN_PROGRESS). */
  coordinatorLoads: { broker: number; offsetsPartition: number; completesAtMs: number }[];
  zkConsumers: {
    consumerId: string;
    groupId: string;
    state: string;
    owned: { topic: string; partition: number }[];
    rebalances: number;
    sessionId: number;
  }[];
}

/**
 * When an application commits, a group-wide setting (seed 000's two cases):
 *  - `auto`: enable.auto.commit, every auto.commit.interval.ms inside poll(), the positions of what
 *    earlier polls returned (processed by then, as the loop is synchronous): at least once;
 *  - `after-processing`: commitAsync of each batch's offsets once the batch is processed: a crash
 *    mid-batch re-delivers what it processed of it (case 1, duplicates);
 *  - `before-processing`: commitAsync of each batch's offsets as soon as poll returns it, then
 *    processing: a crash mid-batch loses what it had not processed yet (case 2, losses).
 */
export type CommitMode = 'auto' | 'after-processing' | 'before-processing';
export const COMMIT_MODES: readonly CommitMode[] = ['auto', 'after-processing', 'before-processing'];

/**
 * What a crash left, per partition the consumer was assigned, read from the engine at the moment
 * the process died: its fetch position, how far its application had processed, and the group's
 * committed offset (what the next owner resumes from).
 */
export interface CrashReport {
  consumerId: string;
  groupId: string;
  atMs: number;
  commitMode: CommitMode;
  partitions: {
    topic: string;
    partition: number;
    /** Next offset poll() would have returned. */
    position: number;
    /** Next offset the application had not processed (< position when a batch was in hand). */
    processedTo: number;
    committed: number | null;
  }[];
}

export interface ConsumerAppState {
  consumerId: string;
  groupId: string;
  protocol: GroupProtocol;
  topics: string[];
  pollIntervalMs: number;
  config: Record<string, unknown>;
  /** Records the application has processed (returned by poll), per "topic-partition". */
  processed: Record<string, number>;
  lastOffsets: Record<string, number>;
  status: 'running' | 'closed' | 'crashed';
  commitMode: CommitMode;
  /** The batch being processed now: how many records, and the engine time processing ends. */
  inHand: { records: number; untilMs: number } | null;
}

/** A batch poll() returned that the application is working through, one record after another. */
interface Batch {
  records: { topic: string; partition: number; offset: number }[];
  startedAtMs: number;
  msPerRecord: number;
}

/**
 * The applications the UI creates: each owns one consumer and runs the classic loop
 * `while (true) { records = consumer.poll(); process(records); }` every pollIntervalMs of
 * simulated time, committing as its group's commit mode says. Processing takes
 * processingMsPerRecord of simulated time per record (0: at once), so a crash can land with a
 * batch half processed. Every processed record goes into the group's DeliveryLedger, which
 * counts duplicates and skipped offsets as they happen. A group's
 * protocol (coordinator | zookeeper) and assignor are group-wide settings: changing one restarts
 * the group's applications with the new setting, as an operator's rolling restart would, but all
 * at once so the members never disagree on the protocol.
 */
export class ConsumerApplications {
  readonly apps = new Map<string, ConsumerAppState>();
  private readonly kafka = new Map<string, KafkaConsumer>();
  private readonly zk = new Map<string, ZookeeperConsumerConnector>();
  private readonly groupProtocol = new Map<string, GroupProtocol>();
  private readonly groupAssignor = new Map<string, AssignmentStrategy>();
  private readonly groupCommitMode = new Map<string, CommitMode>();
  private readonly inHand = new Map<string, Batch>();
  /** What each group's applications processed: duplicates and skipped offsets, counted. */
  readonly delivery = new DeliveryLedger();
  /** Simulated processing time per record for applications created from now on. */
  processingMsPerRecord = 0;

  constructor(
    private readonly groups: ConsumerGroups,
    private readonly scheduler: Scheduler,
  ) {}

  protocolOf(groupId: string): GroupProtocol {
    return this.groupProtocol.get(groupId) ?? 'coordinator';
  }

  assignorOf(groupId: string): AssignmentStrategy | null {
    return this.groupAssignor.get(groupId) ?? null;
  }

  commitModeOf(groupId: string): CommitMode {
    return this.groupCommitMode.get(groupId) ?? 'auto';
  }

  /** Creates an application with its consumer in `groupId`. Validates the config first. */
  createConsumer(
    consumerId: string,
    groupId: string,
    config: Record<string, unknown> = {},
    pollIntervalMs = 100,
  ): ConsumerAppState {
    if (!/^[A-Za-z0-9._-]+$/.test(consumerId) || consumerId.startsWith('broker-')) {
      throw new KafkaError('INVALID_REQUEST', `invalid consumer id ${JSON.stringify(consumerId)}`);
    }
    if (this.apps.get(consumerId)?.status === 'running')
      throw new KafkaError('INVALID_REQUEST', `consumer ${consumerId} already exists`);
    if (groupId === '') throw new KafkaError('INVALID_GROUP_ID', 'group.id must not be empty');
    if (!(pollIntervalMs > 0))
      throw new KafkaError('INVALID_CONFIG', `poll interval must be positive (${pollIntervalMs})`);
    // Validate now, so a bad config creates nothing.
    consumerConfig({ ...config, 'group.id': groupId, 'client.id': consumerId });
    const app: ConsumerAppState = {
      consumerId,
      groupId,
      protocol: this.protocolOf(groupId),
      topics: [],
      pollIntervalMs,
      config: { ...config },
      processed: {},
      lastOffsets: {},
      status: 'running',
      commitMode: this.commitModeOf(groupId),
      inHand: null,
    };
    this.apps.set(consumerId, app);
    if (app.protocol === 'coordinator') this.startKafkaConsumer(app);
    return app;
  }

  private effectiveConfig(app: ConsumerAppState): Record<string, unknown> {
    const strategy = this.groupAssignor.get(app.groupId);
    return {
      ...app.config,
      'group.id': app.groupId,
      'client.id': app.consumerId,
      ...(strategy ? { 'partition.assignment.strategy': [strategy] } : {}),
      // Explicit commits replace auto commit (Kafka's advice for either ordering).
      ...(app.commitMode !== 'auto' ? { 'enable.auto.commit': false } : {}),
    };
  }

  private startKafkaConsumer(app: ConsumerAppState): void {
    const consumer = this.groups.createConsumer(app.consumerId, this.effectiveConfig(app));
    this.kafka.set(app.consumerId, consumer);
    if (app.topics.length > 0) consumer.subscribe(app.topics);
    this.loop(app, () => consumer.poll());
  }

  private startZkConsumer(app: ConsumerAppState): void {
    const reset = app.config['auto.offset.reset'] === 'earliest' ? 'smallest' : 'largest';
    const connector = this.groups.createZkConsumer(app.consumerId, app.groupId, app.topics, {
      'auto.offset.reset': reset,
    });
    this.zk.set(app.consumerId, connector);
    this.loop(app, () => connector.poll());
  }

  private loop(app: ConsumerAppState, poll: () => { topic: string; partition: number; offset: number }[]): void {
    const generation = { app, alive: true };
    const live = () => generation.alive && app.status === 'running' && this.apps.get(app.consumerId) === app;
    const tick = () => {
      if (!live()) return;
      let records: { topic: string; partition: number; offset: number }[];
      try {
        records = poll();
      } catch (e) {
        // A fatal consumer error ends the application (as an uncaught exception would).
        if (!(e instanceof KafkaError)) throw e;
        app.status = 'crashed';
        return;
      }
      if (records.length === 0) {
        this.scheduler.schedule(app.pollIntervalMs, tick);
        return;
      }
      let last = '';
      for (const r of records) {
        // The first record of each partition in the batch is enough (a batch is in offset order).
        const key = `${r.topic}-${r.partition}`;
        if (key !== last) this.delivery.polled(app.groupId, r.topic, r.partition, r.offset);
        last = key;
      }
      if (app.commitMode === 'before-processing') this.commitBatch(app, records);
      const ms = this.processingMsPerRecord * records.length;
      if (ms === 0) {
        this.finishBatch(app, records);
        this.scheduler.schedule(app.pollIntervalMs, tick);
        return;
      }
      const now = this.scheduler.now();
      this.inHand.set(app.consumerId, { records, startedAtMs: now, msPerRecord: this.processingMsPerRecord });
      app.inHand = { records: records.length, untilMs: now + ms };
      this.scheduler.schedule(ms, () => {
        if (!live()) return;
        this.inHand.delete(app.consumerId);
        app.inHand = null;
        this.finishBatch(app, records);
        this.scheduler.schedule(app.pollIntervalMs, tick);
      });
    };
    this.scheduler.schedule(0, tick);
    this.stopLoop.set(app.consumerId, () => {
      generation.alive = false;
    });
  }

  /** The batch is processed: count it, and commit it when the group commits after processing. */
  private finishBatch(app: ConsumerAppState, records: { topic: string; partition: number; offset: number }[]): void {
    this.markProcessed(app, records);
    if (app.commitMode === 'after-processing') this.commitBatch(app, records);
  }

  private markProcessed(app: ConsumerAppState, records: { topic: string; partition: number; offset: number }[]): void {
    for (const r of records) {
      const key = `${r.topic}-${r.partition}`;
      app.processed[key] = (app.processed[key] ?? 0) + 1;
      app.lastOffsets[key] = r.offset;
      this.delivery.record(app.groupId, r.topic, r.partition, r.offset);
    }
  }

  /** commitAsync of the offset after each partition's last record in the batch (Kafka's "lastOffset + 1"). */
  private commitBatch(app: ConsumerAppState, records: { topic: string; partition: number; offset: number }[]): void {
    const consumer = this.kafka.get(app.consumerId);
    if (consumer?.lifecycle !== 'running') return;
    const next = new Map<string, { topic: string; partition: number; offset: number }>();
    for (const r of records)
      next.set(`${r.topic}-${r.partition}`, { topic: r.topic, partition: r.partition, offset: r.offset + 1 });
    consumer.commitAsync([...next.values()]);
  }

  /**
   * Ends the batch in hand: a crash keeps only the records whose processing had finished by now,
   * an orderly close lets the application finish the batch (and commit it, after processing).
   */
  private settleBatch(
    app: ConsumerAppState,
    how: 'finish' | 'crash',
  ): { topic: string; partition: number; offset: number }[] {
    const b = this.inHand.get(app.consumerId);
    if (!b) return [];
    this.inHand.delete(app.consumerId);
    app.inHand = null;
    if (how === 'finish') {
      this.finishBatch(app, b.records);
      return [];
    }
    const done = Math.min(b.records.length, Math.floor((this.scheduler.now() - b.startedAtMs) / b.msPerRecord));
    this.markProcessed(app, b.records.slice(0, done));
    return b.records.slice(done);
  }

  private readonly stopLoop = new Map<string, () => void>();

  private require(consumerId: string): ConsumerAppState {
    const app = this.apps.get(consumerId);
    if (!app) throw new KafkaError('INVALID_REQUEST', `no consumer ${consumerId}`);
    return app;
  }

  subscribe(consumerId: string, topics: string[]): void {
    const app = this.require(consumerId);
    if (app.status !== 'running') throw new KafkaError('INVALID_REQUEST', `consumer ${consumerId} is ${app.status}`);
    if (topics.length === 0 || topics.some((t) => t.trim() === ''))
      throw new KafkaError('INVALID_TOPIC_EXCEPTION', 'topics must be non-empty names');
    app.topics = [...new Set(topics)].sort();
    if (app.protocol === 'coordinator') this.kafka.get(consumerId)?.subscribe(app.topics);
    else {
      // The 0.8 consumer fixes its topics when it starts (createMessageStreams): restart it.
      this.stopZk(consumerId, 'close');
      this.startZkConsumer(app);
    }
  }

  /**
   * The process dies mid-loop: what its batch in hand had processed stays processed, the rest
   * never is. Returns what the crash leaves for the next owner (null for the ZooKeeper consumer,
   * whose offsets live in znodes).
   */
  crash(consumerId: string): CrashReport | null {
    const app = this.require(consumerId);
    if (app.status !== 'running') return null;
    this.stopLoop.get(consumerId)?.();
    const unprocessed = this.settleBatch(app, 'crash');
    const report = this.crashReport(app, unprocessed);
    this.kafka.get(consumerId)?.crash();
    this.stopZk(consumerId, 'crash');
    app.status = 'crashed';
    return report;
  }

  /** Per assigned partition: the fetch position, how far the application got, the group's committed offset. */
  private crashReport(
    app: ConsumerAppState,
    unprocessed: { topic: string; partition: number; offset: number }[],
  ): CrashReport | null {
    const consumer = this.kafka.get(app.consumerId);
    if (consumer?.lifecycle !== 'running') return null;
    const committed = new Map<string, number | null>();
    for (const r of this.groups.describeGroup(app.groupId)) committed.set(`${r.topic}-${r.partition}`, r.currentOffset);
    const partitions: CrashReport['partitions'] = [];
    for (const a of this.groups.consumerSnapshot(consumer).assignment) {
      if (a.position === null) continue;
      const key = `${a.topic}-${a.partition}`;
      // What poll() returned below the position was processed, but for the batch's unprocessed rest.
      let processedTo = a.position;
      for (const r of unprocessed)
        if (r.topic === a.topic && r.partition === a.partition && r.offset < processedTo) processedTo = r.offset;
      partitions.push({
        topic: a.topic,
        partition: a.partition,
        position: a.position,
        processedTo,
        committed: committed.get(key) ?? null,
      });
    }
    return {
      consumerId: app.consumerId,
      groupId: app.groupId,
      atMs: this.scheduler.now(),
      commitMode: app.commitMode,
      partitions,
    };
  }

  close(consumerId: string): void {
    const app = this.require(consumerId);
    if (app.status !== 'running') return;
    this.stopLoop.get(consumerId)?.();
    this.settleBatch(app, 'finish');
    this.kafka.get(consumerId)?.close();
    this.stopZk(consumerId, 'close');
    app.status = 'closed';
  }

  private stopZk(consumerId: string, how: 'close' | 'crash'): void {
    const c = this.zk.get(consumerId);
    if (!c) return;
    if (how === 'close') c.close();
    else c.crash();
    this.zk.delete(consumerId);
  }

  /** Moves a consumer to another group: it leaves (close) and starts again there. */
  move(consumerId: string, groupId: string): void {
    const app = this.require(consumerId);
    if (app.groupId === groupId) return;
    if (groupId === '') throw new KafkaError('INVALID_GROUP_ID', 'group.id must not be empty');
    const { topics, config, pollIntervalMs } = app;
    this.close(consumerId);
    this.createConsumer(consumerId, groupId, config, pollIntervalMs);
    if (topics.length > 0) this.subscribe(consumerId, topics);
  }

  setGroupAssignor(groupId: string, strategy: AssignmentStrategy): void {
    if (!ASSIGNMENT_STRATEGIES.includes(strategy)) {
      throw new KafkaError('INVALID_CONFIG', `unknown partition.assignment.strategy ${JSON.stringify(strategy)}`);
    }
    this.groupAssignor.set(groupId, strategy);
    this.restartGroup(groupId);
  }

  /** The group's applications restart with the new commit mode (a change of application code). */
  setGroupCommitMode(groupId: string, mode: CommitMode): void {
    if (!COMMIT_MODES.includes(mode))
      throw new KafkaError('INVALID_REQUEST', `unknown commit mode ${JSON.stringify(mode)}`);
    this.groupCommitMode.set(groupId, mode);
    this.restartGroup(groupId);
  }

  setGroupProtocol(groupId: string, protocol: GroupProtocol): void {
    if (protocol !== 'coordinator' && protocol !== 'zookeeper') {
      throw new KafkaError('INVALID_REQUEST', `unknown group protocol ${JSON.stringify(protocol)}`);
    }
    this.groupProtocol.set(groupId, protocol);
    this.restartGroup(groupId);
  }

  /** Closes every running application of the group, then starts them all with the group's settings. */
  private restartGroup(groupId: string): void {
    const members = [...this.apps.values()].filter((a) => a.groupId === groupId && a.status === 'running');
    for (const a of members) this.close(a.consumerId);
    for (const a of members) {
      this.createConsumer(a.consumerId, groupId, a.config, a.pollIntervalMs);
      if (a.topics.length > 0) this.subscribe(a.consumerId, a.topics);
    }
  }

  snapshot(): ConsumerGroupsSnapshot {
    const groupIds = new Set(this.groups.groupIds());
    for (const a of this.apps.values()) if (a.protocol === 'coordinator') groupIds.add(a.groupId);
    const groups = [...groupIds]
      .sort()
      .map((g) => {
        const s = this.groups.groupSnapshot(g);
        if (!s) return null;
        return {
          ...s,
          protocol: this.protocolOf(g),
          assignor: this.assignorOf(g),
          commitMode: this.commitModeOf(g),
          describe: this.groups.describeGroup(g),
        };
      })
      .filter((g): g is NonNullable<typeof g> => g !== null);
    return {
      apps: this.appStates(),
      groups,
      coordinatorLoads: this.groups.coordinatorLoads(),
      consumers: [...this.groups.consumers.values()].map((c) => this.groups.consumerSnapshot(c)),
      zkConsumers: [...this.groups.zkConsumers.values()].map((z) => ({
        consumerId: z.consumerId,
        groupId: z.groupId,
        state: z.state,
        owned: z.owned.map((tp) => ({ ...tp })),
        rebalances: z.rebalances,
        sessionId: z.sessionId,
      })),
    };
  }

  appStates(): ConsumerAppState[] {
    return [...this.apps.values()].map((a) => ({
      ...a,
      topics: [...a.topics],
      config: { ...a.config },
      processed: { ...a.processed },
      lastOffsets: { ...a.lastOffsets },
      inHand: a.inHand ? { ...a.inHand } : null,
    }));
  }
}
