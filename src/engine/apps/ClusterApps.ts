/**
 * The applications and the scenario around one Engine, as any host runs them: the engine (the
 * facade: brokers, controller, coordination store, consumer groups and the applications owning
 * consumers), a producer application, and the board the page shows. Every action a person takes
 * is validated, applied and recorded with its engine time, so the run replays exactly from
 * (seed, preset, actions): the scenario a URL carries.
 *
 * Each concern is a manager with a narrow read interface (managers/): the board, the scenario
 * recorder, the group history, the lag sampler, the delivery audit, the message log, the animated
 * events and the znode tree; `dispose` ends them together. This class only wires them to one
 * engine and dispatches the scenario's actions.
 *
 * No Kafka logic lives here: brokers, elections, replication, group coordination, assignors and
 * offsets are the engine's. This decides only which clients exist and what they do (a producer
 * trickling orders), like the applications around a cluster.
 */
import { ScenarioReplay } from './ScenarioReplay';
import {
  ManualClock,
  type Cluster,
  type ConsumerApplications,
  type ConsumerGroups,
  Engine,
  isBrokerCommand,
  isKafkaError,
  KafkaError,
  type PartitionChoice,
  type UnifiedLog,
  type StoreWriter,
  type Store,
  type StoredCluster,
  type CreateTopicOptions,
  type EngineOptions,
} from '../index';
import { buildBoardView } from './boardViews';
import { EVENT_LOG_TYPES, EventLog } from './events/EventLog';
import { KafkaMetrics } from './metrics/KafkaMetrics';
import { SegmentRolls } from './travel/SegmentRolls';
import { actionLabel } from './metrics/actionLabel';
import { PRESETS } from './presets';
import { validateUserTopicName } from './userTopicName';
import {
  MAX_TOPIC_PARTITIONS,
  type AccumulatorView,
  type PlacementPreview,
  type PlacementPreviewArgs,
  type ScenarioAction,
  type EngineEvent,
  type BoardView,
  type PresetName,
  type ProducerSettings,
  type ScenarioSpec,
  type TimedAction,
} from './types';
import { checkSendCount } from './requests';
import {
  DEFAULT_PRODUCER_SETTINGS,
  PANEL_CLIENT_ID,
  panelProducerConfig,
  ProducerApp,
  type ProducerAppSpec,
} from './ProducerApp';
import { DEMO_BROKER_CONFIG } from './demoConfig';
import { cleanupConfigs } from './topicCleanupConfigs';
import { placeReplicas, previewPlacement } from './placement';
import { AnimatedEvents } from './managers/AnimatedEvents';
import { Board } from './managers/Board';
import { DeliveryAudit } from './managers/DeliveryAudit';
import { GroupHistory } from './managers/GroupHistory';
import { LagSampler } from './managers/LagSampler';
import { MessageLog } from './managers/MessageLog';
import { ScenarioRecorder } from './managers/ScenarioRecorder';
import { ZnodeTree } from './managers/ZnodeTree';
import { SCENARIO_EPOCH_MS, toScenarioMs } from './scenarioTime';

/**
 * How long an application takes to process one record (engine ms): long enough that a crash can
 * land with a batch half processed, which is where seed 000's two cases come from.
 */
export const PROCESSING_MS_PER_RECORD = 25;

/**
 * Topic defaults of the UI's clusters: small segments so rolls are visible, and a flush to the
 * Store (IndexedDB) at least every second, so a reload loses at most about a second of writes.
 *
 * A deliberate deviation from Kafka (segment.bytes 1 GiB): 64 KiB still rolls each of orders'
 * partitions about every second during a 5,000 records/s Send N, and keeps the number of
 * segments (each costs memory in the worker and the store, even paged out) a quarter of what
 * 16 KiB made: about 45k after 30 minutes at that rate with RF 3, not 180k.
 */
export const DEMO_TOPIC_DEFAULTS = { 'segment.bytes': 64 * 1024, 'flush.ms': 1000 } as const;

/**
 * Where the board's engine keeps its segment files (the worker passes its IdbStore), and the
 * replica logs recovered from them when the page reopens a stored cluster.
 */
