/**
 * The Jepsen-style proof of issue 3. Each test runs one seeded fault schedule against the real
 * simulated cluster and an idempotent acks=all producer (see runFaultSchedule for the checks).
 * A failing test names its seed; replay it with
 *   npm run soak -- --seed <seed> --schedules 1 [--unclean] --verbose
 * More schedules than CI runs: `npm run soak -- --schedules 20000 --seed 42`.
 */
import { describe, expect, it } from 'vitest';
import { MapStore } from '../log/testSupport';
import { PartitionLogReplica } from '../cluster/PartitionLogReplica';
import { generateFaultSchedule } from './FaultSchedule';
import {
  BROKERS,
  CLEAN_SHAPE,
  explainRun as explain,
  runFaultSchedule,
  runCleanSchedule as runClean,
  runUncleanSchedule as runUnclean,
} from './runFaultSchedule';

/** An unclean-shape run with no violation in which every record sent was acknowledged. */
async function expectEveryRecordAcked(seed: number, disk?: { store: MapStore }): Promise<void> {
  const r = await runUnclean(seed, disk);
  expect(r.violations, explain(r)).toEqual([]);
  expect(r.acked, explain(r)).toBe(r.sent);
}

const CLEAN_SEEDS = Number(process.env.GLASSBOX_FAULT_SEEDS ?? 500);
const UNCLEAN_SEEDS = Math.max(1, Math.round(CLEAN_SEEDS / 8));

describe('fault schedules: acks=all, min.insync.replicas=2, RF 3, unclean election off, idempotent producer', () => {
  const seeds = Array.from({ length: CLEAN_SEEDS }, (_, i) => i + 1);
  it.each(seeds)(
    'seed %i: nothing acknowledged lost, duplicated or reordered; HW invariant; one leader per epoch',
    async (seed) => {
      const r = await runClean(seed);
      expect(r.violations, explain(r)).toEqual([]);
      expect(r.failed, explain(r)).toBe(0); // one broker at a time never makes a record fail
    },
  );
});

describe('fault schedules: unclean election on, two brokers may be down at once', () => {
  const seeds = Array.from({ length: UNCLEAN_SEEDS }, (_, i) => i + 1);
  it.each(seeds)('seed %i: every lost acknowledged offset is one the engine reported', async (seed) => {
    const r = await runUnclean(seed);
    expect(r.violations, explain(r)).toEqual([]);
  });

  // Seeds known to lose acknowledged records (an unclean election, or ZooKeeper mode electing the
  // ISR's last member again after a power failure took them): the check above is only meaningful
  // if such losses happen and are all accounted for.
  it.each([16, 32])('seed %i: acknowledged records are lost, and every one is reported', async (seed) => {
    const r = await runUnclean(seed);
    expect(r.declaredLost + r.lostToPowerFailure, explain(r)).toBeGreaterThan(0);
    expect(r.violations, explain(r)).toEqual([]);
  });
});

// A share of the same seeds on the real log: PartitionLogReplica over a Store, power cuts that
// lose or tear the writes in flight, every restart recovered through LogLoader (BrokerDisks).
// Replay with `npm run soak -- --disk --seed <seed> --schedules 1 [--unclean] --verbose`.
const DISK_SEEDS = Math.max(1, Math.round(CLEAN_SEEDS / 5));
const DISK_UNCLEAN_SEEDS = Math.max(1, Math.round(CLEAN_SEEDS / 40));
const onDisk = () => ({ store: new MapStore() });

describe('fault schedules on disk: the real log, power cuts through LogLoader recovery, unclean election off', () => {
  const seeds = Array.from({ length: DISK_SEEDS }, (_, i) => i + 1);
  it.each(seeds)('seed %i: nothing acknowledged lost, duplicated or reordered; every record reported', async (seed) => {
    const r = await runClean(seed, {}, onDisk());
    expect(r.violations, explain(r)).toEqual([]);
    expect(r.failed, explain(r)).toBe(0);
  });
});

