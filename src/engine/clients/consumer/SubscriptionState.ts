import type { TopicPartition } from './assignors/types';

/**
 * What a consumer reads and where it stands (clients/.../consumer/internals/SubscriptionState):
 * either a subscription to topics (partitions come from the group's assignment) or a manual
 * assign(); for each assigned partition, the position — the offset of the next record poll()
 * returns, which is also what a commit of "everything consumed" writes. A partition without a
 * position needs one: the committed offset from the coordinator, else auto.offset.reset.
 */
export interface ConsumerRebalanceListener {
  onPartitionsRevoked?(partitions: TopicPartition[]): void;
  onPartitionsAssigned?(partitions: TopicPartition[]): void;
  /** Partitions taken away without a chance to commit (generation lost); defaults to revoked. */
  onPartitionsLost?(partitions: TopicPartition[]): void;
}

export interface TopicPartitionState {
  topic: string;
  partition: number;
  /** Next offset to return; null until initialized from a committed offset or a reset. */
  position: number | null;
  /** Last high watermark a fetch reported, for lag. */
  highWatermark: number | null;
  /** Set when the committed offset has been asked for and not answered yet. */
  awaitingCommitted: boolean;
  /** Set while a ListOffsets for auto.offset.reset is in flight. */
  awaitingReset: boolean;
  /**
   * FetchPosition.offsetEpoch: the leader epoch of the record before the position (the last one
   * consumed, or the committed offset's epoch); null when unknown (a plain seek, a reset).
   */
  offsetEpoch: number | null;
  /** FetchPosition.currentLeader: the leader and epoch the position was last checked against. */
  currentLeader: LeaderAndEpoch;
  /** FetchStates.AWAIT_VALIDATION: the leader changed; no fetch until OffsetsForLeaderEpoch confirms the position. */
  awaitingValidation: boolean;
  /**
   * TopicPartitionState.nextRetryTimeMs: no new OffsetsForLeaderEpoch before this (one is in flight
   * until request.timeout.ms, or failed and backs off); null: ask at once.
   */
  nextValidationRetryMs: number | null;
  /** FetchStates.AWAIT_RESET with its strategy: a reset must pick a new position (requestOffsetReset); null: none needed. */
  resetStrategy: ResetStrategy | null;
}

/** auto.offset.reset, and what seekToBeginning / seekToEnd ask for. */
export type ResetStrategy = 'earliest' | 'latest' | 'none';

/** Metadata.LeaderAndEpoch: what the consumer's metadata says leads a partition, and at which epoch. */
export interface LeaderAndEpoch {
  leader: number | null;
  epoch: number | null;
}

/** SubscriptionState.FetchPosition: an offset, the epoch of the record before it, and the leader it was read from. */
export interface FetchPosition {
  offset: number;
  offsetEpoch: number | null;
  currentLeader: LeaderAndEpoch;
}

/** EpochEndOffset from an OffsetsForLeaderEpoch answer (-1 / -1: the leader knows no such epoch). */
export interface EpochEndOffset {
  leaderEpoch: number;
  endOffset: number;
}

/**
 * SubscriptionState.LogTruncation: validation found the leader's log ends before our position
 * with auto.offset.reset none; `divergentOffset` is where it ends (null: the epoch is unknown).
 */
export interface LogTruncation {
  topic: string;
  partition: number;
  fetchPosition: FetchPosition;
  divergentOffset: { offset: number; leaderEpoch: number } | null;
}

export const UNKNOWN_LEADER: LeaderAndEpoch = { leader: null, epoch: null };

function sameLeader(a: LeaderAndEpoch, b: LeaderAndEpoch): boolean {
  return a.leader === b.leader && a.epoch === b.epoch;
}

function samePosition(s: TopicPartitionState, p: FetchPosition): boolean {
  return s.position === p.offset && s.offsetEpoch === p.offsetEpoch && sameLeader(s.currentLeader, p.currentLeader);
}

