/**
 * The records of `__transaction_state`, byte for byte as Kafka 3.9 writes them (TransactionLog.scala;
 * transaction-coordinator/src/main/resources/common/message/TransactionLog{Key,Value}.json).
 *
 * Key and value are each an int16 version, then the message of that version
 * (MessageUtil.toVersionPrefixedBytes):
 *   TransactionLogKey v0 (not flexible)   transactionalId STRING
 *   TransactionLogValue v0-1 (v1+ flexible: compact strings and arrays, tagged-field sections)
 *     producerId INT64, producerEpoch INT16, transactionTimeoutMs INT32, transactionStatus INT8,
 *     transactionPartitions nullable ARRAY of (topic STRING, partitionIds ARRAY of INT32),
 *     transactionLastUpdateTimestampMs INT64, transactionStartTimestampMs INT64
 * A null value is a tombstone: the transactional id expired.
 *
 * Kafka 3.9 writes value version 1 only once the `transaction.version` feature is finalized above 0
 * (TransactionStateManager.usesFlexibleRecords), which a ZooKeeper-mode cluster never does, so it
 * writes version 0; it reads both.
 *
 * The messages are walked by the wire codec (`wire/wireCodec.ts`): Kafka generates both its
 * protocol messages and these records from the same JSON definitions. As Kafka's readers, the
 * decoders ignore bytes after the last field; whatever the bytes, they throw only
 * CorruptRecordError (CORRUPT_MESSAGE).
 */
import { ByteReader } from '../../codec/bytes';
import { CorruptRecordError, IllegalStateException, KafkaError } from '../../errors';
import { array, field, type MessageSchema, message } from '../../wire/schema';
import { decodeMessage, encodeMessage } from '../../wire/wireCodec';
import { NO_PRODUCER_EPOCH, NO_PRODUCER_ID } from '../../codec/batchLayout';
import { TransactionMetadata, type TxnTopicPartition, type TxnTransitMetadata } from './TransactionMetadata';
import { transactionStateFromId, transactionStateId } from './TransactionState';

/** These are records, not requests: no api key. */
const NO_API_KEY = -1;

export const TransactionLogKeyData = message(NO_API_KEY, 'TransactionLogKey', '0', 'none', [
  field('transactionalId', 'string', '0'),
]);

export const TransactionLogValueData = message(NO_API_KEY, 'TransactionLogValue', '0-1', '1+', [
  field('producerId', 'int64', '0+'),
  field('producerEpoch', 'int16', '0+'),
  field('transactionTimeoutMs', 'int32', '0+'),
  field('transactionStatus', 'int8', '0+'),
  array('transactionPartitions', '0+', [field('topic', 'string', '0+'), array('partitionIds', '0+', 'int32')], {
    nullable: '0+',
  }),
  field('transactionLastUpdateTimestampMs', 'int64', '0+'),
  field('transactionStartTimestampMs', 'int64', '0+'),
]);

/** TransactionLogKey.HIGHEST_SUPPORTED_VERSION. */
const KEY_VERSION = 0;

/** Kafka's TxnKey, or UnknownKey for a version this broker does not know (skipped while loading). */
export type TransactionLogKey =
  | { readonly type: 'TxnKey'; readonly version: number; readonly transactionalId: string }
  | { readonly type: 'UnknownKey'; readonly version: number };

function versionPrefixed(version: number, body: Uint8Array): Uint8Array {
  const out = new Uint8Array(2 + body.length);
  new DataView(out.buffer).setInt16(0, version);
  out.set(body, 2);
  return out;
}

/** TransactionLog.keyToBytes. */
export function keyToBytes(transactionalId: string): Uint8Array {
  return versionPrefixed(KEY_VERSION, encodeMessage(TransactionLogKeyData, KEY_VERSION, { transactionalId }));
}

/**
 * TransactionLog.valueToBytes: the transit's state as a value record. An Empty transaction writes
 * null partitions. Partitions are grouped by topic in the order they joined the transaction (Kafka
 * groups a Scala Set, whose order for more than four entries follows their hash codes).
 */
export function valueToBytes(transit: TxnTransitMetadata, usesFlexibleRecords = false): Uint8Array {
  if (transit.txnState === 'Empty' && transit.topicPartitions.size > 0) {
    throw new IllegalStateException(
      `Transaction is not expected to have any partitions since its state is ${transit.txnState}`,
    );
  }
  let transactionPartitions: { topic: string; partitionIds: number[] }[] | null = null;
  if (transit.txnState !== 'Empty') {
    const byTopic = new Map<string, number[]>();
    for (const tp of transit.topicPartitions.values()) {
      const ids = byTopic.get(tp.topic);
      if (ids) ids.push(tp.partition);
      else byTopic.set(tp.topic, [tp.partition]);
    }
    transactionPartitions = [...byTopic].map(([topic, partitionIds]) => ({ topic, partitionIds }));
  }
  const version = usesFlexibleRecords ? 1 : 0;
  return versionPrefixed(
    version,
    encodeMessage(TransactionLogValueData, version, {
      producerId: transit.producerId,
      producerEpoch: transit.producerEpoch,
      transactionTimeoutMs: transit.txnTimeoutMs,
      transactionStatus: transactionStateId(transit.txnState),
      transactionLastUpdateTimestampMs: transit.txnLastUpdateTimestamp,
      transactionStartTimestampMs: transit.txnStartTimestamp,
      transactionPartitions,
    }),
  );
}

