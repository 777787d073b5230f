import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { balanceProblems, isFullyBalanced, validityProblems } from './assignmentChecks';
import { assignPartitions, explainAssignment } from './assignPartitions';
import { ASSIGNMENT_STRATEGIES, type AssignmentStrategy, type GroupAssignment, type MemberSubscription } from './types';

// Seeded property tests for all four assignors: the invariants Kafka's assignor tests check, over
// random groups. A failing run prints its seed and path; pin it here as a named case if one ever fails.
const SEED = 20261129;
// ASSIGNOR_PROPERTY_RUNS=5000 for a long soak.
const RUNS = Number(process.env.ASSIGNOR_PROPERTY_RUNS ?? 100);
const TOPIC_POOL = ['orders', 'payments', 't0', 't1', 'a-b', 'Z'];

interface Group {
  members: MemberSubscription[];
  partitionsPerTopic: Record<string, number>;
}

const groupArb = (opts: { identical?: boolean; maxMembers?: number } = {}): fc.Arbitrary<Group> =>
  fc
    .record({
      topics: fc.uniqueArray(fc.constantFrom(...TOPIC_POOL), { minLength: 1, maxLength: 4 }),
      counts: fc.array(fc.integer({ min: 0, max: 8 }), { minLength: 4, maxLength: 4 }),
      memberCount: fc.integer({ min: 1, max: opts.maxMembers ?? 8 }),
      identical: opts.identical === undefined ? fc.boolean() : fc.constant(opts.identical),
      picks: fc.array(fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }), { minLength: 10, maxLength: 10 }),
      statics: fc.array(fc.boolean(), { minLength: 10, maxLength: 10 }),
      idSalt: fc.array(fc.integer({ min: 0, max: 99 }), { minLength: 10, maxLength: 10 }),
    })
    .map(({ topics, counts, memberCount, identical, picks, statics, idSalt }) => {
      const partitionsPerTopic = Object.fromEntries(topics.map((t, i) => [t, counts[i] as number]));
      const subscription = (row: boolean[]) => {
        const chosen = topics.filter((_, i) => row[i]);
        return chosen.length > 0 ? chosen : [topics[0] as string];
      };
      const members = Array.from({ length: memberCount }, (_, i) => {
        const m: MemberSubscription = {
          memberId: `consumer-${idSalt[i]}-${i}`,
          topics: subscription((identical ? picks[0] : picks[i]) as boolean[]),
        };
        if (statics[i]) m.groupInstanceId = `instance-${idSalt[(i + 3) % 10]}-${i}`;
        return m;
      });
      return { members, partitionsPerTopic };
    });

const key = (p: { topic: string; partition: number }) => `${p.topic}-${p.partition}`;

function ownersOf(a: GroupAssignment): Map<string, string> {
  const owners = new Map<string, string>();
  for (const [m, list] of Object.entries(a)) for (const p of list) owners.set(key(p), m);
  return owners;
}

/** The next generation's subscriptions: everyone reports what it was assigned. */
function reportOwned(members: MemberSubscription[], a: GroupAssignment, generation: number): MemberSubscription[] {
  return members.map((m) => ({ ...m, ownedPartitions: a[m.memberId] ?? [], generation }));
}

