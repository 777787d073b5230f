/**
 * The checks on the page's requests that are not scenario commands (a lookup, a fast-forward,
 * the start of a Send N job): Kafka-style validation stays in the app layer, so a host only
 * dispatches. Each refuses bad input with a typed KafkaError before anything changes.
 */
import { KafkaError } from '../index';

/** The most records one Send N job may produce; the page's form and the app layer hold to the same number. */
export const MAX_PRODUCE_MANY_RECORDS = 1_000_000;

/** The longest fast-forward one request may ask for (engine ms). */
export const MAX_ADVANCE_MS = 600_000;

/** A lookup's target: an offset or a timestamp, a whole number from 0 (the page's form checks the same). */
export function lookupTarget(args: { offset?: number; timestamp?: number }): {
  kind: 'offset' | 'timestamp';
  value: number;
} {
  const target =
    args.timestamp !== undefined
      ? { kind: 'timestamp' as const, value: args.timestamp }
      : { kind: 'offset' as const, value: args.offset ?? 0 };
  if (!Number.isSafeInteger(target.value) || target.value < 0) {
    throw new KafkaError('INVALID_REQUEST', `A lookup ${target.kind} is a whole number from 0, got ${target.value}`, {
      [target.kind]: target.value,
    });
  }
  return target;
}

export function checkAdvance(ms: number): void {
  if (!Number.isInteger(ms) || ms < 0 || ms > MAX_ADVANCE_MS)
    throw new KafkaError('INVALID_REQUEST', `can only fast-forward 0 to 600,000 ms, not ${ms}`);
}

export function checkSendCount(count: number): void {
  if (!Number.isSafeInteger(count) || count < 1 || count > MAX_PRODUCE_MANY_RECORDS) {
    throw new KafkaError(
      'INVALID_REQUEST',
      `count must be a whole number from 1 to ${MAX_PRODUCE_MANY_RECORDS.toLocaleString('en-US')}, got ${count}`,
      { count, limit: MAX_PRODUCE_MANY_RECORDS },
    );
  }
}
