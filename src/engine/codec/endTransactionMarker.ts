/**
 * The end-transaction marker (Kafka's EndTransactionMarker) and the control batch that carries it
 * (MemoryRecords.withEndTransactionMarker). The coordinator's WriteTxnMarkers makes each partition
 * leader append one: a RecordBatch v2 with the transactional and control attribute bits, the
 * producer's id and epoch, no sequence, and one record whose key is the control type (COMMIT or
 * ABORT, `controlRecordType.ts`) and whose value is:
 *   version INT16 (0), coordinatorEpoch INT32
 * The batch is 78 bytes: the 61-byte header and a 17-byte record (4-byte key, 6-byte value).
 */
import { IllegalArgumentException, KafkaError } from '../errors';
import { batchAttributes, NO_PRODUCER_ID, NO_SEQUENCE } from './batchLayout';
import { type ControlRecordType, controlRecordKey, parseControlRecordType } from './controlRecordType';
import { encodeRecordBatch } from './recordBatch';

export type EndTransactionMarkerType = 'COMMIT' | 'ABORT';

export interface EndTransactionMarker {
  readonly type: EndTransactionMarkerType;
  readonly coordinatorEpoch: number;
}

const CURRENT_END_TXN_MARKER_VERSION = 0;
/** EndTransactionMarker.CURRENT_END_TXN_MARKER_VALUE_SIZE. */
export const CURRENT_END_TXN_MARKER_VALUE_SIZE = 6;

function ensureTransactionMarkerControlType(type: ControlRecordType): EndTransactionMarkerType {
  if (type !== 'COMMIT' && type !== 'ABORT') {
    throw new IllegalArgumentException(`Invalid control record type for end transaction marker${type}`);
  }
  return type;
}

/** new EndTransactionMarker(type, coordinatorEpoch): only COMMIT and ABORT end a transaction. */
export function endTransactionMarker(type: ControlRecordType, coordinatorEpoch: number): EndTransactionMarker {
  return { type: ensureTransactionMarkerControlType(type), coordinatorEpoch };
}

/** EndTransactionMarker.serializeValue. */
export function serializeEndTxnMarkerValue(marker: EndTransactionMarker): Uint8Array {
  const value = new Uint8Array(CURRENT_END_TXN_MARKER_VALUE_SIZE);
  const view = new DataView(value.buffer);
  view.setInt16(0, CURRENT_END_TXN_MARKER_VERSION);
  view.setInt32(2, marker.coordinatorEpoch);
  return value;
}

/**
 * EndTransactionMarker.deserializeValue: a short value or a negative version is INVALID_RECORD
 * (InvalidRecordException); a newer version is read as version 0 and what follows is ignored.
 */
export function deserializeEndTxnMarkerValue(type: ControlRecordType, value: Uint8Array | null): EndTransactionMarker {
  const markerType = ensureTransactionMarkerControlType(type);
  const size = value?.length ?? 0;
  if (value === null || size < CURRENT_END_TXN_MARKER_VALUE_SIZE) {
    throw new KafkaError(
      'INVALID_RECORD',
      `Invalid value size found for end transaction marker. Must have at least ${CURRENT_END_TXN_MARKER_VALUE_SIZE} bytes, but found only ${size}`,
    );
  }
  const view = new DataView(value.buffer, value.byteOffset, value.byteLength);
  const version = view.getInt16(0);
  if (version < 0) {
    throw new KafkaError(
      'INVALID_RECORD',
      `Invalid version found for end transaction marker: ${version}. May indicate data corruption`,
    );
  }
  return { type: markerType, coordinatorEpoch: view.getInt32(2) };
}

/** EndTransactionMarker.deserialize: the marker a control record holds. */
export function deserializeEndTxnMarker(record: {
  key: Uint8Array | null;
  value: Uint8Array | null;
}): EndTransactionMarker {
  return deserializeEndTxnMarkerValue(parseControlRecordType(record.key), record.value);
}

export interface EndTxnMarkerBatchInput {
  initialOffset: number;
  timestamp: number;
  partitionLeaderEpoch: number;
  producerId: number;
  producerEpoch: number;
  marker: EndTransactionMarker;
}

/**
 * MemoryRecords.withEndTransactionMarker: one control record at offset delta 0, CreateTime, no
 * compression, baseSequence -1 (markers are not sequenced), both timestamps the marker's.
 */
export function withEndTransactionMarker(input: EndTxnMarkerBatchInput): Uint8Array {
  // MemoryRecordsBuilder.appendEndTxnMarker: a marker ends some producer's transaction.
  if (input.producerId === NO_PRODUCER_ID) {
    throw new IllegalArgumentException('End transaction marker requires a valid producerId');
  }
  return encodeRecordBatch({
    baseOffset: input.initialOffset,
    partitionLeaderEpoch: input.partitionLeaderEpoch,
    attributes: batchAttributes({ transactional: true, control: true }),
    lastOffsetDelta: 0,
    baseTimestamp: input.timestamp,
    maxTimestamp: input.timestamp,
    producerId: input.producerId,
    producerEpoch: input.producerEpoch,
    baseSequence: NO_SEQUENCE,
    records: [
      {
        attributes: 0,
        timestampDelta: 0,
        offsetDelta: 0,
        key: controlRecordKey(input.marker.type),
        value: serializeEndTxnMarkerValue(input.marker),
        headers: [],
      },
    ],
  });
}
