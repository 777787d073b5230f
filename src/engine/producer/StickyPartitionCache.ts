/**
 * The sticky partitioner's memory (Kafka 2.4, KIP-480; Kafka's StickyPartitionCache): one
 * current partition per topic. Records without a key all go there, so they fill one batch
 * instead of spreading one record per batch over every partition. When a batch for the sticky
 * partition is completed and a new one would be opened, `nextPartition` moves the topic to
 * another partition chosen at random among those with a leader (never the same one again when
 * there is a choice). Randomness comes from the seeded Rng, so a run replays exactly.
 */
import { toPositive } from '../codec/murmur2';
import type { Rng } from '../Rng';
import type { PartitionChoice, TopicPartitionsView } from './PartitionChoice';

export class StickyPartitionCache {
  private readonly indexCache = new Map<string, number>();
  private readonly rng: Rng;

  constructor(rng: Rng) {
    this.rng = rng;
  }

  current(topic: string): number | null {
    return this.indexCache.get(topic) ?? null;
  }

  /** The topic's sticky partition, choosing one if it has none yet. */
  partition(topic: string, view: TopicPartitionsView): PartitionChoice {
    const part = this.indexCache.get(topic);
    if (part === undefined) return this.nextPartition(topic, view, -1);
    return this.describe(topic, part, part, false, view);
  }

  /**
   * Moves the topic off `prevPartition`. Does nothing when the sticky partition is already
   * another one (a stale trigger), exactly as Kafka's cache only replaces a matching value.
   */
  nextPartition(topic: string, view: TopicPartitionsView, prevPartition: number): PartitionChoice {
    const oldPart = this.indexCache.get(topic);
    if (oldPart !== undefined && oldPart !== prevPartition) return this.describe(topic, oldPart, oldPart, false, view);
    const available = view.availablePartitions;
    let newPart: number;
    if (available.length < 1) {
      newPart = this.randomInt() % view.numPartitions;
    } else if (available.length === 1) {
      newPart = available[0] as number;
    } else {
      do {
        newPart = available[this.randomInt() % available.length] as number;
      } while (newPart === oldPart);
    }
    this.indexCache.set(topic, newPart);
    return this.describe(topic, newPart, oldPart ?? null, newPart !== oldPart, view);
  }

  private randomInt(): number {
    // ThreadLocalRandom.nextInt() gives any int; toPositive keeps it in [0, 2^31).
    return toPositive(this.rng.nextInt(4294967296) | 0);
  }

  private describe(
    topic: string,
    partition: number,
    previous: number | null,
    switched: boolean,
    view: TopicPartitionsView,
  ): PartitionChoice {
    const candidates =
      view.availablePartitions.length > 0
        ? view.availablePartitions
        : Array.from({ length: view.numPartitions }, (_, i) => i);
    return { strategy: 'sticky', topic, partition, previous, switched, candidates, numPartitions: view.numPartitions };
  }
}