export interface AppsStorage {
  /** Injected by the host (an IdbStore in the worker, a MemoryStore in tests): the app layer picks none. */
  store: Store;
  recoveredLogs?: ReadonlyMap<string, UnifiedLog>;
  /** The engine clock (a restart continues the stored cluster's time); the scenario epoch when omitted. */
  clock?: ManualClock;
  /** The host's StoreWriter for `store`, so the engine's writes and the host's share one sequence. */
  writer?: StoreWriter;
  /** Run the page's producer panel too (a host with a page asks for it; tests of the board need not). */
  panelProducer?: boolean;
  /**
   * A restart from what `store` kept (readStoredCluster): the cluster comes back from its znodes
   * and logs, and only the deployment (brokers) and the applications are started again; `actions`
   * are the recorded actions of the run so far (the link), whose brokers and board changes are
   * redone (Kafka keeps neither in ZooKeeper; they are server.properties and client processes).
   */
  restart?: { stored: StoredCluster; actions: readonly TimedAction[] };
  /**
   * What a host deploys instead of the preset's brokers and the page's configs: the Node host runs
   * `--brokers N` with Kafka's topic defaults (real clients, real segment sizes) under the board.
   */
  deployment?: HostDeployment;
}

/** A host's own brokers (one per rack entry, ids 1..n) and configs over the board's. */
export interface HostDeployment {
  racks: readonly (string | null)[];
  brokerConfig?: EngineOptions['brokerConfig'];
  /** Replaces the page's topic defaults (DEMO_TOPIC_DEFAULTS) whole. */
  topicDefaults?: EngineOptions['topicDefaults'];
}

/** What a panel produce answers (the page's ProduceResult). */
export interface SendOutcome {
  sendId: number;
  /** The producer that sent it (its events carry this name). */
  producer: string;
  /**
   * Why the record goes to its partition: the partitioner's own numbers. Null when the producer
   * has no metadata for the topic yet: the choice then arrives as a `record-partitioned` event.
   */
  choice: PartitionChoice | null;
}

const encoder = new TextEncoder();
function utf8(text: string | null): Uint8Array | null {
  return text === null ? null : encoder.encode(text);
}

/** Salts of the producer applications' random streams (Engine.deriveRng). */
const APP_PRODUCER_SALT = 0x7f4a7c15;
const PANEL_PRODUCER_SALT = 0x5eed0001;

export class ClusterApps {
  readonly clock: ManualClock;
  readonly engine: Engine;
  readonly cluster: Cluster;
  readonly groups: ConsumerGroups;
  readonly apps: ConsumerApplications;
  /** The demo's trickling producer application. */
  readonly producer: ProducerApp;
  /** The page's producer panel (when the host asked for one, AppsStorage.panelProducer). */
  readonly panel: ProducerApp | null;
  panelSettings: ProducerSettings;
  /** Which groups are on the board, their settings, and which consumers sit in which. */
  readonly board: Board;
  readonly recorder = new ScenarioRecorder();
  readonly groupHistory: GroupHistory;
  readonly lag: LagSampler;
  readonly audit: DeliveryAudit;
  readonly messages: MessageLog;
  readonly znodeTree: ZnodeTree;
  private readonly animated: AnimatedEvents;
  version = 0;
  /** The topics the preset makes (on a restart they come back from the znodes instead). */
  readonly presetTopics = new Set<string>();
  /** True while a restart runs the preset: its topics are in the znodes already. */
  private restarting: boolean;
  /** The one event log (apps/events) and Kafka's metrics (apps/metrics), two named versioned views of the frame. */
  readonly eventLog: EventLog;
  readonly metrics: KafkaMetrics;
  /** When the leaders rolled segments (time travel steps between them). */
  readonly rolls: SegmentRolls;
  /** Records the demo producer was asked to send: the next one's number (its key and value). */
  private demoSends = 0;
  /** A host's deployment has real clients: their groups are drawn beside the board's (clientGroups.ts). */
  readonly showClientGroups: boolean;
  /** What dispose() ends: the managers and the engine subscriptions made here. */
  private readonly disposers: (() => void)[] = [];

