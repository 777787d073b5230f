/**
 * A segment's aborted transaction index, `<baseOffset>.txnindex` (Kafka's TransactionIndex): the
 * transactions whose ABORT marker was written in this segment, in marker order, as 34-byte
 * AbortedTxn entries. A READ_COMMITTED fetch collects the entries overlapping its range from this
 * segment on (a transaction may start segments earlier); recovery rebuilds the file by scanning.
 *
 * The file's bytes are held here as Kafka holds its FileChannel: appended to, truncated, read from
 * the start. Kafka creates the file only on the first append, so an index with no entries has no
 * file (`exists`). Not yet wired into the log: nothing writes or reads a `.txnindex` today.
 */
import { IllegalArgumentException, KafkaError } from '../errors';
import { filenamePrefixFromOffset } from './LogFileUtils';
import {
  ABORTED_TXN_CURRENT_VERSION,
  ABORTED_TXN_TOTAL_SIZE,
  type AbortedTxn,
  encodeAbortedTxn,
  readAbortedTxn,
} from './AbortedTxn';

export const TXN_INDEX_FILE_SUFFIX = '.txnindex';

export function txnIndexFileName(baseOffset: number): string {
  return filenamePrefixFromOffset(baseOffset) + TXN_INDEX_FILE_SUFFIX;
}

/** Kafka's CorruptIndexException: the log rebuilds an index that fails its sanity check. */
export class CorruptIndexException extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CorruptIndexException';
  }
}

/** Kafka's TxnIndexSearchResult: whether the search may stop at this segment (`isComplete`). */
export interface TxnIndexSearchResult {
  readonly abortedTransactions: AbortedTxn[];
  readonly isComplete: boolean;
}

export class TransactionIndex {
  readonly startOffset: number;
  private bytes: Uint8Array;
  private size: number;
  private fileExists: boolean;
  /** The last entry's lastOffset appended since this index was opened (Kafka does not read it back on open). */
  private lastOffset: number | null = null;

  /** An index over the stored file's bytes, or none yet (null). */
  constructor(startOffset: number, stored: Uint8Array | null = null) {
    this.startOffset = startOffset;
    this.fileExists = stored !== null;
    this.bytes = stored ? stored.slice() : new Uint8Array(0);
    this.size = this.bytes.length;
  }

  get fileName(): string {
    return txnIndexFileName(this.startOffset);
  }

  /** Whether Kafka would have the file on disk: after an append or when it was opened from one. */
  get exists(): boolean {
    return this.fileExists;
  }

  get sizeInBytes(): number {
    return this.size;
  }

  /** The file's bytes, as the Store keeps them. */
  toBytes(): Uint8Array {
    return this.bytes.slice(0, this.size);
  }

  /** Appends an aborted transaction; lastOffsets must increase (IllegalArgumentException otherwise). */
  append(txn: AbortedTxn): void {
    if (this.lastOffset !== null && this.lastOffset >= txn.lastOffset) {
      throw new IllegalArgumentException(
        `The last offset of appended transactions must increase sequentially, but ${txn.lastOffset} is not greater ` +
          `than current last offset ${this.lastOffset} of index ${this.fileName}`,
      );
    }
    this.lastOffset = txn.lastOffset;
    const entry = encodeAbortedTxn(txn);
    if (this.size + entry.length > this.bytes.length) {
      const grown = new Uint8Array(Math.max(this.size + entry.length, this.bytes.length * 2));
      grown.set(this.bytes.subarray(0, this.size));
      this.bytes = grown;
    }
    this.bytes.set(entry, this.size);
    this.size += entry.length;
    this.fileExists = true;
  }

  /** Removes every entry (the file stays, empty). */
  reset(): void {
    this.size = 0;
    this.lastOffset = null;
  }

  /** Drops the entries whose marker is at or after `offset` (the log truncated past them). */
  truncateTo(offset: number): void {
    let newLastOffset: number | null = null;
    for (const { txn, position } of this.entries()) {
      if (txn.lastOffset >= offset) {
        this.size = position;
        this.lastOffset = newLastOffset;
        return;
      }
      newLastOffset = txn.lastOffset;
    }
  }

