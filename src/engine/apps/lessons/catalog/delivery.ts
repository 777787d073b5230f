import { elapsed, rebalancedSince } from '../facts';
import type { LessonWorld } from '../types';
import { after } from './posts';
import { DEMO, lesson } from './scenarios';

const ANALYTICS = { kind: 'group', group: 'analytics' } as const;

function card(w: LessonWorld, consumer: string) {
  return w.view.crashes.find((c) => c.consumer === consumer);
}

/** The consumer's group has a committed offset for every partition it owns. */
function committedAll(w: LessonWorld, name: string): boolean {
  const c = w.view.consumers.find((x) => x.name === name);
  if (!c || c.partitions.length === 0) return false;
  return c.partitions.every((p) =>
    w.view.describe.some((r) => r.group === c.group && `${r.topic}-${r.partition}` === p && r.currentOffset !== null),
  );
}

/** The consumer holds an unfinished batch and its group has committed offsets for what it owns. */
function midBatch(w: LessonWorld, name: string): boolean {
  const c = w.view.consumers.find((x) => x.name === name);
  return !!c && c.inHand > 0 && committedAll(w, name);
}

/** The source post's cases 1 and 2: commit after processing gives duplicates, before processing loses records. */
export const delivery = lesson(DEMO, 'delivery', 'groups', {
  title: 'Commit after vs before processing: duplicates and losses',
  source: after(
    'architecture',
    'its case 1 (commit after processing: duplicates) and case 2 (commit before processing: losses)',
  ),
  steps: [
    {
      text: 'analytics now commits after processing each batch, billing before processing (as soon as poll() returns). Their applications restart with that and rebalance.',
      look: ANALYTICS,
      actions: [
        { op: 'setCommitMode', group: 'analytics', mode: 'after-processing' },
        { op: 'setCommitMode', group: 'billing', mode: 'before-processing' },
      ],
      until: {
        label: 'both groups rebalanced and are Stable',
        met: (w, t) => rebalancedSince(w, 'billing', t, 3) && rebalancedSince(w, 'analytics', t, 2),
      },
      observe: (w) => ({ modes: w.view.groups.map((g) => `${g.groupId}:${g.commitMode}`) }),
    },
    {
      text: '300 orders arrived; every consumer works through its batch at 25 ms a record (watch “processing” on the chips). analytics commits only when a batch is done.',
      look: ANALYTICS,
      actions: [{ op: 'produceDemoRecords', topic: 'orders', count: 300 }],
      until: {
        label: 'c4 finished its first batch and committed it',
        met: (w) => committedAll(w, 'c4') && (w.view.consumers.find((c) => c.name === 'c4')?.inHand ?? 1) === 0,
      },
    },
    {
      text: '300 more orders arrived: c4 and c1 are each in the middle of a new batch, and the clock pauses there. billing committed its batch the moment poll() returned it; analytics has not committed its batch yet.',
      look: ANALYTICS,
      actions: [{ op: 'produceDemoRecords', topic: 'orders', count: 300 }],
      until: {
        label: 'c4 and c1 are mid-batch',
        met: (w, t) => elapsed(w, t, 1500) && ['c4', 'c1'].every((n) => midBatch(w, n)),
      },
      slow: true,
      hold: true,
    },
    {
      text: 'c4 (analytics) and c1 (billing) crashed mid-batch: no LeaveGroup. After session.timeout.ms (10 s) the coordinator removes them; the new owners start from the committed offsets.',
      look: { ...ANALYTICS, member: 'c4' },
      lookAfter: { ...ANALYTICS, crash: true },
      actions: [
        { op: 'crashConsumer', name: 'c4' },
        { op: 'crashConsumer', name: 'c1' },
      ],
      until: {
        label: 'both crash cards are filled',
        met: (w) => (card(w, 'c4')?.observed.redelivered ?? 0) > 0 && (card(w, 'c1')?.observed.skipped ?? 0) > 0,
      },
      slow: true,
      observe: (w) => ({
        c4: `${card(w, 'c4')?.redelivered ?? 0} redelivered (observed ${card(w, 'c4')?.observed.redelivered ?? 0})`,
        c1: `${card(w, 'c1')?.skipped ?? 0} skipped (observed ${card(w, 'c1')?.observed.skipped ?? 0})`,
      }),
      question: {
        prompt:
          'c4 (analytics, commits after processing) and c1 (billing, commits before processing) crash next, each in the middle of a batch. What will happen to the records c4 processed since its last commit?',
        choices: ['processed twice', 'lost', 'nothing'],
        answer: (w) => ((card(w, 'c4')?.redelivered ?? 0) > 0 ? 'processed twice' : 'nothing'),
        because: (w) =>
          `c4’s group had committed only up to its previous batch, so the new owners of its partitions start from there and process again the ${card(w, 'c4')?.redelivered ?? 0} records c4 had already processed (case 1). c1’s group had committed its whole batch before processing it, so the ${card(w, 'c1')?.skipped ?? 0} records c1 had not processed yet are skipped: lost (case 2).`,
      },
    },
    {
      look: { kind: 'group', group: 'billing', crash: true },
      text: 'Each card compares what the offsets predicted with what the new owners actually did: c4’s records were processed twice (case 1), c1’s committed-but-unprocessed records are never processed (case 2).',
      until: {
        label: 'the new owners read past the crash',
        met: (w) =>
          (card(w, 'c4')?.observed.redelivered ?? 0) >= (card(w, 'c4')?.redelivered ?? 1) &&
          (card(w, 'c1')?.observed.skipped ?? 0) >= (card(w, 'c1')?.skipped ?? 1),
      },
      observe: (w) => ({
        duplicates: card(w, 'c4')?.observed.redelivered ?? 0,
        losses: card(w, 'c1')?.observed.skipped ?? 0,
      }),
    },
  ],
});
