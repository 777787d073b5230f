import { group, groupStable, rebalancedSince } from '../facts';
import type { Lesson, LessonTarget, LessonWorld } from '../types';
import { after } from './posts';

function assignment(w: LessonWorld, id: string): string[] {
  return (group(w, id)?.members ?? []).map((m) => `${m.name}=${[...m.partitions].sort().join('+')}`).sort();
}

function owned(w: LessonWorld, id: string, member: string): string {
  const m = group(w, id)?.members.find((x) => x.name === member);
  return m ? [...m.partitions].sort().join(', ') : '';
}

function card(id: string, member?: string): LessonTarget {
  return member ? { kind: 'group', group: id, member } : { kind: 'group', group: id };
}

/** What `member` owned in the group's previous generation. */
function ownedBefore(w: LessonWorld, id: string, member: string): string {
  const gens = group(w, id)?.generations ?? [];
  return [...(gens[gens.length - 2]?.assignment[member] ?? [])].sort().join(', ');
}

/** How many of the partitions `member` held in the group's previous generation it still holds. */
function keptFromPreviousGeneration(w: LessonWorld, id: string, member: string): number {
  const gens = group(w, id)?.generations ?? [];
  const previous = new Set(gens[gens.length - 2]?.assignment[member] ?? []);
  return (gens[gens.length - 1]?.assignment[member] ?? []).filter((p) => previous.has(p)).length;
}

/**
 * The assignors the group leader runs: range (Kafka's default) and roundrobin, then sticky and
 * cooperative-sticky, which keep a member's partitions across a rebalance (the eager sticky
 * through its subscription userData, cooperative-sticky through ownedPartitions) and, for
 * cooperative-sticky, revoke only what moves, in two rebalances.
 */
