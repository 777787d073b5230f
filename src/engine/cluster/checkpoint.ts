import { tpKey } from '../TopicPartition';

/** The log dir file where the log cleaner checkpoints each compacted log's cleaned offset. */
export const CLEANER_OFFSET_CHECKPOINT_FILENAME = 'cleaner-offset-checkpoint';

/**
 * Kafka's OffsetCheckpointFile (replication-offset-checkpoint, cleaner-offset-checkpoint): a
 * version line `0`, the number of entries, then `<topic> <partition> <offset>` per line
 * (CheckpointFile.write), sorted here so equal contents give equal text.
 */
export function formatOffsetCheckpoint(entries: { topic: string; partition: number; offset: number }[]): string {
  const sorted = [...entries].sort((a, b) =>
    a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : a.partition - b.partition,
  );
  return `0\n${sorted.length}\n${sorted.map((e) => `${e.topic} ${e.partition} ${e.offset}\n`).join('')}`;
}

/** Parses an offset checkpoint file; malformed text gives an empty map (as if missing). */
export function parseOffsetCheckpoint(text: string): Map<string, number> {
  const out = new Map<string, number>();
  const lines = text.split('\n').filter((l) => l.length > 0);
  if (lines[0] !== '0') return out;
  const count = Number(lines[1]);
  if (!Number.isInteger(count) || count !== lines.length - 2) return out;
  for (const line of lines.slice(2)) {
    const m = /^(\S+) (\d+) (\d+)$/.exec(line);
    if (!m) return new Map();
    out.set(tpKey(m[1] as string, Number(m[2])), Number(m[3]));
  }
  return out;
}

export const formatReplicationOffsetCheckpoint = formatOffsetCheckpoint;
export const parseReplicationOffsetCheckpoint = parseOffsetCheckpoint;
