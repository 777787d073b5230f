/**
 * Round-robin placement of records without a key, as the seeds describe and as Kafka's
 * RoundRobinPartitioner does it: a counter per topic, starting at 0 and incremented once per
 * record; the record goes to `availablePartitions[toPositive(counter) % available.length]`, or,
 * when no partition has a leader, to `toPositive(counter) % numPartitions` so the record still
 * has somewhere to wait.
 */
import { toPositive } from '../codec/murmur2';
import type { PartitionChoice, TopicPartitionsView } from './PartitionChoice';

export class RoundRobinPartitioner {
  private readonly counters = new Map<string, number>();

  partition(topic: string, view: TopicPartitionsView): PartitionChoice {
    const counter = this.counters.get(topic) ?? 0;
    // Java's AtomicInteger wraps at 2^31; keep the same int32 arithmetic.
    this.counters.set(topic, (counter + 1) | 0);
    const available = view.availablePartitions;
    const candidates = available.length > 0 ? available : allPartitions(view.numPartitions);
    const partition = candidates[toPositive(counter) % candidates.length] as number;
    return { strategy: 'round-robin', topic, partition, counter, candidates, numPartitions: view.numPartitions };
  }
}

export function allPartitions(numPartitions: number): number[] {
  return Array.from({ length: numPartitions }, (_, i) => i);
}
