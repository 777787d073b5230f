import { describe, expect, it } from 'vitest';
import type { BoardMessageEffect, BoardMessageView, BoardPartitionView } from '../../engine/apps/types';
import { ordersPartition } from './partitionView.testing';
import { advance, type Landings, land, NO_TOKEN_MS, newTimeline, statesBetween } from './partitionTimeline';

/** orders-0 on brokers 1 (leader), 2 and 3, all in sync; LEO and HW per broker. */
function partition(
  offsets: Record<number, [leo: number, hw: number]>,
  over: Partial<BoardPartitionView> = {},
): BoardPartitionView {
  return ordersPartition(
    [1, 2, 3].map((b) => ({
      broker: b,
      role: b === (over.leader ?? 1) ? 'leader' : 'follower',
      inIsr: true,
      logEndOffset: offsets[b]?.[0] ?? 0,
      highWatermark: offsets[b]?.[1] ?? 0,
      lagMs: null,
      deletionState: null,
    })),
    over,
  );
}

let nextId = 1;
function message(
  api: string,
  kind: 'request' | 'response',
  arriveAtMs: number,
  effects: Omit<BoardMessageEffect, 'topic' | 'partition'>[],
): BoardMessageView {
  return {
    id: nextId++,
    api,
    kind,
    from: null,
    to: null,
    client: null,
    sentAtMs: arriveAtMs - 1,
    arriveAtMs,
    effects: effects.map((e) => ({ topic: 'orders', partition: 0, ...e })),
  };
}

/** Tokens landing at the wall ms given per message id. */
function landingsAt(at: Record<number, number>, leaderAndIsr: number | null = null): Landings {
  return { landsAt: (id) => at[id] ?? null, leaderAndIsrLands: () => leaderAndIsr };
}

/** Kafka's invariant on what is drawn: follower HW <= leader HW <= smallest ISR LEO <= leader LEO. */
function consistent(p: BoardPartitionView): boolean {
  const leader = p.replicaStates.find((r) => r.role === 'leader');
  if (!leader) return true;
  return p.replicaStates.every(
    (r) =>
      r.highWatermark <= r.logEndOffset &&
      r.logEndOffset <= leader.logEndOffset &&
      (!r.inIsr || leader.highWatermark <= r.logEndOffset),
  );
}

// One record produced with acks=all to a partition with two followers, as ReplicaManager moves it:
// the Produce appends on the leader (LEO 0 -> 1); each follower's Fetch response appends the
// record there (LEO 0 -> 1); the leader's HW moves once the followers' next Fetch requests say
// they have it (Partition.maybeIncrementLeaderHW: the smallest LEO of the ISR).
const produce = () => message('Produce', 'request', 10, [{ broker: 1, field: 'leo', from: 0, to: 1 }]);
const fetched = (b: number, at: number) =>
  message('Fetch', 'response', at, [{ broker: b, field: 'leo', from: 0, to: 1 }]);
const nextFetch = (from: number, at: number) =>
  message('Fetch', 'request', at, [{ broker: 1, field: 'hw', from, to: from + 1 }]);

describe('statesBetween: the states a partition went through between two views', () => {
  it('replays Produce, the Fetch responses, then the HW, each a state Kafka allows', () => {
    const base = partition({});
    const next = partition({ 1: [1, 1], 2: [1, 0], 3: [1, 0] });
    const ms = [nextFetch(0, 40), produce(), fetched(2, 20), fetched(3, 25)];
    const states = statesBetween(base, next, ms);
    expect(states?.map((s) => s.state.replicaStates.map((r) => `${r.logEndOffset}/${r.highWatermark}`))).toEqual([
      ['1/0', '0/0', '0/0'],
      ['1/0', '1/0', '0/0'],
      ['1/0', '1/0', '1/0'],
      ['1/1', '1/0', '1/0'],
    ]);
    expect(states?.every((s) => consistent(s.state))).toBe(true);
    // The last replayed state is the view's own object.
    expect(states?.[3]?.state).toBe(next);
  });

  it('gives up (null) when the changes do not reach the view: a message dropped from the list', () => {
    const base = partition({});
    const next = partition({ 1: [1, 1], 2: [1, 0], 3: [1, 0] });
    expect(statesBetween(base, next, [produce(), fetched(2, 20), nextFetch(0, 40)])).toBeNull();
  });

  it('gives up when a change does not start from the replayed value, or the leader moved', () => {
    const base = partition({ 1: [5, 5], 2: [5, 5], 3: [5, 5] });
    expect(statesBetween(base, partition({ 1: [6, 5], 2: [5, 5], 3: [5, 5] }), [produce()])).toBeNull();
    expect(
      statesBetween(base, partition({ 1: [5, 5], 2: [5, 5], 3: [5, 5] }, { leader: 2, leaderEpoch: 1 }), []),
    ).toBeNull();
  });
});

