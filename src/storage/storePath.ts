import { KafkaError } from '../engine/errors';

/**
 * The one rule every Store holds file paths to: a non-empty string without `#`.
 *
 * `#` is reserved because IdbStore keys a file's chunks as `<path>#<start>+<length>`; checking
 * it in MemoryStore too means a path that works in a unit test also works in the browser.
 * Kafka's own names never contain it (topic names are `[a-zA-Z0-9._-]`).
 */
export function checkStorePath(path: string): void {
  if (typeof path !== 'string' || path.length === 0 || path.includes('#')) {
    throw new KafkaError(
      'INVALID_REQUEST',
      `invalid store path ${JSON.stringify(path)}: must be non-empty and free of '#'`,
      {
        path,
      },
    );
  }
}

/** A truncate size must be a non-negative safe integer. */
export function checkTruncateSize(path: string, size: number): void {
  if (!Number.isSafeInteger(size) || size < 0) {
    throw new KafkaError(
      'INVALID_REQUEST',
      `cannot truncate ${path} to ${size} bytes: size must be a non-negative integer`,
      {
        path,
        size,
      },
    );
  }
}
