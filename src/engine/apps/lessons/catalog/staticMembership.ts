import { group, rebalancedSince } from '../facts';
import type { LessonWorld } from '../types';
import { after } from './posts';
import { DEMO, lesson } from './scenarios';

const GROUP = 'billing';
const CARD = { kind: 'group', group: GROUP } as const;

function consumer(w: LessonWorld, name: string) {
  return w.view.consumers.find((c) => c.name === name);
}

/** Static membership (KIP-345): a member that comes back under its group.instance.id within session.timeout.ms causes no rebalance. */
export const staticMembership = lesson(DEMO, 'static-membership', 'groups', {
  title: 'Static membership: a restart without a rebalance',
  source: after('architecture', 'rebalances on membership change; Kafka’s KIP-345 group.instance.id'),
  steps: [
    {
      text: 'billing’s consumers restarted with group.instance.id set to their names (c1, c2, c3): they are static members now. A static member sends no LeaveGroup when it closes; the coordinator keeps its place for session.timeout.ms (10 s).',
      look: CARD,
      actions: [{ op: 'setStaticMembership', group: GROUP, enabled: true }],
      until: { label: 'billing is Stable with 3 static members', met: (w, t) => rebalancedSince(w, GROUP, t, 3) },
      slow: true,
      observe: (w) => ({
        generation: group(w, GROUP)?.generation ?? null,
        members: group(w, GROUP)?.members.length ?? 0,
      }),
    },
    {
      text: 'c2’s process died (no LeaveGroup, no heartbeats). The coordinator does nothing yet: the session has 10 s to run, and the clock is paused here.',
      look: CARD,
      actions: [{ op: 'crashConsumer', name: 'c2' }],
      until: { label: 'c2 is down', met: (w) => consumer(w, 'c2')?.lifecycle === 'crashed' },
      // Held: waiting longer than session.timeout.ms here would expire c2 and rebalance after all.
      hold: true,
    },
    {
      text: 'c2 restarted under group.instance.id c2: the coordinator hands the static member’s place (and its partitions) to the new member id without a rebalance.',
      look: { ...CARD, member: 'c2' },
      actions: [{ op: 'moveConsumer', name: 'c2', group: GROUP }],
      question: {
        prompt:
          'c2 comes back next under the same group.instance.id, within the session timeout. Will billing rebalance?',
        choices: ['yes, a new generation', 'no, same generation'],
        answer: (w, t) =>
          (group(w, GROUP)?.generations ?? []).some((g) => g.atMs > t)
            ? 'yes, a new generation'
            : 'no, same generation',
        because: (w) =>
          `the coordinator still holds c2’s static member (its session has not expired), so a JoinGroup under group.instance.id c2 takes that place and its assignment back: billing stays at generation ${group(w, GROUP)?.generation ?? '?'}.`,
      },
      until: {
        label: 'c2 owns its partitions again',
        met: (w) => consumer(w, 'c2')?.lifecycle === 'running' && (consumer(w, 'c2')?.partitions.length ?? 0) > 0,
      },
      slow: true,
      observe: (w) => ({
        generation: group(w, GROUP)?.generation ?? null,
        c2: (consumer(w, 'c2')?.partitions ?? []).join(', '),
      }),
    },
  ],
});
