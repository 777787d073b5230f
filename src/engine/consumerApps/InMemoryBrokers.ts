import type { Network, RequestMessage } from '../cluster/Network';
import {
  brokerNodeId,
  type FetchRequest,
  type FetchResponse,
  type KafkaResponse,
  type ListOffsetsRequest,
  type ListOffsetsResponse,
  type OffsetsForLeaderEpochRequest,
  type OffsetsForLeaderEpochResponse,
} from '../cluster/requests';
import type { Scheduler } from '../cluster/Scheduler';
import { concatBytes } from '../codec/bytes';
import { encodeRecordBatch, NO_PARTITION_LEADER_EPOCH } from '../codec/recordBatch';
import type { PortRecord } from '../clients/consumer/ClusterPort';
import type { ConsumerGroups } from './ConsumerGroups';
import { OFFSETS_TOPIC } from '../coordinator/group/GroupCoordinator';
import { groupCoordinatorPartition } from '../coordinator/group/groupCoordinatorPartition';
import { isGroupMessage } from '../clients/consumer/groupProtocol';
import type { InMemoryClusterPort } from './InMemoryClusterPort';

interface ParkedFetch {
  done: boolean;
  tryComplete(): void;
  abandon(): void;
}

const purgatoryKey = (brokerId: number, topic: string, partition: number) => `${brokerId}|${topic}|${partition}`;

/**
 * Test support: the brokers of the in-memory group test bed, which has no Broker or KafkaApis
 * (InMemoryClusterPort plays the controller and the logs). Each is a `broker-<id>` node on the
 * bed's Network answering what the engine's KafkaApis answers for consumers: FindCoordinator and
 * the group APIs by that broker's GroupCoordinator, Fetch (replicaId -1, held until
 * fetch.min.bytes or fetch.max.wait.ms, as DelayedFetch holds it), ListOffsets and
 * OffsetsForLeaderEpoch from the port. The engine never uses this: its brokers are real.
 */
export class InMemoryBrokers {
  private readonly purgatory = new Map<string, Set<ParkedFetch>>();

  constructor(
    private readonly scheduler: Scheduler,
    private readonly network: Network,
    private readonly port: InMemoryClusterPort,
    private readonly groups: () => ConsumerGroups,
  ) {
    for (const id of port.liveBrokers()) this.up(id);
    port.onBrokerStateChange((id, up) => (up ? this.up(id) : this.down(id)));
    port.onHighWatermarkChange((b, t, p) => {
      for (const parked of [...(this.purgatory.get(purgatoryKey(b, t, p)) ?? [])]) parked.tryComplete();
    });
  }

  private up(brokerId: number): void {
    this.network.attach(brokerNodeId(brokerId), { onRequest: (m) => this.onRequest(brokerId, m) });
  }

  /** The process stopped: its connections reset, its parked fetches die with it. */
  private down(brokerId: number): void {
    for (const [key, set] of [...this.purgatory]) {
      if (!key.startsWith(`${brokerId}|`)) continue;
      for (const parked of set) parked.abandon();
      this.purgatory.delete(key);
    }
    this.network.detach(brokerNodeId(brokerId), true);
  }

  private onRequest(brokerId: number, message: RequestMessage): void {
    const reply = (r: KafkaResponse) => {
      if (this.network.isUp(brokerNodeId(brokerId))) this.network.reply(message, r);
    };
    const body = message.body;
    if (body.api !== 'FindCoordinator' && isGroupMessage(body)) {
      this.groups().coordinatorOn(brokerId).handle(body, reply);
      return;
    }
    switch (body.api) {
      case 'FindCoordinator': {
        const groups = this.groups();
        const partition = groupCoordinatorPartition(body.key, groups.config['offsets.topic.num.partitions']);
        const leader = groups.ensureOffsetsTopic() ? this.port.leaderOf(OFFSETS_TOPIC, partition) : null;
        reply(
          leader === null
            ? { api: 'FindCoordinator', errorCode: 'COORDINATOR_NOT_AVAILABLE', nodeId: -1, partition }
            : { api: 'FindCoordinator', errorCode: 'NONE', nodeId: leader, partition },
        );
        return;
      }
      case 'Fetch':
        this.fetch(brokerId, body, reply);
        return;
      case 'ListOffsets':
        reply(this.listOffsets(brokerId, body));
        return;
      case 'OffsetsForLeaderEpoch':
        reply(this.offsetsForLeaderEpoch(body));
        return;
      default:
        return;
    }
  }

