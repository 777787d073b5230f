import { describe, expect, it } from 'vitest';
import { isKafkaError } from '../../../errors';
import { assignPartitions, explainAssignment } from './assignPartitions';
import { ASSIGNMENT_STRATEGIES, type AssignmentStrategy, type MemberSubscription } from './types';
import { member, tp } from './testing';

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
      expectKafkaError(() => assignPartitions('range', [member('a', ['t'])], { t: count }), 'INVALID_PARTITIONS');
    }
  });

  it('rejects malformed members with INVALID_REQUEST', () => {
    const bad: unknown[][] = [
      [member('', [])],
      [member('a', []), member('a', [])],
      [
        { memberId: 'a', groupInstanceId: 'i', topics: [] },
        { memberId: 'b', groupInstanceId: 'i', topics: [] },
      ],
      [{ memberId: 'a', topics: [7] }],
      [member('a', ['t'], undefined, 1.5)],
      [{ memberId: 'a', topics: ['t'], ownedPartitions: [{ topic: 't', partition: 'x' }] }],
      [{ memberId: 'a', topics: ['t'], ownedPartitions: {} }],
    ];
    for (const strategy of ASSIGNMENT_STRATEGIES) {
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
      member('a', ['t', 'u'], [tp('t', 1), tp('u', 0)], 3),
      member('b', ['t'], [tp('t', 0)], 3),
      member('c', ['t', 'u']),
    ]);
    const ppt = deepFreeze({ t: 4, u: 2 });
    const copy = JSON.stringify({ members, ppt });
    for (const strategy of ASSIGNMENT_STRATEGIES) explainAssignment(strategy, members, ppt);
    expect(JSON.stringify({ members, ppt })).toBe(copy);
  });
});

describe('assignPartitions shape', () => {
  it.each(ASSIGNMENT_STRATEGIES)('%s: empty group, idle members, unknown and empty topics', (strategy) => {
    expect(assignPartitions(strategy, [], { t: 3 })).toEqual({});
    const a = assignPartitions(strategy, [member('a', ['t', 'missing', 'empty']), member('b', ['missing'])], {
      t: 2,
      empty: 0,
      unsubscribed: 5,
    });
    expect(a).toEqual({ a: [tp('t', 0), tp('t', 1)], b: [] });
  });

  it.each(ASSIGNMENT_STRATEGIES)('%s: "__proto__" is an ordinary member id and topic name', (strategy) => {
    const a = assignPartitions(strategy, [member('__proto__', ['__proto__'])], JSON.parse('{"__proto__": 2}'));
    expect(Object.keys(a)).toEqual(['__proto__']);
    expect(Object.getOwnPropertyDescriptor(a, '__proto__')?.value).toEqual([tp('__proto__', 0), tp('__proto__', 1)]);
  });

  it.each(ASSIGNMENT_STRATEGIES)(
    '%s: topic order is Java String order (UTF-16 code units), not locale order',
    (strategy) => {
      const a = assignPartitions(strategy, [member('m', ['b', 'B', 'a', '\u00e9', 'Z'])], {
        a: 1,
        b: 1,
        B: 1,
        Z: 1,
        '\u00e9': 1,
      });
      expect(a.m?.map((p) => p.topic)).toEqual(['B', 'Z', 'a', 'b', '\u00e9']);
    },
  );

  it('is deterministic: the same input gives the same assignment', () => {
    const members = Array.from({ length: 7 }, (_, i) => ({
      memberId: `m${(i * 37) % 11}`,
      topics: i % 2 ? ['x', 'y'] : ['y'],
    }));
    for (const strategy of ASSIGNMENT_STRATEGIES) {
      expect(assignPartitions(strategy, members, { x: 5, y: 9 })).toEqual(
        assignPartitions(strategy, members, { x: 5, y: 9 }),
      );
    }
  });
});

describe('explainAssignment', () => {
  it('range: one step per partition, saying how the topic was cut', () => {
    const e = explainAssignment('range', [member('C0', ['A']), member('C1', ['A'])], { A: 3 });
    expect(e.steps.map((s) => `${s.topic}-${s.partition}->${s.memberId}`)).toEqual(['A-0->C0', 'A-1->C0', 'A-2->C1']);
    expect(e.steps[0]?.reason).toContain('3 partitions over 2 subscribed members = 1 each');
    expect(e.stickyPath).toBeUndefined();
  });

  it('sticky: kept partitions, then the ones dealt out; the same assignment as assignPartitions', () => {
    const members = [member('a', ['t'], [tp('t', 0), tp('t', 1), tp('t', 2)], 4), member('b', ['t'], undefined, 4)];
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
      member('a', ['t', 'u'], [tp('t', 0), tp('t', 1), tp('t', 2), tp('u', 0)], 2),
      member('b', ['t'], undefined, 2),
      member('c', ['u'], undefined, 2),
    ];
    const e = explainAssignment('sticky', members, { t: 3, u: 2 });
    expect(e.stickyPath).toBe('general');
    const last = new Map<string, string>();
    for (const s of e.steps) last.set(`${s.topic}-${s.partition}`, s.memberId);
    for (const [m, list] of Object.entries(e.assignment))
      for (const p of list) expect(last.get(`${p.topic}-${p.partition}`)).toBe(m);
  });
});