  constructor(
    readonly seed: number,
    readonly preset: PresetName,
    storage: AppsStorage,
  ) {
    // A restart on recovered files continues the clock where the stored cluster left it.
    this.clock = storage.clock ?? new ManualClock(SCENARIO_EPOCH_MS);
    this.showClientGroups = storage.deployment !== undefined;
    this.engine = new Engine({
      seed,
      store: storage.store,
      recoveredLogs: storage.recoveredLogs ?? storage.restart?.stored.logs,
      stored: storage.restart?.stored,
      writer: storage.writer,
      clock: this.clock,
      brokerConfig: { ...DEMO_BROKER_CONFIG, ...storage.deployment?.brokerConfig },
      topicDefaults: { ...(storage.deployment?.topicDefaults ?? DEMO_TOPIC_DEFAULTS) },
    });
    // The managers take the events they keep as they happen (subscribe); the engine's own drain
    // buffer would only pile them up, so it keeps none. Naming the types matters: per-record and
    // per-message events nobody subscribes to (log appends, follower state, delivery reports) are
    // then never built. The animated events subscribe first: a topicCreated gets its placement
    // steps before anyone else sees it.
    this.engine.maxBufferedEvents = 0;
    this.cluster = this.engine.cluster;
    this.groups = this.engine.groups;
    this.apps = this.engine.consumerApps;
    this.board = new Board(this.engine, () => this.groupTopics());
    this.animated = this.own(new AnimatedEvents(this.engine));
    this.znodeTree = this.own(new ZnodeTree(this.engine));
    this.groupHistory = this.own(new GroupHistory(this.engine, this.board));
    this.messages = this.own(new MessageLog(this.engine));
    this.audit = this.own(new DeliveryAudit(this.engine));
    this.eventLog = new EventLog(() => this.engine.controllerState().id);
    this.disposers.push(this.engine.subscribe((e) => this.eventLog.onEvent(e), EVENT_LOG_TYPES));
    this.metrics = new KafkaMetrics(
      this.engine,
      // The Java consumer's client metrics: the legacy ZooKeeper consumer has neither.
      () => [...this.board.groups].filter(([, s]) => s.protocol !== 'zookeeper').map(([g]) => g),
      (g) => ({ fetch: this.lag.fetchLag(g), committed: this.lag.committedLag(g) }),
    );
    this.own(this.metrics);
    this.rolls = this.own(new SegmentRolls(this.engine));
    this.apps.processingMsPerRecord = PROCESSING_MS_PER_RECORD;
    // The trickling demo producer: keyed orders, bootstrapping from the presets' first brokers.
    this.producer = this.createProducer(
      {
        clientId: 'app-producer',
        config: { acks: 'all', 'linger.ms': 5 },
        salt: APP_PRODUCER_SALT,
        bootstrapBrokers: [1, 2, 3],
      },
      () => this.version++,
    );
    // Scheduled after the metrics' sampling and the producer's tasks, the order the engine's
    // scheduler runs them in at one instant.
    this.lag = this.own(new LagSampler(this.engine, this.board, this.showClientGroups));
    const restart = storage.restart;
    this.restarting = restart !== undefined;
    this.startBrokers(storage.deployment?.racks ?? PRESETS[preset].racks, restart?.actions ?? []);
    PRESETS[preset].build(this);
    // The page's producer panel, built once the preset's topics exist (their metadata is asked for
    // at once, so the panel's first record is placed without waiting).
    this.panel = storage.panelProducer
      ? this.createProducer({
          clientId: PANEL_CLIENT_ID,
          config: panelProducerConfig(DEFAULT_PRODUCER_SETTINGS),
          salt: PANEL_PRODUCER_SALT,
        })
      : null;
    this.panelSettings = DEFAULT_PRODUCER_SETTINGS;
    for (const t of this.cluster.topicNames()) if (!t.startsWith('__')) this.panel?.warmUp(t);
    if (restart) this.restartApplications(restart.actions);
    this.restarting = false;
    this.engine.drainEvents();
    this.animated.take();
    this.version++;
  }

  private own<M extends { dispose(): void }>(manager: M): M {
    this.disposers.push(() => manager.dispose());
    return manager;
  }

  /** Ends every manager and engine subscription made here, together. */
  dispose(): void {
    for (const off of this.disposers.splice(0)) off();
  }

  /**
   * The one way a producer application is made: an engine KafkaProducer whose random stream
   * derives from the engine's seed and whose events go out on the engine's event path.
   */
  createProducer(spec: ProducerAppSpec, onDelivery?: () => void): ProducerApp {
    return new ProducerApp(this.engine, spec, onDelivery);
  }

