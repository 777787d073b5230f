/**
 * How a producer picks the partition of a record, with the reasoning kept for the UI.
 *
 * Kafka's rules (clients/.../producer/internals/BuiltInPartitioner.java and the classic
 * DefaultPartitioner before 2.4):
 * - an explicit partition in the record wins;
 * - with RoundRobinPartitioner ('round-robin') every record, keyed or not, goes round-robin over
 *   the partitions that have a leader (the classic behaviour the seeds describe: "没有 Key 值则
 *   进行轮询发送"); that partitioner never looks at the key;
 * - otherwise a keyed record goes to `toPositive(murmur2(keyBytes)) % numPartitions`, so a key
 *   always lands in the same partition while the partition count holds;
 * - a record without a key sticks to one partition: since Kafka 3.3 (KIP-794, the default
 *   'sticky') until batch.size bytes were produced to it (BuiltInPartitioner); in Kafka 2.4-3.2
 *   (KIP-480, DefaultPartitioner, 'sticky-2.4') until a new batch is opened there.
 *
 * Every choice comes back as a PartitionChoice: the numbers a reader needs to redo it by hand.
 */
import { defaultPartition, murmur2, toPositive } from '../codec/murmur2';
import { KafkaError } from '../errors';
import type { Rng } from '../Rng';
import { BuiltInPartitioner } from './BuiltInPartitioner';
import type { PartitionChoice, TopicPartitionsView } from './PartitionChoice';
import { RoundRobinPartitioner } from './RoundRobinPartitioner';
import { StickyPartitionCache } from './StickyPartitionCache';

/**
 * The `partitioner` config: 'sticky' is Kafka 3.3+'s built-in uniform sticky partitioner (no
 * partitioner.class), 'sticky-2.4' the DefaultPartitioner of Kafka 2.4-3.2, 'round-robin' the
 * RoundRobinPartitioner class.
 */
export type PartitionerStrategy = 'sticky' | 'sticky-2.4' | 'round-robin';

// The types the partitioners share live apart from them, so no partitioner imports this file.
export type { PartitionChoice, TopicPartitionsView };

/** The producer's partitioner: one per producer, holding round-robin counters and sticky state. */
export class Partitioner {
  readonly strategy: PartitionerStrategy;
  private readonly roundRobin = new RoundRobinPartitioner();
  private readonly sticky: StickyPartitionCache;
  private readonly builtIn: BuiltInPartitioner;
  /**
   * Explicit choices per topic and partition: a choice is read-only once made, so the events of
   * records sent to the same partition share one object instead of allocating one per record.
   */
  private readonly explicitChoices = new Map<string, PartitionChoice[]>();

  /**
   * partitioner.ignore.keys: KafkaProducer.partition hashes the key only when it is false; with a
   * partitioner class ('sticky-2.4', 'round-robin') the class decides and the setting does nothing.
   */
  private readonly ignoreKeys: boolean;

  constructor(strategy: PartitionerStrategy, rng: Rng, batchSize = 16384, ignoreKeys = false) {
    this.strategy = strategy;
    this.ignoreKeys = ignoreKeys && strategy === 'sticky';
    this.sticky = new StickyPartitionCache(rng);
    this.builtIn = new BuiltInPartitioner(batchSize, rng);
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
    // RoundRobinPartitioner.partition ignores the key.
    if (this.strategy === 'round-robin') return this.roundRobin.partition(topic, view);
    if (key !== null && !this.ignoreKeys) {
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
    if (this.strategy === 'sticky-2.4') return this.sticky.partition(topic, view);
    this.builtIn.peekCurrentPartitionInfo(topic, view);
    return this.builtIn.describe(topic, view);
  }

  /** Whether this record's partition comes from the built-in uniform sticky partitioner. */
  isBuiltInChoice(choice: PartitionChoice): boolean {
    return this.strategy === 'sticky' && choice.strategy === 'sticky';
  }

  /**
   * The built-in partitioner's check under the queue lock (RecordAccumulator.partitionChanged):
   * a switch held back while the partition's last batch was open happens once that batch is
   * full. Returns the new choice if the topic switched, else null.
   */
  completeDeferredSwitch(topic: string, view: TopicPartitionsView): PartitionChoice | null {
    if (!this.builtIn.updatePartitionInfo(topic, 0, view, true)) return null;
    return this.builtIn.describe(topic, view);
  }

  /** After a keyless append: counts its bytes, maybe switching (BuiltInPartitioner.updatePartitionInfo). */
  onAppended(topic: string, appendedBytes: number, view: TopicPartitionsView, enableSwitch: boolean): void {
    this.builtIn.updatePartitionInfo(topic, appendedBytes, view, enableSwitch);
  }

  /**
   * Called when the accumulator had to open a new batch on `previousPartition` (Kafka's
   * Partitioner.onNewBatch, KIP-480): the 2.4-3.2 sticky partitioner moves the topic off it if
   * it was the sticky one, and the record is placed again. The others ignore it.
   */
  onNewBatch(topic: string, view: TopicPartitionsView, previousPartition: number): PartitionChoice | null {
    if (this.strategy !== 'sticky-2.4') return null;
    return this.sticky.nextPartition(topic, view, previousPartition);
  }

  /** The accumulator's queue lengths for a topic (BuiltInPartitioner.updatePartitionLoadStats). */
  updatePartitionLoadStats(topic: string, queueSizes: number[] | null, partitionIds: number[], length: number): void {
    if (this.strategy === 'sticky') this.builtIn.updatePartitionLoadStats(topic, queueSizes, partitionIds, length);
  }

  /** The current sticky partition of a topic, if any (for the UI). */
  stickyPartitionOf(topic: string): number | null {
    return this.strategy === 'sticky' ? this.builtIn.current(topic) : this.sticky.current(topic);
  }
}