/** The int16 version a record starts with, and the bytes of its message. */
function splitVersion(bytes: Uint8Array, what: string): { version: number; body: Uint8Array } {
  if (bytes.length < 2) throw new CorruptRecordError(`${what}: no version (${bytes.length} bytes)`);
  return { version: new ByteReader(bytes).readInt16(), body: bytes.subarray(2) };
}

/** Decodes a message; anything wrong with its bytes is a corrupt record. */
function decode<S extends MessageSchema>(schema: S, version: number, body: Uint8Array, what: string) {
  try {
    return decodeMessage(schema, version, body);
  } catch (e) {
    if (!(e instanceof KafkaError)) throw e;
    throw new CorruptRecordError(`${what} v${version}: ${e.reason}`, { version });
  }
}

/** TransactionLog.readTxnRecordKey. */
export function readTxnRecordKey(bytes: Uint8Array): TransactionLogKey {
  const what = '__transaction_state key';
  const { version, body } = splitVersion(bytes, what);
  if (version !== KEY_VERSION) return { type: 'UnknownKey', version };
  return {
    type: 'TxnKey',
    version,
    transactionalId: decode(TransactionLogKeyData, version, body, what).transactionalId,
  };
}

/** A decoded TransactionLogValue, fields as the JSON names them. */
export interface TransactionLogValue {
  readonly version: number;
  readonly producerId: number;
  readonly producerEpoch: number;
  readonly transactionTimeoutMs: number;
  readonly transactionStatus: number;
  readonly transactionPartitions:
    | readonly { readonly topic: string; readonly partitionIds: readonly number[] }[]
    | null;
  readonly transactionLastUpdateTimestampMs: number;
  readonly transactionStartTimestampMs: number;
}

/** The value's fields, or CorruptRecordError (an unknown version included: Kafka's IllegalStateException). */
export function decodeTransactionLogValue(bytes: Uint8Array): TransactionLogValue {
  const what = 'TransactionLogValue';
  const { version, body } = splitVersion(bytes, what);
  if (version !== 0 && version !== 1) {
    throw new CorruptRecordError(`Unknown version ${version} from the transaction log message value`, { version });
  }
  return { version, ...decode(TransactionLogValueData, version, body, what) };
}

/**
 * TransactionLog.readTxnRecordValue: the metadata a loading coordinator rebuilds from a value, or
 * null for a tombstone. The last producer id and epoch are not in the record (-1).
 */
export function readTxnRecordValue(transactionalId: string, bytes: Uint8Array | null): TransactionMetadata | null {
  if (bytes === null) return null;
  const value = decodeTransactionLogValue(bytes);
  let state: ReturnType<typeof transactionStateFromId>;
  try {
    state = transactionStateFromId(value.transactionStatus);
  } catch (e) {
    if (!(e instanceof IllegalStateException)) throw e;
    throw new CorruptRecordError(e.message, { transactionStatus: value.transactionStatus });
  }
  const partitions: TxnTopicPartition[] = [];
  if (state !== 'Empty') {
    // Kafka would fail on null partitions outside Empty: the record is not what it claims.
    if (value.transactionPartitions === null) {
      throw new CorruptRecordError(`TransactionLogValue: null partitions in state ${state}`);
    }
    for (const p of value.transactionPartitions)
      for (const partition of p.partitionIds) partitions.push({ topic: p.topic, partition });
  }
  return new TransactionMetadata({
    transactionalId,
    producerId: value.producerId,
    lastProducerId: NO_PRODUCER_ID,
    producerEpoch: value.producerEpoch,
    lastProducerEpoch: NO_PRODUCER_EPOCH,
    txnTimeoutMs: value.transactionTimeoutMs,
    state,
    topicPartitions: partitions,
    txnStartTimestamp: value.transactionStartTimestampMs,
    txnLastUpdateTimestamp: value.transactionLastUpdateTimestampMs,
  });
}

/**
 * TransactionLog.formatRecordKeyAndValue, what kafka-dump-log.sh prints for a `__transaction_state`
 * record with `--transaction-log-decoder` ([key, value]; the value is undefined for an unknown key).
 */
export function formatRecordKeyAndValue(
  key: Uint8Array,
  value: Uint8Array | null,
): [key: string, value: string | undefined] {
  const txnKey = readTxnRecordKey(key);
  if (txnKey.type === 'UnknownKey') return [`unknown::version=${txnKey.version}`, undefined];
  const keyString = `transaction_metadata::transactionalId=${txnKey.transactionalId}`;
  const m = readTxnRecordValue(txnKey.transactionalId, value);
  if (m === null) return [keyString, '<DELETE>'];
  const partitions = [...m.topicPartitions.keys()].join(',');
  return [
    keyString,
    `producerId:${m.producerId},producerEpoch:${m.producerEpoch},state=${m.state},partitions=[${partitions}],` +
      `txnLastUpdateTimestamp=${m.txnLastUpdateTimestamp},txnTimeoutMs=${m.txnTimeoutMs}`,
  ];
}
