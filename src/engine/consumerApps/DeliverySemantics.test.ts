import { describe, expect, it } from 'vitest';
import { FacadeWorld } from './facadeTesting';
import { GroupTestBed } from './GroupTestBed';
import type { ConsumerRecord, KafkaConsumer } from '../clients/consumer/KafkaConsumer';

/**
 * The seed's two cases (000, "case1 / case2"), with exact counts:
 *  case 1: the committed offset is below the last record processed -> the records in between are
 *          processed twice (at-least-once: commit after processing, crash before the commit);
 *  case 2: the committed offset is above the last record processed -> the records in between
 *          are never processed (at-most-once: commit before processing, crash before processing).
 * And the remedy the seed gives: commit in onPartitionsRevoked, so a rebalance hands a
 * partition over exactly where its previous owner stopped.
 */

const CONFIG = {
  'group.id': 'g',
  'enable.auto.commit': false,
  'auto.offset.reset': 'earliest',
  'max.poll.records': 10,
  'session.timeout.ms': 10_000,
};

type World = GroupTestBed | FacadeWorld;

/** The same scenarios on the group test bed and, end to end, on the engine's real cluster. */
const WORLDS = ['test bed', 'engine'] as const;

function makeWorld(kind: (typeof WORLDS)[number], partitions: number, perPartition: number): World {
  const values = (p: number) => Array.from({ length: perPartition }, (_, i) => `p${p}-${i}`);
  if (kind === 'engine') {
    const w = new FacadeWorld('events', partitions, {
      groupCoordinatorConfig: { 'group.initial.rebalance.delay.ms': 0 },
    });
    for (let p = 0; p < partitions; p++) w.bed.produce('events', p, values(p));
    return w;
  }
  const bed = new GroupTestBed({ coordinatorConfig: { 'group.initial.rebalance.delay.ms': 0 } });
  bed.port.createTopic('events', partitions, 3);
  for (let p = 0; p < partitions; p++) bed.port.produce('events', p, values(p));
  return bed;
}

/** Polls (every 10 ms of simulated time) until a non-empty batch comes back. */
function nextBatch(bed: World, c: KafkaConsumer): ConsumerRecord[] {
  let batch: ConsumerRecord[] = [];
  bed.runUntil(() => (batch = c.poll()).length > 0, 60_000);
  return batch;
}

function commitAndWait(bed: World, c: KafkaConsumer): void {
  const r = c.commitSync();
  expect(bed.runUntil(() => r.done)).toBe(true);
  expect(r.error).toBe('NONE');
}

function tally(processed: string[]) {
  const seen = new Map<string, number>();
  for (const id of processed) seen.set(id, (seen.get(id) ?? 0) + 1);
  return {
    total: processed.length,
    unique: seen.size,
    duplicates: [...seen.values()].reduce((n, k) => n + (k - 1), 0),
  };
}

const id = (r: ConsumerRecord) => `${r.partition}:${r.offset}`;

