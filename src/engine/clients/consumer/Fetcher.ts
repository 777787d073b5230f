import type { PortRecord } from './ClusterPort';
import type { ConsumerContext } from './ConsumerCoordinator';
import type { ConsumerFetchResponse } from './fetchProtocol';
import type { LeaderAndEpoch, SubscriptionState } from './SubscriptionState';
import { tpString } from './SubscriptionState';

/** A fetched run of records for one partition, waiting for poll() to hand it out. */
export interface CompletedFetch {
  topic: string;
  partition: number;
  /** The position the fetch was sent for; stale if the position moved since (seek, rebalance). */
  fetchOffset: number;
  records: PortRecord[];
  highWatermark: number;
}

/**
 * Partition errors after which the consumer's idea of the leader is stale (Kafka refreshes metadata).
 * Not UNKNOWN_LEADER_EPOCH: the leader is behind the consumer's epoch and will catch up, so 3.9's
 * FetchCollector.handleInitializeErrors only logs it and fetches from the same leader again.
 */
const STALE_METADATA_ERRORS = new Set([
  'NOT_LEADER_OR_FOLLOWER',
  'UNKNOWN_TOPIC_OR_PARTITION',
  'FENCED_LEADER_EPOCH',
  'LEADER_NOT_AVAILABLE',
  'KAFKA_STORAGE_ERROR',
  'REPLICA_NOT_AVAILABLE',
]);

/**
 * Fetching (clients/.../consumer/internals/Fetcher and AbstractFetch): one Fetch request per
 * leader at a time, for the assigned partitions that have a position and no buffered data.
 * Leaders come from the consumer's metadata (ConsumerMetadata): what it last learned, kept until
 * a fetch fails with NOT_LEADER_OR_FOLLOWER (or a disconnect or timeout) or metadata.max.age.ms
 * passes; then it asks again, so after a leader moves the next fetch goes to the new one.
 * The leader answers with records below its high watermark, holding the request up to
 * fetch.max.wait.ms until fetch.min.bytes are there. Responses are buffered; poll() drains at
 * most max.poll.records from them.
 */
export class Fetcher {
  private readonly inFlight = new Set<number>();
  /** ConsumerMetadata: partition -> leader and its epoch as last learned. */
  private readonly leaders = new Map<string, LeaderAndEpoch>();
  private metadataUpdateRequested = false;
  private lastMetadataRefreshMs = -Infinity;
  readonly completed: CompletedFetch[] = [];
  /** Partition errors a poll() must surface or act on (OFFSET_OUT_OF_RANGE -> reset). */
  readonly outOfRange = new Set<string>();

  constructor(
    private readonly ctx: ConsumerContext,
    private readonly subscriptions: SubscriptionState,
  ) {}

  /** The leader this consumer believes a partition has (refreshing its metadata when stale). */
  leaderFor(topic: string, partition: number): number | null {
    return this.currentLeader(topic, partition).leader;
  }

  /** Metadata.currentLeader: the leader and the epoch the metadata gave with it (null: unknown). */
  currentLeader(topic: string, partition: number): LeaderAndEpoch {
    const now = this.ctx.scheduler.now();
    if (this.metadataUpdateRequested || now - this.lastMetadataRefreshMs >= this.ctx.config['metadata.max.age.ms']) {
      this.metadataUpdateRequested = false;
      this.lastMetadataRefreshMs = now;
      this.leaders.clear();
    }
    const key = tpString({ topic, partition });
    const known = this.leaders.get(key);
    if (known !== undefined) return known;
    const leader = this.ctx.port.leaderOf(topic, partition);
    if (leader === null) return { leader: null, epoch: null };
    const learned = { leader, epoch: this.ctx.port.leaderEpochOf?.(topic, partition) ?? null };
    this.leaders.set(key, learned);
    return learned;
  }

  /** Metadata.requestUpdate: the next lookup asks the cluster again. */
  requestMetadataUpdate(): void {
    this.metadataUpdateRequested = true;
  }

  private hasBuffered(key: string): boolean {
    return this.completed.some((c) => tpString(c) === key);
  }

  /** Sends a Fetch to every leader that has fetchable partitions and nothing in flight. */
  sendFetches(): void {
    const byLeader = new Map<
      number,
      { topic: string; partition: number; currentLeaderEpoch: number; fetchOffset: number; partitionMaxBytes: number }[]
    >();
    for (const s of this.subscriptions.states()) {
      // A position awaiting validation (or a reset) is not fetched from: it may be past a truncation.
      if (s.position === null || !this.subscriptions.hasValidPosition(s) || this.hasBuffered(tpString(s))) continue;
      const leader = this.leaderFor(s.topic, s.partition);
      if (leader === null || this.inFlight.has(leader)) continue;
      const list = byLeader.get(leader) ?? [];
      list.push({
        topic: s.topic,
        partition: s.partition,
        // The epoch the position was validated under (FetchPosition.currentLeader): a stale one is fenced.
        currentLeaderEpoch: s.currentLeader.epoch ?? -1,
        fetchOffset: s.position,
        partitionMaxBytes: this.ctx.config['max.partition.fetch.bytes'],
      });
      byLeader.set(leader, list);
    }
    for (const [leader, partitions] of byLeader) {
      this.inFlight.add(leader);
      this.ctx.network.send(
        this.ctx.clientId,
        leader,
        {
          api: 'Fetch',
          maxWaitMs: this.ctx.config['fetch.max.wait.ms'],
          minBytes: this.ctx.config['fetch.min.bytes'],
          maxBytes: this.ctx.config['fetch.max.bytes'],
          partitions,
        },
        (r) => {
          this.inFlight.delete(leader);
          if (r?.api !== 'Fetch') {
            // Disconnected or timed out: the leader may have moved.
            this.requestMetadataUpdate();
            return;
          }
          this.onFetchResponse(r as ConsumerFetchResponse, partitions);
        },
      );
    }
  }

  private onFetchResponse(
    r: ConsumerFetchResponse,
    sent: { topic: string; partition: number; fetchOffset: number }[],
  ): void {
    for (const p of r.partitions) {
      const s = this.subscriptions.state(p);
      const req = sent.find((x) => x.topic === p.topic && x.partition === p.partition);
      // Dropped: the partition was revoked or seeked while the fetch was in flight, or its position
      // now awaits validation (the records may be from a log that has since been truncated).
      if (!s || !req || s.position !== req.fetchOffset || !this.subscriptions.hasValidPosition(s)) continue;
      if (p.errorCode === 'OFFSET_OUT_OF_RANGE') {
        this.outOfRange.add(tpString(p));
        continue;
      }
      if (p.errorCode !== 'NONE') {
        if (STALE_METADATA_ERRORS.has(p.errorCode)) this.requestMetadataUpdate();
        continue;
      }
      s.highWatermark = p.highWatermark;
      if (p.records.length > 0) {
        this.completed.push({
          topic: p.topic,
          partition: p.partition,
          fetchOffset: req.fetchOffset,
          records: p.records,
          highWatermark: p.highWatermark,
        });
      }
    }
  }

  /** Forgets buffered data of a partition (seek, revoke). */
  clear(topic: string, partition: number): void {
    const key = tpString({ topic, partition });
    for (let i = this.completed.length - 1; i >= 0; i--) {
      if (tpString(this.completed[i] as CompletedFetch) === key) this.completed.splice(i, 1);
    }
    this.outOfRange.delete(key);
  }
}
