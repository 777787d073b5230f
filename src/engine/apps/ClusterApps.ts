/**
 * The applications and the scenario around one Engine, as any host runs them: the engine (the
 * facade: brokers, controller, coordination store, consumer groups and the applications owning
 * consumers), a producer application, and the board the page shows — which groups exist, which
 * consumers sit in which group or are stopped. Every action a person takes is validated, applied and recorded with its
 * engine time, so the run replays exactly from (seed, preset, actions): the scenario a URL
 * carries.
 *
 * No Kafka logic lives here: brokers, elections, replication, group coordination, assignors and
 * offsets are the engine's. This class decides only which clients exist and what they do (a
 * producer trickling orders), like the applications around a cluster.
 */
import { foldSlice } from './jobSlices';
import { ScenarioReplay } from './ScenarioReplay';
import {
  ManualClock,
  type Cluster,
  assignReplicasToBrokersWithSteps,
  type PlacementStep,
  type ConsumerApplications,
  type CrashReport,
  type ConsumerGroups,
  Engine,
  isKafkaError,
  KafkaError,
  Rng,
  type BrokerCommand,
  isBrokerCommand,
  runBrokerCommand,
  type PartitionChoice,
  type UnifiedLog,
  type StoreWriter,
  type Store,
  type StoredCluster,
  type CreateTopicOptions,
  type EngineOptions,
} from '../index';
import { buildPlaneView } from './planeViews';
import { clientGroupIds } from './clientGroups';
import { EVENT_LOG_TYPES, EventLog } from './events/EventLog';
import { KafkaMetrics } from './metrics/KafkaMetrics';
import { SegmentRolls } from './travel/SegmentRolls';
import { actionLabel } from './metrics/actionLabel';
import { PRESETS } from './presets';
import { validateUserTopicName } from './userTopicName';
import {
  MAX_TOPIC_PARTITIONS,
  type AccumulatorView,
  type AssignorName,
  type CommitMode,
  type ConsumerCrashView,
  type GenerationView,
  type GroupProtocol,
  type LogTruncationView,
  type LostOffsetsView,
  type PlacementPreview,
  type PlacementPreviewArgs,
  type EngineCommand,
  type PlaneEvent,
  type PlaneView,
  type PresetName,
  type ProducerSettings,
  type ScenarioSpec,
  type TimedAction,
  type TopicCleanupKey,
  type ZnodeView,
  PLANE_EPOCH_MS,
  TOPIC_CLEANUP_KEYS,
} from './types';
import { comparePartitions } from './comparePartitions';
import { checkSendCount } from './requests';
import {
  DEFAULT_PRODUCER_SETTINGS,
  PANEL_CLIENT_ID,
  panelProducerConfig,
  ProducerApp,
  type ProducerAppSpec,
} from './ProducerApp';
import { PLANE_BROKER_CONFIG, PLANE_CONSUMER_CONFIG } from './planeConfig';
import { RecentMessages } from './RecentMessages';

/** How often a running consumer's application calls poll(). */
const POLL_EVERY_MS = 200;
/**
 * How long an application takes to process one record (engine ms): long enough that a crash can
 * land with a batch half processed, which is where seed 000's two cases come from.
 */
export const PROCESSING_MS_PER_RECORD = 25;
/** How often each group's lag is sampled for the lag chart. */
const LAG_SAMPLE_MS = 1000;
const LAG_HISTORY = 60;
const MAX_EVENTS = 1500;
/** No messages are kept above this many brokers (the cluster is drawn at scale). */
const MESSAGE_BROKERS_MAX = 12;

/**
 * Topic defaults of the UI's clusters: small segments so rolls are visible, and a flush to the
 * Store (IndexedDB) at least every second, so a reload loses at most about a second of writes.
 *
 * A deliberate deviation from Kafka (segment.bytes 1 GiB): 64 KiB still rolls each of orders'
 * partitions about every second during a 5,000 records/s Send N, and keeps the number of
 * segments (each costs memory in the worker and the store, even paged out) a quarter of what
 * 16 KiB made: about 45k after 30 minutes at that rate with RF 3, not 180k.
 */
export const PLANE_TOPIC_DEFAULTS = { 'segment.bytes': 64 * 1024, 'flush.ms': 1000 } as const;

