import { describe, expect, it } from 'vitest';
import type { PlaneMessageEffect, PlaneMessageView } from '../../engine/apps/types';
import { REPLAY_MS } from '../time/pacing';
import { heldChanges, heldValues, nextLanding, replicaKey, shownValue } from './replicationHold';
import { drawnLate, MAX_LAG_MS, newSchedule, ORDER_GAP_MS, STAGGER_MS, schedule } from './tokenSchedule';

/** orders-0 led by broker 1, followers 2 and 3: one record's replication, as the engine sends it. */
function msg(
  id: number,
  api: string,
  kind: 'request' | 'response',
  from: number | null,
  to: number,
  sentAtMs: number,
  effects?: Omit<PlaneMessageEffect, 'topic' | 'partition'>[],
): PlaneMessageView {
  return {
    id,
    api,
    kind,
    from,
    to,
    client: from === null ? 'app-producer' : null,
    sentAtMs,
    arriveAtMs: sentAtMs + 1,
    ...(effects ? { effects: effects.map((e) => ({ topic: 'orders', partition: 0, ...e })) } : {}),
  };
}

const produce = msg(1, 'Produce', 'request', null, 1, 100, [{ broker: 1, field: 'leo', from: 4, to: 5 }]);
const toF2 = msg(2, 'Fetch', 'response', 1, 2, 101, [{ broker: 2, field: 'leo', from: 4, to: 5 }]);
const toF3 = msg(3, 'Fetch', 'response', 1, 3, 101, [{ broker: 3, field: 'leo', from: 4, to: 5 }]);
const fromF2 = msg(4, 'Fetch', 'request', 2, 1, 102);
const fromF3 = msg(5, 'Fetch', 'request', 3, 1, 102, [{ broker: 1, field: 'hw', from: 4, to: 5 }]);
const idle = msg(6, 'Heartbeat', 'request', null, 2, 100);
const chain = [produce, toF2, toF3, fromF2, fromF3];
const all = () => true;
const L = (tp: string, b: number) => replicaKey(tp, 0, b);

describe('the token schedule', () => {
  it('staggers messages first seen together, in engine order', () => {
    const s = newSchedule();
    schedule(s, [idle, produce], 1000);
    expect(s.slots.get(idle.id)).toMatchObject({ startsAt: 1000, landsAt: 1000 + REPLAY_MS, inStep: true });
    expect(s.slots.get(produce.id)?.startsAt).toBe(1000 + STAGGER_MS);
  });

  it('keeps messages that changed replicas in engine order across views, and a slot never moves', () => {
    const s = newSchedule();
    schedule(s, [produce, toF2, toF3], 1000);
    const f3 = s.slots.get(toF3.id)?.startsAt ?? 0;
    // The follower's Fetch that moved the HW is first seen 100 ms later: it still starts after toF3.
    schedule(s, [produce, toF2, toF3, fromF2, fromF3], 1100);
    expect(s.slots.get(fromF3.id)?.startsAt).toBe(f3 + ORDER_GAP_MS);
    // An idle Fetch (no effects) is only staggered within its view.
    expect(s.slots.get(fromF2.id)?.startsAt).toBe(1100);
    expect(s.slots.get(toF3.id)?.startsAt).toBe(f3);
  });

  it('does not hold a token that would start more than MAX_LAG_MS late', () => {
    const s = newSchedule();
    const many = Array.from({ length: 40 }, (_, i) =>
      msg(100 + i, 'Produce', 'request', null, 1, 100, [{ broker: 1, field: 'leo', from: i, to: i + 1 }]),
    );
    schedule(s, many, 0);
    const late = many.filter((m) => !s.slots.get(m.id)?.inStep);
    expect(late.length).toBeGreaterThan(0);
    for (const m of many)
      if (s.slots.get(m.id)?.inStep) expect(s.slots.get(m.id)?.startsAt).toBeLessThanOrEqual(MAX_LAG_MS);
  });

  it('gives a message still on the wire its slot only once it has arrived (its effects known)', () => {
    const s = newSchedule();
    schedule(s, [produce], 1000, 100);
    expect(s.slots.has(produce.id)).toBe(false);
    schedule(s, [produce], 1100, 101);
    expect(s.slots.get(produce.id)?.startsAt).toBe(1100);
  });

  it('moves a slot drawn late (a long render) by the lag, once: it lands when its token visibly does', () => {
    const s = newSchedule();
    schedule(s, [produce], 1000, 200);
    const slot = s.slots.get(produce.id);
    expect(drawnLate([slot], 70)).toBe(true);
    expect(slot).toMatchObject({ startsAt: 1070, landsAt: 1070 + REPLAY_MS, drawn: true });
    expect(drawnLate([slot], 70)).toBe(false);
    expect(slot?.landsAt).toBe(1070 + REPLAY_MS);
  });

  it('forgets the slots of messages gone from the view once their tokens have landed', () => {
    const s = newSchedule();
    schedule(s, chain, 0);
    schedule(s, [], 100);
    expect(s.slots.size).toBe(chain.length);
    schedule(s, [], 10_000);
    expect(s.slots.size).toBe(0);
  });
});

