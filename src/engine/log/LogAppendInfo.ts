import type { RecordBatchHeader } from '../codec';
import type { RollReason } from './LogSegment';

/** One appended batch, where it landed. */
export interface AppendedBatchInfo {
  baseOffset: number;
  lastOffset: number;
  position: number;
  sizeInBytes: number;
  segmentBaseOffset: number;
}

/** Kafka's LogAppendInfo, trimmed to what glassbox shows. */
export interface LogAppendInfo {
  firstOffset: number;
  lastOffset: number;
  /** Number of records (not batches). */
  numMessages: number;
  validBytes: number;
  maxTimestamp: number;
  offsetOfMaxTimestamp: number;
  batches: AppendedBatchInfo[];
  /**
   * The appended batches' headers as read (and validated) from the records, with the offsets the
   * caller sent (0-based for a leader's append); fresh objects the caller may keep or change.
   */
  headers: RecordBatchHeader[];
  /** Set when this append rolled a new segment first. */
  rolled: { fromBaseOffset: number; toBaseOffset: number; reason: RollReason } | null;
  /** Whether the append triggered a flush (flush.messages / flush.ms). */
  flushed: boolean;
}
