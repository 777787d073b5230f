/**
 * What a consumer group's applications have processed, per partition: how many records in all
 * and which offsets, as sorted disjoint ranges. From it, seed 000's two outcomes of a handover
 * are counted rather than predicted:
 *  - duplicates: records processed more than once (case 1: committed below what was processed);
 *  - skipped: offsets below the highest processed one that nobody processed (case 2: committed
 *    beyond what was processed, so the next owner started after them).
 * Skipped offsets are counted from the first offset poll() ever returned to the group on that
 * partition (where the group started reading: after retention, or with auto.offset.reset=latest,
 * that is not offset 0), so a first batch lost whole counts too.
 */

/** One partition's processed offsets: `[start, end)` pairs, sorted and merged. */
class PartitionLedger {
  processed = 0;
  readonly ranges: number[] = [];
  /** The first offset poll() returned to the group here (null: none yet). */
  origin: number | null = null;

  add(offset: number): void {
    this.processed++;
    const r = this.ranges;
    const n = r.length;
    // The usual case: the next offset after the last range.
    if (n > 0 && r[n - 1] === offset) {
      r[n - 1] = offset + 1;
      return;
    }
    if (n === 0 || (r[n - 1] as number) < offset) {
      r.push(offset, offset + 1);
      return;
    }
    // Somewhere before the end (a redelivery, or a later owner's earlier offsets).
    let i = 0;
    while (i < n && (r[i + 1] as number) < offset) i += 2;
    const start = r[i] as number;
    const end = r[i + 1] as number;
    if (offset >= start && offset < end) return;
    if (offset === end) {
      r[i + 1] = offset + 1;
      if (i + 2 < r.length && r[i + 2] === offset + 1) r.splice(i + 1, 2);
    } else if (offset + 1 === start) r[i] = offset;
    else r.splice(i, 0, offset, offset + 1);
  }

  unique(): number {
    let u = 0;
    for (let i = 0; i < this.ranges.length; i += 2) u += (this.ranges[i + 1] as number) - (this.ranges[i] as number);
    return u;
  }

  private start(): number {
    const first = this.ranges[0] as number;
    return this.origin === null ? first : Math.min(this.origin, first);
  }

  skipped(): number {
    const r = this.ranges;
    if (r.length === 0) return 0;
    return (r[r.length - 1] as number) - this.start() - this.unique();
  }

  /** The skipped offsets as `[from, to]` inclusive ranges. */
  gaps(): [number, number][] {
    const out: [number, number][] = [];
    if (this.ranges.length === 0) return out;
    const start = this.start();
    if (start < (this.ranges[0] as number)) out.push([start, (this.ranges[0] as number) - 1]);
    for (let i = 1; i + 1 < this.ranges.length; i += 2)
      out.push([this.ranges[i] as number, (this.ranges[i + 1] as number) - 1]);
    return out;
  }
}

export interface DeliveryCount {
  topic: string;
  partition: number;
  /** Records processed, counting every time. */
  processed: number;
  /** Distinct offsets processed. */
  unique: number;
  /** processed - unique: processed again (case 1). */
  duplicates: number;
  /** Offsets between the first and the highest processed that were never processed (case 2). */
  skipped: number;
  skippedRanges: [number, number][];
}

export class DeliveryLedger {
  private readonly byGroup = new Map<string, Map<string, { topic: string; partition: number; l: PartitionLedger }>>();

  private ledger(groupId: string, topic: string, partition: number): PartitionLedger {
    let g = this.byGroup.get(groupId);
    if (!g) this.byGroup.set(groupId, (g = new Map()));
    const key = `${topic}-${partition}`;
    let p = g.get(key);
    if (!p) g.set(key, (p = { topic, partition, l: new PartitionLedger() }));
    return p.l;
  }

  /** poll() returned this record to one of the group's applications (processed or not). */
  polled(groupId: string, topic: string, partition: number, offset: number): void {
    const l = this.ledger(groupId, topic, partition);
    if (l.origin === null || offset < l.origin) l.origin = offset;
  }

  /** One of the group's applications finished processing this record. */
  record(groupId: string, topic: string, partition: number, offset: number): void {
    this.ledger(groupId, topic, partition).add(offset);
  }

  /** Per partition the group processed, in topic then partition order. */
  counts(groupId: string): DeliveryCount[] {
    const g = this.byGroup.get(groupId);
    if (!g) return [];
    return [...g.values()]
      .sort((a, b) => (a.topic === b.topic ? a.partition - b.partition : a.topic < b.topic ? -1 : 1))
      .map(({ topic, partition, l }) => {
        const unique = l.unique();
        return {
          topic,
          partition,
          processed: l.processed,
          unique,
          duplicates: l.processed - unique,
          skipped: l.skipped(),
          skippedRanges: l.gaps(),
        };
      });
  }

  /** Totals over the group's partitions (optionally only those in `only`, as `topic-p`). */
  totals(groupId: string, only?: ReadonlySet<string>): { processed: number; duplicates: number; skipped: number } {
    const t = { processed: 0, duplicates: 0, skipped: 0 };
    const g = this.byGroup.get(groupId);
    if (!g) return t;
    for (const [key, { l }] of g) {
      if (only && !only.has(key)) continue;
      const unique = l.unique();
      t.processed += l.processed;
      t.duplicates += l.processed - unique;
      t.skipped += l.skipped();
    }
    return t;
  }
}