/** FetchPosition.equals. */
export function sameFetchPosition(a: FetchPosition, b: FetchPosition): boolean {
  return a.offset === b.offset && a.offsetEpoch === b.offsetEpoch && sameLeader(a.currentLeader, b.currentLeader);
}

export function tpString(tp: TopicPartition): string {
  return `${tp.topic}-${tp.partition}`;
}

export function sortPartitions<T extends TopicPartition>(list: T[]): T[] {
  return list.sort((a, b) => (a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : a.partition - b.partition));
}

export class SubscriptionState {
  type: 'NONE' | 'AUTO_TOPICS' | 'USER_ASSIGNED' = 'NONE';
  topics: string[] = [];
  listener: ConsumerRebalanceListener = {};
  private readonly assigned = new Map<string, TopicPartitionState>();

  /** `defaultResetStrategy`: auto.offset.reset; 'none' turns a detected truncation into LogTruncationException. */
  constructor(readonly defaultResetStrategy: ResetStrategy = 'latest') {}

  subscribe(topics: string[], listener: ConsumerRebalanceListener): void {
    this.type = 'AUTO_TOPICS';
    this.topics = [...new Set(topics)].sort();
    this.listener = listener;
  }

  assignManually(partitions: TopicPartition[]): void {
    this.type = partitions.length > 0 ? 'USER_ASSIGNED' : 'NONE';
    this.topics = [];
    this.setAssignment(partitions);
  }

  unsubscribe(): void {
    this.type = 'NONE';
    this.topics = [];
    this.assigned.clear();
  }

  /** Replaces the assignment; partitions kept keep their position. */
  setAssignment(partitions: TopicPartition[]): void {
    const next = new Map<string, TopicPartitionState>();
    for (const tp of sortPartitions([...partitions])) {
      const key = tpString(tp);
      next.set(
        key,
        this.assigned.get(key) ?? {
          topic: tp.topic,
          partition: tp.partition,
          position: null,
          highWatermark: null,
          awaitingCommitted: false,
          awaitingReset: false,
          offsetEpoch: null,
          currentLeader: UNKNOWN_LEADER,
          awaitingValidation: false,
          nextValidationRetryMs: null,
          resetStrategy: null,
        },
      );
    }
    this.assigned.clear();
    for (const [k, v] of next) this.assigned.set(k, v);
  }

  assignedPartitions(): TopicPartition[] {
    return [...this.assigned.values()].map(({ topic, partition }) => ({ topic, partition }));
  }

  states(): TopicPartitionState[] {
    return [...this.assigned.values()];
  }

  state(tp: TopicPartition): TopicPartitionState | undefined {
    return this.assigned.get(tpString(tp));
  }

  isAssigned(tp: TopicPartition): boolean {
    return this.assigned.has(tpString(tp));
  }

  /**
   * Every position, as the offsets a commit of "all consumed" writes, each with its offsetEpoch
   * (OffsetAndMetadata's leaderEpoch: a consumer resuming from the commit validates it).
   */
  allConsumed(): Map<string, { topic: string; partition: number; offset: number; leaderEpoch: number | null }> {
    const out = new Map<string, { topic: string; partition: number; offset: number; leaderEpoch: number | null }>();
    for (const s of this.assigned.values()) {
      if (s.position !== null)
        out.set(tpString(s), {
          topic: s.topic,
          partition: s.partition,
          offset: s.position,
          leaderEpoch: s.offsetEpoch,
        });
    }
    return out;
  }

  /** The position as a FetchPosition, or null without one. */
  fetchPosition(tp: TopicPartition): FetchPosition | null {
    const s = this.state(tp);
    if (!s || s.position === null) return null;
    return { offset: s.position, offsetEpoch: s.offsetEpoch, currentLeader: s.currentLeader };
  }

  /** hasValidPosition: a position that may be fetched from (not awaiting validation or a reset). */
  hasValidPosition(tp: TopicPartition): boolean {
    const s = this.state(tp);
    return s !== undefined && s.position !== null && !s.awaitingValidation && s.resetStrategy === null;
  }

