import { describe, expect, it } from 'vitest';
import type { EngineEvent } from '../engine';
import { facadeBed } from './facadeTesting';
import type {
  JoinGroupRequest,
  JoinGroupResponse,
  SyncGroupRequest,
  SyncGroupResponse,
} from '../clients/consumer/groupProtocol';

/**
 * What the UI animates comes only from events: every group request and response with both ends
 * and its send and arrival times, every state transition, every generation with its full
 * assignment. These tests read a whole rebalance back from the event stream alone.
 */

type Ev<T extends EngineEvent['type']> = Extract<EngineEvent, { type: T }>;
const of = <T extends EngineEvent['type']>(events: EngineEvent[], type: T) =>
  events.filter((e): e is Ev<T> => e.type === type);

function rebalanceRun(seed: number) {
  const bed = facadeBed({ seed });
  bed.e.apply({ op: 'createConsumer', consumerId: 'c1', groupId: 'shop', topics: ['orders'] });
  bed.e.apply({ op: 'createConsumer', consumerId: 'c2', groupId: 'shop', topics: ['orders'] });
  bed.e.tick(12_000);
  bed.e.apply({ op: 'createConsumer', consumerId: 'c3', groupId: 'shop', topics: ['orders'] });
  bed.e.tick(12_000);
  bed.e.apply({ op: 'closeConsumer', consumerId: 'c1' });
  bed.e.tick(12_000);
  return bed;
}

/** One run, read by several tests (the engine is deterministic, so it is the same run each time). */
let sharedRun: ReturnType<typeof rebalanceRun> | null = null;
const shared = () => {
  sharedRun ??= rebalanceRun(4);
  return sharedRun;
};

describe('Engine: consumer-group events are enough to animate a rebalance', () => {
  it('every response names its request; requests and responses carry both ends and their times', () => {
    const { events } = shared();
    const requests = new Map(of(events, 'groupRequestSent').map((r) => [r.id, r]));
    const responses = of(events, 'groupResponseSent');
    for (const api of [
      'FindCoordinator',
      'JoinGroup',
      'SyncGroup',
      'Heartbeat',
      'LeaveGroup',
      'OffsetFetch',
    ] as const) {
      expect(
        [...requests.values()].some((r) => r.api === api),
        `${api} request`,
      ).toBe(true);
      expect(
        responses.some((r) => r.api === api),
        `${api} response`,
      ).toBe(true);
    }
    for (const r of requests.values()) {
      expect(r.arriveAtMs).toBeGreaterThanOrEqual(r.sentAtMs);
      expect(r.timeoutAtMs).toBeGreaterThan(r.sentAtMs);
    }
    for (const resp of responses) {
      const req = requests.get(resp.requestId);
      expect(req?.api).toBe(resp.api);
      // The answer goes back the way the request came, after it arrived.
      expect(req?.from).toBe(resp.to);
      expect(req?.toBroker).toBe(resp.fromBroker);
      expect(resp.sentAtMs).toBeGreaterThanOrEqual(req?.arriveAtMs ?? Infinity);
      expect(resp.arriveAtMs).toBeGreaterThanOrEqual(resp.sentAtMs);
    }
  });

  it('the JoinGroup / SyncGroup exchange of each generation can be read back, leader first', () => {
    const { events } = shared();
    const generations = of(events, 'groupGenerationCompleted').filter((g) => g.groupId === 'shop');
    expect(generations.map((g) => g.generationId)).toEqual([1, 2, 3]);
    const responses = of(events, 'groupResponseSent');
    const requests = of(events, 'groupRequestSent');
    for (const g of generations) {
      // Every member of the generation is in its assignment, with its client id.
      expect(Object.keys(g.assignment).sort()).toEqual(Object.keys(g.clientIds).sort());
      const owned = Object.values(g.assignment)
        .flat()
        .map((tp) => tp.partition)
        .sort();
      expect(owned).toEqual([0, 1, 2, 3]);
      // The leader's JoinGroup response lists every member with its subscription...
      const joins = responses.filter(
        (r) => r.api === 'JoinGroup' && (r.body as JoinGroupResponse).generationId === g.generationId,
      );
      const leaderJoin = joins.find((r) => (r.body as JoinGroupResponse).memberId === g.leader);
      expect((leaderJoin?.body as JoinGroupResponse | undefined)?.members.map((m) => m.memberId).sort()).toEqual(
        Object.keys(g.assignment).sort(),
      );
      expect(leaderJoin?.to).toBe(g.clientIds[g.leader as string]);
      // ... followers get none, and the leader's SyncGroup carries the assignment.
      for (const j of joins) if (j !== leaderJoin) expect((j.body as JoinGroupResponse).members).toEqual([]);
      const leaderSync = requests.find(
        (r) =>
          r.api === 'SyncGroup' &&
          (r.body as SyncGroupRequest).generationId === g.generationId &&
          (r.body as SyncGroupRequest).memberId === g.leader,
      );
      expect((leaderSync?.body as SyncGroupRequest | undefined)?.assignments.length).toBe(
        Object.keys(g.assignment).length,
      );
      // Each member's SyncGroup response hands it its partitions.
      const syncs = responses.filter((r) => r.api === 'SyncGroup' && r.errorCode === 'NONE' && r.sentAtMs === g.atMs);
      expect(syncs.map((s) => s.to).sort()).toEqual(Object.values(g.clientIds).sort());
      for (const s of syncs) expect((s.body as SyncGroupResponse).assignment.length).toBeGreaterThan(0);
      // JoinGroup requests of the generation came from exactly its members.
      const joinReqs = requests.filter((r) => r.api === 'JoinGroup' && r.sentAtMs <= g.atMs);
      for (const client of Object.values(g.clientIds)) expect(joinReqs.some((r) => r.from === client)).toBe(true);
      expect((joinReqs[0]?.body as JoinGroupRequest | undefined)?.protocols.length).toBeGreaterThan(0);
    }
  });

  it('every state transition of the group, in order, with its generation', () => {
    const { events } = shared();
    const states = of(events, 'groupStateChanged').filter((s) => s.groupId === 'shop');
    // Each transition starts where the previous one ended.
    for (let i = 1; i < states.length; i++) expect(states[i]?.from).toBe(states[i - 1]?.to);
    const path = states.map((s) => `${s.to}@${s.generationId}`);
    expect(path).toEqual([
      'Empty@0',
      'PreparingRebalance@0',
      'CompletingRebalance@1',
      'Stable@1',
      'PreparingRebalance@1',
      'CompletingRebalance@2',
      'Stable@2',
      'PreparingRebalance@2',
      'CompletingRebalance@3',
      'Stable@3',
    ]);
    // Client side: each consumer's member state changes are events too.
    const c3 = of(events, 'consumerStateChanged').filter((e) => e.consumerId === 'c3');
    expect(c3.map((e) => e.state)).toContain('STABLE');
  });

  it('is deterministic: the same seed and commands give the same events', () => {
    const a = shared().events;
    const b = rebalanceRun(4).events;
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
  });
});