describe('a timeline draws whole states, each when its token lands', () => {
  it('never draws a HW above a LEO, whatever the tokens', () => {
    const t = newTimeline(partition({}));
    const ms = [produce(), fetched(2, 20), fetched(3, 25), nextFetch(0, 40)];
    advance(t, partition({ 1: [1, 1], 2: [1, 0], 3: [1, 0] }), ms, 1000, 0);
    const at = Object.fromEntries(ms.map((m, i) => [m.id, 1600 + 150 * i]));
    const l = landingsAt(at);
    const seen: string[] = [];
    for (let now = 1000; now <= 2400; now += 50) {
      land(t, now, l);
      expect(consistent(t.shown)).toBe(true);
      const leader = t.shown.replicaStates[0];
      seen.push(`${leader?.logEndOffset}/${leader?.highWatermark}`);
    }
    // Before the Produce token lands, the leader draws LEO 0; the HW moves last.
    expect(seen[0]).toBe('0/0');
    expect(seen.indexOf('1/0')).toBeGreaterThan(0);
    expect(seen.indexOf('1/1')).toBeGreaterThan(seen.indexOf('1/0'));
    expect(seen[seen.length - 1]).toBe('1/1');
  });

  it('a token that lands early waits for the states before it (engine order)', () => {
    const t = newTimeline(partition({}));
    const p = produce();
    const f = fetched(2, 20);
    advance(t, partition({ 1: [1, 0], 2: [1, 0] }), [p, f], 0, 0);
    // The Fetch response's token would land before the Produce's: its state waits.
    const l = landingsAt({ [p.id]: 500, [f.id]: 200 });
    land(t, 300, l);
    expect(t.shown.replicaStates.map((r) => r.logEndOffset)).toEqual([0, 0, 0]);
    land(t, 500, l);
    expect(t.shown.replicaStates.map((r) => r.logEndOffset)).toEqual([1, 1, 0]);
  });

  it('a step it cannot replay is drawn whole, after the steps queued before it', () => {
    const t = newTimeline(partition({}));
    const p = produce();
    advance(t, partition({ 1: [1, 0] }), [p], 0, 0);
    // A truncation, say: no message names it.
    advance(t, partition({ 1: [0, 0] }), [], 100, 10);
    const l = landingsAt({ [p.id]: 600 });
    land(t, 500, l);
    expect(t.shown.replicaStates[0]?.logEndOffset).toBe(0);
    land(t, 600, l);
    expect(t.steps).toHaveLength(0);
    expect(t.shown.replicaStates[0]?.logEndOffset).toBe(0);
  });

  it('a new leader is drawn when the LeaderAndIsr token to its broker lands, or NO_TOKEN_MS after', () => {
    const t = newTimeline(partition({ 1: [3, 3], 2: [3, 3], 3: [3, 3] }));
    const elected = partition({ 1: [3, 3], 2: [3, 3], 3: [3, 3] }, { leader: 2, leaderEpoch: 1, isr: [2, 3] });
    advance(t, elected, [], 1000, 50);
    land(t, 1500, landingsAt({}, 1700));
    expect(t.shown.leader).toBe(1);
    land(t, 1700, landingsAt({}, 1700));
    expect(t.shown.leader).toBe(2);
    const u = newTimeline(partition({}));
    advance(u, partition({}, { leader: 3, leaderEpoch: 1 }), [], 1000, 50);
    land(u, 1000 + NO_TOKEN_MS - 1, landingsAt({}, null));
    expect(u.shown.leader).toBe(1);
    land(u, 1000 + NO_TOKEN_MS, landingsAt({}, null));
    expect(u.shown.leader).toBe(3);
  });

  it('a replica going offline (its broker killed) is drawn at once, dropping the states queued before it', () => {
    const t = newTimeline(partition({}));
    advance(t, partition({ 1: [1, 0] }), [produce()], 0, 0);
    const killed = partition({ 1: [1, 0] });
    killed.replicaStates = killed.replicaStates.map((r) => (r.broker === 1 ? { ...r, role: 'offline' } : r));
    advance(t, killed, [], 10, 5);
    expect(t.shown).toBe(killed);
    expect(t.steps).toHaveLength(0);
  });
});
