import { ManualClock } from '../Clock';
import { CoordinationStore } from '../cluster/CoordinationStore';
import { Network, type NetworkEvent } from '../cluster/Network';
import { Scheduler } from '../cluster/Scheduler';
import type { KafkaError } from '../errors';
import { Rng } from '../Rng';
import type { GroupCoordinatorConfig } from '../clients/consumer/ConsumerConfig';
import { GroupDriver } from './GroupDriver';
import { ConsumerGroups } from './ConsumerGroups';
import type { GroupEvent } from '../clients/consumer/groupEvents';
import { InMemoryBrokers } from './InMemoryBrokers';
import { InMemoryClusterPort } from './InMemoryClusterPort';

/**
 * A small world for tests and benchmarks of consumer groups: a manual clock, the scheduler, an
 * in-memory cluster of brokers 1..n (their nodes on a Network, `InMemoryBrokers`), the group
 * machinery, and every event kept in order.
 * `pollEvery` plays an application that calls poll() in a loop and processes what it gets.
 */
export class GroupTestBed extends GroupDriver {
  readonly clock = new ManualClock(1_700_000_000_000);
  readonly scheduler = new Scheduler(this.clock);
  readonly port: InMemoryClusterPort;
  readonly groups: ConsumerGroups;
  /** The network between the consumers and the in-memory brokers. */
  readonly network: Network;
  readonly networkEvents: NetworkEvent[] = [];
  readonly brokers: InMemoryBrokers;
  /** A coordination store mirroring /brokers/ids and /brokers/topics, for legacy consumers. */
  readonly zk: CoordinationStore;
  readonly zkEvents: unknown[] = [];
  readonly events: GroupEvent[] = [];
  /** Errors poll() threw inside pollEvery loops (the loop stops, as an application would). */
  readonly pollErrors: KafkaError[] = [];

  constructor(
    options: {
      brokers?: number[];
      seed?: number;
      coordinatorConfig?: Partial<GroupCoordinatorConfig>;
      keepEvents?: boolean;
    } = {},
  ) {
    super();
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
    this.network = new Network(this.scheduler, (e) => {
      if (keep) this.networkEvents.push(e);
    });
    this.groups = new ConsumerGroups({
      network: this.network,
      scheduler: this.scheduler,
      port: this.port,
      rng: new Rng(options.seed ?? 42),
      emit: (e) => {
        if (keep) this.events.push(e);
      },
      coordinatorConfig: options.coordinatorConfig ?? {},
      zk: this.zk,
    });
    this.brokers = new InMemoryBrokers(this.scheduler, this.network, this.port, () => this.groups);
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

  run(ms: number): void {
    this.scheduler.runUntil(this.clock.now() + ms);
  }

  protected get loopScheduler(): Scheduler {
    return this.scheduler;
  }

  protected get eventLog(): readonly GroupEvent[] {
    return this.events;
  }

  protected override keepPollError(e: KafkaError): boolean {
    this.pollErrors.push(e);
    return true;
  }
}
