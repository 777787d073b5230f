import type { Scheduler } from '../cluster/Scheduler';
import type { SimpleRecord } from '../codec/memoryRecords';
import type { KafkaErrorCode } from '../errors';
import type { AppendCallback, ClusterPort, PortRecord } from '../clients/consumer/ClusterPort';

export interface PortFetchResult {
  errorCode: KafkaErrorCode | 'NONE';
  /** Records in [fetchOffset, highWatermark), at most maxBytes (but at least one record). */
  records: PortRecord[];
  highWatermark: number;
  logStartOffset: number;
  logEndOffset: number;
}

/** One partition of a consumer Fetch (Kafka's FetchRequest.PartitionData, with its topic and partition). */
export interface PortFetchPartition {
  topic: string;
  partition: number;
  fetchOffset: number;
  /** At most this many bytes, though at least one record. */
  maxBytes: number;
  /** -1 or absent: none (no epoch check). */
  currentLeaderEpoch?: number;
}

interface MemPartition {
  topic: string;
  index: number;
  leader: number | null;
  records: PortRecord[];
  logStartOffset: number;
  nextOffset: number;
  /** The high watermark; equals the log end unless a test holds it back. */
  highWatermark: number;
  holdHighWatermark: boolean;
}

/**
 * A cluster reduced to what consumer groups see: brokers that are up or down, partitions with a
 * leader and one shared log, a high watermark, and acks=all appends that complete after
 * `appendDelayMs` on the scheduler. For tests and benchmarks of the group machinery on its own;
 * the engine plugs the real brokers in through the same ClusterPort.
 */
export class InMemoryClusterPort implements ClusterPort {
  private readonly brokers = new Map<number, boolean>();
  private readonly partitions = new Map<string, MemPartition[]>();
  appendDelayMs = 1;
  private hwListener: ((brokerId: number, topic: string, partition: number) => void) | null = null;
  private leadershipListener: ((brokerId: number, topic: string, partition: number, isLeader: boolean) => void) | null =
    null;
  private brokerListener: ((brokerId: number, up: boolean) => void) | null = null;

  constructor(
    private readonly scheduler: Scheduler,
    brokerIds: number[] = [1, 2, 3],
  ) {
    for (const id of brokerIds) this.brokers.set(id, true);
  }

  liveBrokers(): number[] {
    return [...this.brokers]
      .filter(([, up]) => up)
      .map(([id]) => id)
      .sort((a, b) => a - b);
  }

  isBrokerUp(brokerId: number): boolean {
    return this.brokers.get(brokerId) === true;
  }

  /** Stops a broker; partitions it led move to the next live broker (id order), like a controller would. */
  stopBroker(brokerId: number): void {
    this.brokers.set(brokerId, false);
    this.brokerListener?.(brokerId, false);
    const live = this.liveBrokers();
    for (const parts of this.partitions.values()) {
      for (const p of parts) {
        if (p.leader === brokerId)
          this.elect(p, live.length > 0 ? (live.find((b) => b > brokerId) ?? live[0] ?? null) : null);
      }
    }
  }

  startBroker(brokerId: number): void {
    this.brokers.set(brokerId, true);
    this.brokerListener?.(brokerId, true);
    for (const parts of this.partitions.values()) for (const p of parts) if (p.leader === null) this.elect(p, brokerId);
  }

  /** Registers the one listener told when a broker process stops or starts (the bed's brokers on its network). */
  onBrokerStateChange(listener: (brokerId: number, up: boolean) => void): void {
    this.brokerListener = listener;
  }

  setLeader(topic: string, partition: number, brokerId: number | null): void {
    this.elect(this.part(topic, partition), brokerId);
  }

  onLeadershipChange(listener: (brokerId: number, topic: string, partition: number, isLeader: boolean) => void): void {
    this.leadershipListener = listener;
  }

