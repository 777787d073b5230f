import { describe, expect, it } from 'vitest';
import type { CommitMode, CrashReport } from './ConsumerApplications';
import { DeliveryLedger } from './DeliveryLedger';
import { type FacadeBed, facadeBed } from './facadeTesting';

/**
 * The applications' commit modes and seed 000's two cases ("case1 / case2") end to end on the
 * engine (brokers, replication, __consumer_offsets): an application takes 10 ms per record, polls
 * batches of 10 from a 100-record partition, and crashes 35 ms into its fourth batch (offsets
 * 30-39), so it has processed 30, 31 and 32 of it. A second application then takes the
 * partition over from the group's committed offset, and the group's DeliveryLedger counts what
 * actually happened:
 *  - commit after processing: committed 30 -> 30, 31, 32 processed twice (case 1);
 *  - commit before processing: committed 40 -> 33..39 never processed (case 2).
 */

const CONFIG = { 'auto.offset.reset': 'earliest', 'max.poll.records': 10, 'session.timeout.ms': 10_000 };

const until = (bed: FacadeBed, pred: () => boolean, maxMs = 60_000, step = 5) => bed.runUntil(pred, maxMs, step);

/** orders with one partition holding `n` records `<prefix>0`, `<prefix>1`, ...; groups join at once. */
function onePartitionOf(seed: number, n: number, prefix: string) {
  const bed = facadeBed({
    seed,
    topicPartitions: 1,
    groupCoordinatorConfig: { 'group.initial.rebalance.delay.ms': 0 },
  });
  bed.produce(
    'orders',
    0,
    Array.from({ length: n }, (_, i) => `${prefix}${i}`),
  );
  return bed;
}

function crashMidBatch(mode: CommitMode, extra: Record<string, unknown> = {}) {
  const bed = onePartitionOf(11, 100, 'order-');
  const apps = bed.e.consumerApps;
  apps.processingMsPerRecord = 10;
  apps.setGroupCommitMode('g', mode);
  apps.createConsumer('a', 'g', { ...CONFIG, ...extra }, 20);
  apps.subscribe('a', ['orders']);
  const a = apps.apps.get('a');
  // 35 ms into the batch that starts at offset 30.
  expect(
    until(
      bed,
      () => a?.processed['orders-0'] === 30 && a.inHand !== null && a.inHand.untilMs - bed.e.now() === 65,
      60_000,
      1,
    ),
  ).toBe(true);
  const report = apps.crash('a') as CrashReport;
  apps.createConsumer('b', 'g', { ...CONFIG, ...extra }, 20);
  apps.subscribe('b', ['orders']);
  until(bed, () => (apps.apps.get('b')?.lastOffsets['orders-0'] ?? -1) === 99);
  bed.e.tick(1000);
  return { report, counts: apps.delivery.counts('g'), b: apps.apps.get('b') };
}

describe('ConsumerApplications: commit modes and a crash with a batch in hand (seed 000)', () => {
  it('commit after processing: the 3 records processed since the last commit are processed again (case 1)', () => {
    const { report, counts, b } = crashMidBatch('after-processing');
    expect(report.commitMode).toBe('after-processing');
    expect(report.partitions).toEqual([
      { topic: 'orders', partition: 0, position: 40, processedTo: 33, committed: 30 },
    ]);
    // b resumes at the committed 30.
    expect(b?.processed['orders-0']).toBe(70);
    expect(counts).toEqual([
      { topic: 'orders', partition: 0, processed: 103, unique: 100, duplicates: 3, skipped: 0, skippedRanges: [] },
    ]);
  });

  it('commit before processing: the 7 records committed but not yet processed are lost (case 2)', () => {
    const { report, counts, b } = crashMidBatch('before-processing');
    expect(report.partitions).toEqual([
      { topic: 'orders', partition: 0, position: 40, processedTo: 33, committed: 40 },
    ]);
    // b resumes at the committed 40: 33..39 are never processed by anyone.
    expect(b?.processed['orders-0']).toBe(60);
    expect(counts).toEqual([
      {
        topic: 'orders',
        partition: 0,
        processed: 93,
        unique: 93,
        duplicates: 0,
        skipped: 7,
        skippedRanges: [[33, 39]],
      },
    ]);
  });

  it('auto commit: what was processed since the last auto commit comes again, nothing is lost', () => {
    const { report, counts } = crashMidBatch('auto', { 'auto.commit.interval.ms': 50 });
    const [p] = report.partitions;
    expect(p?.processedTo).toBe(33);
    // The last auto commit (inside a poll) covered batches processed before it: at most 30.
    const committed = p?.committed ?? 0;
    expect(committed).toBeLessThanOrEqual(30);
    expect(counts[0]).toMatchObject({ unique: 100, duplicates: 33 - committed, skipped: 0 });
  });

  it('an orderly close lets the application finish its batch (and commit it): nothing twice, nothing lost', () => {
    const bed = onePartitionOf(3, 50, 'o');
    const apps = bed.e.consumerApps;
    apps.processingMsPerRecord = 10;
    apps.setGroupCommitMode('g', 'after-processing');
    apps.createConsumer('a', 'g', CONFIG, 20);
    apps.subscribe('a', ['orders']);
    until(bed, () => (apps.apps.get('a')?.processed['orders-0'] ?? 0) >= 20 && apps.apps.get('a')?.inHand !== null);
    apps.close('a');
    expect(apps.apps.get('a')?.inHand).toBeNull();
    apps.createConsumer('b', 'g', CONFIG, 20);
    apps.subscribe('b', ['orders']);
    until(bed, () => (apps.apps.get('b')?.lastOffsets['orders-0'] ?? -1) === 49);
    expect(apps.delivery.totals('g')).toEqual({ processed: 50, duplicates: 0, skipped: 0 });
  });
});

describe('DeliveryLedger', () => {
  it('merges processed offsets into ranges and counts duplicates and gaps', () => {
    const l = new DeliveryLedger();
    for (const o of [0, 1, 2, 3, 7, 8, 2, 3, 5, 4, 9]) l.record('g', 't', 0, o);
    const [c] = l.counts('g');
    expect(c).toEqual({
      topic: 't',
      partition: 0,
      processed: 11,
      unique: 9,
      duplicates: 2,
      skipped: 1,
      skippedRanges: [[6, 6]],
    });
    l.record('g', 't', 0, 6);
    expect(l.totals('g')).toEqual({ processed: 12, duplicates: 2, skipped: 0 });
    expect(l.totals('g', new Set(['t-1']))).toEqual({ processed: 0, duplicates: 0, skipped: 0 });
  });

  it('counts a first batch lost whole from where poll() first returned records to the group', () => {
    const l = new DeliveryLedger();
    l.polled('g', 't', 1, 0);
    expect(l.totals('g').skipped).toBe(0);
    for (const o of [5, 6]) l.record('g', 't', 1, o);
    expect(l.counts('g')[0]).toMatchObject({ unique: 2, skipped: 5, skippedRanges: [[0, 4]] });
  });
});
