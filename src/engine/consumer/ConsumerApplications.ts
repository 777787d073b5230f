import type { Scheduler } from '../cluster/Scheduler';
import { KafkaError } from '../errors';
import type { AssignmentStrategy } from './ConsumerConfig';
import { ASSIGNMENT_STRATEGIES, consumerConfig } from './ConsumerConfig';
import type { ConsumerGroupDescribeRow, ConsumerGroups, ConsumerSnapshot, GroupSnapshot } from './ConsumerGroups';
import type { KafkaConsumer } from './KafkaConsumer';
import type { ZookeeperConsumerConnector } from './ZookeeperConsumerConnector';

/** Which rebalance protocol a group uses: the broker-side coordinator, or 0.8's ZooKeeper self-rebalance. */
export type GroupProtocol = 'coordinator' | 'zookeeper';

/** Everything about consumer groups the UI draws, structured-clone safe. */
export interface ConsumerGroupsSnapshot {
  apps: ConsumerAppState[];
  groups: (GroupSnapshot & {
    protocol: GroupProtocol;
    assignor: AssignmentStrategy | null;
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
}

/**
 * The applications the UI creates: each owns one consumer and runs the classic loop
 * `while (true) { records = consumer.poll(); process(records); }` every pollIntervalMs of
 * simulated time (committing as its config says: enable.auto.commit, or nothing). A group's
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
    const tick = () => {
      if (!generation.alive || app.status !== 'running' || this.apps.get(app.consumerId) !== app) return;
      try {
        for (const r of poll()) {
          const key = `${r.topic}-${r.partition}`;
          app.processed[key] = (app.processed[key] ?? 0) + 1;
          app.lastOffsets[key] = r.offset;
        }
      } catch (e) {
        // A fatal consumer error ends the application (as an uncaught exception would).
        if (!(e instanceof KafkaError)) throw e;
        app.status = 'crashed';
        return;
      }
      this.scheduler.schedule(app.pollIntervalMs, tick);
    };
    this.scheduler.schedule(0, tick);
    this.stopLoop.set(app.consumerId, () => {
      generation.alive = false;
    });
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

  crash(consumerId: string): void {
    const app = this.require(consumerId);
    if (app.status !== 'running') return;
    this.stopLoop.get(consumerId)?.();
    this.kafka.get(consumerId)?.crash();
    this.stopZk(consumerId, 'crash');
    app.status = 'crashed';
  }

  close(consumerId: string): void {
    const app = this.require(consumerId);
    if (app.status !== 'running') return;
    this.stopLoop.get(consumerId)?.();
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
    }));
  }
}
