/**
 * Test support: a few scripted brokers on the real simulated Network, enough to drive a producer
 * through every response it must handle, without the full cluster. Each broker answers Metadata
 * from a shared leader table, hands out producer ids, and appends Produce batches to an in-memory
 * log per partition, deduplicating idempotent batches the way Kafka's ProducerStateManager does
 * (last sequence per producer id; a resent batch among the last five is answered with its
 * original offset; a gap is OUT_OF_ORDER_SEQUENCE_NUMBER). A `fault` hook lets a test fail or
 * swallow any single append.
 */
import { decodeRecordBatches } from '../../codec/recordBatch';
import type { Network, RequestMessage } from '../../cluster/Network';
import type {
  ErrorCode,
  MetadataResponse,
  ProducePartitionResponse,
  ProduceRequest,
  ProduceResponse,
} from '../../cluster/requests';
import { brokerNodeId } from '../../cluster/requests';

/**
 * A Metadata response from a leader table (topic -> leader per partition; -1: no leader), every
 * replica set being just the leader. `topics` null or absent asks for all; an unknown one answers
 * UNKNOWN_TOPIC_OR_PARTITION.
 */
export function metadataResponse(
  brokerIds: readonly number[],
  leaders: ReadonlyMap<string, readonly number[]>,
  topics?: readonly string[] | null,
): MetadataResponse {
  return {
    api: 'Metadata',
    throttleTimeMs: 0,
    brokers: brokerIds.map((nodeId) => ({ nodeId, host: `broker-${nodeId}`, port: 9092, rack: null })),
    clusterId: 'fake',
    controllerId: brokerIds[0] ?? -1,
    topics: (topics ?? [...leaders.keys()]).map((name) => {
      const inTopic = leaders.get(name);
      if (!inTopic) return { errorCode: 'UNKNOWN_TOPIC_OR_PARTITION', name, isInternal: false, partitions: [] };
      return {
        errorCode: 'NONE',
        name,
        isInternal: false,
        partitions: inTopic.map((leaderId, partitionIndex) => ({
          errorCode: 'NONE',
          partitionIndex,
          leaderId,
          leaderEpoch: 0,
          replicaNodes: [leaderId],
          isrNodes: [leaderId],
          offlineReplicas: [],
        })),
      };
    }),
  };
}

export interface LoggedRecord {
  offset: number;
  key: string | null;
  value: string | null;
  producerId: number;
  sequence: number;
}

/** What a fault hook may do with one partition's batch in a Produce request. */
export type FaultAction =
  /** `logStartOffset`: what the answer names (default 0). */
  | { kind: 'error'; error: ErrorCode; logStartOffset?: number }
  /** Append, then never answer the request (a response lost on the way). */
  | { kind: 'append-and-drop-response' }
  | null;

export interface FaultContext {
  broker: number;
  topic: string;
  partition: number;
  firstValue: string | null;
  baseSequence: number;
  attempt: number;
  records: number;
}

interface ProducerEntry {
  epoch: number;
  lastSeq: number;
  batches: { firstSeq: number; lastSeq: number; baseOffset: number }[];
}

const dec = new TextDecoder();

export class FakeBrokers {
  readonly logs = new Map<string, LoggedRecord[]>();
  readonly leaders = new Map<string, number[]>();
  private readonly producerState = new Map<string, Map<number, ProducerEntry>>();
  private nextProducerId = 1000;
  private readonly attempts = new Map<string, number>();
  fault: (ctx: FaultContext) => FaultAction = () => null;
  /** Extra delay before a broker answers a Produce request. */
  responseDelayMs = 0;

  constructor(
    private readonly network: Network,
    private readonly schedule: (delayMs: number, fn: () => void) => void,
    readonly brokerIds: number[],
  ) {
    for (const id of brokerIds) this.start(id);
  }

  start(id: number): void {
    this.network.attach(brokerNodeId(id), { onRequest: (m) => this.onRequest(id, m) });
  }

  createTopic(topic: string, leaders: number[]): void {
    this.leaders.set(topic, leaders);
    for (let p = 0; p < leaders.length; p++) this.logs.set(`${topic}-${p}`, []);
  }

  log(topic: string, partition: number): LoggedRecord[] {
    return this.logs.get(`${topic}-${partition}`) ?? [];
  }

  values(topic: string, partition: number): (string | null)[] {
    return this.log(topic, partition).map((r) => r.value);
  }

