import { ManualClock } from '../Clock';
import { CoordinationStore } from '../cluster/CoordinationStore';
import { Scheduler } from '../cluster/Scheduler';
import { KafkaError } from '../errors';
import { Rng } from '../Rng';
import type { GroupCoordinatorConfig } from './ConsumerConfig';
import { ConsumerGroups } from './ConsumerGroups';
import type { GroupEvent } from './groupEvents';
import { InMemoryClusterPort } from './InMemoryClusterPort';
import type { ConsumerRecord, KafkaConsumer } from './KafkaConsumer';

/**
 * A small world for tests and benchmarks of consumer groups: a manual clock, the scheduler, an
 * in-memory cluster of brokers 1..n, the group machinery, and every event kept in order.
 * `pollEvery` plays an application that calls poll() in a loop and processes what it gets.
 */
export class GroupTestBed {
  readonly clock = new ManualClock(1_700_000_000_000);
  readonly scheduler = new Scheduler(this.clock);
  readonly port: InMemoryClusterPort;
  readonly groups: ConsumerGroups;
  /** A coordination store mirroring /brokers/ids and /brokers/topics, for legacy consumers. */
  readonly zk: CoordinationStore;
  readonly zkEvents: unknown[] = [];
  readonly events: GroupEvent[] = [];
  /** Errors poll() threw inside pollEvery loops (the loop stops, as an application would). */
  readonly pollErrors: KafkaError[] = [];
  private readonly loops = new Map<string, { stop: boolean }>();

  constructor(
    options: {
      brokers?: number[];
      seed?: number;
      coordinatorConfig?: Partial<GroupCoordinatorConfig>;
      keepEvents?: boolean;
    } = {},
  ) {
    this.port = new InMemoryClusterPort(this.scheduler, options.brokers ?? [1, 2, 3]);
    const keep = options.keepEvents ?? true;
    this.zk = new CoordinationStore(this.scheduler, (e) => {
      if (keep) this.zkEvents.push(e);
    });
    // As the cluster does: expire silent sessions every 100 ms.
    this.scheduler.schedulePeriodic(100, 100, () => this.zk.expireSessions());
    this.zk.createRecursive('/brokers/ids', null);
    this.zk.createRecursive('/brokers/topics', null);
    for (const id of options.brokers ?? [1, 2, 3]) this.zk.create(`/brokers/ids/${id}`, { host: `broker-${id}` });
    this.groups = new ConsumerGroups({
      scheduler: this.scheduler,
      port: this.port,
      rng: new Rng(options.seed ?? 42),
      emit: (e) => {
        if (keep) this.events.push(e);
      },
      coordinatorConfig: options.coordinatorConfig ?? {},
      zk: this.zk,
    });
  }

  /** Creates a topic in the port and its /brokers/topics znode (what the controller reads). */
  createTopic(name: string, partitions: number): void {
    this.port.createTopic(name, partitions, 3);
    this.zk.create(`/brokers/topics/${name}`, {
      version: 2,
      partitions: Object.fromEntries(Array.from({ length: partitions }, (_, i) => [String(i), [1, 2, 3]])),
    });
  }

  now(): number {
    return this.clock.now();
  }

  /** Runs simulated time forward by ms, every due task in order. */
  run(ms: number): void {
    this.scheduler.runUntil(this.clock.now() + ms);
  }

  /** Runs until the predicate holds (checked after each ms), at most maxMs. Returns whether it held. */
  runUntil(pred: () => boolean, maxMs = 120_000, stepMs = 10): boolean {
    for (let t = 0; t <= maxMs; t += stepMs) {
      if (pred()) return true;
      this.run(stepMs);
    }
    return pred();
  }

  consumer(id: string, config: Record<string, unknown>): KafkaConsumer {
    return this.groups.createConsumer(id, { 'client.id': id, ...config });
  }

  /** An application loop: poll every `everyMs`, hand records to `process`. Stop with stopPolling. */
  pollEvery(consumer: KafkaConsumer, everyMs: number, process: (records: ConsumerRecord[]) => void = () => {}): void {
    const loop = { stop: false };
    this.loops.set(consumer.clientId, loop);
    const tick = () => {
      if (loop.stop || consumer.lifecycle !== 'running') return;
      try {
        process(consumer.poll());
      } catch (e) {
        if (!(e instanceof KafkaError)) throw e;
        this.pollErrors.push(e);
        return;
      }
      this.scheduler.schedule(everyMs, tick);
    };
    this.scheduler.schedule(0, tick);
  }

  stopPolling(consumer: KafkaConsumer): void {
    const loop = this.loops.get(consumer.clientId);
    if (loop) loop.stop = true;
  }

  ofType<T extends GroupEvent['type']>(type: T): Extract<GroupEvent, { type: T }>[] {
    return this.events.filter((e): e is Extract<GroupEvent, { type: T }> => e.type === type);
  }
}
