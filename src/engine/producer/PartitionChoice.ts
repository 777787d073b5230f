/**
 * What each partitioner is given and what it answers (the Partitioner and its strategies share
 * them: BuiltInPartitioner, StickyPartitionCache, RoundRobinPartitioner).
 */
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
      /** The built-in (KIP-794) partitioner only: bytes already produced to the partition, and batch.size. */
      producedBytes?: number;
      stickyBatchSize?: number;
    };
