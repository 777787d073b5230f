/**
 * The step both replication lessons on the elections scenario take while broker 3 is out of the
 * ISR: records are written to payments-0, the step waits until the high watermark covers them,
 * and it records each replica's log end offset (the in-sync brokers have them, broker 3 not).
 */
import { highWatermarkReaches, replicaLogEndOffsets } from '../facts';
import type { LessonStep } from '../types';
import { PAYMENTS, row } from './scenarios';

export function paymentsWritten(
  text: string,
  records: { count: number; keyPrefix: string; valueBytes: number },
): LessonStep {
  return {
    text,
    look: row(PAYMENTS),
    actions: [{ op: 'produceRecords', topic: PAYMENTS, from: 0, ...records }],
    until: highWatermarkReaches(PAYMENTS, 0, records.count),
    observe: (w) => ({ replicaLeo: replicaLogEndOffsets(w, PAYMENTS, 0) }),
  };
}
