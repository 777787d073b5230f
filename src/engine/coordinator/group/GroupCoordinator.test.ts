import { describe, expect, it } from 'vitest';
import { GroupTestBed } from '../../consumerApps/GroupTestBed';
import type { KafkaConsumer } from '../../clients/consumer/KafkaConsumer';

const FAST = { 'group.initial.rebalance.delay.ms': 0 };

function assignmentOf(c: KafkaConsumer): string[] {
  return c.assignment().map((tp) => `${tp.topic}-${tp.partition}`);
}

function stable(bed: GroupTestBed, groupId: string, members: number): boolean {
  const g = bed.groups.groupSnapshot(groupId);
  return g !== null && g.state === 'Stable' && g.members.length === members;
}

describe('the classic group protocol', () => {
  it('forms generation 1 with range: MEMBER_ID_REQUIRED, JoinGroup, SyncGroup, then heartbeats', () => {
    const bed = new GroupTestBed();
    bed.port.createTopic('orders', 6, 3);
    const cs = ['c1', 'c2', 'c3'].map((id) =>
      bed.consumer(id, { 'group.id': 'g', 'partition.assignment.strategy': ['range'] }),
    );
    for (const c of cs) {
      c.subscribe(['orders']);
      bed.pollEvery(c, 100);
    }
    expect(bed.runUntil(() => stable(bed, 'g', 3), 10_000)).toBe(true);
    const g = bed.groups.groupSnapshot('g');
    // Three members joining together within group.initial.rebalance.delay.ms (3 s): one generation.
    expect(g?.generationId).toBe(1);
    expect(g?.protocolName).toBe('range');
    const joins = bed.ofType('groupResponseSent').filter((e) => e.api === 'JoinGroup');
    expect(joins.filter((e) => e.errorCode === 'MEMBER_ID_REQUIRED').length).toBe(3);
    expect(joins.filter((e) => e.errorCode === 'NONE').length).toBe(3);
    // Range over 6 partitions and 3 members: two consecutive partitions each, in member id order.
    const all = cs.flatMap(assignmentOf).sort();
    expect(all).toEqual(['orders-0', 'orders-1', 'orders-2', 'orders-3', 'orders-4', 'orders-5']);
    for (const c of cs) expect(c.assignment().length).toBe(2);
    // The leader ran range between JoinGroup and SyncGroup, and explained every decision.
    const computed = bed.ofType('groupAssignmentComputed');
    expect(computed).toHaveLength(1);
    expect(computed[0]?.strategy).toBe('range');
    const leader = cs.find((c) => c.coordinator?.leaderId === c.coordinator?.memberId);
    expect(computed[0]?.consumerId).toBe(leader?.clientId);
    expect(computed[0]?.steps?.filter((st) => st.action === 'assign').length).toBe(6);
    const gen = bed.ofType('groupGenerationCompleted').at(-1);
    expect(gen?.generationId).toBe(1);
    expect(Object.keys(gen?.assignment ?? {}).length).toBe(3);
    // The state machine went Empty -> PreparingRebalance -> CompletingRebalance -> Stable.
    expect(bed.ofType('groupStateChanged').map((e) => e.to)).toEqual([
      'Empty',
      'PreparingRebalance',
      'CompletingRebalance',
      'Stable',
    ]);
    // InitialDelayedJoin: the first 3000 ms delay is waited out in full, and because members
    // arrived during it, it is extended once more by 3000 ms (then no one new came): 6000 ms.
    const prep = bed.ofType('groupStateChanged').find((e) => e.to === 'PreparingRebalance');
    const completing = bed.ofType('groupStateChanged').find((e) => e.to === 'CompletingRebalance');
    expect((completing?.atMs ?? 0) - (prep?.atMs ?? 0)).toBe(6000);
    // Heartbeats flow every heartbeat.interval.ms once stable.
    const before = bed.ofType('groupRequestSent').filter((e) => e.api === 'Heartbeat').length;
    bed.run(9_000);
    const after = bed.ofType('groupRequestSent').filter((e) => e.api === 'Heartbeat').length;
    expect(after - before).toBe(9);
    expect(bed.groups.groupSnapshot('g')?.generationId).toBe(1);
  });

  it('a joining member starts a rebalance: REBALANCE_IN_PROGRESS on heartbeats, generation 2', () => {
    const bed = new GroupTestBed({ coordinatorConfig: FAST });
    bed.port.createTopic('t', 4, 3);
    const a = bed.polling('a', { 'group.id': 'g' }, ['t'], 100);
    expect(bed.runUntil(() => stable(bed, 'g', 1))).toBe(true);
    expect(assignmentOf(a)).toEqual(['t-0', 't-1', 't-2', 't-3']);
    const b = bed.polling('b', { 'group.id': 'g' }, ['t'], 100);
    expect(bed.runUntil(() => stable(bed, 'g', 2))).toBe(true);
    expect(bed.groups.groupSnapshot('g')?.generationId).toBe(2);
    expect(
      bed.ofType('groupResponseSent').some((e) => e.api === 'Heartbeat' && e.errorCode === 'REBALANCE_IN_PROGRESS'),
    ).toBe(true);
    expect([...assignmentOf(a), ...assignmentOf(b)].sort()).toEqual(['t-0', 't-1', 't-2', 't-3']);
    expect(assignmentOf(a).length).toBe(2);
    // Eager protocol: a revoked everything before rejoining.
    const revoked = bed
      .ofType('consumerRebalanceCallback')
      .filter((e) => e.consumerId === 'a' && e.callback === 'onPartitionsRevoked');
    expect(revoked.at(-1)?.partitions.length).toBe(4);
  });

  it('a crashed member is removed after session.timeout.ms, and its partitions move', () => {
    const bed = new GroupTestBed({ coordinatorConfig: FAST });
    bed.port.createTopic('t', 2, 3);
    const [a, b] = ['a', 'b'].map((id) => bed.consumer(id, { 'group.id': 'g', 'session.timeout.ms': 10_000 })) as [
      KafkaConsumer,
      KafkaConsumer,
    ];
    for (const c of [a, b]) {
      c.subscribe(['t']);
      bed.pollEvery(c, 100);
    }
    expect(bed.runUntil(() => stable(bed, 'g', 2) && a.assignment().length === 1 && b.assignment().length === 1)).toBe(
      true,
    );
    const gen = bed.groups.groupSnapshot('g')?.generationId ?? 0;
    const crashedAt = bed.now();
    b.crash();
    expect(bed.runUntil(() => stable(bed, 'g', 1), 60_000, 100)).toBe(true);
    const removed = bed.ofType('groupMemberRemoved').at(-1);
    expect(removed?.reason).toContain('session timeout');
    // Removed no earlier than session.timeout.ms after its last heartbeat.
    expect((removed?.atMs ?? 0) - crashedAt).toBeGreaterThan(10_000 - 3_000);
    expect((removed?.atMs ?? 0) - crashedAt).toBeLessThanOrEqual(10_000);
    expect(bed.groups.groupSnapshot('g')?.generationId).toBe(gen + 1);
    expect(assignmentOf(a)).toEqual(['t-0', 't-1']);
  });

  it('close() sends LeaveGroup: the rebalance starts at once, not after the session timeout', () => {
    const bed = new GroupTestBed({ coordinatorConfig: FAST });
    bed.port.createTopic('t', 2, 3);
    const [a, b] = ['a', 'b'].map((id) => bed.consumer(id, { 'group.id': 'g' })) as [KafkaConsumer, KafkaConsumer];
    for (const c of [a, b]) {
      c.subscribe(['t']);
      bed.pollEvery(c, 100);
    }
    expect(bed.runUntil(() => stable(bed, 'g', 2))).toBe(true);
    const closedAt = bed.now();
    b.close();
    expect(bed.runUntil(() => stable(bed, 'g', 1) && a.assignment().length === 2, 10_000, 10)).toBe(true);
    expect(bed.now() - closedAt).toBeLessThan(4_000);
    expect(bed.ofType('groupMemberRemoved').at(-1)?.reason).toBe('the consumer is being closed');
  });

  it('a member that stops polling leaves after max.poll.interval.ms and rejoins on its next poll', () => {
    const bed = new GroupTestBed({ coordinatorConfig: FAST });
    bed.port.createTopic('t', 2, 3);
    const [a, b] = ['a', 'b'].map((id) =>
      bed.consumer(id, { 'group.id': 'g', 'max.poll.interval.ms': 20_000, 'session.timeout.ms': 45_000 }),
    ) as [KafkaConsumer, KafkaConsumer];
    for (const c of [a, b]) {
      c.subscribe(['t']);
      bed.pollEvery(c, 100);
    }
    expect(bed.runUntil(() => stable(bed, 'g', 2))).toBe(true);
    bed.stopPolling(b);
    const stoppedAt = bed.now();
    expect(bed.runUntil(() => stable(bed, 'g', 1), 60_000, 100)).toBe(true);
    // Well before the 45 s session timeout: b's heartbeat thread sent LeaveGroup at the poll timeout.
    expect(bed.now() - stoppedAt).toBeLessThan(25_000);
    expect(bed.ofType('consumerError').some((e) => e.consumerId === 'b' && e.error === 'max.poll.interval.ms')).toBe(
      true,
    );
    bed.pollEvery(b, 100);
    expect(bed.runUntil(() => stable(bed, 'g', 2) && b.assignment().length === 1)).toBe(true);
  });

  it('static membership: a restart within session.timeout.ms keeps the generation and the assignment', () => {
    const bed = new GroupTestBed({ coordinatorConfig: FAST });
    bed.port.createTopic('t', 4, 3);
    const mk = (id: string, instance: string) =>
      bed.consumer(id, { 'group.id': 'g', 'group.instance.id': instance, 'session.timeout.ms': 30_000 });
    const a = mk('a', 'host-a');
    const b = mk('b', 'host-b');
    for (const c of [a, b]) {
      c.subscribe(['t']);
      bed.pollEvery(c, 100);
    }
    expect(bed.runUntil(() => stable(bed, 'g', 2) && b.assignment().length === 2)).toBe(true);
    const before = bed.groups.groupSnapshot('g');
    const bParts = assignmentOf(b);
    b.close(); // a static member sends no LeaveGroup
    bed.run(5_000);
    expect(bed.groups.groupSnapshot('g')?.state).toBe('Stable');
    const b2 = mk('b-restarted', 'host-b');
    b2.subscribe(['t']);
    bed.pollEvery(b2, 100);
    expect(bed.runUntil(() => b2.assignment().length === 2, 10_000)).toBe(true);
    const after = bed.groups.groupSnapshot('g');
    expect(after?.generationId).toBe(before?.generationId);
    expect(assignmentOf(b2)).toEqual(bParts);
    expect(bed.ofType('groupMemberReplaced').length).toBe(1);
    // A dead static member is only removed by its session timeout.
    b2.crash();
    expect(bed.runUntil(() => stable(bed, 'g', 1), 60_000, 100)).toBe(true);
    expect(bed.groups.groupSnapshot('g')?.generationId).toBe((before?.generationId ?? 0) + 1);
  });

  it('stale generations get ILLEGAL_GENERATION and unknown members UNKNOWN_MEMBER_ID', () => {
    const bed = new GroupTestBed({ coordinatorConfig: FAST });
    bed.port.createTopic('t', 2, 3);
    const a = bed.polling('a', { 'group.id': 'g' }, ['t'], 100);
    expect(bed.runUntil(() => stable(bed, 'g', 1))).toBe(true);
    const coordinator = a.coordinator?.coordinator as number;
    const memberId = a.coordinator?.memberId as string;
    const answers: string[] = [];
    const send = (generationId: number, member: string) =>
      bed.groups.network.send(
        'probe',
        coordinator,
        { api: 'Heartbeat', groupId: 'g', generationId, memberId: member, groupInstanceId: null },
        (r) => answers.push(r && 'errorCode' in r ? r.errorCode : 'null'),
      );
    send(0, memberId);
    send(1, 'nobody');
    send(1, memberId);
    bed.run(10);
    expect(answers).toEqual(['ILLEGAL_GENERATION', 'UNKNOWN_MEMBER_ID', 'NONE']);
  });

  it('a subscription change and added partitions each trigger a rebalance', () => {
    const bed = new GroupTestBed({ coordinatorConfig: FAST });
    bed.port.createTopic('t', 2, 3);
    bed.port.createTopic('u', 2, 3);
    const a = bed.polling('a', { 'group.id': 'g' }, ['t'], 100);
    expect(bed.runUntil(() => stable(bed, 'g', 1))).toBe(true);
    expect(bed.groups.groupSnapshot('g')?.generationId).toBe(1);
    a.subscribe(['t', 'u']);
    expect(bed.runUntil(() => a.assignment().length === 4)).toBe(true);
    expect(bed.groups.groupSnapshot('g')?.generationId).toBe(2);
    bed.port.addPartitions('u', 3);
    expect(bed.runUntil(() => a.assignment().length === 5)).toBe(true);
    expect(bed.groups.groupSnapshot('g')?.generationId).toBe(3);
    expect(
      bed.ofType('consumerStateChanged').some((e) => e.reason.includes('metadata changed: u now has 3 partitions')),
    ).toBe(true);
  });

  it('cooperative-sticky revokes only what moves, and never lets two members own a partition', () => {
    const bed = new GroupTestBed({ coordinatorConfig: FAST });
    bed.port.createTopic('t', 6, 3);
    const owners = new Map<string, string>();
    const violations: string[] = [];
    const mk = (id: string) => {
      const c = bed.consumer(id, { 'group.id': 'g', 'partition.assignment.strategy': ['cooperative-sticky'] });
      c.subscribe(['t'], {
        onPartitionsAssigned: (ps) => {
          for (const p of ps) {
            const k = `${p.topic}-${p.partition}`;
            if (owners.has(k)) violations.push(`${k} assigned to ${id} while owned by ${owners.get(k)}`);
            owners.set(k, id);
          }
        },
        onPartitionsRevoked: (ps) => {
          for (const p of ps) owners.delete(`${p.topic}-${p.partition}`);
        },
      });
      bed.pollEvery(c, 100);
      return c;
    };
    const a = mk('a');
    const b = mk('b');
    expect(bed.runUntil(() => stable(bed, 'g', 2) && a.assignment().length === 3 && b.assignment().length === 3)).toBe(
      true,
    );
    const genBefore = bed.groups.groupSnapshot('g')?.generationId ?? 0;
    const revokedBefore = bed
      .ofType('consumerRebalanceCallback')
      .filter((e) => e.callback === 'onPartitionsRevoked').length;
    const c = mk('c');
    expect(
      bed.runUntil(() => a.assignment().length === 2 && b.assignment().length === 2 && c.assignment().length === 2),
    ).toBe(true);
    expect(violations).toEqual([]);
    // Two rebalances: one where a and b give up one partition each, one where c receives them.
    expect(bed.groups.groupSnapshot('g')?.generationId).toBe(genBefore + 2);
    const revokes = bed
      .ofType('consumerRebalanceCallback')
      .filter((e) => e.callback === 'onPartitionsRevoked')
      .slice(revokedBefore);
    expect(revokes.map((e) => e.partitions.length)).toEqual([1, 1]);
  });

  it('a join with a session timeout outside the broker bounds fails with INVALID_SESSION_TIMEOUT', () => {
    const bed = new GroupTestBed({ coordinatorConfig: FAST });
    bed.port.createTopic('t', 1, 3);
    bed.polling('a', { 'group.id': 'g', 'session.timeout.ms': 5_000, 'heartbeat.interval.ms': 1_000 }, ['t'], 100);
    bed.run(1_000);
    expect(
      bed.ofType('groupResponseSent').some((e) => e.api === 'JoinGroup' && e.errorCode === 'INVALID_SESSION_TIMEOUT'),
    ).toBe(true);
    expect(bed.ofType('consumerError').some((e) => e.error === 'INVALID_SESSION_TIMEOUT')).toBe(true);
    // The next poll() throws it, as KafkaConsumer.poll would.
    expect(bed.pollErrors.map((e) => e.code)).toEqual(['INVALID_SESSION_TIMEOUT']);
  });

  it('is deterministic: the same seed and commands give the same events', () => {
    const runOnce = () => {
      const bed = new GroupTestBed({ seed: 7 });
      bed.port.createTopic('t', 3, 3);
      for (const id of ['x', 'y']) {
        bed.polling(id, { 'group.id': 'g' }, ['t'], 50);
      }
      bed.run(8_000);
      return JSON.stringify(bed.events);
    };
    expect(runOnce()).toBe(runOnce());
  });
});
