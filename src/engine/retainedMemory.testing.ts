/**
 * Test support for memory budgets: the bytes the process retains (JS heap plus typed-array
 * buffers) after two full garbage collections, so a test can measure what each added item costs.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** A function that collects garbage and answers the retained bytes (heapUsed + arrayBuffers). */
export function retainedBytesMeter(): () => number {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  return () => {
    gc();
    gc();
    const m = process.memoryUsage();
    return m.heapUsed + m.arrayBuffers;
  };
}