  allAbortedTxns(): AbortedTxn[] {
    return [...this.entries()].map((e) => e.txn);
  }

  /**
   * The aborted transactions overlapping [fetchOffset, upperBoundOffset): their marker at or after
   * fetchOffset and their first offset before the bound. Complete once an entry's LSO reaches the
   * bound: any transaction aborted later started at or after that LSO, so past the fetch range.
   */
  collectAbortedTxns(fetchOffset: number, upperBoundOffset: number): TxnIndexSearchResult {
    const abortedTransactions: AbortedTxn[] = [];
    for (const { txn } of this.entries()) {
      if (txn.lastOffset >= fetchOffset && txn.firstOffset < upperBoundOffset) abortedTransactions.push(txn);
      if (txn.lastStableOffset >= upperBoundOffset) return { abortedTransactions, isComplete: true };
    }
    return { abortedTransactions, isComplete: false };
  }

  /** Every marker must lie in this segment or later: an entry before the start offset is corrupt. */
  sanityCheck(): void {
    for (const { txn } of this.entries()) {
      if (txn.lastOffset < this.startOffset) {
        throw new CorruptIndexException(
          `Last offset of aborted transaction ${abortedTxnToString(txn)} in index ${this.fileName} is less than start offset ${this.startOffset}`,
        );
      }
    }
  }

  /** The whole entries from the start; a trailing partial entry is not read, as Kafka's iterator. */
  private *entries(): Generator<{ txn: AbortedTxn; position: number }> {
    for (let position = 0; this.size - position >= ABORTED_TXN_TOTAL_SIZE; position += ABORTED_TXN_TOTAL_SIZE) {
      const txn = readAbortedTxn(this.bytes, position);
      if (txn.version > ABORTED_TXN_CURRENT_VERSION) {
        // Kafka's KafkaException here reaches a fetching consumer as UNKNOWN_SERVER_ERROR (it retries).
        throw new KafkaError(
          'UNKNOWN_SERVER_ERROR',
          `Unexpected aborted transaction version ${txn.version} in transaction index ${this.fileName}, ` +
            `current version is ${ABORTED_TXN_CURRENT_VERSION}`,
        );
      }
      yield { txn, position };
    }
  }
}

/** AbortedTxn.toString. */
function abortedTxnToString(txn: AbortedTxn): string {
  return (
    `AbortedTxn(version=${txn.version}, producerId=${txn.producerId}, firstOffset=${txn.firstOffset}, ` +
    `lastOffset=${txn.lastOffset}, lastStableOffset=${txn.lastStableOffset})`
  );
}

/** What kafka-dump-log.sh prints for a `.txnindex` file (DumpLogSegments.dumpTxnIndex), one line per entry. */
export function dumpTxnIndex(index: TransactionIndex): string[] {
  return index
    .allAbortedTxns()
    .map(
      (t) =>
        `version: ${t.version} producerId: ${t.producerId} firstOffset: ${t.firstOffset} ` +
        `lastOffset: ${t.lastOffset} lastStableOffset: ${t.lastStableOffset}`,
    );
}

/** A segment's base offset and its aborted transaction index. */
export interface SegmentTxnIndex {
  readonly baseOffset: number;
  readonly txnIndex: TransactionIndex;
}

/**
 * LocalLog.collectAbortedTransactions: the aborted transactions overlapping [startOffset,
 * upperBoundOffset), read from the segment at `startingSegmentBaseOffset` on (segments in base
 * offset order) until a segment's search is complete. What a READ_COMMITTED fetch answers.
 */
export function collectAbortedTransactions(
  segments: readonly SegmentTxnIndex[],
  startingSegmentBaseOffset: number,
  startOffset: number,
  upperBoundOffset: number,
): AbortedTxn[] {
  const out: AbortedTxn[] = [];
  for (const segment of segments) {
    if (segment.baseOffset < startingSegmentBaseOffset) continue;
    const result = segment.txnIndex.collectAbortedTxns(startOffset, upperBoundOffset);
    out.push(...result.abortedTransactions);
    if (result.isComplete) break;
  }
  return out;
}
