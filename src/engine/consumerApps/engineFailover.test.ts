import { describe, expect, it } from 'vitest';
import type { EngineEvent } from '../engine';
import { facadeBed, type FacadeBed } from './facadeTesting';
import { OFFSETS_TOPIC } from '../coordinator/group/GroupCoordinator';
import { groupCoordinatorPartition } from '../coordinator/group/groupCoordinatorPartition';
import type { KafkaConsumer } from '../clients/consumer/KafkaConsumer';

/**
 * Consumer groups riding out broker failures, driven through the Engine facade on the real
 * cluster: the coordinator moves with the leadership of the group's `__consumer_offsets`
 * partition and reloads the group from it, consumers rediscover it (FindCoordinator) and go on;
 * fetches follow partition leadership. Kafka's behaviour throughout:
 * clients/.../consumer/internals/AbstractCoordinator (markCoordinatorUnknown on disconnects,
 * NOT_COORDINATOR and heartbeat session expiry), GroupMetadataManager.loadGroupsAndOffsets.
 */

type Seen = Map<string, Set<number>>;

/** A consumer application: poll every 100 ms, remember every offset it was given. */
function runConsumer(bed: FacadeBed, id: string, groupId: string, seen: Seen, config: Record<string, unknown> = {}) {
  const c = bed.e.groups.createConsumer(id, {
    'group.id': groupId,
    'auto.offset.reset': 'earliest',
    'auto.commit.interval.ms': 1_000,
    ...config,
  });
  c.subscribe(['orders']);
  const loop = () => {
    if (c.lifecycle !== 'running') return;
    for (const r of c.poll()) {
      const k = `${r.topic}-${r.partition}`;
      let s = seen.get(k);
      if (!s) {
        s = new Set();
        seen.set(k, s);
      }
      s.add(r.offset);
    }
    bed.e.cluster.scheduler.schedule(100, loop);
  };
  bed.e.cluster.scheduler.schedule(0, loop);
  return c;
}

function produceRound(bed: FacadeBed, round: number, perPartition = 5): void {
  for (let p = 0; p < 4; p++)
    bed.produce(
      'orders',
      p,
      Array.from({ length: perPartition }, (_, i) => `r${round}-p${p}-${i}`),
    );
}

/** Every offset below each partition's high watermark was handed to some consumer. */
function expectNoLoss(bed: FacadeBed, seen: Seen): void {
  for (let p = 0; p < 4; p++) {
    const end = bed.logEndOffset('orders', p);
    expect(end).toBeGreaterThan(0);
    const got = seen.get(`orders-${p}`) ?? new Set();
    const missing = Array.from({ length: end }, (_, i) => i).filter((o) => !got.has(o));
    expect(missing, `orders-${p} missing offsets`).toEqual([]);
  }
}

function stableGroup(bed: FacadeBed, consumers: KafkaConsumer[], groupId = 'shop'): void {
  for (let i = 0; i < 300; i++) {
    if (bed.group(groupId)?.state === 'Stable' && consumers.every((c) => c.coordinator?.state === 'STABLE')) return;
    bed.e.tick(100);
  }
  throw new Error('group never became Stable');
}

const eventsSince = (events: EngineEvent[], from: number) => events.slice(from);

/** Whether some consumer Fetch for partition `tp` (`<topic>-<partition>`) was sent to `broker`. */
function fetchedFrom(ev: EngineEvent[], broker: number, tp: string): boolean {
  return ev.some(
    (x) =>
      x.type === 'groupRequestSent' &&
      x.api === 'Fetch' &&
      x.toBroker === broker &&
      'summary' in x.body &&
      x.body.summary.includes(`${tp}@`),
  );
}

/** A facade bed whose 'shop' group of consumers `ids` (on orders) is Stable. */
function settledGroup(seed: number, ids: string[], config: Record<string, unknown> = {}) {
  const bed = facadeBed({ seed });
  const seen: Seen = new Map();
  const consumers = ids.map((id) => runConsumer(bed, id, 'shop', seen, config));
  stableGroup(bed, consumers);
  return { bed, seen, consumers };
}

/**
 * Two members settle and consume a round, then `fault` hits their coordinator and `ms` pass:
 * the events since the fault, and the coordinator before and after.
 */
