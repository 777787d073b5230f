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
 * Not modelled: adaptive partitioning (partitioner.adaptive.partitioning.enable), which weighs
 * the draw by queue sizes; the draw here is always uniform (see FIDELITY.md).
 */
import { toPositive } from '../codec/murmur2';
import type { Rng } from '../Rng';
import type { PartitionChoice, TopicPartitionsView } from './Partitioner';

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

export class BuiltInPartitioner {
  private readonly topics = new Map<string, TopicState>();

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
      state = { info: { partition: this.nextPartition(view), producedBytes: 0 }, previous: null, switchPending: true };
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
      state.info = { partition: this.nextPartition(view), producedBytes: 0 };
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

  /** Uniform over the partitions with a leader, or over all of them if none has one (nextPartition). */
  private nextPartition(view: TopicPartitionsView): number {
    const random = toPositive(this.rng.nextInt(4294967296) | 0); // Utils.toPositive(ThreadLocalRandom.nextInt())
    const available = view.availablePartitions;
    return available.length > 0 ? (available[random % available.length] as number) : random % view.numPartitions;
  }
}
