/**
 * The group leader's view of a rebalance, validated once and turned into numbers so every
 * assignor can work on dense arrays instead of string-keyed maps (100,000 partitions must assign
 * in milliseconds).
 *
 * Numbering: the topics are those some member subscribes to that exist with at least one
 * partition (what AbstractPartitionAssignor.assign(Cluster, ...) passes to an assignor), sorted
 * the way Java's String.compareTo sorts (UTF-16 code units). A partition's id is
 * `topicStart[topic] + partition`, so ascending ids are exactly "by topic, then by partition".
 * Members keep the order they were given in: that order stands in for the insertion order of the
 * Java HashMap the real leader builds, which some of Kafka's tie-breaks depend on.
 */
import { KafkaError } from '../../../errors';
import type { MemberSubscription, PartitionsPerTopic, TopicPartition } from './types';

/** Java's String.compareTo: UTF-16 code unit order (what JS's < does; never localeCompare). */
export function compareJavaStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export interface GroupMember {
  readonly memberId: string;
  readonly groupInstanceId: string | undefined;
  /** The subscription exactly as sent (deduplicated), including topics that do not exist. */
  readonly subscribedTopics: readonly string[];
  /** Indexes of the subscribed topics that exist, ascending. */
  readonly topicIndexes: readonly number[];
  /** Previously owned partitions that still exist, as partition ids, in the order reported. */
  readonly ownedPartitions: readonly number[];
  /** The reported generation, or undefined when the member reported none. */
  readonly generation: number | undefined;
}

export class GroupSubscription {
  readonly topics: readonly string[];
  readonly topicIndex: ReadonlyMap<string, number>;
  /** topicStart[t] is the id of partition 0 of topic t; topicStart[T] is the partition count. */
  readonly topicStart: Int32Array;
  /** The topic index of every partition id. */
  readonly partitionTopic: Int32Array;
  readonly numPartitions: number;
  readonly members: readonly GroupMember[];
  /** subscription[m * T + t] is 1 when member m subscribes to existing topic t. */
  private readonly subscription: Uint8Array;

  constructor(members: readonly MemberSubscription[], partitionsPerTopic: PartitionsPerTopic) {
    if (!Array.isArray(members as unknown)) throw new KafkaError('INVALID_REQUEST', 'members must be an array');
    if (partitionsPerTopic === null || typeof partitionsPerTopic !== 'object') {
      throw new KafkaError('INVALID_REQUEST', 'partitionsPerTopic must be an object of topic to partition count');
    }
    for (const [topic, count] of Object.entries(partitionsPerTopic)) {
      if (!Number.isInteger(count) || count < 0) {
        throw new KafkaError('INVALID_PARTITIONS', `topic ${topic} has an invalid partition count ${count}`, {
          topic,
          count,
        });
      }
    }

    const seenIds = new Set<string>();
    const seenInstances = new Set<string>();
    const subscribed = new Set<string>();
    const validatedTopicLists = new Set<readonly string[]>();
    for (const m of members) {
      if (m === null || typeof m !== 'object' || typeof m.memberId !== 'string' || m.memberId === '') {
        throw new KafkaError('INVALID_REQUEST', 'every member needs a non-empty memberId');
      }
      if (seenIds.has(m.memberId)) {
        throw new KafkaError('INVALID_REQUEST', `member ${m.memberId} appears twice`, { memberId: m.memberId });
      }
      seenIds.add(m.memberId);
      if (m.groupInstanceId !== undefined) {
        if (typeof m.groupInstanceId !== 'string' || m.groupInstanceId === '') {
          throw new KafkaError('INVALID_REQUEST', `member ${m.memberId} has an invalid group.instance.id`);
        }
        if (seenInstances.has(m.groupInstanceId)) {
          throw new KafkaError('INVALID_REQUEST', `group.instance.id ${m.groupInstanceId} is used by two members`, {
            groupInstanceId: m.groupInstanceId,
          });
        }
        seenInstances.add(m.groupInstanceId);
      }
      // Members often share one topics array (the same subscription): check and collect it once.
      if (!validatedTopicLists.has(m.topics)) {
        if (!Array.isArray(m.topics) || m.topics.some((t) => typeof t !== 'string')) {
          throw new KafkaError('INVALID_REQUEST', `member ${m.memberId} must subscribe to a list of topic names`);
        }
        validatedTopicLists.add(m.topics);
        for (const t of m.topics) subscribed.add(t);
      }
      if (m.generation !== undefined && !Number.isInteger(m.generation)) {
        throw new KafkaError('INVALID_REQUEST', `member ${m.memberId} has a non-integer generation ${m.generation}`);
      }
      if (m.ownedPartitions !== undefined) {
        if (!Array.isArray(m.ownedPartitions)) {
          throw new KafkaError('INVALID_REQUEST', `member ${m.memberId} has invalid ownedPartitions`);
        }
        for (const tp of m.ownedPartitions) {
          if (
            tp === null ||
            typeof tp !== 'object' ||
            typeof tp.topic !== 'string' ||
            !Number.isInteger(tp.partition)
          ) {
            throw new KafkaError('INVALID_REQUEST', `member ${m.memberId} owns an invalid topic partition`);
          }
        }
      }
    }

    const topics = [...subscribed]
      .filter((t) => Object.hasOwn(partitionsPerTopic, t) && (partitionsPerTopic[t] as number) > 0)
      .sort(compareJavaStrings);
    const T = topics.length;
    this.topics = topics;
    const topicIndex = new Map<string, number>();
    topics.forEach((t, i) => {
      topicIndex.set(t, i);
    });
    this.topicIndex = topicIndex;
    this.topicStart = new Int32Array(T + 1);
    for (let t = 0; t < T; t++) {
      this.topicStart[t + 1] = (this.topicStart[t] as number) + (partitionsPerTopic[topics[t] as string] as number);
    }
    this.numPartitions = this.topicStart[T] as number;
    this.partitionTopic = new Int32Array(this.numPartitions);
    for (let t = 0; t < T; t++) this.partitionTopic.fill(t, this.topicStart[t], this.topicStart[t + 1]);

    this.subscription = new Uint8Array(members.length * T);
    const numbered = new Map<
      readonly string[],
      { subscribedTopics: string[]; topicIndexes: number[]; row: Uint8Array }
    >();
    this.members = members.map((m, mi) => {
      let subscription = numbered.get(m.topics);
      if (subscription === undefined) {
        const subscribedTopics = [...new Set(m.topics)];
        const topicIndexes: number[] = [];
        const row = new Uint8Array(T);
        for (const name of subscribedTopics) {
          const t = topicIndex.get(name);
          if (t !== undefined) {
            topicIndexes.push(t);
            row[t] = 1;
          }
        }
        topicIndexes.sort((a, b) => a - b);
        subscription = { subscribedTopics, topicIndexes, row };
        numbered.set(m.topics, subscription);
      }
      this.subscription.set(subscription.row, mi * T);
      const { subscribedTopics, topicIndexes } = subscription;
      const owned: number[] = [];
      const seen = new Set<number>();
      for (const tp of m.ownedPartitions ?? []) {
        const id = this.partitionId(tp.topic, tp.partition);
        // Partitions of topics no longer in the metadata are dropped, as Kafka drops them.
        if (id !== undefined && !seen.has(id)) {
          seen.add(id);
          owned.push(id);
        }
      }
      return {
        memberId: m.memberId,
        groupInstanceId: m.groupInstanceId,
        subscribedTopics,
        topicIndexes,
        ownedPartitions: owned,
        // Kafka's Subscription treats a negative generation as none (Optional.empty()).
        generation: m.generation !== undefined && m.generation >= 0 ? m.generation : undefined,
      };
    });
  }

