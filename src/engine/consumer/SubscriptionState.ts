import type { TopicPartitionRef } from './groupEvents';

/**
 * What a consumer reads and where it stands (clients/.../consumer/internals/SubscriptionState):
 * either a subscription to topics (partitions come from the group's assignment) or a manual
 * assign(); for each assigned partition, the position — the offset of the next record poll()
 * returns, which is also what a commit of "everything consumed" writes. A partition without a
 * position needs one: the committed offset from the coordinator, else auto.offset.reset.
 */
export interface ConsumerRebalanceListener {
  onPartitionsRevoked?(partitions: TopicPartitionRef[]): void;
  onPartitionsAssigned?(partitions: TopicPartitionRef[]): void;
  /** Partitions taken away without a chance to commit (generation lost); defaults to revoked. */
  onPartitionsLost?(partitions: TopicPartitionRef[]): void;
}

export interface TopicPartitionState {
  topic: string;
  partition: number;
  /** Next offset to return; null until initialized from a committed offset or a reset. */
  position: number | null;
  /** Last high watermark a fetch reported, for lag. */
  highWatermark: number | null;
  /** Set when the committed offset has been asked for and not answered yet. */
  awaitingCommitted: boolean;
  /** Set while a ListOffsets for auto.offset.reset is in flight. */
  awaitingReset: boolean;
}

export function tpString(tp: TopicPartitionRef): string {
  return `${tp.topic}-${tp.partition}`;
}

export function sortPartitions<T extends TopicPartitionRef>(list: T[]): T[] {
  return list.sort((a, b) => (a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : a.partition - b.partition));
}

export class SubscriptionState {
  type: 'NONE' | 'AUTO_TOPICS' | 'USER_ASSIGNED' = 'NONE';
  topics: string[] = [];
  listener: ConsumerRebalanceListener = {};
  private readonly assigned = new Map<string, TopicPartitionState>();

  subscribe(topics: string[], listener: ConsumerRebalanceListener): void {
    this.type = 'AUTO_TOPICS';
    this.topics = [...new Set(topics)].sort();
    this.listener = listener;
  }

  assignManually(partitions: TopicPartitionRef[]): void {
    this.type = partitions.length > 0 ? 'USER_ASSIGNED' : 'NONE';
    this.topics = [];
    this.setAssignment(partitions);
  }

  unsubscribe(): void {
    this.type = 'NONE';
    this.topics = [];
    this.assigned.clear();
  }

  /** Replaces the assignment; partitions kept keep their position. */
  setAssignment(partitions: TopicPartitionRef[]): void {
    const next = new Map<string, TopicPartitionState>();
    for (const tp of sortPartitions([...partitions])) {
      const key = tpString(tp);
      next.set(
        key,
        this.assigned.get(key) ?? {
          topic: tp.topic,
          partition: tp.partition,
          position: null,
          highWatermark: null,
          awaitingCommitted: false,
          awaitingReset: false,
        },
      );
    }
    this.assigned.clear();
    for (const [k, v] of next) this.assigned.set(k, v);
  }

  assignedPartitions(): TopicPartitionRef[] {
    return [...this.assigned.values()].map(({ topic, partition }) => ({ topic, partition }));
  }

  states(): TopicPartitionState[] {
    return [...this.assigned.values()];
  }

  state(tp: TopicPartitionRef): TopicPartitionState | undefined {
    return this.assigned.get(tpString(tp));
  }

  isAssigned(tp: TopicPartitionRef): boolean {
    return this.assigned.has(tpString(tp));
  }

  /** Every position, as the offsets a commit of "all consumed" writes. */
  allConsumed(): Map<string, { topic: string; partition: number; offset: number }> {
    const out = new Map<string, { topic: string; partition: number; offset: number }>();
    for (const s of this.assigned.values()) {
      if (s.position !== null) out.set(tpString(s), { topic: s.topic, partition: s.partition, offset: s.position });
    }
    return out;
  }
}
