import { type ErrorCode, KAFKA_ERROR_NUMBERS } from '../engine/index';

/** Kafka's numeric error code (what goes on the wire) for the engine's error name. */
export function errorNumber(code: ErrorCode): number {
  return code === 'NONE' ? 0 : KAFKA_ERROR_NUMBERS[code];
}

/** The same record with its error name turned into Kafka's number. */
export function numbered<T extends { errorCode: ErrorCode }>(r: T): Omit<T, 'errorCode'> & { errorCode: number } {
  return { ...r, errorCode: errorNumber(r.errorCode) };
}

/** Per topic, each partition's error name as Kafka's number: the answer shape of most partition APIs. */
export function numberedPartitions<P extends { errorCode: ErrorCode }, T extends { partitions: P[] }>(topics: T[]) {
  return topics.map((t) => ({ ...t, partitions: t.partitions.map(numbered) }));
}
