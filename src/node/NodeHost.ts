/**
 * The engine hosted in a Node process on wall-clock time: brokers listen on localhost ports and
 * speak Kafka's wire protocol (WireGateway), so real clients (kcat, librdkafka, kafkajs) talk
 * to the same engine the page watches. The engine is the app layer's (ClusterApps, as in the
 * worker), so the page's EngineHost runs over this very engine (PageServer): what real clients
 * do is what the page draws, and the page's kill or restart closes or reopens a listener.
 * Time: the engine's ManualClock advances by the wall clock's elapsed milliseconds on every turn
 * of the loop (the engine itself never reads a clock).
 */
import {
  type EngineOptions,
  ManualClock,
  readStoredCluster,
  type Store,
  type StoredCluster,
  StoreWriter,
} from '../engine/index';
import { ClusterApps, type EngineEvent, SCENARIO_EPOCH_MS } from '../engine/apps/index';
import { MemoryStore } from '../storage/MemoryStore';
import { FileStore } from './FileStore';
import { BrokerListeners } from './BrokerListeners';
import { WireGateway } from './WireGateway';

export interface NodeHostOptions {
  brokers: number;
  /** Broker 1 listens here, broker 2 on the next port, and so on. */
  port: number;
  host: string;
  seed?: number;
  topics?: { name: string; partitions: number; replicationFactor: number }[];
  /** How often the loop turns, in real ms. */
  tickEveryMs?: number;
  /** The wall clock (injected so a test can drive it). */
  now?: () => number;
  /**
   * A directory for the brokers' files (real Kafka log dirs, checkpoints and the znodes); a
   * restart on it recovers like a cluster restart. Without it, a MemoryStore.
   */
  data?: string;
  /** Broker configs by Kafka's names (zookeeper.session.timeout.ms, replica.lag.time.max.ms, ...). */
  brokerConfig?: EngineOptions['brokerConfig'];
}

/** The page events kept for a page that has not pulled a frame for a while (it draws state, not events). */
const MAX_PAGE_EVENTS = 4000;

export class NodeHost {
  /** The applications around the engine: the page's views and actions run over these. */
  readonly apps: ClusterApps;
  readonly gateway: WireGateway;
  readonly listeners: BrokerListeners;
  readonly store: Store;
  readonly writer: StoreWriter;
  readonly clock: ManualClock;
  private timer: ReturnType<typeof setInterval> | null = null;
  private last = 0;
  private syncing: Promise<void> = Promise.resolve();
  /** Each watching page's animated events not yet pulled (several pages may watch one engine). */
  private readonly pageEvents = new Set<EngineEvent[]>();

  /**
   * A host over `options.data` (or memory). With a data directory that already holds a cluster,
   * the brokers restart on it: znodes, recovered logs and checkpoints (readStoredCluster).
   */
  static async open(options: NodeHostOptions): Promise<NodeHost> {
    const store = options.data ? new FileStore(options.data) : new MemoryStore();
    const clock = new ManualClock(SCENARIO_EPOCH_MS);
    // Files: appends written through to the page cache at once, fsynced on flush (Kafka's way).
    const writer = new StoreWriter(store, { writeThrough: options.data !== undefined });
    // A directory that holds a cluster restarts it (readStoredCluster lists it once); an empty one starts afresh.
    const found = options.data ? await readStoredCluster(store, { clock, writer }) : null;
    const stored = found && (found.znodes.length > 0 || found.logs.size > 0) ? found : null;
    return new NodeHost(options, store, clock, writer, stored);
  }

  /**
   * Engine time starts at the page's epoch (SCENARIO_EPOCH_MS), so the page's clock reads the time
   * since the brokers started; clients' CreateTime timestamps stay their own (FIDELITY.md).
   */
  constructor(
    private readonly options: NodeHostOptions,
    store: Store = new MemoryStore(),
    clock = new ManualClock(SCENARIO_EPOCH_MS),
    writer = new StoreWriter(store),
    stored: StoredCluster | null = null,
  ) {
    this.store = store;
    this.writer = writer;
    this.clock = clock;
    this.apps = new ClusterApps(options.seed ?? 1, 'node', {
      store,
      writer,
      clock,
      panelProducer: true,
      // Kafka's topic defaults (1 GiB segments), not the page's small ones: real clients, real sizes.
      deployment: {
        racks: Array.from({ length: options.brokers }, () => null),
        topicDefaults: {},
        ...(options.brokerConfig ? { brokerConfig: options.brokerConfig } : {}),
      },
      ...(stored && stored.znodes.length > 0 ? { restart: { stored, actions: [] } } : {}),
      ...(stored && stored.znodes.length === 0 ? { recoveredLogs: stored.logs } : {}),
    });
    const portOf = (id: number) => options.port + id - 1;
    this.gateway = new WireGateway(
      this.engine,
      (id) => ({ host: options.host, port: portOf(id) }),
      (node, clientId) => this.apps.nameClient(node, clientId),
      () => this.writer.whenDurable(this.writer.operationsIssued),
    );
    this.listeners = new BrokerListeners(this.gateway, { host: options.host, portOf });
  }