/**
 * Where the plane's engine keeps its segment files (the worker passes its IdbStore), and the
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
   * `--brokers N` with Kafka's topic defaults (real clients, real segment sizes) under the plane.
   */
  deployment?: HostDeployment;
}

/** A host's own brokers (one per rack entry, ids 1..n) and configs over the plane's. */
export interface HostDeployment {
  racks: readonly (string | null)[];
  brokerConfig?: EngineOptions['brokerConfig'];
  /** Replaces the page's topic defaults (PLANE_TOPIC_DEFAULTS) whole. */
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

export interface GroupSettings {
  assignor: AssignorName;
  protocol: GroupProtocol;
  commitMode: CommitMode;
  /** Its consumers set group.instance.id to their name (static members). */
  staticMembership: boolean;
}

export interface ConsumerEntry {
  name: string;
  /** The group it sits in on the board; null when stopped (in no group). */
  group: string | null;
}

/**
 * The cleanup keys of an alterTopicConfig action, checked before the engine sees them: only
 * TOPIC_CLEANUP_KEYS, retention.ms / retention.bytes a whole number >= -1 (-1: no limit), and
 * cleanup.policy delete, compact or both. Anything else is Kafka's INVALID_CONFIG (the engine's
 * own validation of the values runs too, before anything changes).
 */
export function cleanupConfigs(configs: Record<string, string>): Record<string, string> {
  const entries = Object.entries(configs);
  if (entries.length === 0) throw new KafkaError('INVALID_CONFIG', 'No config to change.');
  const out: Record<string, string> = {};
  for (const [k, raw] of entries) {
    if (!TOPIC_CLEANUP_KEYS.includes(k as TopicCleanupKey))
      throw new KafkaError('INVALID_CONFIG', `${k} cannot be changed here (only ${TOPIC_CLEANUP_KEYS.join(', ')}).`);
    const v = String(raw).trim();
    if (k === 'cleanup.policy') {
      const items = v.split(',').map((x) => x.trim());
      if (
        items.length === 0 ||
        items.some((x) => x !== 'delete' && x !== 'compact') ||
        new Set(items).size !== items.length
      )
        throw new KafkaError(
          'INVALID_CONFIG',
          `Invalid value ${v} for configuration cleanup.policy: String must be one of: compact, delete`,
        );
      out[k] = items.join(',');
    } else {
      if (!/^-?\d+$/.test(v) || !Number.isSafeInteger(Number(v)) || Number(v) < -1)
        throw new KafkaError(
          'INVALID_CONFIG',
          `Invalid value ${v} for configuration ${k}: must be a whole number >= -1`,
        );
      out[k] = String(Number(v));
    }
  }
  return out;
}

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
  /** Bumps on every znode change, so the znode list is rebuilt only when the tree changed. */
  zkChanges = 0;
  znodeCache: { changes: number; atMs: number; list: ZnodeView[] } | null = null;
  private pendingSteps: PlacementStep[] | null = null;
  readonly groupSettings = new Map<string, GroupSettings>();
  readonly consumers = new Map<string, ConsumerEntry>();
  readonly generations = new Map<string, GenerationView[]>();
  readonly lagHistory = new Map<string, Map<string, [number, number][]>>();
  readonly memberNames = new Map<string, string>();
  readonly lost: LostOffsetsView[] = [];
  /** The last log truncation each consumer detected, by consumer name. */
  readonly truncations = new Map<string, LogTruncationView>();
  /** Crashes with the group's delivery counts over the crashed consumer's partitions at that moment. */
  readonly crashes: { view: Omit<ConsumerCrashView, 'observed'>; baseline: { duplicates: number; skipped: number } }[] =
    [];
  /** The latest requests and answers on the network, capped per family. */
  readonly recentMessages = new RecentMessages();
  /** A host's client nodes by the client.id their requests carry (the Node host's real clients). */
  private readonly clientIds = new Map<string, string>();
  readonly actions: TimedAction[] = [];
  version = 0;
  /** The topics the preset makes (on a restart they come back from the znodes instead). */
  readonly presetTopics = new Set<string>();
  /** True while a restart runs the preset: its topics are in the znodes already. */
  private restarting: boolean;
  private events: PlaneEvent[] = [];
  /** The one event log (apps/events) and Kafka's metrics (apps/metrics), two named versioned views of the frame. */
  readonly eventLog: EventLog;
  readonly metrics: KafkaMetrics;
  /** When the leaders rolled segments (time travel steps between them). */
  readonly rolls: SegmentRolls;
  /** Records the demo producer was asked to send: the next one's number (its key and value). */
  private demoSends = 0;
  /** A host's deployment has real clients: their groups are drawn beside the board's (clientGroups.ts). */
  readonly showClientGroups: boolean;
  private nextConsumer = 1;

