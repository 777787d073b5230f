/**
 * AbstractStickyAssignor's general algorithm, used when members subscribe to different topics.
 * It guarantees an assignment as balanced as the subscriptions allow — sizes within one, or no
 * member 2+ partitions short of another could take one of that member's partitions — while
 * keeping as many previous assignments as it can:
 *
 * 1. Keep every owned partition whose topic the member still subscribes to.
 * 2. Hand each unassigned partition (topics with the fewest possible consumers first) to the
 *    least-loaded member subscribed to its topic (ties by member id).
 * 3. While unbalanced, move partitions from members that have 2+ more than another candidate,
 *    preferring to send a partition back to its owner of an older generation, and reusing a
 *    reverse movement instead of making two (PartitionMovements). If that did not improve the
 *    balance score (sum of size differences over all member pairs), undo it.
 *
 * Data structures: members sorted by (assignment size, member id) in an array kept ordered by
 * binary search (Kafka's TreeSet); partition ownership in an Int32Array; "is it balanced" cached
 * between moves and computed per topic in O(P + members x topics) rather than per partition pair.
 */
import type { StickyBuildInput, StickyBuildResult } from './ConstrainedAssignmentBuilder';
import { compareJavaStrings } from './GroupSubscription';
import { javaStringHashCode } from '../javaStringHashCode';
import { topicPartitionHashCode } from './javaHashOrder';
import { PartitionMovements } from './PartitionMovements';

const DEFAULT_GENERATION = -1;

interface ConsumerGenerationPair {
  consumer: number;
  generation: number;
}

/** Kafka's sortedCurrentSubscriptions: a TreeSet of members by (assignment size, member id). */
class SortedCurrentSubscriptions {
  readonly members: number[] = [];
  private readonly insertedKey: Float64Array;

  constructor(
    private readonly size: (member: number) => number,
    private readonly idRank: Int32Array,
  ) {
    this.insertedKey = new Float64Array(idRank.length).fill(-1);
  }

  private key(member: number): number {
    return this.size(member) * this.idRank.length + (this.idRank[member] as number);
  }

  private search(key: number): number {
    let lo = 0;
    let hi = this.members.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.insertedKey[this.members[mid] as number] as number) < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  add(member: number): void {
    if ((this.insertedKey[member] as number) >= 0) return;
    const key = this.key(member);
    this.insertedKey[member] = key;
    this.members.splice(this.search(key), 0, member);
  }

  /** Must be called before the member's size changes, as Kafka does (the key is the old size). */
  remove(member: number): void {
    const key = this.insertedKey[member] as number;
    if (key < 0) return;
    const at = this.search(key);
    this.members.splice(at, 1);
    this.insertedKey[member] = -1;
  }

  first(): number {
    return this.members[0] as number;
  }

  last(): number {
    return this.members[this.members.length - 1] as number;
  }
}

/**
 * Per topic, a histogram of assignment sizes with its smallest and largest entries: used for
 * "how large is the largest owner of this topic's partitions" and "how small is the smallest
 * member that could take one", each kept up to date as partitions move instead of recomputed.
 */
class TopicSizeHistogram {
  private readonly counts: Map<number, number>[];
  private readonly minSize: Float64Array;
  private readonly maxSize: Float64Array;

  constructor(topics: number) {
    this.counts = Array.from({ length: topics }, () => new Map());
    this.minSize = new Float64Array(topics).fill(Number.POSITIVE_INFINITY);
    this.maxSize = new Float64Array(topics).fill(Number.NEGATIVE_INFINITY);
  }

  add(topic: number, size: number, n: number): void {
    const counts = this.counts[topic] as Map<number, number>;
    counts.set(size, (counts.get(size) ?? 0) + n);
    if (size > (this.maxSize[topic] as number)) this.maxSize[topic] = size;
    if (size < (this.minSize[topic] as number)) this.minSize[topic] = size;
  }

  remove(topic: number, size: number, n: number): void {
    const counts = this.counts[topic] as Map<number, number>;
    const left = (counts.get(size) as number) - n;
    if (left > 0) {
      counts.set(size, left);
      return;
    }
    counts.delete(size);
    if (counts.size === 0) {
      this.minSize[topic] = Number.POSITIVE_INFINITY;
      this.maxSize[topic] = Number.NEGATIVE_INFINITY;
      return;
    }
    // Sizes move one step at a time, so the new extreme is usually adjacent.
    let max = this.maxSize[topic] as number;
    while (!counts.has(max)) max--;
    this.maxSize[topic] = max;
    let min = this.minSize[topic] as number;
    while (!counts.has(min)) min++;
    this.minSize[topic] = min;
  }

