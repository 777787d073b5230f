import type { CoordinationStore } from '../cluster/CoordinationStore';
import type { Network } from '../cluster/Network';
import type { Scheduler } from '../cluster/Scheduler';
import { KafkaError } from '../errors';
import type { Rng } from '../Rng';
import type { ClusterPort } from '../clients/consumer/ClusterPort';
import { type GroupCoordinatorConfig, groupCoordinatorConfig } from '../clients/consumer/ConsumerConfig';
import { ConsumerNetworkClient } from '../clients/consumer/ConsumerNetworkClient';
import { createOffsetsTopic, GroupCoordinator, OFFSETS_TOPIC } from '../coordinator/group/GroupCoordinator';
import { groupCoordinatorPartition } from '../coordinator/group/groupCoordinatorPartition';
import type { GroupEvent } from '../clients/consumer/groupEvents';
import { KafkaConsumer } from '../clients/consumer/KafkaConsumer';
import { type ZkConsumerConfig, ZookeeperConsumerConnector } from '../clients/consumer/ZookeeperConsumerConnector';
import { decodeAssignment, fromTopicPartitions } from '../clients/consumer/offsetsSchema';

/** One row of `kafka-consumer-groups --describe`. */
export interface ConsumerGroupDescribeRow {
  group: string;
  topic: string;
  partition: number;
  currentOffset: number | null;
  logEndOffset: number;
  /** LOG-END-OFFSET - CURRENT-OFFSET; null when nothing is committed. */
  lag: number | null;
  consumerId: string | null;
  host: string | null;
  clientId: string | null;
}

export interface GroupSnapshot {
  groupId: string;
  coordinator: number | null;
  offsetsPartition: number;
  state: string;
  generationId: number;
  protocolType: string | null;
  protocolName: string | null;
  leader: string | null;
  /** group.initial.rebalance.delay.ms while the new group waits it out before generation 1, else null. */
  initialRebalanceDelayMs: number | null;
  members: {
    memberId: string;
    groupInstanceId: string | null;
    clientId: string;
    clientHost: string;
    assignment: { topic: string; partition: number }[];
    /**
     * The ConsumerProtocolAssignment the leader computed, as the member got it in SyncGroup: its
     * version and the size of its user data (null: none). Null when there is none yet, or the bytes
     * are not a consumer assignment (another protocol type).
     */
    assignmentBytes: { version: number; userDataBytes: number | null } | null;
    lastHeartbeatMs: number;
  }[];
  offsets: { topic: string; partition: number; offset: number }[];
}

export interface ConsumerSnapshot {
  consumerId: string;
  groupId: string | null;
  lifecycle: string;
  memberState: string;
  memberId: string;
  generationId: number;
  coordinator: number | null;
  /** Per assigned partition: the fetch position and the high watermark its last fetch reported. */
  assignment: { topic: string; partition: number; position: number | null; highWatermark: number | null }[];
  recordsConsumed: number;
}

/**
 * Where a group's coordinator stands: its `__consumer_offsets` partition, the running broker that
 * leads it (null while none does: the leader's process is gone, or the partition is offline), and
 * whether that broker has loaded the partition's groups (GroupMetadataManager.loadGroupsAndOffsets).
 * A client asking in between is told COORDINATOR_NOT_AVAILABLE or COORDINATOR_LOAD_IN_PROGRESS.
 */
export interface CoordinatorStanding {
  offsetsPartition: number;
  servingLeader: number | null;
  loaded: boolean;
}

export interface ConsumerGroupsDeps {
  scheduler: Scheduler;
  port: ClusterPort;
  rng: Rng;
  emit(event: GroupEvent): void;
  coordinatorConfig?: Partial<GroupCoordinatorConfig>;
  /** The cluster's network: the consumers are nodes on it, and their requests reach the brokers' KafkaApis. */
  network: Network;
  /** The coordination store, for the legacy ZooKeeper consumer. */
  zk?: CoordinationStore;
  /** One ZooKeeper round trip for legacy consumers (default 2 ms). */
  zkLatencyMs?: number;
  /** Upper bound of the seeded delay before a legacy consumer notices a watch (default 20 ms). */
  zkWatchJitterMs?: number;
}

/**
 * Consumer groups in a running cluster: the group coordinator of every broker and the consumers.
 * Every request a consumer sends travels the cluster's Network (`ConsumerNetworkClient`) to the
 * broker it addresses, whose KafkaApis answers it: FindCoordinator and the group APIs by its
 * GroupCoordinator, Fetch / ListOffsets / OffsetsForLeaderEpoch by its ReplicaManager (a fetch
 * waits in its DelayedFetch purgatory). A broker going down takes its coordinator state with it
 * at once (`GroupCoordinator.shutdown`).
 */