  constructor(
    readonly seed: number,
    readonly preset: PresetName,
    storage: AppsStorage,
  ) {
    // A restart on recovered files continues the clock where the stored cluster left it.
    this.clock = storage.clock ?? new ManualClock(PLANE_EPOCH_MS);
    this.showClientGroups = storage.deployment !== undefined;
    this.engine = new Engine({
      seed,
      store: storage.store,
      recoveredLogs: storage.recoveredLogs ?? storage.restart?.stored.logs,
      stored: storage.restart?.stored,
      writer: storage.writer,
      clock: this.clock,
      brokerConfig: { ...PLANE_BROKER_CONFIG, ...storage.deployment?.brokerConfig },
      topicDefaults: { ...(storage.deployment?.topicDefaults ?? PLANE_TOPIC_DEFAULTS) },
    });
    // The plane takes the events it draws as they happen (subscribe); the engine's own drain
    // buffer would only pile them up, so it keeps none. Naming the types matters: per-record and
    // per-message events nobody subscribes to (log appends, follower state, delivery reports) are
    // then never built.
    this.engine.maxBufferedEvents = 0;
    this.engine.subscribe((e) => this.onEvent(e), PLANE_EVENT_TYPES);
    this.eventLog = new EventLog(PLANE_EPOCH_MS, () => this.engine.controllerState().id);
    this.engine.subscribe((e) => this.eventLog.onEvent(e), EVENT_LOG_TYPES);
    this.metrics = new KafkaMetrics(
      this.engine,
      PLANE_EPOCH_MS,
      // The Java consumer's client metrics: the legacy ZooKeeper consumer has neither.
      () => [...this.groupSettings].filter(([, s]) => s.protocol !== 'zookeeper').map(([g]) => g),
      (g) => ({ fetch: this.fetchLag(g), committed: this.committedLag(g) }),
    );
    this.rolls = new SegmentRolls(this.engine, PLANE_EPOCH_MS);
    this.cluster = this.engine.cluster;
    this.groups = this.engine.groups;
    this.apps = this.engine.consumerApps;
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
    this.cluster.scheduler.schedulePeriodic(LAG_SAMPLE_MS, LAG_SAMPLE_MS, () => this.sampleLag());
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
    this.events = [];
    this.version++;
  }

  /**
   * The one way a producer application is made: an engine KafkaProducer whose random stream
   * derives from the engine's seed and whose events go out on the engine's event path.
   */
  createProducer(spec: ProducerAppSpec, onDelivery?: () => void): ProducerApp {
    return new ProducerApp(this.engine, spec, onDelivery);
  }

  /**
   * A fresh plane with the scenario's actions replayed at their engine times, run to `untilMs`.
   * An action the cluster refuses stops the replay with that KafkaError, its message naming the
   * action (number, op, engine time); the caller decides what that leaves behind.
   */
  static fromScenario(spec: ScenarioSpec, storage: AppsStorage): ClusterApps {
    const plane = new ClusterApps(spec.seed, spec.preset, storage);
    new ScenarioReplay(plane, spec).runToEnd();
    plane.events = [];
    return plane;
  }

