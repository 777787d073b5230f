import { KafkaError } from '../errors';

/** One line of the leader-epoch-checkpoint: the first offset written in a leader epoch. */
export interface EpochEntry {
  epoch: number;
  startOffset: number;
}

/** Kafka's UNDEFINED_EPOCH / UNDEFINED_EPOCH_OFFSET. */
export const UNDEFINED_EPOCH = -1;
export const UNDEFINED_EPOCH_OFFSET = -1;

/**
 * Leader epoch -> start offset, the partition's `leader-epoch-checkpoint` (Kafka's
 * LeaderEpochFileCache, KIP-101). A follower coming back asks the leader for the end offset of
 * its latest epoch (`endOffsetFor`) and truncates to it, instead of trusting its high watermark —
 * which is what stops the log divergence KIP-101 describes.
 *
 * File format (Kafka's CheckpointFile): version line `0`, a line with the entry count, then one
 * `<epoch> <startOffset>` line per entry, e.g. "0\n1\n0 0\n".
 *
 * Invariant: epochs and start offsets both strictly increase down the list.
 */
export class LeaderEpochFileCache {
  private epochs: EpochEntry[] = [];

  constructor(entries: readonly EpochEntry[] = []) {
    for (const e of entries) this.assign(e.epoch, e.startOffset);
  }

  get entries(): readonly EpochEntry[] {
    return this.epochs;
  }

  get latestEpoch(): number | null {
    return this.epochs.length === 0 ? null : (this.epochs[this.epochs.length - 1] as EpochEntry).epoch;
  }

  get earliestEntry(): EpochEntry | null {
    return this.epochs[0] ?? null;
  }

  /**
   * Records that `epoch` starts at `startOffset`. Ignored when it restates the latest entry;
   * entries it contradicts (an epoch >= it, or a start offset >= it) are removed first, as in Kafka.
   * Returns whether the cache changed.
   */
  assign(epoch: number, startOffset: number): boolean {
    if (epoch < 0) return false;
    const latest = this.epochs[this.epochs.length - 1];
    if (latest && latest.epoch === epoch && startOffset >= latest.startOffset) return false;
    this.epochs = this.epochs.filter((e) => e.epoch < epoch && e.startOffset < startOffset);
    this.epochs.push({ epoch, startOffset });
    return true;
  }

  /**
   * Kafka's endOffsetFor(requestedEpoch, logEndOffset): the largest epoch <= requested and the
   * offset where the next epoch starts (or the log end offset for the latest epoch).
   */
  endOffsetFor(requestedEpoch: number, logEndOffset: number): { epoch: number; endOffset: number } {
    const undefinedResult = { epoch: UNDEFINED_EPOCH, endOffset: UNDEFINED_EPOCH_OFFSET };
    if (requestedEpoch === UNDEFINED_EPOCH) return undefinedResult;
    if (this.latestEpoch === requestedEpoch) return { epoch: requestedEpoch, endOffset: logEndOffset };
    const higher = this.epochs.find((e) => e.epoch > requestedEpoch);
    if (!higher) return undefinedResult;
    let floor: EpochEntry | undefined;
    for (const e of this.epochs) if (e.epoch <= requestedEpoch) floor = e;
    if (!floor) return { epoch: requestedEpoch, endOffset: higher.startOffset };
    return { epoch: floor.epoch, endOffset: higher.startOffset };
  }

  /** Removes entries starting at or after `endOffset` (after the log is truncated to it). */
  truncateFromEnd(endOffset: number): boolean {
    if (endOffset < 0) return false; // UNDEFINED_EPOCH_OFFSET: nothing to cut
    const before = this.epochs.length;
    this.epochs = this.epochs.filter((e) => e.startOffset < endOffset);
    return this.epochs.length !== before;
  }

  /**
   * After the log start moves to `startOffset`: drops entries that start at or before it, keeping
   * the last of them re-based to `startOffset` (its epoch is still the one in force there).
   */
  truncateFromStart(startOffset: number): boolean {
    if (startOffset < 0) return false;
    let lastRemoved: EpochEntry | undefined;
    const kept: EpochEntry[] = [];
    for (const e of this.epochs) {
      if (e.startOffset <= startOffset) lastRemoved = e;
      else kept.push(e);
    }
    if (!lastRemoved) return false;
    const changed = !(lastRemoved.startOffset === startOffset && kept.length === this.epochs.length - 1);
    this.epochs = [{ epoch: lastRemoved.epoch, startOffset }, ...kept];
    return changed;
  }

  /** The epoch in force at `offset` (the latest entry starting at or before it), or null. */
  epochForOffset(offset: number): number | null {
    let epoch: number | null = null;
    for (const e of this.epochs) if (e.startOffset <= offset) epoch = e.epoch;
    return epoch;
  }

  clear(): void {
    this.epochs = [];
  }

  /** The checkpoint file's text. */
  serialize(): string {
    return `0\n${this.epochs.length}\n${this.epochs.map((e) => `${e.epoch} ${e.startOffset}\n`).join('')}`;
  }

  /** Parses a checkpoint file (throws KAFKA_STORAGE_ERROR when malformed, as Kafka does). */
  static parse(text: string): LeaderEpochFileCache {
    const lines = text.split('\n').filter((l) => l.length > 0);
    const bad = (why: string) =>
      new KafkaError('KAFKA_STORAGE_ERROR', `malformed leader-epoch-checkpoint: ${why}`, { text });
    if (lines[0] !== '0') throw bad(`unrecognized version ${JSON.stringify(lines[0])}`);
    const count = Number(lines[1]);
    if (!Number.isInteger(count) || count < 0 || lines.length !== count + 2) throw bad('entry count does not match');
    const entries: EpochEntry[] = [];
    for (const line of lines.slice(2)) {
      const m = /^(\d+) (\d+)$/.exec(line);
      if (!m) throw bad(`bad line ${JSON.stringify(line)}`);
      entries.push({ epoch: Number(m[1]), startOffset: Number(m[2]) });
    }
    return new LeaderEpochFileCache(entries);
  }
}
