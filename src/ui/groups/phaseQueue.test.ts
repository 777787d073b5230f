import { describe, expect, it } from 'vitest';
import {
  advance,
  busy,
  drawnPartitions,
  dueAt,
  hiddenFrom,
  offer,
  PHASE_MIN_MS,
  type PhaseQueue,
  restingQueue,
  shownGeneration,
  shownGroupState,
  WAITING_MS,
} from './phaseQueue';
import type { EngineEvent } from '../../engine/apps/types';
import { leaveRebalance, request, state } from './rebalanceEvents.testdata';
import { phaseMarks } from './rebalancePhases';
import { toEngineMs } from '../../worker/client';

/** Runs the queue's clock from `from` to `to` in 10 ms frames, noting each phase shown and when it started. */
function play(q0: PhaseQueue, from: number, to: number, minMs: number) {
  let q = q0;
  const seen: { phase: string; at: number }[] = [];
  for (let t = from; t <= to; t += 10) {
    const next = advance(q, t, minMs);
    if (next.shown !== q.shown) seen.push({ phase: next.shown.phase, at: t });
    q = next;
  }
  return { q, seen };
}

describe('the phase queue', () => {
  it('plays a rebalance the engine made in one frame in order, each phase on screen at least PHASE_MIN_MS', () => {
    const q = offer(restingQueue(), phaseMarks(leaveRebalance), 1000);
    // Repeated marks of a phase (several leaves, several assigns) are one phase.
    expect(q.pending.map((p) => p.phase)).toEqual(['leave', 'join', 'compute', 'sync', 'assign']);
    const { q: end, seen } = play(q, 1000, 6000, PHASE_MIN_MS);
    expect(seen.map((s) => s.phase)).toEqual(['leave', 'join', 'compute', 'sync', 'assign', 'stable']);
    for (let i = 1; i < seen.length; i++)
      expect((seen[i]?.at ?? 0) - (seen[i - 1]?.at ?? 0)).toBeGreaterThanOrEqual(PHASE_MIN_MS);
    expect(busy(end, 6000)).toBe(false);
    expect(dueAt(end, PHASE_MIN_MS)).toBeNull();
  });

  it('scales the hold with the speed: at 4x a phase is held a quarter as long', () => {
    const q = offer(restingQueue(), phaseMarks(leaveRebalance), 0);
    const { seen } = play(q, 0, 3000, PHASE_MIN_MS / 4);
    expect(seen.map((s) => s.at)).toEqual([0, 150, 300, 450, 600, 750]);
  });

  it('carries the generation from compute to sync, and keeps it off the timeline until assign is shown', () => {
    let q = offer(restingQueue(), phaseMarks(leaveRebalance), 0);
    expect(hiddenFrom(q)).toBe(2);
    expect(q.pending.find((p) => p.phase === 'sync')?.generation).toBe(2);
    const hidden: (number | null)[] = [];
    for (let t = 0; t <= 3600; t += 600) {
      q = advance(q, t, PHASE_MIN_MS);
      hidden.push(hiddenFrom(q));
    }
    // leave, join, compute, sync: generation 2 hidden; assign: drawn.
    expect(hidden.slice(0, 5)).toEqual([2, 2, 2, 2, null]);
  });

  it('a mark that does not move the rebalance on is dropped; leave or join after compute starts the next rebalance', () => {
    let q = offer(restingQueue(), phaseMarks(leaveRebalance), 0);
    const n = q.pending.length;
    q = offer(q, [{ groupId: 'billing', phase: 'sync', atMs: 950, generation: 2, why: 'late follower SyncGroup' }], 10);
    expect(q.pending.length).toBe(n);
    q = offer(q, [{ groupId: 'billing', phase: 'join', atMs: 990, generation: null, why: 'c1 joins again' }], 20);
    expect(q.pending.map((p) => p.phase)).toEqual(['leave', 'join', 'compute', 'sync', 'assign', 'join']);
    expect(q.pending.at(-1)?.generation).toBeNull();
  });

  it('shows a phase that arrives after a long quiet at once, and waits while nothing is due', () => {
    let q = restingQueue();
    expect(busy(q, 0)).toBe(false);
    q = offer(q, [{ groupId: 'g', phase: 'join', atMs: 5, generation: null, why: '' }], 50_000);
    expect(dueAt(q, PHASE_MIN_MS)).toBe(-Infinity);
    q = advance(q, 50_000, PHASE_MIN_MS);
    expect(q.shown.phase).toBe('join');
    expect(busy(q, 50_000)).toBe(true);
    // join with nothing queued stays (the engine has not answered yet); after WAITING_MS it no longer slows the clock.
    expect(advance(q, 90_000, PHASE_MIN_MS)).toBe(q);
    expect(dueAt(q, PHASE_MIN_MS)).toBeNull();
    expect(busy(q, 50_000 + WAITING_MS - 1)).toBe(true);
    expect(busy(q, 50_000 + WAITING_MS)).toBe(false);
  });
});