export class ConsumerGroups {
  readonly config: GroupCoordinatorConfig;
  readonly network: ConsumerNetworkClient;
  readonly coordinators = new Map<number, GroupCoordinator>();
  readonly consumers = new Map<string, KafkaConsumer>();
  readonly zkConsumers = new Map<string, ZookeeperConsumerConnector>();

  constructor(private readonly deps: ConsumerGroupsDeps) {
    this.config = groupCoordinatorConfig(deps.coordinatorConfig ?? {});
    const port = deps.port;
    this.network = new ConsumerNetworkClient(deps.scheduler, deps.network, deps.emit);
    port.onBrokerDown?.((brokerId) => this.onBrokerDown(brokerId));
    // A port playing the controller itself says who leads; the engine's brokers tell their
    // coordinator from KafkaApis as LeaderAndIsr lands (Cluster's `groupCoordinator`).
    port.onLeadershipChange?.((brokerId, topic, partition, isLeader) => {
      if (topic !== OFFSETS_TOPIC) return;
      if (isLeader) this.coordinatorOn(brokerId).onElection(partition);
      else this.coordinators.get(brokerId)?.onResignation(partition);
    });
  }

  coordinatorOn(brokerId: number): GroupCoordinator {
    let c = this.coordinators.get(brokerId);
    if (!c) {
      c = new GroupCoordinator(brokerId, {
        scheduler: this.deps.scheduler,
        port: this.deps.port,
        config: this.config,
        rng: this.deps.rng,
        emit: this.deps.emit,
      });
      this.coordinators.set(brokerId, c);
    }
    return c;
  }

  /** A broker process went down: its coordinator state goes with it at once (a restart must not find it still in memory). */
  private onBrokerDown(brokerId: number): void {
    this.coordinators.get(brokerId)?.shutdown();
  }

  /** Creates `__consumer_offsets` if it is not there yet (replication factor capped to live brokers). */
  ensureOffsetsTopic(): boolean {
    return createOffsetsTopic(this.deps.port, this.config);
  }

  // ------------------------------------------------------------------ clients

  createConsumer(consumerId: string, config: Record<string, unknown>): KafkaConsumer {
    if (this.consumers.has(consumerId) && this.consumers.get(consumerId)?.lifecycle === 'running') {
      throw new KafkaError('INVALID_REQUEST', `consumer ${consumerId} already exists`);
    }
    const consumer = this.newKafkaConsumer(consumerId, config);
    this.consumers.set(consumerId, consumer);
    return consumer;
  }

  /** A KafkaConsumer whose client `consumerId` is now up on the network. */
  private newKafkaConsumer(consumerId: string, config: Record<string, unknown>): KafkaConsumer {
    this.network.clientUp(consumerId);
    const { scheduler, port, emit } = this.deps;
    return new KafkaConsumer({ clientId: consumerId, scheduler, network: this.network, port, emit }, config);
  }

  /**
   * A legacy (Kafka 0.8) consumer that rebalances itself through ZooKeeper. Its fetch path is a
   * group-less KafkaConsumer on the same links (`<consumerId>`), like 0.8's SimpleConsumer fetchers.
   */
  createZkConsumer(
    consumerId: string,
    groupId: string,
    topics: string[],
    config: Partial<ZkConsumerConfig> = {},
  ): ZookeeperConsumerConnector {
    const zk = this.deps.zk;
    if (!zk) throw new KafkaError('INVALID_REQUEST', 'the ZooKeeper consumer needs a coordination store');
    if (
      this.zkConsumers.get(consumerId)?.state === 'running' ||
      this.consumers.get(consumerId)?.lifecycle === 'running'
    ) {
      throw new KafkaError('INVALID_REQUEST', `consumer ${consumerId} already exists`);
    }
    const fetcher = this.newKafkaConsumer(consumerId, {
      'auto.offset.reset': config['auto.offset.reset'] === 'smallest' ? 'earliest' : 'latest',
    });
    const connector = new ZookeeperConsumerConnector(
      {
        store: zk,
        scheduler: this.deps.scheduler,
        rng: this.deps.rng,
        emit: this.deps.emit,
        fetcher,
        zkLatencyMs: this.deps.zkLatencyMs ?? 2,
        watchJitterMs: this.deps.zkWatchJitterMs ?? 20,
      },
      consumerId,
      groupId,
      topics,
      config,
    );
    this.zkConsumers.set(consumerId, connector);
    connector.start();
    return connector;
  }

