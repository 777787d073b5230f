import { isKafkaError } from '../errors';
import type { LeaderIsrAndControllerEpoch } from './ControllerContext';
import type { CoordinationStore } from './CoordinationStore';

/** The znodes the controller reads and writes for topics (Kafka's ZkData: TopicZNode, TopicPartitionStateZNode). */
export const topicPath = (t: string) => `/brokers/topics/${t}`;
export const statePath = (t: string, p: number) => `/brokers/topics/${t}/partitions/${p}/state`;

export interface TopicAssignmentZnode {
  /** 3 since topic ids (KIP-516), which "topic_id" carries. */
  version: 2 | 3;
  topic_id?: string;
  partitions: Record<string, number[]>;
  adding_replicas: Record<string, number[]>;
  removing_replicas: Record<string, number[]>;
}

interface PartitionStateZnode {
  controller_epoch: number;
  leader: number;
  version: 1;
  leader_epoch: number;
  isr: number[];
}

/** A partition's `/state` znode, with its version as the partition epoch; null when absent. */
export function readPartitionState(
  zk: CoordinationStore,
  topic: string,
  partition: number,
): LeaderIsrAndControllerEpoch | null {
  const path = statePath(topic, partition);
  if (!zk.exists(path)) return null;
  const { data, stat } = zk.getData(path);
  const d = data as PartitionStateZnode;
  return {
    leader: d.leader,
    leaderEpoch: d.leader_epoch,
    isr: d.isr,
    partitionEpoch: stat.version,
    controllerEpoch: d.controller_epoch,
  };
}

/**
 * Writes a partition's `/state` conditional on `oldVersion` (created when null); returns the new
 * version, or null when the znode changed meanwhile (BAD_VERSION) or already exists.
 */
export function writePartitionState(
  zk: CoordinationStore,
  topic: string,
  partition: number,
  controllerEpoch: number,
  next: { leader: number; leaderEpoch: number; isr: number[] },
  oldVersion: number | null,
): number | null {
  const path = statePath(topic, partition);
  const data: PartitionStateZnode = {
    controller_epoch: controllerEpoch,
    leader: next.leader,
    version: 1,
    leader_epoch: next.leaderEpoch,
    isr: next.isr,
  };
  try {
    if (oldVersion !== null) return zk.setData(path, data, oldVersion).version;
    const parent = `/brokers/topics/${topic}/partitions/${partition}`;
    if (!zk.exists(parent)) zk.createRecursive(parent, null);
    zk.create(path, data);
    return 0;
  } catch (e) {
    if (isKafkaError(e, 'BAD_VERSION') || isKafkaError(e, 'NODE_EXISTS')) return null;
    throw e;
  }
}

/** Topic assignments as last read, keyed by znode version (Kafka's ControllerContext caches them too). */
export class TopicAssignmentCache {
  private readonly cache = new Map<string, { version: string; value: number[][] }>();

  /** A topic's replica assignment (shared: callers must not mutate it). */
  get(zk: CoordinationStore, topic: string): number[][] {
    const stat = zk.exists(topicPath(topic));
    if (!stat) return [];
    const version = `${stat.czxid}:${stat.mzxid}`;
    const hit = this.cache.get(topic);
    if (hit?.version === version) return hit.value;
    const d = zk.tryGetData(topicPath(topic)) as TopicAssignmentZnode | null;
    if (!d) return [];
    const out: number[][] = [];
    for (const [p, replicas] of Object.entries(d.partitions)) out[Number(p)] = replicas;
    this.cache.set(topic, { version, value: out });
    return out;
  }
}