describe('the state and generation the card draws', () => {
  it('follow the phase shown, and are the engine’s once the rebalance has played', () => {
    let q = offer(restingQueue(), phaseMarks(leaveRebalance), 0);
    // The engine is already Stable in generation 2; the card still shows the rebalance's start.
    expect(shownGroupState(q, 'Stable')).toBe('Stable');
    expect(shownGeneration(q, 2)).toBe(1);
    const drawn: string[] = [];
    for (let t = 0; t <= 3600; t += 600) {
      q = advance(q, t, PHASE_MIN_MS);
      drawn.push(`${q.shown.phase}:${shownGroupState(q, 'Stable')}:${shownGeneration(q, 2)}`);
    }
    expect(drawn).toEqual([
      'leave:PreparingRebalance:1',
      'join:PreparingRebalance:1',
      'compute:CompletingRebalance:1',
      'sync:CompletingRebalance:1',
      'assign:Stable:2',
      'stable:Stable:2',
      'stable:Stable:2',
    ]);
    expect(shownGroupState(q, 'Empty')).toBe('Empty');
  });
});

describe('the chips own what the phase drawn says (drawnPartitions)', () => {
  it('eager: c2 owns nothing from the revoke (leave) until the assignment is drawn, whatever the engine is at', () => {
    // The engine already ran the whole rebalance: c2 owns orders-3 again.
    let q = offer(restingQueue(), phaseMarks(leaveRebalance), 0);
    expect(drawnPartitions(q, 'c2', ['orders-3'])).toEqual(['orders-3']); // nothing drawn yet: before the revoke
    const seen: string[] = [];
    for (let t = 0; t <= 4000; t += 10) {
      const next = advance(q, t, PHASE_MIN_MS);
      if (next.shown !== q.shown) seen.push(`${next.shown.phase}:${drawnPartitions(next, 'c2', ['orders-3']).join()}`);
      q = next;
    }
    expect(seen).toEqual(['leave:', 'join:', 'compute:', 'sync:', 'assign:orders-3', 'stable:orders-3']);
  });

  it('cooperative-sticky: only the revoked partition leaves, when its revoke is drawn', () => {
    const callback = (callback: string, partitions: number[], ms: number) =>
      ({
        type: 'consumerRebalanceCallback',
        consumerId: 'c1',
        groupId: 'billing',
        callback,
        partitions: partitions.map((partition) => ({ topic: 'orders', partition })),
        generationId: 2,
        atMs: toEngineMs(ms),
      }) as EngineEvent;
    // c1 keeps orders-0 and gives up orders-1 after the first SyncGroup (CooperativeStickyAssignor).
    const events: EngineEvent[] = [
      state('Stable', 'PreparingRebalance', 1, 100),
      request('JoinGroup', 'c1', 101),
      state('PreparingRebalance', 'CompletingRebalance', 2, 102),
      request('SyncGroup', 'c1', 103),
      state('CompletingRebalance', 'Stable', 2, 104),
      callback('onPartitionsRevoked', [1], 105),
      callback('onPartitionsAssigned', [], 105),
    ];
    let q = offer(restingQueue(), phaseMarks(events), 0);
    const seen: string[] = [];
    for (let t = 0; t <= 6000; t += 10) {
      const next = advance(q, t, PHASE_MIN_MS);
      if (next.shown !== q.shown) seen.push(`${next.shown.phase}:${drawnPartitions(next, 'c1', ['orders-0']).join()}`);
      q = next;
    }
    expect(seen).toEqual([
      'leave:orders-0,orders-1',
      'join:orders-0,orders-1',
      'compute:orders-0,orders-1',
      'sync:orders-0,orders-1',
      'assign:orders-0,orders-1',
      'leave:orders-0',
      'assign:orders-0',
      'stable:orders-0',
    ]);
  });
});