  /** Engine ms since the scenario started. */
  get nowMs(): number {
    return this.clock.now() - PLANE_EPOCH_MS;
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

  /**
   * The largest HW − fetch position over the partitions the group's running consumers own, each
   * from the HW its consumer's last fetch reported (SubscriptionState.partitionLag, which the
   * consumer's records-lag-max takes its max of); null while none has fetched.
   */
  fetchLag(group: string): number | null {
    let max: number | null = null;
    for (const e of this.consumers.values()) {
      if (e.group !== group) continue;
      const consumer = this.groups.consumers.get(e.name);
      if (!consumer || this.apps.apps.get(e.name)?.status !== 'running') continue;
      for (const a of this.groups.consumerSnapshot(consumer).assignment) {
        if (a.position === null || a.highWatermark === null) continue;
        const lag = Math.max(0, a.highWatermark - a.position);
        if (max === null || lag > max) max = lag;
      }
    }
    return max;
  }

  /** The group's largest HW − committed offset over its partitions: kafka-consumer-groups --describe's LAG. */
  committedLag(group: string): number | null {
    let max: number | null = null;
    for (const r of this.engine.describeGroup(group)) if (r.lag !== null && (max === null || r.lag > max)) max = r.lag;
    return max;
  }

  view(): PlaneView {
    return buildPlaneView(this);
  }

  private onEvent(e: PlaneEvent): void {
    if (e.type === 'topicCreated' && this.pendingSteps) e.placementSteps = this.pendingSteps;
    if (e.type.startsWith('znode') || e.type === 'watchFired') this.zkChanges++;
    switch (e.type) {
      case 'groupGenerationCompleted': {
        const list = this.generations.get(e.groupId) ?? [];
        const assignment: Record<string, string[]> = {};
        for (const [memberId, tps] of Object.entries(e.assignment)) {
          assignment[this.nameOf(memberId)] = tps.map((tp) => `${tp.topic}-${tp.partition}`).sort(comparePartitions);
        }
        list.push({
          generation: e.generationId,
          atMs: e.atMs - PLANE_EPOCH_MS,
          protocol: e.protocolName,
          leader: e.leader === null ? null : this.nameOf(e.leader),
          assignment,
        });
        if (list.length > 40) list.shift();
        this.generations.set(e.groupId, list);
        break;
      }
      case 'messageSent':
      case 'groupRequestSent':
      case 'groupResponseSent':
        if (this.cluster.brokers.size <= MESSAGE_BROKERS_MAX) this.recordMessage(e);
        break;
      case 'logAppended':
        if (e.cause && !e.topic.startsWith('__'))
          this.recentMessages.addEffect(e.cause.id, {
            topic: e.topic,
            partition: e.partition,
            broker: e.broker,
            field: 'leo',
            from: e.firstOffset,
            to: e.logEndOffset,
          });
        return;
      case 'highWatermarkChanged':
        if (e.cause && !e.topic.startsWith('__'))
          this.recentMessages.addEffect(e.cause.id, {
            topic: e.topic,
            partition: e.partition,
            broker: e.broker,
            field: 'hw',
            from: e.old,
            to: e.new,
          });
        return;
      case 'consumerLogTruncation':
        this.truncations.set(e.consumerId, {
          topic: e.topic,
          partition: e.partition,
          fetchOffset: e.fetchOffset,
          offsetEpoch: e.offsetEpoch,
          divergentOffset: e.divergentOffset,
          outcome: e.outcome,
          atMs: e.atMs - PLANE_EPOCH_MS,
        });
        break;
      case 'uncleanLeaderElection':
        if (e.lostOffsets) {
          this.lost.push({
            topic: e.topic,
            partition: e.partition,
            newLeader: e.newLeader,
            from: e.lostOffsets.from,
            to: e.lostOffsets.to,
            committedFrom: e.lostCommittedOffsets?.from ?? null,
            committedTo: e.lostCommittedOffsets?.to ?? null,
            atMs: e.atMs - PLANE_EPOCH_MS,
          });
        }
        break;
      default:
        break;
    }
    if (!isAnimated(e)) return;
    if (this.events.length >= MAX_EVENTS) this.events.shift();
    this.events.push(slim(e));
  }

  /** A real client's connection (network node) is drawn by the client.id it sends. */
  nameClient(node: string, clientId: string): void {
    this.clientIds.set(node, clientId);
  }

  /** Keeps a message the broker network or the consumers' group network sent, as the page draws it. */
  private recordMessage(
    e: Extract<PlaneEvent, { type: 'messageSent' | 'groupRequestSent' | 'groupResponseSent' }>,
  ): void {
    const times = { sentAtMs: e.sentAtMs - PLANE_EPOCH_MS, arriveAtMs: e.arriveAtMs - PLANE_EPOCH_MS };
    if (e.type === 'groupRequestSent') {
      const client = this.clientIds.get(e.from) ?? e.from;
      this.recentMessages.add({ ...times, api: e.api, kind: 'request', from: null, to: e.toBroker, client });
      return;
    }
    if (e.type === 'groupResponseSent') {
      const client = this.clientIds.get(e.to) ?? e.to;
      this.recentMessages.add({ ...times, api: e.api, kind: 'response', from: e.fromBroker, to: null, client });
      return;
    }
    const from = brokerIdOf(e.from);
    const to = brokerIdOf(e.to);
    const node = from === null ? e.from : to === null ? e.to : null;
    const client = node === null ? null : (this.clientIds.get(node) ?? node);
    this.recentMessages.add({ ...times, api: e.api, kind: e.kind, from, to, client }, e.id);
  }

  /** A member id's consumer name: the member id starts with the client id (Kafka's `<client.id>-<uuid>`). */
  nameOf(memberId: string): string {
    const known = this.memberNames.get(memberId);
    if (known) return known;
    let best = '';
    for (const name of this.consumers.keys()) {
      if (memberId.startsWith(`${name}-`) && name.length > best.length) best = name;
    }
    const name = best || memberId;
    this.memberNames.set(memberId, name);
    return name;
  }

  private sampleLag(): void {
    const logEnds = new Map<string, number>();
    for (const groupId of [...this.groupSettings.keys(), ...clientGroupIds(this)]) {
      const rows = this.groups.describeGroup(groupId, logEnds);
      let byPartition = this.lagHistory.get(groupId);
      if (!byPartition) this.lagHistory.set(groupId, (byPartition = new Map()));
      for (const r of rows) {
        if (r.lag === null) continue;
        const key = `${r.topic}-${r.partition}`;
        const h = byPartition.get(key) ?? [];
        h.push([this.nowMs, r.lag]);
        if (h.length > LAG_HISTORY) h.shift();
        byPartition.set(key, h);
      }
    }
  }

  // ------------------------------------------------------------------ actions

  /**
   * The one dispatcher of EngineCommands: applies one now and records it with its engine time; a
   * refused command throws a KafkaError and changes nothing. A panel produce answers with what
   * the producer did (send id, client, the partitioner's choice); every other command with null.
   */
  apply(action: EngineCommand): SendOutcome | null {
    const settings = this.panelSettings;
    // A Send N job's later slices continue the action that started it.
    const acted = !(action.op === 'produceRecords' && action.from > 0);
    const before = acted ? this.metrics.snapshot() : null;
    const outcome = this.perform(action);
    if (before) this.metrics.markAction(actionLabel(action), before);
    // Settings the panel already had change nothing, and leave nothing in the scenario.
    if (action.op === 'configureProducer' && this.panelSettings === settings) return outcome;
    this.record(action);
    this.version++;
    return outcome;
  }

  /**
   * Into the scenario log, all of it: nothing recorded is ever dropped (a reload restarts the
   * board from it, time travel replays it). A Send N job's later slices fold into the job's
   * action (jobSlices.ts), so a job is one action, not one per slice.
   */
  private record(action: EngineCommand): void {
    const at = this.nowMs;
    if (foldSlice(this.actions[this.actions.length - 1], at, action)) return;
    this.actions.push({ at, action });
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
      this.actions.push(t);
    }
  }

