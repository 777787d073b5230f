/**
 * The few engine events lessons need to tell *who* did something (the leader's ISR lag check or
 * the controller; which produce was refused and why), kept in order and bounded. Views show
 * states; these say causes.
 */
import type { Engine, EngineEvent, OffsetCommitRequest, OffsetCommitResponse, OffsetFetchResponse } from '../../index';

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

/**
 * A consumer's offsets traffic with its group coordinator: the offsets an OffsetCommit carried,
 * when SyncGroup handed it its assignment, and what OffsetFetch answered per partition. Kept apart
 * from the causes above: consumers commit several times a second, and would push those out.
 */
export type OffsetEntry =
  | {
      kind: 'commitSent';
      atMs: number;
      consumer: string;
      group: string;
      partitions: { topic: string; partition: number; offset: number }[];
    }
  | {
      kind: 'commitAnswered';
      atMs: number;
      consumer: string;
      /** The request's send time: pairs the answer with its commitSent. */
      sentAtMs: number;
      errors: string[];
    }
  | { kind: 'syncAnswered'; atMs: number; consumer: string; error: string }
  | {
      kind: 'fetchAnswered';
      atMs: number;
      consumer: string;
      error: string;
      partitions: { topic: string; partition: number; offset: number; error: string }[];
    };

const TYPES: EngineEvent['type'][] = [
  'isrChangeRequested',
  'partitionStateChanged',
  'produceHandled',
  'controllerElected',
  'groupRequestSent',
  'groupResponseSent',
];
const MAX = 400;

export class LessonJournal {
  readonly entries: JournalEntry[] = [];
  readonly offsets: OffsetEntry[] = [];
  /** OffsetCommit requests not answered yet: request id → send time. */
  private readonly commitsInFlight = new Map<number, number>();
  private readonly off: () => void;

  constructor(engine: Engine) {
    this.off = engine.subscribe((e) => this.add(e), TYPES);
  }

  close(): void {
    this.off();
  }

  private add(e: EngineEvent): void {
    if (e.type === 'groupRequestSent' && e.api === 'OffsetCommit') {
      this.commitsInFlight.set(e.id, e.sentAtMs);
      // A request that is never answered (its consumer crashed) must not stay here for ever.
      if (this.commitsInFlight.size > MAX) this.commitsInFlight.delete(this.commitsInFlight.keys().next().value ?? -1);
    }
    const offsets = toOffsetEntry(e, this.commitsInFlight);
    if (offsets) push(this.offsets, offsets);
    const entry = toEntry(e);
    if (entry) push(this.entries, entry);
  }
}

function push<T>(list: T[], entry: T): void {
  list.push(entry);
  if (list.length > MAX) list.splice(0, list.length - MAX);
}

function toOffsetEntry(e: EngineEvent, commitsInFlight: Map<number, number>): OffsetEntry | null {
  if (e.type === 'groupRequestSent' && e.body.api === 'OffsetCommit') {
    const body = e.body as OffsetCommitRequest;
    return {
      kind: 'commitSent',
      atMs: e.sentAtMs,
      consumer: e.from,
      group: body.groupId,
      partitions: body.topics.flatMap((t) =>
        t.partitions.map((p) => ({ topic: t.name, partition: p.partitionIndex, offset: p.committedOffset })),
      ),
    };
  }
  if (e.type !== 'groupResponseSent') return null;
  if (e.api === 'OffsetCommit' && e.body.api === 'OffsetCommit') {
    const body = e.body as OffsetCommitResponse;
    const sentAtMs = commitsInFlight.get(e.requestId) ?? -1;
    commitsInFlight.delete(e.requestId);
    return {
      kind: 'commitAnswered',
      atMs: e.sentAtMs,
      consumer: e.to,
      sentAtMs,
      errors: [...new Set(body.topics.flatMap((t) => t.partitions.map((p) => p.errorCode)))],
    };
  }
  if (e.api === 'SyncGroup') return { kind: 'syncAnswered', atMs: e.sentAtMs, consumer: e.to, error: e.errorCode };
  if (e.api !== 'OffsetFetch' || e.body.api !== 'OffsetFetch') return null;
  const body = e.body as OffsetFetchResponse;
  return {
    kind: 'fetchAnswered',
    atMs: e.sentAtMs,
    consumer: e.to,
    error: body.errorCode,
    partitions: body.topics.flatMap((t) =>
      t.partitions.map((p) => ({
        topic: t.name,
        partition: p.partitionIndex,
        offset: p.committedOffset,
        error: p.errorCode,
      })),
    ),
  };
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