describe.each(WORLDS)('delivery semantics (%s)', (kind) => {
  const world = (partitions: number, perPartition: number) => makeWorld(kind, partitions, perPartition);
  /** 100 records in one partition and consumer `a` subscribed to them, committing by hand. */
  const oneConsumer = () => {
    const bed = world(1, 100);
    const a = bed.consumer('a', CONFIG);
    a.subscribe(['events']);
    return { bed, a, processed: [] as string[] };
  };
  it('case 1: commit after processing, crash before the commit -> exactly the uncommitted batch is duplicated', () => {
    const { bed, a, processed } = oneConsumer();
    for (let i = 0; i < 3; i++) {
      processed.push(...nextBatch(bed, a).map(id));
      commitAndWait(bed, a);
    }
    // Fourth batch: processed, then the process dies before commitSync.
    const fourth = nextBatch(bed, a);
    processed.push(...fourth.map(id));
    expect(fourth.map((r) => r.offset)).toEqual([30, 31, 32, 33, 34, 35, 36, 37, 38, 39]);
    a.crash();

    const b = bed.consumer('b', CONFIG);
    b.subscribe(['events']);
    bed.pollEvery(b, 10, (rs) => {
      processed.push(...rs.map(id));
      if (rs.length > 0) b.commitAsync();
    });
    expect(bed.runUntil(() => tally(processed).unique === 100, 120_000)).toBe(true);
    // b starts at the committed offset 30, so offsets 30..39 are processed twice.
    expect(bed.ofType('consumerPolled').find((e) => e.consumerId === 'b')?.records[0]?.fromOffset).toBe(30);
    expect(tally(processed)).toEqual({ total: 110, unique: 100, duplicates: 10 });
  });

  it('case 2: commit before processing, crash before processing -> exactly the committed-ahead batch is lost', () => {
    const { bed, a, processed } = oneConsumer();
    for (let i = 0; i < 3; i++) {
      const batch = nextBatch(bed, a);
      commitAndWait(bed, a);
      processed.push(...batch.map(id));
    }
    const fourth = nextBatch(bed, a);
    commitAndWait(bed, a); // commits 40: the batch 30..39 counts as consumed
    expect(fourth.length).toBe(10);
    a.crash(); // ...and is never processed

    const b = bed.consumer('b', CONFIG);
    b.subscribe(['events']);
    bed.pollEvery(b, 10, (rs) => {
      if (rs.length > 0) b.commitAsync();
      processed.push(...rs.map(id));
    });
    bed.runUntil(() => processed.length >= 90, 120_000);
    bed.run(2_000);
    const t = tally(processed);
    expect(t).toEqual({ total: 90, unique: 90, duplicates: 0 });
    const lost = Array.from({ length: 100 }, (_, i) => `0:${i}`).filter((x) => !processed.includes(x));
    expect(lost).toEqual(['0:30', '0:31', '0:32', '0:33', '0:34', '0:35', '0:36', '0:37', '0:38', '0:39']);
  });

  it('auto commit: a crash re-delivers exactly what was processed since the last auto commit', () => {
    const bed = world(1, 100);
    const processed: string[] = [];
    const auto = { ...CONFIG, 'enable.auto.commit': true, 'auto.commit.interval.ms': 250 };
    const a = bed.consumer('a', auto);
    a.subscribe(['events']);
    bed.pollEvery(a, 100, (rs) => processed.push(...rs.map(id)));
    // 10 records per poll every 100 ms; the auto commit (from poll) runs every 250 ms.
    bed.runUntil(() => processed.length >= 70, 60_000, 1);
    bed.stopPolling(a);
    a.crash();
    // What a sent before it died is on the wire and still arrives (as a producer's would).
    bed.run(10);
    const lastCommit = bed.ofType('offsetCommitted').at(-1)?.offset ?? 0;
    const processedByA = processed.length;
    const b = bed.consumer('b', auto);
    b.subscribe(['events']);
    bed.pollEvery(b, 100, (rs) => processed.push(...rs.map(id)));
    expect(bed.runUntil(() => tally(processed).unique === 100, 120_000)).toBe(true);
    bed.run(1_000);
    // Seed 000: "自动提交的优点是方便，但是可能会重复处理消息" - convenient, but duplicates.
    expect(tally(processed).duplicates).toBe(processedByA - lastCommit);
    // The last auto commit was still on its way when the process died and is delivered all the
    // same: the 10 records processed after it come again.
    expect({ processedByA, lastCommit }).toEqual({ processedByA: 70, lastCommit: 60 });
    expect(tally(processed)).toEqual({ total: 110, unique: 100, duplicates: 10 });
  });

  /**
   * A rebalance (not a crash): b joins while a has processed 10 records past its last commit.
   * Without a commit in onPartitionsRevoked those 10 are processed again by whoever gets the
   * partition; with one, nothing is processed twice and nothing is skipped.
   */
  function rebalanceScenario(commitOnRevoke: boolean) {
    const bed = world(2, 50);
    const processed: string[] = [];
    const config = { ...CONFIG, 'max.poll.records': 1, 'partition.assignment.strategy': ['range'] };
    const a = bed.consumer('a', config);
    a.subscribe(['events'], {
      onPartitionsRevoked: () => {
        if (commitOnRevoke) a.commitSync();
      },
    });
    while (processed.length < 30) processed.push(...nextBatch(bed, a).map(id));
    commitAndWait(bed, a);
    while (processed.length < 40) processed.push(...nextBatch(bed, a).map(id));
    // b joins; a's heartbeat learns of the rebalance (REBALANCE_IN_PROGRESS) while a is busy.
    const b = bed.consumer('b', config);
    b.subscribe(['events']);
    bed.pollEvery(b, 10, (rs) => {
      processed.push(...rs.map(id));
      if (rs.length > 0) b.commitAsync();
    });
    expect(bed.runUntil(() => a.coordinator?.rejoinNeeded === true, 10_000)).toBe(true);
    // a's next poll rejoins: eager protocol -> onPartitionsRevoked first.
    bed.pollEvery(a, 10, (rs) => {
      processed.push(...rs.map(id));
      if (rs.length > 0) a.commitAsync();
    });
    expect(bed.runUntil(() => tally(processed).unique === 100, 120_000)).toBe(true);
    bed.run(1_000);
    expect(bed.groups.groupSnapshot('g')?.members.length).toBe(2);
    return tally(processed);
  }

  it('without a commit in onPartitionsRevoked, the 10 records processed since the last commit come again', () => {
    expect(rebalanceScenario(false)).toEqual({ total: 110, unique: 100, duplicates: 10 });
  });

  it('committing in onPartitionsRevoked: every record exactly once across the rebalance', () => {
    expect(rebalanceScenario(true)).toEqual({ total: 100, unique: 100, duplicates: 0 });
  });
});
