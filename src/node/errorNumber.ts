import { type ErrorCode, KAFKA_ERROR_NUMBERS } from '../engine/index';

/** Kafka's numeric error code (what goes on the wire) for the engine's error name. */
export function errorNumber(code: ErrorCode): number {
  return code === 'NONE' ? 0 : KAFKA_ERROR_NUMBERS[code];
}

/**
 * An error name the engine reports as a plain string (the group coordinator's deletion callbacks)
 * as Kafka's error; a name Kafka does not have is UNKNOWN_SERVER_ERROR, as Errors.forException
 * answers an unexpected exception.
 */
export function errorCodeOf(name: string): ErrorCode {
  if (name === 'NONE') return 'NONE';
  return isKafkaErrorName(name) ? name : 'UNKNOWN_SERVER_ERROR';
}

function isKafkaErrorName(name: string): name is keyof typeof KAFKA_ERROR_NUMBERS {
  return Object.hasOwn(KAFKA_ERROR_NUMBERS, name);
}

/** The same record with its error name turned into Kafka's number. */
export function numbered<T extends { errorCode: ErrorCode }>(r: T): Omit<T, 'errorCode'> & { errorCode: number } {
  return { ...r, errorCode: errorNumber(r.errorCode) };
}

/** Per topic, each partition's error name as Kafka's number: the answer shape of most partition APIs. */
export function numberedPartitions<P extends { errorCode: ErrorCode }, T extends { partitions: P[] }>(topics: T[]) {
  return topics.map((t) => ({ ...t, partitions: t.partitions.map(numbered) }));
}