  /**
   * A fresh board with the scenario's actions replayed at their engine times, run to `untilMs`.
   * An action the cluster refuses stops the replay with that KafkaError, its message naming the
   * action (number, op, engine time); the caller decides what that leaves behind.
   */
  static fromScenario(spec: ScenarioSpec, storage: AppsStorage): ClusterApps {
    const apps = new ClusterApps(spec.seed, spec.preset, storage);
    new ScenarioReplay(apps, spec).runToEnd();
    apps.animated.take();
    return apps;
  }

  /** The scenario's actions so far, with their engine times. */
  get actions(): readonly TimedAction[] {
    return this.recorder.actions;
  }

  /** Engine ms since the scenario started. */
  get nowMs(): number {
    return toScenarioMs(this.clock.now());
  }

  runTo(relMs: number): void {
    if (relMs > this.nowMs) this.tick(relMs - this.nowMs);
  }

  tick(ms: number): void {
    if (ms <= 0) return;
    this.engine.tick(ms);
    this.engine.drainEvents();
    this.version++;
  }

  view(): BoardView {
    return buildBoardView(this);
  }

  /** A real client's connection (network node) is drawn by the client.id it sends. */
  nameClient(node: string, clientId: string): void {
    this.messages.nameClient(node, clientId);
  }

  /** The animated events since the last call (the host's frame carries them to the page). */
  takeEvents(): EngineEvent[] {
    return this.animated.take();
  }

  // ------------------------------------------------------------------ actions

  /**
   * The one dispatcher of the scenario's actions: applies one now and records it with its engine
   * time; a refused action throws a KafkaError and changes nothing. A panel produce answers with
   * what the producer did (send id, client, the partitioner's choice); every other action with null.
   */
  apply(action: ScenarioAction): SendOutcome | null {
    const settings = this.panelSettings;
    // A Send N job's later slices continue the action that started it.
    const acted = !(action.op === 'produceRecords' && action.from > 0);
    const before = acted ? this.metrics.snapshot() : null;
    const outcome = this.perform(action);
    if (before) this.metrics.markAction(actionLabel(action), before);
    // Settings the panel already had change nothing, and leave nothing in the scenario.
    if (action.op === 'configureProducer' && this.panelSettings === settings) return outcome;
    this.recorder.record(this.nowMs, action);
    this.version++;
    return outcome;
  }

  /**
   * The preset's brokers, then those the recorded actions added, and a tick for them to register
   * and elect a controller. On a restart every broker is added before any starts, as a cluster
   * restarts together: no controller reads the znodes while some replicas' brokers do not exist yet.
   */
  private startBrokers(racks: readonly (string | null)[], actions: readonly TimedAction[]): void {
    const c = this.cluster;
    const start = !this.restarting;
    racks.forEach((rack, i) => {
      c.addBroker(rack === null ? { id: i + 1 } : { id: i + 1, rack }, { start });
    });
    if (this.restarting) {
      for (const { action: a } of actions)
        if (a.op === 'addBroker') c.addBroker(a.rack === null ? {} : { rack: a.rack }, { start });
      for (const id of [...c.brokers.keys()].sort((a, b) => a - b)) c.startBroker(id);
    }
    this.tick(100);
  }

  /** A topic of the preset: created on a fresh start; on a restart it is in the znodes already. */
  presetTopic(options: CreateTopicOptions): void {
    this.presetTopics.add(options.name);
    if (!this.restarting) this.cluster.createTopic(options);
  }

  /**
   * A restart redoes what no broker keeps: the board the recorded actions built (groups and their
   * settings, consumers and the group each sits in). The cluster's own changes (topics, configs,
   * reassignments, elections, records) come back from the Store instead; a broker that was down
   * starts with the rest. The actions stay recorded for the link.
   */
  private restartApplications(actions: readonly TimedAction[]): void {
    for (const t of actions) {
      if (BOARD_OPS.has(t.action.op)) {
        try {
          this.perform(t.action);
        } catch (e) {
          // The action was applied once; what it did is still in effect or was undone later.
          if (!isKafkaError(e)) throw e;
        }
      }
      this.recorder.restore([t]);
    }
  }