  /** Whether the engine's files outlive the process (`--data`). */
  get durable(): boolean {
    return this.options.data !== undefined;
  }

  get engine(): ClusterApps['engine'] {
    return this.apps.engine;
  }

  /** Starts the brokers, waits for a controller, creates the topics and opens the listeners. */
  async start(): Promise<void> {
    const now = this.options.now ?? (() => performance.now());
    // Let the brokers register and elect a controller before topics are created.
    for (let i = 0; i < 100 && this.engine.controllerState().id === null; i++) this.tick(10);
    const existing = new Set(this.engine.topicNames());
    for (const t of this.options.topics ?? []) {
      // A restart on a data directory finds its topics already there.
      if (existing.has(t.name)) continue;
      this.engine.createTopic({ name: t.name, partitions: t.partitions, replicationFactor: t.replicationFactor });
    }
    this.tick(100);
    await this.syncListeners();
    this.last = now();
    this.timer = setInterval(() => {
      const t = now();
      const elapsed = Math.max(0, Math.round(t - this.last));
      if (elapsed > 0) {
        this.last += elapsed;
        this.tick(elapsed);
      }
      this.syncing = this.syncing.then(() => this.syncListeners());
    }, this.options.tickEveryMs ?? 5);
  }

  /**
   * A page starts watching: the animated events from now on are kept for it (`take` drains them).
   * `stop` forgets the page.
   */
  watch(): { take: () => EngineEvent[]; stop: () => void } {
    let queue: EngineEvent[] = [];
    this.pageEvents.add(queue);
    return {
      take: () => {
        this.fanOut();
        const out = queue.splice(0);
        return out;
      },
      stop: () => {
        this.pageEvents.delete(queue);
        queue = [];
      },
    };
  }

  /**
   * Stops like `kafka-server-stop.sh` on every broker: listeners close, each broker shuts down in
   * a controlled way (its logs flushed, checkpoints and producer snapshots written), and every
   * write handed to the store is on disk before this returns.
   */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.syncing;
    await this.listeners.closeAll();
    this.apps.producer.close();
    this.apps.panel?.close();
    const running = () => [...this.engine.cluster.brokers.values()].filter((b) => b.state !== 'down');
    for (const b of running()) if (b.state === 'running') this.engine.stopBroker(b.id);
    // Controlled shutdowns take a few controller round trips (engine time, not wall time).
    for (let i = 0; i < 600 && running().length > 0; i++) this.engine.tick(100);
    await this.writer.settled();
    if (this.store instanceof FileStore) await this.store.close();
  }

  /** Engine time passes through the app layer (its views' version moves), then reaches the pages' queues. */
  private tick(ms: number): void {
    this.apps.tick(ms);
    this.fanOut();
  }

  /** Hands the board's animated events (also those a page's action caused) to every watching page. */
  private fanOut(): void {
    const events = this.apps.takeEvents();
    if (events.length === 0) return;
    for (const q of this.pageEvents) {
      q.push(...events);
      if (q.length > MAX_PAGE_EVENTS) q.splice(0, q.length - MAX_PAGE_EVENTS);
    }
  }

  /**
   * A listener per broker that runs and is registered: a killed broker's port refuses, and a
   * restarted one listens again once it has registered in ZooKeeper, as Kafka's SocketServer
   * starts accepting only when the broker's start-up is done.
   */
  private syncListeners(): Promise<void> {
    // brokerEpoch is -1 from a (re)start until this incarnation's registration znode is written.
    const running = [...this.engine.cluster.brokers.values()]
      .filter((b) => b.state === 'running' && b.brokerEpoch >= 0)
      .map((b) => b.id);
    return this.listeners.sync(running);
  }
}
