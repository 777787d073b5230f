import { type ErrorCode, KAFKA_ERROR_NUMBERS } from '../engine/index';

/** Kafka's numeric error code (what goes on the wire) for the engine's error name. */
export function errorNumber(code: ErrorCode): number {
  return code === 'NONE' ? 0 : KAFKA_ERROR_NUMBERS[code];
}
