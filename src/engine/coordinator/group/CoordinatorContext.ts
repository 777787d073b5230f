import type { KafkaErrorCode } from '../../errors';
import type { GroupCoordinatorConfig } from '../../clients/consumer/ConsumerConfig';
import type { GroupEvent } from '../../clients/consumer/groupEvents';

/** One record of `__consumer_offsets`: key and value bytes (value null = tombstone). */
export interface OffsetsRecord {
  key: Uint8Array;
  value: Uint8Array | null;
}

/**
 * Keyed timers of a coordinator shard (Kafka's CoordinatorTimer): scheduling a key that is
 * already scheduled replaces it, so "reset the session timer" is one call.
 */
export interface CoordinatorTimer {
  schedule(key: string, delayMs: number, operation: () => void): void;
  cancel(key: string): void;
  isScheduled(key: string): boolean;
}

/**
 * What a coordinator shard (the state of one `__consumer_offsets` partition) may use: time,
 * keyed timers, an append to its partition through the leader with acks=all semantics, events,
 * and member id generation. It has no other door to the world, so handlers stay pure functions
 * of (state, request, time).
 */
export interface CoordinatorContext {
  readonly brokerId: number;
  readonly offsetsPartition: number;
  readonly config: GroupCoordinatorConfig;
  now(): number;
  readonly timer: CoordinatorTimer;
  /** Appends records to this shard's partition; `done` runs once they are committed (or failed). */
  append(records: OffsetsRecord[], done: (error: KafkaErrorCode | null) => void): void;
  emit(event: GroupEvent): void;
  /** `${prefix}-${uuid}` as Kafka's coordinator builds it (prefix: group.instance.id, else client.id), from the seeded Rng. */
  newMemberId(prefix: string): string;
}