  /** Every action, one case each: the cluster's, the board's and the producers'. */
  private perform(a: ScenarioAction): SendOutcome | null {
    const c = this.cluster;
    if (isBrokerCommand(a)) {
      this.engine.apply(a);
      return null;
    }
    switch (a.op) {
      case 'addBroker':
        this.engine.apply({ op: 'addBroker', ...(a.rack === null ? {} : { rack: a.rack }) });
        return null;
      case 'createTopic': {
        validateUserTopicName(a.name, c.topicNames());
        if (!Number.isInteger(a.partitions) || a.partitions > MAX_TOPIC_PARTITIONS)
          throw new KafkaError(
            'INVALID_PARTITIONS',
            `Number of partitions must be a whole number from 1 to ${MAX_TOPIC_PARTITIONS} in glassbox, got ${a.partitions}.`,
            { partitions: a.partitions, limit: MAX_TOPIC_PARTITIONS },
          );
        // Placed with Kafka's assignReplicasToBrokers exactly as the dialog previewed it, then
        // created with that assignment; the placement steps ride along on the topicCreated event.
        const placed = placeReplicas(c, this.seed, {
          name: a.name,
          partitions: a.partitions,
          replicationFactor: a.replicationFactor,
          rackAware: a.rackAware !== false,
          startIndex: a.startIndex,
          startPartitionId: a.startPartitionId ?? 0,
        });
        this.animated.withPlacementSteps(placed.steps, () =>
          this.engine.apply({
            op: 'createTopic',
            name: a.name,
            assignment: placed.assignment,
            configs: { ...(a.configs ?? {}) },
          }),
        );
        return null;
      }
      case 'setUnclean':
        this.engine.apply({
          op: 'alterTopicConfig',
          topic: a.topic,
          configs: { 'unclean.leader.election.enable': a.enabled ? 'true' : 'false' },
        });
        return null;
      case 'alterTopicConfig':
        this.engine.apply({ op: 'alterTopicConfig', topic: a.topic, configs: cleanupConfigs(a.configs) });
        return null;
      case 'electPreferredLeaders':
        this.engine.apply({ op: 'electPreferredLeaders' });
        return null;
      case 'reassignPartitions':
        this.engine.apply({
          op: 'reassignPartitions',
          moves: [{ topic: a.topic, partition: a.partition, replicas: [...a.replicas] }],
        });
        return null;
      case 'produceDemoRecords':
        this.produce(a.topic, a.count);
        return null;
      case 'addGroup':
        this.board.addGroup(a.group, a.assignor);
        return null;
      case 'removeGroup':
        this.board.removeGroup(a.group);
        return null;
      case 'setAssignor':
        this.board.setAssignor(a.group, a.assignor);
        return null;
      case 'setCommitMode':
        this.board.setCommitMode(a.group, a.mode);
        return null;
      case 'setStaticMembership':
        this.board.setStaticMembership(a.group, a.enabled);
        return null;
      case 'setProtocol':
        this.board.setProtocol(a.group, a.protocol);
        return null;
      case 'addConsumer':
        this.board.addConsumer(a.group, a.name);
        return null;
      case 'moveConsumer':
        this.board.moveConsumer(a.name, a.group);
        return null;
      case 'removeConsumer':
        this.board.removeConsumer(a.name);
        return null;
      case 'crashConsumer': {
        const report = this.board.crashConsumer(a.name);
        if (report) this.audit.recordCrash(report);
        return null;
      }
      case 'produceRecord': {
        this.requireTopic(a.topic);
        const headers = a.headers.map((h) => ({ key: h.key, value: utf8(h.value) }));
        const sent = this.requirePanel().send(a.topic, utf8(a.key), utf8(a.value), headers);
        return { sendId: sent.sendId, producer: sent.clientId, choice: sent.choice };
      }
      case 'produceRecords': {
        this.requireTopic(a.topic);
        checkSendCount(a.count);
        const panel = this.requirePanel();
        const value = new Uint8Array(Math.max(0, a.valueBytes)).fill(0x61);
        for (let i = a.from; i < a.from + a.count; i++) {
          panel.send(a.topic, a.keyPrefix === null ? null : utf8(`${a.keyPrefix}${i}`), value);
        }
        return null;
      }
      case 'configureProducer':
        this.configurePanel(a.settings);
        return null;
    }
  }

