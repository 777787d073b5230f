/**
 * Kafka's PartitionMovements (inside AbstractStickyAssignor): while the general sticky algorithm
 * shuffles partitions to balance the group, it records where each moved partition came from, per
 * topic and per (source, destination) pair of members. Two uses:
 *
 * - Before moving a partition from A to B, if some partition of the same topic already moved from
 *   B to A, move that one back instead: the net effect is the same balance with fewer movements
 *   (getTheActualPartitionToBeMoved). Which one Kafka picks is the first of a java.util.HashSet,
 *   so the set's iteration order is reproduced here.
 * - Stickiness check (isSticky): no topic may have partitions moving both A->B and B->A.
 *
 * Invariant: a recorded movement's destination is the partition's current owner; a partition that
 * returns to its original owner has no record.
 */
import { JavaHashSetOrder } from './javaHashOrder';

interface ConsumerPair {
  src: number;
  dst: number;
}

function pairKey(src: number, dst: number): string {
  return `${src}>${dst}`;
}

export class PartitionMovements {
  private readonly movements = new Map<number, ConsumerPair>();
  private readonly byTopic = new Map<number, Map<string, JavaHashSetOrder>>();

  /**
   * @param topicOf topic index of a partition id
   * @param javaHashCode TopicPartition.hashCode of a partition id
   */
  constructor(
    private readonly topicOf: (partition: number) => number,
    private readonly javaHashCode: (partition: number) => number,
  ) {}

  private removeMovementRecordOfPartition(partition: number): ConsumerPair {
    const pair = this.movements.get(partition) as ConsumerPair;
    this.movements.delete(partition);
    const topic = this.topicOf(partition);
    const forTopic = this.byTopic.get(topic) as Map<string, JavaHashSetOrder>;
    const key = pairKey(pair.src, pair.dst);
    const set = forTopic.get(key) as JavaHashSetOrder;
    set.delete(partition);
    if (set.size === 0) forTopic.delete(key);
    if (forTopic.size === 0) this.byTopic.delete(topic);
    return pair;
  }

  private addPartitionMovementRecord(partition: number, pair: ConsumerPair): void {
    this.movements.set(partition, pair);
    const topic = this.topicOf(partition);
    let forTopic = this.byTopic.get(topic);
    if (forTopic === undefined) {
      forTopic = new Map();
      this.byTopic.set(topic, forTopic);
    }
    const key = pairKey(pair.src, pair.dst);
    let set = forTopic.get(key);
    if (set === undefined) {
      set = new JavaHashSetOrder();
      forTopic.set(key, set);
    }
    set.add(partition, this.javaHashCode(partition));
  }

  movePartition(partition: number, oldConsumer: number, newConsumer: number): void {
    if (this.movements.has(partition)) {
      // Moved before in this rebalance: record one movement from its original owner, or none if it goes home.
      const existing = this.removeMovementRecordOfPartition(partition);
      if (existing.src !== newConsumer)
        this.addPartitionMovementRecord(partition, { src: existing.src, dst: newConsumer });
    } else {
      this.addPartitionMovementRecord(partition, { src: oldConsumer, dst: newConsumer });
    }
  }

  getTheActualPartitionToBeMoved(partition: number, oldConsumer: number, newConsumer: number): number {
    const topic = this.topicOf(partition);
    const forTopic = this.byTopic.get(topic);
    if (forTopic === undefined) return partition;
    const previous = this.movements.get(partition);
    const src = previous !== undefined ? previous.src : oldConsumer;
    const reverse = forTopic.get(pairKey(newConsumer, src));
    if (reverse === undefined) return partition;
    return reverse.first() as number;
  }

  /** Kafka's isSticky: false when some topic has partitions moving in both directions between two members. */
  isSticky(): boolean {
    for (const forTopic of this.byTopic.values()) {
      for (const key of forTopic.keys()) {
        const [src, dst] = key.split('>');
        if (forTopic.has(`${dst}>${src}`)) return false;
      }
    }
    return true;
  }
}