  /**
   * kafka-consumer-groups --delete: an Empty group's offsets and metadata are removed with
   * tombstones. Refused with NON_EMPTY_GROUP while it has members, GROUP_ID_NOT_FOUND if unknown,
   * COORDINATOR_NOT_AVAILABLE if no broker serves its partition.
   */
  deleteGroup(groupId: string, done: (error: string) => void = () => {}): void {
    const { shard } = this.shardOf(groupId);
    if (!shard) throw new KafkaError('COORDINATOR_NOT_AVAILABLE', `no coordinator is serving group ${groupId}`);
    if (!shard.loaded)
      throw new KafkaError('COORDINATOR_LOAD_IN_PROGRESS', `the coordinator of group ${groupId} is still loading`);
    const group = shard.groupManager.groups.get(groupId);
    if (!group && !shard.offsetManager.offsets.has(groupId))
      throw new KafkaError('GROUP_ID_NOT_FOUND', `group ${groupId} does not exist`);
    if (group && !group.is('Empty'))
      throw new KafkaError('NON_EMPTY_GROUP', `group ${groupId} has ${group.size} members`);
    shard.deleteGroup(groupId, done);
  }

  /**
   * kafka-consumer-groups --delete-offsets (OffsetDelete): the group's committed offsets of these
   * partitions, removed with tombstones by its coordinator (GroupCoordinator.deleteOffsets).
   */
  deleteOffsets(
    groupId: string,
    partitions: readonly { topic: string; partition: number }[],
    done: (groupError: string, partitionErrors: string[]) => void,
  ): void {
    const { shard } = this.shardOf(groupId);
    if (!shard) throw new KafkaError('COORDINATOR_NOT_AVAILABLE', `no coordinator is serving group ${groupId}`);
    if (!shard.loaded)
      throw new KafkaError('COORDINATOR_LOAD_IN_PROGRESS', `the coordinator of group ${groupId} is still loading`);
    shard.deleteOffsets(groupId, partitions, done);
  }

  // ------------------------------------------------------------------ views

  /** The coordinator currently serving a group, if its partition is loaded somewhere. */
  private shardOf(groupId: string) {
    const partition = groupCoordinatorPartition(groupId, this.config['offsets.topic.num.partitions']);
    const leader =
      this.deps.port.partitionCount(OFFSETS_TOPIC) === undefined
        ? null
        : this.deps.port.leaderOf(OFFSETS_TOPIC, partition);
    const shard = leader === null ? undefined : this.coordinators.get(leader)?.shards.get(partition);
    return { partition, leader, shard };
  }

  coordinatorOf(groupId: string): CoordinatorStanding {
    const { partition, leader, shard } = this.shardOf(groupId);
    return { offsetsPartition: partition, servingLeader: leader, loaded: shard !== undefined };
  }

  /** kafka-consumer-groups --describe: one row per partition with a committed offset or an owner. */
  describeGroup(groupId: string, logEnds?: Map<string, number>): ConsumerGroupDescribeRow[] {
    const { shard } = this.shardOf(groupId);
    if (!shard) return [];
    const group = shard.groupManager.groups.get(groupId);
    const owners = new Map<string, { memberId: string; clientId: string; host: string }>();
    if (group?.is('Stable')) {
      for (const m of group.members.values()) {
        const decoded = decodedAssignment(m.assignment);
        if (!decoded) continue;
        for (const tp of fromTopicPartitions(decoded.assignedPartitions)) {
          owners.set(`${tp.topic}\u0000${tp.partition}`, {
            memberId: m.memberId,
            clientId: m.clientId,
            host: m.clientHost,
          });
        }
      }
    }
    const keys = new Set(owners.keys());
    for (const k of shard.offsetManager.offsets.get(groupId)?.keys() ?? []) keys.add(k);
    const rows: ConsumerGroupDescribeRow[] = [];
    for (const k of keys) {
      const [topic, p] = k.split('\u0000') as [string, string];
      const partition = Number(p);
      const committed = shard.offsetManager.committed(groupId, topic, partition);
      // The leader's log end offset; a caller describing many groups at one instant shares the lookups.
      let end = logEnds?.get(k);
      if (end === undefined) {
        const leader = this.deps.port.leaderOf(topic, partition);
        end = leader === null ? -1 : this.deps.port.listOffsets(leader, topic, partition).latest;
        logEnds?.set(k, end);
      }
      const owner = owners.get(k);
      rows.push({
        group: groupId,
        topic,
        partition,
        currentOffset: committed?.offset ?? null,
        logEndOffset: end,
        lag: committed ? lag(end, committed.offset) : null,
        consumerId: owner?.memberId ?? null,
        host: owner?.host ?? null,
        clientId: owner?.clientId ?? null,
      });
    }
    return rows.sort((a, b) => (a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : a.partition - b.partition));
  }