export const assignors: Lesson = {
  id: 'assignors',
  concept: 'groups',
  title: 'range, roundrobin, sticky, cooperative-sticky',
  preset: 'demo',
  seed: 1,
  source: after('architecture', 'partition assignment strategies'),
  steps: [
    {
      text: 'billing (range: c1, c2, c3) and analytics (roundrobin: c4, c5) read orders’ 6 partitions. range gives each member a contiguous run of each topic’s partitions; roundrobin deals all partitions out one by one.',
      look: card('billing'),
      until: { label: 'both groups are Stable', met: (w) => groupStable(w, 'billing') && groupStable(w, 'analytics') },
      slow: true,
      observe: (w) => ({ billing: assignment(w, 'billing'), analytics: assignment(w, 'analytics') }),
    },
    {
      text: 'c3 left billing (LeaveGroup): the coordinator starts a rebalance at once (no session timeout to wait for), and range splits the 6 partitions over two members.',
      look: card('billing', 'c1'),
      actions: [{ op: 'removeConsumer', name: 'c3' }],
      until: { label: 'billing is Stable with 2 members', met: (w, t) => rebalancedSince(w, 'billing', t, 2) },
      observe: (w) => ({ billing: assignment(w, 'billing'), generation: group(w, 'billing')?.generation ?? null }),
      question: {
        prompt:
          'billing (range) has c1, c2 and c3 on orders’ 6 partitions. c3 leaves next. What will c1, the first member, own after the rebalance?',
        choices: ['orders-0, orders-1', 'orders-0, orders-1, orders-2', 'orders-0, orders-2, orders-4'],
        answer: (w) => owned(w, 'billing', 'c1'),
        because: (w) =>
          `range sorts the members and splits each topic’s partitions into contiguous runs: 6 partitions over 2 members is 3 each, and the first member takes the first run (c1 had ${ownedBefore(w, 'billing', 'c1')} with 3 members).`,
      },
    },

    {
      text: 'Two more groups read orders: shipping (sticky: s1, s2, s3) and audit (cooperative-sticky: a1, a2, a3). A first assignment has nothing to stick to, so each member simply gets two partitions.',
      look: card('shipping'),
      actions: [
        { op: 'addGroup', group: 'shipping', assignor: 'sticky' },
        { op: 'addGroup', group: 'audit', assignor: 'cooperative-sticky' },
        ...['s1', 's2', 's3'].map((name) => ({ op: 'addConsumer' as const, group: 'shipping', name })),
        ...['a1', 'a2', 'a3'].map((name) => ({ op: 'addConsumer' as const, group: 'audit', name })),
      ],
      until: {
        label: 'shipping and audit are Stable with 3 members each',
        met: (w, t) => rebalancedSince(w, 'shipping', t, 3) && rebalancedSince(w, 'audit', t, 3),
      },
      observe: (w) => ({ shipping: assignment(w, 'shipping'), audit: assignment(w, 'audit') }),
    },
    {
      text: 's3 left shipping. Every member rejoins and (sticky is eager) first revokes all it had, but its subscription carries its previous assignment and generation as userData, so the leader keeps each survivor’s partitions and only splits s3’s.',
      look: card('shipping', 's1'),
      actions: [{ op: 'removeConsumer', name: 's3' }],
      until: { label: 'shipping is Stable with 2 members', met: (w, t) => rebalancedSince(w, 'shipping', t, 2) },
      slow: true,
      observe: (w) => ({ shipping: assignment(w, 'shipping'), generation: group(w, 'shipping')?.generation ?? null }),
      question: {
        prompt:
          's1, s2 and s3 (sticky) own two partitions each. s3 leaves shipping next. How many of its two partitions will s1 still own after the rebalance?',
        choices: ['none', 'one', 'both'],
        because: (w) =>
          `the sticky assignor reads each member’s previous assignment from its subscription userData and keeps it, handing out only the leaver’s partitions: s1 had ${ownedBefore(w, 'shipping', 's1')} and now owns ${owned(w, 'shipping', 's1')}.`,
        answer: (w) => {
          const kept = keptFromPreviousGeneration(w, 'shipping', 's1');
          return ['none', 'one', 'both'][kept] ?? String(kept);
        },
      },
    },
    {
      text: 'a4 joined audit. cooperative-sticky members keep consuming while they rejoin: 6 partitions over 4 members means one must move. The first rebalance gives a4 nothing and leaves that one out of its old owner’s assignment; the owner revokes just it (onPartitionsRevoked) and rejoins, and the second rebalance hands it to a4.',
      look: card('audit'),
      actions: [{ op: 'addConsumer', group: 'audit', name: 'a4' }],
      until: {
        label: 'audit is Stable with 4 members, a4 owning partitions',
        met: (w, t) => rebalancedSince(w, 'audit', t, 4) && owned(w, 'audit', 'a4') !== '',
      },
      slow: true,
      observe: (w) => ({
        audit: assignment(w, 'audit'),
        generations: (group(w, 'audit')?.generations ?? []).slice(-2).map(
          (g) =>
            `${g.generation}: ${Object.entries(g.assignment)
              .map(([m, ps]) => `${m}=${ps.join('+')}`)
              .sort()
              .join(' ')}`,
        ),
      }),
      question: {
        prompt:
          'a1, a2 and a3 (cooperative-sticky) own two partitions each. a4 joins audit next. How many rebalances (generations) will audit complete before a4 owns partitions?',
        choices: ['1', '2', '3'],
        because: () =>
          'cooperative-sticky never moves a partition in one step: the first rebalance only takes it out of its old owner’s assignment (the owner revokes just it and rejoins), and the second gives it to a4.',
        answer: (w) => {
          const gens = group(w, 'audit')?.generations ?? [];
          const first = gens.findIndex((g) => 'a4' in g.assignment);
          const owning = gens.findIndex((g) => (g.assignment.a4 ?? []).length > 0);
          return first < 0 || owning < 0 ? '0' : String(owning - first + 1);
        },
      },
    },
  ],
};
