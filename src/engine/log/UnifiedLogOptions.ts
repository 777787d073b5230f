import type { Clock } from '../Clock';
import type { LogConfig, LogConfigInput } from './LogConfig';
import type { LogSegment } from './LogSegment';
import type { SegmentCache } from './SegmentCache';
import type { StoreWriter } from './StoreWriter';

/** How a UnifiedLog is created (a new log, or LogLoader's recovered one). */
export interface UnifiedLogOptions {
  /** The partition's directory, `<topic>-<partition>`. */
  dir: string;
  config?: LogConfigInput | LogConfig;
  clock: Clock;
  /** Where flushed bytes go. Omitted: a memory-only log (benchmarks, scratch logs). */
  writer?: StoreWriter;
  /** Base offset of the first segment (default 0). */
  logStartOffset?: number;
  /** The page cache closed segments are paged out of (omitted: every segment stays in memory). */
  cache?: SegmentCache;
  /** Internal (LogLoader): segments already recovered from the Store, in offset order. */
  recoveredSegments?: readonly LogSegment[];
  /** The recovery point of recovered segments (LogLoader's; default: their log end offset). */
  recoveryPoint?: number;
}