  get numTopics(): number {
    return this.topics.length;
  }

  /** Whether member index m subscribes to topic index t. */
  subscribes(m: number, t: number): boolean {
    return this.subscription[m * this.topics.length + t] === 1;
  }

  partitionId(topic: string, partition: number): number | undefined {
    const t = this.topicIndex.get(topic);
    if (t === undefined || partition < 0) return undefined;
    const id = (this.topicStart[t] as number) + partition;
    return id < (this.topicStart[t + 1] as number) ? id : undefined;
  }

  /** The partition number within its topic. */
  partitionOf(id: number): number {
    return id - (this.topicStart[this.partitionTopic[id] as number] as number);
  }

  topicOf(id: number): string {
    return this.topics[this.partitionTopic[id] as number] as string;
  }

  topicPartition(id: number): TopicPartition {
    return { topic: this.topicOf(id), partition: this.partitionOf(id) };
  }

  partitionCount(t: number): number {
    return (this.topicStart[t + 1] as number) - (this.topicStart[t] as number);
  }

  /** Turns per-member lists of ids into the public shape: every member present, lists sorted. */
  toGroupAssignment(
    perMember: readonly (readonly number[] | Iterable<number> | undefined)[],
  ): Record<string, TopicPartition[]> {
    const result: Record<string, TopicPartition[]> = {};
    this.members.forEach((m, i) => {
      const given = perMember[i] ?? [];
      const ids = Int32Array.from(Array.isArray(given) ? given : [...given]);
      let sorted = true;
      for (let k = 1; k < ids.length && sorted; k++) sorted = (ids[k - 1] as number) < (ids[k] as number);
      if (!sorted) ids.sort();
      const list: TopicPartition[] = new Array(ids.length);
      for (let k = 0; k < ids.length; k++) list[k] = this.topicPartition(ids[k] as number);
      setOwn(result, m.memberId, list);
    });
    return result;
  }
}

/**
 * Kafka's AbstractPartitionAssignor.MemberInfo order: static members first, by group.instance.id;
 * then dynamic members by member.id. Range and roundrobin hand out partitions in this order.
 */
export function compareMemberInfo(a: GroupMember, b: GroupMember): number {
  if (a.groupInstanceId !== undefined && b.groupInstanceId !== undefined) {
    return compareJavaStrings(a.groupInstanceId, b.groupInstanceId);
  }
  if (a.groupInstanceId !== undefined) return -1;
  if (b.groupInstanceId !== undefined) return 1;
  return compareJavaStrings(a.memberId, b.memberId);
}

/** Sets a key as an own property even when it is "__proto__" (a valid Kafka member or topic name). */
export function setOwn<V>(target: Record<string, V>, key: string, value: V): void {
  if (key === '__proto__')
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}