  /** Answers at once when fetch.min.bytes are there (or on an error), else parks until a high watermark moves or maxWaitMs. */
  private fetch(brokerId: number, req: FetchRequest, reply: (r: FetchResponse) => void): void {
    const first = this.readFetch(brokerId, req);
    if (first.done || req.maxWaitMs <= 0) {
      reply(first.response);
      return;
    }
    const keys = req.topics.flatMap((t) => t.partitions.map((p) => purgatoryKey(brokerId, t.topic, p.partition)));
    const finish = (response: FetchResponse) => {
      parked.done = true;
      this.scheduler.cancel(timer);
      for (const k of keys) {
        const set = this.purgatory.get(k);
        set?.delete(parked);
        if (set && set.size === 0) this.purgatory.delete(k);
      }
      reply(response);
    };
    const parked: ParkedFetch = {
      done: false,
      tryComplete: () => {
        if (parked.done) return;
        const again = this.readFetch(brokerId, req);
        if (again.done) finish(again.response);
      },
      abandon: () => {
        parked.done = true;
        this.scheduler.cancel(timer);
      },
    };
    const timer = this.scheduler.schedule(req.maxWaitMs, () => {
      if (!parked.done) finish(this.readFetch(brokerId, req).response);
    });
    for (const k of keys) {
      let set = this.purgatory.get(k);
      if (!set) this.purgatory.set(k, (set = new Set()));
      set.add(parked);
    }
  }

  private readFetch(brokerId: number, req: FetchRequest): { done: boolean; response: FetchResponse } {
    let budget = req.maxBytes;
    let total = 0;
    let anyError = false;
    const responses = req.topics.map((t) => ({
      topic: t.topic,
      partitions: t.partitions.map((p) => {
        const r = this.port.fetch(brokerId, {
          topic: t.topic,
          partition: p.partition,
          fetchOffset: p.fetchOffset,
          maxBytes: Math.min(p.partitionMaxBytes, Math.max(budget, 1)),
          currentLeaderEpoch: p.currentLeaderEpoch,
        });
        const bytes = r.records.reduce((n, x) => n + x.sizeInBytes, 0);
        budget -= bytes;
        total += bytes;
        if (r.errorCode !== 'NONE') anyError = true;
        return {
          partitionIndex: p.partition,
          errorCode: r.errorCode,
          highWatermark: r.highWatermark,
          lastStableOffset: r.highWatermark,
          logStartOffset: r.logStartOffset,
          divergingEpoch: null,
          records: encodeRecords(r.records),
        };
      }),
    }));
    const done = total >= req.minBytes || anyError || !this.port.isBrokerUp(brokerId);
    return { done, response: { api: 'Fetch', throttleTimeMs: 0, errorCode: 'NONE', responses } };
  }

  private listOffsets(brokerId: number, req: ListOffsetsRequest): ListOffsetsResponse {
    return {
      api: 'ListOffsets',
      throttleTimeMs: 0,
      topics: req.topics.map((t) => ({
        name: t.name,
        partitions: t.partitions.map((p) => {
          const r = this.port.listOffsets(brokerId, t.name, p.partitionIndex);
          return {
            partitionIndex: p.partitionIndex,
            errorCode: r.errorCode,
            timestamp: -1,
            offset: p.timestamp === -2 ? r.earliest : r.latest,
            leaderEpoch: -1,
          };
        }),
      })),
    };
  }

  /** This port knows no epochs: -1 / -1 (the consumer never asks it: its positions carry no epoch). */
  private offsetsForLeaderEpoch(req: OffsetsForLeaderEpochRequest): OffsetsForLeaderEpochResponse {
    return {
      api: 'OffsetsForLeaderEpoch',
      throttleTimeMs: 0,
      topics: req.topics.map((t) => ({
        topic: t.topic,
        partitions: t.partitions.map((p) => ({
          errorCode: 'NONE',
          partition: p.partition,
          leaderEpoch: -1,
          endOffset: -1,
        })),
      })),
    };
  }
}

/** Each record as its own batch at its offset (the port keeps records, not batches). */
function encodeRecords(records: readonly PortRecord[]): Uint8Array {
  const batches = records.map((r) =>
    encodeRecordBatch({
      baseOffset: r.offset,
      partitionLeaderEpoch: r.leaderEpoch ?? NO_PARTITION_LEADER_EPOCH,
      attributes: 0,
      lastOffsetDelta: 0,
      baseTimestamp: r.timestamp,
      maxTimestamp: r.timestamp,
      producerId: -1,
      producerEpoch: -1,
      baseSequence: -1,
      records: [{ attributes: 0, timestampDelta: 0, offsetDelta: 0, key: r.key, value: r.value, headers: [] }],
    }),
  );
  return concatBytes(batches);
}
