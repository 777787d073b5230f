import { teachingMoments } from '../cluster/teachingMoments';
import { useBoard } from '../store';

/**
 * Why the group's __consumer_offsets partition holds its writes, in the words its leader's chip
 * uses (teachingMoments.ts): the coordinator answers a commit, and a SyncGroup's assignment, only
 * once every ISR member has the record (acks=all), so an in-sync follower that stopped fetching
 * holds them until it catches up or leaves the ISR.
 */
export function OffsetsWriteStall({ groupId }: { groupId: string }) {
  const text = useBoard((s) => {
    const view = s.view;
    const g = view?.groups.find((x) => x.groupId === groupId);
    if (!view || !g || g.coordinator === null) return '';
    const topic = view.topics.find((t) => t.name === '__consumer_offsets');
    const p = topic?.partitions.find((x) => x.partition === g.offsetsPartition);
    if (!topic || !p) return '';
    return teachingMoments(p, topic.minInsyncReplicas, null, view.nowMs)
      .map((m) => m.text)
      .join('; ');
  });
  const partition = useBoard((s) => s.view?.groups.find((x) => x.groupId === groupId)?.offsetsPartition);
  if (text === '') return null;
  return (
    <p className="hw-stall small" data-testid={`group-offsets-stall-${groupId}`}>
      __consumer_offsets-{partition}: {text} (commits and assignments are answered once the ISR has them)
    </p>
  );
}
