/**
 * Test support: one KafkaProducer against FakeBrokers on a manual clock, with its events kept,
 * its delivery reports read back and a helper to send to topic `t`.
 */
import { ManualClock } from '../../Clock';
import { Network } from '../../cluster/Network';
import { Scheduler } from '../../cluster/Scheduler';
import { Rng } from '../../Rng';
import type { ProducerEvent } from '../events';
import { KafkaProducer } from '../KafkaProducer';
import type { ProducerConfigInput } from '../ProducerConfig';
import { FakeBrokers } from './FakeBrokers';

const enc = (s: string) => new TextEncoder().encode(s);

export function setup(config: ProducerConfigInput, leaders: number[] = [1], brokers = [1, 2, 3]) {
  const clock = new ManualClock(0);
  const scheduler = new Scheduler(clock);
  const network = new Network(scheduler, () => {}, { latencyMs: 1 });
  const cluster = new FakeBrokers(network, (d, fn) => scheduler.schedule(d, fn), brokers);
  cluster.createTopic('t', leaders);
  const events: ProducerEvent[] = [];
  const producer = new KafkaProducer(config, {
    scheduler,
    network,
    rng: new Rng(7),
    emit: (e) => events.push(e),
    bootstrapBrokers: brokers,
  });
  const reports = () =>
    events
      .filter((e): e is Extract<ProducerEvent, { type: 'deliveryReport' }> => e.type === 'deliveryReport')
      .map((e) => e.report);
  const send = (value: string, partition = 0, key: string | null = null) =>
    producer.send({ topic: 't', partition, key: key === null ? null : enc(key), value: enc(value) });
  const run = (ms: number) => scheduler.runUntil(clock.now() + ms);
  producer.partitionsFor('t');
  return { clock, scheduler, network, cluster, producer, events, reports, send, run };
}

export function byType<T extends ProducerEvent['type']>(events: ProducerEvent[], type: T) {
  return events.filter((e): e is Extract<ProducerEvent, { type: T }> => e.type === type);
}
