import { group, groupStable } from '../facts';
import type { LessonWorld } from '../types';
import { after } from './posts';
import { DEMO, lesson } from './scenarios';

const GROUP = 'audit';
const CARD = { kind: 'group', group: GROUP } as const;

function states(w: LessonWorld): string[] {
  return (group(w, GROUP)?.generations ?? []).map((g) => `gen ${g.generation}`);
}

/** The group coordinator, JoinGroup/SyncGroup and the group's states. */
export const groupCoordinator = lesson(DEMO, 'group-coordinator', 'groups', {
  title: 'The coordinator and the group state machine',
  source: after('architecture', 'the group coordinator and rebalance'),
  steps: [
    {
      text: 'A new group audit was added, with no members yet. A group’s coordinator is the broker leading one partition of __consumer_offsets, the one the group’s offsets are written to.',
      look: CARD,
      actions: [{ op: 'addGroup', group: GROUP, assignor: 'range' }],
      until: { label: 'audit exists (Empty)', met: (w) => group(w, GROUP)?.state === 'Empty' },
    },
    {
      text: 'Consumer a1 joined: the group goes Empty → PreparingRebalance (JoinGroup; the first join waits group.initial.rebalance.delay.ms for others) → CompletingRebalance (the leader’s SyncGroup brings the assignment) → Stable, generation 1.',
      look: CARD,
      actions: [{ op: 'addConsumer', group: GROUP, name: 'a1' }],
      question: {
        prompt:
          'Group audit gets its first consumer, a1, next: a1 asks for audit’s coordinator (FindCoordinator). Which __consumer_offsets partition (of 50) will hold audit’s offsets, and so choose that coordinator?',
        choices: ['5', '17', '32', '49'],
        answer: (w) => String(group(w, GROUP)?.offsetsPartition ?? ''),
        // Kafka's GroupMetadataManager.partitionFor: Utils.abs(groupId.hashCode) % offsets.topic.num.partitions.
        because: (w) => {
          const p = group(w, GROUP)?.offsetsPartition;
          const leader = w.view.topics
            .find((t) => t.name === '__consumer_offsets')
            ?.partitions.find((x) => x.partition === p)?.leader;
          return `abs("audit".hashCode()) % offsets.topic.num.partitions (50) = ${p ?? '?'} (Kafka’s GroupMetadataManager.partitionFor); the leader of __consumer_offsets-${p ?? '?'}, broker ${leader ?? '?'}, is audit’s coordinator.`;
        },
      },
      until: { label: 'audit is Stable', met: (w) => groupStable(w, GROUP) },
      slow: true,
      observe: (w) => {
        const g = group(w, GROUP);
        const offsets = w.view.topics.find((t) => t.name === '__consumer_offsets');
        return {
          offsetsPartition: g?.offsetsPartition ?? null,
          coordinator: offsets?.partitions.find((p) => p.partition === g?.offsetsPartition)?.leader ?? null,
          state: g?.state ?? null,
          generations: states(w),
        };
      },
    },
    {
      text: 'Consumer a2 joined: the coordinator moves the group back to PreparingRebalance, every member rejoins, and generation 2 splits orders’ partitions between a1 and a2.',
      look: CARD,
      actions: [{ op: 'addConsumer', group: GROUP, name: 'a2' }],
      until: {
        label: 'audit is Stable at generation 2',
        met: (w) => groupStable(w, GROUP) && (group(w, GROUP)?.generation ?? 0) >= 2,
      },
      observe: (w) => ({
        generation: group(w, GROUP)?.generation ?? null,
        members: (group(w, GROUP)?.members ?? []).map((m) => `${m.name}:${m.partitions.length}`),
      }),
    },
  ],
});
