/**
 * How a producer picks the partition of a record, with the reasoning kept for the UI.
 *
 * Kafka's rules (clients/.../producer/internals/BuiltInPartitioner.java and the classic
 * DefaultPartitioner before 2.4):
 * - an explicit partition in the record wins;
 * - a keyed record goes to `toPositive(murmur2(keyBytes)) % numPartitions`, whatever the
 *   partitioner, so a key always lands in the same partition while the partition count holds;
 * - a record without a key goes round-robin over the partitions that have a leader (the
 *   classic behaviour the seeds describe: "没有 Key 值则进行轮询发送"), or, since Kafka 2.4
 *   (KIP-480), sticks to one partition until a batch is completed there and then switches.
 *
 * Every choice comes back as a PartitionChoice: the numbers a reader needs to redo it by hand.
 */
import { defaultPartition, murmur2, toPositive } from '../codec/murmur2';
import { KafkaError } from '../errors';
import type { Rng } from '../Rng';
import { RoundRobinPartitioner } from './RoundRobinPartitioner';
import { StickyPartitionCache } from './StickyPartitionCache';

/** The `partitioner` config: what happens to records without a key. */
export type PartitionerStrategy = 'sticky' | 'round-robin';

/** What the partitioner knows about a topic: its partition count and which partitions have a leader. */
export interface TopicPartitionsView {
  numPartitions: number;
  /** Partitions with a known leader, ascending (Kafka's Cluster.availablePartitionsForTopic). */
  availablePartitions: readonly number[];
}

export type PartitionChoice =
  | { strategy: 'explicit'; topic: string; partition: number; numPartitions: number }
  | {
      strategy: 'key-hash';
      topic: string;
      partition: number;
      keyBytes: Uint8Array;
      /** Java's signed int from Utils.murmur2. */
      murmur2: number;
      /** murmur2 & 0x7fffffff (Utils.toPositive). */
      positive: number;
      numPartitions: number;
    }
  | {
      strategy: 'round-robin';
      topic: string;
      partition: number;
      /** The per-topic counter value used for this record (it then increments). */
      counter: number;
      /** The list the counter indexes: available partitions, or all if none is available. */
      candidates: readonly number[];
      numPartitions: number;
    }
  | {
      strategy: 'sticky';
      topic: string;
      partition: number;
      /** The sticky partition before this record; null when the topic had none yet. */
      previous: number | null;
      /** True when this choice moved the topic to a new sticky partition. */
      switched: boolean;
      candidates: readonly number[];
      numPartitions: number;
    };

/** The producer's partitioner: one per producer, holding round-robin counters and sticky state. */
export class Partitioner {
  readonly strategy: PartitionerStrategy;
  private readonly roundRobin = new RoundRobinPartitioner();
  private readonly sticky: StickyPartitionCache;
  /**
   * Explicit choices per topic and partition: a choice is read-only once made, so the events of
   * records sent to the same partition share one object instead of allocating one per record.
   */
  private readonly explicitChoices = new Map<string, PartitionChoice[]>();

  constructor(strategy: PartitionerStrategy, rng: Rng) {
    this.strategy = strategy;
    this.sticky = new StickyPartitionCache(rng);
  }

  /**
   * Chooses the partition of one record. Throws UNKNOWN_TOPIC_OR_PARTITION for an explicit
   * partition outside the topic (Kafka's KafkaProducer.partition check).
   */
  partition(
    topic: string,
    key: Uint8Array | null,
    explicitPartition: number | undefined,
    view: TopicPartitionsView,
  ): PartitionChoice {
    const n = view.numPartitions;
    if (explicitPartition !== undefined) {
      if (!Number.isInteger(explicitPartition) || explicitPartition < 0 || explicitPartition >= n) {
        throw new KafkaError(
          'UNKNOWN_TOPIC_OR_PARTITION',
          `partition ${explicitPartition} is not in the range [0, ${n}) of topic ${topic}`,
          { topic, partition: explicitPartition, numPartitions: n },
        );
      }
      let cached = this.explicitChoices.get(topic);
      if (!cached) this.explicitChoices.set(topic, (cached = []));
      let choice = cached[explicitPartition];
      if (choice === undefined || choice.numPartitions !== n) {
        choice = { strategy: 'explicit', topic, partition: explicitPartition, numPartitions: n };
        cached[explicitPartition] = choice;
      }
      return choice;
    }
    if (key !== null) {
      const hash = murmur2(key);
      const partition = defaultPartition(key, n);
      const choice: PartitionChoice = {
        strategy: 'key-hash',
        topic,
        partition,
        keyBytes: key,
        murmur2: hash,
        positive: toPositive(hash),
        numPartitions: n,
      };
      return choice;
    }
    return this.strategy === 'round-robin'
      ? this.roundRobin.partition(topic, view)
      : this.sticky.partition(topic, view);
  }

  /**
   * Called when the accumulator had to open a new batch for a record the sticky partitioner
   * placed (Kafka's Partitioner.onNewBatch, KIP-480): the topic switches to another partition,
   * and the record is placed again. Round-robin ignores it, as Kafka's does.
   */
  onNewBatch(topic: string, view: TopicPartitionsView, previousPartition: number): PartitionChoice | null {
    if (this.strategy !== 'sticky') return null;
    return this.sticky.nextPartition(topic, view, previousPartition);
  }

  /** The current sticky partition of a topic, if any (for the UI). */
  stickyPartitionOf(topic: string): number | null {
    return this.sticky.current(topic);
  }
}