  /** The controller's part: a new leader, and LeaderAndIsr telling the old and the new one at once. */
  private elect(p: MemPartition, leader: number | null): void {
    const old = p.leader;
    p.leader = leader;
    if (old === leader) return;
    if (old !== null) this.leadershipListener?.(old, p.topic, p.index, false);
    if (leader !== null) this.leadershipListener?.(leader, p.topic, p.index, true);
  }

  topics(): string[] {
    return [...this.partitions.keys()].sort();
  }

  partitionCount(topic: string): number | undefined {
    return this.partitions.get(topic)?.length;
  }

  leads(brokerId: number, topic: string, partition: number): boolean {
    return this.isBrokerUp(brokerId) && this.leaderOf(topic, partition) === brokerId;
  }

  leaderOf(topic: string, partition: number): number | null {
    return this.partitions.get(topic)?.[partition]?.leader ?? null;
  }

  createTopic(name: string, partitions: number, _replicationFactor: number): KafkaErrorCode | 'NONE' {
    if (this.partitions.has(name)) return 'TOPIC_ALREADY_EXISTS';
    const live = this.liveBrokers();
    if (live.length === 0) return 'INVALID_REPLICATION_FACTOR';
    this.partitions.set(
      name,
      Array.from({ length: partitions }, (_, i) => ({
        topic: name,
        index: i,
        leader: live[i % live.length] as number,
        records: [],
        logStartOffset: 0,
        nextOffset: 0,
        highWatermark: 0,
        holdHighWatermark: false,
      })),
    );
    for (const p of this.partitions.get(name) ?? [])
      if (p.leader !== null) this.leadershipListener?.(p.leader, name, p.index, true);
    return 'NONE';
  }

  /** Adds partitions to an existing topic (kafka-topics --alter --partitions). */
  addPartitions(topic: string, total: number): void {
    const parts = this.partitions.get(topic);
    if (!parts) throw new Error(`no topic ${topic}`);
    const live = this.liveBrokers();
    while (parts.length < total) {
      parts.push({
        topic,
        index: parts.length,
        leader: live[parts.length % live.length] ?? null,
        records: [],
        logStartOffset: 0,
        nextOffset: 0,
        highWatermark: 0,
        holdHighWatermark: false,
      });
      const added = parts[parts.length - 1] as MemPartition;
      if (added.leader !== null) this.leadershipListener?.(added.leader, topic, added.index, true);
    }
  }

  /** Appends at once (as a producer with acks=all whose write completed), returning the offsets. */
  produce(topic: string, partition: number, values: (string | Uint8Array)[], key: string | null = null): number[] {
    const enc = new TextEncoder();
    return values.map((v) =>
      this.appendNow(this.part(topic, partition), {
        key: key === null ? null : enc.encode(key),
        value: typeof v === 'string' ? enc.encode(v) : v,
      }),
    );
  }

  append(topic: string, partition: number, records: SimpleRecord[], done: AppendCallback): void {
    const p = this.partitions.get(topic)?.[partition];
    if (!p) {
      this.scheduler.schedule(this.appendDelayMs, () => done('UNKNOWN_TOPIC_OR_PARTITION', -1));
      return;
    }
    const leader = p.leader;
    if (leader === null || !this.isBrokerUp(leader)) {
      this.scheduler.schedule(this.appendDelayMs, () => done('NOT_LEADER_OR_FOLLOWER', -1));
      return;
    }
    const base = p.nextOffset;
    for (const r of records) this.appendNow(p, r);
    this.scheduler.schedule(this.appendDelayMs, () => done(null, base));
  }

  private appendNow(p: MemPartition, r: SimpleRecord): number {
    const offset = p.nextOffset++;
    const sizeInBytes = 8 + (r.key?.length ?? 0) + (r.value?.length ?? 0) + 12;
    p.records.push({ offset, timestamp: this.scheduler.now(), key: r.key, value: r.value, sizeInBytes });
    if (!p.holdHighWatermark) {
      p.highWatermark = p.nextOffset;
      this.hwMoved(p);
    }
    return offset;
  }

