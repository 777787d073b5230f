/**
 * What a run lost or delivered twice, as the delivery cards show it: each consumer crash with what
 * its offsets predicted and what the engine's delivery ledger (ConsumerApplications.delivery) then
 * counted, the offsets an unclean leader election truncated away, and the last log truncation each
 * consumer detected (KIP-320's OffsetsForLeaderEpoch check).
 */
import type { CrashReport, Engine } from '../../index';
import type { ConsumerCrashView, LogTruncationView, LostOffsetsView, EngineEvent } from '../types';
import { toScenarioMs } from '../scenarioTime';

/** Crashes kept, oldest dropped first. */
const CRASHES_KEPT = 20;

/** What the views read of the audit. */
export interface DeliveryAuditRead {
  /** The crashes with what the group's delivery counts say happened since each. */
  crashViews(): ConsumerCrashView[];
  /** The offsets unclean elections lost, oldest first. */
  lostOffsets(): readonly LostOffsetsView[];
  /** The last log truncation the consumer detected, by consumer name. */
  truncationOf(consumer: string): LogTruncationView | null;
}

interface KeptCrash {
  view: Omit<ConsumerCrashView, 'observed'>;
  /** The group's delivery counts over the crashed consumer's partitions at that moment. */
  baseline: { duplicates: number; skipped: number };
}

export class DeliveryAudit implements DeliveryAuditRead {
  private readonly crashes: KeptCrash[] = [];
  private readonly lost: LostOffsetsView[] = [];
  private readonly truncations = new Map<string, LogTruncationView>();
  private readonly off: () => void;

  constructor(private readonly engine: Engine) {
    this.off = engine.subscribe((e) => this.onEvent(e), ['consumerLogTruncation', 'uncleanLeaderElection']);
  }

  dispose(): void {
    this.off();
  }

  /**
   * What a crash leaves for the next owner, from the engine's report: per partition the
   * consumer's position, how far its application had processed, and the group's committed
   * offset. The next owner resumes from the committed offset, so processed-but-uncommitted
   * records come again (case 1) and committed-but-unprocessed ones never come (case 2). The
   * group's delivery counts over those partitions are kept, so the view can show what actually
   * happened after the rebalance next to what the offsets predicted.
   */
  recordCrash(r: CrashReport): void {
    let redelivered = 0;
    let skipped = 0;
    const partitions: ConsumerCrashView['partitions'] = [];
    for (const p of r.partitions) {
      // No committed offset: the new owner starts from auto.offset.reset=earliest, offset 0 here
      // (the board's topics are never truncated), so everything processed is read again.
      const from = p.committed ?? 0;
      if (from < p.processedTo) redelivered += p.processedTo - from;
      else skipped += from - p.processedTo;
      partitions.push({ ...p });
    }
    const keys = new Set(partitions.map((p) => `${p.topic}-${p.partition}`));
    const t = this.engine.consumerApps.delivery.totals(r.groupId, keys);
    this.crashes.push({
      view: {
        consumer: r.consumerId,
        group: r.groupId,
        atMs: toScenarioMs(r.atMs),
        commitMode: r.commitMode,
        partitions,
        redelivered,
        skipped,
      },
      baseline: { duplicates: t.duplicates, skipped: t.skipped },
    });
    if (this.crashes.length > CRASHES_KEPT) this.crashes.shift();
  }

  crashViews(): ConsumerCrashView[] {
    const delivery = this.engine.consumerApps.delivery;
    return this.crashes.map(({ view, baseline }) => {
      const t = delivery.totals(view.group, new Set(view.partitions.map((p) => `${p.topic}-${p.partition}`)));
      return {
        ...view,
        partitions: view.partitions.map((p) => ({ ...p })),
        observed: { redelivered: t.duplicates - baseline.duplicates, skipped: t.skipped - baseline.skipped },
      };
    });
  }

  lostOffsets(): readonly LostOffsetsView[] {
    return this.lost;
  }

  truncationOf(consumer: string): LogTruncationView | null {
    return this.truncations.get(consumer) ?? null;
  }

  private onEvent(e: EngineEvent): void {
    if (e.type === 'consumerLogTruncation') {
      this.truncations.set(e.consumerId, {
        topic: e.topic,
        partition: e.partition,
        fetchOffset: e.fetchOffset,
        offsetEpoch: e.offsetEpoch,
        divergentOffset: e.divergentOffset,
        outcome: e.outcome,
        atMs: toScenarioMs(e.atMs),
      });
    } else if (e.type === 'uncleanLeaderElection' && e.lostOffsets) {
      this.lost.push({
        topic: e.topic,
        partition: e.partition,
        newLeader: e.newLeader,
        from: e.lostOffsets.from,
        to: e.lostOffsets.to,
        committedFrom: e.lostCommittedOffsets?.from ?? null,
        committedTo: e.lostCommittedOffsets?.to ?? null,
        atMs: toScenarioMs(e.atMs),
      });
    }
  }
}