describe('fault schedules on disk, unclean election on, two brokers may be down at once', () => {
  const seeds = Array.from({ length: DISK_UNCLEAN_SEEDS }, (_, i) => i + 1);
  it.each(seeds)('seed %i: every lost acknowledged offset is one the engine reported', async (seed) => {
    const r = await runUnclean(seed, onDisk());
    expect(r.violations, explain(r)).toEqual([]);
  });
});

describe('the disk schedules run on the real log and go through recovery', () => {
  // CI seeds where a power cut tears the append it interrupts and the restart's LogLoader cuts the
  // torn batch off (found with the soak; the stats say whether it still happens).
  it.each([24, 54, 60, 72])('seed %i: a torn append is truncated by recovery, and nothing is lost', async (seed) => {
    const store = new MapStore();
    let replicas: unknown[] = [];
    const r = await runFaultSchedule(generateFaultSchedule(seed, { brokers: BROKERS, ...CLEAN_SHAPE }), {
      uncleanLeaderElection: false,
      disk: { store },
      observe: {
        end: (c) => {
          replicas = [...c.brokers.values()].flatMap((b) => [...b.replicaManager.logs.values()].map((h) => h.log));
        },
      },
    });
    expect(r.violations, explain(r)).toEqual([]);
    expect(r.disk?.tornAppends, explain(r)).toBeGreaterThan(0);
    expect(r.disk?.bytesTruncatedByRecovery, explain(r)).toBeGreaterThan(0);
    expect(replicas.length).toBe(6);
    for (const log of replicas) expect(log).toBeInstanceOf(PartitionLogReplica);
    // The segment files are in the Store, as the worker lays them out.
    const logs = [...store.files.keys()].filter((p) => /^broker-\d\/var\/kafka-logs\/jepsen-\d\/\d{20}\.log$/.test(p));
    expect(new Set(logs.map((p) => p.slice(0, 8))).size).toBe(3);
    expect(logs.some((p) => (store.files.get(p)?.length ?? 0) > 0)).toBe(true);
  });

  it.each([32, 54])(
    'seed %i (unclean election on): acknowledged records lost on disk are every one reported',
    async (seed) => {
      const r = await runUnclean(seed, onDisk());
      expect(r.declaredLost + r.lostToPowerFailure, explain(r)).toBeGreaterThan(0);
      expect(r.violations, explain(r)).toEqual([]);
    },
  );
});

describe('the checks are not vacuous: weaker producers fail them on the same schedules', () => {
  // The first of the CI seeds where each weakness shows; the search keeps the test honest if
  // the cluster's timing changes which seed it is.
  async function firstSeedWhere(
    producer: Record<string, unknown>,
    bad: (v: string) => boolean,
    limit = 130,
  ): Promise<number | null> {
    for (let seed = 1; seed <= limit; seed++) if ((await runClean(seed, producer)).violations.some(bad)) return seed;
    return null;
  }

  it('without idempotence, retries after lost responses write records twice', async () => {
    expect(await firstSeedWhere({ 'enable.idempotence': false }, (v) => v.includes('written twice'))).not.toBeNull();
  });

  it('with acks=1, a leader cut off after acknowledging loses those records', async () => {
    const lost = (v: string) => v.startsWith('acknowledged') && (v.includes('missing') || v.includes('replaced'));
    expect(await firstSeedWhere({ acks: 1, 'enable.idempotence': false }, lost)).not.toBeNull();
  });
});

