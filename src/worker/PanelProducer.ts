/**
 * The producer behind the page's producer panel: one of the engine's KafkaProducers (partitioner,
 * record accumulator, sender, acks, retries — all the engine's), attached to the cluster's network
 * like any client application. Its events go to the page for the accumulator view and the
 * record's journey. Changing a setting restarts the client with the new configuration, as
 * restarting an application with new properties would.
 */
import { type Cluster, type ProducerEvent, KafkaProducer, type PartitionChoice, Rng } from '../engine';
import type { ProducerSettings } from './protocol';

export const PANEL_CLIENT_ID = 'panel-producer';

export class PanelProducer {
  private producer: KafkaProducer;
  private generation = 0;
  /** Choices seen during the current send() call (the partitioner runs synchronously when metadata is known). */
  private lastChoice: { sendId: number; choice: PartitionChoice } | null = null;
  acked = 0;
  failed = 0;
  /** The last send id handed out by the current producer. */
  private sent = 0;

  constructor(
    private readonly cluster: Cluster,
    private settings: ProducerSettings,
    private readonly seed: number,
    private readonly onEvent: (e: ProducerEvent) => void,
  ) {
    this.producer = this.create();
  }

  get config(): ProducerSettings {
    return this.settings;
  }

  private create(): KafkaProducer {
    this.generation++;
    const brokers = [...this.cluster.brokers.keys()].sort((a, b) => a - b);
    return new KafkaProducer(
      {
        'client.id': this.generation === 1 ? PANEL_CLIENT_ID : `${PANEL_CLIENT_ID}-${this.generation}`,
        acks: this.settings.acks,
        'linger.ms': this.settings['linger.ms'],
        'batch.size': this.settings['batch.size'],
        partitioner: this.settings.partitioner,
        // acks=0/1 cannot be idempotent (Kafka would refuse the combination if asked explicitly).
        'enable.idempotence': this.settings.acks === 'all',
      },
      {
        scheduler: this.cluster.scheduler,
        network: this.cluster.network,
        rng: new Rng((this.seed ^ (0x5eed0000 + this.generation)) >>> 0),
        emit: (e) => {
          if (e.type === 'recordPartitioned') this.lastChoice = { sendId: e.sendId, choice: e.choice };
          if (e.type === 'deliveryReport') {
            if (e.report.error === null) this.acked++;
            else this.failed++;
          }
          this.onEvent(e);
        },
        bootstrapBrokers: brokers.length > 0 ? brokers : [1],
      },
    );
  }

  /** Applies new settings: validated by building the new producer before the old one closes. */
  configure(next: ProducerSettings): void {
    const previous = this.settings;
    this.settings = next;
    let created: KafkaProducer;
    try {
      created = this.create();
    } catch (e) {
      this.settings = previous;
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
    headers: { key: string; value: Uint8Array | null }[],
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

  /** Asks for a topic's metadata ahead of the first send, so the panel's first record is placed at once. */
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