function faultCoordinator(seed: number, fault: (bed: FacadeBed, broker: number) => void, ms: number) {
  const { bed, seen, consumers } = settledGroup(seed, ['c1', 'c2']);
  produceRound(bed, 1);
  bed.e.tick(3_000);
  const generation = bed.group('shop')?.generationId;
  const old = bed.coordinatorOf('shop') as number;
  const mark = bed.events.length;
  fault(bed, old);
  bed.e.tick(ms);
  const ev = eventsSince(bed.events, mark);
  return { bed, seen, consumers, generation, old, now: bed.coordinatorOf('shop') as number, ev };
}

/**
 * The group moved whole: unloaded on the old broker (unless it is cut off and has not heard the
 * LeaderAndIsr that says so), loaded on the new, both members on it, same generation, nothing lost.
 */
function expectGroupMovedWhole(r: ReturnType<typeof faultCoordinator>, oldHeard = true): void {
  const { bed, ev, old, now } = r;
  expect(now).not.toBe(old);
  expect(ev.some((x) => x.type === 'coordinatorUnloaded' && x.broker === old)).toBe(oldHeard);
  expect(ev.some((x) => x.type === 'coordinatorLoaded' && x.broker === now && x.groups.includes('shop'))).toBe(true);
  expect(r.consumers.map((c) => c.coordinator?.coordinator)).toEqual([now, now]);
  expect(bed.group('shop')?.generationId).toBe(r.generation);
  produceRound(bed, 2);
  bed.e.tick(5_000);
  expectNoLoss(bed, r.seen);
}

