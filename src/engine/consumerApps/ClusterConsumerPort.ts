import type { Cluster } from '../cluster/Cluster';
import type { ClusterEvent } from '../cluster/events';
import type { Broker } from '../cluster/Broker';
import { CONSUMER_REPLICA_ID, type ProduceResponse } from '../cluster/requests';
import { withRecords, type SimpleRecord } from '../codec/memoryRecords';
import { isKafkaError, type KafkaErrorCode } from '../errors';
import type { AppendCallback, ClusterPort, PortRecord } from '../clients/consumer/ClusterPort';
import { toPortRecords } from '../clients/consumer/portRecords';

/**
 * The ClusterPort over the real simulated cluster. The group coordinator lives inside its
 * broker, so it appends to `__consumer_offsets` through that broker's ReplicaManager with
 * acks=all (the request completes once the ISR has the records, exactly like Kafka's
 * appendRecords for the internal topic), and loads a partition by reading its local log.
 * Its `listOffsets` reads the leader's ReplicaManager as a consumer (replicaId -1) would, for the
 * describe rows' log ends; the consumers' own requests reach the brokers' KafkaApis over the network.
 */
export class ClusterConsumerPort implements ClusterPort {
  private brokerDownListener: ((brokerId: number, how: 'killed' | 'powerFailed' | 'stopped') => void) | null = null;

  /**
   * `events` subscribes to the cluster's events (the engine's subscribe), to hear brokers going
   * down. High-watermark moves are not listened for: a consumer's long poll waits in the
   * broker's own DelayedFetch purgatory.
   */
  constructor(
    private readonly cluster: Cluster,
    events?: (listener: (e: ClusterEvent | { type: string }) => void) => void,
  ) {
    events?.((e) => {
      if (e.type !== 'brokerDown') return;
      const down = e as Extract<ClusterEvent, { type: 'brokerDown' }>;
      this.brokerDownListener?.(down.broker, down.how);
    });
  }

  onBrokerDown(listener: (brokerId: number, how: 'killed' | 'powerFailed' | 'stopped') => void): void {
    this.brokerDownListener = listener;
  }

  private running(brokerId: number): Broker | null {
    const b = this.cluster.brokers.get(brokerId);
    if (b?.state !== 'running' || this.cluster.network.isIsolated(b.node)) return null;
    return b;
  }

  liveBrokers(): number[] {
    return [...this.cluster.brokers.keys()].filter((id) => this.running(id) !== null).sort((a, b) => a - b);
  }

  isBrokerUp(brokerId: number): boolean {
    return this.running(brokerId) !== null;
  }

  topics(): string[] {
    return this.cluster.topicNames();
  }

  private readonly counts = new Map<string, { mzxid: number; count: number }>();

  /** From `/brokers/topics/<t>`, cached until that znode changes (consumers ask on every poll). */
  partitionCount(topic: string): number | undefined {
    const stat = this.cluster.zk.exists(`/brokers/topics/${topic}`);
    if (!stat) return undefined;
    const cached = this.counts.get(topic);
    if (cached && cached.mzxid === stat.mzxid) return cached.count;
    const count = this.cluster.assignment(topic).length;
    this.counts.set(topic, { mzxid: stat.mzxid, count });
    return count;
  }

  leads(brokerId: number, topic: string, partition: number): boolean {
    return this.running(brokerId)?.replicaManager.partitions.get(`${topic}-${partition}`)?.isLeader === true;
  }

  /** The leader in the partition state, once that broker has actually become leader. */
  leaderOf(topic: string, partition: number): number | null {
    const state = this.cluster.partitionState(topic, partition);
    if (!state || state.leader < 0) return null;
    const b = this.running(state.leader);
    const p = b?.replicaManager.partitions.get(`${topic}-${partition}`);
    return p?.isLeader ? state.leader : null;
  }

  createTopic(
    name: string,
    partitions: number,
    replicationFactor: number,
    configs: Record<string, string>,
  ): KafkaErrorCode | 'NONE' {
    try {
      this.cluster.createTopic({ name, partitions, replicationFactor, configs });
      return 'NONE';
    } catch (e) {
      if (isKafkaError(e)) return e.code;
      throw e;
    }
  }

  append(topic: string, partition: number, records: SimpleRecord[], done: AppendCallback): void {
    const leader = this.leaderOf(topic, partition);
    const broker = leader === null ? null : this.running(leader);
    if (!broker) {
      this.cluster.scheduler.schedule(0, () => done('NOT_LEADER_OR_FOLLOWER', -1));
      return;
    }
    const batch = withRecords(records, this.cluster.scheduler.now());
    broker.replicaManager.handleProduce(
      {
        api: 'Produce',
        transactionalId: null,
        acks: -1,
        timeoutMs: 5000,
        topicData: [{ topic, partitions: [{ partition, records: batch }] }],
      },
      (r: ProduceResponse) => {
        const p = r.responses[0]?.partitions[0];
        if (p?.errorCode !== 'NONE') done((p?.errorCode ?? 'UNKNOWN_SERVER_ERROR') as KafkaErrorCode, -1);
        else done(null, p.baseOffset);
      },
    );
  }

  /** The epoch a Metadata response would carry: the leader's own, once it has become leader. */
  leaderEpochOf(topic: string, partition: number): number | null {
    const leader = this.leaderOf(topic, partition);
    if (leader === null) return null;
    return this.running(leader)?.replicaManager.partitions.get(`${topic}-${partition}`)?.leaderEpoch ?? null;
  }

  readLocalLog(brokerId: number, topic: string, partition: number): PortRecord[] {
    const hosted = this.cluster.brokers.get(brokerId)?.replicaManager.logs.get(`${topic}-${partition}`);
    if (!hosted) return [];
    const log = hosted.log;
    const bytes = log.read(log.logStartOffset(), Number.MAX_SAFE_INTEGER, log.logEndOffset());
    return toPortRecords(bytes);
  }

  listOffsets(brokerId: number, topic: string, partition: number) {
    const broker = this.running(brokerId);
    if (!broker) return { errorCode: 'NOT_LEADER_OR_FOLLOWER' as const, earliest: -1, latest: -1 };
    const ask = (timestamp: number) =>
      broker.replicaManager.handleListOffsets({
        api: 'ListOffsets',
        replicaId: CONSUMER_REPLICA_ID,
        isolationLevel: 0,
        topics: [{ name: topic, partitions: [{ partitionIndex: partition, currentLeaderEpoch: -1, timestamp }] }],
      }).topics[0]?.partitions[0];
    const earliest = ask(-2);
    const latest = ask(-1);
    // Either answer's error stands for both (OFFSET_NOT_AVAILABLE comes only with "latest").
    const failed = [earliest, latest].find((r) => r?.errorCode !== 'NONE');
    if (!earliest || !latest || failed) {
      return { errorCode: (failed?.errorCode ?? 'UNKNOWN_SERVER_ERROR') as KafkaErrorCode, earliest: -1, latest: -1 };
    }
    return { errorCode: 'NONE' as const, earliest: earliest.offset, latest: latest.offset };
  }
}
