/**
 * One entry of a segment's `.txnindex` (Kafka's AbortedTxn, storage/internals/log): an aborted
 * transaction, 34 big-endian bytes:
 *
 *   offset  size  field
 *        0     2  version           0 (AbortedTxn.CURRENT_VERSION)
 *        2     8  producerId
 *       10     8  firstOffset       the transaction's first offset in this partition
 *       18     8  lastOffset        the offset of its ABORT marker
 *       26     8  lastStableOffset  the partition's LSO once the marker was written
 *
 * A READ_COMMITTED fetch answers `(producerId, firstOffset)` of each aborted transaction in its
 * range, and the consumer drops that producer's records from firstOffset to the marker.
 */
import { ByteReader, ByteWriter } from '../codec/bytes';

export const ABORTED_TXN_VERSION_OFFSET = 0;
export const ABORTED_TXN_PRODUCER_ID_OFFSET = 2;
export const ABORTED_TXN_FIRST_OFFSET_OFFSET = 10;
export const ABORTED_TXN_LAST_OFFSET_OFFSET = 18;
export const ABORTED_TXN_LAST_STABLE_OFFSET_OFFSET = 26;
/** AbortedTxn.TOTAL_SIZE. */
export const ABORTED_TXN_TOTAL_SIZE = 34;
/** AbortedTxn.CURRENT_VERSION. */
export const ABORTED_TXN_CURRENT_VERSION = 0;

export interface AbortedTxn {
  readonly version: number;
  readonly producerId: number;
  readonly firstOffset: number;
  readonly lastOffset: number;
  readonly lastStableOffset: number;
}

/** new AbortedTxn(producerId, firstOffset, lastOffset, lastStableOffset), at the current version. */
export function abortedTxn(
  producerId: number,
  firstOffset: number,
  lastOffset: number,
  lastStableOffset: number,
): AbortedTxn {
  return { version: ABORTED_TXN_CURRENT_VERSION, producerId, firstOffset, lastOffset, lastStableOffset };
}

/** The entry's 34 bytes (AbortedTxn.toByteBuffer); the version is always the current one. */
export function encodeAbortedTxn(txn: AbortedTxn): Uint8Array {
  return new ByteWriter(ABORTED_TXN_TOTAL_SIZE)
    .writeInt16(ABORTED_TXN_CURRENT_VERSION)
    .writeInt64(txn.producerId)
    .writeInt64(txn.firstOffset)
    .writeInt64(txn.lastOffset)
    .writeInt64(txn.lastStableOffset)
    .toBytes();
}

/**
 * The entry at `position` of an index file. As Kafka's AbortedTxn.version(), the version is read as
 * the entry's first byte (`buffer.get`, not `getShort`). An int64 beyond 2^53 cannot be an offset
 * here and is CORRUPT_MESSAGE.
 */
export function readAbortedTxn(bytes: Uint8Array, position: number): AbortedTxn {
  const r = new ByteReader(bytes.subarray(position, position + ABORTED_TXN_TOTAL_SIZE));
  const version = ((bytes[position + ABORTED_TXN_VERSION_OFFSET] as number) << 24) >> 24;
  r.readInt16();
  return {
    version,
    producerId: r.readInt64(),
    firstOffset: r.readInt64(),
    lastOffset: r.readInt64(),
    lastStableOffset: r.readInt64(),
  };
}

/** AbortedTxn.asAbortedTransaction: what a FetchResponse's aborted_transactions carries. */
export function asAbortedTransaction(txn: AbortedTxn): { producerId: number; firstOffset: number } {
  return { producerId: txn.producerId, firstOffset: txn.firstOffset };
}