  /**
   * seekUnvalidated: a position from outside (a committed offset, a seek) that must be checked
   * against the leader when it carries an epoch and the leader's epoch is known.
   */
  seekUnvalidated(tp: TopicPartition, p: FetchPosition): void {
    const s = this.state(tp);
    if (!s) return;
    this.setPosition(s, p);
    s.awaitingValidation = p.offsetEpoch !== null && p.currentLeader.epoch !== null;
  }

  /** seekValidated: a position known to be on the leader's log (consumed records, a reset, a truncation point). */
  seekValidated(tp: TopicPartition, p: FetchPosition): void {
    const s = this.state(tp);
    if (!s) return;
    this.setPosition(s, p);
    s.awaitingValidation = false;
  }

  private setPosition(s: TopicPartitionState, p: FetchPosition): void {
    s.position = p.offset;
    s.offsetEpoch = p.offsetEpoch;
    s.currentLeader = p.currentLeader;
    s.resetStrategy = null;
    s.nextValidationRetryMs = null;
  }

  /** requestOffsetReset: drop the position; the strategy (by default auto.offset.reset) picks the next one. */
  requestOffsetReset(tp: TopicPartition, strategy: ResetStrategy = this.defaultResetStrategy): void {
    const s = this.state(tp);
    if (!s) return;
    s.position = null;
    s.offsetEpoch = null;
    s.awaitingValidation = false;
    s.resetStrategy = strategy;
    s.nextValidationRetryMs = null;
  }

  /**
   * maybeValidatePositionForCurrentLeader: when the metadata names another leader or epoch than
   * the position was read under, the position must be validated (if it has an epoch to check;
   * without one the new leader is simply taken). Returns whether it now awaits validation.
   */
  maybeValidatePositionForCurrentLeader(tp: TopicPartition, current: LeaderAndEpoch): boolean {
    const s = this.state(tp);
    if (!s || s.resetStrategy !== null || current.leader === null) return false;
    if (s.position !== null && !sameLeader(s.currentLeader, current)) {
      this.seekUnvalidated(tp, { offset: s.position, offsetEpoch: s.offsetEpoch, currentLeader: current });
    }
    return s.awaitingValidation;
  }

  /**
   * maybeCompleteValidation: the leader's end offset for the position's epoch. Beyond the
   * position, the position stands. Before it, the log was truncated under us (an unclean
   * election): with a reset policy the position moves back to that end offset, the first offset
   * known to diverge; without one (none) the truncation is returned for a LogTruncationException.
   * An unknown epoch (-1) resets per auto.offset.reset, or is a truncation with no offset known.
   * An answer for a position that has since moved is ignored.
   */
  maybeCompleteValidation(
    tp: TopicPartition,
    requestPosition: FetchPosition,
    epochEndOffset: EpochEndOffset,
  ): LogTruncation | null {
    const s = this.state(tp);
    if (!s?.awaitingValidation || !samePosition(s, requestPosition)) return null;
    const hasResetPolicy = this.defaultResetStrategy !== 'none';
    if (epochEndOffset.endOffset < 0 || epochEndOffset.leaderEpoch < 0) {
      if (hasResetPolicy) {
        this.requestOffsetReset(tp);
        return null;
      }
      return { topic: tp.topic, partition: tp.partition, fetchPosition: requestPosition, divergentOffset: null };
    }
    if (epochEndOffset.endOffset < requestPosition.offset) {
      if (hasResetPolicy) {
        this.seekValidated(tp, {
          offset: epochEndOffset.endOffset,
          offsetEpoch: epochEndOffset.leaderEpoch,
          currentLeader: requestPosition.currentLeader,
        });
        return null;
      }
      return {
        topic: tp.topic,
        partition: tp.partition,
        fetchPosition: requestPosition,
        divergentOffset: { offset: epochEndOffset.endOffset, leaderEpoch: epochEndOffset.leaderEpoch },
      };
    }
    s.awaitingValidation = false;
    return null;
  }
}