  groupSnapshot(groupId: string): GroupSnapshot | null {
    const { partition, leader, shard } = this.shardOf(groupId);
    const group = shard?.groupManager.groups.get(groupId);
    const offsets = shard?.offsetManager.offsets.get(groupId);
    if (!shard || (!group && !offsets)) return null;
    return {
      groupId,
      coordinator: leader,
      offsetsPartition: partition,
      state: group?.state ?? 'Empty',
      generationId: group?.generationId ?? 0,
      protocolType: group?.protocolType ?? null,
      protocolName: group?.protocolName ?? null,
      leader: group?.leaderId ?? null,
      initialRebalanceDelayMs: group ? shard.groupManager.initialRebalanceDelayMs(group) : null,
      members: [...(group?.members.values() ?? [])].map((m) => {
        const decoded = decodedAssignment(m.assignment);
        return {
          memberId: m.memberId,
          groupInstanceId: m.groupInstanceId,
          clientId: m.clientId,
          clientHost: m.clientHost,
          assignment: decoded ? fromTopicPartitions(decoded.assignedPartitions) : [],
          assignmentBytes: decoded
            ? { version: decoded.version, userDataBytes: decoded.userData ? decoded.userData.length : null }
            : null,
          lastHeartbeatMs: m.lastHeartbeatMs,
        };
      }),
      offsets: [...(offsets ?? new Map())].map(([k, v]) => {
        const [topic, p] = (k as string).split('\u0000') as [string, string];
        return { topic, partition: Number(p), offset: v.offset };
      }),
    };
  }

  /** Offsets partitions being loaded right now, by broker. */
  coordinatorLoads(): { broker: number; offsetsPartition: number; completesAtMs: number }[] {
    const out: { broker: number; offsetsPartition: number; completesAtMs: number }[] = [];
    for (const [broker, c] of [...this.coordinators].sort(([a], [b]) => a - b)) {
      for (const [offsetsPartition, shard] of [...c.shards].sort(([a], [b]) => a - b)) {
        if (!shard.loaded && shard.loadCompletesAtMs !== null)
          out.push({ broker, offsetsPartition, completesAtMs: shard.loadCompletesAtMs });
      }
    }
    return out;
  }

  groupIds(): string[] {
    const ids = new Set<string>();
    for (const c of this.coordinators.values()) {
      for (const s of c.shards.values()) {
        for (const g of s.groupManager.groups.keys()) ids.add(g);
        for (const g of s.offsetManager.offsets.keys()) ids.add(g);
      }
    }
    return [...ids].sort();
  }

  consumerSnapshot(consumer: KafkaConsumer): ConsumerSnapshot {
    const c = consumer.coordinator;
    return {
      consumerId: consumer.clientId,
      groupId: consumer.groupId,
      lifecycle: consumer.lifecycle,
      memberState: c?.state ?? 'UNJOINED',
      memberId: c?.memberId ?? '',
      generationId: c?.generationId ?? -1,
      coordinator: c?.coordinator ?? null,
      assignment: consumer.subscriptions
        .states()
        .map((s) => ({ topic: s.topic, partition: s.partition, position: s.position, highWatermark: s.highWatermark })),
      recordsConsumed: consumer.recordsConsumed,
    };
  }
}

/**
 * A member's assignment bytes read as Kafka's ConsumerProtocolAssignment; null when it has none
 * or they are not one (a real client of another protocol type may sit in a group too).
 */
function decodedAssignment(bytes: Uint8Array): ReturnType<typeof decodeAssignment> | null {
  if (bytes.length === 0) return null;
  try {
    return decodeAssignment(bytes);
  } catch {
    return null;
  }
}

/** Lag of a partition: how far the committed offset is behind the log end (never negative). */
export function lag(logEndOffset: number, committedOffset: number): number {
  return Math.max(0, logEndOffset - committedOffset);
}