  private onRequest(broker: number, m: RequestMessage): void {
    const body = m.body;
    if (body.api === 'Metadata') {
      const response = metadataResponse(this.brokerIds, this.leaders, body.topics);
      this.network.reply(m, response);
    } else if (body.api === 'InitProducerId') {
      this.network.reply(m, {
        api: 'InitProducerId',
        throttleTimeMs: 0,
        errorCode: 'NONE',
        producerId: this.nextProducerId++,
        producerEpoch: 0,
      });
    } else if (body.api === 'Produce') {
      this.handleProduce(broker, m, body);
    }
  }

  private handleProduce(broker: number, m: RequestMessage, body: ProduceRequest): void {
    let drop = false;
    const responses: ProduceResponse['responses'] = [];
    for (const t of body.topicData) {
      const partitions: ProducePartitionResponse[] = [];
      for (const p of t.partitions) {
        const res = (errorCode: ErrorCode, baseOffset = -1, logStartOffset = 0): ProducePartitionResponse => ({
          partition: p.partition,
          errorCode,
          baseOffset,
          logAppendTimeMs: -1,
          logStartOffset,
          recordErrors: [],
          errorMessage: null,
        });
        const leader = this.leaders.get(t.topic)?.[p.partition];
        if (leader === undefined) {
          partitions.push(res('UNKNOWN_TOPIC_OR_PARTITION'));
          continue;
        }
        if (leader !== broker) {
          partitions.push(res('NOT_LEADER_OR_FOLLOWER'));
          continue;
        }
        const [batch] = decodeRecordBatches(p.records);
        if (!batch) throw new Error('empty produce');
        const tp = `${t.topic}-${p.partition}`;
        const firstValue = batch.records[0]?.value ? dec.decode(batch.records[0].value) : null;
        const attemptKey = `${tp}/${firstValue}`;
        const attempt = (this.attempts.get(attemptKey) ?? 0) + 1;
        this.attempts.set(attemptKey, attempt);
        const action = this.fault({
          broker,
          topic: t.topic,
          partition: p.partition,
          firstValue,
          baseSequence: batch.baseSequence,
          attempt,
          records: batch.records.length,
        });
        if (action?.kind === 'error') {
          partitions.push(res(action.error, -1, action.logStartOffset ?? 0));
          continue;
        }
        const log = this.logs.get(tp) ?? [];
        // Idempotence: check the sequence against the producer's state for this partition.
        if (batch.producerId >= 0) {
          let states = this.producerState.get(tp);
          if (!states) this.producerState.set(tp, (states = new Map()));
          let entry = states.get(batch.producerId) ?? { epoch: batch.producerEpoch, lastSeq: -1, batches: [] };
          if (batch.producerEpoch < entry.epoch) {
            partitions.push(res('INVALID_PRODUCER_EPOCH'));
            continue;
          }
          // A new epoch starts the producer's sequences again at 0 (ProducerAppendInfo.checkSequence).
          if (batch.producerEpoch > entry.epoch) entry = { epoch: batch.producerEpoch, lastSeq: -1, batches: [] };
          const lastSeq = batch.baseSequence + batch.records.length - 1;
          const dup = entry.batches.find((b) => b.firstSeq === batch.baseSequence && b.lastSeq === lastSeq);
          if (dup) {
            partitions.push(res('NONE', dup.baseOffset));
            continue;
          }
          if (batch.baseSequence !== entry.lastSeq + 1) {
            partitions.push(res('OUT_OF_ORDER_SEQUENCE_NUMBER'));
            continue;
          }
          entry.lastSeq = lastSeq;
          entry.batches.push({ firstSeq: batch.baseSequence, lastSeq, baseOffset: log.length });
          if (entry.batches.length > 5) entry.batches.shift();
          states.set(batch.producerId, entry);
        }
        const baseOffset = log.length;
        batch.records.forEach((r, i) => {
          log.push({
            offset: baseOffset + i,
            key: r.key ? dec.decode(r.key) : null,
            value: r.value ? dec.decode(r.value) : null,
            producerId: batch.producerId,
            sequence: batch.baseSequence < 0 ? -1 : batch.baseSequence + i,
          });
        });
        this.logs.set(tp, log);
        if (action?.kind === 'append-and-drop-response') drop = true;
        partitions.push(res('NONE', baseOffset));
      }
      responses.push({ topic: t.topic, partitions });
    }
    if (body.acks === 0 || drop) return;
    const reply = () => this.network.reply(m, { api: 'Produce', responses, throttleTimeMs: 0 });
    if (this.responseDelayMs > 0) this.schedule(this.responseDelayMs, reply);
    else reply();
  }
}
