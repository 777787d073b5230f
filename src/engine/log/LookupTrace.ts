import type { RecordBatchHeader } from '../codec';

/**
 * The steps of an offset (or timestamp) lookup, as data. The UI animates a lookup by walking
 * these steps in order, so each one names what was read and compared and carries a one-sentence
 * `explanation` a newcomer can follow without knowing the code.
 *
 * A lookup is Kafka's read path (UnifiedLog.read -> LogSegments.floorSegment ->
 * LogSegment.translateOffset -> OffsetIndex.lookup -> FileRecords.searchForOffsetWithSize):
 *  1. floor search over the segments' base offsets (the file names) for the last one <= target;
 *  2. binary search in that segment's sparse `.index` for the largest entry <= target;
 *  3. a forward scan of the `.log` from that entry's byte position, reading only batch headers,
 *     until a batch whose last offset is >= target;
 *  4. the record itself, read from that batch.
 */

/** Which index file a probe read. */
export type IndexFileKind = '.index' | '.timeindex';

/** One index entry as shown in a trace (absolute offset = segment base offset + relative offset). */
export interface OffsetIndexEntryInfo {
  slot: number;
  relativeOffset: number;
  offset: number;
  position: number;
}

export interface TimeIndexEntryInfo {
  slot: number;
  timestamp: number;
  relativeOffset: number;
  offset: number;
}

export type Comparison = 'less' | 'equal' | 'greater';

export type LookupStep =
  | {
      kind: 'range-check';
      target: number;
      logStartOffset: number;
      logEndOffset: number;
      inRange: boolean;
      explanation: string;
    }
  | {
      /** One comparison of the floor (binary) search over segment base offsets. */
      kind: 'segment-probe';
      lo: number;
      hi: number;
      mid: number;
      baseOffset: number;
      fileName: string;
      /** How the segment's base offset compares with the target. */
      comparison: Comparison;
      explanation: string;
    }
  | {
      /** lookupByTimestamp walks segments in order, skipping those whose largest timestamp is too old. */
      kind: 'segment-timestamp-check';
      baseOffset: number;
      fileName: string;
      largestTimestamp: number;
      targetTimestamp: number;
      skipped: boolean;
      explanation: string;
    }
  | { kind: 'segment-chosen'; baseOffset: number; fileName: string; explanation: string }
  | {
      /** Kafka first checks the "warm" tail of the index (the last 8 KiB), which the OS keeps in cache. */
      kind: 'index-warm-check';
      file: IndexFileKind;
      entries: number;
      firstWarmSlot: number;
      entry: OffsetIndexEntryInfo | TimeIndexEntryInfo | null;
      target: number;
      comparison: Comparison | null;
      searchFrom: number;
      searchTo: number;
      explanation: string;
    }
  | {
      /** One probe of the binary search inside an index file. */
      kind: 'index-probe';
      file: IndexFileKind;
      lo: number;
      hi: number;
      slot: number;
      entry: OffsetIndexEntryInfo | TimeIndexEntryInfo;
      target: number;
      comparison: Comparison;
      explanation: string;
    }
  | {
      /** The entry the search settled on, or none (then the scan starts at byte 0 / the base offset). */
      kind: 'index-result';
      file: IndexFileKind;
      slot: number;
      entry: OffsetIndexEntryInfo | TimeIndexEntryInfo | null;
      explanation: string;
    }
  | {
      /** A batch header read during the forward scan of the `.log`. */
      kind: 'batch-header';
      position: number;
      baseOffset: number;
      lastOffset: number;
      sizeInBytes: number;
      maxTimestamp: number;
      recordCount: number;
      /**
       * Whether this batch holds the answer (the scan stops here). After compaction a batch can
       * reach the offset yet hold no record at or after it: it then appears a second time, with
       * match false, and the scan goes on.
       */
      match: boolean;
      explanation: string;
    }
  | {
      kind: 'record-found';
      offset: number;
      timestamp: number;
      position: number;
      exact: boolean;
      explanation: string;
    }
  | { kind: 'not-found'; explanation: string };

export type LookupStepKind = LookupStep['kind'];

/** Three-way comparison of two numbers, in the trace's vocabulary. */
export function compare(a: number, b: number): Comparison {
  return a < b ? 'less' : a > b ? 'greater' : 'equal';
}

/** The step of a batch header read at `position` during a forward scan of the `.log`. */
export function batchHeaderStep(
  position: number,
  header: RecordBatchHeader,
  match: boolean,
  explanation: string,
): Extract<LookupStep, { kind: 'batch-header' }> {
  return {
    kind: 'batch-header',
    position,
    baseOffset: header.baseOffset,
    lastOffset: header.lastOffset,
    sizeInBytes: header.sizeInBytes,
    maxTimestamp: header.maxTimestamp,
    recordCount: header.recordCount,
    match,
    explanation,
  };
}
