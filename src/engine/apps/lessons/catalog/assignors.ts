import { group, groupStable, rebalancedSince } from '../facts';
import type { Lesson, LessonWorld } from '../types';

function assignment(w: LessonWorld, id: string): string[] {
  return (group(w, id)?.members ?? []).map((m) => `${m.name}=${[...m.partitions].sort().join('+')}`).sort();
}

function owned(w: LessonWorld, id: string, member: string): string {
  const m = group(w, id)?.members.find((x) => x.name === member);
  return m ? [...m.partitions].sort().join(', ') : '';
}

/**
 * The assignors the group leader runs: range (Kafka's default) and roundrobin. (sticky and
 * cooperative-sticky are left out: the engine's versions do not yet keep a member's partitions
 * across a rebalance, which is the point of them.)
 */
export const assignors: Lesson = {
  id: 'assignors',
  concept: 'groups',
  title: 'range vs roundrobin',
  preset: 'demo',
  seed: 1,
  source: 'seed 000: partition assignment strategies',
  steps: [
    {
      text: 'billing (range: c1, c2, c3) and analytics (roundrobin: c4, c5) read orders’ 6 partitions. range gives each member a contiguous run of each topic’s partitions; roundrobin deals all partitions out one by one.',
      until: { label: 'both groups are Stable', met: (w) => groupStable(w, 'billing') && groupStable(w, 'analytics') },
      slow: true,
      observe: (w) => ({ billing: assignment(w, 'billing'), analytics: assignment(w, 'analytics') }),
      question: {
        prompt: 'Which partitions does c5 (roundrobin, second of two members) own?',
        choices: ['orders-0, orders-1, orders-2', 'orders-1, orders-3, orders-5', 'orders-3, orders-4, orders-5'],
        answer: (w) => owned(w, 'analytics', 'c5'),
      },
    },
    {
      text: 'c3 left billing (LeaveGroup): the coordinator starts a rebalance at once (no session timeout to wait for), and range splits the 6 partitions over two members.',
      actions: [{ op: 'removeConsumer', name: 'c3' }],
      until: { label: 'billing is Stable with 2 members', met: (w, t) => rebalancedSince(w, 'billing', t, 2) },
      observe: (w) => ({ billing: assignment(w, 'billing'), generation: group(w, 'billing')?.generation ?? null }),
      question: {
        prompt: 'After c3 leaves, what does c1 (range, first member) own?',
        choices: ['orders-0, orders-1', 'orders-0, orders-1, orders-2', 'orders-0, orders-2, orders-4'],
        answer: (w) => owned(w, 'billing', 'c1'),
      },
    },
  ],
};
