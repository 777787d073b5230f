/**
 * A producer application around the cluster: one of the engine's KafkaProducers (partitioner,
 * record accumulator, sender, acks, retries — all the engine's), attached to the cluster's network
 * like any client. The trickling demo producer and the page's producer panel are both one of
 * these, built by ClusterApps.createProducer. Its random stream derives from the engine's seed
 * (Engine.deriveRng), so a seed reproduces the run; its events go out on the engine's one event
 * path (Engine.emit), where a host subscribes to them. Changing its configuration restarts the
 * client with the new one, as restarting an application with new properties would.
 */
import type {
  Engine,
  KafkaProducer as KafkaProducerType,
  PartitionChoice,
  ProducerConfigInput,
  ProducerEvent,
} from '../index';
import { KafkaProducer } from '../index';
import type { ProducerSettings } from './types';

export const PANEL_CLIENT_ID = 'panel-producer';

/** Every producer event type, so a host can subscribe to producer events alone (listed once, checked by the compiler). */
const PRODUCER_EVENTS: Record<ProducerEvent['type'], true> = {
  producerCreated: true,
  producerClosed: true,
  recordWaitingForMetadata: true,
  recordPartitioned: true,
  recordAppended: true,
  batchSealed: true,
  produceRequestSent: true,
  produceResponseReceived: true,
  producerRequestTimedOut: true,
  batchRetried: true,
  batchSplit: true,
  producerMetadataRequested: true,
  producerMetadataUpdated: true,
  producerIdRequested: true,
  producerIdAssigned: true,
  deliveryReport: true,
};
export const PRODUCER_EVENT_TYPES = Object.keys(PRODUCER_EVENTS) as ProducerEvent['type'][];

/** The page producer's starting settings (the panel's form). */
export const DEFAULT_PRODUCER_SETTINGS: ProducerSettings = {
  acks: 'all',
  'linger.ms': 5,
  'batch.size': 16384,
  partitioner: 'sticky',
};

/** The producer configuration the panel's settings stand for. */
export function panelProducerConfig(s: ProducerSettings): ProducerConfigInput {
  return {
    acks: s.acks,
    'linger.ms': s['linger.ms'],
    'batch.size': s['batch.size'],
    partitioner: s.partitioner,
    // acks=0/1 cannot be idempotent (Kafka would refuse the combination if asked explicitly).
    'enable.idempotence': s.acks === 'all',
  };
}

export interface ProducerAppSpec {
  /** client.id of the first client; a restart with a new configuration adds `-<generation>`. */
  clientId: string;
  config: ProducerConfigInput;
  /** Salt of the app's random stream: generation g draws from Engine.deriveRng(salt + g - 1). */
  salt: number;
  /** Fixed bootstrap brokers; the cluster's brokers at creation when omitted. */
  bootstrapBrokers?: readonly number[];
}

export class ProducerApp {
  private producer: KafkaProducerType;
  private generation = 0;
  private config: ProducerConfigInput;
  /** Choices seen during the current send() call (the partitioner runs synchronously when metadata is known). */
  private lastChoice: { sendId: number; choice: PartitionChoice } | null = null;
  acked = 0;
  failed = 0;
  lastError: string | null = null;
  /** The last send id handed out by the current producer. */
  private sent = 0;

  constructor(
    private readonly engine: Engine,
    private readonly spec: ProducerAppSpec,
    /** Called on each delivery report (the owner's view changed). */
    private readonly onDelivery: () => void = () => {},
  ) {
    this.config = spec.config;
    this.producer = this.create();
  }

  private create(): KafkaProducerType {
    this.generation++;
    const cluster = this.engine.cluster;
    const brokers = this.spec.bootstrapBrokers ?? [...cluster.brokers.keys()].sort((a, b) => a - b);
    const own = this.spec.clientId;
    return new KafkaProducer(
      { ...this.config, 'client.id': this.generation === 1 ? own : `${own}-${this.generation}` },
      {
        scheduler: cluster.scheduler,
        network: cluster.network,
        rng: this.engine.deriveRng(this.spec.salt + this.generation - 1),
        // What the app itself reads is always built; the rest only when a subscriber wants it.
        wants: (type) => type === 'deliveryReport' || type === 'recordPartitioned' || this.engine.wants(type),
        emit: (e) => {
          if (e.type === 'recordPartitioned') this.lastChoice = { sendId: e.sendId, choice: e.choice };
          if (e.type === 'deliveryReport') {
            if (e.report.error === null) this.acked++;
            else {
              this.failed++;
              this.lastError = e.report.error;
            }
            this.onDelivery();
          }
          this.engine.emit(e);
        },
        bootstrapBrokers: brokers.length > 0 ? brokers : [1],
      },
    );
  }

  /** Applies a new configuration: validated by building the new client before the old one closes. */
  configure(next: ProducerConfigInput): void {
    const previous = this.config;
    this.config = next;
    let created: KafkaProducerType;
    try {
      created = this.create();
    } catch (e) {
      this.config = previous;
      this.generation--;
      throw e;
    }
    this.producer.close();
    this.producer = created;
    this.sent = 0;
  }

  /** Sends one record; returns its send id and, if the partitioner ran at once, its choice. */
  send(
    topic: string,
    key: Uint8Array | null,
    value: Uint8Array | null,
    headers: { key: string; value: Uint8Array | null }[] = [],
  ) {
    this.lastChoice = null;
    const sendId = this.producer.send({ topic, key, value, headers });
    this.sent = sendId;
    return { sendId, choice: this.choiceFor(sendId), clientId: this.producer.clientId };
  }

  /** The partitioner's choice for a send, if it ran during that send() call. */
  private choiceFor(sendId: number): PartitionChoice | null {
    const seen = this.lastChoice;
    return seen !== null && seen.sendId === sendId ? seen.choice : null;
  }

  /** Asks for a topic's metadata ahead of the first send, so the first record is placed at once. */
  warmUp(topic: string): void {
    this.producer.partitionsFor(topic);
  }

  accumulator() {
    return this.producer.accumulatorSnapshot();
  }

  /** The send id the next send() will get (KafkaProducer numbers sends from 1, in order). */
  get nextSendId(): number {
    return this.sent + 1;
  }

  get clientId(): string {
    return this.producer.clientId;
  }

  close(): void {
    this.producer.close();
  }
}
