/**
 * Helpers for consumer-group tests that go through the Engine facade: an in-memory Store (the
 * real MemoryStore lives in src/storage, outside the engine), an engine with three brokers and a
 * topic, and a producer that finds the current leader the way a client would.
 */
import { ManualClock } from '../Clock';
import { makeBatch, TestClient } from '../cluster/testing';
import type { EngineCommand } from '../commands';
import { Engine, type EngineEvent, type EngineOptions } from '../engine';
import { OFFSETS_TOPIC } from '../coordinator/group/GroupCoordinator';
import { groupCoordinatorPartition } from '../coordinator/group/groupCoordinatorPartition';
import { GroupDriver, runUntil } from './GroupDriver';
import type { KafkaConsumer } from '../clients/consumer/KafkaConsumer';
import { MapStore } from '../log/testSupport';

/** The log tests' in-memory Store, for the tests that import it from here. */
export { MapStore };

export interface FacadeBed {
  e: Engine;
  events: EngineEvent[];
  /** Appends values to a partition through its current leader (acks=all); returns the base offset. */
  produce(topic: string, partition: number, values: string[]): number;
  /** The broker coordinating a group (leader of its __consumer_offsets partition), or null. */
  coordinatorOf(groupId: string): number | null;
  group(groupId: string): ReturnType<Engine['snapshot']>['consumerGroups']['groups'][number] | undefined;
  logEndOffset(topic: string, partition: number): number;
  /** Ticks the engine `stepMs` at a time until `pred` holds, at most `maxMs` (GroupDriver.runUntil). */
  runUntil(pred: () => boolean, maxMs: number, stepMs: number): boolean;
}

/** Three brokers (racks-free), Kafka's timeouts shortened so failures are noticed quickly. */
export function facadeBed(
  options: { seed?: number; offsetsPartitions?: number; topicPartitions?: number } & Partial<EngineOptions> = {},
): FacadeBed {
  const events: EngineEvent[] = [];
  const { seed = 7, offsetsPartitions = 5, topicPartitions = 4, ...rest } = options;
  const e = new Engine({
    seed,
    store: new MapStore(),
    clock: new ManualClock(0),
    brokerConfig: { 'zookeeper.session.timeout.ms': 6000, 'replica.lag.time.max.ms': 10_000 },
    brokers: [{ id: 1 }, { id: 2 }, { id: 3 }],
    ...rest,
    groupCoordinatorConfig: { 'offsets.topic.num.partitions': offsetsPartitions, ...rest.groupCoordinatorConfig },
  });
  e.subscribe((ev) => events.push(ev));
  e.tick(100);
  e.createTopic({ name: 'orders', partitions: topicPartitions, replicationFactor: 3 });
  e.tick(200);
  const client = new TestClient(e.cluster, 'test-producer');
  const bed: FacadeBed = {
    e,
    events,
    produce(topic, partition, values) {
      for (let attempt = 0; attempt < 200; attempt++) {
        const leader = e.cluster.partitionState(topic, partition)?.leader ?? -1;
        const r = leader >= 0 ? client.produce(leader, topic, partition, makeBatch(values), -1, 5_000) : undefined;
        if (r?.errorCode === 'NONE') return r.baseOffset;
        e.tick(100);
      }
      throw new Error(`could not produce to ${topic}-${partition}`);
    },
    coordinatorOf(groupId) {
      const p = groupCoordinatorPartition(groupId, offsetsPartitions);
      const leader = e.cluster.partitionState(OFFSETS_TOPIC, p)?.leader ?? -1;
      return leader >= 0 ? leader : null;
    },
    group(groupId) {
      return e.snapshot().consumerGroups.groups.find((g) => g.groupId === groupId);
    },
    runUntil(pred, maxMs, stepMs) {
      return runUntil((ms) => e.tick(ms), pred, maxMs, stepMs);
    },
    logEndOffset(topic, partition) {
      const leader = e.cluster.partitionState(topic, partition)?.leader ?? -1;
      const p = e.cluster.brokers.get(leader)?.replicaManager.partitions.get(`${topic}-${partition}`);
      return p?.highWatermark ?? -1;
    },
  };
  return bed;
}

/** A consumer without a group, assigned one partition of the bed's `orders` topic (KafkaConsumer.assign). */
export function assignedConsumer(
  bed: FacadeBed,
  consumerId: string,
  partition: number,
  config: Record<string, unknown>,
): KafkaConsumer {
  const c = bed.e.groups.createConsumer(consumerId, config);
  c.assign([{ topic: 'orders', partition }]);
  return c;
}

/**
 * The GroupTestBed's driving surface over a real engine (brokers, replication, __consumer_offsets),
 * so scenario tests written for the test bed run unchanged end to end through the facade.
 */
export class FacadeWorld extends GroupDriver {
  readonly bed: FacadeBed;

  constructor(topic: string, partitions: number, options: Parameters<typeof facadeBed>[0] = {}) {
    super();
    this.bed = facadeBed(options);
    this.bed.e.createTopic({ name: topic, partitions, replicationFactor: 3 });
    this.bed.e.tick(200);
  }

  get groups() {
    return this.bed.e.groups;
  }

  now(): number {
    return this.bed.e.now();
  }

  run(ms: number): void {
    this.bed.e.tick(ms);
  }

  protected get loopScheduler() {
    return this.bed.e.cluster.scheduler;
  }

  protected get eventLog(): readonly EngineEvent[] {
    return this.bed.events;
  }
}

/** The createConsumer command for a consumer of `groupId` subscribed to `topics`, reading from the earliest offset. */
export function earliestConsumer(
  consumerId: string,
  groupId: string,
  topics: string[],
): EngineCommand<'createConsumer'> {
  return { op: 'createConsumer', consumerId, groupId, topics, config: { 'auto.offset.reset': 'earliest' } };
}
