import { describe, expect, it } from 'vitest';
import type { EngineEvent } from '../engine';
import { isKafkaError } from '../errors';
import { assignedConsumer, facadeBed, type FacadeBed } from './facadeTesting';
import { groupCoordinatorPartition } from '../coordinator/group/groupCoordinatorPartition';
import type { ConsumerRecord, KafkaConsumer } from '../clients/consumer/KafkaConsumer';

/**
 * KafkaConsumer's client contract, end to end through the Engine facade on the real cluster
 * (brokers, replication, the high watermark, __consumer_offsets): poll and its fetch settings,
 * commits, seek, auto.offset.reset, assign without a group, close, lag, static membership,
 * the cooperative two-step rebalance, and the legacy ZooKeeper protocol. Semantics from
 * clients/.../consumer/KafkaConsumer.java javadoc and ConsumerConfig.java.
 */

const run = (bed: FacadeBed, ms: number) => bed.e.tick(ms);

const until = (bed: FacadeBed, pred: () => boolean, maxMs = 30_000, step = 10) => bed.runUntil(pred, maxMs, step);

/** Polls every `everyMs` until `count` records came (or maxMs). */
function pollFor(bed: FacadeBed, c: KafkaConsumer, count: number, maxMs = 20_000, everyMs = 10): ConsumerRecord[] {
  const out: ConsumerRecord[] = [];
  until(
    bed,
    () => {
      out.push(...c.poll());
      return out.length >= count;
    },
    maxMs,
    everyMs,
  );
  return out;
}

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    return isKafkaError(e) ? e.code : String(e);
  }
  return 'ok';
}

function joined(bed: FacadeBed, cs: KafkaConsumer[], groupId: string): void {
  expect(
    until(
      bed,
      () => {
        for (const c of cs) c.poll();
        return bed.group(groupId)?.state === 'Stable' && cs.every((c) => c.coordinator?.state === 'STABLE');
      },
      60_000,
      50,
    ),
  ).toBe(true);
}

/** The facade's createConsumer command for each id: members of `groupId` subscribed to orders. */
function createConsumers(bed: FacadeBed, groupId: string, consumerIds: string[]): void {
  for (const consumerId of consumerIds) bed.e.apply({ op: 'createConsumer', consumerId, groupId, topics: ['orders'] });
}

/** One consumer alone in `groupId`, subscribed to orders, auto commit off (it commits by hand), once the group is Stable. */
function joinedManualCommitter(bed: FacadeBed, consumerId: string, groupId: string): KafkaConsumer {
  const c = bed.e.groups.createConsumer(consumerId, {
    'group.id': groupId,
    'enable.auto.commit': false,
    'auto.offset.reset': 'earliest',
  });
  c.subscribe(['orders']);
  joined(bed, [c], groupId);
  return c;
}

const dec = new TextDecoder();

