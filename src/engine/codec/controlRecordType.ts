/**
 * The key of a control record (Kafka's ControlRecordType): version INT16 (0), type INT16. A control
 * batch (attributes bit 5) holds such records; the log cleaner never compacts them by key, and
 * consumers never hand them to the application.
 *
 * Types 0 and 1 end a transaction (EndTransactionMarker); 2-6 are KRaft's own, which a
 * ZooKeeper-mode broker never writes; any other id reads as UNKNOWN (ignored by readers).
 */
import { IllegalArgumentException, KafkaError } from '../errors';

export type ControlRecordType =
  | 'ABORT'
  | 'COMMIT'
  | 'LEADER_CHANGE'
  | 'SNAPSHOT_HEADER'
  | 'SNAPSHOT_FOOTER'
  | 'KRAFT_VERSION'
  | 'KRAFT_VOTERS'
  | 'UNKNOWN';

/** Type ids in id order: ABORT is 0, COMMIT 1. */
const TYPE_IDS: readonly ControlRecordType[] = [
  'ABORT',
  'COMMIT',
  'LEADER_CHANGE',
  'SNAPSHOT_HEADER',
  'SNAPSHOT_FOOTER',
  'KRAFT_VERSION',
  'KRAFT_VOTERS',
];

/** ControlRecordType.CURRENT_CONTROL_RECORD_KEY_VERSION / _SIZE. */
export const CURRENT_CONTROL_RECORD_KEY_VERSION = 0;
export const CURRENT_CONTROL_RECORD_KEY_SIZE = 4;

export function controlRecordTypeId(type: ControlRecordType): number {
  return type === 'UNKNOWN' ? -1 : TYPE_IDS.indexOf(type);
}

export function controlRecordTypeFromId(typeId: number): ControlRecordType {
  return TYPE_IDS[typeId] ?? 'UNKNOWN';
}

/** ControlRecordType.recordKey, serialized: the 4 key bytes of a control record. */
export function controlRecordKey(type: ControlRecordType): Uint8Array {
  if (type === 'UNKNOWN') throw new IllegalArgumentException('Cannot serialize UNKNOWN control record type');
  const key = new Uint8Array(CURRENT_CONTROL_RECORD_KEY_SIZE);
  const view = new DataView(key.buffer);
  view.setInt16(0, CURRENT_CONTROL_RECORD_KEY_VERSION);
  view.setInt16(2, controlRecordTypeId(type));
  return key;
}

/**
 * ControlRecordType.parseTypeId: a short or negative-version key is INVALID_RECORD (Kafka's
 * InvalidRecordException); a newer version is read as version 0, whose fields it must keep.
 */
export function parseControlRecordTypeId(key: Uint8Array | null): number {
  const size = key?.length ?? 0;
  if (key === null || size < CURRENT_CONTROL_RECORD_KEY_SIZE) {
    throw new KafkaError(
      'INVALID_RECORD',
      `Invalid value size found for end control record key. Must have at least ${CURRENT_CONTROL_RECORD_KEY_SIZE} bytes, but found only ${size}`,
    );
  }
  const view = new DataView(key.buffer, key.byteOffset, key.byteLength);
  const version = view.getInt16(0);
  if (version < 0) {
    throw new KafkaError(
      'INVALID_RECORD',
      `Invalid version found for control record: ${version}. May indicate data corruption`,
    );
  }
  return view.getInt16(2);
}

/** ControlRecordType.parse. */
export function parseControlRecordType(key: Uint8Array | null): ControlRecordType {
  return controlRecordTypeFromId(parseControlRecordTypeId(key));
}
