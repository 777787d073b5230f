/**
 * The engine hosted in a Node process on wall-clock time: brokers listen on localhost ports and
 * speak Kafka's wire protocol (WireGateway), so real clients (kcat, librdkafka, kafkajs) talk
 * to the same engine the page runs. Time: the engine's ManualClock advances by the wall clock's
 * elapsed milliseconds on every turn of the loop (the engine itself never reads a clock).
 */
import {
  Engine,
  type EngineOptions,
  ManualClock,
  readStoredCluster,
  type Store,
  type StoredCluster,
  StoreWriter,
} from '../engine/index';
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

export class NodeHost {
  readonly engine: Engine;
  readonly gateway: WireGateway;
  readonly listeners: BrokerListeners;
  readonly store: Store;
  private readonly writer: StoreWriter;
  private timer: ReturnType<typeof setInterval> | null = null;
  private last = 0;
  private syncing: Promise<void> = Promise.resolve();

  /**
   * A host over `options.data` (or memory). With a data directory that already holds a cluster,
   * the brokers restart on it: znodes, recovered logs and checkpoints (readStoredCluster).
   */
  static async open(options: NodeHostOptions): Promise<NodeHost> {
    const store = options.data ? new FileStore(options.data) : new MemoryStore();
    // Engine time starts at the wall clock, so record timestamps from real clients and the
    // brokers' own (retention, LogAppendTime) are on one time line.
    const clock = new ManualClock(Date.now());
    const writer = new StoreWriter(store);
    const stored = (await store.list('')).length > 0 ? await readStoredCluster(store, { clock, writer }) : null;
    return new NodeHost(options, store, clock, writer, stored);
  }

  constructor(
    private readonly options: NodeHostOptions,
    store: Store = new MemoryStore(),
    clock = new ManualClock(0),
    writer = new StoreWriter(store),
    stored: StoredCluster | null = null,
  ) {
    this.store = store;
    this.writer = writer;
    this.engine = new Engine({
      seed: options.seed ?? 1,
      store,
      writer,
      clock,
      brokers: Array.from({ length: options.brokers }, (_, i) => ({ id: i + 1 })),
      ...(options.brokerConfig ? { brokerConfig: options.brokerConfig } : {}),
      ...(stored ? { stored } : {}),
    });
    const portOf = (id: number) => options.port + id - 1;
    this.gateway = new WireGateway(this.engine, (id) => ({ host: options.host, port: portOf(id) }));
    this.listeners = new BrokerListeners(this.gateway, { host: options.host, portOf });
  }

  /** Starts the brokers, waits for a controller, creates the topics and opens the listeners. */
  async start(): Promise<void> {
    const now = this.options.now ?? (() => performance.now());
    // Let the brokers register and elect a controller before topics are created.
    for (let i = 0; i < 100 && this.engine.controllerState().id === null; i++) this.engine.tick(10);
    const existing = new Set(this.engine.topicNames());
    for (const t of this.options.topics ?? []) {
      // A restart on a data directory finds its topics already there.
      if (existing.has(t.name)) continue;
      this.engine.createTopic({ name: t.name, partitions: t.partitions, replicationFactor: t.replicationFactor });
    }
    this.engine.tick(100);
    await this.syncListeners();
    this.last = now();
    this.timer = setInterval(() => {
      const t = now();
      const elapsed = Math.max(0, Math.round(t - this.last));
      if (elapsed > 0) {
        this.last += elapsed;
        this.engine.tick(elapsed);
      }
      this.syncing = this.syncing.then(() => this.syncListeners());
    }, this.options.tickEveryMs ?? 5);
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
    const running = () => [...this.engine.cluster.brokers.values()].filter((b) => b.state !== 'down');
    for (const b of running()) if (b.state === 'running') this.engine.stopBroker(b.id);
    // Controlled shutdowns take a few controller round trips (engine time, not wall time).
    for (let i = 0; i < 600 && running().length > 0; i++) this.engine.tick(100);
    await this.writer.settled();
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