  /** Holds the high watermark where it is (followers lagging) or releases it to the log end. */
  holdHighWatermark(topic: string, partition: number, hold: boolean): void {
    const p = this.part(topic, partition);
    p.holdHighWatermark = hold;
    if (!hold) {
      p.highWatermark = p.nextOffset;
      this.hwMoved(p);
    }
  }

  /** Cleaner pass of cleanup.policy=compact: keeps the last record of every key. */
  compact(topic: string, partition: number): void {
    const p = this.part(topic, partition);
    const last = new Map<string, number>();
    p.records.forEach((r, i) => {
      if (r.key) last.set(keyString(r.key), i);
    });
    p.records = p.records.filter((r, i) => !r.key || last.get(keyString(r.key)) === i);
  }

  /** Deletes records below `offset` (retention), moving the log start offset. */
  deleteRecordsBefore(topic: string, partition: number, offset: number): void {
    const p = this.part(topic, partition);
    p.records = p.records.filter((r) => r.offset >= offset);
    p.logStartOffset = Math.max(p.logStartOffset, offset);
  }

  fetch(brokerId: number, { topic, partition, fetchOffset, maxBytes }: PortFetchPartition): PortFetchResult {
    const p = this.partitions.get(topic)?.[partition];
    const empty = { records: [], highWatermark: -1, logStartOffset: -1, logEndOffset: -1 };
    if (!p) return { errorCode: 'UNKNOWN_TOPIC_OR_PARTITION', ...empty };
    if (p.leader !== brokerId || !this.isBrokerUp(brokerId)) return { errorCode: 'NOT_LEADER_OR_FOLLOWER', ...empty };
    const meta = { highWatermark: p.highWatermark, logStartOffset: p.logStartOffset, logEndOffset: p.nextOffset };
    if (fetchOffset < p.logStartOffset || fetchOffset > p.nextOffset) {
      return { errorCode: 'OFFSET_OUT_OF_RANGE', records: [], ...meta };
    }
    const out: PortRecord[] = [];
    let bytes = 0;
    for (const r of p.records) {
      if (r.offset < fetchOffset) continue;
      if (r.offset >= p.highWatermark) break;
      if (out.length > 0 && bytes + r.sizeInBytes > maxBytes) break;
      out.push(r);
      bytes += r.sizeInBytes;
    }
    return { errorCode: 'NONE', records: out, ...meta };
  }

  readLocalLog(_brokerId: number, topic: string, partition: number): PortRecord[] {
    return [...(this.partitions.get(topic)?.[partition]?.records ?? [])];
  }

  onHighWatermarkChange(listener: (brokerId: number, topic: string, partition: number) => void): boolean {
    this.hwListener = listener;
    return true;
  }

  private hwMoved(p: MemPartition): void {
    if (this.hwListener && p.leader !== null) this.hwListener(p.leader, p.topic, p.index);
  }

  highWatermark(brokerId: number, topic: string, partition: number): number | null {
    const p = this.partitions.get(topic)?.[partition];
    return p && p.leader === brokerId && this.isBrokerUp(brokerId) ? p.highWatermark : null;
  }

  listOffsets(brokerId: number, topic: string, partition: number) {
    const p = this.partitions.get(topic)?.[partition];
    if (!p) return { errorCode: 'UNKNOWN_TOPIC_OR_PARTITION' as const, earliest: -1, latest: -1 };
    if (p.leader !== brokerId || !this.isBrokerUp(brokerId)) {
      return { errorCode: 'NOT_LEADER_OR_FOLLOWER' as const, earliest: -1, latest: -1 };
    }
    return { errorCode: 'NONE' as const, earliest: p.logStartOffset, latest: p.highWatermark };
  }

  logEndOffset(topic: string, partition: number): number {
    return this.part(topic, partition).nextOffset;
  }

  private part(topic: string, partition: number): MemPartition {
    const p = this.partitions.get(topic)?.[partition];
    if (!p) throw new Error(`no partition ${topic}-${partition}`);
    return p;
  }
}

function keyString(b: Uint8Array): string {
  let s = '';
  for (const x of b) s += String.fromCharCode(x);
  return s;
}