describe('regressions: seeds that once failed', () => {
  // Unclean-shape seeds from the soak (issue 3). Each ended with records never reported because a
  // partition stopped making progress; every record must now get its report.
  //
  // The leader-epoch cache of the in-memory replica log answered OffsetsForLeaderEpoch unlike
  // Kafka's LeaderEpochFileCache.endOffsetFor: an epoch older than the leader's first came back
  // (-1, -1) instead of (epoch, first start offset), so a follower holding a divergent log from
  // before an unclean election fell back to its old high watermark, kept the divergent records,
  // and every fetch after that failed (offset out of range, or batches overlapping its log end):
  // followers never caught up and the HW never passed them.
  it.each([184, 274, 438, 470, 543, 563, 660, 724])(
    'seed %i: followers with a divergent log truncate to the leader epoch end offset and catch up',
    async (seed) => {
      await expectEveryRecordAcked(seed);
    },
  );

  // Seed 650: a follower with an old, divergent log was added to the ISR under an unclean leader
  // without truncating ("in-sync follower LEO < leader HW"). Fixed twice over: the epoch cache
  // above, and the leader now checks every follower fetch's lastFetchedEpoch (KIP-595) and answers
  // a divergent one with divergingEpoch, without recording its position.
  it('seed 650: a divergent follower truncates before it rejoins the ISR', async () => {
    await expectEveryRecordAcked(650);
  });

  // Seed 272: the controller was cut off from the store when a power-failed broker came back; it
  // acted on the /brokers/ids watch while unreachable (nothing written, requests dropped) and the
  // watch was spent, so the restarted broker never got its replicas and another broker stayed at
  // an old leader epoch: NOT_ENOUGH_REPLICAS forever. Watches that fire while a broker is cut off
  // are now handled when it is back in touch, and controller requests are retried until answered.
  // Seed 531: a LeaderAndIsr lost to an isolation was never sent again (Kafka's
  // ControllerChannelManager retries until the broker is removed); a broker kept following an old
  // leader epoch.
  it.each([272, 531])('seed %i: every broker hears the controller after a network partition heals', async (seed) => {
    await expectEveryRecordAcked(seed);
  });

  // Seeds 729 and 1251: a batch retried after NOT_ENOUGH_REPLICAS / NOT_LEADER_OR_FOLLOWER on the
  // cluster's fractional-millisecond clock (heartbeats every 1000/3 ms) made the producer's Sender
  // wake at `now + (backoff - waited)`, which rounded back to `now` while the batch still counted
  // as backing off: it rescheduled itself at the same instant forever and the run never ended.
  // The accumulator now answers with the absolute moment a batch becomes ready.
  it.each([729, 1251])('seed %i: a retried batch on a fractional clock is sent after its backoff', async (seed) => {
    await expectEveryRecordAcked(seed);
  });

  // Seeds 134 and 225 (`npm run soak -- --unclean`): after an unclean election the new leader,
  // with no state for the producer, accepted a later batch at any sequence (KIP-360,
  // ProducerAppendInfo.checkSequence); the earlier batch, retried, then met
  // OUT_OF_ORDER_SEQUENCE_NUMBER, which Kafka's TransactionManager.canRetry keeps retrying while it
  // is not the next sequence after the last acknowledged one. Only delivery.timeout.ms ends it: with
  // Kafka's default it expires, so each of those records gets exactly one (failed) report.
  it.each([134, 225])('seed %i: a batch behind an accepted later one fails at delivery.timeout.ms', async (seed) => {
    const r = await runUnclean(seed);
    expect(r.violations, explain(r)).toEqual([]);
    expect(r.acked, explain(r)).toBeLessThan(r.sent);
  });

  // Disk seeds 680 and 1379 (unclean shape, from `npm run soak -- --disk --unclean`): retention
  // on the leader deleted the segments a follower would fetch next while it was down, so its fetch
  // was OFFSET_OUT_OF_RANGE; it asked OffsetsForLeaderEpoch, fetched at its own log end again and
  // never caught up, and the partition stopped taking acks=all records. The follower now truncates
  // fully and starts at the leader's log start (Kafka's AbstractFetcherThread.fetchOffsetAndTruncate).
  it.each([680, 1379])(
    'disk seed %i: a follower behind the leader’s log start starts over there and catches up',
    async (seed) => {
      await expectEveryRecordAcked(seed, onDisk());
    },
  );

  // Seed 51 (clean shape): a partition leader isolated while the controller shrank the ISR kept
  // its old leader epoch after the heal, so every acks=all request to it timed out; the
  // schedule now waits for full sync after a heal, and the run must finish with every record
  // acknowledged.
  it('seed 51: an isolated leader healed during an ISR change', async () => {
    const r = await runClean(51);
    expect(r.violations, explain(r)).toEqual([]);
    expect(r.failed).toBe(0);
  });
});
