import type { Scheduler } from '../cluster/Scheduler';
import { KafkaError } from '../errors';
import type { ConsumerGroups } from './ConsumerGroups';
import type { GroupEvent } from '../clients/consumer/groupEvents';
import type { ConsumerRecord, KafkaConsumer } from '../clients/consumer/KafkaConsumer';

/**
 * What the consumer-group test worlds (GroupTestBed over an in-memory cluster, FacadeWorld over
 * the real engine) drive the same way: time, consumers, application poll loops, the events.
 */
/**
 * Drives simulated time forward `stepMs` at a time until `pred` holds (checked before each step
 * and once more at the end), at most `maxMs`. Returns whether it held.
 */
export function runUntil(run: (ms: number) => void, pred: () => boolean, maxMs: number, stepMs: number): boolean {
  for (let t = 0; t <= maxMs; t += stepMs) {
    if (pred()) return true;
    run(stepMs);
  }
  return pred();
}

export abstract class GroupDriver {
  private readonly loops = new Map<string, { stop: boolean }>();

  abstract readonly groups: ConsumerGroups;
  /** The scheduler the poll loops run on. */
  protected abstract readonly loopScheduler: Scheduler;
  /** Every event kept, group events among them. */
  protected abstract readonly eventLog: readonly { type: string }[];
  abstract now(): number;
  /** Runs simulated time forward by ms, every due task in order. */
  abstract run(ms: number): void;

  /** Runs until the predicate holds (checked after each step), at most maxMs. Returns whether it held. */
  runUntil(pred: () => boolean, maxMs = 120_000, stepMs = 10): boolean {
    return runUntil((ms) => this.run(ms), pred, maxMs, stepMs);
  }

  consumer(id: string, config: Record<string, unknown>): KafkaConsumer {
    return this.groups.createConsumer(id, { 'client.id': id, ...config });
  }

  /** A consumer subscribed to `topics` whose application polls every `everyMs` (pollEvery). */
  polling(id: string, config: Record<string, unknown>, topics: string[], everyMs: number): KafkaConsumer {
    const c = this.consumer(id, config);
    c.subscribe(topics);
    this.pollEvery(c, everyMs);
    return c;
  }

  /** An application loop: poll every `everyMs`, hand records to `process`. Stop with stopPolling. */
  pollEvery(consumer: KafkaConsumer, everyMs: number, process: (records: ConsumerRecord[]) => void = () => {}): void {
    const loop = { stop: false };
    this.loops.set(consumer.clientId, loop);
    const scheduler = this.loopScheduler;
    const tick = () => {
      if (loop.stop || consumer.lifecycle !== 'running') return;
      try {
        process(consumer.poll());
      } catch (e) {
        if (e instanceof KafkaError && this.keepPollError(e)) return;
        throw e;
      }
      scheduler.schedule(everyMs, tick);
    };
    scheduler.schedule(0, tick);
  }

  stopPolling(consumer: KafkaConsumer): void {
    const loop = this.loops.get(consumer.clientId);
    if (loop) loop.stop = true;
  }

  ofType<T extends GroupEvent['type']>(type: T): Extract<GroupEvent, { type: T }>[] {
    return this.eventLog.filter((e): e is Extract<GroupEvent, { type: T }> => e.type === type);
  }

  /**
   * A KafkaError poll() threw in a loop: true keeps it and stops the loop (as an application
   * would); false (here) lets it out of the tick, so a test sees it.
   */
  protected keepPollError(_e: KafkaError): boolean {
    return false;
  }
}
