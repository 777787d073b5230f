import type { RecordBatchHeader } from '../codec';
import { NO_TIMESTAMP, validateBatchCrc } from '../codec';
import { CorruptRecordError, isKafkaError } from '../errors';
import type { FileRecords } from './FileRecords';
import type { LeaderEpochFileCache } from './LeaderEpochFileCache';
import type { OffsetIndex } from './OffsetIndex';
import type { TimeIndex } from './TimeIndex';

const INT32_MAX = 2147483647;

/** What recovering one segment found and did (LogSegment.recover). */
export interface SegmentRecoveryResult {
  batchesValidated: number;
  recordsValidated: number;
  validBytes: number;
  bytesTruncated: number;
  /** Why the tail was cut (torn batch, CRC mismatch...), or null for a clean segment. */
  truncationReason: string | null;
  truncatedAtPosition: number | null;
}

/** What the scan of LogSegment.recover found: the valid prefix of the `.log` and its state. */
export interface RecoveredBatches {
  validBytes: number;
  nextOffset: number;
  maxTimestamp: number;
  offsetOfMaxTimestamp: number;
  /** The first batch's max timestamp (segment.ms rolls from it), null for an empty segment. */
  rollingBasedTimestamp: number | null;
  batches: number;
  records: number;
  /** Why the scan stopped before the end of the file, null if it did not. */
  reason: string | null;
}

/**
 * The loop of Kafka's LogSegment.recover: validates every batch of `log` (length, magic, CRC,
 * offsets in range and increasing) up to the first bad or torn one, appending the index entries
 * (into the emptied `offsetIndex` and `timeIndex`) every index.interval.bytes, and assigning
 * the leader epochs found to `epochCache` as Kafka does. The caller truncates the file.
 */
export function recoverBatches(
  log: FileRecords,
  baseOffset: number,
  indexIntervalBytes: number,
  offsetIndex: OffsetIndex,
  timeIndex: TimeIndex,
  epochCache?: LeaderEpochFileCache,
): RecoveredBatches {
  const size = log.sizeInBytes;
  const bytes = log.view();
  let nextOffset = baseOffset;
  let maxTimestamp = NO_TIMESTAMP;
  let offsetOfMaxTimestamp = -1;
  let rollingBasedTimestamp: number | null = null;
  let validBytes = 0;
  // Kafka's recover counts the bytes since the last index entry in a local (lastIndexEntry).
  let lastIndexEntry = 0;
  let batches = 0;
  let records = 0;
  let reason: string | null = null;
  while (validBytes < size) {
    let header: RecordBatchHeader;
    try {
      header = log.header(validBytes);
      if (header.magic !== 2) throw new CorruptRecordError(`magic ${header.magic} is not 2`);
      if (validBytes + header.sizeInBytes > size) {
        throw new CorruptRecordError(
          `torn batch: it needs ${header.sizeInBytes} bytes but only ${size - validBytes} remain`,
        );
      }
      if (!validateBatchCrc(bytes, header)) {
        throw new CorruptRecordError(`CRC mismatch: stored crc ${header.crc} does not match the batch content`);
      }
      if (header.baseOffset < nextOffset || header.lastOffset < header.baseOffset) {
        throw new CorruptRecordError(
          `offsets ${header.baseOffset}..${header.lastOffset} do not follow the previous batch (next offset ${nextOffset})`,
        );
      }
      if (header.lastOffset - baseOffset > INT32_MAX) {
        throw new CorruptRecordError(`offset ${header.lastOffset} is out of range for segment ${baseOffset}`);
      }
    } catch (e) {
      if (!isKafkaError(e, 'CORRUPT_MESSAGE') && !isKafkaError(e, 'INVALID_RECORD')) throw e;
      reason = `${e.message.replace(/^CORRUPT_MESSAGE: |^INVALID_RECORD: /, '')} (at byte ${validBytes})`;
      break;
    }
    if (validBytes === 0) rollingBasedTimestamp = header.maxTimestamp;
    if (header.maxTimestamp > maxTimestamp) {
      maxTimestamp = header.maxTimestamp;
      offsetOfMaxTimestamp = header.lastOffset;
    }
    if (validBytes - lastIndexEntry > indexIntervalBytes) {
      if (!offsetIndex.isFull()) offsetIndex.append(header.lastOffset, validBytes);
      if (!timeIndex.isFull()) timeIndex.maybeAppend(maxTimestamp, offsetOfMaxTimestamp);
      lastIndexEntry = validBytes;
    }
    if (epochCache && header.partitionLeaderEpoch >= 0) {
      const latest = epochCache.latestEpoch;
      if (latest === null || header.partitionLeaderEpoch > latest) {
        epochCache.assign(header.partitionLeaderEpoch, header.baseOffset);
      }
    }
    nextOffset = header.lastOffset + 1;
    validBytes += header.sizeInBytes;
    batches++;
    records += header.recordCount;
  }
  return {
    validBytes,
    nextOffset,
    maxTimestamp,
    offsetOfMaxTimestamp,
    rollingBasedTimestamp,
    batches,
    records,
    reason,
  };
}
