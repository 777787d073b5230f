/**
 * The producer's cached view of the cluster (Kafka's ProducerMetadata / Cluster): for each topic
 * the partitions, their leader and leader epoch, refreshed by Metadata requests. A refresh is
 * asked for (`requestUpdate`) when a response says the leader moved or is unknown, and happens
 * anyway every `metadata.max.age.ms`.
 *
 * A partition entry is never replaced by one with an older leader epoch (KIP-320): a broker that
 * has not yet heard of an election must not send the producer back to the deposed leader.
 *
 * Refreshes back off as Kafka 3.9's Metadata does (KIP-580): after a failed request by
 * `retry.backoff.ms` doubling up to `retry.backoff.max.ms` per failed attempt, and likewise per
 * response in a row that taught nothing new (no new partition, no newer leader epoch; Metadata's
 * equivalentResponseCount), so a producer waiting for an election asks ever more slowly. Each
 * wait has +/-20 % jitter from the seeded Rng. New topics are asked about at once.
 */
import type { MetadataResponse } from '../cluster/requests';
import { ExponentialBackoff, RETRY_BACKOFF_EXP_BASE, RETRY_BACKOFF_JITTER } from '../ExponentialBackoff';
import { Rng } from '../Rng';
import type { TopicPartitionsView } from './Partitioner';

export interface PartitionMetadata {
  partition: number;
  /** Broker id of the leader, or -1 when the partition has no leader. */
  leaderId: number;
  leaderEpoch: number;
}

export interface TopicMetadata {
  topic: string;
  partitions: PartitionMetadata[];
}

export interface MetadataRefreshOptions {
  retryBackoffMs: number;
  retryBackoffMaxMs: number;
  metadataMaxAgeMs: number;
  /** Draws the refresh backoff's jitter. */
  rng: Rng;
}

export class ProducerMetadata {
  private readonly topics = new Map<string, TopicMetadata>();
  private brokerIds: number[];
  needUpdate = true;
  /** When the last response or failure came (Metadata.lastRefreshMs): the refresh backoff counts from here. */
  private lastRefreshMs = Number.NEGATIVE_INFINITY;
  /** When the last response came: metadata.max.age.ms counts from here. */
  lastSuccessfulRefreshMs = Number.NEGATIVE_INFINITY;
  /** Failed refreshes since the last response. */
  private attempts = 0;
  /** Responses in a row that changed no partition's leader epoch. */
  private equivalentResponseCount = 0;
  private readonly refreshBackoff: ExponentialBackoff;
  private readonly metadataMaxAgeMs: number;
  /** How many responses have been applied: a version for the UI and for waiting callers. */
  version = 0;

  constructor(
    bootstrapBrokers: readonly number[],
    options: MetadataRefreshOptions = {
      retryBackoffMs: 100,
      retryBackoffMaxMs: 1000,
      metadataMaxAgeMs: 300000,
      rng: new Rng(0),
    },
  ) {
    this.brokerIds = [...bootstrapBrokers];
    this.refreshBackoff = new ExponentialBackoff(
      options.retryBackoffMs,
      RETRY_BACKOFF_EXP_BASE,
      options.retryBackoffMaxMs,
      RETRY_BACKOFF_JITTER,
      options.rng,
    );
    this.metadataMaxAgeMs = options.metadataMaxAgeMs;
  }

  get brokers(): readonly number[] {
    return this.brokerIds;
  }

  requestUpdate(): void {
    this.needUpdate = true;
  }

  /** A topic never asked about before: fetch at once, skipping the refresh backoff (requestUpdateForNewTopics). */
  requestUpdateForNewTopics(): void {
    this.needUpdate = true;
    this.lastRefreshMs = Number.NEGATIVE_INFINITY;
    this.equivalentResponseCount = 0;
  }

  /** A Metadata request failed or came back without brokers (failedUpdate): the next waits longer. */
  failedUpdate(now: number): void {
    this.lastRefreshMs = now;
    this.attempts++;
    this.equivalentResponseCount = 0;
  }

