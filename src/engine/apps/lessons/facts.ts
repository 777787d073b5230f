/** Small readers over a LessonWorld that several lessons share. */
import type { PartitionView } from '../../index';
import type { BoardGroupView, BoardPartitionView } from '../types';
import type { LessonStep, LessonWorld } from './types';

export function partitionState(w: LessonWorld, topic: string, partition: number): BoardPartitionView | undefined {
  return w.view.topics.find((t) => t.name === topic)?.partitions.find((p) => p.partition === partition);
}

export function partitionLog(w: LessonWorld, topic: string, partition: number): PartitionView | undefined {
  return w.logs.find((l) => l.topic === topic && l.partition === partition);
}

export function group(w: LessonWorld, id: string): BoardGroupView | undefined {
  return w.view.groups.find((g) => g.groupId === id);
}

export function groupStable(w: LessonWorld, id: string): boolean {
  return group(w, id)?.state === 'Stable';
}

/** Each assigned replica's log end offset, in replica order: who has what the leader wrote. */
export function replicaLogEndOffsets(w: LessonWorld, topic: string, partition: number): number[] {
  return (partitionState(w, topic, partition)?.replicaStates ?? []).map((r) => r.logEndOffset);
}

/** Every partition of the topic has every assigned replica in its ISR. */
export function fullyInSync(w: LessonWorld, topic: string): boolean {
  const t = w.view.topics.find((x) => x.name === topic);
  return !!t && t.partitions.every((p) => p.isr.length === p.replicas.length && !p.offline);
}

/** Records in a topic's logs (sum of log end offsets). */
export function topicEnd(w: LessonWorld, topic: string): number {
  return w.logs.filter((l) => l.topic === topic).reduce((n, l) => n + l.logEndOffset, 0);
}

/** The 20-digit zero-padded name Kafka gives a segment's files. */
export function segmentName(baseOffset: number): string {
  return String(baseOffset).padStart(20, '0');
}

export function elapsed(w: LessonWorld, startedAtMs: number, ms: number): boolean {
  return w.view.nowMs >= startedAtMs + ms;
}

/**
 * The group completed a generation after `sinceMs` with `members` members and is Stable: a
 * restart of its applications first completes a generation with fewer (the members leaving).
 */
export function rebalancedSince(w: LessonWorld, id: string, sinceMs: number, members: number): boolean {
  const g = group(w, id);
  return (
    !!g &&
    g.state === 'Stable' &&
    g.members.length === members &&
    g.generations.some((x) => x.atMs > sinceMs && Object.keys(x.assignment).length === members)
  );
}

/** A step's wait: the partition's log holds at least `records` records. */
export function recordsIn(topic: string, partition: number, records: number): NonNullable<LessonStep['until']> {
  return {
    label: `${records} records are in ${topic}-${partition}`,
    met: (w) => (partitionLog(w, topic, partition)?.logEndOffset ?? 0) >= records,
  };
}

/** A step's observation: the base offsets of the partition's segments. */
export function segmentBases(w: LessonWorld, topic: string, partition: number): number[] {
  return (partitionLog(w, topic, partition)?.segments ?? []).map((s) => s.baseOffset);
}

/** A step's wait: the partition's high watermark reached `offset`. */
export function highWatermarkReaches(
  topic: string,
  partition: number,
  offset: number,
): NonNullable<LessonStep['until']> {
  return {
    label: `the HW reached ${offset}`,
    met: (w) => (partitionState(w, topic, partition)?.committed ?? 0) >= offset,
  };
}

/** A step's wait: `broker` is in the partition's ISR again. */
export function backInIsr(topic: string, partition: number, broker: number): NonNullable<LessonStep['until']> {
  return {
    label: `broker ${broker} is back in the ISR`,
    met: (w) => partitionState(w, topic, partition)?.isr.includes(broker) ?? false,
  };
}