describe('Engine: KafkaConsumer end to end', () => {
  it('assign() without a group: earliest reset, max.poll.records per poll, commits refused (no group.id)', () => {
    const bed = facadeBed();
    bed.produce('orders', 0, ['a', 'b', 'c', 'd', 'e', 'f', 'g']);
    const c = assignedConsumer(bed, 'solo', 0, { 'auto.offset.reset': 'earliest', 'max.poll.records': 3 });
    const sizes: number[] = [];
    const values: string[] = [];
    until(bed, () => {
      const got = c.poll();
      if (got.length > 0) sizes.push(got.length);
      values.push(...got.map((r) => dec.decode(r.value as Uint8Array)));
      return values.length >= 7;
    });
    expect(values).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g']);
    expect(Math.max(...sizes)).toBe(3);
    expect(codeOf(() => c.commitSync())).toBe('INVALID_GROUP_ID');
    expect(codeOf(() => c.subscribe(['orders']))).toBe('INVALID_GROUP_ID');
    // Nothing of this consumer reaches a coordinator.
    expect(
      bed.events.some(
        (e) => e.type === 'groupRequestSent' && e.from === 'solo' && e.api !== 'Fetch' && e.api !== 'ListOffsets',
      ),
    ).toBe(false);
  });

  it('auto.offset.reset: earliest from the log start, latest from the high watermark, none throws OFFSET_OUT_OF_RANGE', () => {
    const bed = facadeBed();
    bed.produce('orders', 1, ['old-1', 'old-2']);
    const early = bed.e.groups.createConsumer('early', { 'group.id': 'g-early', 'auto.offset.reset': 'earliest' });
    const late = bed.e.groups.createConsumer('late', { 'group.id': 'g-late', 'auto.offset.reset': 'latest' });
    const none = bed.e.groups.createConsumer('none', { 'group.id': 'g-none', 'auto.offset.reset': 'none' });
    for (const c of [early, late, none]) c.assign([{ topic: 'orders', partition: 1 }]);
    until(bed, () => {
      early.poll();
      late.poll();
      return (
        early.position({ topic: 'orders', partition: 1 }) !== null &&
        late.position({ topic: 'orders', partition: 1 }) !== null
      );
    });
    expect(late.position({ topic: 'orders', partition: 1 })).toBe(2);
    // OffsetFetch finds nothing committed for g-none, and there is no reset policy.
    let error = 'ok';
    until(bed, () => {
      error = codeOf(() => none.poll());
      return error !== 'ok';
    });
    expect(error).toBe('OFFSET_OUT_OF_RANGE');
    bed.produce('orders', 1, ['new-1']);
    const fromEarly = pollFor(bed, early, 3).map((r) => dec.decode(r.value as Uint8Array));
    const fromLate = pollFor(bed, late, 1).map((r) => dec.decode(r.value as Uint8Array));
    expect(fromEarly).toEqual(['old-1', 'old-2', 'new-1']);
    expect(fromLate).toEqual(['new-1']);
    const resets = bed.events.filter((e) => e.type === 'consumerOffsetReset');
    expect(resets.map((e) => e.type === 'consumerOffsetReset' && [e.consumerId, e.strategy, e.offset])).toEqual([
      ['early', 'earliest', 0],
      ['late', 'latest', 2],
    ]);
  });

  it('a position past the log end: OffsetOutOfRange with none; earliest resets to the log start', () => {
    const bed = facadeBed();
    bed.produce('orders', 2, ['x', 'y']);
    const strict = bed.e.groups.createConsumer('strict', { 'auto.offset.reset': 'none' });
    const lenient = bed.e.groups.createConsumer('lenient', { 'auto.offset.reset': 'earliest' });
    for (const c of [strict, lenient]) {
      c.assign([{ topic: 'orders', partition: 2 }]);
      c.seek({ topic: 'orders', partition: 2 }, 50);
    }
    let error = 'ok';
    until(bed, () => {
      error = codeOf(() => strict.poll());
      return error !== 'ok';
    });
    expect(error).toBe('OFFSET_OUT_OF_RANGE');
    expect(pollFor(bed, lenient, 2).map((r) => r.offset)).toEqual([0, 1]);
  });

  it('fetch.min.bytes and fetch.max.wait.ms: the leader holds the fetch until enough bytes or the wait ends', () => {
    const bed = facadeBed();
    bed.produce('orders', 0, ['seed']);
    const c = assignedConsumer(bed, 'waiter', 0, {
      'auto.offset.reset': 'earliest',
      'fetch.min.bytes': 100_000,
      'fetch.max.wait.ms': 400,
    });
    const mark = bed.events.length;
    expect(pollFor(bed, c, 1, 5_000).length).toBe(1);
    const fetches = bed.events.slice(mark).filter((e) => e.type === 'groupRequestSent' && e.api === 'Fetch');
    const answers = bed.events
      .slice(mark)
      .filter(
        (e): e is Extract<EngineEvent, { type: 'groupResponseSent' }> =>
          e.type === 'groupResponseSent' && e.api === 'Fetch',
      );
    // The one fetch that found records was held fetch.max.wait.ms at the leader (min bytes never reached).
    const first = fetches[0] as Extract<EngineEvent, { type: 'groupRequestSent' }>;
    const answer = answers.find((a) => a.requestId === first.id);
    expect((answer?.sentAtMs ?? 0) - first.arriveAtMs).toBe(400);
    // With fetch.min.bytes=1 (default) a parked fetch completes as soon as the high watermark moves.
    const eager = assignedConsumer(bed, 'eager', 0, { 'auto.offset.reset': 'latest', 'fetch.max.wait.ms': 5_000 });
    until(bed, () => {
      eager.poll();
      return eager.position({ topic: 'orders', partition: 0 }) === 1;
    });
    run(bed, 50);
    eager.poll();
    const m2 = bed.events.length;
    bed.produce('orders', 0, ['now']);
    const at = bed.e.now();
    const got = pollFor(bed, eager, 1, 3_000, 1);
    expect(got.map((r) => dec.decode(r.value as Uint8Array))).toEqual(['now']);
    const resp = bed.events
      .slice(m2)
      .find((e) => e.type === 'groupResponseSent' && e.api === 'Fetch' && e.to === 'eager' && e.errorCode === 'NONE');
    expect(resp && resp.type === 'groupResponseSent' && resp.sentAtMs - at).toBeLessThan(100);
  });

  it('max.partition.fetch.bytes caps each partition per fetch (the first batch always comes)', () => {
    const bed = facadeBed();
    // Twelve batches of one record: the broker returns whole batches, so a batch bigger than the
    // limit still comes whole (KIP-74), and the cap shows as one batch per fetch.
    for (let i = 0; i < 12; i++) bed.produce('orders', 3, [`value-${i}`]);
    const c = assignedConsumer(bed, 'small', 3, {
      'auto.offset.reset': 'earliest',
      'max.partition.fetch.bytes': 1,
      'fetch.max.wait.ms': 10,
    });
    const mark = bed.events.length;
    expect(pollFor(bed, c, 12, 20_000).map((r) => r.offset)).toEqual(Array.from({ length: 12 }, (_, i) => i));
    const answered = bed.events
      .slice(mark)
      .filter(
        (e): e is Extract<EngineEvent, { type: 'groupResponseSent' }> =>
          e.type === 'groupResponseSent' && e.api === 'Fetch' && e.to === 'small' && e.errorCode === 'NONE',
      )
      .map((e) => (e.body as { summary: string }).summary)
      .filter((s) => !s.includes(': 0 records'));
    // One record per fetch: the 12 records took 12 non-empty fetches.
    expect(answered.length).toBe(12);
    expect(answered.every((s) => s.endsWith(': 1 records'))).toBe(true);
  });

  it('seek() re-reads from the given offset; seekToBeginning / seekToEnd use ListOffsets', () => {
    const bed = facadeBed();
    bed.produce('orders', 0, ['a', 'b', 'c', 'd']);
    const c = bed.e.groups.createConsumer('seeker', { 'auto.offset.reset': 'earliest' });
    const tp = { topic: 'orders', partition: 0 };
    c.assign([tp]);
    expect(pollFor(bed, c, 4).map((r) => r.offset)).toEqual([0, 1, 2, 3]);
    c.seek(tp, 2);
    expect(pollFor(bed, c, 2).map((r) => r.offset)).toEqual([2, 3]);
    c.seekToBeginning([tp]);
    expect(pollFor(bed, c, 4).map((r) => r.offset)).toEqual([0, 1, 2, 3]);
    c.seekToEnd([tp]);
    until(bed, () => {
      c.poll();
      return c.position(tp) === 4;
    });
    expect(c.position(tp)).toBe(4);
    expect(codeOf(() => c.seek({ topic: 'orders', partition: 3 }, 0))).toBe('INVALID_REQUEST');
  });

  it('commitSync / commitAsync write to __consumer_offsets; lag = LEO - committed in the describe rows', () => {
    const bed = facadeBed();
    bed.produce(
      'orders',
      0,
      Array.from({ length: 10 }, (_, i) => `v${i}`),
    );
    const c = joinedManualCommitter(bed, 'manual', 'billing');
    expect(pollFor(bed, c, 10).length).toBe(10);
    // Nothing committed yet (auto commit is off): the describe rows have no offset and no lag.
    expect(bed.group('billing')?.describe.find((r) => r.partition === 0)?.currentOffset).toBeNull();
    const sync = c.commitSync([{ topic: 'orders', partition: 0, offset: 4 }]);
    expect(sync.done).toBe(false);
    until(bed, () => sync.done);
    expect(sync.error).toBe('NONE');
    const row = bed.group('billing')?.describe.find((r) => r.partition === 0);
    expect(row).toMatchObject({ currentOffset: 4, logEndOffset: 10, lag: 6 });
    let callback = '';
    const async = c.commitAsync(undefined, (err) => {
      callback = err;
    });
    until(bed, () => async.done);
    expect(callback).toBe('NONE');
    expect(bed.group('billing')?.describe.find((r) => r.partition === 0)).toMatchObject({ currentOffset: 10, lag: 0 });
    // The commit is a record in the group's __consumer_offsets partition (Kafka's key/value schemas).
    const committed = bed.events.filter(
      (e) => e.type === 'offsetCommitted' && e.groupId === 'billing' && e.partition === 0,
    );
    expect(committed.map((e) => e.type === 'offsetCommitted' && e.offset)).toEqual([4, 10]);
    bed.produce('orders', 0, ['w1', 'w2', 'w3']);
    expect(bed.group('billing')?.describe.find((r) => r.partition === 0)).toMatchObject({ logEndOffset: 13, lag: 3 });
  });

  it('enable.auto.commit commits every auto.commit.interval.ms from poll(); a restarted group resumes there', () => {
    const bed = facadeBed();
    bed.produce('orders', 0, ['a', 'b', 'c']);
    const c = bed.e.groups.createConsumer('auto', {
      'group.id': 'auto-g',
      'auto.commit.interval.ms': 1_000,
      'auto.offset.reset': 'earliest',
    });
    c.subscribe(['orders']);
    joined(bed, [c], 'auto-g');
    expect(pollFor(bed, c, 3).length).toBe(3);
    until(
      bed,
      () => {
        c.poll();
        return bed.group('auto-g')?.describe.find((r) => r.partition === 0)?.currentOffset === 3;
      },
      3_000,
      100,
    );
    expect(bed.group('auto-g')?.describe.find((r) => r.partition === 0)?.currentOffset).toBe(3);
    c.close();
    bed.produce('orders', 0, ['d']);
    const again = bed.e.groups.createConsumer('auto-2', { 'group.id': 'auto-g', 'auto.offset.reset': 'earliest' });
    again.subscribe(['orders']);
    const got = pollFor(bed, again, 1, 20_000, 50);
    expect(got.map((r) => [r.partition, r.offset])).toEqual([[0, 3]]);
  });

  it('close() sends LeaveGroup: the group rebalances at once instead of after session.timeout.ms', () => {
    const bed = facadeBed();
    const a = bed.e.groups.createConsumer('a', { 'group.id': 'leavers' });
    const b = bed.e.groups.createConsumer('b', { 'group.id': 'leavers' });
    a.subscribe(['orders']);
    b.subscribe(['orders']);
    joined(bed, [a, b], 'leavers');
    const generation = bed.group('leavers')?.generationId as number;
    const mark = bed.events.length;
    const closedAt = bed.e.now();
    b.close();
    until(bed, () => {
      a.poll();
      return (bed.group('leavers')?.generationId ?? 0) > generation;
    });
    joined(bed, [a], 'leavers');
    const ev = bed.events.slice(mark);
    const leave = ev.find((e) => e.type === 'groupRequestSent' && e.api === 'LeaveGroup');
    expect(leave).toBeDefined();
    const next = ev.find((e) => e.type === 'groupGenerationCompleted' && e.groupId === 'leavers');
    expect(next?.type === 'groupGenerationCompleted' && next.generationId).toBe(generation + 1);
    // Well within the 45 s session timeout.
    expect((next?.type === 'groupGenerationCompleted' ? next.atMs : Infinity) - closedAt).toBeLessThan(10_000);
    expect(a.assignment().length).toBe(4);
    expect(codeOf(() => b.poll())).toBe('INVALID_REQUEST');
  });

  it('static membership: a restart with the same group.instance.id within session.timeout.ms causes no rebalance', () => {
    const bed = facadeBed();
    const cfg = (instance: string) => ({
      'group.id': 'static',
      'group.instance.id': instance,
      'session.timeout.ms': 20_000,
    });
    const a = bed.e.groups.createConsumer('a', cfg('inst-a'));
    const b = bed.e.groups.createConsumer('b', cfg('inst-b'));
    a.subscribe(['orders']);
    b.subscribe(['orders']);
    joined(bed, [a, b], 'static');
    const generation = bed.group('static')?.generationId;
    const owned = b.assignment();
    b.crash();
    run(bed, 5_000);
    const b2 = bed.e.groups.createConsumer('b', cfg('inst-b'));
    b2.subscribe(['orders']);
    joined(bed, [a, b2], 'static');
    expect(bed.group('static')?.generationId).toBe(generation);
    expect(b2.assignment()).toEqual(owned);
    expect(bed.events.some((e) => e.type === 'groupMemberReplaced' && e.groupInstanceId === 'inst-b')).toBe(true);
    // Past the session timeout the static member is removed: a rebalance.
    b2.crash();
    run(bed, 25_000);
    a.poll();
    joined(bed, [a], 'static');
    expect(bed.group('static')?.generationId).toBe((generation as number) + 1);
  });

  it('cooperative-sticky through the facade: a moving partition is revoked in one generation and assigned in the next', () => {
    const bed = facadeBed();
    bed.e.apply({ op: 'setGroupAssignor', groupId: 'coop', strategy: 'cooperative-sticky' });
    createConsumers(bed, 'coop', ['k1', 'k2']);
    bed.e.tick(15_000);
    expect(bed.group('coop')?.state).toBe('Stable');
    const start = bed.group('coop')?.generationId as number;
    const mark = bed.events.length;
    createConsumers(bed, 'coop', ['k3']);
    bed.e.tick(15_000);
    const gens = bed.events
      .slice(mark)
      .filter(
        (e): e is Extract<EngineEvent, { type: 'groupGenerationCompleted' }> =>
          e.type === 'groupGenerationCompleted' && e.groupId === 'coop',
      );
    expect(gens.map((g) => g.generationId)).toEqual([start + 1, start + 2]);
    const owned = (g: (typeof gens)[number]) =>
      Object.values(g.assignment)
        .flat()
        .map((tp) => tp.partition);
    // Generation start+1: the newcomer gets nothing yet, the moving partition belongs to nobody.
    const first = gens[0] as (typeof gens)[number];
    expect(owned(first).length).toBe(3);
    expect(new Set(owned(first)).size).toBe(3);
    // Generation start+2: every partition owned exactly once, the newcomer included.
    const second = gens[1] as (typeof gens)[number];
    expect(owned(second).sort()).toEqual([0, 1, 2, 3]);
    expect(Object.values(second.assignment).every((ps) => ps.length >= 1)).toBe(true);
    const revoked = bed.events
      .slice(mark)
      .filter((e) => e.type === 'consumerRebalanceCallback' && e.callback === 'onPartitionsRevoked');
    expect(revoked.length).toBe(1);
    expect(revoked[0]?.type === 'consumerRebalanceCallback' && revoked[0].partitions.length).toBe(1);
  });

  it('setGroupProtocol zookeeper: the legacy consumers register znodes visible in the engine snapshot', () => {
    const bed = facadeBed();
    bed.e.apply({ op: 'setGroupProtocol', groupId: 'legacy', protocol: 'zookeeper' });
    createConsumers(bed, 'legacy', ['z1', 'z2']);
    bed.e.tick(15_000);
    const snap = bed.e.snapshot();
    const paths = snap.znodes.map((z) => z.path);
    for (const p of [
      '/consumers/legacy/ids/z1',
      '/consumers/legacy/ids/z2',
      '/consumers/legacy/owners/orders/0',
      '/consumers/legacy/owners/orders/3',
    ])
      expect(paths).toContain(p);
    // Registrations are ephemeral: owned by the consumer's ZooKeeper session.
    const z1 = snap.znodes.find((z) => z.path === '/consumers/legacy/ids/z1');
    expect(z1?.ephemeralOwner).toBeGreaterThan(0);
    expect(snap.consumerGroups.zkConsumers.flatMap((z) => z.owned).length).toBe(4);
    // No coordinator is involved for this group.
    expect(snap.consumerGroups.groups.some((g) => g.groupId === 'legacy')).toBe(false);
    bed.e.apply({ op: 'crashConsumer', consumerId: 'z2' });
    bed.e.tick(30_000);
    const after = bed.e.snapshot().znodes.map((z) => z.path);
    expect(after).not.toContain('/consumers/legacy/ids/z2');
    expect(bed.e.snapshot().consumerGroups.zkConsumers.find((z) => z.consumerId === 'z1')?.owned.length).toBe(4);
  });

  it('COORDINATOR_LOAD_IN_PROGRESS while a new coordinator replays a big offsets partition', () => {
    const bed = facadeBed({ seed: 13, groupCoordinatorConfig: { 'simulated.offsets.load.ms.per.batch': 50 } });
    const c = joinedManualCommitter(bed, 'loader', 'heavy');
    // Forty commits: forty batches in the group's offsets partition.
    for (let i = 1; i <= 40; i++) {
      const r = c.commitSync([{ topic: 'orders', partition: 0, offset: i }]);
      until(bed, () => r.done);
      expect(r.error).toBe('NONE');
    }
    const old = bed.coordinatorOf('heavy') as number;
    const heavyPartition = groupCoordinatorPartition('heavy', 5);
    const mark = bed.events.length;
    bed.e.killBroker(old);
    // The controller moves the offsets partition; its new leader starts replaying 41 batches.
    expect(
      until(
        bed,
        () => {
          c.poll();
          return bed.e.snapshot().consumerGroups.coordinatorLoads.some((l) => l.offsetsPartition === heavyPartition);
        },
        30_000,
        20,
      ),
    ).toBe(true);
    const loading = bed.events
      .slice(mark)
      .find(
        (e): e is Extract<EngineEvent, { type: 'coordinatorLoading' }> =>
          e.type === 'coordinatorLoading' && e.offsetsPartition === heavyPartition,
      );
    expect(loading?.broker).toBe(bed.coordinatorOf('heavy'));
    expect(loading?.batches).toBeGreaterThanOrEqual(41);
    expect(loading?.loadMs).toBe((loading?.batches ?? 0) * 50);
    // commitSync now: COORDINATOR_LOAD_IN_PROGRESS, retried after retry.backoff.ms until the load is done.
    const r = c.commitSync([{ topic: 'orders', partition: 0, offset: 41 }]);
    expect(
      until(
        bed,
        () => {
          c.poll();
          return r.done;
        },
        20_000,
        20,
      ),
    ).toBe(true);
    expect(r.error).toBe('NONE');
    const answers = bed.events
      .slice(mark)
      .filter(
        (e): e is Extract<EngineEvent, { type: 'groupResponseSent' }> =>
          e.type === 'groupResponseSent' && e.api !== 'Fetch' && e.fromBroker === loading?.broker,
      );
    const duringLoad = answers.filter(
      (e) =>
        e.sentAtMs >= (loading?.atMs ?? 0) && e.sentAtMs < (loading?.completesAtMs ?? 0) && e.api !== 'FindCoordinator',
    );
    expect(duringLoad.some((e) => e.api === 'OffsetCommit' && e.errorCode === 'COORDINATOR_LOAD_IN_PROGRESS')).toBe(
      true,
    );
    // Heartbeats are answered blindly (NONE) while loading, as Kafka's handleHeartbeat does.
    for (const e of duringLoad)
      expect(e.errorCode).toBe(e.api === 'Heartbeat' ? 'NONE' : 'COORDINATOR_LOAD_IN_PROGRESS');
    // The commit that finally went through was answered after the load completed.
    const ok = answers.find((e) => e.api === 'OffsetCommit' && e.errorCode === 'NONE');
    expect(ok?.sentAtMs).toBeGreaterThanOrEqual(loading?.completesAtMs ?? Infinity);
    expect(bed.group('heavy')?.describe.find((row) => row.partition === 0)?.currentOffset).toBe(41);
  });
});
