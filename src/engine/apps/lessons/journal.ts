/**
 * The few engine events lessons need to tell *who* did something (the leader's ISR lag check or
 * the controller; which produce was refused and why), kept in order and bounded. Views show
 * states; these say causes.
 */
import type { Engine, EngineEvent } from '../../index';

export type JournalEntry =
  /** The partition leader asked to change the ISR (its replica.lag.time.max.ms check, or a follower caught up). */
  | {
      kind: 'leaderIsr';
      atMs: number;
      broker: number;
      topic: string;
      partition: number;
      change: 'shrink' | 'expand';
      isr: number[];
    }
  /** The controller wrote a partition's state (leader, ISR, epoch) for a reason. */
  | {
      kind: 'controllerState';
      atMs: number;
      topic: string;
      partition: number;
      reason: string;
      leader: number;
      leaderEpoch: number;
      isr: number[];
    }
  | { kind: 'produceRefused'; atMs: number; topic: string; partition: number; error: string }
  | { kind: 'controllerElected'; atMs: number; broker: number; controllerEpoch: number };

const TYPES: EngineEvent['type'][] = [
  'isrChangeRequested',
  'partitionStateChanged',
  'produceHandled',
  'controllerElected',
];
const MAX = 400;

export class LessonJournal {
  readonly entries: JournalEntry[] = [];
  private readonly off: () => void;

  constructor(engine: Engine) {
    this.off = engine.subscribe((e) => this.add(e), TYPES);
  }

  close(): void {
    this.off();
  }

  private add(e: EngineEvent): void {
    const entry = toEntry(e);
    if (!entry) return;
    this.entries.push(entry);
    if (this.entries.length > MAX) this.entries.splice(0, this.entries.length - MAX);
  }
}

function toEntry(e: EngineEvent): JournalEntry | null {
  switch (e.type) {
    case 'isrChangeRequested':
      return {
        kind: 'leaderIsr',
        atMs: e.atMs,
        broker: e.broker,
        topic: e.topic,
        partition: e.partition,
        change: e.change,
        isr: e.newIsr,
      };
    case 'partitionStateChanged':
      if (e.topic.startsWith('__')) return null;
      return {
        kind: 'controllerState',
        atMs: e.atMs,
        topic: e.topic,
        partition: e.partition,
        reason: e.reason,
        leader: e.new.leader,
        leaderEpoch: e.new.leaderEpoch,
        isr: e.new.isr,
      };
    case 'produceHandled':
      return e.errorCode === 'NONE'
        ? null
        : { kind: 'produceRefused', atMs: e.atMs, topic: e.topic, partition: e.partition, error: e.errorCode };
    case 'controllerElected':
      return { kind: 'controllerElected', atMs: e.atMs, broker: e.broker, controllerEpoch: e.controllerEpoch };
    default:
      return null;
  }
}
