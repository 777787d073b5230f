/**
 * Where records without a key go by default since Kafka 3.3 (KIP-794, Kafka's
 * BuiltInPartitioner): the "uniform sticky" partitioner. Each topic has one sticky partition;
 * every keyless record goes there until `batch.size` bytes were produced to it, then the topic
 * switches to a partition drawn uniformly at random from those with a leader (it may draw the
 * same one again). So each partition gets the same number of bytes in the long run, however
 * slowly its batches fill — KIP-480's switch on every new batch sent more records to slow
 * partitions.
 *
 * The switch waits while the partition's last batch is still open (RecordAccumulator passes
 * enableSwitch = allBatchesFull), so a switch lines up with a batch boundary, but never past
 * 2 x batch.size. Randomness comes from the seeded Rng.
 *
 * Adaptive partitioning (partitioner.adaptive.partitioning.enable, on by default): once every
 * partition of the topic has had a batch, the accumulator's readiness check reports each
 * partition's queue length (updatePartitionLoadStats) and the draw favours short queues: partition
 * i gets weight (longest queue + 1 - its queue), through a cumulative frequency table. Equal
 * queues (or fewer than two partitions) leave the draw uniform.
 */
import { toPositive } from '../codec/murmur2';
import type { Rng } from '../Rng';
import type { PartitionChoice, TopicPartitionsView } from './PartitionChoice';

/** The topic's current sticky partition and the bytes produced to it since it was chosen. */
export interface StickyPartitionInfo {
  readonly partition: number;
  producedBytes: number;
}

interface TopicState {
  info: StickyPartitionInfo;
  /** The partition before the last switch, until the next record reports the switch. */
  previous: number | null;
  switchPending: boolean;
}

/** Kafka's PartitionLoadStats: a cumulative frequency table over the partitions with a leader. */
interface PartitionLoadStats {
  cumulativeFrequencyTable: number[];
  partitionIds: number[];
  length: number;
}

export class BuiltInPartitioner {
  private readonly topics = new Map<string, TopicState>();
  private readonly loadStats = new Map<string, PartitionLoadStats>();

  constructor(
    /** batch.size: how many bytes go to a partition before switching. */
    readonly stickyBatchSize: number,
    private readonly rng: Rng,
  ) {}

  current(topic: string): number | null {
    return this.topics.get(topic)?.info.partition ?? null;
  }

  /** The sticky partition for the next keyless record, choosing one if the topic has none (peekCurrentPartitionInfo). */
  peekCurrentPartitionInfo(topic: string, view: TopicPartitionsView): StickyPartitionInfo {
    let state = this.topics.get(topic);
    if (!state) {
      state = {
        info: { partition: this.nextPartition(view, topic), producedBytes: 0 },
        previous: null,
        switchPending: true,
      };
      this.topics.set(topic, state);
    }
    return state.info;
  }

  /**
   * Counts bytes appended to the sticky partition and switches once batch.size was produced
   * (with enableSwitch) or 2 x batch.size in any case (updatePartitionInfo). Returns whether it
   * switched.
   */
  updatePartitionInfo(topic: string, appendedBytes: number, view: TopicPartitionsView, enableSwitch: boolean): boolean {
    const state = this.topics.get(topic);
    if (!state) return false;
    const produced = (state.info.producedBytes += appendedBytes);
    if ((produced >= this.stickyBatchSize && enableSwitch) || produced >= this.stickyBatchSize * 2) {
      state.previous = state.info.partition;
      state.info = { partition: this.nextPartition(view, topic), producedBytes: 0 };
      state.switchPending = true;
      return true;
    }
    return false;
  }

  /** The choice the UI shows for a keyless record placed on the current sticky partition. */
  describe(topic: string, view: TopicPartitionsView): PartitionChoice {
    const state = this.topics.get(topic);
    if (!state) throw new Error(`no sticky partition for ${topic}`);
    const switched = state.switchPending;
    state.switchPending = false;
    const candidates =
      view.availablePartitions.length > 0
        ? view.availablePartitions
        : Array.from({ length: view.numPartitions }, (_, i) => i);
    return {
      strategy: 'sticky',
      topic,
      partition: state.info.partition,
      previous: switched ? state.previous : state.info.partition,
      switched,
      candidates,
      numPartitions: view.numPartitions,
      producedBytes: state.info.producedBytes,
      stickyBatchSize: this.stickyBatchSize,
    };
  }

  /**
   * BuiltInPartitioner.updatePartitionLoadStats: `queueSizes[i]` is the queue length of partition
   * `partitionIds[i]` for the first `length` entries (those with a leader), or null (no adaptive
   * partitioning: it is off, or not every partition has had a batch yet). Inverts the sizes against
   * the longest + 1 and sums them up into the table nextPartition draws from.
   */
  updatePartitionLoadStats(topic: string, queueSizes: number[] | null, partitionIds: number[], length: number): void {
    if (queueSizes === null || length < 1 || queueSizes.length < 2) {
      this.loadStats.delete(topic);
      return;
    }
    let maxSizePlus1 = queueSizes[0] as number;
    let allEqual = true;
    for (let i = 1; i < length; i++) {
      const size = queueSizes[i] as number;
      if (size !== maxSizePlus1) allEqual = false;
      if (size > maxSizePlus1) maxSizePlus1 = size;
    }
    maxSizePlus1++;
    if (allEqual && length === queueSizes.length) {
      this.loadStats.delete(topic);
      return;
    }
    const table = queueSizes.slice();
    table[0] = maxSizePlus1 - (table[0] as number);
    for (let i = 1; i < length; i++) table[i] = maxSizePlus1 - (table[i] as number) + (table[i - 1] as number);
    this.loadStats.set(topic, { cumulativeFrequencyTable: table, partitionIds: partitionIds.slice(), length });
  }

  /**
   * BuiltInPartitioner.nextPartition: with load stats, a draw weighted towards short queues (the
   * first table entry strictly greater than random % total); without, uniform over the partitions
   * with a leader, or over all of them if none has one.
   */
  private nextPartition(view: TopicPartitionsView, topic?: string): number {
    const random = toPositive(this.rng.nextInt(4294967296) | 0); // Utils.toPositive(ThreadLocalRandom.nextInt())
    const stats = topic === undefined ? undefined : this.loadStats.get(topic);
    if (stats) {
      const table = stats.cumulativeFrequencyTable;
      const weighted = random % (table[stats.length - 1] as number);
      let index = 0;
      while (index < stats.length - 1 && (table[index] as number) <= weighted) index++;
      return stats.partitionIds[index] as number;
    }
    const available = view.availablePartitions;
    return available.length > 0 ? (available[random % available.length] as number) : random % view.numPartitions;
  }
}