  /**
   * When a refresh may go out (Metadata.timeToAllowUpdate, as an absolute time): the backoff for
   * failed attempts and the one for equivalent responses, whichever ends later. A periodic
   * refresh (metadata.max.age.ms) starts the equivalent-response count again.
   */
  private allowUpdateAtMs(now: number): number {
    const forAttempts = this.lastRefreshMs + this.refreshBackoff.backoff(this.attempts > 0 ? this.attempts - 1 : 0);
    if (now >= this.lastSuccessfulRefreshMs + this.metadataMaxAgeMs) this.equivalentResponseCount = 0;
    const forEquivalent =
      this.lastRefreshMs +
      (this.equivalentResponseCount > 0 ? this.refreshBackoff.backoff(this.equivalentResponseCount - 1) : 0);
    return Math.max(forAttempts, forEquivalent);
  }

  /**
   * When a refresh is due, as an absolute time (-Infinity: now), so a wake-up at it finds it due
   * (Metadata.timeToNextUpdate): asked for or expired, and past the backoff.
   */
  nextUpdateMs(now: number): number {
    const expiresAt = this.needUpdate ? Number.NEGATIVE_INFINITY : this.lastSuccessfulRefreshMs + this.metadataMaxAgeMs;
    return Math.max(expiresAt, this.allowUpdateAtMs(now));
  }

  /** Applies a Metadata response; returns the partitions whose leader changed. */
  update(response: MetadataResponse, now: number): { topic: string; partition: number; from: number; to: number }[] {
    const changed: { topic: string; partition: number; from: number; to: number }[] = [];
    // Counted as equivalent until a partition shows something new (updateLatestMetadata).
    this.equivalentResponseCount++;
    if (response.brokers.length > 0) {
      const ids = response.brokers.map((b) => b.nodeId).sort((a, b) => a - b);
      // Keep bootstrap brokers we may still need to reach; add the ones we learn about.
      this.brokerIds = [...new Set([...ids, ...this.brokerIds])].sort((a, b) => a - b);
    }
    for (const t of response.topics) {
      // UNKNOWN_TOPIC_OR_PARTITION for a topic we know comes from a broker that is behind (it
      // just restarted): keep what we know. Records for a topic nobody knows keep waiting.
      if (t.errorCode !== 'NONE') continue;
      const previous = this.topics.get(t.name);
      const parts: PartitionMetadata[] = [];
      for (const p of [...t.partitions].sort((a, b) => a.partitionIndex - b.partitionIndex)) {
        const old = previous?.partitions[p.partitionIndex];
        let next: PartitionMetadata = { partition: p.partitionIndex, leaderId: p.leaderId, leaderEpoch: p.leaderEpoch };
        if (old && old.leaderEpoch > p.leaderEpoch) next = old; // stale broker: keep what we know
        // A new partition, a newer epoch or none known: this response made progress.
        if (!old || p.leaderEpoch < 0 || p.leaderEpoch > old.leaderEpoch) this.equivalentResponseCount = 0;
        if (old && old.leaderId !== next.leaderId) {
          changed.push({ topic: t.name, partition: next.partition, from: old.leaderId, to: next.leaderId });
        }
        parts.push(next);
      }
      this.topics.set(t.name, { topic: t.name, partitions: parts });
    }
    this.views.clear();
    this.needUpdate = false;
    this.lastRefreshMs = now;
    this.lastSuccessfulRefreshMs = now;
    this.attempts = 0;
    this.version++;
    return changed;
  }

  topic(topic: string): TopicMetadata | undefined {
    return this.topics.get(topic);
  }

  private readonly views = new Map<string, TopicPartitionsView>();

  /** The partitioner's view of a topic, or null if the topic is not (yet) known. Cached until the next update. */
  view(topic: string): TopicPartitionsView | null {
    const cached = this.views.get(topic);
    if (cached) return cached;
    const t = this.topics.get(topic);
    if (!t) return null;
    const view: TopicPartitionsView = {
      numPartitions: t.partitions.length,
      availablePartitions: t.partitions.filter((p) => p.leaderId >= 0).map((p) => p.partition),
    };
    this.views.set(topic, view);
    return view;
  }

  /** The leader's broker id, or null if unknown. */
  leaderFor(topic: string, partition: number): number | null {
    const p = this.topics.get(topic)?.partitions[partition];
    return p && p.leaderId >= 0 ? p.leaderId : null;
  }

  /** The partition's leader epoch, or null if the partition is unknown (MetadataSnapshot.leaderEpochFor). */
  leaderEpochFor(topic: string, partition: number): number | null {
    return this.topics.get(topic)?.partitions[partition]?.leaderEpoch ?? null;
  }

  /** Every topic the producer has metadata for (for the next Metadata request). */
  topicNames(): string[] {
    return [...this.topics.keys()];
  }
}