  max(topic: number): number {
    return this.maxSize[topic] as number;
  }

  min(topic: number): number {
    return this.minSize[topic] as number;
  }
}

export function buildGeneralAssignment(
  { group, memberOrder, ownedPartitions, recorder }: StickyBuildInput,
  maxGeneration: number,
): StickyBuildResult {
  const members = group.members;
  const M = members.length;
  const T = group.numTopics;
  const P = group.numPartitions;

  // topic2AllPotentialConsumers, in the leader's HashMap order of members.
  const topic2AllPotentialConsumers: number[][] = Array.from({ length: T }, () => []);
  for (const m of memberOrder)
    for (const t of (members[m] as { topicIndexes: readonly number[] }).topicIndexes)
      topic2AllPotentialConsumers[t]?.push(m);
  const maxAssignmentSize = members.map((m) => m.topicIndexes.reduce((sum, t) => sum + group.partitionCount(t), 0));

  const currentAssignment: Set<number>[] = members.map(() => new Set<number>());
  const owner = new Int32Array(P).fill(-1);
  const size = (m: number) => (currentAssignment[m] as Set<number>).size;
  const idOrder = members
    .map((_, i) => i)
    .sort((a, b) => compareJavaStrings(members[a]?.memberId as string, members[b]?.memberId as string));
  const idRank = new Int32Array(M);
  idOrder.forEach((m, rank) => {
    idRank[m] = rank;
  });
  const sortedCurrentSubscriptions = new SortedCurrentSubscriptions(size, idRank);

  // prevAssignment: for each partition, its owner in the most recent generation older than maxGeneration.
  const prevAssignment = new Map<number, ConsumerGenerationPair>();
  const updatePrevAssignment = (partitions: readonly number[], consumer: number, generation: number) => {
    for (const p of partitions) {
      const existing = prevAssignment.get(p);
      if (existing === undefined || generation > existing.generation) prevAssignment.set(p, { consumer, generation });
    }
  };
  for (const m of memberOrder) {
    const member = members[m] as { generation: number | undefined; ownedPartitions: readonly number[] };
    if (member.generation !== undefined && member.generation < maxGeneration) {
      updatePrevAssignment(member.ownedPartitions, m, member.generation);
    } else if (member.generation === undefined && maxGeneration > DEFAULT_GENERATION) {
      updatePrevAssignment(member.ownedPartitions, m, DEFAULT_GENERATION);
    }
  }

  // Step 1: keep owned partitions of still-subscribed topics.
  let revocationRequired = false;
  for (const m of memberOrder) {
    for (const p of ownedPartitions[m] as readonly number[]) {
      if (!group.subscribes(m, group.partitionTopic[p] as number)) {
        revocationRequired = true;
        continue;
      }
      (currentAssignment[m] as Set<number>).add(p);
      owner[p] = m;
      recorder?.record('keep', m, p, 'owned it and still subscribes to its topic');
    }
  }

  const sortedAllTopics = group.topics
    .map((_, t) => t)
    .sort(
      (a, b) =>
        (topic2AllPotentialConsumers[a] as number[]).length - (topic2AllPotentialConsumers[b] as number[]).length ||
        compareJavaStrings(group.topics[a] as string, group.topics[b] as string),
    );
  let sortedAllPartitions: number[] = [];
  for (const t of sortedAllTopics) {
    for (let p = group.topicStart[t] as number; p < (group.topicStart[t + 1] as number); p++)
      sortedAllPartitions.push(p);
  }
  let unassignedPartitions = sortedAllPartitions.filter((p) => owner[p] === -1);
  for (let m = 0; m < M; m++) sortedCurrentSubscriptions.add(m);

  const topicHash = group.topics.map((t) => javaStringHashCode(t));
  const partitionMovements = new PartitionMovements(
    (p) => group.partitionTopic[p] as number,
    (p) => topicPartitionHashCode(topicHash[group.partitionTopic[p] as number] as number, group.partitionOf(p)),
  );

  let tracking: ((partition: number, from: number, to: number) => void) | undefined;
  const moveTo = (partition: number, to: number) => {
    const from = owner[partition] as number;
    if (from === to) return;
    if (tracking !== undefined && from !== -1) tracking(partition, from, to);
    if (from !== -1) (currentAssignment[from] as Set<number>).delete(partition);
    (currentAssignment[to] as Set<number>).add(partition);
    owner[partition] = to;
  };

  // ---- balance() ----
  const initializing = size(sortedCurrentSubscriptions.last()) === 0;

  // Step 2: each unassigned partition goes to the least-loaded member subscribed to its topic.
  for (const partition of unassignedPartitions) {
    const t = group.partitionTopic[partition] as number;
    if ((topic2AllPotentialConsumers[t] as number[]).length === 0) continue;
    for (const consumer of sortedCurrentSubscriptions.members) {
      if (group.subscribes(consumer, t)) {
        sortedCurrentSubscriptions.remove(consumer);
        moveTo(partition, consumer);
        sortedCurrentSubscriptions.add(consumer);
        recorder?.record('assign', consumer, partition, 'unassigned; given to the least-loaded subscribed member');
        break;
      }
    }
  }

  // Only topics with two or more potential consumers, and members that could change, take part in balancing.
  const canTopicParticipate = (t: number) => (topic2AllPotentialConsumers[t] as number[]).length >= 2;
  sortedAllPartitions = sortedAllPartitions.filter((p) => canTopicParticipate(group.partitionTopic[p] as number));
  unassignedPartitions = unassignedPartitions.filter((p) => canTopicParticipate(group.partitionTopic[p] as number));
  const fixed = new Uint8Array(M);
  for (let m = 0; m < M; m++) {
    let participates = size(m) < (maxAssignmentSize[m] as number);
    if (!participates) {
      for (const p of currentAssignment[m] as Set<number>) {
        if (canTopicParticipate(group.partitionTopic[p] as number)) {
          participates = true;
          break;
        }
      }
    }
    if (!participates) {
      sortedCurrentSubscriptions.remove(m);
      fixed[m] = 1;
    }
  }

  const preBalanceAssignment = currentAssignment.map((s, m) => (fixed[m] ? undefined : [...s]));
  const preBalanceOwner = owner.slice();

  // For "is it balanced", track per topic how many of its partitions sit with owners of each
  // size, so the largest owner per topic is known without rescanning all partitions.
  const ownerSizes = new TopicSizeHistogram(T);
  // And per topic, the sizes of the members subscribed to it (a partition can move if one is 2+ smaller than its owner).
  const consumerSizes = new TopicSizeHistogram(T);
  for (let m = 0; m < M; m++)
    for (const t of (members[m] as { topicIndexes: readonly number[] }).topicIndexes) consumerSizes.add(t, size(m), 1);
  const topicCounts: Map<number, number>[] = members.map(() => new Map());
  for (let m = 0; m < M; m++) {
    if (fixed[m]) continue;
    const counts = topicCounts[m] as Map<number, number>;
    for (const p of currentAssignment[m] as Set<number>) {
      const t = group.partitionTopic[p] as number;
      counts.set(t, (counts.get(t) ?? 0) + 1);
    }
    for (const [t, c] of counts) ownerSizes.add(t, size(m), c);
  }
  tracking = (partition, from, to) => {
    // Called before the move: every partition of `from` and `to` changes owner size by one.
    const t = group.partitionTopic[partition] as number;
    const sizeFrom = size(from);
    const fromCounts = topicCounts[from] as Map<number, number>;
    for (const [topic, c] of fromCounts) {
      ownerSizes.remove(topic, sizeFrom, c);
      const left = topic === t ? c - 1 : c;
      if (left > 0) ownerSizes.add(topic, sizeFrom - 1, left);
    }
    if ((fromCounts.get(t) as number) === 1) fromCounts.delete(t);
    else fromCounts.set(t, (fromCounts.get(t) as number) - 1);
    const sizeTo = size(to);
    const toCounts = topicCounts[to] as Map<number, number>;
    for (const [topic, c] of toCounts) {
      ownerSizes.remove(topic, sizeTo, c);
      ownerSizes.add(topic, sizeTo + 1, c);
    }
    ownerSizes.add(t, sizeTo + 1, 1);
    toCounts.set(t, (toCounts.get(t) ?? 0) + 1);
    for (const topic of (members[from] as { topicIndexes: readonly number[] }).topicIndexes) {
      consumerSizes.remove(topic, sizeFrom, 1);
      consumerSizes.add(topic, sizeFrom - 1, 1);
    }
    for (const topic of (members[to] as { topicIndexes: readonly number[] }).topicIndexes) {
      consumerSizes.remove(topic, sizeTo, 1);
      consumerSizes.add(topic, sizeTo + 1, 1);
    }
  };

  let balancedCache: boolean | undefined;
  const isBalanced = (): boolean => {
    if (balancedCache !== undefined) return balancedCache;
    const min = size(sortedCurrentSubscriptions.first());
    const max = size(sortedCurrentSubscriptions.last());
    balancedCache = true;
    if (min >= max - 1) return true;
    // A member short of its maximum is unbalanced if some partition of its topics sits with a
    // member holding 2+ more than it does. Members are visited smallest first, so once a member
    // is within one of the largest, no later one can be short.
    for (const consumer of sortedCurrentSubscriptions.members) {
      const consumerPartitionCount = size(consumer);
      if (consumerPartitionCount + 1 >= max) break;
      if (consumerPartitionCount === maxAssignmentSize[consumer]) continue;
      for (const t of (members[consumer] as { topicIndexes: readonly number[] }).topicIndexes) {
        if (consumerPartitionCount + 1 < ownerSizes.max(t)) {
          balancedCache = false;
          return false;
        }
      }
    }
    return true;
  };

  const processPartitionMovement = (partition: number, newConsumer: number) => {
    const oldConsumer = owner[partition] as number;
    sortedCurrentSubscriptions.remove(oldConsumer);
    sortedCurrentSubscriptions.remove(newConsumer);
    partitionMovements.movePartition(partition, oldConsumer, newConsumer);
    moveTo(partition, newConsumer);
    sortedCurrentSubscriptions.add(newConsumer);
    sortedCurrentSubscriptions.add(oldConsumer);
    balancedCache = undefined;
    recorder?.record(
      'move',
      newConsumer,
      partition,
      'moved from a member with 2+ more partitions to balance',
      oldConsumer,
    );
  };

  const reassignPartitionTo = (partition: number, newConsumer: number) => {
    const consumer = owner[partition] as number;
    const partitionToBeMoved = partitionMovements.getTheActualPartitionToBeMoved(partition, consumer, newConsumer);
    processPartitionMovement(partitionToBeMoved, newConsumer);
  };

  const reassignPartition = (partition: number) => {
    const t = group.partitionTopic[partition] as number;
    for (const anotherConsumer of sortedCurrentSubscriptions.members) {
      if (group.subscribes(anotherConsumer, t)) {
        reassignPartitionTo(partition, anotherConsumer);
        return;
      }
    }
  };

  const performReassignments = (reassignablePartitions: readonly number[]): boolean => {
    let reassignmentPerformed = false;
    let modified: boolean;
    do {
      modified = false;
      for (let i = 0; i < reassignablePartitions.length && !isBalanced(); i++) {
        const partition = reassignablePartitions[i] as number;
        const consumer = owner[partition] as number;
        const t = group.partitionTopic[partition] as number;
        const prev = prevAssignment.get(partition);
        // Kafka sends the partition back to its previous-generation owner when that evens things
        // out. (Only to an owner still subscribed to the topic and still balancing, which Kafka
        // assumes without checking.)
        if (
          prev !== undefined &&
          fixed[prev.consumer] === 0 &&
          group.subscribes(prev.consumer, t) &&
          size(consumer) > size(prev.consumer) + 1
        ) {
          reassignPartitionTo(partition, prev.consumer);
          reassignmentPerformed = true;
          modified = true;
          continue;
        }
        // Kafka scans the topic's potential consumers for one with 2+ fewer partitions; the
        // smallest of them answers the same question in O(1).
        if (size(consumer) > consumerSizes.min(t) + 1) {
          reassignPartition(partition);
          reassignmentPerformed = true;
          modified = true;
        }
      }
    } while (modified);
    return reassignmentPerformed;
  };

  const stepsBeforeBalancing = recorder?.steps.length ?? 0;
  // Step 3: if nothing has to be revoked anyway, first try balancing by moving only new partitions.
  if (!revocationRequired) performReassignments(unassignedPartitions);
  const reassignmentPerformed = performReassignments(sortedAllPartitions);

  const balanceScore = (sizes: number[]) => {
    // Sum of |a - b| over all pairs, via sorting: element i is larger than the i before it.
    sizes.sort((a, b) => a - b);
    let score = 0;
    for (let i = 0; i < sizes.length; i++) score += (sizes[i] as number) * (2 * i - (sizes.length - 1));
    return score;
  };
  if (!initializing && reassignmentPerformed) {
    const now: number[] = [];
    const before: number[] = [];
    for (let m = 0; m < M; m++) {
      if (fixed[m]) continue;
      now.push(size(m));
      before.push((preBalanceAssignment[m] as number[]).length);
    }
    if (balanceScore(now) >= balanceScore(before)) {
      // No better balanced: keep the assignment from before the moves.
      for (let m = 0; m < M; m++) {
        if (fixed[m]) continue;
        currentAssignment[m] = new Set(preBalanceAssignment[m] as number[]);
      }
      owner.set(preBalanceOwner);
      // The recorded moves never happened.
      if (recorder !== undefined) recorder.steps.length = stepsBeforeBalancing;
    }
  }

  return {
    assignment: currentAssignment.map((s) => [...s]),
    partitionsTransferringOwnership: null,
    isSticky: partitionMovements.isSticky(),
  };
}
