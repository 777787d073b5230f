import { KafkaError } from '../errors';
import { Rng } from '../Rng';

/**
 * Replica placement, as Kafka's `AdminUtils.assignReplicasToBrokers` computes it.
 *
 * Rack-unaware: brokers sorted by id; partition p's first replica (its preferred leader) goes to
 * broker `(p + startIndex) % n`, so leaders go round-robin; the other replicas follow at an
 * increasing distance `1 + (replicaShift + j) % (n - 1)`, and the shift grows by one every time
 * the partition id wraps around the broker list, so follower sets do not repeat.
 *
 * Rack-aware (every broker has a rack): the brokers are first arranged rack by rack in turn
 * (racks sorted by name, brokers by id within a rack) — the "rack-alternated" list — and the
 * same round-robin runs over it, except that a follower candidate is skipped while some rack
 * still has no replica of the partition and the candidate's rack already has one (and a broker
 * is never used twice while unused brokers remain).
 *
 * `fixedStartIndex` fixes both the start index and the first replica shift (Kafka passes the one
 * value for both); without it both are drawn from the seeded Rng.
 *
 * When only some brokers have a rack, placement falls back to rack-unaware, as Kafka does with
 * RackAwareMode.Safe (Kafka's Enforced mode would refuse instead).
 */
export interface BrokerRackInfo {
  id: number;
  rack?: string;
}

export interface AssignReplicasOptions {
  fixedStartIndex?: number;
  startPartitionId?: number;
  /** Where the random start index and shift come from when no fixedStartIndex is given. */
  rng?: Rng;
}

/** One step of a placement, for the UI to animate. */
export type PlacementStep =
  | { kind: 'arrangeBrokers'; rackAware: boolean; brokers: number[]; racks: (string | null)[] }
  | { kind: 'start'; startIndex: number; replicaShift: number; random: boolean }
  | { kind: 'shiftReplicas'; partition: number; replicaShift: number }
  | { kind: 'leader'; partition: number; broker: number; index: number }
  | { kind: 'follower'; partition: number; replica: number; broker: number; index: number; shift: number }
  | {
      kind: 'skip';
      partition: number;
      broker: number;
      index: number;
      reason: 'rackAlreadyHasReplica' | 'brokerAlreadyHasReplica';
    };

export interface ReplicaPlacementResult {
  /** Element i: replicas of partition startPartitionId + i, preferred leader first. */
  assignment: number[][];
  steps: PlacementStep[];
}

export function assignReplicasToBrokers(
  brokers: BrokerRackInfo[],
  numPartitions: number,
  replicationFactor: number,
  options?: AssignReplicasOptions,
): number[][] {
  return assignReplicasToBrokersWithSteps(brokers, numPartitions, replicationFactor, options).assignment;
}

export function assignReplicasToBrokersWithSteps(
  brokers: BrokerRackInfo[],
  numPartitions: number,
  replicationFactor: number,
  options: AssignReplicasOptions = {},
): ReplicaPlacementResult {
  if (!Number.isInteger(numPartitions) || numPartitions <= 0)
    throw new KafkaError('INVALID_PARTITIONS', 'Number of partitions must be larger than 0.', { numPartitions });
  if (!Number.isInteger(replicationFactor) || replicationFactor <= 0)
    throw new KafkaError('INVALID_REPLICATION_FACTOR', 'Replication factor must be larger than 0.', {
      replicationFactor,
    });
  if (replicationFactor > brokers.length)
    throw new KafkaError(
      'INVALID_REPLICATION_FACTOR',
      `Replication factor: ${replicationFactor} larger than available brokers: ${brokers.length}.`,
      { replicationFactor, brokers: brokers.length },
    );
  const ids = new Set(brokers.map((b) => b.id));
  if (ids.size !== brokers.length)
    throw new KafkaError('INVALID_REPLICA_ASSIGNMENT', 'Duplicate broker ids in the broker list.', {});
  const sorted = [...brokers].sort((a, b) => a.id - b.id);
  const rackAware = sorted.every((b) => b.rack !== undefined);
  const fixed = options.fixedStartIndex ?? -1;
  const startPartitionId = Math.max(0, options.startPartitionId ?? -1);
  const rng = options.rng ?? new Rng(0);
  const steps: PlacementStep[] = [];

  const arranged = rackAware
    ? getRackAlternatedBrokerList(new Map(sorted.map((b) => [b.id, b.rack as string])))
    : sorted.map((b) => b.id);
  const rackOf = new Map(sorted.map((b) => [b.id, b.rack ?? null]));
  steps.push({
    kind: 'arrangeBrokers',
    rackAware,
    brokers: [...arranged],
    racks: arranged.map((id) => (rackAware ? (rackOf.get(id) ?? null) : null)),
  });
  const n = arranged.length;
  const startIndex = fixed >= 0 ? fixed : rng.nextInt(n);
  let nextReplicaShift = fixed >= 0 ? fixed : rng.nextInt(n);
  steps.push({ kind: 'start', startIndex, replicaShift: nextReplicaShift, random: fixed < 0 });
  const numRacks = rackAware ? new Set(sorted.map((b) => b.rack)).size : 1;

  const assignment: number[][] = [];
  let partition = startPartitionId;
  for (let i = 0; i < numPartitions; i++, partition++) {
    if (partition > 0 && partition % n === 0) {
      nextReplicaShift += 1;
      steps.push({ kind: 'shiftReplicas', partition, replicaShift: nextReplicaShift });
    }
    const firstReplicaIndex = (partition + startIndex) % n;
    const leader = at(arranged, firstReplicaIndex);
    const replicas = [leader];
    steps.push({ kind: 'leader', partition, broker: leader, index: firstReplicaIndex });
    const addFollower = (j: number, broker: number, index: number) => {
      replicas.push(broker);
      steps.push({
        kind: 'follower',
        partition,
        replica: j + 1,
        broker,
        index,
        shift: (index - firstReplicaIndex + n) % n,
      });
    };
    if (!rackAware) {
      for (let j = 0; j < replicationFactor - 1; j++) {
        const index = replicaIndex(firstReplicaIndex, nextReplicaShift, j, n);
        addFollower(j, at(arranged, index), index);
      }
    } else {
      const racksWithReplicas = new Set([rackOf.get(leader)]);
      const brokersWithReplicas = new Set([leader]);
      let k = 0;
      for (let j = 0; j < replicationFactor - 1; j++) {
        for (;;) {
          const index = replicaIndex(firstReplicaIndex, nextReplicaShift * numRacks, k, n);
          const broker = at(arranged, index);
          const rack = rackOf.get(broker);
          k += 1;
          const rackOk = !racksWithReplicas.has(rack) || racksWithReplicas.size === numRacks;
          const brokerOk = !brokersWithReplicas.has(broker) || brokersWithReplicas.size === n;
          if (rackOk && brokerOk) {
            addFollower(j, broker, index);
            racksWithReplicas.add(rack);
            brokersWithReplicas.add(broker);
            break;
          }
          steps.push({
            kind: 'skip',
            partition,
            broker,
            index,
            reason: rackOk ? 'brokerAlreadyHasReplica' : 'rackAlreadyHasReplica',
          });
        }
      }
    }
    assignment.push(replicas);
  }
  return { assignment, steps };
}

