/**
 * A partition's key, `<topic>-<partition>` (Kafka's TopicPartition.toString): how maps of
 * partitions are keyed across the engine, and the name of the partition's log directory.
 */
export function tpKey(topic: string, partition: number): string {
  return `${topic}-${partition}`;
}
