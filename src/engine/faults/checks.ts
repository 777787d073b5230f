import { tpKey } from '../TopicPartition';
/**
 * The promises a fault schedule holds the cluster to, checked against the final logs and the
 * events seen along the way. Each check returns human-readable violations (empty = held).
 */
import type { Acked } from './ProduceHistory';

/** One partition's committed log as read back at the end: value per offset. */
export type FinalLogs = Map<string, Map<number, string>>;

/**
 * No acknowledged record lost or moved: each acknowledged value is in its partition's final
 * committed log at exactly the offset it was acknowledged with — unless `lostRanges` (from the
 * engine's unclean-election events) declares that offset lost, which is only allowed with
 * unclean election on.
 */
export function checkNoAckedLoss(
  acked: readonly Acked[],
  logs: FinalLogs,
  lostRanges: ReadonlyMap<string, { from: number; to: number }[]> = new Map(),
): string[] {
  const violations: string[] = [];
  for (const a of acked) {
    if (a.offset < 0) continue; // acks=0: nothing was promised
    const tp = tpKey(a.topic, a.partition);
    const v = logs.get(tp)?.get(a.offset);
    if (v === a.value) continue;
    const declared = (lostRanges.get(tp) ?? []).some((r) => a.offset >= r.from && a.offset < r.to);
    if (declared) continue;
    violations.push(
      v === undefined
        ? `acknowledged ${a.value} at ${tp}@${a.offset} is missing (log end ${maxOffset(logs.get(tp)) + 1})`
        : `acknowledged ${a.value} at ${tp}@${a.offset} was replaced by ${v}`,
    );
  }
  return violations;
}

function maxOffset(log: Map<number, string> | undefined): number {
  let m = -1;
  if (log) for (const o of log.keys()) if (o > m) m = o;
  return m;
}

/** No duplicates: no value appears twice anywhere (every sent value is unique). */
export function checkNoDuplicates(logs: FinalLogs): string[] {
  const seen = new Map<string, string>();
  const violations: string[] = [];
  for (const [tp, log] of logs) {
    for (const [offset, value] of [...log].sort((a, b) => a[0] - b[0])) {
      const where = `${tp}@${offset}`;
      const first = seen.get(value);
      if (first) violations.push(`${value} written twice: ${first} and ${where}`);
      else seen.set(value, where);
    }
  }
  return violations;
}

/**
 * No reordering within a partition: acknowledged records of a partition sit at offsets that
 * increase in the order they were sent.
 */
export function checkOrder(ackedInSendOrder: readonly Acked[]): string[] {
  const last = new Map<string, Acked>();
  const violations: string[] = [];
  for (const a of ackedInSendOrder) {
    if (a.offset < 0) continue;
    const tp = tpKey(a.topic, a.partition);
    const prev = last.get(tp);
    if (prev && prev.offset >= a.offset) {
      violations.push(`${tp}: ${a.value} sent after ${prev.value} but landed at ${a.offset} <= ${prev.offset}`);
    }
    last.set(tp, a);
  }
  return violations;
}

/** At most one leader per partition per leader epoch. */
export class LeaderEpochWitness {
  private readonly leaders = new Map<string, number>();
  readonly violations: string[] = [];

  observe(topic: string, partition: number, leaderEpoch: number, broker: number): void {
    const key = `${tpKey(topic, partition)}/epoch ${leaderEpoch}`;
    const known = this.leaders.get(key);
    if (known === undefined) this.leaders.set(key, broker);
    else if (known !== broker) this.violations.push(`${key} had two leaders: brokers ${known} and ${broker}`);
  }
}