describe('the replication hold', () => {
  const s = newSchedule();
  const seen = 10_000;
  schedule(s, chain, seen);
  const lands = (m: PlaneMessageView) => s.slots.get(m.id)?.landsAt ?? 0;
  const at = (now: number) => heldValues(heldChanges(chain, s, now, all), now);

  it('shows the leader’s LEO move when the Produce lands, the followers’ when their Fetch responses land, the HW last', () => {
    expect(at(seen)).toEqual({
      [L('orders', 1)]: { leo: 4, hw: 4 },
      [L('orders', 2)]: { leo: 4 },
      [L('orders', 3)]: { leo: 4 },
    });
    expect(at(lands(produce))).toEqual({
      [L('orders', 1)]: { hw: 4 },
      [L('orders', 2)]: { leo: 4 },
      [L('orders', 3)]: { leo: 4 },
    });
    expect(at(lands(toF2))).toEqual({ [L('orders', 1)]: { hw: 4 }, [L('orders', 3)]: { leo: 4 } });
    expect(at(lands(toF3))).toEqual({ [L('orders', 1)]: { hw: 4 } });
    // The HW moves only when the Fetch that moved it has landed on the leader.
    expect(at(lands(fromF3) - 1)).toEqual({ [L('orders', 1)]: { hw: 4 } });
    expect(at(lands(fromF3))).toEqual({});
    expect(lands(produce)).toBeLessThan(lands(toF2));
    expect(lands(toF3)).toBeLessThan(lands(fromF3));
  });

  it('wakes at each landing, and never lets a change overtake an earlier one of its partition', () => {
    const changes = heldChanges(chain, s, seen, all);
    expect(nextLanding(changes, seen)).toBe(lands(produce));
    expect(nextLanding(changes, lands(fromF3))).toBeNull();
    // A Fetch slotted to land before the Produce it follows (the Produce was given its slot later)
    // waits for it: views list messages in engine order.
    const early = newSchedule();
    schedule(early, [fromF3], seen);
    schedule(early, [produce, fromF3], seen + 50);
    expect(early.slots.get(fromF3.id)?.landsAt).toBeLessThan(early.slots.get(produce.id)?.landsAt ?? 0);
    const c = heldChanges([produce, fromF3], early, seen + 50, all);
    const hw = c.find((x) => x.field === 'hw');
    const leo = c.find((x) => x.field === 'leo');
    expect(hw?.landsAt).toBeGreaterThanOrEqual(leo?.landsAt ?? Number.POSITIVE_INFINITY);
  });

  it('holds nothing for a topic no layer draws, or a token too late to play', () => {
    expect(heldChanges(chain, s, seen, () => false)).toEqual([]);
    const late = newSchedule();
    schedule(late, chain, seen);
    for (const slot of late.slots.values()) slot.inStep = false;
    expect(heldChanges(chain, late, seen, all)).toEqual([]);
  });

  it('never shows more than the engine has (a truncation shows at once)', () => {
    expect(shownValue(5, 4)).toBe(4);
    expect(shownValue(3, 4)).toBe(3);
    expect(shownValue(5, undefined)).toBe(5);
  });
});
