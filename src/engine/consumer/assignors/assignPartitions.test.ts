import { describe, expect, it } from 'vitest';
import { isKafkaError } from '../../errors';
import { assignPartitions, explainAssignment } from './assignPartitions';
import type { AssignmentStrategy, MemberSubscription } from './types';

const STRATEGIES: AssignmentStrategy[] = ['range', 'roundrobin', 'sticky', 'cooperative-sticky'];
const tp = (topic: string, partition: number) => ({ topic, partition });

function expectKafkaError(fn: () => unknown, code: Parameters<typeof isKafkaError>[1]) {
  try {
    fn();
  } catch (e) {
    expect(isKafkaError(e, code), String(e)).toBe(true);
    return;
  }
  expect.unreachable(`expected ${code}`);
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

describe('assignPartitions input checks', () => {
  it('rejects an unknown partition.assignment.strategy with INCONSISTENT_GROUP_PROTOCOL', () => {
    expectKafkaError(() => assignPartitions('uniform' as AssignmentStrategy, [], {}), 'INCONSISTENT_GROUP_PROTOCOL');
  });

  it('rejects bad partition counts with INVALID_PARTITIONS', () => {
    for (const count of [-1, 1.5, Number.NaN]) {
      expectKafkaError(
        () => assignPartitions('range', [{ memberId: 'a', topics: ['t'] }], { t: count }),
        'INVALID_PARTITIONS',
      );
    }
  });

  it('rejects malformed members with INVALID_REQUEST', () => {
    const bad: unknown[][] = [
      [{ memberId: '', topics: [] }],
      [
        { memberId: 'a', topics: [] },
        { memberId: 'a', topics: [] },
      ],
      [
        { memberId: 'a', groupInstanceId: 'i', topics: [] },
        { memberId: 'b', groupInstanceId: 'i', topics: [] },
      ],
      [{ memberId: 'a', topics: [7] }],
      [{ memberId: 'a', topics: ['t'], generation: 1.5 }],
      [{ memberId: 'a', topics: ['t'], ownedPartitions: [{ topic: 't', partition: 'x' }] }],
      [{ memberId: 'a', topics: ['t'], ownedPartitions: {} }],
    ];
    for (const strategy of STRATEGIES) {
      for (const members of bad) {
        expectKafkaError(
          () => assignPartitions(strategy, members as MemberSubscription[], { t: 2 }),
          'INVALID_REQUEST',
        );
      }
    }
  });

  it('never modifies its input', () => {
    const members = deepFreeze([
      { memberId: 'a', topics: ['t', 'u'], ownedPartitions: [tp('t', 1), tp('u', 0)], generation: 3 },
      { memberId: 'b', topics: ['t'], ownedPartitions: [tp('t', 0)], generation: 3 },
      { memberId: 'c', topics: ['t', 'u'] },
    ]);
    const ppt = deepFreeze({ t: 4, u: 2 });
    const copy = JSON.stringify({ members, ppt });
    for (const strategy of STRATEGIES) explainAssignment(strategy, members, ppt);
    expect(JSON.stringify({ members, ppt })).toBe(copy);
  });
});

describe('assignPartitions shape', () => {
  it.each(STRATEGIES)('%s: empty group, idle members, unknown and empty topics', (strategy) => {
    expect(assignPartitions(strategy, [], { t: 3 })).toEqual({});
    const a = assignPartitions(
      strategy,
      [
        { memberId: 'a', topics: ['t', 'missing', 'empty'] },
        { memberId: 'b', topics: ['missing'] },
      ],
      { t: 2, empty: 0, unsubscribed: 5 },
    );
    expect(a).toEqual({ a: [tp('t', 0), tp('t', 1)], b: [] });
  });

  it.each(STRATEGIES)('%s: "__proto__" is an ordinary member id and topic name', (strategy) => {
    const a = assignPartitions(
      strategy,
      [{ memberId: '__proto__', topics: ['__proto__'] }],
      JSON.parse('{"__proto__": 2}'),
    );
    expect(Object.keys(a)).toEqual(['__proto__']);
    expect(Object.getOwnPropertyDescriptor(a, '__proto__')?.value).toEqual([tp('__proto__', 0), tp('__proto__', 1)]);
  });

  it.each(STRATEGIES)('%s: topic order is Java String order (UTF-16 code units), not locale order', (strategy) => {
    const a = assignPartitions(strategy, [{ memberId: 'm', topics: ['b', 'B', 'a', '\u00e9', 'Z'] }], {
      a: 1,
      b: 1,
      B: 1,
      Z: 1,
      '\u00e9': 1,
    });
    expect(a.m?.map((p) => p.topic)).toEqual(['B', 'Z', 'a', 'b', '\u00e9']);
  });

  it('is deterministic: the same input gives the same assignment', () => {
    const members = Array.from({ length: 7 }, (_, i) => ({
      memberId: `m${(i * 37) % 11}`,
      topics: i % 2 ? ['x', 'y'] : ['y'],
    }));
    for (const strategy of STRATEGIES) {
      expect(assignPartitions(strategy, members, { x: 5, y: 9 })).toEqual(
        assignPartitions(strategy, members, { x: 5, y: 9 }),
      );
    }
  });
});

describe('explainAssignment', () => {
  it('range: one step per partition, saying how the topic was cut', () => {
    const e = explainAssignment(
      'range',
      [
        { memberId: 'C0', topics: ['A'] },
        { memberId: 'C1', topics: ['A'] },
      ],
      { A: 3 },
    );
    expect(e.steps.map((s) => `${s.topic}-${s.partition}->${s.memberId}`)).toEqual(['A-0->C0', 'A-1->C0', 'A-2->C1']);
    expect(e.steps[0]?.reason).toContain('3 partitions over 2 subscribed members = 1 each');
    expect(e.stickyPath).toBeUndefined();
  });

  it('sticky: kept partitions, then the ones dealt out; the same assignment as assignPartitions', () => {
    const members = [
      { memberId: 'a', topics: ['t'], ownedPartitions: [tp('t', 0), tp('t', 1), tp('t', 2)], generation: 4 },
      { memberId: 'b', topics: ['t'], generation: 4 },
    ];
    const e = explainAssignment('sticky', members, { t: 4 });
    expect(e.assignment).toEqual(assignPartitions('sticky', members, { t: 4 }));
    expect(e.stickyPath).toBe('constrained');
    expect(e.steps.map((s) => [s.action, s.memberId, s.partition])).toEqual([
      ['keep', 'a', 0],
      ['keep', 'a', 1],
      ['move', 'b', 2],
      ['assign', 'b', 3],
    ]);
    expect(e.steps[2]?.fromMemberId).toBe('a');
  });

  it('every step of a general-path explanation ends in the final assignment', () => {
    const members = [
      {
        memberId: 'a',
        topics: ['t', 'u'],
        ownedPartitions: [tp('t', 0), tp('t', 1), tp('t', 2), tp('u', 0)],
        generation: 2,
      },
      { memberId: 'b', topics: ['t'], generation: 2 },
      { memberId: 'c', topics: ['u'], generation: 2 },
    ];
    const e = explainAssignment('sticky', members, { t: 3, u: 2 });
    expect(e.stickyPath).toBe('general');
    const last = new Map<string, string>();
    for (const s of e.steps) last.set(`${s.topic}-${s.partition}`, s.memberId);
    for (const [m, list] of Object.entries(e.assignment))
      for (const p of list) expect(last.get(`${p.topic}-${p.partition}`)).toBe(m);
  });
});