describe('Engine: consumer groups across broker failures', () => {
  it('killing the coordinator: it moves to the new leader of the offsets partition, reloads the group by replay, consumers go on without loss', () => {
    const { bed, seen, consumers } = settledGroup(11, ['c1', 'c2']);
    produceRound(bed, 1);
    bed.e.tick(5_000);
    const before = bed.group('shop');
    const oldCoordinator = bed.coordinatorOf('shop') as number;
    expect(before?.coordinator).toBe(oldCoordinator);
    const committedBefore = before?.describe.map((r) => [r.partition, r.currentOffset]);
    expect(committedBefore).toEqual([
      [0, 5],
      [1, 5],
      [2, 5],
      [3, 5],
    ]);
    const mark = bed.events.length;
    bed.e.killBroker(oldCoordinator);
    // Connections to the dead broker reset: the members hear it at once and look the coordinator up again.
    bed.e.tick(20_000);
    const newCoordinator = bed.coordinatorOf('shop') as number;
    expect(newCoordinator).not.toBe(oldCoordinator);
    expect(newCoordinator).not.toBeNull();
    const ev = eventsSince(bed.events, mark);
    const offsetsPartition = groupCoordinatorPartition('shop', 5);
    expect(
      ev.some((x) => x.type === 'groupRequestFailed' && x.toBroker === oldCoordinator && x.reason === 'disconnected'),
    ).toBe(true);
    // The new coordinator replayed the partition: the group and its offsets came back from the log.
    const loaded = ev.find(
      (x): x is Extract<EngineEvent, { type: 'coordinatorLoaded' }> =>
        x.type === 'coordinatorLoaded' && x.broker === newCoordinator && x.offsetsPartition === offsetsPartition,
    );
    expect(loaded?.groups).toContain('shop');
    expect(loaded?.recordsReplayed).toBeGreaterThan(0);
    expect(ev.some((x) => x.type === 'coordinatorLoading' && x.broker === newCoordinator)).toBe(true);
    // Both members found it (FindCoordinator answered by a live broker) and heartbeat it.
    expect(
      ev.some((x) => x.type === 'groupResponseSent' && x.api === 'FindCoordinator' && x.errorCode === 'NONE'),
    ).toBe(true);
    expect(consumers.map((c) => c.coordinator?.coordinator)).toEqual([newCoordinator, newCoordinator]);
    const g = bed.group('shop');
    expect(g?.coordinator).toBe(newCoordinator);
    expect(g?.state).toBe('Stable');
    // Members came back within the session timeout: no rebalance was needed (as in Kafka).
    expect(g?.generationId).toBe(before?.generationId);
    // Consumption goes on, and what was committed before is where it resumes from.
    produceRound(bed, 2);
    bed.e.tick(8_000);
    expectNoLoss(bed, seen);
    expect(bed.group('shop')?.describe.map((r) => [r.partition, r.currentOffset, r.lag])).toEqual([
      [0, 10, 0],
      [1, 10, 0],
      [2, 10, 0],
      [3, 10, 0],
    ]);
    expect(bed.e.cluster.partitionState(OFFSETS_TOPIC, offsetsPartition)?.leader).toBe(newCoordinator);
  });

  it('power-failing the coordinator: requests go unanswered, members time out, then rediscover it', () => {
    const { bed, seen, consumers } = settledGroup(5, ['c1'], { 'request.timeout.ms': 8_000 });
    produceRound(bed, 1);
    bed.e.tick(3_000);
    const generation = bed.group('shop')?.generationId;
    const old = bed.coordinatorOf('shop') as number;
    const mark = bed.events.length;
    bed.e.powerFailBroker(old);
    bed.e.tick(30_000);
    const ev = eventsSince(bed.events, mark);
    // No reset from a machine without power: only the client's own timeout tells it.
    expect(ev.some((x) => x.type === 'groupRequestFailed' && x.toBroker === old && x.reason === 'disconnected')).toBe(
      false,
    );
    expect(ev.some((x) => x.type === 'groupRequestFailed' && x.toBroker === old && x.reason === 'timedOut')).toBe(true);
    expect(
      ev.some(
        (x) => x.type === 'messageDropped' && x.kind === 'request' && x.to === `broker-${old}` && x.from === 'c1',
      ),
    ).toBe(true);
    const now = bed.coordinatorOf('shop');
    expect(now).not.toBe(old);
    expect(consumers[0]?.coordinator?.coordinator).toBe(now);
    produceRound(bed, 2);
    bed.e.tick(8_000);
    expectNoLoss(bed, seen);
    expect(bed.group('shop')?.state).toBe('Stable');
    expect(bed.group('shop')?.generationId).toBe(generation);
  });

  it('isolating a partition leader: the fetch to it times out, the consumer refreshes metadata and resumes from the new leader', () => {
    const { bed, seen } = settledGroup(3, ['c1'], { 'request.timeout.ms': 10_000 });
    produceRound(bed, 1);
    bed.e.tick(3_000);
    const coordinator = bed.coordinatorOf('shop');
    // A broker leading some orders partition that is not the coordinator.
    const target = [0, 1, 2, 3]
      .map((p) => bed.e.cluster.partitionState('orders', p)?.leader as number)
      .find((b) => b !== coordinator) as number;
    const led = [0, 1, 2, 3].filter((p) => bed.e.cluster.partitionState('orders', p)?.leader === target);
    expect(led.length).toBeGreaterThan(0);
    const generation = bed.group('shop')?.generationId;
    const mark = bed.events.length;
    bed.e.isolateBroker(target);
    bed.e.tick(1_000);
    produceRound(bed, 2);
    bed.e.tick(20_000);
    const ev = eventsSince(bed.events, mark);
    // The fetch in flight to the isolated leader was lost and timed out; none was reset.
    expect(
      ev.some(
        (x) => x.type === 'groupRequestFailed' && x.api === 'Fetch' && x.toBroker === target && x.reason === 'timedOut',
      ),
    ).toBe(true);
    for (const p of led) {
      const newLeader = bed.e.cluster.partitionState('orders', p)?.leader as number;
      expect(newLeader).not.toBe(target);
      // Fetches for the partition now go to its new leader.
      expect(fetchedFrom(ev, newLeader, `orders-${p}`)).toBe(true);
    }
    expectNoLoss(bed, seen);
    // The coordinator did not move: the group kept its generation.
    expect(bed.group('shop')?.generationId).toBe(generation);
  });

  // The stale fetch names the old leader epoch (KIP-320), and Kafka 3.9's Partition.getLocalLog checks the
  // epoch before leadership: FENCED_LEADER_EPOCH, not NOT_LEADER_OR_FOLLOWER.
  it('a leader moved by a preferred election: the stale fetch gets FENCED_LEADER_EPOCH, the next one goes to the new leader', () => {
    const { bed, seen } = settledGroup(9, ['c1']);
    produceRound(bed, 1);
    bed.e.tick(2_000);
    // Move orders-0's leadership away from its preferred replica and back, with the old one alive.
    const preferred = bed.e.cluster.assignment('orders')[0]?.[0] as number;
    bed.e.stopBroker(preferred);
    bed.e.tick(5_000);
    bed.e.restartBroker(preferred);
    bed.e.tick(15_000);
    const interim = bed.e.cluster.partitionState('orders', 0)?.leader as number;
    expect(interim).not.toBe(preferred);
    produceRound(bed, 2);
    bed.e.tick(2_000);
    const mark = bed.events.length;
    bed.e.electPreferredLeaders([{ topic: 'orders', partition: 0 }]);
    bed.e.tick(200);
    expect(bed.e.cluster.partitionState('orders', 0)?.leader).toBe(preferred);
    produceRound(bed, 3);
    bed.e.tick(5_000);
    const ev = eventsSince(bed.events, mark);
    expect(
      ev.some(
        (x) =>
          x.type === 'groupResponseSent' &&
          x.api === 'Fetch' &&
          x.fromBroker === interim &&
          x.errorCode === 'FENCED_LEADER_EPOCH',
      ),
    ).toBe(true);
    expect(fetchedFrom(ev, preferred, 'orders-0')).toBe(true);
    expectNoLoss(bed, seen);
  });

  it('a controlled shutdown of the coordinator: leadership moves, members rediscover the coordinator and keep their generation', () => {
    const r = faultCoordinator(31, (bed, broker) => bed.e.stopBroker(broker), 15_000);
    const { ev, old } = r;
    // The stopped process refuses connections (or, with a request parked at the moment the partition
    // moved, answered NOT_COORDINATOR first): either way the members look the coordinator up again.
    expect(
      ev.some(
        (x) =>
          (x.type === 'groupResponseSent' && x.fromBroker === old && x.errorCode === 'NOT_COORDINATOR') ||
          (x.type === 'groupRequestFailed' && x.toBroker === old && x.reason === 'disconnected'),
      ),
    ).toBe(true);
    // The partition was handed over cleanly: unloaded on the old broker, loaded on the new one.
    expectGroupMovedWhole(r);
  });

  it('isolating the coordinator: heartbeats to it time out, members rediscover the coordinator and keep their generation', () => {
    // request.timeout.ms (30 s) passes before the heartbeat is given up on.
    const r = faultCoordinator(17, (bed, broker) => bed.e.isolateBroker(broker), 45_000);
    const { bed, ev, old, generation } = r;
    expect(
      ev.some(
        (x) =>
          x.type === 'groupRequestFailed' && x.api === 'Heartbeat' && x.toBroker === old && x.reason === 'timedOut',
      ),
    ).toBe(true);
    // The new leader loaded the group. The isolated broker, a ZooKeeper-mode zombie leader, still
    // holds its coordinator state: only a LeaderAndIsr moves it out (GroupCoordinator.onResignation).
    expectGroupMovedWhole(r, false);
    // Healed, it re-registers; the controller's LeaderAndIsr makes it a follower and it unloads
    // the group. That changes nothing for the group.
    const mark = bed.events.length;
    bed.e.healBroker(old);
    bed.e.tick(20_000);
    expect(
      eventsSince(bed.events, mark).some(
        (x) => x.type === 'coordinatorUnloaded' && x.broker === old && x.groups.includes('shop'),
      ),
    ).toBe(true);
    expect(bed.group('shop')?.generationId).toBe(generation);
  });

  it('a subscribed topic gaining partitions: the leader notices and the group rebalances onto them', () => {
    const { bed, consumers } = settledGroup(23, ['c1', 'c2']);
    const generation = bed.group('shop')?.generationId as number;
    bed.e.createPartitions('orders', 6);
    bed.e.tick(10_000);
    expect(bed.group('shop')?.generationId).toBe(generation + 1);
    const owned = consumers.flatMap((c) => c.assignment().map((tp) => tp.partition)).sort();
    expect(owned).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('an unrelated broker dying leaves the generation of a group whose coordinator stays put unchanged', () => {
    const { bed, seen, consumers } = settledGroup(21, ['c1', 'c2']);
    const coordinator = bed.coordinatorOf('shop') as number;
    const victim = [1, 2, 3].find((b) => b !== coordinator) as number;
    const generation = bed.group('shop')?.generationId;
    produceRound(bed, 1);
    bed.e.killBroker(victim);
    bed.e.tick(20_000);
    produceRound(bed, 2);
    bed.e.tick(5_000);
    expect(bed.coordinatorOf('shop')).toBe(coordinator);
    expect(bed.group('shop')?.state).toBe('Stable');
    expect(bed.group('shop')?.generationId).toBe(generation);
    expect(consumers.map((c) => c.coordinator?.generationId)).toEqual([generation, generation]);
    expectNoLoss(bed, seen);
  });
});
