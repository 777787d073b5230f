import { javaStringHashCode } from '../../../index';
import { group, groupStable } from '../facts';
import type { LessonWorld } from '../types';
import { DEMO, lesson } from './scenarios';

const GROUP = 'audit';

function states(w: LessonWorld): string[] {
  return (group(w, GROUP)?.generations ?? []).map((g) => `gen ${g.generation}`);
}

/** seed 000: the group coordinator, JoinGroup/SyncGroup and the group's states. */
export const groupCoordinator = lesson(DEMO, 'group-coordinator', 'groups', {
  title: 'The coordinator and the group state machine',
  source: 'seed 000: group coordinator and rebalance',
  steps: [
    {
      text: 'A new group audit was added. Its coordinator is the leader of __consumer_offsets partition abs(hashCode("audit")) % 50.',
      actions: [{ op: 'addGroup', group: GROUP, assignor: 'range' }],
      until: { label: 'audit exists (Empty)', met: (w) => group(w, GROUP)?.state === 'Empty' },
      question: {
        prompt: 'Which __consumer_offsets partition holds audit’s offsets (and whose leader is its coordinator)?',
        choices: ['5', '17', '32', '49'],
        // Kafka's GroupMetadataManager.partitionFor: Utils.abs(groupId.hashCode) % offsets.topic.num.partitions.
        answer: () => String(Math.abs(javaStringHashCode(GROUP) | 0) % 50),
      },
    },
    {
      text: 'Consumer a1 joined: the group goes Empty → PreparingRebalance (JoinGroup; the first join waits group.initial.rebalance.delay.ms for others) → CompletingRebalance (the leader’s SyncGroup brings the assignment) → Stable, generation 1.',
      actions: [{ op: 'addConsumer', group: GROUP, name: 'a1' }],
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