describe.each(ASSIGNMENT_STRATEGIES)('%s: properties', (strategy) => {
  it('every subscribed partition has exactly one owner, subscribed to its topic; every member is present; lists are sorted', () => {
    fc.assert(
      fc.property(groupArb(), ({ members, partitionsPerTopic }) => {
        const a = assignPartitions(strategy, members, partitionsPerTopic);
        expect(validityProblems(members, partitionsPerTopic, a)).toEqual([]);
        expect(Object.keys(a).sort()).toEqual(members.map((m) => m.memberId).sort());
        for (const list of Object.values(a)) {
          const sorted = [...list].sort((x, y) =>
            x.topic < y.topic ? -1 : x.topic > y.topic ? 1 : x.partition - y.partition,
          );
          expect(list).toEqual(sorted);
        }
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('members beyond the partition count sit idle', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 6 }), fc.integer({ min: 1, max: 12 }), (n, m) => {
        const members = Array.from({ length: m }, (_, i) => ({ memberId: `c${i}`, topics: ['only'] }));
        const a = assignPartitions(strategy, members, { only: n });
        const sizes = Object.values(a).map((l) => l.length);
        expect(sizes.filter((s) => s === 0)).toHaveLength(Math.max(0, m - n));
        if (n <= m) expect(Math.max(...sizes)).toBeLessThanOrEqual(1);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });
});

describe.each(['sticky', 'cooperative-sticky'] as AssignmentStrategy[])('%s: stickiness and balance', (strategy) => {
  it('balances to within one when everyone subscribes to the same topics, and as well as subscriptions allow otherwise', () => {
    fc.assert(
      fc.property(groupArb(), ({ members, partitionsPerTopic }) => {
        const a = assignPartitions(strategy, members, partitionsPerTopic);
        expect(balanceProblems(a)).toEqual([]);
        const identical = members.every((m) => m.topics.join() === members[0]?.topics.join());
        if (identical) expect(isFullyBalanced(a)).toBe(true);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('rerunning with the result as owned partitions changes nothing', () => {
    fc.assert(
      fc.property(groupArb(), ({ members, partitionsPerTopic }) => {
        const a = assignPartitions('sticky', members, partitionsPerTopic);
        const again = assignPartitions(strategy, reportOwned(members, a, 1), partitionsPerTopic);
        expect(again).toEqual(a);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('a member leaving moves only its partitions (same subscriptions)', () => {
    fc.assert(
      fc.property(groupArb({ identical: true }), fc.nat(), ({ members, partitionsPerTopic }, pick) => {
        fc.pre(members.length >= 2);
        const a = assignPartitions('sticky', members, partitionsPerTopic);
        const leaving = members[pick % members.length] as MemberSubscription;
        const rest = reportOwned(
          members.filter((m) => m !== leaving),
          a,
          1,
        );
        const b = assignPartitions(strategy, rest, partitionsPerTopic);
        // cooperative: the leaver's partitions are free (it revoked them when it left), so nothing is withheld.
        for (const m of rest) {
          const before = (a[m.memberId] ?? []).map(key);
          const now = new Set((b[m.memberId] ?? []).map(key));
          expect(before.filter((p) => !now.has(p))).toEqual([]);
        }
        expect(validityProblems(rest, partitionsPerTopic, b)).toEqual([]);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('keeps every owned partition it can when members join (same subscriptions)', () => {
    fc.assert(
      fc.property(
        groupArb({ identical: true, maxMembers: 5 }),
        fc.integer({ min: 1, max: 3 }),
        ({ members, partitionsPerTopic }, joiners) => {
          const a = assignPartitions('sticky', members, partitionsPerTopic);
          const next = [
            ...reportOwned(members, a, 1),
            ...Array.from({ length: joiners }, (_, i) => ({
              memberId: `joiner-${i}`,
              topics: members[0]?.topics ?? [],
              generation: 1,
            })),
          ];
          const b = assignPartitions('sticky', next, partitionsPerTopic);
          // Each old member keeps min(owned, its new quota): it loses only what balance requires.
          const total = Object.values(b).reduce((n, l) => n + l.length, 0);
          const maxQuota = Math.ceil(total / next.length);
          for (const m of members) {
            const before = (a[m.memberId] ?? []).map(key);
            const now = new Set((b[m.memberId] ?? []).map(key));
            const kept = before.filter((p) => now.has(p)).length;
            expect(kept).toBeGreaterThanOrEqual(Math.min(before.length, Math.floor(total / next.length)));
            expect(kept).toBeLessThanOrEqual(maxQuota);
          }
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  });
});

describe('cooperative-sticky: two-phase moves', () => {
  it('no partition goes from one member to another between consecutive generations; the group settles balanced', () => {
    fc.assert(
      fc.property(
        groupArb(),
        fc.constantFrom<AssignmentStrategy>('range', 'roundrobin', 'sticky'),
        fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
        fc.integer({ min: 0, max: 3 }),
        ({ members, partitionsPerTopic }, previousStrategy, stays, joiners) => {
          // Generation 1 came from some other assignment; then members leave and join.
          const gen1 = assignPartitions(previousStrategy, members, partitionsPerTopic);
          let current: MemberSubscription[] = [
            ...reportOwned(
              members.filter((_, i) => stays[i]),
              gen1,
              1,
            ),
            ...Array.from({ length: joiners }, (_, i) => ({
              memberId: `joiner-${i}`,
              topics: members[0]?.topics ?? [],
            })),
          ];
          fc.pre(current.length > 0);
          let previous: Map<string, string> = ownersOf(gen1);
          let assignment: GroupAssignment = {};
          for (let generation = 2; generation <= 6; generation++) {
            const e = explainAssignment('cooperative-sticky', current, partitionsPerTopic);
            assignment = e.assignment;
            const owners = ownersOf(assignment);
            const leftMembers = new Set([...previous.values()].filter((m) => !current.some((c) => c.memberId === m)));
            for (const [p, owner] of owners) {
              const before = previous.get(p);
              // A partition may only change hands if its previous owner has left the group.
              if (before !== undefined && before !== owner) expect(leftMembers.has(before)).toBe(true);
            }
            // What is missing this generation is exactly what is being revoked.
            const withheld = (e.revokedThisGeneration ?? []).map(key).sort();
            const all = validityProblems(current, partitionsPerTopic, assignment)
              .filter((msg) => msg.endsWith('has subscribers but no owner'))
              .map((msg) => msg.split(' ')[0] as string)
              .sort();
            expect(all).toEqual(withheld);
            if (withheld.length === 0) break;
            previous = owners;
            current = reportOwned(current, assignment, generation);
          }
          expect(validityProblems(current, partitionsPerTopic, assignment)).toEqual([]);
          expect(balanceProblems(assignment)).toEqual([]);
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  });
});
