/**
 * Where a new topic's replicas go: Kafka's assignReplicasToBrokers over the live brokers, as the
 * create-topic dialog previews it and the createTopic action then places it. A random start index
 * comes from an Rng seeded by the scenario seed and the topic name, so a replay places the same.
 */
import { assignReplicasToBrokersWithSteps, type Cluster, isKafkaError, Rng } from '../index';
import type { PlacementPreview, PlacementPreviewArgs } from './types';

/** The live brokers and their racks, as assignReplicasToBrokers sees them. */
function placementBrokers(cluster: Cluster): PlacementPreview['brokers'] {
  return cluster.liveBrokerIds().map((id) => ({ id, rack: cluster.brokers.get(id)?.rack ?? null }));
}

/** Kafka's assignReplicasToBrokers for the dialog's arguments; throws its KafkaError as it is. */
export function placeReplicas(
  cluster: Cluster,
  seed: number,
  args: PlacementPreviewArgs,
): Omit<PlacementPreview, 'error'> {
  const brokers = placementBrokers(cluster);
  const input = brokers.map((b) => (args.rackAware && b.rack !== null ? { id: b.id, rack: b.rack } : { id: b.id }));
  const r = assignReplicasToBrokersWithSteps(input, args.partitions, args.replicationFactor, {
    ...(args.startIndex === null ? { rng: new Rng(seed ^ nameHash(args.name)) } : { fixedStartIndex: args.startIndex }),
    ...(args.startPartitionId ? { startPartitionId: args.startPartitionId } : {}),
  });
  return { brokers, assignment: r.assignment, steps: r.steps };
}

/** The dialog's preview: the placement, or Kafka's refusal of it with the brokers it saw. */
export function previewPlacement(cluster: Cluster, seed: number, args: PlacementPreviewArgs): PlacementPreview {
  try {
    return { ...placeReplicas(cluster, seed, args), error: null };
  } catch (e) {
    if (!isKafkaError(e)) throw e;
    return {
      brokers: placementBrokers(cluster),
      assignment: [],
      steps: [],
      error: { code: e.code, message: e.message },
    };
  }
}

function nameHash(name: string): number {
  let h = 0;
  for (let i = 0; i < name.length; i++) h = (Math.imul(h, 31) + name.charCodeAt(i)) | 0;
  return h;
}
