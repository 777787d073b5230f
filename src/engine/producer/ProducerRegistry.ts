/**
 * The engine's producers, by client id: what the facade's producer commands talk to. Keeps the
 * facade's part small (create, send, sendMany, close) and gives generated records readable,
 * unique values (`<client>-<n>`), so the UI and the fault checks can follow each one.
 */
import { KafkaError } from '../errors';
import { KafkaProducer, type ProducerContext } from './KafkaProducer';
import type { ProducerConfigInput } from './ProducerConfig';
import type { ProducerRecord } from './ProducerRecord';

/** A record as a command carries it: strings are sent as their UTF-8 bytes. */
export interface ProducerRecordInput {
  topic: string;
  partition?: number;
  key?: string | Uint8Array | null;
  value?: string | Uint8Array | null;
  headers?: { key: string; value: string | Uint8Array | null }[];
  timestamp?: number;
}

/** One producer as the UI sees it. */
export interface ProducerSnapshot {
  clientId: string;
  config: Readonly<Record<string, unknown>>;
  producerId: number;
  producerEpoch: number;
  /** Records sent and not yet reported. */
  pendingRecords: number;
  inFlightRequests: number;
  accumulator: {
    topic: string;
    partition: number;
    batches: { id: number; records: number; bytes: number; state: string }[];
  }[];
}

export interface SendManyOptions {
  topic: string;
  count: number;
  /** Keyed records use keys `key-<i % distinctKeys>`; unkeyed ones go through the null-key partitioner. */
  keyed?: boolean;
  distinctKeys?: number;
  /** Value size in bytes (default: the text `<client>-<n>`, padded with '.' to this size if larger). */
  valueBytes?: number;
}

/** What each producer it makes is given, except that the bootstrap brokers are read when one is made. */
export interface ProducerRegistryContext extends Omit<ProducerContext, 'bootstrapBrokers'> {
  /** Broker ids a new producer bootstraps from (all known brokers). */
  bootstrapBrokers(): readonly number[];
}

const encoder = new TextEncoder();

export class ProducerRegistry {
  private readonly producers = new Map<string, KafkaProducer>();
  private readonly generated = new Map<string, number>();
  private nextDefaultId = 1;

  constructor(private readonly context: ProducerRegistryContext) {}

  /** Creates a producer; returns its client id. INVALID_CONFIG for a bad config or a taken client.id. */
  create(config: ProducerConfigInput = {}): string {
    // Kafka numbers default client ids producer-1, producer-2, ... (PRODUCER_CLIENT_ID_SEQUENCE);
    // explicit ids do not use up a number, and a taken one is skipped.
    let k = this.nextDefaultId;
    while (this.producers.has(`producer-${k}`)) k++;
    const defaultId = `producer-${k}`;
    const wanted = config['client.id'] ?? defaultId;
    if (this.producers.has(wanted)) {
      throw new KafkaError('INVALID_CONFIG', `a producer with client.id ${wanted} already exists`, {
        key: 'client.id',
      });
    }
    const producer = new KafkaProducer(
      config,
      {
        scheduler: this.context.scheduler,
        network: this.context.network,
        rng: this.context.rng,
        emit: this.context.emit,
        wants: this.context.wants,
        bootstrapBrokers: this.context.bootstrapBrokers(),
      },
      defaultId,
    );
    if (config['client.id'] === undefined) this.nextDefaultId = k + 1;
    this.producers.set(producer.clientId, producer);
    return producer.clientId;
  }

  get(clientId: string): KafkaProducer {
    const p = this.producers.get(clientId);
    if (!p) throw new KafkaError('INVALID_REQUEST', `no producer ${clientId}`, { clientId });
    return p;
  }

  list(): KafkaProducer[] {
    return [...this.producers.values()];
  }

  send(clientId: string, record: ProducerRecord | ProducerRecordInput): number {
    return this.get(clientId).send(toProducerRecord(record));
  }

  snapshot(): ProducerSnapshot[] {
    return this.list().map((p) => ({
      clientId: p.clientId,
      config: { ...p.config },
      producerId: p.producerIdAndEpoch?.producerId ?? -1,
      producerEpoch: p.producerIdAndEpoch?.epoch ?? -1,
      pendingRecords: p.pendingRecords,
      inFlightRequests: p.inFlightRequests,
      accumulator: p.accumulatorSnapshot(),
    }));
  }

  /** Sends `count` generated records; returns their send ids. */
  sendMany(clientId: string, options: SendManyOptions): number[] {
    const producer = this.get(clientId);
    if (!Number.isInteger(options.count) || options.count < 0) {
      throw new KafkaError('INVALID_REQUEST', `count must be a non-negative integer, got ${options.count}`);
    }
    const ids: number[] = [];
    const distinct = Math.max(1, options.distinctKeys ?? 16);
    for (let i = 0; i < options.count; i++) {
      const n = (this.generated.get(clientId) ?? 0) + 1;
      this.generated.set(clientId, n);
      const text = `${clientId}-${n}`;
      const value = encoder.encode(
        options.valueBytes && options.valueBytes > text.length ? text.padEnd(options.valueBytes, '.') : text,
      );
      const key = options.keyed ? encoder.encode(`key-${(n - 1) % distinct}`) : null;
      ids.push(producer.send({ topic: options.topic, key, value }));
    }
    return ids;
  }

  /** Closes a producer (Kafka's close: it finishes what it has first, unless `force`). */
  close(clientId: string, force = false): void {
    this.get(clientId).close(force);
    this.producers.delete(clientId);
  }
}

function bytesOf(v: string | Uint8Array | null | undefined): Uint8Array | null {
  if (v === null || v === undefined) return null;
  return typeof v === 'string' ? encoder.encode(v) : v;
}

/** Checks a command's record and turns its strings into bytes; INVALID_RECORD for a malformed one. */
export function toProducerRecord(r: ProducerRecord | ProducerRecordInput): ProducerRecord {
  if (typeof r.topic !== 'string' || r.topic.length === 0) {
    throw new KafkaError('INVALID_RECORD', 'a record needs a topic', { topic: r.topic });
  }
  if (r.timestamp !== undefined && !(Number.isSafeInteger(r.timestamp) && r.timestamp >= 0)) {
    throw new KafkaError('INVALID_RECORD', `invalid timestamp ${r.timestamp}`, { timestamp: r.timestamp });
  }
  const out: ProducerRecord = {
    topic: r.topic,
    key: bytesOf(r.key),
    value: bytesOf(r.value),
    headers: (r.headers ?? []).map((h) => ({ key: h.key, value: bytesOf(h.value) })),
  };
  if (r.partition !== undefined) out.partition = r.partition;
  if (r.timestamp !== undefined) out.timestamp = r.timestamp;
  return out;
}