  private perform(a: EngineCommand): SendOutcome | null {
    if (isBrokerCommand(a)) {
      runBrokerCommand(this.cluster, a);
      return null;
    }
    this.performOther(a);
    switch (a.op) {
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
      default:
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

  /** The commands on the cluster's topics and the board's groups and consumers. */
  private performOther(a: Exclude<EngineCommand, BrokerCommand>): void {
    const c = this.cluster;
    switch (a.op) {
      case 'addBroker':
        c.addBroker(a.rack === null ? {} : { rack: a.rack });
        return;
      case 'createTopic': {
        validateUserTopicName(a.name, c.topicNames());
        if (!Number.isInteger(a.partitions) || a.partitions > MAX_TOPIC_PARTITIONS)
          throw new KafkaError(
            'INVALID_PARTITIONS',
            `Number of partitions must be a whole number from 1 to ${MAX_TOPIC_PARTITIONS} in glassbox, got ${a.partitions}.`,
            { partitions: a.partitions, limit: MAX_TOPIC_PARTITIONS },
          );
        // Placed with Kafka's assignReplicasToBrokers exactly as the dialog previewed it (a random
        // start comes from an Rng seeded by the scenario seed and the topic name), then created
        // with that assignment; the placement steps ride along on the topicCreated event.
        const placed = this.place({
          name: a.name,
          partitions: a.partitions,
          replicationFactor: a.replicationFactor,
          rackAware: a.rackAware !== false,
          startIndex: a.startIndex,
          startPartitionId: a.startPartitionId ?? 0,
        });
        this.pendingSteps = placed.steps;
        try {
          c.createTopic({ name: a.name, assignment: placed.assignment, configs: { ...(a.configs ?? {}) } });
        } finally {
          this.pendingSteps = null;
        }
        return;
      }
      case 'setUnclean':
        c.alterTopicConfig(a.topic, { 'unclean.leader.election.enable': a.enabled ? 'true' : 'false' });
        return;
      case 'alterTopicConfig':
        c.alterTopicConfig(a.topic, cleanupConfigs(a.configs));
        return;
      case 'preferredElection':
        c.electPreferredLeaders();
        return;
      case 'reassign':
        c.reassignPartitions([{ topic: a.topic, partition: a.partition, replicas: [...a.replicas] }]);
        return;
      case 'produce':
        this.produce(a.topic, a.count);
        return;
      case 'addGroup':
        if (this.groupSettings.has(a.group))
          throw new KafkaError('INVALID_REQUEST', `Group ${a.group} is already on the board.`);
        if (!/^[a-zA-Z0-9._-]{1,64}$/.test(a.group))
          throw new KafkaError('INVALID_GROUP_ID', `Group id "${a.group}" must be 1-64 of [a-zA-Z0-9._-].`);
        this.apps.setGroupAssignor(a.group, a.assignor);
        this.groupSettings.set(a.group, {
          assignor: a.assignor,
          protocol: 'coordinator',
          commitMode: 'auto',
          staticMembership: false,
        });
        return;
      case 'removeGroup': {
        this.requireGroup(a.group);
        for (const e of this.consumers.values()) {
          if (e.group !== a.group) continue;
          this.stopConsumer(e);
          e.group = null;
        }
        this.groupSettings.delete(a.group);
        return;
      }
      case 'setAssignor':
        // partition.assignment.strategy is a consumer setting: the group's members restart with it.
        this.changeGroup(a.group, 'assignor', a.assignor, () => this.apps.setGroupAssignor(a.group, a.assignor));
        return;
      case 'setCommitMode':
        // When to commit is application code: the group's applications restart with it.
        this.changeGroup(a.group, 'commitMode', a.mode, () => this.apps.setGroupCommitMode(a.group, a.mode));
        return;
      case 'setStaticMembership':
        // group.instance.id is a consumer setting: the group's running consumers restart with it.
        this.changeGroup(a.group, 'staticMembership', a.enabled, () => {
          for (const e of this.consumers.values()) {
            if (e.group !== a.group || this.apps.apps.get(e.name)?.status !== 'running') continue;
            this.stopConsumer(e);
            this.startConsumerWith(e, a.enabled);
          }
        });
        return;
      case 'setProtocol':
        this.changeGroup(a.group, 'protocol', a.protocol, () => this.apps.setGroupProtocol(a.group, a.protocol));
        return;
      case 'addConsumer': {
        this.requireGroup(a.group);
        const name = a.name ?? this.freshName();
        if (this.consumers.has(name)) throw new KafkaError('INVALID_REQUEST', `Consumer ${name} already exists.`);
        if (!/^[a-zA-Z0-9._-]{1,32}$/.test(name) || name.startsWith('broker-'))
          throw new KafkaError('INVALID_REQUEST', `Consumer name "${name}" must be 1-32 of [a-zA-Z0-9._-].`);
        const entry: ConsumerEntry = { name, group: a.group };
        this.startConsumer(entry);
        this.consumers.set(name, entry);
        return;
      }
      case 'moveConsumer': {
        const e = this.requireConsumer(a.name);
        if (a.group !== null) this.requireGroup(a.group);
        const app = this.apps.apps.get(e.name);
        const running = app?.status === 'running';
        if (e.group === a.group && running) return;
        if (a.group === null) this.stopConsumer(e);
        else if (running) this.apps.move(e.name, a.group);
        else {
          e.group = a.group;
          this.startConsumer(e);
        }
        e.group = a.group;
        return;
      }
      case 'removeConsumer': {
        const e = this.requireConsumer(a.name);
        this.stopConsumer(e);
        this.consumers.delete(a.name);
        return;
      }
      case 'crashConsumer': {
        const e = this.requireConsumer(a.name);
        if (this.apps.apps.get(e.name)?.status !== 'running')
          throw new KafkaError('INVALID_REQUEST', `Consumer ${a.name} is not running.`);
        const report = this.apps.crash(e.name);
        if (report) this.recordCrash(report);
        return;
      }
    }
  }

  /**
   * What a crash leaves for the next owner, from the engine's report: per partition the
   * consumer's position, how far its application had processed, and the group's committed
   * offset. The next owner resumes from the committed offset, so processed-but-uncommitted
   * records come again (case 1) and committed-but-unprocessed ones never come (case 2). The
   * group's delivery counts over those partitions are kept, so the view can show what actually
   * happened after the rebalance next to what the offsets predicted.
   */
  private recordCrash(r: CrashReport): void {
    let redelivered = 0;
    let skipped = 0;
    const partitions: ConsumerCrashView['partitions'] = [];
    for (const p of r.partitions) {
      // No committed offset: the new owner starts from auto.offset.reset=earliest, offset 0 here
      // (the board's topics are never truncated), so everything processed is read again.
      const from = p.committed ?? 0;
      if (from < p.processedTo) redelivered += p.processedTo - from;
      else skipped += from - p.processedTo;
      partitions.push({ ...p });
    }
    const keys = new Set(partitions.map((p) => `${p.topic}-${p.partition}`));
    const t = this.apps.delivery.totals(r.groupId, keys);
    this.crashes.push({
      view: {
        consumer: r.consumerId,
        group: r.groupId,
        atMs: r.atMs - PLANE_EPOCH_MS,
        commitMode: r.commitMode,
        partitions,
        redelivered,
        skipped,
      },
      baseline: { duplicates: t.duplicates, skipped: t.skipped },
    });
    if (this.crashes.length > 20) this.crashes.shift();
  }

  /** The crashes with what the group's delivery counts say happened since each. */
  crashViews(): ConsumerCrashView[] {
    return this.crashes.map(({ view, baseline }) => {
      const t = this.apps.delivery.totals(view.group, new Set(view.partitions.map((p) => `${p.topic}-${p.partition}`)));
      return {
        ...view,
        partitions: view.partitions.map((p) => ({ ...p })),
        observed: { redelivered: t.duplicates - baseline.duplicates, skipped: t.skipped - baseline.skipped },
      };
    });
  }

  private freshName(): string {
    while (this.consumers.has(`c${this.nextConsumer}`)) this.nextConsumer++;
    return `c${this.nextConsumer++}`;
  }

  /** Changes one setting of a group on the board, applying it to its applications first; the same value does nothing. */
  private changeGroup<K extends keyof GroupSettings>(
    group: string,
    key: K,
    value: GroupSettings[K],
    apply: () => void,
  ): void {
    const g = this.requireGroup(group);
    if (g[key] === value) return;
    apply();
    g[key] = value;
  }

  private requireGroup(group: string): GroupSettings {
    const g = this.groupSettings.get(group);
    if (!g) throw new KafkaError('GROUP_ID_NOT_FOUND', `No group ${group} on the board.`);
    return g;
  }

  private requireConsumer(name: string): ConsumerEntry {
    const e = this.consumers.get(name);
    if (!e) throw new KafkaError('INVALID_REQUEST', `No consumer ${name}.`);
    return e;
  }

  private stopConsumer(e: ConsumerEntry): void {
    if (this.apps.apps.get(e.name)?.status === 'running') this.apps.close(e.name);
  }

  /** A consumer application in its group: subscribes to the board's topic and polls in a loop. */
  private startConsumer(e: ConsumerEntry): void {
    if (e.group === null) return;
    this.startConsumerWith(e, this.groupSettings.get(e.group)?.staticMembership ?? false);
  }

  private startConsumerWith(e: ConsumerEntry, staticMember: boolean): void {
    if (e.group === null) return;
    this.engine.execute('createConsumer', {
      consumerId: e.name,
      groupId: e.group,
      config: { ...PLANE_CONSUMER_CONFIG, ...(staticMember ? { 'group.instance.id': e.name } : {}) },
      topics: this.groupTopics(),
      pollIntervalMs: POLL_EVERY_MS,
    });
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
    try {
      return { ...this.place(args), error: null };
    } catch (e) {
      if (!isKafkaError(e)) throw e;
      return {
        brokers: this.placementBrokers(),
        assignment: [],
        steps: [],
        error: { code: e.code, message: e.message },
      };
    }
  }

  /** The live brokers and their racks, as assignReplicasToBrokers sees them. */
  private placementBrokers(): PlacementPreview['brokers'] {
    return this.cluster.liveBrokerIds().map((id) => ({ id, rack: this.cluster.brokers.get(id)?.rack ?? null }));
  }

  /** Kafka's assignReplicasToBrokers for the dialog's arguments; throws its KafkaError as it is. */
  private place(args: PlacementPreviewArgs): Omit<PlacementPreview, 'error'> {
    const brokers = this.placementBrokers();
    const input = brokers.map((b) => (args.rackAware && b.rack !== null ? { id: b.id, rack: b.rack } : { id: b.id }));
    const r = assignReplicasToBrokersWithSteps(input, args.partitions, args.replicationFactor, {
      ...(args.startIndex === null
        ? { rng: new Rng(this.seed ^ nameHash(args.name)) }
        : { fixedStartIndex: args.startIndex }),
      ...(args.startPartitionId ? { startPartitionId: args.startPartitionId } : {}),
    });
    return { brokers, assignment: r.assignment, steps: r.steps };
  }

  scenario(): ScenarioSpec {
    return { seed: this.seed, preset: this.preset, actions: [...this.actions], untilMs: this.nowMs };
  }

  /** The animated events since the last call (the host's frame carries them to the page). */
  takeEvents(): PlaneEvent[] {
    const e = this.events;
    this.events = [];
    return e;
  }
}

/** The actions that change only the board's applications, which a restart starts again. */
const BOARD_OPS = new Set<EngineCommand['op']>([
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

/** Events the page animates; the per-fetch and per-append flood is left out (the views read state). */
/** The events the page narrates or animates (the views read state for everything else). */
const ANIMATED = new Set<string>([
  'znodeCreated',
  'znodeDataChanged',
  'znodeDeleted',
  'sessionExpired',
  'watchFired',
  'controllerElected',
  'controllerResigned',
  'staleControllerRequestRejected',
  'brokerDown',
  'brokerStarted',
  'controlledShutdown',
  'partitionOffline',
  'partitionStateChanged',
  'isrChangeRequested',
  'uncleanLeaderElection',
  'replicaTruncated',
  'reassignmentStarted',
  'reassignmentCompleted',
  'preferredLeaderElection',
  'topicCreated',
  'groupStateChanged',
  'groupGenerationCompleted',
  'groupMemberRemoved',
  'consumerRebalanceCallback',
]);

/** Every event type onEvent reads: the animated ones, and the message and group requests it draws. */
const PLANE_EVENT_TYPES = [
  ...ANIMATED,
  'messageSent',
  'groupRequestSent',
  'groupResponseSent',
  'consumerLogTruncation',
  // What the network's deliveries changed (their cause): drawn when the message's token lands.
  'logAppended',
  'highWatermarkChanged',
] as PlaneEvent['type'][];

function isAnimated(e: PlaneEvent): boolean {
  if (e.type === 'groupRequestSent')
    return e.api === 'JoinGroup' || e.api === 'SyncGroup' || e.api === 'FindCoordinator' || e.api === 'LeaveGroup';
  return ANIMATED.has(e.type);
}

/** The broker id of a broker's network node (`broker-<id>`, see brokerNodeId); null for a client. */
function brokerIdOf(node: string): number | null {
  const m = /^broker-(\d+)$/.exec(node);
  return m ? Number(m[1]) : null;
}

function nameHash(name: string): number {
  let h = 0;
  for (let i = 0; i < name.length; i++) h = (Math.imul(h, 31) + name.charCodeAt(i)) | 0;
  return h;
}

/**
 * Group requests carry protocol bytes (subscriptions, assignments) the page never reads; they are
 * replaced by what the narration needs, so frames stay small.
 */
function slim(e: PlaneEvent): PlaneEvent {
  if (e.type !== 'groupRequestSent' && e.type !== 'groupResponseSent') return e;
  const b = e.body as { api: string; groupId?: string; key?: string; assignments?: unknown[] };
  const body = {
    api: b.api,
    ...(b.groupId !== undefined ? { groupId: b.groupId } : {}),
    ...(b.key !== undefined ? { key: b.key } : {}),
    ...(b.assignments !== undefined ? { assignments: b.assignments.map(() => ({})) } : {}),
  };
  return { ...e, body } as PlaneEvent;
}
