import type { BrokerServices } from './BrokerServices';
import type { ResponseMessage } from './Network';
import { ReplicaFetcher } from './ReplicaFetcher';
import { tpKey } from '../TopicPartition';
import type { ReplicaManager } from './ReplicaManager';

/**
 * A broker's replica fetchers (Kafka's kafka.server.ReplicaFetcherManager over
 * AbstractFetcherManager): one ReplicaFetcher per leader this broker follows, each fetching
 * every partition it follows from that leader. A partition is fetched by at most one fetcher:
 * adding it removes it from any other first.
 */
export class ReplicaFetcherManager {
  private readonly fetchers = new Map<number, ReplicaFetcher>();

  constructor(
    private readonly brokerId: number,
    private readonly services: BrokerServices,
    private readonly replicaManager: ReplicaManager,
  ) {}

  /** Starts following `leader` for the partition (the fetcher to that leader is made if need be). */
  addFetcherForPartition(topic: string, partition: number, leader: number): void {
    this.removeFetcherForPartition(topic, partition);
    const p = this.replicaManager.partitions.get(tpKey(topic, partition));
    if (!p) return;
    let f = this.fetchers.get(leader);
    if (!f) {
      f = new ReplicaFetcher(this.brokerId, leader, this.services, this.replicaManager);
      this.fetchers.set(leader, f);
    }
    f.addPartition(p);
  }

  removeFetcherForPartition(topic: string, partition: number): void {
    for (const f of this.fetchers.values()) f.removePartition(topic, partition);
  }

  /** The process died: every fetcher stops and its request in flight is abandoned. */
  shutdown(): void {
    for (const f of this.fetchers.values()) f.shutdown();
    this.fetchers.clear();
  }

  /** A Fetch or OffsetsForLeaderEpoch response from a leader, for the fetcher that asked. */
  onResponse(message: ResponseMessage): void {
    const leader = Number(message.from.slice('broker-'.length));
    this.fetchers.get(leader)?.onResponse(message);
  }

  onDisconnect(correlationId: number): void {
    for (const f of this.fetchers.values()) f.onDisconnect(correlationId);
  }
}