/**
 * Brokers taken one per rack in turn (racks sorted by name, brokers by id within a rack):
 * rack1: 0,5; rack2: 3,4; rack3: 1,2 gives 0, 3, 1, 5, 4, 2.
 */
export function getRackAlternatedBrokerList(brokerRack: ReadonlyMap<number, string>): number[] {
  const byRack = new Map<string, number[]>();
  for (const [id, rack] of brokerRack) {
    const list = byRack.get(rack) ?? [];
    list.push(id);
    byRack.set(rack, list);
  }
  const racks = [...byRack.keys()].sort();
  for (const list of byRack.values()) list.sort((a, b) => a - b);
  const cursor = new Map(racks.map((r) => [r, 0]));
  const result: number[] = [];
  let rackIndex = 0;
  while (result.length < brokerRack.size) {
    const rack = racks[rackIndex] as string;
    const list = byRack.get(rack) as number[];
    const pos = cursor.get(rack) as number;
    if (pos < list.length) {
      result.push(list[pos] as number);
      cursor.set(rack, pos + 1);
    }
    rackIndex = (rackIndex + 1) % racks.length;
  }
  return result;
}

/** Index of the (j+2)-th replica: a distance of 1..n-1 from the first, never the first itself. */
function replicaIndex(firstReplicaIndex: number, secondReplicaShift: number, j: number, nBrokers: number): number {
  const shift = 1 + ((secondReplicaShift + j) % (nBrokers - 1));
  return (firstReplicaIndex + shift) % nBrokers;
}

function at(list: readonly number[], index: number): number {
  const v = list[index];
  if (v === undefined) throw new RangeError(`index ${index} out of ${list.length}`);
  return v;
}

/**
 * A manual assignment: one replication factor, no duplicate brokers and, given `known`, no unknown
 * ones (INVALID_REPLICA_ASSIGNMENT). ZkAdminManager.createTopics checks no broker ids ("this follows
 * the existing logic in TopicCommand"): a new topic's replicas may name brokers never registered.
 */
export function validateAssignment(assignment: number[][], known: ReadonlySet<number> | null): number[][] {
  if (assignment.length === 0)
    throw new KafkaError('INVALID_REPLICA_ASSIGNMENT', 'The replica assignment is empty.', {});
  const rf = assignment[0]?.length ?? 0;
  return assignment.map((replicas, p) => {
    if (replicas.length === 0 || replicas.length !== rf)
      throw new KafkaError('INVALID_REPLICA_ASSIGNMENT', `Partition ${p} must have ${rf} replicas.`, { partition: p });
    if (new Set(replicas).size !== replicas.length)
      throw new KafkaError('INVALID_REPLICA_ASSIGNMENT', `Duplicate brokers in partition ${p}'s replicas.`, {
        partition: p,
      });
    for (const r of replicas)
      if (known && !known.has(r))
        throw new KafkaError('INVALID_REPLICA_ASSIGNMENT', `Unknown broker ${r} in partition ${p}'s replicas.`, {
          partition: p,
        });
    return [...replicas];
  });
}
