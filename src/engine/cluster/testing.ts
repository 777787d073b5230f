import { ManualClock } from '../Clock';
import { isKafkaError } from '../errors';
import { Engine, type EngineEvent } from '../engine';
import { MapStore, makeBatch as makeRecordBatch } from '../log/testSupport';
import type { BrokerConfigInput } from './BrokerConfig';
import { Cluster } from './Cluster';
import type { ClusterEvent } from './events';
import type { KafkaRequest, KafkaResponse } from './requests';

/**
 * Test helpers for cluster tests: a raw batch builder and a bare client node that sends
 * requests over the simulated network and keeps what comes back.
 */
export function makeBatch(
  values: string[],
  options: {
    producerId?: number;
    producerEpoch?: number;
    baseSequence?: number;
    timestamp?: number;
    /** Every record's key: 'value' keys each by its own value (for compaction); absent, null keys. */
    key?: 'value' | Uint8Array;
  } = {},
): Uint8Array {
  const ts = options.timestamp ?? 0;
  const key = options.key;
  return makeRecordBatch(
    values.map((value) => ({ value, key: key === 'value' ? value : (key ?? null), timestamp: ts })),
    {
      baseTimestamp: ts,
      producerId: options.producerId,
      producerEpoch: options.producerEpoch,
      baseSequence: options.baseSequence,
    },
  );
}

/** The Kafka error code `fn` throws (any other throw as text), or undefined when it returns. */
export function errorCodeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (e) {
    return isKafkaError(e) ? e.code : String(e);
  }
  return undefined;
}

/**
 * Topic `t` (or `name`): one partition on brokers 1..replicationFactor in that order
 * (fixedStartIndex 0) with min.insync.replicas=2, ticked until its leader has taken over.
 */
export function createMinIsrTopic(
  cluster: Cluster,
  options: { name?: string; replicationFactor?: number; tickMs?: number } = {},
): void {
  cluster.createTopic({
    name: options.name ?? 't',
    partitions: 1,
    replicationFactor: options.replicationFactor ?? 3,
    fixedStartIndex: 0,
    configs: { 'min.insync.replicas': 2 },
  });
  cluster.tick(options.tickMs ?? 300);
}

/**
 * Broker settings that let a failure show within a few ticks: 1 s ZooKeeper sessions and ISR lag,
 * 50 ms fetch waits, and no preferred-leader rebalance moving leaders behind a test's back.
 */
export const QUICK_FAILOVER_CONFIG: BrokerConfigInput = {
  'zookeeper.session.timeout.ms': 1000,
  'replica.lag.time.max.ms': 1000,
  'replica.fetch.wait.max.ms': 50,
  'auto.leader.rebalance.enable': false,
};

/** A cluster on a ManualClock at 0 with brokers 1..`brokers` registered (200 ms), recording its events. */
export function startCluster(seed: number, brokers: number, brokerConfig: BrokerConfigInput) {
  const events: ClusterEvent[] = [];
  const cluster = new Cluster({ clock: new ManualClock(0), seed, emit: (e) => events.push(e), brokerConfig });
  for (let id = 1; id <= brokers; id++) cluster.addBroker({ id });
  cluster.tick(200);
  return { cluster, events };
}

/** A Fetch of one partition from `fetchOffset`, no leader epochs: a consumer's (replicaId -1) or a follower's. */
export function fetchRequest(
  topic: string,
  partition: number,
  o: { replicaId: number; maxWaitMs: number; fetchOffset?: number },
): KafkaRequest {
  return {
    api: 'Fetch',
    replicaId: o.replicaId,
    maxWaitMs: o.maxWaitMs,
    minBytes: 1,
    maxBytes: 1 << 20,
    isolationLevel: 0,
    topics: [
      {
        topic,
        partitions: [
          {
            partition,
            currentLeaderEpoch: -1,
            fetchOffset: o.fetchOffset ?? 0,
            lastFetchedEpoch: -1,
            logStartOffset: 0,
            partitionMaxBytes: 1 << 20,
          },
        ],
      },
    ],
  };
}

export class TestClient {
  readonly responses = new Map<number, KafkaResponse>();
  readonly disconnects: number[] = [];

  constructor(
    private readonly cluster: Cluster,
    readonly node = 'test-client',
  ) {
    cluster.network.attach(node, {
      onResponse: (m) => this.responses.set(m.correlationId, m.body),
      onDisconnect: (_peer, cid) => this.disconnects.push(cid),
    });
  }

  send(broker: number, request: KafkaRequest): number {
    return this.cluster.network.send(this.node, `broker-${broker}`, request);
  }

  /** Sends and ticks until the response arrives (or `maxMs` passes). */
  call<R extends KafkaResponse>(broker: number, request: KafkaRequest, maxMs = 60_000): R | undefined {
    const cid = this.send(broker, request);
    for (let waited = 0; waited < maxMs && !this.responses.has(cid); waited += 1) this.cluster.tick(1);
    return this.responses.get(cid) as R | undefined;
  }

  produce(
    broker: number,
    topic: string,
    partition: number,
    records: Uint8Array,
    acks: 0 | 1 | -1 = -1,
    timeoutMs = 30_000,
  ) {
    return this.call<Extract<KafkaResponse, { api: 'Produce' }>>(broker, {
      api: 'Produce',
      transactionalId: null,
      acks,
      timeoutMs,
      topicData: [{ topic, partitions: [{ partition, records }] }],
    })?.responses[0]?.partitions[0];
  }
}

/**
 * An Engine (the facade) of `brokers` brokers at engine time 100 ms, every event kept, with topic
 * `t` created on `assignment` (when given) and its leaders elected.
 */
export function engineWithTopic(brokers: number, assignment: number[][] | null, seed: number) {
  const events: EngineEvent[] = [];
  const e = new Engine({
    seed,
    store: new MapStore(),
    clock: new ManualClock(0),
    brokerConfig: { 'zookeeper.session.timeout.ms': 6000, 'replica.lag.time.max.ms': 10_000 },
    brokers: Array.from({ length: brokers }, (_, i) => ({ id: i + 1 })),
  });
  e.subscribe((ev) => events.push(ev));
  e.tick(100);
  if (assignment) {
    e.createTopic({ name: 't', assignment });
    e.tick(300);
  }
  return { e, events };
}