  /**
   * A panel produce to a topic the cluster does not have is refused now: the producer would
   * otherwise wait max.block.ms for its metadata, which a paused clock never lets pass.
   */
  requireTopic(topic: string): void {
    if (!this.cluster.topicNames().includes(topic) || topic.startsWith('__'))
      throw new KafkaError('UNKNOWN_TOPIC_OR_PARTITION', `Topic ${topic} does not exist in this cluster.`, { topic });
  }

  /** What the board's groups subscribe to: the demo topic when it exists, else every user topic. */
  groupTopics(): string[] {
    const topics = this.cluster.topicNames().filter((t) => !t.startsWith('__'));
    return topics.includes('orders') ? ['orders'] : topics.slice(0, 1);
  }

  produce(topic: string, count: number): void {
    if (!Number.isInteger(count) || count < 1 || count > 10_000)
      throw new KafkaError('INVALID_REQUEST', `count must be between 1 and 10,000, got ${count}`);
    if (this.cluster.assignment(topic).length === 0)
      throw new KafkaError('UNKNOWN_TOPIC_OR_PARTITION', `Topic '${topic}' does not exist.`, { topic });
    const enc = new TextEncoder();
    for (let i = 0; i < count; i++) {
      // Numbered per send, not per delivery report: during an outage nothing is acknowledged, and
      // numbering by acks would send the same key and value again, which looks like duplicates.
      const n = this.demoSends++;
      this.producer.send(topic, enc.encode(`user-${n % 24}`), enc.encode(`order ${n}`));
    }
  }

  /**
   * Lets time pass until the panel's accumulator is empty (bounded: a stuck request times out
   * within a minute), then 100 ms more for the acknowledgements; returns the engine ms passed.
   */
  runUntilIdle(): number {
    const panel = this.requirePanel();
    let advanced = 0;
    while (advanced < 60_000 && panel.accumulator().length > 0) {
      this.tick(10);
      advanced += 10;
    }
    this.tick(100);
    return advanced + 100;
  }

  /** The panel producer's record accumulator, for the page's accumulator view. */
  panelAccumulator(): AccumulatorView {
    const panel = this.requirePanel();
    return {
      producer: panel.clientId,
      settings: this.panelSettings,
      queues: panel.accumulator(),
      acked: panel.acked,
      failed: panel.failed,
    };
  }

  /** The page's producer panel; refused when this run has none (AppsStorage.panelProducer). */
  requirePanel(): ProducerApp {
    if (!this.panel) throw new KafkaError('INVALID_REQUEST', 'This cluster runs no producer panel.');
    return this.panel;
  }

  /**
   * New settings for the panel's producer (a patch over the current ones): the client restarts
   * with them, as an application restarted with new properties. A bad value is Kafka's
   * INVALID_CONFIG and changes nothing.
   */
  configurePanel(patch: Partial<ProducerSettings>): ProducerSettings {
    const next = { ...this.panelSettings, ...patch };
    if (!['all', '1', '0'].includes(next.acks))
      throw new KafkaError('INVALID_CONFIG', `Invalid value ${next.acks} for configuration acks`);
    if (JSON.stringify(next) === JSON.stringify(this.panelSettings)) return this.panelSettings;
    this.requirePanel().configure(panelProducerConfig(next));
    this.panelSettings = next;
    return next;
  }

  /** A background application producing `perSecond` keyed records to `topic`. */
  startTrickle(topic: string, perSecond: number): void {
    const every = Math.max(1, Math.round(1000 / perSecond));
    this.cluster.scheduler.schedulePeriodic(every, every, () => {
      if (this.cluster.assignment(topic).length > 0) this.produce(topic, 1);
    });
  }

  previewPlacement(args: PlacementPreviewArgs): PlacementPreview {
    return previewPlacement(this.cluster, this.seed, args);
  }

  scenario(): ScenarioSpec {
    return { seed: this.seed, preset: this.preset, actions: [...this.actions], untilMs: this.nowMs };
  }
}

/** The actions that change only the board's applications, which a restart starts again. */
const BOARD_OPS = new Set<ScenarioAction['op']>([
  'addGroup',
  'removeGroup',
  'setAssignor',
  'setCommitMode',
  'setStaticMembership',
  'setProtocol',
  'addConsumer',
  'moveConsumer',
  'removeConsumer',
]);
