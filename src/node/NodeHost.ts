/**
 * The engine hosted in a Node process on wall-clock time: brokers listen on localhost ports and
 * speak Kafka's wire protocol (WireGateway), so real clients (kcat, librdkafka, kafkajs) talk
 * to the same engine the page runs. Time: the engine's ManualClock advances by the wall clock's
 * elapsed milliseconds on every turn of the loop (the engine itself never reads a clock).
 */
import { Engine, type EngineOptions, ManualClock } from '../engine/index';
import { MemoryStore } from '../storage/MemoryStore';
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
  /** Broker configs by Kafka's names (zookeeper.session.timeout.ms, replica.lag.time.max.ms, ...). */
  brokerConfig?: EngineOptions['brokerConfig'];
}

export class NodeHost {
  readonly engine: Engine;
  readonly gateway: WireGateway;
  readonly listeners: BrokerListeners;
  private timer: ReturnType<typeof setInterval> | null = null;
  private last = 0;
  private syncing: Promise<void> = Promise.resolve();

  constructor(private readonly options: NodeHostOptions) {
    this.engine = new Engine({
      seed: options.seed ?? 1,
      store: new MemoryStore(),
      clock: new ManualClock(0),
      brokers: Array.from({ length: options.brokers }, (_, i) => ({ id: i + 1 })),
      ...(options.brokerConfig ? { brokerConfig: options.brokerConfig } : {}),
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
    for (const t of this.options.topics ?? []) {
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

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.syncing;
    await this.listeners.closeAll();
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
