/**
 * Test support for decoders of Kafka's on-disk records (`__consumer_offsets`,
 * `__transaction_state`): on bytes that are not a record, a decoder may throw
 * only CorruptRecordError (what Kafka's readers throw on a bad record), never
 * a RangeError or a TypeError from running off the buffer.
 */
import { CorruptRecordError } from '../errors';

/** Runs `decode` on `bytes`; a CorruptRecordError passes, any other error fails the test. */
export function decodeOrCorrupt(decode: (bytes: Uint8Array) => unknown, bytes: Uint8Array): void {
  try {
    decode(bytes);
  } catch (e) {
    if (!(e instanceof CorruptRecordError)) throw e;
  }
}

/** A copy of `bytes` cut short at `at`, or with the byte at `at` flipped by `xor` (never by 0). */
export function truncateOrFlip(bytes: Uint8Array, at: number, xor: number, truncate: boolean): Uint8Array {
  const mutated = truncate ? bytes.slice(0, at % bytes.length) : bytes.slice();
  if (!truncate) mutated[at % mutated.length] = (mutated[at % mutated.length] as number) ^ (xor | 1);
  return mutated;
}
